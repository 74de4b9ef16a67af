"""Converters between states and the course formats: flat lists, strings, Princeton files."""

from __future__ import annotations

from boards import boards
from hypothesis import given

import puzzlekit as pk

PRINCETON_EXAMPLE = "3\n 0  1  3\n 4  2  5\n 7  8  6\n"


@given(boards())
def test_flat_with_zero_round_trips(S):
    rows, cols = pk.shape(S)
    flat = pk.to_flat(S)
    assert pk.from_flat(flat, rows, cols) == S


@given(boards())
def test_flat_with_space_round_trips(S):
    rows, cols = pk.shape(S)
    flat = pk.to_flat(S, blank=" ")
    assert " " in flat and 0 not in flat
    assert pk.from_flat(flat, rows, cols) == S


@given(boards())
def test_string_round_trips(S):
    rows, cols = pk.shape(S)
    assert pk.from_string(pk.to_string(S), rows, cols) == S


@given(boards())
def test_princeton_text_round_trips(S):
    assert pk.read_board(pk.board_text(S)) == S
    assert pk.parse_board_text(pk.write_board(S)) == S


@given(boards())
def test_as_state_accepts_every_format(S):
    rows, cols = pk.shape(S)
    assert pk.as_state(S) == S
    assert pk.as_state(pk.board_text(S)) == S
    if rows == cols:                          # flat lists and strings infer square shapes
        assert pk.as_state(pk.to_flat(S)) == S
        assert pk.as_state(pk.to_flat(S, " ")) == S
        assert pk.as_state(pk.to_string(S)) == S


def test_seed_formats_agree():
    S = ((1, 2, 3), (8, 0, 4), (7, 6, 5))
    assert pk.from_flat([1, 2, 3, 8, 0, 4, 7, 6, 5]) == S          # seeds 000/001
    assert pk.from_flat([1, 2, 3, 8, " ", 4, 7, 6, 5]) == S        # the 15-puzzle notebook
    assert pk.from_string("1238_4765") == S                        # the lecture slides
    assert pk.to_string(S) == "1238_4765"
    assert pk.to_flat(S, " ") == [1, 2, 3, 8, " ", 4, 7, 6, 5]


def test_strings_with_separators_and_big_tiles():
    assert pk.from_string("1 2 3 / 4 5 6 / 7 8 _") == pk.goal_state(3)
    S15 = pk.goal_state(4)
    assert pk.to_string(S15) == "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 _"
    assert pk.from_string(pk.to_string(S15)) == S15


def test_princeton_text_layout():
    assert pk.board_text(pk.read_board(PRINCETON_EXAMPLE)) == "3\n0 1 3\n4 2 5\n7 8 6\n"
    assert pk.board_text(pk.goal_state(4)).splitlines()[1] == " 1  2  3  4"
    assert pk.board_text(pk.goal_state(2, 3)).splitlines()[0] == "2 3"   # rows cols


def test_read_and_write_a_file(tmp_path):
    S = pk.from_string("281_43765")
    f = tmp_path / "b.txt"
    text = pk.write_board(S, f)
    assert f.read_text() == text
    assert pk.read_board(f) == S and pk.read_board(str(f)) == S


def test_read_board_tolerates_blank_lines_and_crlf():
    assert pk.read_board("\n3\r\n0 1 3\r\n\n4 2 5\r\n7 8 6\r\n\n") == pk.read_board(PRINCETON_EXAMPLE)


# ------------------------------------------------------------------------ text rendering

def test_board_str_right_aligns_with_the_blank_as_spaces():
    assert pk.board_str(pk.from_string("1238_4765")) == " 1 2 3\n 8   4\n 7 6 5"
    lines = pk.board_str(pk.goal_state(4)).splitlines()
    assert lines[0] == "  1  2  3  4" and lines[3] == " 13 14 15   "
    assert pk.board_str(pk.goal_state(2), width=4) == "   1   2\n   3    "


def test_path_str_puts_each_letter_between_its_boards():
    path = pk.moves_to_path(pk.goal_state(2), "UL")
    assert pk.path_str(path, "UL").split("\n") == [
        " 1 2", " 3  ", "  U", " 1  ", " 3 2", "  L", "   1", " 3 2"]
    assert pk.path_str(path).split("\n\n") == [pk.board_str(S) for S in path]


def test_print_pos_accepts_a_state_too(capsys):
    pk.print_pos(pk.goal_state(4))
    assert capsys.readouterr().out.splitlines()[0] == "  1  2  3  4"
