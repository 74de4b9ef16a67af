"""Move letters (the Thai course's 8-puzzle assignment): U/D/L/R say where the blank goes."""

from __future__ import annotations

import pytest
from boards import boards, walks
from hypothesis import given
from hypothesis import strategies as st

import puzzlekit as pk
from puzzlekit.puzzle.geometry import INVERSE


def inverse(moves: str) -> str:
    return "".join(INVERSE[m] for m in reversed(moves))


def blank_goes(S, letter):
    r, c = pk.findZero(S)
    T = pk.apply_moves(S, letter)
    return tuple(a - b for a, b in zip(pk.findZero(T), (r, c)))


def test_letters_say_where_the_blank_goes():
    S = pk.apply_moves(pk.goal_state(3), "UL")            # blank in the centre
    assert blank_goes(S, "U") == (-1, 0)
    assert blank_goes(S, "D") == (1, 0)
    assert blank_goes(S, "L") == (0, -1)
    assert blank_goes(S, "R") == (0, 1)


@given(walks())
def test_moves_to_path_and_path_to_moves_round_trip(walk):
    start, moves = walk
    path = pk.moves_to_path(start, moves)
    assert len(path) == len(moves) + 1 and path[0] == start
    assert pk.path_to_moves(path) == moves
    assert pk.apply_moves(start, moves) == path[-1]


@given(walks())
def test_inverse_moves_come_back(walk):
    start, moves = walk
    assert pk.apply_moves(pk.apply_moves(start, moves), inverse(moves)) == start


@given(walks())
def test_check_solution_accepts_moves_and_paths(walk):
    start, moves = walk
    end = pk.apply_moves(start, moves)
    for proposal in (moves, list(pk.moves_to_path(start, moves)), list(moves)):
        verdict = pk.check_solution(start, end, proposal)
        assert verdict.ok and verdict.legal and verdict.length == len(moves)


@given(boards(), st.text(alphabet="UDLR", max_size=12))
def test_check_solution_names_the_first_illegal_move(S, moves):
    verdict = pk.check_solution(S, None, moves)
    try:
        end = pk.apply_moves(S, moves)
    except pk.PuzzleError:
        assert not verdict.legal and not verdict.ok
        k = verdict.first_illegal
        pk.apply_moves(S, moves[:k])                          # everything before is legal
        with pytest.raises(pk.PuzzleError):
            pk.apply_moves(S, moves[:k + 1])
        assert f"move {k + 1} " in verdict.message
    else:
        assert verdict.legal and verdict.reaches_goal == (end == pk.goal_state(*pk.shape(S)))


def test_check_solution_messages():
    start = pk.read_board("3\n0 1 3\n4 2 5\n7 8 6\n")
    assert pk.check_solution(start, None, "RDRD").message == "solved in 4 moves"
    bad = pk.check_solution(start, None, "RDRDD")
    assert not bad and bad.first_illegal == 4
    assert "move 5 ('D') is illegal" in bad.message and "cannot go down" in bad.message
    short = pk.check_solution(start, None, "RD")
    assert short.legal and not short.reaches_goal and "not the goal" in short.message


def test_check_solution_with_a_broken_path():
    start = pk.read_board("3\n0 1 3\n4 2 5\n7 8 6\n")
    path = pk.moves_to_path(start, "RDRD")
    del path[2]
    verdict = pk.check_solution(start, None, path)
    assert not verdict.legal and verdict.first_illegal == 1 and "step 2" in verdict.message
    wrong_start = pk.check_solution(start, None, pk.moves_to_path(pk.goal_state(3), "U"))
    assert not wrong_start.legal and "start" in wrong_start.message


def test_normalize_moves_accepts_names_and_spaces():
    assert pk.normalize_moves("d r d") == "DRD"
    assert pk.normalize_moves(["up", "Left", "R"]) == "ULR"
    assert pk.normalize_moves("U,D-L") == "UDL"
    with pytest.raises(pk.PuzzleError, match="move 2 is 'X'"):
        pk.normalize_moves("UX")


def test_illegal_move_message_names_the_move_and_board():
    with pytest.raises(pk.PuzzleError, match=r"move 3 \('R'\) is illegal.*2×3"):
        pk.apply_moves(pk.goal_state(2, 3), "LRR")


def test_move_between_of_non_neighbours():
    S = pk.goal_state(3)
    assert pk.move_between(S, S) is None
    assert pk.move_between(S, pk.apply_moves(S, "UL")) is None
    assert pk.move_between(S, pk.goal_state(2)) is None
    with pytest.raises(pk.PuzzleError, match="states 0 and 1"):
        pk.path_to_moves([S, S])


def test_slide_is_one_move_on_a_flat_tuple():
    from puzzlekit.puzzle.geometry import grid, slide
    s = pk.flatten(pk.goal_state(3))                  # blank on square 8
    assert grid(3, 3).targets[8] == (5, 7)
    assert slide(s, 8, 5) == pk.flatten(pk.apply_moves(pk.goal_state(3), "U"))
    assert slide(slide(s, 8, 7), 7, 8) == s
