"""Solvability by parity, checked against full breadth-first reachability."""

from __future__ import annotations

import itertools
import random

import pytest
from boards import board_pairs, boards
from hypothesis import given
from hypothesis import strategies as st

import puzzlekit as pk


def reachable(goal: pk.State) -> set[tuple[int, ...]]:
    """Every flat state that can reach `goal`, by full BFS (tiny boards only)."""
    return set(pk.distance_table(goal))


def all_boards(rows: int, cols: int):
    for perm in itertools.permutations(range(rows * cols)):
        yield pk.unflatten(perm, rows, cols)


def goals_for(rows: int, cols: int, n_random: int) -> list[pk.State]:
    rng = random.Random(rows * 10 + cols)
    goals = [pk.goal_state(rows, cols), pk.goal_state(rows, cols, blank="first")]
    for _ in range(n_random):
        flat = list(range(rows * cols))
        rng.shuffle(flat)
        goals.append(pk.unflatten(flat, rows, cols))
    return goals


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 2)])
def test_parity_agrees_with_reachability_on_small_boards(rows, cols):
    for goal in goals_for(rows, cols, n_random=4):
        can = reachable(goal)
        assert len(can) == len(list(all_boards(rows, cols))) // 2
        for S in all_boards(rows, cols):
            assert pk.is_solvable(S, goal) == (pk.flatten(S) in can), (S, goal)


@pytest.mark.slow
@pytest.mark.parametrize("blank", ["last", "first", "snail", "random"])
def test_parity_agrees_with_reachability_on_3x3(blank):
    """Full BFS from four goals; parity checked on 20,000 of the 9! boards for each."""
    goal = {"last": pk.goal_state(3), "first": pk.goal_state(3, blank="first"),
            "snail": pk.from_string("1238_4765"),
            "random": pk.from_flat([5, 2, 8, 0, 3, 1, 7, 6, 4])}[blank]
    can = reachable(goal)
    assert len(can) == 181_440
    rng = random.Random(7)
    perms = list(itertools.permutations(range(9)))
    for perm in rng.sample(perms, 20_000):
        S = pk.unflatten(perm, 3, 3)
        assert pk.is_solvable(S, goal) == (perm in can)


@given(boards(), st.integers(0, 2**32))
def test_random_state_is_always_solvable(S, seed):
    """random_state against the board's own goal and against S as an arbitrary goal."""
    rows, cols = pk.shape(S)
    assert pk.is_solvable(pk.random_state(rows, cols, seed=seed))
    T = pk.random_state(rows, cols, seed=seed, goal=S)
    assert pk.is_solvable(T, S)


@given(board_pairs())
def test_solvability_is_symmetric_and_swapping_two_tiles_flips_it(pair):
    S, goal = pair
    assert pk.is_solvable(S, goal) == pk.is_solvable(goal, S)
    flat = list(pk.flatten(S))
    i, j = [k for k, x in enumerate(flat) if x][:2]
    flat[i], flat[j] = flat[j], flat[i]
    swapped = pk.unflatten(flat, *pk.shape(S))
    assert pk.is_solvable(swapped, goal) != pk.is_solvable(S, goal)


@given(board_pairs())
def test_moves_keep_solvability(pair):
    S, goal = pair
    assert all(pk.is_solvable(T, goal) == pk.is_solvable(S, goal) for T in pk.nextStates(S))


def test_explanation_names_inversions_and_blank_rows():
    odd = pk.explain_solvability(((1, 2, 3), (4, 5, 6), (8, 7, 0)))
    assert not odd and odd.inversions == 1
    assert "inversions" in odd.text and "odd" in odd.text and "cannot be reached" in odd.text
    even = pk.explain_solvability(((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 15, 14, 0)))
    assert not even and "even" in even.text and "blank rows" in even.text
    assert str(even) == even.text


def test_inversions_and_sign():
    assert pk.count_inversions([3, 1, 2]) == 2
    assert pk.count_inversions(list(range(20, 0, -1))) == 190
    assert pk.inversions(pk.from_string("281_43765")) == 11
    assert pk.permutation_sign([1, 0, 2]) == -1 and pk.permutation_sign([0, 1, 2]) == 1


@given(st.lists(st.integers(-50, 50), max_size=40))
def test_count_inversions_matches_the_definition(seq):
    assert pk.count_inversions(seq) == sum(
        a > b for i, a in enumerate(seq) for b in seq[i + 1:])
