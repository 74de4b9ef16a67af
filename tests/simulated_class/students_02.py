"""Simulated students of assignment 2 (Uninformed search): typical mistakes.

Each entry replaces some solution cells (by grade id) of an otherwise correct submission.
The full automatic score is 27: search 3, search report 2, bfs 3, bfs on hard boards 2,
shuffle_pos 3, solve_pos 4, dfs 3, ucs 4, iddfs 3.
"""

STUDENTS: dict[str, dict[str, str]] = {
    # The handed-out BFS, only with a deque: no visited set. Right on the easy examples,
    # but it expands boards again and again (1 of the 3 points for bfs), hopeless on a
    # hard board and endless when the goal cannot be reached (the recorder stops it at
    # 1,000 calls). Loses 2 of bfs and both of bfs on hard boards.
    "bfs_without_visited_set": {"bfs_solution": '''
def bfs(board):
    goal = list(range(1, len(board))) + [0]
    fringe = deque([(list(board), "")])
    while fringe:
        current, moves = fringe.popleft()
        if current == goal:
            return moves
        for letter, new in flat_successors(current):
            fringe.append((new, moves + letter))
    return None
'''},
    # shuffle_pos forgets to reject the move that undoes the previous one: the seeded
    # positions come out different. Loses shuffle_pos (3).
    "shuffle_allows_undo": {"shuffle_pos_solution": '''
def shuffle_pos(N):
    shift = {0: 4, 1: 1, 2: -4, 3: -1}
    p = list(A)
    for _ in range(N):
        gap = p.index(' ')
        while True:
            move = random.randint(0, 3)
            new = gap + shift[move]
            if 0 <= new < 16 and (move in (0, 2) or new // 4 == gap // 4):
                break
        p[gap], p[new] = p[new], p[gap]
    return p
'''},
    # search walks back from the goal along the parents but forgets to reverse the list:
    # the path runs from goal to start. The layer report is right. Loses search (3).
    "search_path_backwards": {"search_solution": '''
def search(nextStates, start, goal):
    parent = {start: None}
    layer = [start]
    k = 0
    while goal not in parent and layer:
        new = []
        for S in layer:
            for T in nextStates(S):
                if T not in parent:
                    parent[T] = S
                    new.append(T)
        layer = new
        if new:
            k += 1
            print(f"Iteration {k}: {len(new)} new states found.")
    if goal not in parent:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path
'''},
    # A recursive DFS: Python's recursion limit is hit thousands of moves deep.
    # Loses dfs (3).
    "dfs_recursive": {"dfs_solution": '''
def dfs(start, goal):
    seen = {start}
    def visit(path):
        S = path[-1]
        if S == goal:
            return list(path)
        for T in nextStates(S):
            if T not in seen:
                seen.add(T)
                path.append(T)
                found = visit(path)
                if found is not None:
                    return found
                path.pop()
        return None
    return visit([start])
'''},
    # solve_pos stops only at depth > maxmove, so it searches one move too deep and
    # "solves" boards it should report as unsolved (1 point), and prints the positions
    # without their number (1 point). Loses 2 of solve_pos's 4.
    "solve_pos_one_too_deep": {"solve_pos_solution": '''
def solve_pos(p, maxmove):
    parents = {str(p): None}
    depth = {str(p): 0}
    queue = deque([p])
    while queue:
        u = queue.popleft()
        if u == A:
            path = [u]
            while parents[str(path[-1])] is not None:
                path.append(parents[str(path[-1])])
            for q in reversed(path):
                print_pos(q)
            return len(path) - 1
        if depth[str(u)] > maxmove:
            continue
        for v in neighbors(u):
            if str(v) not in parents:
                parents[str(v)] = u
                depth[str(v)] = depth[str(u)] + 1
                queue.append(v)
    print_pos(p)
    print("unsolved")
    return None
'''},
    # UCS that adds 1 per move instead of the move's price: a shortest path (on these
    # boards also a cheapest one) and a total that is its length. 2 of the 4 points.
    "ucs_counts_moves": {"ucs_solution": '''
def ucs(start, goal, cost):
    best = {start: 0}
    parent = {start: None}
    counter = 0
    frontier = [(0, counter, start)]
    while frontier:
        g, _, S = heapq.heappop(frontier)
        if g > best[S]:
            continue
        if S == goal:
            path = [S]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1], g
        for letter, T in successors(S):
            if T not in best or g + 1 < best[T]:
                best[T] = g + 1
                parent[T] = S
                counter += 1
                heapq.heappush(frontier, (g + 1, counter, T))
    return None, None
'''},
    # The lecture's search without a visited set: it keeps every path and extends each
    # by every next state, so the layers triple. The counted nextStates stops it on the
    # 2×3 board with the reason; the lecture's board runs out of time. Loses search (3)
    # and the report (2), which needs the same search.
    "search_without_visited_set": {"search_solution": '''
def search(nextStates, start, goal):
    paths = [[start]]
    k = 0
    while paths:
        for path in paths:
            if path[-1] == goal:
                return path
        paths = [path + [T] for path in paths for T in nextStates(path[-1])]
        k += 1
        print(f"Iteration {k}: {len(paths)} new states found.")
    return None
'''},
    # bfs with a stack: pop() takes the newest board, so this is depth-first search.
    # Its 8-puzzle paths are right but thousands of moves long (1 of the 3 points for bfs,
    # 1 of the 2 for the hard board); the hidden 4×4 board, where it runs out of time, is
    # a case worth half a point, lost within that 1 (and the record of flat_successors on
    # the visible boards says it took the newest board first).
    "bfs_with_a_stack": {"bfs_solution": '''
def bfs(board):
    goal = list(range(1, len(board))) + [0]
    parent = {tuple(board): None}
    fringe = [list(board)]
    while fringe:
        current = fringe.pop()
        if current == goal:
            letters, key = [], tuple(current)
            while parent[key] is not None:
                key, letter = parent[key]
                letters.append(letter)
            return "".join(reversed(letters))
        for letter, new in flat_successors(current):
            if tuple(new) not in parent:
                parent[tuple(new)] = (tuple(current), letter)
                fringe.append(new)
    return None
'''},
    # UCS that prices each move by the way the tile goes (the letter's opposite). On this
    # board every path's two prices differ by the same amount, so its path is still a
    # cheapest one; the total it returns is not that path's price. 2 of the 4 points.
    "ucs_tile_costs": {"ucs_solution": '''
def ucs(start, goal, cost):
    tile = {"U": "D", "D": "U", "L": "R", "R": "L"}
    best = {start: 0}
    parent = {start: None}
    counter = 0
    frontier = [(0, counter, start)]
    while frontier:
        g, _, S = heapq.heappop(frontier)
        if g > best[S]:
            continue
        if S == goal:
            path = [S]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1], g
        for letter, T in successors(S):
            new = g + cost[tile[letter]]
            if T not in best or new < best[T]:
                best[T] = new
                parent[T] = S
                counter += 1
                heapq.heappush(frontier, (new, counter, T))
    return None, None
'''},
    # UCS that stops when the goal is first put in the queue: a cheaper way to it may
    # still be waiting there (it is, on one hidden board). 2 of the 4 points.
    "ucs_stops_at_generation": {"ucs_solution": '''
def ucs(start, goal, cost):
    if start == goal:
        return [start], 0
    best = {start: 0}
    parent = {start: None}
    counter = 0
    frontier = [(0, counter, start)]
    while frontier:
        g, _, S = heapq.heappop(frontier)
        if g > best[S]:
            continue
        for letter, T in successors(S):
            new = g + cost[letter]
            if T not in best or new < best[T]:
                best[T] = new
                parent[T] = S
                if T == goal:
                    path = [T]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return path[::-1], new
                counter += 1
                heapq.heappush(frontier, (new, counter, T))
    return None, None
'''},
    # UCS without the stale-entry check: a board that waits in the queue twice is
    # expanded twice. Its answers are right; the record of successors says it worked
    # twice. 3 of the 4 points.
    "ucs_no_stale_check": {"ucs_solution": '''
def ucs(start, goal, cost):
    best = {start: 0}
    parent = {start: None}
    counter = 0
    frontier = [(0, counter, start)]
    while frontier:
        g, _, S = heapq.heappop(frontier)
        if S == goal:
            path = [S]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path[::-1], g
        for letter, T in successors(S):
            if T not in best or g + cost[letter] < best[T]:
                best[T] = g + cost[letter]
                parent[T] = S
                counter += 1
                heapq.heappush(frontier, (best[T], counter, T))
    return None, None
'''},
    # The lecture's search with its layer report off by one: it prints before counting,
    # so the first layer of new states is "Iteration 0". Loses the report (2).
    "search_report_off_by_one": {"search_solution": '''
def search(nextStates, start, goal):
    parent = {start: None}
    layer = [start]
    k = 0
    while goal not in parent and layer:
        new = []
        for S in layer:
            for T in nextStates(S):
                if T not in parent:
                    parent[T] = S
                    new.append(T)
        layer = new
        if new:
            print(f"Iteration {k}: {len(new)} new states found.")
            k += 1
    if goal not in parent:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]
'''},
    # Iterative deepening whose depth-limited search never looks at the path: it steps
    # straight back to the board it came from, and the searches grow as 3^d instead of
    # about 2^d. Right on the easy boards (the record says it stepped back); out of time
    # 13 moves deep. Loses iddfs (3).
    "iddfs_no_path_check": {"iddfs_solution": '''
def depth_limited(path, goal, limit):
    S = path[-1]
    if S == goal:
        return path
    if limit == 0:
        return None
    for T in nextStates(S):
        found = depth_limited(path + [T], goal, limit - 1)
        if found is not None:
            return found
    return None


def iddfs(start, goal):
    limit = 0
    while True:
        found = depth_limited([start], goal, limit)
        if found is not None:
            return found
        limit += 1
'''},
    # shuffle_pos picks among the legal moves with random.choice instead of drawing
    # random.randint(0, 3) again until a move is legal: a fair shuffle, but other random
    # numbers, so the seeded positions drift. Loses shuffle_pos (3).
    "shuffle_pos_draws_differently": {"shuffle_pos_solution": '''
def shuffle_pos(N):
    shift = {0: 4, 1: 1, 2: -4, 3: -1}
    p = list(A)
    last = None
    for _ in range(N):
        gap = p.index(' ')
        moves = [m for m in range(4)
                 if 0 <= gap + shift[m] < 16
                 and (m in (0, 2) or (gap + shift[m]) // 4 == gap // 4)
                 and not (last is not None and abs(m - last) == 2)]
        move = random.choice(moves)
        new = gap + shift[move]
        p[gap], p[new] = p[new], p[gap]
        last = move
    return p
'''},
}

#: What each mistake costs, test cell by test cell: the points it loses (a cell that
#: loses part of its points is partial credit). Every test cell an entry does not
#: name gives its full points, so a new exercise touches only its own lines.
LOSES: dict[str, dict[str, float]] = {
    "bfs_without_visited_set": {"bfs_tests": 2, "bfs_hard_tests": 2},
    "shuffle_allows_undo": {"shuffle_pos_tests": 3},
    "search_path_backwards": {"search_tests": 3},
    "dfs_recursive": {"dfs_tests": 3},
    "solve_pos_one_too_deep": {"solve_pos_tests": 2},
    "ucs_counts_moves": {"ucs_tests": 2},
    "search_without_visited_set": {"search_tests": 3, "search_report_tests": 2},
    "bfs_with_a_stack": {"bfs_tests": 2, "bfs_hard_tests": 1},
    "ucs_tile_costs": {"ucs_tests": 2},
    "ucs_stops_at_generation": {"ucs_tests": 2},
    "ucs_no_stale_check": {"ucs_tests": 1},
    "search_report_off_by_one": {"search_report_tests": 2},
    "iddfs_no_path_check": {"iddfs_tests": 2},
    "shuffle_pos_draws_differently": {"shuffle_pos_tests": 3},
}

#: What the feedback must say about each mistake (the diagnoses of `puzzlekit.testcells.diagnose`).
DIAGNOSES: dict[str, tuple[str, ...]] = {
    "search_path_backwards": ("the path runs from the goal back to the start",),
    "search_without_visited_set": ("it expands boards it has already expanded",
                                   "Keep a set of the boards already seen"),
    "bfs_without_visited_set": ("the search called flat_successors 1,001 times but there "
                                "were only 12 different boards among them",),
    # the hard board: a 52,807-move path, or out of its computing time where the machine
    # is slower; the case is named either way (the same point lost)
    "bfs_with_a_stack": ("breadth-first search takes the oldest board out of its queue",
                         "partly right, 1 point", "bfs of a hard board"),
    "dfs_recursive": ("instead of recursion",),
    "shuffle_allows_undo": ("it lets a move undo the one before",),
    "solve_pos_one_too_deep": ("it returned a solution longer than maxmove",),
    "search_report_off_by_one": ("the report is off by one",),
    "ucs_no_stale_check": ("it expanded some boards more than once", "a stale entry"),
    "ucs_counts_moves": ("the total is the number of moves",),
    "ucs_tile_costs": ("the total prices each move by the way the tile goes",),
    "ucs_stops_at_generation": ("a cheaper path exists (43)",
                                "stops when the goal comes out of the queue"),
    "iddfs_no_path_check": ("it stepped straight back to the board it came from",),
    "shuffle_pos_draws_differently": ("shuffle_pos(1) itself is right, but it drew a "
                                      "different number of random numbers",),
}

#: The named mistakes the grader must record for each student, test cell by test cell
#: (see students_01.MISTAKES). "too-slow" depends on the machine's speed as well: where
#: a search is also slow, the grader may name it beside the planted mistake.
MISTAKES: dict[str, dict[str, str]] = {
    "bfs_without_visited_set": {"bfs_tests": "no-visited-set",
                                "bfs_hard_tests": "no-visited-set"},
    "shuffle_allows_undo": {"shuffle_pos_tests": "shuffle-allows-undo"},
    "search_path_backwards": {"search_tests": "path-backwards"},
    "dfs_recursive": {"dfs_tests": "recursion-too-deep"},
    "solve_pos_one_too_deep": {"solve_pos_tests": "longer-than-limit"},
    "ucs_counts_moves": {"ucs_tests": "cost-counts-moves"},
    # its layer report fails too, slow on a deeper board or stopped by the recorder: which
    # one depends on the machine's speed, so only the search's own cell is named here
    "search_without_visited_set": {"search_tests": "no-visited-set"},
    "bfs_with_a_stack": {"bfs_tests": "bfs-takes-newest"},
    "ucs_tile_costs": {"ucs_tests": "cost-tile-prices"},
    "ucs_stops_at_generation": {"ucs_tests": "ucs-stops-early"},
    "ucs_no_stale_check": {"ucs_tests": "no-stale-check"},
    "search_report_off_by_one": {"search_report_tests": "report-off-by-one"},
    "iddfs_no_path_check": {"iddfs_tests": "steps-straight-back"},
    "shuffle_pos_draws_differently": {"shuffle_pos_tests": "shuffle-draws-differ"},
}
