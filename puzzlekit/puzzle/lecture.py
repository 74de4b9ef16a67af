"""The lecture notebook's vocabulary, with exactly its names and meanings.

``moveUp(S, r, c)`` moves the *tile* below the blank up, so the blank goes down;
``moveDown``, ``moveLeft`` and ``moveRight`` likewise name where the tile goes.
``nextStates(S)`` is the set of states one move away. States are tuples of tuples.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import Any, TypeAlias

from ..errors import PuzzleError
from .board import State


def findZero(S: State) -> tuple[int, int]:
    """(row, col) of the blank in state `S`.

    >>> findZero(((8, 0, 6), (5, 4, 7), (2, 3, 1)))
    (0, 1)
    """
    for r, row in enumerate(S):
        if 0 in row:
            return r, row.index(0)
    raise PuzzleError(f"findZero: the state has no blank (0): {S!r:.80}")


def listOfLists(S: State) -> list[list[int]]:
    """Transform a tuple of tuples into a list of lists."""
    return [list(row) for row in S]


def tupleOfTuples(S: list[list[int]]) -> State:
    """Transform a list of lists into a tuple of tuples."""
    return tuple(tuple(row) for row in S)


def _check_blank(S: State, r: int, c: int, name: str) -> None:
    try:
        ok = S[r][c] == 0 and r >= 0 and c >= 0
    except (IndexError, TypeError):
        ok = False
    if not ok:
        raise PuzzleError(f"{name}(S, {r}, {c}): the blank is not at row {r}, column {c} "
                          f"(findZero(S) tells where it is)")


def _swap(S: State, r: int, c: int, r2: int, c2: int) -> State:
    """S with the blank at (r, c) and the tile at (r2, c2) exchanged."""
    tile = S[r2][c2]
    if r == r2:
        row = list(S[r])
        row[c], row[c2] = tile, 0
        return S[:r] + (tuple(row),) + S[r + 1:]
    lo, hi = (r, r2) if r < r2 else (r2, r)
    a, b = list(S[lo]), list(S[hi])
    if lo == r:
        a[c], b[c] = tile, 0
    else:
        a[c], b[c] = 0, tile
    return S[:lo] + (tuple(a), tuple(b)) + S[hi + 1:]


def moveUp(S: State, r: int, c: int) -> State:
    """Move the tile below the blank (at row r, column c) up; the blank goes down."""
    _check_blank(S, r, c, "moveUp")
    if r + 1 >= len(S):
        raise PuzzleError(f"moveUp: no tile below the blank at row {r} (it is the last row)")
    return _swap(S, r, c, r + 1, c)


def moveDown(S: State, r: int, c: int) -> State:
    """Move the tile above the blank down; the blank goes up."""
    _check_blank(S, r, c, "moveDown")
    if r == 0:
        raise PuzzleError("moveDown: no tile above the blank (it is in the top row)")
    return _swap(S, r, c, r - 1, c)


def moveLeft(S: State, r: int, c: int) -> State:
    """Move the tile right of the blank to the left; the blank goes right."""
    _check_blank(S, r, c, "moveLeft")
    if c + 1 >= len(S[r]):
        raise PuzzleError("moveLeft: no tile right of the blank (it is in the last column)")
    return _swap(S, r, c, r, c + 1)


def moveRight(S: State, r: int, c: int) -> State:
    """Move the tile left of the blank to the right; the blank goes left."""
    _check_blank(S, r, c, "moveRight")
    if c == 0:
        raise PuzzleError("moveRight: no tile left of the blank (it is in the first column)")
    return _swap(S, r, c, r, c - 1)


def nextStates(S: State) -> set[State]:
    """The set of states reachable from `S` in one move (2 to 4 of them)."""
    for r, row in enumerate(S):
        if 0 in row:
            c = row.index(0)
            break
    else:
        findZero(S)                     # raises the PuzzleError that names the problem
    result = set()
    for lo, hi, new_lo, new_hi, rebuild in _successor_recipes(len(S), len(S[0]))[r][c]:
        if hi is None or new_hi is None:      # a sideways move changes one row
            result.add(rebuild(S + (new_lo(S[lo]),)))
        else:                           # a vertical move changes two rows
            pair = S[lo] + S[hi]
            result.add(rebuild(S + (new_lo(pair), new_hi(pair))))
    return result


#: (first row, second row or None, new first row, new second row or None, new state)
Recipe: TypeAlias = ("tuple[int, int | None, itemgetter[Any], itemgetter[Any] | None, "
                     "itemgetter[Any]]")


@lru_cache(maxsize=64)
def _successor_recipes(rows: int, cols: int) -> tuple[tuple[tuple[Recipe, ...], ...], ...]:
    """recipes[r][c]: how to build each successor of a state whose blank is at (r, c).

    Swapping the blank with a tile permutes positions, so each changed row is an
    `itemgetter` applied to the old row (or to the two old rows joined), and `rebuild`
    picks the rows of the new state out of ``S + (changed rows)``. This is `_swap` done by
    C-level tuple operations: the same states, in the same order, about 30 % faster.
    """
    table = []
    for r in range(rows):
        line = []
        for c in range(cols):
            recipes: list[Recipe] = []
            for r2, c2 in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if not (0 <= r2 < rows and 0 <= c2 < cols):
                    continue
                outer = list(range(rows))
                if r2 == r:
                    perm = list(range(cols))
                    perm[c], perm[c2] = c2, c
                    outer[r] = rows
                    recipes.append((r, None, itemgetter(*perm), None, itemgetter(*outer)))
                else:
                    lo, hi = min(r, r2), max(r, r2)
                    perm = list(range(2 * cols))
                    a, b = (r - lo) * cols + c, (r2 - lo) * cols + c2
                    perm[a], perm[b] = b, a
                    outer[lo], outer[hi] = rows, rows + 1
                    recipes.append((lo, hi, itemgetter(*perm[:cols]), itemgetter(*perm[cols:]),
                                    itemgetter(*outer)))
            line.append(tuple(recipes))
        table.append(tuple(line))
    return tuple(table)
