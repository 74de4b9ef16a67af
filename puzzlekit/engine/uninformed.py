"""Uninformed searches: breadth-first (layered; the kit's one BFS), depth-first,
depth-limited, iterative deepening and bidirectional breadth-first. Each takes a problem (see `problem.py`) and a
`Budget`, and returns the list of states from start to goal, or None if there is none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .problem import Budget, FlatProblem, Problem, reconstruct


def bfs(P: Problem, budget: Budget, *, finish_layers: bool = False,
        max_depth: int | None = None, on_layer: Callable[[list[Any]], None] | None = None,
        **unused: Any) -> list[Any] | None:
    """Breadth-first search, one layer at a time; the goal is seen when it is generated.

    Records `layer_sizes` (new states per depth) in the budget's statistics and calls
    `on_layer(new_states)` after each layer. It stops within 1024 expansions of seeing the
    goal, or with `finish_layers` at the end of that layer (the lecture's way: every
    layer whole). `max_depth`: stop after that many layers. The kit's only BFS: `solve`,
    the lecture's `search` and `bfs_layers` all run on it. Taught in assignment 2,
    exercises 1 and 2.
    """
    start, goal = P.start, P.goal
    sizes: list[int] = []
    budget.stats.extra["layer_sizes"] = sizes
    if start == goal:
        return [start]
    parent: dict[Any, Any] = {start: None}
    layer = [start]
    expanded = 0
    cap = budget.max_nodes
    stop_early = not finish_layers
    targets = P.targets if isinstance(P, FlatProblem) else None
    children = P.children
    while layer and (max_depth is None or len(sizes) < max_depth):
        new: list[Any] = []
        append = new.append
        for s in layer:
            if targets is not None:
                z = s.index(0)
                for q in targets[z]:
                    u = list(s)         # `geometry.slide` by hand: the hot loop (bench_core)
                    u[z] = u[q]
                    u[q] = 0
                    t = tuple(u)
                    if t not in parent:
                        parent[t] = s
                        append(t)
            else:
                for t in children(s):
                    if t not in parent:
                        parent[t] = s
                        append(t)
            expanded += 1
            if not expanded & 1023:
                if stop_early and goal in parent:
                    break
                if len(parent) > cap or not expanded & 4095:
                    budget.check(expanded, len(parent), len(new), len(sizes) + 1)
        layer = new
        if new:
            sizes.append(len(new))
            budget.report("layer", len(sizes))
            if on_layer is not None:
                on_layer(new)
        budget.check(expanded, len(parent), len(new), len(sizes))
        if goal in parent:
            return reconstruct(parent, goal)
    return None


def dfs(P: Problem, budget: Budget, depth_limit: int | None = None,
        **unused: Any) -> list[Any] | None:
    """Depth-first graph search with a visited set (the lecture slides'): a stack instead
    of a queue.
    Finds *a* path, usually a very long one; `depth_limit` bounds how deep it goes.
    Taught in assignment 2, exercise 5."""
    start, goal = P.start, P.goal
    parent: dict[Any, Any] = {start: None}
    depth = {start: 0}
    stack = [start]
    expanded = 0
    while stack:
        s = stack.pop()
        if s == goal:
            budget.update(expanded, len(parent), len(stack), depth[s])
            return reconstruct(parent, s)
        expanded += 1
        d = depth[s] + 1
        if depth_limit is not None and d > depth_limit:
            continue
        # push in reverse so that the first successor (U, D, L, R order) is explored first
        for _, t in reversed(P.successors(s)):
            if t not in parent:
                parent[t] = s
                depth[t] = d
                stack.append(t)
        if not expanded & 2047 or len(parent) > budget.max_nodes:
            budget.check(expanded, len(parent), len(stack), d)
    budget.update(expanded, len(parent), 0, 0)
    return None


def _dls(P: Problem, budget: Budget, limit: int, counters: list[int]) -> list[Any] | None:
    """Depth-limited DFS from the start, never revisiting a state on the current path.
    Iterative (explicit stack of successor iterators), so deep limits cannot overflow."""
    start, goal = P.start, P.goal
    if start == goal:
        return [start]
    path = [start]
    on_path = {start}
    stack = [iter(P.successors(start))]
    counters[0] += 1
    while stack:
        nxt = next(stack[-1], None)
        if nxt is None:
            stack.pop()
            on_path.discard(path.pop())
            continue
        t = nxt[1]
        counters[1] += 1
        if t in on_path:
            continue
        if t == goal:
            return path + [t]
        if len(path) < limit:
            path.append(t)
            on_path.add(t)
            stack.append(iter(P.successors(t)))
            counters[0] += 1
            if not counters[0] & 4095:
                budget.check(counters[0], counters[1], len(stack), len(path))
    return None


def dls(P: Problem, budget: Budget, depth_limit: int | None = None,
        **unused: Any) -> list[Any] | None:
    """Depth-limited search: depth-first down to `depth_limit` moves (default 20).

    Taught in assignment 2, exercises 4 and 7."""
    limit = 20 if depth_limit is None else depth_limit
    counters = [0, 0]
    path = _dls(P, budget, limit, counters)
    budget.update(counters[0], counters[1], 0, limit)
    return path


def iddfs(P: Problem, budget: Budget, depth_limit: int | None = None,
          **unused: Any) -> list[Any] | None:
    """Iterative deepening: depth-limited search with limits 0, 1, 2, ... (optimal for
    unit costs, memory linear in the depth). Stops after `depth_limit` if given.
    Taught in assignment 2, exercise 7."""
    counters = [0, 0]
    limit = 0
    while depth_limit is None or limit <= depth_limit:
        budget.report("bound", limit)
        path = _dls(P, budget, limit, counters)
        budget.check(counters[0], counters[1], 0, limit)
        if path is not None:
            return path
        limit += 1
    return None


def bidirectional(P: Problem, budget: Budget, **unused: Any) -> list[Any] | None:
    """Bidirectional breadth-first search: grow whichever side's layer is smaller, one
    whole layer at a time; the first layer that meets the other side gives a shortest
    path (moves are reversible, so the backward side uses the same successors)."""
    start, goal = P.start, P.goal
    if start == goal:
        return [start]
    fwd: dict[Any, Any] = {start: None}
    bwd: dict[Any, Any] = {goal: None}
    dist_f, dist_b = {start: 0}, {goal: 0}
    layer_f, layer_b = [start], [goal]
    expanded = 0
    while layer_f and layer_b:
        grow_forward = len(layer_f) <= len(layer_b)
        layer, seen, dist, other, odist = (
            (layer_f, fwd, dist_f, bwd, dist_b) if grow_forward
            else (layer_b, bwd, dist_b, fwd, dist_f))
        new = []
        best: tuple[int, Any] | None = None
        for s in layer:
            d = dist[s] + 1
            for _, t in P.successors(s):
                if t not in seen:
                    seen[t] = s
                    dist[t] = d
                    new.append(t)
                    if t in other and (best is None or d + odist[t] < best[0]):
                        best = (d + odist[t], t)
            expanded += 1
            if not expanded & 2047 or len(fwd) + len(bwd) > budget.max_nodes:
                budget.check(expanded, len(fwd) + len(bwd), len(new), d)
        if grow_forward:
            layer_f = new
        else:
            layer_b = new
        budget.update(expanded, len(fwd) + len(bwd), len(layer_f) + len(layer_b),
                      max(dist_f[layer_f[0]] if layer_f else 0, 0))
        if best is not None:
            meet = best[1]
            left = reconstruct(fwd, meet)
            right = reconstruct(bwd, meet)   # goal ... meet
            return left + right[::-1][1:]
    return None
