"""The board model: validation, shapes, goals, flattening."""

from __future__ import annotations

import pytest
from boards import boards
from hypothesis import given

import puzzlekit as pk
from puzzlekit.puzzle.board import resolve_goal


def test_validate_converts_lists_to_tuples():
    S = pk.validate_state([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    assert S == pk.goal_state(3) and isinstance(S, tuple) and isinstance(S[0], tuple)


@given(boards())
def test_every_permutation_is_a_valid_state(S):
    assert pk.validate_state(S) == S
    assert pk.validate_state([list(row) for row in S]) == S


@given(boards())
def test_flatten_unflatten_round_trip(S):
    rows, cols = pk.shape(S)
    flat = pk.flatten(S)
    assert len(flat) == rows * cols and sorted(flat) == list(range(rows * cols))
    assert pk.unflatten(flat, rows, cols) == S


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (3, 5)])
def test_goal_states_both_conventions(rows, cols):
    last, first = pk.goal_state(rows, cols), pk.goal_state(rows, cols, blank="first")
    n = rows * cols
    assert pk.shape(last) == pk.shape(first) == (rows, cols)
    assert pk.flatten(last) == tuple(range(1, n)) + (0,)
    assert pk.flatten(first) == tuple(range(n))


def test_goal_state_square_default():
    assert pk.goal_state(4) == pk.goal_state(4, 4)


@pytest.mark.parametrize("args, words", [
    ((1,), "rows"), ((3, 1), "cols"), ((True,), "rows"), ((3.0,), "rows"), ((99,), "rows"),
])
def test_goal_state_rejects_bad_sizes(args, words):
    with pytest.raises(pk.PuzzleError, match=words):
        pk.goal_state(*args)


def test_goal_state_rejects_unknown_blank_convention():
    with pytest.raises(pk.PuzzleError, match="blank"):
        pk.goal_state(3, blank="middle")  # type: ignore[arg-type]


def test_resolve_goal_default_and_shape_mismatch():
    S = ((1, 2, 3), (4, 5, 0))
    assert resolve_goal(S, None) == ((1, 2, 3), (4, 5, 0))
    with pytest.raises(pk.PuzzleError, match="2×3 but goal is 3×2"):
        resolve_goal(S, ((1, 2), (3, 4), (5, 0)))


def test_puzzle_error_is_a_value_error():
    assert issubclass(pk.PuzzleError, ValueError)
    assert issubclass(pk.Unsolvable, pk.PuzzleError)
    assert issubclass(pk.SearchLimitReached, pk.PuzzleError)


def test_numpy_integers_are_tiles_and_become_ints():
    """Regression: rows built from a numpy array held np.int64 and were refused."""
    np = pytest.importorskip("numpy")
    grid = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    S = pk.validate_state(tuple(map(tuple, grid)))
    assert S == pk.goal_state(3) and all(type(x) is int for row in S for x in row)
    with pytest.raises(pk.PuzzleError, match="bool"):
        pk.validate_state(((0, 1), (2, np.bool_(True))))
