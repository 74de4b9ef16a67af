"""Breadth-first search layer by layer, as the lecture notebook teaches it.

``search(nextStates, start, goal)`` takes the successor function as its first argument,
so students pass their own. It returns the path as a list of states (32 states for the
lecture's example) that also carries the size of every layer it built. `search` and
`bfs_layers` both run on the kit's one breadth-first search, `uninformed.bfs`.
"""

from __future__ import annotations

import gc
import math
import warnings
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ..errors import PuzzleError, Unsolvable
from ..puzzle.board import State, flatten, shape, unflatten, validate_state
from ..puzzle.lecture import nextStates
from ..puzzle.solvability import parity_report
from .problem import MAX_NODES_STORED, Budget, FlatProblem, GenericProblem, Problem
from .uninformed import bfs


class SearchPath(list[Any]):
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
    def length(self) -> int:
        """The number of moves: one fewer than the states."""
        return len(self) - 1


def _check_boards(start: Any, goal: Any) -> tuple[State, State] | None:
    """If start and goal are puzzle boards, refuse boards of two sizes and unsolvable pairs
    before searching. Both, when both are already boards (tuples of tuples)."""
    try:
        s, g = validate_state(start, name="start"), validate_state(goal, name="goal")
    except PuzzleError:
        return None
    if len(s) != len(g) or len(s[0]) != len(g[0]):
        raise PuzzleError(f"start is {len(s)}×{len(s[0])} but goal is {len(g)}×{len(g[0])}: "
                          "no move changes the size of a board")
    report = parity_report(s, g)
    if not report.solvable:
        raise Unsolvable(report.text)
    return (s, g) if s == start and g == goal else None


def _budget(max_nodes: float | None, max_states: float | None,
            time_limit: float | None = None) -> Budget:
    """The budget of a breadth-first search; `max_states` is the older name of `max_nodes`."""
    if max_states is not None:
        warnings.warn("max_states is the older name of max_nodes", DeprecationWarning,
                      stacklevel=3)
        max_nodes = max_states
    return Budget("breadth-first", math.inf if max_nodes is None else max_nodes, time_limit)


def search(next_states: Callable[[Any], Iterable[Any]], start: Hashable, goal: Hashable, *,
           verbose: bool = False, max_nodes: float | None = MAX_NODES_STORED,
           time_limit: float | None = None,
           on_layer: Callable[[int, int], None] | None = None,
           max_states: float | None = None) -> SearchPath | None:
    """Breadth-first search from `start` to `goal` with successor function `next_states`.

    Returns the shortest path as a `SearchPath` (a list of states), or None when the goal
    cannot be reached. With ``verbose=True`` it prints "Iteration k: n new states found."
    per layer; `on_layer(k, n)` is called likewise. `max_nodes` caps the states stored
    (None: no cap; `max_states` is its older name) and `time_limit` the seconds; either
    raises `SearchLimitReached`.

    Given the kit's own `nextStates`, the search runs on flat tuples (three times faster)
    and converts the path back; any other successor function is used as it is.
    Taught in assignment 2, exercise 1 (breadth-first search, one layer at a time).
    """
    if not callable(next_states):
        raise PuzzleError("search(next_states, start, goal): the first argument must be the "
                          f"successor function, e.g. nextStates; got {type(next_states).__name__}")
    budget = _budget(max_nodes, max_states, time_limit)
    boards = _check_boards(start, goal)
    flat = boards is not None and next_states is nextStates
    rows, cols = shape(boards[0]) if boards is not None else (0, 0)
    P: Problem
    if boards is not None and flat:
        P = FlatProblem(flatten(boards[0]), flatten(boards[1]), rows, cols)
    else:
        P = GenericProblem(start, goal, next_states)

    def layer_done(new: list[Any]) -> None:
        k = len(budget.stats.extra["layer_sizes"])
        if verbose:
            print(f"Iteration {k}: {len(new)} new states found.")
        if on_layer is not None:
            on_layer(k, len(new))
    collecting = gc.isenabled()
    gc.disable()        # the search makes no reference cycles: collections would only rescan
    try:                # its ever-growing dict of states
        found = bfs(P, budget, finish_layers=True, on_layer=layer_done)
    finally:
        if collecting:
            gc.enable()
    if found is None:
        return None
    if flat:
        found = [unflatten(f, rows, cols) for f in found]
        found[0] = start
    path = SearchPath(found, budget.stats.extra["layer_sizes"],
                      budget.stats.nodes_generated or 1)      # 0 when start is the goal
    path[-1] = goal
    return path


#: A goal no search reaches: `bfs_layers` explores all it can.
_NOWHERE = object()


def bfs_layers(start: Hashable, next_states: Callable[[Any], Iterable[Any]] | None = None, *,
               max_depth: int | None = None, max_nodes: float | None = MAX_NODES_STORED,
               max_states: float | None = None) -> list[list[Any]]:
    """Every layer of a breadth-first search from `start`: layer k holds the states at
    distance k. Stops at `max_depth` or when no new states appear; more than `max_nodes`
    states stored (`max_states`: its older name) raises `SearchLimitReached`."""
    layers = [[start]]
    bfs(GenericProblem(start, _NOWHERE, next_states or nextStates),
        _budget(max_nodes, max_states), finish_layers=True, max_depth=max_depth,
        on_layer=layers.append)
    return layers
