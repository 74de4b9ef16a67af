"""Checks of notebook 01, States and moves (see `puzzlekit.testcells.checks`)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterable
from typing import Any

from .. import (assert_board_equal, assert_equal, assert_prints_path, forbid_reference,
                 run_with_timeout)
from ..messages import partly, passed
from ..mistakes import mistake
from . import forbids

__all__ = ["check_goal", "check_findZero", "check_moveUp", "check_moveDown", "check_moveLeft",
           "check_moveRight", "check_nextStates", "successor_blocks", "letters_why",
           "check_gen_successors", "check_print_moves", "printed_lines", "spacing_why",
           "check_print_pos", "check_EightPuzzle", "passed"]

Board = tuple[tuple[int, ...], ...]


def check_goal(goal: Any) -> None:
    """`goal` is the lecture's goal, (0, 1, 2), (3, 4, 5), (6, 7, 8), as a tuple of tuples."""
    assert_equal(type(goal), tuple, "goal should be a tuple (of rows), not a list")
    assert_equal(len(goal), 3, "goal should have 3 rows")
    assert all(type(row) is tuple and len(row) == 3 for row in goal), \
        "each row of goal should be a tuple of 3 numbers (not a list)"
    assert_equal(sorted(x for row in goal for x in row), list(range(9)), "the numbers on the board")
    assert goal[0][0] == 0, ("the lecture's goal has the blank (0) in the top-left corner; "
                             "(1, 2, 3), (4, 5, 6), (7, 8, 0) is another course's goal")
    assert goal[0] == (0, 1, 2) and goal[1][0] == 3, \
        "the tiles follow in reading order: along the first row, then the second (not down the columns)"
    assert_board_equal(goal, ((0, 1, 2), (3, 4, 5), (6, 7, 8)), what="goal")


@forbids("findZero")
def check_findZero(findZero: Callable[[Any], Any], S: Board, want: tuple[int, int],
                   what: str) -> None:
    """findZero(S) must be `want`, (row, column); (column, row) is named."""
    with forbid_reference("findZero"):
        got = findZero(S)
    swapped = got == tuple(reversed(want)) and want[0] != want[1]
    assert_equal(got, want, what, why=mistake("findZero-column-row", "it returned (column, "
                                              "row); findZero returns (row, column), the row "
                                              "first") if swapped else None)


def _check_move(name: str, move: Callable[..., Any], S: Board, r: int, c: int, want: Board,
                what: str) -> Any:
    """`move`(S, r, c), with puzzlekit's `name` forbidden, must be the board `want`."""
    with forbid_reference(name):
        got = move(S, r, c)
    assert_board_equal(got, want, what=what, start=S)
    return got


@forbids("moveUp")
def check_moveUp(moveUp: Callable[..., Any], S: Board, r: int, c: int, want: Board,
                 what: str) -> None:
    """moveUp(S, r, c) must be the board `want`, a tuple of tuples."""
    got = _check_move("moveUp", moveUp, S, r, c, want, what)
    assert isinstance(got, tuple) and all(isinstance(row, tuple) for row in got), \
        mistake("board-not-tuple", f"moveUp should return a tuple of tuples (use "
                f"tupleOfTuples), got {got!r}")


@forbids("moveDown")
def check_moveDown(moveDown: Callable[..., Any], S: Board, r: int, c: int, want: Board,
                   what: str) -> None:
    """moveDown(S, r, c) must be the board `want`."""
    _check_move("moveDown", moveDown, S, r, c, want, what)


@forbids("moveLeft")
def check_moveLeft(moveLeft: Callable[..., Any], S: Board, r: int, c: int, want: Board,
                   what: str) -> None:
    """moveLeft(S, r, c) must be the board `want`."""
    _check_move("moveLeft", moveLeft, S, r, c, want, what)


@forbids("moveRight")
def check_moveRight(moveRight: Callable[..., Any], S: Board, r: int, c: int, want: Board,
                    what: str) -> None:
    """moveRight(S, r, c) must be the board `want`."""
    _check_move("moveRight", moveRight, S, r, c, want, what)


@forbids("nextStates")
def check_nextStates(nextStates: Callable[[Any], Any], S: Board, want: set[Board],
                     what: str) -> None:
    """nextStates(S) must be the set `want`; the right states in a list earn 2 of 3 points."""
    with forbid_reference("nextStates"):
        got = run_with_timeout(5, nextStates, S)
    if isinstance(got, (list, tuple)) and len(set(got)) == len(got):
        # the right states in a list: 2 of the 3 points (the text asks for a set)
        partly(2, mistake("list-not-set", "nextStates returns its states in a list; the "
                          "exercise asks for a set (return set(...), or build one)"))
        got = set(got)
    assert_equal(got, want, what, start=S)


def successor_blocks(flat: Any, size: int) -> set[tuple[Any, ...]]:
    """The successors in a flat successor list, as a set of tuples of `size` items each."""
    assert isinstance(flat, list), \
        f"gen_successors should return a list, got {type(flat).__name__}" \
        + (" (did it forget to `return` it?)" if flat is None else "")
    assert len(flat) % size == 0, f"the list has {len(flat)} items, not a multiple of {size}"
    return {tuple(flat[i:i + size]) for i in range(0, len(flat), size)}


def letters_why(got: set[tuple[Any, ...]], want: set[tuple[Any, ...]]) -> str | None:
    """The boards are right but each new letter is the opposite one: the tile's way."""
    opposite = str.maketrans("UDLR", "DURL")
    flipped = {block[:-1] + (block[-1][:-1] + block[-1][-1:].translate(opposite),)
               for block in got}
    if got != want and flipped == want:
        return mistake("tile-letters", "each new letter says where the tile went; in this "
                       "course a letter says where the blank moves (D: the blank moves down, "
                       "the tile below it up)")
    return None


def check_gen_successors(gen_successors: Callable[[Any], Any], node: list[Any],
                         want: set[tuple[Any, ...]]) -> None:
    """gen_successors(node) must hold the successors `want`, one after another in a list."""
    got = successor_blocks(gen_successors(list(node)), len(node))
    assert_equal(got, want, f"the successors of {node!r}", why=letters_why(got, want))
    flat = gen_successors(list(node))
    assert_equal(len(flat), len(node) * len(want), f"the length of the successor list "
                 f"({len(node)} items for each of {len(want)} moves)")


@forbids("print_moves")
def check_print_moves(print_moves: Callable[..., Any], board: list[Any], moves: str) -> None:
    """print_moves(board, moves) must print every board along `moves`, in order."""
    with forbid_reference("print_moves"):
        assert_prints_path(print_moves, board, moves)


@forbids("print_pos")
def printed_lines(func: Callable[..., Any], *args: Any) -> list[str]:
    """The lines func(*args) prints, without spaces at their ends."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), forbid_reference("print_pos"):
        func(*args)
    text = out.getvalue().strip("\n")
    assert text, f"{func.__name__} printed nothing: it should print the rows (not return them)"
    return [line.rstrip() for line in text.split("\n")]


def spacing_why(got: list[str], want: list[str]) -> str | None:
    """The right numbers in the right rows, spaced another way (or run together)."""
    if got != want and [line.replace(" ", "") for line in got] == \
            [line.replace(" ", "") for line in want]:
        return mistake("print-spacing", "the numbers and rows are right, the spacing is not: "
                       "each square takes 3 characters, the number at its right end "
                       "(f\"{x:>3}\"), the gap 3 spaces")
    return None


@forbids("print_pos")
def check_print_pos(print_pos: Callable[..., Any], p: list[Any], want: Iterable[str],
                    what: str) -> None:
    """print_pos(p) must print the lines `want` (the spacing is named when it is all that
    differs)."""
    lines = printed_lines(print_pos, p)
    expected = list(want)
    assert_equal(lines, expected, what, why=spacing_why(lines, expected))


def check_EightPuzzle(EightPuzzle: Callable[[Any], Any]) -> None:
    """The class keeps its squares, compares and hashes by them, and has successors."""
    a, b = EightPuzzle('1238_4765'), EightPuzzle(list('1238_4765'))
    assert_equal(a.squares, list('1238_4765'), "EightPuzzle('1238_4765').squares")
    assert a == b, "two puzzles with the same squares should be equal"
    assert not (a == EightPuzzle('123_84765')), "puzzles with different squares should not be equal"
    assert_equal(len({a, b}), 1, "the size of a set holding two equal puzzles")
    left, right, up, down = a.get_successors()
    assert_equal(''.join(left.squares), '123_84765', "the successor for moving the blank left")
