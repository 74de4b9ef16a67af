"""Simulated students of assignment 2 (Uninformed search): typical mistakes.

Each entry replaces some solution cells (by grade id) of an otherwise correct submission.
The full automatic score is 27: search 3, search report 2, bfs 3, bfs on hard boards 2,
shuffle_pos 3, solve_pos 4, dfs 3, ucs 4, iddfs 3.
"""

STUDENTS: dict[str, dict[str, str]] = {
    # The handed-out BFS, only with a deque: no visited set. Fine on the easy examples,
    # hopeless on a hard board and endless when the goal cannot be reached.
    # Loses bfs on hard boards (2).
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
    # "solves" boards it should report as unsolved. Loses solve_pos (4).
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
    # UCS that adds 1 per move instead of the move's price: a shortest path, not the
    # cheapest, and a total that is its length. Loses ucs (4).
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
}

EXPECTED: dict[str, tuple[float, float]] = {
    "bfs_without_visited_set": (25, 25),
    "shuffle_allows_undo": (24, 24),
    "search_path_backwards": (24, 24),
    "dfs_recursive": (24, 24),
    "solve_pos_one_too_deep": (23, 23),
    "ucs_counts_moves": (23, 23),
}

#: What the feedback must say about each mistake (the diagnoses of `puzzlekit.diagnose`).
DIAGNOSES: dict[str, tuple[str, ...]] = {
    "search_path_backwards": ("the path runs from the goal back to the start",),
}
