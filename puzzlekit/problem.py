"""What a search algorithm needs to know about the puzzle, in two flavours.

`FlatProblem` is the fast one: states are flat tuples, moves come from precomputed
tables, Manhattan distance is updated in O(1) after a move. `GenericProblem` wraps any
`next_states` function (a student's own) over any hashable states. The algorithms in
`uninformed.py` and `informed.py` only use the few members below, so they run on both.
`Budget` counts nodes and time and raises `SearchLimitReached` with partial statistics.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from .errors import SearchLimitReached, SearchStats
from .geometry import grid
from .heuristics import FlatHeuristic
from .progress import ProgressEvent, Reporter

Successor = tuple[str | None, Any, float, float]   # (move letter, child, step cost, h(child))


class FlatProblem:
    """Sliding-tile puzzle over flat tuples with optional per-letter move costs."""

    def __init__(self, start: tuple[int, ...], goal: tuple[int, ...], rows: int, cols: int,
                 heuristic: FlatHeuristic | None = None,
                 costs: dict[str, float] | None = None) -> None:
        self.start, self.goal, self.rows, self.cols = start, goal, rows, cols
        self.nbrs = grid(rows, cols).neighbors
        self.targets = tuple(tuple(q for _, q in n) for n in self.nbrs)
        self.heuristic = heuristic
        self.costs = costs or {"U": 1, "D": 1, "L": 1, "R": 1}
        self.unit_costs = all(v == 1 for v in self.costs.values())
        self.h: Callable[[Any], float] = heuristic.h if heuristic else (lambda s: 0)

    def successors(self, s: tuple[int, ...]) -> list[tuple[str, tuple[int, ...]]]:
        z = s.index(0)
        out = []
        for letter, q in self.nbrs[z]:
            t = list(s)
            t[z] = t[q]
            t[q] = 0
            out.append((letter, tuple(t)))
        return out

    def expand(self, s: tuple[int, ...], h: float) -> list[Successor]:
        """Children of `s` with their step cost and heuristic value (h is h(s))."""
        z = s.index(0)
        costs = self.costs
        out = []
        heur = self.heuristic
        delta = heur.delta if heur is not None else None
        hfun = self.h
        for letter, q in self.nbrs[z]:
            t = list(s)
            tile = t[q]
            t[z] = tile
            t[q] = 0
            child = tuple(t)
            if delta is not None:
                hc = h + delta[tile][q][z]
            elif heur is None:
                hc = 0
            else:
                hc = hfun(child)
            out.append((letter, child, costs[letter], hc))
        return out


class GenericProblem:
    """Any successor function over any hashable states; every step costs 1."""

    def __init__(self, start: Hashable, goal: Hashable,
                 next_states: Callable[[Any], Iterable[Any]],
                 h: Callable[[Any], float] | None = None) -> None:
        self.start, self.goal = start, goal
        self.next_states = next_states
        self.h = h or (lambda s: 0)
        self.unit_costs = True

    def successors(self, s: Any) -> list[tuple[None, Any]]:
        return [(None, t) for t in self.next_states(s)]

    def expand(self, s: Any, h: float) -> list[Successor]:
        hf = self.h
        return [(None, t, 1, hf(t)) for t in self.next_states(s)]


class Budget:
    """Node and time limits of one search, and its running statistics."""

    CHECK_EVERY = 2048

    def __init__(self, algorithm: str, max_nodes: float, time_limit: float | None,
                 reporter: Reporter | None = None) -> None:
        self.algorithm = algorithm
        self.max_nodes = max_nodes
        self.time_limit = time_limit
        self.reporter = reporter
        self.t0 = time.perf_counter()
        self.stats = SearchStats(algorithm)
        self._next_report = self.t0 + 0.5

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def update(self, expanded: int, generated: int, frontier: int = 0, depth: int = 0) -> None:
        st = self.stats
        st.nodes_expanded, st.nodes_generated = expanded, generated
        if frontier > st.max_frontier:
            st.max_frontier = frontier
        if depth > st.depth:
            st.depth = depth
        st.elapsed = self.elapsed()

    def check(self, expanded: int, generated: int, frontier: int = 0, depth: int = 0) -> None:
        """Update the statistics; raise `SearchLimitReached` if a budget is spent."""
        self.update(expanded, generated, frontier, depth)
        if generated > self.max_nodes:
            raise SearchLimitReached(f"node budget of {self.max_nodes:,.0f} generated nodes "
                                     "used up", self.stats)
        if self.time_limit is not None and self.stats.elapsed > self.time_limit:
            raise SearchLimitReached(f"time limit of {self.time_limit:g} s reached", self.stats)
        if self.reporter is not None and time.perf_counter() >= self._next_report:
            self._next_report = time.perf_counter() + 0.5
            self.report("nodes", generated)

    def report(self, kind: str, value: float) -> None:
        if self.reporter is not None:
            # "done" says the time the result says (a search's own, without building tables)
            seconds = self.stats.elapsed if kind == "done" else self.elapsed()
            self.reporter(ProgressEvent(self.algorithm, kind, value,
                                        self.stats.nodes_expanded, seconds))


def reconstruct(parent: dict[Any, Any], end: Any) -> list[Any]:
    """Path from the root to `end` following `parent` links (root's parent is None)."""
    path = [end]
    while (p := parent[path[-1]]) is not None:
        path.append(p)
    path.reverse()
    return path
