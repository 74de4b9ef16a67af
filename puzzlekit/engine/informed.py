"""Best-first searches with a priority queue (heapq, never a linear scan of the frontier):
uniform-cost, greedy best-first, A* and weighted A*; and IDA*, A*'s memory-light cousin.

Ties are broken the same way every time: lower f, then lower h, then first in first out.
With equal move costs, uniform-cost search therefore expands states in BFS order.
"""

from __future__ import annotations

import heapq
import math
from itertools import count
from typing import Any

from .problem import Budget, Problem, reconstruct


def best_first(P: Problem, budget: Budget, *, g_weight: float = 1.0, h_weight: float = 1.0,
               **unused: Any) -> list[Any] | None:
    """Expand the frontier state with the least f = g_weight·g + h_weight·h.

    (1, 0) is uniform-cost search, (0, 1) greedy best-first, (1, 1) A*, (1, w) weighted A*.
    The goal is tested when a state is expanded, so A* with an admissible heuristic and
    uniform-cost search return a cheapest path. A state reached again more cheaply is
    re-opened, which keeps A* optimal even with an admissible but inconsistent heuristic.
    Taught in assignment 2, exercise 6 (uniform-cost) and assignment 3, exercise 2 (A*).
    """
    start, goal = P.start, P.goal
    tie = count()
    h0 = P.h(start)
    g_best: dict[Any, float] = {start: 0}
    parent: dict[Any, Any] = {start: None}
    heap: list[tuple[float, float, int, float, Any]] = [(h_weight * h0, h0, next(tie), 0, start)]
    closed: set[Any] = set()
    expanded = 0
    push, pop = heapq.heappush, heapq.heappop
    expand = P.expand
    cap = budget.max_nodes
    while heap:
        _, h, _, g, s = pop(heap)
        if s in closed or g > g_best[s]:
            continue
        if s == goal:
            budget.update(expanded, len(g_best), len(heap))
            budget.stats.extra["cost"] = g
            return reconstruct(parent, s)
        closed.add(s)
        expanded += 1
        for _, t, c, ht in expand(s, h):
            ng = g + c
            if ng < g_best.get(t, math.inf):
                g_best[t] = ng
                parent[t] = s
                closed.discard(t)
                push(heap, (g_weight * ng + h_weight * ht, ht, next(tie), ng, t))
        if not expanded & 2047 or len(g_best) > cap:
            budget.check(expanded, len(g_best), len(heap))
    budget.update(expanded, len(g_best), 0)
    return None


def idastar(P: Problem, budget: Budget, **unused: Any) -> list[Any] | None:
    """Iterative-deepening A*: depth-first searches bounded by f = g + h, the bound
    raised each time to the smallest f that exceeded it. Memory grows only with depth.
    Taught in assignment 4, exercise 2."""
    start, goal = P.start, P.goal
    bound = P.h(start)
    expanded = generated = 0
    while True:
        budget.report("bound", bound)
        budget.stats.extra["bound"] = bound
        next_bound = math.inf
        path = [start]
        on_path = {start}
        gs = [0.0]
        stack = [iter(P.expand(start, P.h(start)))]
        expanded += 1
        found = start == goal
        cost = 0.0
        while stack and not found:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                on_path.discard(path.pop())
                gs.pop()
                continue
            _, t, c, ht = nxt
            generated += 1
            if t in on_path:
                continue
            g = gs[-1] + c
            f = g + ht
            if f > bound:
                if f < next_bound:
                    next_bound = f
                continue
            path.append(t)
            if t == goal:
                found, cost = True, g
                break
            on_path.add(t)
            gs.append(g)
            stack.append(iter(P.expand(t, ht)))
            expanded += 1
            if not expanded & 4095:
                budget.check(expanded, generated, len(stack), len(path) - 1)
        budget.check(expanded, generated, 0, len(path) - 1)
        if found:
            budget.stats.extra["cost"] = cost
            return path
        if next_bound == math.inf:
            return None
        bound = next_bound
