"""Checks of notebook 01, States and moves (see `puzzlekit.testcells.checks`)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterable
from typing import Any

from .. import (assert_board_equal, assert_equal, assert_prints_path, forbid_reference,
                 run_with_timeout)
from ..catalogue import (FIND_ZERO_COLUMN_ROW, GOAL_BLANK_LAST, GOAL_BY_COLUMNS, GOAL_NOT_A_TUPLE,
                         GOAL_ROW_NOT_A_TUPLE, GOAL_ROWS, LETTERS_SAY_WHERE_THE_TILE_WENT,
                         MOVE_UP_NOT_TUPLES,
                         NEXT_STATES_IN_A_LIST, NUMBERS_ON_THE_BOARD, PRINT_SPACING,
                         PRINTED_NOTHING, PUZZLES_EQUAL, PUZZLES_NOT_EQUAL,
                         SET_OF_EQUAL_PUZZLES, SUCCESSOR_BLANK_LEFT, SUCCESSOR_LIST_LENGTH,
                         SUCCESSORS_NONE, SUCCESSORS_NOT_A_LIST, SUCCESSORS_NOT_BLOCKS,
                         SUCCESSORS_OF)
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
    assert_equal(type(goal), tuple, GOAL_NOT_A_TUPLE)
    assert_equal(len(goal), 3, GOAL_ROWS)
    assert all(type(row) is tuple and len(row) == 3 for row in goal), GOAL_ROW_NOT_A_TUPLE
    assert_equal(sorted(x for row in goal for x in row), list(range(9)), NUMBERS_ON_THE_BOARD)
    assert goal[0][0] == 0, GOAL_BLANK_LAST
    assert goal[0] == (0, 1, 2) and goal[1][0] == 3, GOAL_BY_COLUMNS
    assert_board_equal(goal, ((0, 1, 2), (3, 4, 5), (6, 7, 8)), what="goal")


@forbids("findZero")
def check_findZero(findZero: Callable[[Any], Any], S: Board, want: tuple[int, int],
                   what: str) -> None:
    """findZero(S) must be `want`, (row, column); (column, row) is named."""
    with forbid_reference("findZero"):
        got = findZero(S)
    swapped = got == tuple(reversed(want)) and want[0] != want[1]
    assert_equal(got, want, what, why=mistake("findZero-column-row", FIND_ZERO_COLUMN_ROW)
                 if swapped else None)


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
        mistake("board-not-tuple", MOVE_UP_NOT_TUPLES.format(got=repr(got)))


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
        partly(2, mistake("list-not-set", NEXT_STATES_IN_A_LIST))
        got = set(got)
    assert_equal(got, want, what, start=S)


def successor_blocks(flat: Any, size: int) -> set[tuple[Any, ...]]:
    """The successors in a flat successor list, as a set of tuples of `size` items each."""
    assert flat is not None, SUCCESSORS_NONE
    assert isinstance(flat, list), SUCCESSORS_NOT_A_LIST.format(kind=type(flat).__name__)
    assert len(flat) % size == 0, SUCCESSORS_NOT_BLOCKS.format(items=len(flat), size=size)
    return {tuple(flat[i:i + size]) for i in range(0, len(flat), size)}


def letters_why(got: set[tuple[Any, ...]], want: set[tuple[Any, ...]]) -> str | None:
    """The boards are right but each new letter is the opposite one: the tile's way."""
    opposite = str.maketrans("UDLR", "DURL")
    flipped = {block[:-1] + (block[-1][:-1] + block[-1][-1:].translate(opposite),)
               for block in got}
    if got != want and flipped == want:
        return mistake("tile-letters", LETTERS_SAY_WHERE_THE_TILE_WENT)
    return None


def check_gen_successors(gen_successors: Callable[[Any], Any], node: list[Any],
                         want: set[tuple[Any, ...]]) -> None:
    """gen_successors(node) must hold the successors `want`, one after another in a list."""
    got = successor_blocks(gen_successors(list(node)), len(node))
    assert_equal(got, want, SUCCESSORS_OF.format(node=repr(node)), why=letters_why(got, want))
    flat = gen_successors(list(node))
    assert_equal(len(flat), len(node) * len(want),
                 SUCCESSOR_LIST_LENGTH.format(items=len(node), moves=len(want)))


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
    assert text, PRINTED_NOTHING.format(name=func.__name__)
    return [line.rstrip() for line in text.split("\n")]


def spacing_why(got: list[str], want: list[str]) -> str | None:
    """The right numbers in the right rows, spaced another way (or run together)."""
    if got != want and [line.replace(" ", "") for line in got] == \
            [line.replace(" ", "") for line in want]:
        return mistake("print-spacing", PRINT_SPACING.format())
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
    assert a == b, PUZZLES_EQUAL
    assert not (a == EightPuzzle('123_84765')), PUZZLES_NOT_EQUAL
    assert_equal(len({a, b}), 1, SET_OF_EQUAL_PUZZLES)
    left, right, up, down = a.get_successors()
    assert_equal(''.join(left.squares), '123_84765', SUCCESSOR_BLANK_LEFT)
