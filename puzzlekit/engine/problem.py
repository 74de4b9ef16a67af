"""What a search algorithm needs to know about the puzzle, in two flavours.

`FlatProblem` is the fast one: states are flat tuples, moves come from precomputed
tables, Manhattan distance is updated in O(1) after a move. `GenericProblem` wraps any
`next_states` function (a student's own) over any hashable states. The algorithms in
`uninformed.py` and `informed.py` only use the few members of `Problem`, the protocol
both provide.

`Budget` is the one budget of every search of the kit (these, the lecture's `search` and
the fast IDA* engines): it counts nodes and time, reports progress, and raises
`SearchLimitReached` with the partial statistics. Budgets count *generated* nodes; the
word for the cap is `max_nodes` everywhere.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Protocol

from ..errors import SearchLimitReached, SearchStats
from ..puzzle.geometry import grid, slide
from ..puzzle.heuristics import FlatHeuristic
from .progress import ProgressEvent, Reporter

Successor = tuple[str | None, Any, float, float]   # (move letter, child, step cost, h(child))

#: Default node budgets (generated nodes): a search that stores every state it meets
#: stops at 2 M (2 M tuple-states of a 15-puzzle take about 1 GB, the most a course
#: server's kernel usually has; a full 8-puzzle has 181,440); the depth-first family,
#: whose memory grows only with depth, at 50 M (about a minute).
MAX_NODES_STORED = 2_000_000
MAX_NODES_DEPTH_FIRST = 50_000_000


class Problem(Protocol):
    """The problem interface: all that the searches of `uninformed.py` and `informed.py`
    ask of the puzzle. `FlatProblem` and `GenericProblem` both provide it."""

    start: Any
    goal: Any
    h: Callable[[Any], float]          #: the heuristic of one state (0 when uninformed)
    def successors(self, s: Any) -> Sequence[tuple[str | None, Any]]:
        """(move letter or None, child) for each child of `s`."""
        ...

    def expand(self, s: Any, h: float) -> Sequence[Successor]:
        """(move letter or None, child, step cost, h(child)) for each child of `s`."""
        ...

    def children(self, s: Any) -> Iterable[Any]:
        """The states one move away from `s`."""
        ...


class FlatProblem:
    """Sliding-tile puzzle over flat tuples with optional per-letter move costs."""

    def __init__(self, start: tuple[int, ...], goal: tuple[int, ...], rows: int, cols: int,
                 heuristic: FlatHeuristic | None = None,
                 costs: dict[str, float] | None = None) -> None:
        self.start, self.goal, self.rows, self.cols = start, goal, rows, cols
        self.nbrs = grid(rows, cols).neighbors
        self.targets = grid(rows, cols).targets
        self.heuristic = heuristic
        self.costs = costs or {"U": 1, "D": 1, "L": 1, "R": 1}
        self.unit_costs = all(v == 1 for v in self.costs.values())
        self.h: Callable[[Any], float] = heuristic.h if heuristic else (lambda s: 0)

    def successors(self, s: tuple[int, ...]) -> list[tuple[str, tuple[int, ...]]]:
        z = s.index(0)
        return [(letter, slide(s, z, q)) for letter, q in self.nbrs[z]]

    def children(self, s: tuple[int, ...]) -> list[tuple[int, ...]]:
        z = s.index(0)
        return [slide(s, z, q) for q in self.targets[z]]

    def expand(self, s: tuple[int, ...], h: float) -> list[Successor]:
        """Children of `s` with their step cost and heuristic value (h is h(s))."""
        z = s.index(0)
        costs = self.costs
        heur = self.heuristic
        delta = heur.delta if heur is not None else None
        hfun = self.h
        out: list[Successor] = []
        for letter, q in self.nbrs[z]:
            t = list(s)            # `geometry.slide` by hand: A*'s hot loop (bench_core)
            tile = t[q]
            t[z] = tile
            t[q] = 0
            child = tuple(t)
            hc: float
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
        self.next_states = self.children = next_states
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

    def restart_clock(self) -> None:
        """Count time from now (a search that first builds its tables times only itself)."""
        self.t0 = time.perf_counter()
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
