"""Exact distances for small boards by one full breadth-first search from the goal.

For boards of at most 9 cells (2×2, 2×3, 3×2, 3×3) every reachable state fits in memory
(181,440 for the 8-puzzle), so the true distance of each state to the goal is a dict
lookup. Heuristic checkers, exact-depth scrambles and tests rely on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

from ..errors import PuzzleError
from .board import Flat, State, flatten, shape, validate_state
from .geometry import grid, slide

MAX_CELLS = 9


def _spread(start: Flat, rows: int, cols: int) -> Iterator[tuple[Flat, int]]:
    """(state, moves from `start`) for every other state `start` reaches, nearest first."""
    targets = grid(rows, cols).targets
    seen = {start}
    layer = [start]
    d = 0
    while layer:
        d += 1
        nxt = []
        for s in layer:
            z = s.index(0)
            for q in targets[z]:
                t = slide(s, z, q)
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
                    yield t, d
        layer = nxt


@lru_cache(maxsize=8)
def _table(goal_flat: Flat, rows: int, cols: int) -> dict[Flat, int]:
    depth = {goal_flat: 0}
    depth.update(_spread(goal_flat, rows, cols))
    return depth


def distance_table(goal: State) -> dict[Flat, int]:
    """{flat state: moves to `goal`} for every state that can reach it (≤ 9 cells)."""
    goal = validate_state(goal, name="goal")
    rows, cols = shape(goal)
    if rows * cols > MAX_CELLS:
        raise PuzzleError(f"exact distance tables are for boards of at most {MAX_CELLS} cells; "
                          f"this goal is {rows}×{cols}")
    return _table(flatten(goal), rows, cols)


def distances_from(start: State, boards: Iterable[State]) -> dict[Flat, int]:
    """{flat board: moves from `start`} for those of `boards` that `start` can reach.

    A breadth-first search from `start` that stops as soon as it has met every board:
    for boards near the start (those a search expanded first) it is a few thousand
    states where `distance_table` is all 181,440 of the 8-puzzle. Any size of board.
    """
    wanted = {flatten(b) for b in boards}
    here = flatten(start)
    found = {here: 0} if here in wanted else {}
    if len(found) < len(wanted):
        for t, d in _spread(here, *shape(start)):
            if t in wanted:
                found[t] = d
                if len(found) == len(wanted):
                    break
    return found


def exact_distance(S: State, goal: State) -> int | None:
    """Optimal number of moves from `S` to `goal` (None if unreachable), ≤ 9 cells."""
    return distance_table(goal).get(flatten(validate_state(S)))


def depth_histogram(goal: State) -> list[int]:
    """Number of states at each distance 0, 1, 2, ... from `goal` (≤ 9 cells)."""
    table = distance_table(goal)
    hist = [0] * (max(table.values()) + 1)
    for d in table.values():
        hist[d] += 1
    return hist
