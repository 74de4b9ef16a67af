"""Move letters (as in the Thai course's 8-puzzle assignment): U, D, L, R say where the
**blank** goes.

``apply_moves(S, "DRD")`` plays a move string; `moves_to_path` and `path_to_moves`
convert between a move string and the list of states it visits; `check_solution`
tells whether a proposed solution is legal, reaches the goal and how long it is.

The lecture's tile names translate as: moveUp = "D", moveDown = "U", moveLeft = "R",
moveRight = "L" (the tile goes one way, the blank the other): assignment 1, exercises 7
and 11 teach the letters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from ..errors import PuzzleError
from .board import State, flatten, resolve_goal, shape, unflatten, validate_state
from .geometry import LETTERS, grid, slide

#: The lecture function that makes each blank move.
LETTER_TO_LECTURE = {"D": "moveUp", "U": "moveDown", "R": "moveLeft", "L": "moveRight"}
#: Long names accepted for letters: where the blank goes.
MOVE_NAMES = {"up": "U", "down": "D", "left": "L", "right": "R"}


def normalize_moves(moves: str | Iterable[str]) -> str:
    """A move string of U/D/L/R from a string ('DRD', 'd r d') or a list of letters/names."""
    if isinstance(moves, str):
        items: list[str] = [ch for ch in moves if not ch.isspace() and ch not in ",-"]
    elif not isinstance(moves, Iterable):
        raise PuzzleError(f"moves must be a string of U/D/L/R letters (where the blank goes), "
                          f"got {type(moves).__name__}")
    else:
        items = [str(m).strip() for m in moves]
    out = []
    for i, m in enumerate(items):
        letter = MOVE_NAMES.get(m.lower(), m.upper())
        if letter not in LETTERS or len(letter) != 1:
            raise PuzzleError(f"move {i + 1} is {m!r}; moves are the letters U, D, L, R "
                              "(where the blank goes)")
        out.append(letter)
    return "".join(out)


def apply_moves(S: State, moves: str | Iterable[str]) -> State:
    """The state after playing `moves` from `S`; an illegal move raises `PuzzleError`."""
    return moves_to_path(S, moves)[-1]


def moves_to_path(S: State, moves: str | Iterable[str]) -> list[State]:
    """The list of states visited by `moves` from `S` (len(moves) + 1 states)."""
    S = validate_state(S)
    rows, cols = shape(S)
    letters = normalize_moves(moves)
    s = flatten(S)
    z = s.index(0)
    target = grid(rows, cols).target
    path = [S]
    for i, letter in enumerate(letters):
        q = target(z, letter)
        if q is None:
            r, c = divmod(z, cols)
            raise PuzzleError(f"move {i + 1} ({letter!r}) is illegal: the blank at row {r}, "
                              f"column {c} cannot go {_DIRECTION[letter]} on a {rows}×{cols} board")
        s, z = slide(s, z, q), q
        path.append(unflatten(s, rows, cols))
    return path


_DIRECTION = {"U": "up", "D": "down", "L": "left", "R": "right"}


def move_between(a: State, b: State) -> str | None:
    """The letter that turns `a` into `b`, or None if they are not one move apart."""
    if len(a) != len(b) or len(a[0]) != len(b[0]):
        return None
    fa, fb = flatten(a), flatten(b)
    rows, cols = shape(a)
    try:
        z = fa.index(0)
    except ValueError:
        return None
    for letter, q in grid(rows, cols).neighbors[z]:
        if fb[z] == fa[q] and fb[q] == 0 and all(
                x == y for i, (x, y) in enumerate(zip(fa, fb)) if i != z and i != q):
            return letter
    return None


def path_to_moves(path: Sequence[State]) -> str:
    """The move string of a path of states; raises `PuzzleError` at the first bad step."""
    out = []
    for i in range(len(path) - 1):
        letter = move_between(path[i], path[i + 1])
        if letter is None:
            raise PuzzleError(f"states {i} and {i + 1} of the path are not one move apart")
        out.append(letter)
    return "".join(out)


@dataclass(frozen=True)
class SolutionCheck:
    """The verdict of `check_solution`."""

    legal: bool
    reaches_goal: bool
    length: int
    message: str
    first_illegal: int | None = None   #: 0-based index of the first illegal move, if any

    @property
    def ok(self) -> bool:
        return self.legal and self.reaches_goal

    def __bool__(self) -> bool:
        return self.ok


def check_solution(start: State, goal: State | None,
                   moves_or_path: str | Sequence[str] | Sequence[State]) -> SolutionCheck:
    """Check a proposed solution, given as a move string or as a list of states.

    Returns a `SolutionCheck`: legal?, reaches the goal?, its length (moves) and a message
    that names the first illegal move.
    """
    start = validate_state(start, name="start")
    goal = resolve_goal(start, goal)
    rows, cols = shape(start)
    seq = moves_or_path
    if not isinstance(seq, Sequence):
        raise PuzzleError("check_solution needs a move string like 'DRD' or a list of "
                          f"states, got {type(seq).__name__}")
    is_path = (not isinstance(seq, str) and len(seq) > 0
               and not isinstance(seq[0], str))
    if is_path:
        path = cast(list[State], list(seq))
        try:
            first = validate_state(path[0], name="path[0]")
        except PuzzleError as e:
            return SolutionCheck(False, False, len(path) - 1, str(e), 0)
        if first != start:
            return SolutionCheck(False, False, len(path) - 1,
                                 "the path does not begin with the start state", 0)
        for i in range(len(path) - 1):
            if move_between(path[i], path[i + 1]) is None:
                return SolutionCheck(False, False, len(path) - 1,
                                     f"step {i + 1} (from state {i} to state {i + 1}) is not "
                                     "a single legal move", i)
        end = path[-1]
        n = len(path) - 1
    else:
        try:
            letters = normalize_moves(seq)  # type: ignore[arg-type]
        except PuzzleError as e:
            return SolutionCheck(False, False, len(seq), str(e), None)
        s = flatten(start)
        z = s.index(0)
        target = grid(rows, cols).target
        for i, letter in enumerate(letters):
            q = target(z, letter)
            if q is None:
                r, c = divmod(z, cols)
                return SolutionCheck(False, False, len(letters),
                                     f"move {i + 1} ({letter!r}) is illegal: the blank at row "
                                     f"{r}, column {c} cannot go {_DIRECTION[letter]}", i)
            s, z = slide(s, z, q), q
        end = unflatten(s, rows, cols)
        n = len(letters)
    if tuple(map(tuple, end)) != goal:
        return SolutionCheck(True, False, n, f"all {n} moves are legal but the last state "
                             "is not the goal")
    return SolutionCheck(True, True, n, f"solved in {n} moves")
