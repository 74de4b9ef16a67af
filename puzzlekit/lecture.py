"""The lecture's vocabulary (seed 002), with exactly its names and meanings.

``moveUp(S, r, c)`` moves the *tile* below the blank up, so the blank goes down;
``moveDown``, ``moveLeft`` and ``moveRight`` likewise name where the tile goes.
``nextStates(S)`` is the set of states one move away. States are tuples of tuples.
"""

from __future__ import annotations

from .board import State
from .errors import PuzzleError


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
    r, c = findZero(S)
    result = set()
    if r + 1 < len(S):
        result.add(_swap(S, r, c, r + 1, c))
    if r > 0:
        result.add(_swap(S, r, c, r - 1, c))
    if c + 1 < len(S[0]):
        result.add(_swap(S, r, c, r, c + 1))
    if c > 0:
        result.add(_swap(S, r, c, r, c - 1))
    return result
