"""Name the mistake behind a wrong board, from the boards alone.

When a test finds that a student's move or successor function returned the wrong
board(s), these functions compare the answer with the mistakes students really make with
the lecture's moves, and say in one sentence what happened:

* the blank moved where the *tile* should have gone (``moveUp`` read as "the blank goes
  up": the name says where the tile goes);
* a tile moved the wrong way altogether;
* the blank jumped to the far side of the board (at the edge, Python's index -1 is the
  last row or column: it wraps round instead of failing);
* a tile was copied instead of swapped (one tile twice, no blank);
* the board came back unchanged;
* a board listed among its own next states, a move missing at an edge;
* a path backwards, without its start or its goal, or move letters for the tile.

They read only the boards the test already holds (plain data): nothing of the student's
code runs here. Each returns None when it recognises nothing; the plain "expected / got"
then speaks for itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from .board import State, shape
from .moves import check_solution

#: The blank's step (row, column) for each move letter (letters say where the blank goes).
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
#: Where the tile goes when the blank goes `letter`, and the lecture's name of that move.
TILE_GOES = {"D": "up", "U": "down", "R": "left", "L": "right"}
LECTURE_NAME = {"D": "moveUp", "U": "moveDown", "R": "moveLeft", "L": "moveRight"}
REVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}
#: Where the moving tile sits, seen from the blank.
_SIDE = {"D": "below", "U": "above", "R": "to the right of", "L": "to the left of"}
_EDGE = {"U": "first row", "D": "last row", "L": "first column", "R": "last column"}


def _blank(S: State) -> tuple[int, int]:
    for r, row in enumerate(S):
        for c, tile in enumerate(row):
            if tile == 0:
                return r, c
    raise ValueError("no blank")


def _swapped(S: State, a: tuple[int, int], b: tuple[int, int]) -> State:
    rows = [list(row) for row in S]
    (r1, c1), (r2, c2) = a, b
    rows[r1][c1], rows[r2][c2] = rows[r2][c2], rows[r1][c1]
    return tuple(tuple(row) for row in rows)


def blank_moves(S: State, wrap: bool = False) -> dict[str, State]:
    """The boards one move from `S`, by the letter of the blank's move; with `wrap`, only
    the moves that leave the board and come back on the far side (Python's index -1), where
    that is not also a real move (on a side of 2 the far side is next to the blank)."""
    rows, cols = shape(S)
    r, c = _blank(S)
    out = {}
    for letter, (dr, dc) in STEP.items():
        r2, c2 = r + dr, c + dc
        inside = 0 <= r2 < rows and 0 <= c2 < cols
        if inside and not wrap:
            out[letter] = _swapped(S, (r, c), (r2, c2))
        elif wrap and not inside and (r2 == -1 or c2 == -1):
            if abs(r2 % rows - r) + abs(c2 % cols - c) > 1:
                out[letter] = _swapped(S, (r, c), (r2 % rows, c2 % cols))
    return out


def _letter_of(S: State, T: State) -> str | None:
    return next((k for k, B in blank_moves(S).items() if B == T), None)


def _the_move(want: str | None) -> str:
    if want is None:
        return "the right move"
    return f"`{LECTURE_NAME[want]}` slides the tile {_SIDE[want]} the blank {TILE_GOES[want]}"


def diagnose_move(start: State, got: State, expected: State) -> str | None:
    """One sentence on what `got` did to `start` where `expected` was wanted, or None."""
    if got == expected or shape(got) != shape(start) or shape(expected) != shape(start):
        return None
    want = _letter_of(start, expected)
    if got == start:
        return ("the board came back unchanged: make the new board, swap the two cells in "
                "it, and return the new board")
    have, had = Counter(t for row in got for t in row), Counter(t for row in start for t in row)
    if have != had:
        twice = sorted(t for t in have if have[t] > had.get(t, 0))
        lost = sorted(t for t in had if have.get(t, 0) < had[t])
        lost_words = " and ".join("no blank" if t == 0 else f"no {t}" for t in lost)
        return (f"the board has {' and '.join(map(str, twice))} twice and {lost_words}: a "
                f"tile was copied instead of swapped with the blank (set both cells)")
    letter = _letter_of(start, got)
    if letter is not None and want is not None:
        if letter == REVERSE[want]:
            return (f"the blank moved {TILE_GOES[want]} instead of the tile: {_the_move(want)} "
                    f"(the name says where the tile goes), so the blank goes "
                    f"{TILE_GOES[letter]}")
        return (f"a tile moved {TILE_GOES[letter]}, but {_the_move(want)}")
    for letter, B in blank_moves(start, wrap=True).items():
        if B == got and want is not None and letter == REVERSE[want]:
            return (f"the blank moved {TILE_GOES[want]} instead of the tile, and from the "
                    f"{_EDGE[letter]} Python's index -1 took it round to the other edge: "
                    f"{_the_move(want)} (the name says where the tile goes)")
        if B == got:
            return (f"the blank swapped with a tile on the far side of the board: from the "
                    f"{_EDGE[letter]}, index -1 is the other edge in Python (it wraps round "
                    f"instead of failing); only a tile next to the blank can slide")
    return None


def diagnose_neighbours(start: State, got: Collection[State],
                        expected: Collection[State]) -> str | None:
    """One sentence on what is wrong with `got` as the boards one move from `start`."""
    got_set, want = set(got), set(expected)
    if got_set == want and len(got) == len(got_set):
        return None
    if start in got_set:
        return ("the board itself is among its next states: every move changes the board, "
                "so leave S out")
    wrapped = blank_moves(start, wrap=True)
    across = [k for k, B in wrapped.items() if B in got_set - want]
    missing = [k for k, B in blank_moves(start).items() if B in want - got_set]
    if across and missing:
        moves = " and ".join(f"`{LECTURE_NAME[k]}`" for k in missing)
        return (f"a board where the blank jumped across the edge is there, and the board of "
                f"{moves} is missing: a move function moves the wrong way (its own test "
                f"above says which; fix it first)")
    if across:
        edge = " and the ".join(_EDGE[k] for k in across)
        return (f"a board where the blank jumped across the edge is there: with the blank in "
                f"the {edge}, Python's index -1 wraps round to the other side; check the "
                f"blank's row and column before each move")
    if missing and got_set < want:
        moves = ", ".join(f"`{LECTURE_NAME[k]}`" for k in missing)
        return (f"{len(want)} boards are one move away here, yours has {len(got_set)}: "
                f"{moves} is missing (look at the test that decides whether it can move)")
    if len(got) != len(got_set):
        return "a board is listed twice: return a set, or each board once"
    far = [B for B in got_set - want if B not in blank_moves(start).values()]
    if far:
        return (f"{len(far)} of the boards are not one move from S: each next state slides "
                f"exactly one tile next to the blank into it")
    return None


def diagnose_path(start: State, goal: State, seq: str | list[State]) -> str | None:
    """One sentence on why `seq` (a list of states or a move string) does not take `start`
    to `goal`, when it is a typical slip: the path backwards, without its start or its
    goal, or move letters that say where the tile goes."""
    def solves(candidate: str | list[State]) -> bool:
        try:
            return check_solution(start, goal, candidate).ok
        except ValueError:
            return False
    if isinstance(seq, str):
        inverse = seq.translate(str.maketrans("UDLRudlr", "DURLdurl"))
        if seq and solves(inverse):
            return ("the letters say where the tile goes; here a letter says where the blank "
                    "goes (U: the blank moves up, so the tile above it comes down)")
        if seq and solves(inverse[::-1]):
            return ("these are the moves from the goal back to the start: reverse the "
                    "string and swap each letter with its opposite")
        return None
    if len(seq) > 1 and solves(seq[::-1]):
        return ("the path runs from the goal back to the start: following the parents from "
                "the goal gives it backwards, so reverse it (path[::-1])")
    if seq and solves([start, *seq]):
        return "the path leaves out the start: it should begin with the start state"
    if seq and solves([*seq, goal]):
        return "the path stops one move before the goal: it should end with the goal state"
    if len(seq) > 1 and (solves([*seq[::-1], goal]) or solves([start, *seq[::-1]])):
        return ("the path runs backwards and misses an end: reverse it, and keep both the "
                "start and the goal in it")
    return None
