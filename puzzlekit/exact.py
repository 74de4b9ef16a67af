"""Exact distances for small boards by one full breadth-first search from the goal.

For boards of at most 9 cells (2×2, 2×3, 3×2, 3×3) every reachable state fits in memory
(181,440 for the 8-puzzle), so the true distance of each state to the goal is a dict
lookup. Heuristic checkers, exact-depth scrambles and tests rely on it.
"""

from __future__ import annotations

from functools import lru_cache

from .board import Flat, State, flatten, shape, validate_state
from .errors import PuzzleError
from .geometry import grid, slide

MAX_CELLS = 9


@lru_cache(maxsize=8)
def _table(goal_flat: Flat, rows: int, cols: int) -> dict[Flat, int]:
    targets = grid(rows, cols).targets
    depth = {goal_flat: 0}
    layer = [goal_flat]
    d = 0
    while layer:
        d += 1
        nxt = []
        for s in layer:
            z = s.index(0)
            for q in targets[z]:
                t = slide(s, z, q)
                if t not in depth:
                    depth[t] = d
                    nxt.append(t)
        layer = nxt
    return depth


def distance_table(goal: State) -> dict[Flat, int]:
    """{flat state: moves to `goal`} for every state that can reach it (≤ 9 cells)."""
    goal = validate_state(goal, name="goal")
    rows, cols = shape(goal)
    if rows * cols > MAX_CELLS:
        raise PuzzleError(f"exact distance tables are for boards of at most {MAX_CELLS} cells; "
                          f"this goal is {rows}×{cols}")
    return _table(flatten(goal), rows, cols)


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
