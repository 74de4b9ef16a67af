"""Answers to assignment 4 (The 15-puzzle) written as real students write them.

See corpus_02 for what ANSWERS, LOSES and CAUSE hold. The points tried here:
can_reach 3, idastar 4, linear_conflict 3, build_pdb 3.
"""

ASSIGNMENT = "04-fifteen-puzzle"

ANSWERS: dict[str, dict[str, str]] = {
    # can_reach that takes the width from the number of rows (square boards only)
    "can_reach_rows_for_width": {"can_reach_solution": '''
def can_reach(S, goal):
    n = len(S)
    order = [x for row in goal for x in row if x != 0]
    seq = [order.index(x) for row in S for x in row if x != 0]
    inv = 0
    for i in range(len(seq)):
        for j in range(i + 1, len(seq)):
            if seq[i] > seq[j]:
                inv += 1
    if n % 2 == 1:
        return inv % 2 == 0
    return (inv + abs(findZero(S)[0] - findZero(goal)[0])) % 2 == 0
'''},
    # IDA* that tests for the goal only among the children it makes
    "idastar_goal_among_children": {"idastar_solution": '''
FOUND = "found"

def bounded_dfs(path, g, bound, goal, h):
    S = path[-1]
    smallest = float("inf")
    for T in nextStates(S):
        if len(path) > 1 and T == path[-2]:
            continue
        f = g + 1 + h(T, goal)
        if f > bound:
            smallest = min(smallest, f)
            continue
        path.append(T)
        if T == goal:
            return FOUND
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
            return path
        bound = t
'''},
    # linear conflict with the longest increasing subsequence by patience sorting
    "linear_conflict_bisect": {"linear_conflict_solution": '''
from bisect import bisect_left

def longest_increasing(seq):
    tails = []
    for x in seq:
        k = bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
        else:
            tails[k] = x
    return len(tails)

def linear_conflict(S, goal):
    pos = {}
    for r, row in enumerate(goal):
        for c, x in enumerate(row):
            pos[x] = (r, c)
    extra = 0
    for r in range(len(S)):
        line = [pos[x][1] for x in S[r] if x and pos[x][0] == r]
        extra += len(line) - longest_increasing(line)
    for c in range(len(S[0])):
        line = [pos[S[r][c]][0] for r in range(len(S)) if S[r][c] and pos[S[r][c]][1] == c]
        extra += len(line) - longest_increasing(line)
    return manhattan(S, goal) + 2 * extra
'''},
    # build_pdb with the 3×3 board built in
    "build_pdb_3x3": {"build_pdb_solution": '''
def build_pdb(goal, pattern):
    start = abstract(goal, pattern)
    dist = {start: 0}
    frontier = deque([start])
    while frontier:
        a = frontier.popleft()
        for b in abstract_moves(a, 3, 3):
            if b not in dist:
                dist[b] = dist[a] + 1
                frontier.append(b)
    return dist
'''},
}

LOSES: dict[str, dict[str, float]] = {
    "can_reach_rows_for_width": {"can_reach_tests": 0.75},
    "idastar_goal_among_children": {"idastar_tests": 1},
    "linear_conflict_bisect": {},
    "build_pdb_3x3": {"build_pdb_tests": 0.5},
}

CAUSE: dict[str, dict[str, str]] = {
    "can_reach_rows_for_width": {"can_reach_tests": "the board is 4 wide, an even width"},
    "idastar_goal_among_children": {"idastar_tests": "a start that is the goal"},
    "build_pdb_3x3": {"build_pdb_tests": "does your code assume a square or a 3×3 board"},
}

#: test cell -> the named mistakes (docs/mistakes.md) the grader must record there, and no
#: others: a name is evidence the grader saw (a cell not listed records none)
NAMED: dict[str, dict[str, list[str]]] = {
    "can_reach_rows_for_width": {"can_reach_tests": ["parity-ignores-blank-row",
                                                     "parity-counts-blank-row"]},
    "build_pdb_3x3": {"build_pdb_tests": ["assumes-3x3"]},
}
