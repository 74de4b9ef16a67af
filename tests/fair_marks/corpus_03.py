"""Answers to assignment 3 (Informed search) written as real students write them.

See corpus_02 for what ANSWERS, LOSES and CAUSE hold. The points: hamming 2,
manhattan 3, astar 3, astar on more boards 2, sign 2, solvable 2, solver 4 (and the
others, not tried here).
"""

ASSIGNMENT = "03-informed-search"

ANSWERS: dict[str, dict[str, str]] = {
    # a dict of goal positions: any size, any goal
    "manhattan_positions_dict": {"manhattan_solution": '''
def manhattan(S, goal):
    pos = {}
    for i, row in enumerate(goal):
        for j, v in enumerate(row):
            pos[v] = (i, j)
    d = 0
    for i, row in enumerate(S):
        for j, v in enumerate(row):
            if v:
                gi, gj = pos[v]
                d += abs(i - gi) + abs(j - gj)
    return d
'''},
    # flattened, with divmod by the width: any size, any goal
    "manhattan_flat_divmod": {"manhattan_solution": '''
def manhattan(S, goal):
    width = len(S[0])
    flat = [x for row in S for x in row]
    flat_goal = [x for row in goal for x in row]
    total = 0
    for i, tile in enumerate(flat):
        if tile == 0:
            continue
        j = flat_goal.index(tile)
        r1, c1 = divmod(i, width)
        r2, c2 = divmod(j, width)
        total += abs(r1 - r2) + abs(c1 - c2)
    return total
'''},
    # square boards only: the width is taken to be the number of rows
    "manhattan_square_only": {"manhattan_solution": '''
def manhattan(S, goal):
    n = len(S)
    flat = [x for row in S for x in row]
    flat_goal = [x for row in goal for x in row]
    total = 0
    for i, tile in enumerate(flat):
        if tile != 0:
            j = flat_goal.index(tile)
            total += abs(i // n - j // n) + abs(i % n - j % n)
    return total
'''},
    # counts the blank too
    "manhattan_counts_blank": {"manhattan_solution": '''
def manhattan(S, goal):
    where = {x: (r, c) for r, row in enumerate(goal) for c, x in enumerate(row)}
    return sum(abs(r - where[x][0]) + abs(c - where[x][1])
               for r, row in enumerate(S) for c, x in enumerate(row))
'''},
    # A* with (f, g, path) entries and a closed set: a board is never taken out again
    # (it loses only where the heuristic is not consistent)
    "astar_paths_closed_set": {"astar_solution": '''
def astar(start, goal, h):
    frontier = [(h(start, goal), 0, [start])]
    closed = set()
    while frontier:
        f, g, path = heapq.heappop(frontier)
        s = path[-1]
        if s == goal:
            return path
        if s in closed:
            continue
        closed.add(s)
        for t in nextStates(s):
            if t not in closed:
                heapq.heappush(frontier, (g + 1 + h(t, goal), g + 1, path + [t]))
    return None
'''},
    # A* that prints how many nodes it visited
    "astar_prints_nodes": {"astar_solution": '''
def astar(start, goal, h):
    count = 0
    best = {start: 0}
    parent = {start: None}
    heap = [(h(start, goal), 0, 0, start)]
    while heap:
        f, g, _, s = heapq.heappop(heap)
        if g > best[s]:
            continue
        count += 1
        if s == goal:
            print("Number of nodes visited:", count)
            path = [s]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1]
        for t in nextStates(s):
            if t not in best or g + 1 < best[t]:
                best[t] = g + 1
                parent[t] = s
                heapq.heappush(heap, (g + 1 + h(t, goal), g + 1, count, t))
    return None
'''},
    # A* that takes the lowest h, not g + h (greedy): paths too long
    "astar_greedy": {"astar_solution": '''
def astar(start, goal, h):
    parent = {start: None}
    heap = [(h(start, goal), 0, start)]
    n = 0
    while heap:
        _, _, s = heapq.heappop(heap)
        if s == goal:
            path = [s]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1]
        for t in nextStates(s):
            if t not in parent:
                parent[t] = s
                n += 1
                heapq.heappush(heap, (h(t, goal), n, t))
    return None
'''},
    # the solver with the course's functions: right
    "solver_plain": {"solver_solution": '''
def solver(source):
    S = read_board(source)
    if not solvable(S):
        print("No solution possible")
        return
    path = astar(S, goal_state(len(S)), manhattan)
    for state in path:
        print_board(state)
    print("Minimum number of moves = " + str(len(path) - 1))
'''},
    # the solver is right, but the student's solvable forgets the blank's row
    "solver_with_wrong_solvable": {"solvable_solution": '''
def solvable(S):
    tiles = [x for row in S for x in row if x != 0]
    return sign(tiles) == 1
''', "solver_solution": '''
def solver(source):
    S = read_board(source)
    if not solvable(S):
        print("No solution possible")
        return
    path = astar(S, goal_state(len(S)), manhattan)
    for state in path:
        print_board(state)
    print(f"Minimum number of moves = {len(path) - 1}")
'''},
    # the solver, with an astar that prints on the way
    "solver_astar_prints": {"astar_solution": '''
def astar(start, goal, h):
    best = {start: 0}
    parent = {start: None}
    heap = [(h(start, goal), 0, 0, start)]
    count = 0
    while heap:
        f, g, _, s = heapq.heappop(heap)
        if g > best[s]:
            continue
        count += 1
        if s == goal:
            print("Number of nodes visited:", count)
            path = [s]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1]
        for t in nextStates(s):
            if t not in best or g + 1 < best[t]:
                best[t] = g + 1
                parent[t] = s
                heapq.heappush(heap, (g + 1 + h(t, goal), g + 1, count, t))
    return None
''', "solver_solution": '''
def solver(source):
    S = read_board(source)
    if not solvable(S):
        print("No solution possible")
        return
    path = astar(S, goal_state(len(S)), manhattan)
    for state in path:
        print_board(state)
    print(f"Minimum number of moves = {len(path) - 1}")
'''},
    # the solver hard-wired to 3×3 boards
    "solver_hardwired_3x3": {"solver_solution": '''
def solver(source):
    S = read_board(source)
    G = ((1, 2, 3), (4, 5, 6), (7, 8, 0))
    if not solvable(S):
        print("No solution possible")
        return
    path = astar(S, G, manhattan)
    for state in path:
        print_board(state)
    print(f"Minimum number of moves = {len(path) - 1}")
'''},
    # hamming that walks range(3) by range(3)
    "hamming_range3": {"hamming_solution": '''
def hamming(S, goal):
    count = 0
    for i in range(3):
        for j in range(3):
            if S[i][j] != 0 and S[i][j] != goal[i][j]:
                count += 1
    return count
'''},
    # sign with true division (a float, equal to the int)
    "sign_true_division": {"sign_solution": '''
def sign(p):
    num = 1
    den = 1
    for i in range(len(p)):
        for j in range(i + 1, len(p)):
            num = num * (p[j] - p[i])
            den = den * (j - i)
    return num / den
'''},
    # solvable by the inversion rule of each width, without sign
    "solvable_by_inversions": {"solvable_solution": '''
def solvable(S):
    n = len(S)
    tiles = [x for row in S for x in row if x != 0]
    inv = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])
    if n % 2 == 1:
        return inv % 2 == 0
    blank_row = findZero(S)[0]
    return (inv + (n - 1 - blank_row)) % 2 == 0
'''},
}

LOSES: dict[str, dict[str, float]] = {
    "manhattan_positions_dict": {},
    "manhattan_flat_divmod": {},
    "manhattan_square_only": {"manhattan_tests": 0.5},
    "manhattan_counts_blank": {"manhattan_tests": 3},
    "astar_paths_closed_set": {"astar_more_tests": 1},
    "astar_prints_nodes": {},
    "astar_greedy": {"astar_tests": 2, "astar_more_tests": 1},
    "solver_plain": {},
    "solver_with_wrong_solvable": {"solvable_tests": 0.5, "solver_tests": 2},
    "solver_astar_prints": {},
    "solver_hardwired_3x3": {"solver_tests": 2},
    "hamming_range3": {"hamming_tests": 1},
    "sign_true_division": {},
    "solvable_by_inversions": {},
}

CAUSE: dict[str, dict[str, str]] = {
    "manhattan_square_only": {"manhattan_tests": "2×3"},
    "manhattan_counts_blank": {"manhattan_tests": "blank"},
    "astar_greedy": {"astar_tests": "shortest", "astar_more_tests": "shortest"},
    "astar_paths_closed_set": {"astar_more_tests": "A* must then take it out again"},
    "solver_hardwired_3x3": {"solver_tests": "does your code assume a 3×3 board"},
    "solver_with_wrong_solvable": {"solvable_tests": "the blank's row counts too",
                                   "solver_tests": "your solvable returns"},
    "hamming_range3": {"hamming_tests": "does your code assume a 3×3 board"},
}

#: test cell -> the named mistakes (docs/mistakes.md) the grader must record there, and no
#: others: a name is evidence the grader saw (a cell not listed records none)
NAMED: dict[str, dict[str, list[str]]] = {
    "manhattan_square_only": {"manhattan_tests": ["assumes-3x3"]},
    "solver_with_wrong_solvable": {"solvable_tests": ["parity-ignores-blank-row"],
                                   "solver_tests": ["own-part-wrong"]},
    "manhattan_counts_blank": {"manhattan_tests": ["heuristic-counts-blank"]},
    "astar_greedy": {"astar_tests": ["astar-not-shortest"], "astar_more_tests": ["astar-not-shortest"]},
    "astar_paths_closed_set": {"astar_more_tests": ["astar-never-reopens"]},
    "solver_hardwired_3x3": {"solver_tests": ["assumes-3x3"]},
    "hamming_range3": {"hamming_tests": ["assumes-3x3"]},
}
