"""Simulated students of assignment 4 (The 15-puzzle): typical mistakes.

Each entry replaces some solution cells (by grade id) of an otherwise correct submission.
The full automatic score is 15: can_reach 3, which_goal 1, idastar 4, linear_conflict 3,
the 19-mover 1, build_pdb 3.
"""

STUDENTS: dict[str, dict[str, str]] = {
    # The odd-width rule everywhere: the blank's row is ignored on the 4×4 board.
    # Loses can_reach (3) and which_goal (1), which uses it.
    "can_reach_ignores_blank_row": {"can_reach_solution": '''
def can_reach(S, goal):
    rank = {x: i for i, x in enumerate(flatten(goal))}
    seq = [rank[x] for x in flatten(S) if x != 0]
    inversions = sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq))
                     if seq[i] > seq[j])
    return inversions % 2 == 0
'''},
    # Linear conflict as 2 per conflicting *pair*: a reversed row of three counts 3 pairs
    # (6 extra moves) where only 2 tiles must leave (4): not admissible.
    # Loses linear_conflict (3).
    "linear_conflict_counts_pairs": {"linear_conflict_solution": '''
def longest_increasing(seq):
    return 0


def linear_conflict(S, goal):
    where = {x: (r, c) for r, row in enumerate(goal) for c, x in enumerate(row)}
    pairs = 0
    for r, row in enumerate(S):
        cols = [where[x][1] for x in row if x != 0 and where[x][0] == r]
        pairs += sum(1 for i in range(len(cols)) for j in range(i + 1, len(cols))
                     if cols[i] > cols[j])
    for c in range(len(S[0])):
        rows = [where[S[r][c]][0] for r in range(len(S))
                if S[r][c] != 0 and where[S[r][c]][1] == c]
        pairs += sum(1 for i in range(len(rows)) for j in range(i + 1, len(rows))
                     if rows[i] > rows[j])
    return manhattan(S, goal) + 2 * pairs
'''},
    # IDA* that returns the states *after* the start (the start is not a move, the student
    # thought): not a path from the start. Loses idastar (4) and the 19-mover (1).
    "idastar_leaves_out_start": {"idastar_solution": '''
FOUND = "found"


def bounded_dfs(path, g, bound, goal, h):
    S = path[-1]
    f = g + h(S, goal)
    if f > bound:
        return f
    if S == goal:
        return FOUND
    smallest = float("inf")
    for T in nextStates(S):
        if len(path) > 1 and T == path[-2]:
            continue
        path.append(T)
        t = bounded_dfs(path, g + 1, bound, goal, h)
        if t == FOUND:
            return FOUND
        smallest = min(smallest, t)
        path.pop()
    return smallest


def idastar(start, goal, h):
    bound = h(start, goal)
    path = [start]
    while True:
        t = bounded_dfs(path, 0, bound, goal, h)
        if t == FOUND:
            return path[1:]
        bound = t
'''},
    # The pattern database filled by depth-first search (a stack, not a queue): every
    # abstract state is found, but often by a long way round. Loses build_pdb (3).
    "build_pdb_with_a_stack": {"build_pdb_solution": '''
def build_pdb(goal, pattern):
    rows, cols = len(goal), len(goal[0])
    start = abstract(goal, pattern)
    distance = {start: 0}
    stack = [start]
    while stack:
        a = stack.pop()
        for b in abstract_moves(a, rows, cols):
            if b not in distance:
                distance[b] = distance[a] + 1
                stack.append(b)
    return distance
'''},
}

#: What each mistake costs, test cell by test cell: the points it loses (a cell that
#: loses part of its points is partial credit). Every test cell an entry does not
#: name gives its full points, so a new exercise touches only its own lines.
LOSES: dict[str, dict[str, float]] = {
    "can_reach_ignores_blank_row": {"can_reach_tests": 3, "which_goal_tests": 1},
    "linear_conflict_counts_pairs": {"linear_conflict_tests": 3},
    "idastar_leaves_out_start": {"idastar_tests": 4, "nineteen_tests": 1},
    "build_pdb_with_a_stack": {"build_pdb_tests": 3},
}

#: What the feedback must say about each mistake (the diagnoses of `puzzlekit.testcells.diagnose`).
DIAGNOSES: dict[str, tuple[str, ...]] = {
    "idastar_leaves_out_start": ("the path leaves out the start",),
    "can_reach_ignores_blank_row": ("an even width", "the blank's row counts too"),
    "linear_conflict_counts_pairs": ("it adds 2 for every conflicting pair",),
}

#: The named mistakes the grader must record for each student, test cell by test cell
#: (see students_01.MISTAKES).
MISTAKES: dict[str, dict[str, str]] = {
    "can_reach_ignores_blank_row": {"can_reach_tests": "parity-ignores-blank-row"},
    "linear_conflict_counts_pairs": {"linear_conflict_tests": "conflict-every-pair"},
    "idastar_leaves_out_start": {"idastar_tests": "path-without-start",
                                 "nineteen_tests": "path-without-start"},
    "build_pdb_with_a_stack": {},
}
