"""Typical mistakes with the lecture's moves are named from the boards alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlekit.diagnose import (LECTURE_NAME, blank_moves, diagnose_move,
                                diagnose_neighbours)
from puzzlekit.grading import assert_board_equal, assert_equal

START = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
REVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    tiles = draw(st.permutations(range(rows * cols)))
    return tuple(tuple(tiles[r * cols:(r + 1) * cols]) for r in range(rows))


@given(boards())
def test_the_right_move_needs_no_diagnosis_and_the_reverse_is_named(S):
    moves = blank_moves(S)
    for letter, right in moves.items():
        assert diagnose_move(S, right, right) is None
        name = LECTURE_NAME[letter]
        if REVERSE[letter] in moves:
            why = diagnose_move(S, moves[REVERSE[letter]], right)
            assert why.startswith("the blank moved") and f"`{name}`" in why
            assert "the name says where the tile goes" in why
        assert diagnose_move(S, S, right).startswith("the board came back unchanged")


@given(boards())
def test_every_wrong_neighbour_set_is_named(S):
    right = set(blank_moves(S).values())
    assert diagnose_neighbours(S, right, right) is None
    assert "itself" in diagnose_neighbours(S, right | {S}, right)
    for letter, B in blank_moves(S).items():
        assert f"`{LECTURE_NAME[letter]}` is missing" in diagnose_neighbours(S, right - {B},
                                                                            right)
    for letter, B in blank_moves(S, wrap=True).items():
        assert "jumped across the edge" in diagnose_neighbours(S, right | {B}, right)


def test_moveUp_read_as_the_blank_going_up():
    S = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
    with pytest.raises(AssertionError) as e:
        assert_board_equal(((1, 0, 3), (4, 2, 5), (6, 7, 8)), ((1, 2, 3), (4, 7, 5), (6, 0, 8)),
                           what="moveUp(S, 1, 1)", start=S)
    first = str(e.value).splitlines()[0]
    assert first == ("moveUp(S, 1, 1): the blank moved up instead of the tile: `moveUp` "
                     "slides the tile below the blank up (the name says where the tile "
                     "goes), so the blank goes down")


def test_the_blank_going_up_from_the_top_row_wraps_round():
    S = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
    why = diagnose_move(S, ((8, 3, 6), (5, 4, 7), (2, 0, 1)), ((8, 4, 6), (5, 0, 7), (2, 3, 1)))
    assert why == ("the blank moved up instead of the tile, and from the first row Python's "
                   "index -1 took it round to the other edge: `moveUp` slides the tile below "
                   "the blank up (the name says where the tile goes)")


def test_a_tile_moved_another_way():
    S = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
    why = diagnose_move(S, blank_moves(S)["L"], blank_moves(S)["D"])
    assert why == "a tile moved right, but `moveUp` slides the tile below the blank up"


def test_a_wrap_round_the_edge():
    S = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
    wrapped = ((8, 3, 6), (5, 4, 7), (2, 0, 1))      # moveDown at row 0: L[-1] is row 2
    why = diagnose_move(S, wrapped, S)
    assert why.startswith("the blank swapped with a tile on the far side of the board: "
                          "from the first row, index -1")


def test_a_copied_tile():
    S = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
    why = diagnose_move(S, ((1, 2, 3), (4, 7, 5), (6, 7, 8)), ((1, 2, 3), (4, 7, 5), (6, 0, 8)))
    assert why.startswith("the board has 7 twice and no blank: a tile was copied")


def test_a_copied_tile_is_named_although_it_is_not_a_board():
    with pytest.raises(AssertionError) as e:
        assert_board_equal(((8, 6, 6), (5, 4, 7), (2, 3, 1)), ((8, 6, 0), (5, 4, 7), (2, 3, 1)),
                           what="moveLeft(start, 0, 1)", start=START)
    assert str(e.value).splitlines()[0] == (
        "moveLeft(start, 0, 1): the board has 6 twice and no blank: a tile was copied "
        "instead of swapped with the blank (set both cells)")


def test_neighbours_message_leads_with_the_diagnosis():
    right = set(blank_moves(START).values())
    with pytest.raises(AssertionError) as e:
        assert_equal(right | {START}, right, "nextStates(start)", start=START)
    lines = str(e.value).splitlines()
    assert lines[0].startswith("nextStates(start): the board itself is among its next states")
    assert lines[1] == "expected a set of 3 states, got 4"
    with pytest.raises(AssertionError) as e:            # no start: as before
        assert_equal(right | {START}, right, "nextStates(start)")
    assert str(e.value).startswith("nextStates(start): expected a set of 3 states, got 4")


def test_a_wrong_move_behind_next_states_is_named_as_such():
    right = set(blank_moves(START).values())
    up = blank_moves(START)["D"]                      # moveUp's board
    wrapped = blank_moves(START, wrap=True)["U"]      # the blank up from row 0: row -1
    why = diagnose_neighbours(START, right - {up} | {wrapped}, right)
    assert why.startswith("a board where the blank jumped across the edge is there, and the "
                          "board of `moveUp` is missing: a move function moves the wrong way")


def test_nothing_recognised_leaves_the_plain_message():
    S = ((1, 2, 3), (4, 0, 5), (6, 7, 8))
    assert diagnose_move(S, ((2, 1, 3), (4, 0, 5), (6, 7, 8)),
                         ((1, 2, 3), (4, 7, 5), (6, 0, 8))) is None
    with pytest.raises(AssertionError, match="is not the expected board"):
        assert_board_equal(((2, 1, 3), (4, 0, 5), (6, 7, 8)), ((1, 2, 3), (4, 7, 5), (6, 0, 8)),
                           start=S)


PATH = [((1, 2, 3), (4, 0, 5), (6, 7, 8)), ((1, 2, 3), (4, 5, 0), (6, 7, 8)),
        ((1, 2, 3), (4, 5, 8), (6, 7, 0))]          # the blank goes R then D


@pytest.mark.parametrize("answer, words", [
    (PATH[::-1], "the path runs from the goal back to the start"),
    (PATH[1:], "the path leaves out the start"),
    (PATH[:-1], "the path stops one move before the goal"),
    (PATH[1:][::-1], "the path runs backwards and misses an end"),
    ("LU", "the letters say where the tile goes"),
    ("UL", "these are the moves from the goal back to the start"),
])
def test_a_path_slip_is_named(answer, words):
    from puzzlekit.diagnose import diagnose_path
    assert diagnose_path(PATH[0], PATH[-1], answer).startswith(words)
    with pytest.raises(AssertionError, match=f"^your path is not a solution: {words}"):
        from puzzlekit.grading import assert_solution
        assert_solution(PATH[0], PATH[-1], answer)


def test_a_right_or_unrecognised_path_has_no_diagnosis():
    from puzzlekit.diagnose import diagnose_path
    assert diagnose_path(PATH[0], PATH[-1], PATH) is None
    assert diagnose_path(PATH[0], PATH[-1], "RD") is None
    assert diagnose_path(PATH[0], PATH[-1], "RR") is None
    assert diagnose_path(PATH[0], PATH[-1], [PATH[0], PATH[2]]) is None
