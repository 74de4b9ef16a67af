"""Breadth-first search layer by layer, as the lecture (seed 002) uses it.

``search(nextStates, start, goal)`` takes the successor function as its first argument,
so students pass their own. It returns the path as a list of states (32 states for the
lecture's example) that also carries the size of every layer it built.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Hashable, Iterable
from functools import lru_cache
from typing import Any

from .board import Flat, flatten, unflatten
from .errors import PuzzleError, SearchLimitReached, SearchStats, Unsolvable
from .geometry import grid
from .lecture import nextStates

#: Default cap on stored states: a full 8-puzzle has 181,440; 2 M tuple-states of a
#: 15-puzzle take about 1 GB, the most a course server's kernel usually has.
DEFAULT_MAX_STATES = 2_000_000


class SearchPath(list):
    """A list of states from start to goal, with the search's layer sizes attached.

    ``layer_sizes[k-1]`` is the number of new states found in iteration k.
    """

    layer_sizes: list[int]
    states_seen: int

    def __init__(self, states: Iterable[Any] = (), layer_sizes: list[int] | None = None,
                 states_seen: int = 0) -> None:
        super().__init__(states)
        self.layer_sizes = list(layer_sizes or [])
        self.states_seen = states_seen

    @property
    def moves(self) -> int:
        return len(self) - 1


def _check_boards(start: Any, goal: Any) -> bool:
    """If start and goal are puzzle boards, refuse boards of two sizes and unsolvable pairs
    before searching. True when both are already boards (tuples of tuples)."""
    from .board import validate_state
    from .solvability import explain_solvability
    try:
        s, g = validate_state(start, name="start"), validate_state(goal, name="goal")
    except PuzzleError:
        return False
    if len(s) != len(g) or len(s[0]) != len(g[0]):
        raise PuzzleError(f"start is {len(s)}×{len(s[0])} but goal is {len(g)}×{len(g[0])}: "
                          "no move changes the size of a board")
    report = explain_solvability(s, g)
    if not report.solvable:
        raise Unsolvable(report.text)
    return s == start and g == goal


def search(next_states: Callable[[Any], Iterable[Any]], start: Hashable, goal: Hashable, *,
           verbose: bool = False, max_states: int | None = DEFAULT_MAX_STATES,
           time_limit: float | None = None,
           on_layer: Callable[[int, int], None] | None = None) -> SearchPath | None:
    """Breadth-first search from `start` to `goal` with successor function `next_states`.

    Returns the shortest path as a `SearchPath` (a list of states), or None when the goal
    cannot be reached. With ``verbose=True`` it prints "Iteration k: n new states found."
    per layer; `on_layer(k, n)` is called likewise. Budgets raise `SearchLimitReached`.

    Given the kit's own `nextStates`, the search runs on flat tuples (three times faster)
    and converts the path back; any other successor function is used as it is.
    """
    if not callable(next_states):
        raise PuzzleError("search(next_states, start, goal): the first argument must be the "
                          f"successor function, e.g. nextStates; got {type(next_states).__name__}")
    boards = _check_boards(start, goal)
    collecting = gc.isenabled()
    gc.disable()        # the search makes no reference cycles: collections would only rescan
    try:                # its ever-growing dict of states
        if boards and next_states is nextStates:
            rows, cols = len(start), len(start[0])  # type: ignore[arg-type]
            flat_path = _bfs(_flat_successors(rows, cols), flatten(start),  # type: ignore
                             flatten(goal), verbose, max_states, time_limit, on_layer)  # type: ignore
            if flat_path is None:
                return None
            path = SearchPath([unflatten(f, rows, cols) for f in flat_path],
                              flat_path.layer_sizes, flat_path.states_seen)
            path[0], path[-1] = start, goal
            return path
        return _bfs(next_states, start, goal, verbose, max_states, time_limit, on_layer)
    finally:
        if collecting:
            gc.enable()


def _bfs(next_states: Callable[[Any], Iterable[Any]], start: Hashable, goal: Hashable,
         verbose: bool, max_states: int | None, time_limit: float | None,
         on_layer: Callable[[int, int], None] | None) -> SearchPath | None:
    t0 = time.perf_counter()
    parent: dict[Any, Any] = {start: None}
    layer = [start]
    sizes: list[int] = []
    expanded = 0
    while goal not in parent and layer:
        new = []
        for s in layer:
            for t in next_states(s):
                if t not in parent:
                    parent[t] = s
                    new.append(t)
            expanded += 1
            if max_states is not None and len(parent) > max_states:
                _stop(f"more than {max_states:,} states stored", expanded, parent, layer,
                      sizes, t0)
            if time_limit is not None and expanded & 1023 == 0 and \
                    time.perf_counter() - t0 > time_limit:
                _stop(f"time limit {time_limit} s reached", expanded, parent, layer, sizes, t0)
        layer = new
        if new:
            sizes.append(len(new))
            if verbose:
                print(f"Iteration {len(sizes)}: {len(new)} new states found.")
            if on_layer is not None:
                on_layer(len(sizes), len(new))
    if goal not in parent:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return SearchPath(reversed(path), sizes, len(parent))


@lru_cache(maxsize=16)
def _flat_successors(rows: int, cols: int) -> Callable[[Flat], list[Flat]]:
    """nextStates for flat row-major tuples of a rows×cols board."""
    neighbours = [[q for _, q in moves] for moves in grid(rows, cols).neighbors]

    def successors(s: Flat) -> list[Flat]:
        z = s.index(0)
        out = []
        for q in neighbours[z]:
            t = list(s)
            t[z] = s[q]
            t[q] = 0
            out.append(tuple(t))
        return out
    return successors


def _stop(reason: str, expanded: int, parent: dict, layer: list, sizes: list[int],
          t0: float) -> None:
    stats = SearchStats("breadth-first", expanded, len(parent), len(layer),
                        time.perf_counter() - t0, len(sizes), {"layer_sizes": list(sizes)})
    raise SearchLimitReached(reason, stats)


def bfs_layers(start: Hashable, next_states: Callable[[Any], Iterable[Any]] | None = None, *,
               max_depth: int | None = None,
               max_states: int | None = DEFAULT_MAX_STATES) -> list[list[Any]]:
    """Every layer of a breadth-first search from `start`: layer k holds the states at
    distance k. Stops at `max_depth` or when no new states appear."""
    if next_states is None:
        from .lecture import nextStates
        next_states = nextStates
    seen = {start}
    layers = [[start]]
    while layers[-1] and (max_depth is None or len(layers) <= max_depth):
        new = []
        for s in layers[-1]:
            for t in next_states(s):
                if t not in seen:
                    seen.add(t)
                    new.append(t)
        if max_states is not None and len(seen) > max_states:
            raise SearchLimitReached(f"more than {max_states:,} states stored",
                                     SearchStats("breadth-first", 0, len(seen), len(new),
                                                 0.0, len(layers)))
        if not new:
            break
        layers.append(new)
    return layers
