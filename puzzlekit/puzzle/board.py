"""Boards: states as tuples of tuples of ints (0 = blank), their validation and goals.

A state of a 3×3 puzzle looks like ``((8, 0, 6), (5, 4, 7), (2, 3, 1))``. Any rectangle
from 2×2 up works (2×3, 3×5, 15×15, ...). Everything public here checks its input and
raises `PuzzleError` with a message that names what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from numbers import Integral
from typing import Literal

from ..errors import PuzzleError

State = tuple[tuple[int, ...], ...]
Flat = tuple[int, ...]

MAX_SIDE = 32   #: boards beyond this are refused (a 32×32 state has 1,023 tiles)


def _is_int(x: object) -> bool:
    """Whole numbers, numpy's included (they are converted); bools are not tiles."""
    # a plain int first: the abstract-class check costs more than the rest of a
    # validation, and long student paths are validated state by state
    return type(x) is int or (isinstance(x, Integral) and not isinstance(x, bool))


def validate_state(state: object, *, name: str = "state") -> State:
    """Check that `state` is a legal board and return it as a tuple of tuples.

    Lists of lists are accepted and converted. Raises `PuzzleError` naming the problem:
    not a grid, ragged rows, too small, non-integers (bools too), negatives, duplicates,
    missing tiles or no blank.
    """
    if isinstance(state, (str, bytes)) or not isinstance(state, Sequence):
        raise PuzzleError(f"{name} must be a tuple of rows (tuples of ints), "
                          f"got {type(state).__name__}: {state!r:.60}")
    rows = list(state)
    if not rows:
        raise PuzzleError(f"{name} is empty: a board needs at least 2 rows")
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise PuzzleError(f"{name}: row {i} is not a sequence of ints ({row!r:.40}); "
                              "a state is a tuple of rows, e.g. ((1, 2), (3, 0))")
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise PuzzleError(f"{name} has rows of different lengths {[len(r) for r in rows]} "
                          "(ragged rows)")
    n_rows, n_cols = len(rows), widths.pop()
    if n_rows < 2 or n_cols < 2:
        raise PuzzleError(f"{name} is {n_rows}×{n_cols}: a board needs at least 2 rows and "
                          "2 columns")
    if n_rows > MAX_SIDE or n_cols > MAX_SIDE:
        raise PuzzleError(f"{name} is {n_rows}×{n_cols}: sides above {MAX_SIDE} are not supported")
    tiles = [x for row in rows for x in row]
    for x in tiles:
        if not _is_int(x):
            raise PuzzleError(f"{name} contains {x!r} ({type(x).__name__}); tiles must be "
                              "ints, with 0 for the blank")
        if x < 0:
            raise PuzzleError(f"{name} contains the negative number {x}; tiles are "
                              f"0..{n_rows * n_cols - 1}")
    check_tiles(tiles, n_rows, n_cols, name=name)
    return tuple(tuple(int(x) for x in row) for row in rows)


def check_tiles(tiles: Sequence[int], n_rows: int, n_cols: int, *, name: str = "state") -> None:
    """Check that `tiles` holds each of 0..rows·cols-1 exactly once."""
    size = n_rows * n_cols
    seen: set[int] = set()
    dups = sorted({x for x in tiles if x in seen or seen.add(x)})  # type: ignore[func-returns-value]
    if dups:
        raise PuzzleError(f"{name} has duplicate tiles {dups}")
    if 0 not in seen:
        raise PuzzleError(f"{name} has no blank: put a 0 where the empty square is")
    too_big = sorted(x for x in seen if x >= size)
    if too_big:
        raise PuzzleError(f"{name} is {n_rows}×{n_cols}, so its tiles are 0..{size - 1}, "
                          f"but it contains {too_big}")
    missing = sorted(set(range(size)) - seen)
    if missing:
        raise PuzzleError(f"{name} is missing tiles {missing}")


def shape(state: State) -> tuple[int, int]:
    """(rows, cols) of a state."""
    return len(state), len(state[0])


def flatten(state: State) -> Flat:
    """Row-major flat tuple of a state."""
    return tuple(x for row in state for x in row)


def unflatten(flat: Iterable[int], rows: int, cols: int) -> State:
    """The state of a row-major flat sequence of rows·cols tiles (not validated)."""
    f = tuple(flat)
    return tuple(f[r * cols:(r + 1) * cols] for r in range(rows))


def goal_state(rows: int, cols: int | None = None,
               blank: Literal["last", "first"] = "last") -> State:
    """The ordered goal: 1..n-1 with the blank last (default) or first (assignment 1,
    exercise 1 writes the lecture notebook's, blank first).

    >>> goal_state(3)
    ((1, 2, 3), (4, 5, 6), (7, 8, 0))
    >>> goal_state(2, 3, blank="first")
    ((0, 1, 2), (3, 4, 5))
    """
    cols = rows if cols is None else cols
    for v, what in ((rows, "rows"), (cols, "cols")):
        if not _is_int(v) or v < 2 or v > MAX_SIDE:
            raise PuzzleError(f"goal_state: {what} must be an int from 2 to {MAX_SIDE}, got {v!r}")
    n = rows * cols
    if blank == "last":
        flat = tuple(range(1, n)) + (0,)
    elif blank == "first":
        flat = tuple(range(n))
    else:
        raise PuzzleError(f"goal_state: blank must be 'last' or 'first', got {blank!r}")
    return unflatten(flat, rows, cols)


def resolve_goal(start: State, goal: object | None) -> State:
    """The goal to use for `start`: validated, same shape; default blank-last."""
    return goal_for(start, None if goal is None else validate_state(goal, name="goal"))


def goal_for(start: State, g: State | None) -> State:
    """`resolve_goal` for a goal already checked (or None): the default, or `g` if it has
    the shape of `start`."""
    if g is None:
        return goal_state(*shape(start))
    if shape(g) != shape(start):
        raise PuzzleError(f"start is {shape(start)[0]}×{shape(start)[1]} but goal is "
                          f"{shape(g)[0]}×{shape(g)[1]}")
    return g
