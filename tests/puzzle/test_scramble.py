"""Scrambles: the 15-puzzle notebook's shuffle_pos, seeded walks, random boards, boards at
an exact depth."""

from __future__ import annotations

import random

import pytest
from boards import boards
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlekit as pk
from puzzlekit.puzzle.geometry import INVERSE


@given(st.integers(0, 2**32), st.integers(0, 60))
def test_shuffle_pos_walks_from_goal_a_without_undoing(seed, n):
    state = random.getstate()
    try:
        random.seed(seed)
        p = pk.shuffle_pos(n)
    finally:
        random.setstate(state)
    S = pk.from_flat(p)
    assert sorted(map(str, p)) == sorted(map(str, list(range(1, 16)) + [" "]))
    assert pk.is_solvable(S)
    assert pk.manhattan(S) <= n and (pk.manhattan(S) - n) % 2 == 0   # parity of a walk


@given(boards(), st.integers(0, 40), st.integers(0, 2**32))
def test_random_walk_is_legal_reproducible_and_never_undoes(S, n, seed):
    end, moves = pk.random_walk(S, n, seed)
    assert len(moves) == n and pk.apply_moves(S, moves) == end
    assert all(INVERSE[a] != b for a, b in zip(moves, moves[1:]))
    assert pk.random_walk(S, n, seed) == (end, moves)


def test_random_walk_may_undo_when_asked():
    walks = [pk.random_walk(pk.goal_state(2), 30, seed=s, allow_undo=True)[1] for s in range(5)]
    assert any(INVERSE[a] == b for m in walks for a, b in zip(m, m[1:]))


def test_random_walk_accepts_a_random_generator():
    a = pk.random_walk(pk.goal_state(3), 10, random.Random(5))
    assert a == pk.random_walk(pk.goal_state(3), 10, 5)


@pytest.mark.parametrize("rows, cols", [(2, 2), (3, 3), (3, 5), (4, 4)])
def test_scramble_reaches_its_goal(rows, cols):
    S = pk.scramble(rows, cols, moves=25, seed=1)
    assert pk.shape(S) == (rows, cols) and pk.is_solvable(S)
    snail = pk.from_string("1238_4765")
    assert pk.is_solvable(pk.scramble(moves=25, seed=1, goal=snail), snail)


def test_random_state_is_reproducible_and_varied():
    assert pk.random_state(4, seed=3) == pk.random_state(4, seed=3)
    assert len({pk.random_state(3, seed=s) for s in range(30)}) > 25


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 31), st.integers(0, 1000), st.sampled_from(["last", "first"]))
def test_state_at_depth_is_exactly_that_far(d, seed, blank):
    goal = pk.goal_state(3, blank=blank)
    S = pk.state_at_depth(d, seed=seed, goal=goal)
    assert pk.exact_distance(S, goal) == d
    assert pk.state_at_depth(d, seed=seed, goal=goal) == S


@pytest.mark.parametrize("d", [-1, 32, 2.0, "3"])
def test_state_at_depth_refuses_impossible_depths(d):
    with pytest.raises(pk.PuzzleError, match="0 to 31"):
        pk.state_at_depth(d)


@pytest.mark.parametrize("call", [
    lambda: pk.shuffle_pos(-1), lambda: pk.shuffle_pos(2.5), lambda: pk.shuffle_pos(True),
    lambda: pk.random_walk(pk.goal_state(3), -2), lambda: pk.random_walk(pk.goal_state(3), "3"),
    lambda: pk.scramble(1), lambda: pk.random_state(3, 40),
])
def test_bad_scramble_arguments(call):
    with pytest.raises(pk.PuzzleError):
        call()


def test_puzzlekit_scramble_is_the_function_even_after_its_module_is_imported():
    """Regression: importing the scramble module (once named `puzzlekit.scramble`) rebound
    pk.scramble to the module; the module is `puzzlekit.puzzle.scrambles` now."""
    import importlib
    import types

    importlib.import_module("puzzlekit.puzzle.scrambles")
    importlib.import_module("puzzlekit.cli")
    assert not isinstance(pk.scramble, types.ModuleType)
    from puzzlekit import scramble
    assert scramble is pk.scramble and callable(scramble)
