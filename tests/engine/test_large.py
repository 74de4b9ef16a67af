"""The big-board solver: legal solutions for any shape and any goal, checked move by move."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlekit as pk
from puzzlekit.engine.large import solve_large


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 10**9), st.integers(0, 10**9))
def test_any_shape_and_any_goal_is_solved_legally(rows, cols, seed, goal_seed):
    start = pk.random_state(rows, cols, seed=seed)
    goal = pk.random_state(rows, cols, seed=goal_seed)      # same parity class as start
    moves = solve_large(start, goal)
    assert pk.check_solution(start, goal, moves).ok


@pytest.mark.parametrize("rows, cols", [(10, 10), (12, 17), (20, 20)])
def test_big_random_boards_are_solved_legally(rows, cols):
    start = pk.random_state(rows, cols, seed=rows * cols)
    for goal in (pk.goal_state(rows, cols), pk.goal_state(rows, cols, blank="first")):
        if pk.is_solvable(start, goal):
            moves = solve_large(start, goal)
            check = pk.check_solution(start, goal, moves)
            assert check.ok, check.message


def test_a_solved_board_needs_no_moves_and_one_move_is_found_back():
    goal = pk.goal_state(5)
    assert solve_large(goal, goal) == ""
    one_off = pk.apply_moves(goal, "U")
    assert pk.check_solution(one_off, goal, solve_large(one_off, goal)).ok


def test_unsolvable_boards_are_refused_before_any_work():
    start = ((2, 1, 3), (4, 5, 6), (7, 8, 0))
    with pytest.raises(pk.Unsolvable):
        solve_large(start)


def test_solve_reduction_uses_it():
    start = pk.random_state(8, 8, seed=4)
    r = pk.solve(start, algorithm="reduction")
    assert not r.optimal and pk.check_solution(start, None, r.moves).ok
    assert r.moves == pk.solve_large(start)
