"""Answers to assignment 2 (Uninformed search) written as real students write them.

None is the course's model answer: each is in a style seen in students' work elsewhere
(paths kept in the queue, states as strings, a list for a queue, recursion, a goal built
in, a search that prints as it goes, an empty result for "no path"). `LOSES` says what a
fair grader takes from each, test cell by test cell (nothing: full marks), and `CAUSE`
what the first sentence of each losing cell must name.
The points: search 3, search report 2, bfs 3, bfs on hard boards 2, solve_pos 4, dfs 3,
ucs 4, iddfs 3.
"""

ASSIGNMENT = "02-uninformed-search"

ANSWERS: dict[str, dict[str, str]] = {
    # the lecture's style: whole paths in the queue, a visited set
    "search_paths_in_queue": {"search_solution": '''
def search(nextStates, start, goal):
    queue = [[start]]
    visited = {start}
    iteration = 0
    while queue:
        next_queue = []
        for path in queue:
            if path[-1] == goal:
                return path
            for s in nextStates(path[-1]):
                if s not in visited:
                    visited.add(s)
                    next_queue.append(path + [s])
        queue = next_queue
        if queue:
            iteration += 1
            print("Iteration " + str(iteration) + ": " + str(len(queue)) + " new states found.")
    return None
'''},
    # parents in a dict, a deque, the report printed per layer from a depth dict
    "search_depth_dict": {"search_solution": '''
def search(nextStates, start, goal):
    from collections import deque
    depth = {start: 0}
    parent = {}
    q = deque([start])
    counts = {}
    while q:
        s = q.popleft()
        if s == goal:
            break
        for t in nextStates(s):
            if t not in depth:
                depth[t] = depth[s] + 1
                parent[t] = s
                counts[depth[t]] = counts.get(depth[t], 0) + 1
                q.append(t)
    for k in sorted(counts):
        print(f"Iteration {k}: {counts[k]} new states found.")
    if goal not in depth:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    path.reverse()
    return path
'''},
    # the path from the parents, but without the start
    "search_path_without_start": {"search_solution": '''
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
    path = []
    node = goal
    while node != start:
        path.append(node)
        node = parent[node]
    return path[::-1]
'''},
    # right, but it returns [] when the start is the goal
    "search_empty_when_solved": {"search_solution": '''
def search(nextStates, start, goal):
    parent = {start: None}
    layer = [start]
    k = 0
    while layer:
        new = []
        for S in layer:
            for T in nextStates(S):
                if T not in parent:
                    parent[T] = S
                    new.append(T)
                    if T == goal:
                        print(f"Iteration {k + 1}: {len(new)} new states found.")
                        path = [T]
                        while parent[path[-1]] is not None:
                            path.append(parent[path[-1]])
                        return path[::-1]
        layer = new
        if new:
            k += 1
            print(f"Iteration {k}: {len(new)} new states found.")
    return []
'''},
    # the visited "set" is a list: right, but far too slow on the lecture's board
    "search_visited_list": {"search_solution": '''
def search(nextStates, start, goal):
    visited = [start]
    parent = {start: None}
    layer = [start]
    k = 0
    while goal not in visited and layer:
        new = []
        for S in layer:
            for T in nextStates(S):
                if T not in visited:
                    visited.append(T)
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
    return path[::-1]
'''},
    # BFS with a list as the queue (pop(0)) and states as strings at the edge
    "bfs_strings_pop0": {"bfs_solution": '''
def bfs(board):
    n = len(board)
    goal = ",".join(str(x) for x in list(range(1, n)) + [0])
    start = ",".join(str(x) for x in board)
    queue = [(start, "")]
    seen = set([start])
    while queue:
        key, moves = queue.pop(0)
        if key == goal:
            return moves
        current = [int(x) for x in key.split(",")]
        for letter, new in flat_successors(current):
            k = ",".join(str(x) for x in new)
            if k not in seen:
                seen.add(k)
                queue.append((k, moves + letter))
    return None
'''},
    # BFS that keeps a dict of parents and the letters, rebuilt at the end
    "bfs_parent_letters": {"bfs_solution": '''
def bfs(board):
    start = tuple(board)
    goal = tuple(sorted(board)[1:]) + (0,)
    came_from = {start: (None, None)}
    frontier = deque([start])
    while frontier:
        s = frontier.popleft()
        if s == goal:
            letters = []
            while came_from[s][0] is not None:
                s, letter = came_from[s]
                letters.append(letter)
            return "".join(reversed(letters))
        for letter, new in flat_successors(list(s)):
            t = tuple(new)
            if t not in came_from:
                came_from[t] = (s, letter)
                frontier.append(t)
    return None
'''},
    # the goal and the moves hard-wired for 3×3 boards
    "bfs_hardwired_3x3": {"bfs_solution": '''
def bfs(board):
    goal = [1, 2, 3, 4, 5, 6, 7, 8, 0]
    frontier = deque([(list(board), "")])
    seen = {tuple(board)}
    while frontier:
        b, moves = frontier.popleft()
        if b == goal:
            return moves
        z = b.index(0)
        r, c = z // 3, z % 3
        for letter, dr, dc in (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1)):
            if 0 <= r + dr < 3 and 0 <= c + dc < 3:
                q = (r + dr) * 3 + (c + dc)
                new = list(b)
                new[z], new[q] = new[q], 0
                if tuple(new) not in seen:
                    seen.add(tuple(new))
                    frontier.append((new, moves + letter))
    return None
'''},
    # right, but says "unsolvable" instead of None
    "bfs_status_string": {"bfs_solution": '''
def bfs(board):
    goal = list(range(1, len(board))) + [0]
    frontier = deque([(list(board), "")])
    seen = {tuple(board)}
    while frontier:
        current, moves = frontier.popleft()
        if current == goal:
            return moves
        for letter, new in flat_successors(current):
            if tuple(new) not in seen:
                seen.add(tuple(new))
                frontier.append((new, moves + letter))
    return "unsolvable"
'''},
    # DFS with a stack of paths and a visited set
    "dfs_stack_of_paths": {"dfs_solution": '''
def dfs(start, goal):
    stack = [[start]]
    visited = set()
    while stack:
        path = stack.pop()
        s = path[-1]
        if s == goal:
            return path
        if s in visited:
            continue
        visited.add(s)
        for t in nextStates(s):
            if t not in visited:
                stack.append(path + [t])
    return None
'''},
    # DFS by recursion: on the 8-puzzle it goes tens of thousands of boards deep
    "dfs_recursion": {"dfs_solution": '''
def dfs(start, goal, visited=None):
    if visited is None:
        visited = set()
    if start == goal:
        return [start]
    visited.add(start)
    for t in nextStates(start):
        if t not in visited:
            rest = dfs(t, goal, visited)
            if rest is not None:
                return [start] + rest
    return None
'''},
    # UCS with (cost, path) entries: right
    "ucs_paths_in_heap": {"ucs_solution": '''
def ucs(start, goal, cost):
    heap = [(0, [start])]
    done = set()
    while heap:
        g, path = heapq.heappop(heap)
        s = path[-1]
        if s in done:
            continue
        if s == goal:
            return path, g
        done.add(s)
        for letter, t in successors(s):
            if t not in done:
                heapq.heappush(heap, (g + cost[letter], path + [t]))
    return None, None
'''},
    # UCS that tests for the goal when it generates it: not always the cheapest
    "ucs_goal_at_generation": {"ucs_solution": '''
def ucs(start, goal, cost):
    if start == goal:
        return [start], 0
    heap = [(0, [start])]
    best = {start: 0}
    while heap:
        g, path = heapq.heappop(heap)
        s = path[-1]
        for letter, t in successors(s):
            g2 = g + cost[letter]
            if t == goal:
                return path + [t], g2
            if t not in best or g2 < best[t]:
                best[t] = g2
                heapq.heappush(heap, (g2, path + [t]))
    return None, None
'''},
    # iterative deepening with a set per path (recursion), giving up after depth 31
    "iddfs_recursive_set": {"iddfs_solution": '''
def depth_limited(path, goal, limit):
    if path[-1] == goal:
        return path
    if limit <= 0:
        return None
    on_path = set(path)
    for t in nextStates(path[-1]):
        if t not in on_path:
            found = depth_limited(path + [t], goal, limit - 1)
            if found:
                return found
    return None


def iddfs(start, goal, max_depth=31):
    for limit in range(max_depth + 1):
        found = depth_limited([start], goal, limit)
        if found:
            return found
    return None
'''},
    # iterative deepening that never gives up: endless when the goal cannot be reached
    "iddfs_never_gives_up": {"iddfs_solution": '''
def depth_limited(path, goal, limit):
    if path[-1] == goal:
        return path
    if limit == 0:
        return None
    for t in nextStates(path[-1]):
        if t not in path:
            found = depth_limited(path + [t], goal, limit - 1)
            if found is not None:
                return found
    return None


def iddfs(start, goal, max_depth=31):
    limit = 0
    while True:
        found = depth_limited([start], goal, limit)
        if found is not None:
            return found
        limit += 1
'''},
    # the lecture's other order of arguments: search(start, goal, next_states)
    "search_other_argument_order": {"search_solution": '''
def search(start, goal, next_states):
    parent = {start: None}
    layer = [start]
    k = 0
    while goal not in parent and layer:
        new = []
        for S in layer:
            for T in next_states(S):
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
    return path[::-1]
'''},
    # right, and it also prints a last line of its own
    "search_prints_a_summary": {"search_solution": '''
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
    print(f"Done: {len(parent)} states seen.")
    if goal not in parent:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]
'''},
    # BFS that returns the boards along the way instead of the letters
    "bfs_returns_boards": {"bfs_solution": '''
def bfs(board):
    goal = list(range(1, len(board))) + [0]
    parent = {tuple(board): None}
    frontier = deque([list(board)])
    while frontier:
        b = frontier.popleft()
        if b == goal:
            path = [tuple(b)]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return [list(x) for x in reversed(path)]
        for _, new in flat_successors(b):
            if tuple(new) not in parent:
                parent[tuple(new)] = tuple(b)
                frontier.append(new)
    return None
'''},
    # DFS with a list as the stack and the parents in a dict: right
    "dfs_parent_dict": {"dfs_solution": '''
def dfs(start, goal):
    came_from = {start: None}
    todo = [start]
    while todo:
        s = todo.pop()
        if s == goal:
            break
        for t in nextStates(s):
            if t not in came_from:
                came_from[t] = s
                todo.append(t)
    else:
        return None
    path = []
    while s is not None:
        path.insert(0, s)
        s = came_from[s]
    return path
'''},
    # DFS that forgets to reverse the path
    "dfs_backwards": {"dfs_solution": '''
def dfs(start, goal):
    parent = {start: None}
    stack = [start]
    while stack:
        S = stack.pop()
        if S == goal:
            path = [S]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            return path
        for T in nextStates(S):
            if T not in parent:
                parent[T] = S
                stack.append(T)
    return None
'''},
    # UCS with (cost, state) entries and a dict of best costs: right
    "ucs_best_dict": {"ucs_solution": '''
def ucs(start, goal, cost):
    dist = {start: 0}
    prev = {start: None}
    pq = [(0, start)]
    while pq:
        d, s = heapq.heappop(pq)
        if d > dist[s]:
            continue
        if s == goal:
            path = []
            while s is not None:
                path.append(s)
                s = prev[s]
            return path[::-1], d
        for letter, t in successors(s):
            nd = d + cost[letter]
            if nd < dist.get(t, float("inf")):
                dist[t] = nd
                prev[t] = s
                heapq.heappush(pq, (nd, t))
    return None, None
'''},
    # iterative deepening with a fixed range(32) and no max_depth argument: right
    "iddfs_fixed_range": {"iddfs_solution": '''
def depth_limited(path, goal, limit):
    s = path[-1]
    if s == goal:
        return path
    if limit == 0:
        return None
    for t in nextStates(s):
        if t in path:
            continue
        r = depth_limited(path + [t], goal, limit - 1)
        if r is not None:
            return r
    return None


def iddfs(start, goal):
    for limit in range(32):
        r = depth_limited([start], goal, limit)
        if r is not None:
            return r
    return None
'''},
    # solve_pos with whole paths in the queue (the path's length is the depth)
    "solve_pos_paths": {"solve_pos_solution": """
def solve_pos(p, maxmove):
    parents = {str(p): None}
    queue = deque([[p]])
    while queue:
        path = queue.popleft()
        if path[-1] == A:
            print(len(path) - 1, "moves")
            for q in path:
                print_pos(q)
            return len(path) - 1
        if len(path) - 1 < maxmove:
            for q in neighbors(path[-1]):
                if str(q) not in parents:
                    parents[str(q)] = path[-1]
                    queue.append(path + [q])
    print_pos(p)
    print("unsolved")
"""},
    # solve_pos that prints only the number of moves
    "solve_pos_prints_count": {"solve_pos_solution": """
def solve_pos(p, maxmove):
    parents = {str(p): None}
    depth = {str(p): 0}
    queue = deque([p])
    while queue:
        u = queue.popleft()
        if u == A:
            n = depth[str(u)]
            print("Solved in", n, "moves")
            return n
        if depth[str(u)] < maxmove:
            for v in neighbors(u):
                if str(v) not in parents:
                    parents[str(v)] = u
                    depth[str(v)] = depth[str(u)] + 1
                    queue.append(v)
    print_pos(p)
    print("unsolved")
    return None
"""},
    # solve_pos whose depth test comes after the goal test of the children, one too deep
    "solve_pos_one_too_deep": {"solve_pos_solution": """
def solve_pos(p, maxmove):
    parents = {str(p): None}
    depth = {str(p): 0}
    queue = deque([p])
    if p == A:
        print("0 moves")
        print_pos(p)
        return 0
    while queue:
        u = queue.popleft()
        if depth[str(u)] > maxmove:
            continue
        for v in neighbors(u):
            if str(v) in parents:
                continue
            parents[str(v)] = u
            depth[str(v)] = depth[str(u)] + 1
            if v == A:
                path = [v]
                while parents[str(path[-1])] is not None:
                    path.append(parents[str(path[-1])])
                print(len(path) - 1, "moves")
                for q in reversed(path):
                    print_pos(q)
                return len(path) - 1
            queue.append(v)
    print_pos(p)
    print("unsolved")
"""},
}

#: test cell -> the points a fair grader takes (a cell not named: full marks)
LOSES: dict[str, dict[str, float]] = {
    "search_paths_in_queue": {},
    "search_depth_dict": {},
    "search_path_without_start": {"search_tests": 3},
    "search_empty_when_solved": {"search_tests": 1},
    "search_visited_list": {"search_tests": 3, "search_report_tests": 2},
    "bfs_strings_pop0": {},
    "bfs_parent_letters": {},
    "bfs_hardwired_3x3": {"bfs_tests": 1, "bfs_hard_tests": 1},
    "bfs_status_string": {"bfs_hard_tests": 1},
    "dfs_stack_of_paths": {"dfs_tests": 3},
    "dfs_recursion": {"dfs_tests": 3},
    "ucs_paths_in_heap": {},
    "ucs_goal_at_generation": {"ucs_tests": 2},
    "iddfs_recursive_set": {},
    "iddfs_never_gives_up": {"iddfs_tests": 1},
    "search_other_argument_order": {"search_tests": 3, "search_report_tests": 2},
    "search_prints_a_summary": {"search_report_tests": 2},
    "bfs_returns_boards": {},
    "dfs_parent_dict": {},
    "dfs_backwards": {"dfs_tests": 3},
    "ucs_best_dict": {},
    "iddfs_fixed_range": {},
    "solve_pos_paths": {},
    "solve_pos_prints_count": {"solve_pos_tests": 1},
    "solve_pos_one_too_deep": {"solve_pos_tests": 1},
}

#: test cell -> words the first sentence of its failure (or partial credit) must hold
CAUSE: dict[str, dict[str, str]] = {
    "search_path_without_start": {"search_tests": "leaves out the start"},
    "search_empty_when_solved": {"search_tests": "cannot be reached"},
    "search_visited_list": {"search_tests": "seconds of computing time",
                            "search_report_tests": "seconds of computing time"},
    "bfs_hardwired_3x3": {"bfs_tests": "does your code assume a 3×3 board",
                          "bfs_hard_tests": "does your code assume a 3×3 board"},
    "bfs_status_string": {"bfs_hard_tests": "cannot reach the goal"},
    "dfs_recursion": {"dfs_tests": "recursion"},
    "dfs_stack_of_paths": {"dfs_tests": "memory"},
    "search_other_argument_order": {"search_tests": "as if it were a function",
                                    "search_report_tests": "as if it were a function"},
    "search_prints_a_summary": {"search_report_tests": "the number of lines printed"},
    "dfs_backwards": {"dfs_tests": "from the goal back to the start"},
    "ucs_goal_at_generation": {"ucs_tests": "cheapest path costs"},
    "iddfs_never_gives_up": {"iddfs_tests": "cannot be reached"},
    "solve_pos_prints_count": {"solve_pos_tests": "the number of positions"},
    "solve_pos_one_too_deep": {"solve_pos_tests": "longer than maxmove"},
}

#: test cell -> the named mistakes (docs/mistakes.md) the grader must record there, and no
#: others: a name is evidence the grader saw (a cell not listed records none)
NAMED: dict[str, dict[str, list[str]]] = {
    "ucs_goal_at_generation": {"ucs_tests": ["ucs-stops-early"]},
    "search_other_argument_order": {"search_tests": ["arguments-in-another-order"], "search_report_tests": ["arguments-in-another-order"]},
    "search_visited_list": {"search_tests": ["too-slow"], "search_report_tests": ["too-slow"]},
    "bfs_hardwired_3x3": {"bfs_tests": ["assumes-3x3"], "bfs_hard_tests": ["assumes-3x3"]},
    "dfs_recursion": {"dfs_tests": ["recursion-too-deep"]},
    "dfs_backwards": {"dfs_tests": ["path-backwards"]},
    "search_path_without_start": {"search_tests": ["path-without-start"]},
    "iddfs_never_gives_up": {"iddfs_tests": ["too-slow"]},
    "solve_pos_one_too_deep": {"solve_pos_tests": ["longer-than-limit"]},
}
