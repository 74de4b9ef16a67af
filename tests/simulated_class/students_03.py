"""Simulated students of assignment 3 (Informed search): typical mistakes.

Each entry replaces some solution cells (by grade id) of an otherwise correct submission.
The full automatic score is 20: hamming 2, manhattan 3, astar 3, astar (4×4, h = 0) 2,
sign 2, solvable 2, inversions 2, solver 4.
"""

STUDENTS: dict[str, dict[str, str]] = {
    # Manhattan that counts the blank as a tile: 12 instead of 10 on the example, and no
    # longer admissible. Loses manhattan (3); the solver, which uses it, still passes.
    "manhattan_counts_blank": {"manhattan_solution": '''
def manhattan(S, goal):
    where = {x: (r, c) for r, row in enumerate(goal) for c, x in enumerate(row)}
    total = 0
    for r, row in enumerate(S):
        for c, x in enumerate(row):
            gr, gc = where[x]
            total += abs(r - gr) + abs(c - gc)
    return total
'''},
    # "A*" whose priority forgets g: greedy best-first search. Fast, but its paths are
    # not shortest: 1 of 3 (astar) and 1 of 2 (astar_more, whose h = 0 test it passes:
    # with h = 0 its queue is first in, first out). Loses the solver (4).
    "astar_forgets_g": {"astar_solution": '''
def astar(start, goal, h):
    parent = {start: None}
    counter = 0
    frontier = [(h(start, goal), counter, start)]
    while frontier:
        _, _, S = heapq.heappop(frontier)
        if S == goal:
            path = [S]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1]
        for T in nextStates(S):
            if T not in parent:
                parent[T] = S
                counter += 1
                heapq.heappush(frontier, (h(T, goal), counter, T))
    return None
'''},
    # The sign of the tiles read as they stand, without first moving the blank home:
    # right on boards of odd width (there a move keeps the sign), wrong on even ones.
    # Loses the 2×2 and 4×4 boards of solvable (0.5, named as the parity rule of an odd
    # width) and half the solver (2: the 2×2 and 4×4 cases, where it refuses a solvable
    # board; the solver's test names the student's solvable as the part that is wrong).
    "solvable_blank_not_moved_home": {"solvable_solution": '''
def solvable(S):
    return sign([x for row in S for x in row if x != 0]) == 1
'''},
    # Inversions counted with the blank as a 0 tile: every tile before the blank makes
    # one more inversion. Loses inversions (2).
    "inversions_count_the_blank": {"inversions_solution": '''
def num_inversions(squares):
    tiles = [0 if x == '_' else int(x) for x in squares]
    return sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles))
               if tiles[i] > tiles[j])


def same_parity(initial, goal):
    return num_inversions(initial) % 2 == num_inversions(goal) % 2
'''},
    # Takes puzzlekit's ready-made Manhattan distance instead of writing it: caught by
    # forbid_reference. Loses manhattan (3); the solver still works with it.
    "manhattan_from_puzzlekit": {"manhattan_solution": '''
from puzzlekit import manhattan
'''},
    # Manhattan measured against the course's usual goal (blank last) whatever goal it is
    # given: right on the visible tests, wrong on the hidden goals. Loses manhattan (3).
    "manhattan_wrong_goal": {"manhattan_solution": '''
def manhattan(S, goal):
    n = len(S)
    total = 0
    for r, row in enumerate(S):
        for c, x in enumerate(row):
            if x != 0:
                gr, gc = divmod(x - 1, n)
                total += abs(r - gr) + abs(c - gc)
    return total
'''},
    # A* with a closed set that never reopens: right with a consistent h, a longer path
    # with an admissible h that is not consistent. 1 of the 2 points of astar_more.
    "astar_closed_never_reopens": {"astar_solution": '''
def astar(start, goal, h):
    parent = {start: None}
    g = {start: 0}
    closed = set()
    counter = 0
    frontier = [(h(start, goal), counter, start)]
    while frontier:
        _, _, S = heapq.heappop(frontier)
        if S == goal:
            path = [S]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1]
        if S in closed:
            continue
        closed.add(S)
        for T in nextStates(S):
            if T in closed:
                continue
            if T not in g or g[S] + 1 < g[T]:
                g[T] = g[S] + 1
                parent[T] = S
                counter += 1
                heapq.heappush(frontier, (g[T] + h(T, goal), counter, T))
    return None
'''},
    # Hamming that counts the blank as a misplaced tile. Loses hamming (2).
    "hamming_counts_blank": {"hamming_solution": '''
def hamming(S, goal):
    return sum(1 for r, row in enumerate(S) for c, x in enumerate(row) if x != goal[r][c])
'''},
}

#: What each mistake costs, test cell by test cell: the points it loses (a cell that
#: loses part of its points is partial credit). Every test cell an entry does not
#: name gives its full points, so a new exercise touches only its own lines.
LOSES: dict[str, dict[str, float]] = {
    "manhattan_counts_blank": {"manhattan_tests": 3},
    "astar_forgets_g": {"astar_tests": 2, "astar_more_tests": 1, "solver_tests": 4},
    "solvable_blank_not_moved_home": {"solvable_tests": 0.5, "solver_tests": 2},
    "inversions_count_the_blank": {"inversions_tests": 2},
    "manhattan_from_puzzlekit": {"manhattan_tests": 3},
    "manhattan_wrong_goal": {"manhattan_tests": 3},
    "astar_closed_never_reopens": {"astar_more_tests": 1},
    "hamming_counts_blank": {"hamming_tests": 2},
}

#: What the feedback must say about each mistake (the diagnoses of `puzzlekit.testcells.diagnose`).
DIAGNOSES: dict[str, tuple[str, ...]] = {
    "manhattan_counts_blank": ("it counts the blank as a tile",),
    "hamming_counts_blank": ("it counts the blank as a misplaced tile",),
    "manhattan_wrong_goal": ("it ignores the goal it is given: its answers are those for "
                             "the default goal",),
    "astar_forgets_g": ("its priority is g + h", "partly right, 1 point"),
    "astar_closed_never_reopens": ("A* must then take it out again",),
    "inversions_count_the_blank": ("it counts the blank as a tile 0",),
    "manhattan_from_puzzlekit": ("your code called puzzlekit's ready-made manhattan",),
}

#: The named mistakes the grader must record for each student, test cell by test cell
#: (see students_01.MISTAKES).
MISTAKES: dict[str, dict[str, str]] = {
    "manhattan_counts_blank": {"manhattan_tests": "heuristic-counts-blank"},
    "astar_forgets_g": {"astar_tests": "astar-not-shortest",
                        "astar_more_tests": "astar-not-shortest",
                        "solver_tests": "own-part-wrong"},
    "solvable_blank_not_moved_home": {"solvable_tests": "parity-ignores-blank-row",
                                      "solver_tests": "own-part-wrong"},
    "inversions_count_the_blank": {"inversions_tests": "inversions-count-blank"},
    "manhattan_from_puzzlekit": {"manhattan_tests": "used-the-reference"},
    "manhattan_wrong_goal": {"manhattan_tests": "ignores-the-goal"},
    "astar_closed_never_reopens": {"astar_more_tests": "astar-never-reopens"},
    "hamming_counts_blank": {"hamming_tests": "heuristic-counts-blank"},
}
