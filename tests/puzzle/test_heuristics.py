"""Heuristics and exact distances: Hamming, Manhattan, linear conflict, the checker, and
the full 8-puzzle breadth-first search against published counts."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
from boards import board_pairs
from hypothesis import given
from hypothesis import strategies as st

import puzzlekit as pk

DATA = Path(__file__).parents[2].parent / "shared" / "data"
GOALS_3x3 = {"blank_bottom_right": pk.goal_state(3),
             "blank_top_left": pk.goal_state(3, blank="first")}


def published_histogram(column: str) -> list[int]:
    path = DATA / "eight_puzzle_depth_histogram.tsv"
    if not path.exists():
        pytest.skip(f"{path} not present")
    with path.open() as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert [int(r["depth"]) for r in rows] == list(range(len(rows)))
    return [int(r[column]) for r in rows]


# ------------------------------------------------------------------- the full 8-puzzle BFS

@pytest.mark.parametrize("name", GOALS_3x3)
def test_full_8_puzzle_bfs_matches_the_published_histogram(name):
    hist = pk.depth_histogram(GOALS_3x3[name])
    assert sum(hist) == 181_440
    assert len(hist) - 1 == 31 and hist[31] == 2
    assert hist == published_histogram(f"count_goal_{name}")


@pytest.mark.slow
def test_lecture_bfs_layers_give_the_same_histogram():
    layers = pk.bfs_layers(pk.goal_state(3), pk.nextStates)
    assert [len(layer) for layer in layers] == published_histogram("count_goal_blank_bottom_right")


@pytest.mark.parametrize("rows, cols, states", [(2, 2, 12), (2, 3, 360), (3, 2, 360)])
def test_small_boards_reach_half_the_permutations(rows, cols, states):
    assert sum(pk.depth_histogram(pk.goal_state(rows, cols))) == states


def test_exact_distance_and_its_limits():
    assert pk.exact_distance(pk.goal_state(3), pk.goal_state(3)) == 0
    assert pk.exact_distance(pk.apply_moves(pk.goal_state(3), "ULDR"), pk.goal_state(3)) == 4
    with pytest.raises(pk.PuzzleError, match="at most 9 cells"):
        pk.distance_table(pk.goal_state(4))


@given(st.sampled_from([0, 12, 31]), st.lists(st.integers(0, 16), max_size=12),
       st.integers(0, 2**32))
def test_distances_from_a_start_agree_with_the_full_table(depth, walk_lengths, seed):
    from puzzlekit.puzzle.exact import distances_from
    start = pk.state_at_depth(depth, seed=1)
    table = pk.distance_table(start)          # rooted at the start: moves are reversible
    rng = random.Random(seed)
    boards = [pk.random_walk(start, k, seed=rng)[0] for k in walk_lengths]
    got = distances_from(start, boards)
    assert got == {pk.flatten(b): table[pk.flatten(b)] for b in boards}


def test_distances_from_leave_out_a_board_that_cannot_be_reached():
    from puzzlekit.puzzle.exact import distances_from
    goal, other = pk.goal_state(3), ((2, 1, 3), (4, 5, 6), (7, 8, 0))   # two tiles swapped
    near = pk.apply_moves(goal, "UL")
    assert distances_from(goal, [near, other, goal]) == {pk.flatten(near): 2,
                                                         pk.flatten(goal): 0}


# ------------------------------------------------------------------------- the heuristics

def exact_3x3_sample(goal, n=400, seed=0):
    table = pk.distance_table(goal)
    rng = random.Random(seed)
    for flat in rng.sample(sorted(table), n):
        yield pk.unflatten(flat, 3, 3), table[flat]


@pytest.mark.parametrize("name", GOALS_3x3)
def test_heuristics_are_ordered_and_admissible(name):
    goal = GOALS_3x3[name]
    for S, d in exact_3x3_sample(goal):
        h, m, lc = pk.hamming(S, goal), pk.manhattan(S, goal), pk.linear_conflict(S, goal)
        assert h <= m <= lc <= d
        assert (h == 0) == (m == 0) == (d == 0)


@given(board_pairs())
def test_heuristics_never_count_the_blank(pair):
    S, goal = pair
    tiles = pk.tile_distances(S, goal)
    assert 0 not in tiles and sum(tiles.values()) == pk.manhattan(S, goal)
    flat_s, flat_g = pk.flatten(S), pk.flatten(goal)
    assert pk.hamming(S, goal) == sum(a != b for a, b in zip(flat_s, flat_g) if a)
    assert pk.linear_conflict(S, goal) - pk.manhattan(S, goal) >= 2 * bool(pk.conflict_pairs(S, goal))
    assert pk.hamming(goal, goal) == pk.manhattan(goal, goal) == pk.linear_conflict(goal, goal) == 0


@given(board_pairs())
def test_manhattan_changes_by_one_per_move(pair):
    S, goal = pair
    m = pk.manhattan(S, goal)
    assert all(abs(pk.manhattan(T, goal) - m) == 1 for T in pk.nextStates(S))


def test_linear_conflict_example():
    S = ((2, 1, 3), (4, 5, 6), (7, 8, 0))          # 1 and 2 swapped in their goal row
    assert pk.manhattan(S) == 2 and pk.linear_conflict(S) == 4
    assert pk.conflict_pairs(S) == [(2, 1)]


def test_heuristics_default_to_the_blank_last_goal_and_check_shapes():
    S = pk.goal_state(2, 3)
    assert pk.manhattan(S) == 0
    with pytest.raises(pk.PuzzleError, match="goal"):
        pk.manhattan(S, pk.goal_state(3))


# ------------------------------------------------------------------------ check_heuristic

def hamming_with_blank(S, goal):
    return sum(a != b for ra, rb in zip(S, goal) for a, b in zip(ra, rb))


def test_check_heuristic_flags_a_blank_counting_hamming():
    report = pk.check_heuristic(hamming_with_blank, samples=300)
    assert report.blank_counted and not report.ok
    assert "blank" in report.message


def test_check_heuristic_flags_an_overestimate():
    report = pk.check_heuristic(lambda S, goal: 3 * pk.manhattan(S, goal), samples=300)
    assert not report.admissible and report.overestimate is not None
    S, h, d = report.overestimate
    assert h > d == pk.exact_distance(S, pk.goal_state(3))


def test_check_heuristic_flags_an_inconsistent_heuristic():
    def jumpy(S):                                   # admissible, but drops by 2 in one move
        m = pk.manhattan(S)
        return m if m % 4 == 0 else max(0, m - 2)
    report = pk.check_heuristic(jumpy, samples=500)
    assert report.admissible and not report.consistent
    S, T, hs, ht = report.inconsistency
    assert T in pk.nextStates(S) and hs > 1 + ht


@pytest.mark.parametrize("h", [pk.hamming, pk.manhattan, pk.linear_conflict])
def test_check_heuristic_passes_the_built_ins(h):
    for goal in GOALS_3x3.values():
        report = pk.check_heuristic(h, goal, samples=200)
        assert report.ok and not report.blank_counted, report.message


@given(board_pairs())
def test_conflict_pairs_agree_with_linear_conflict(pair):
    """Regression: conflict_pairs read each line in set order, so 8 came before 2 and 5."""
    S, goal = pair
    assert pk.conflict_pairs(goal, goal) == []
    pairs = pk.conflict_pairs(S, goal)
    assert bool(pairs) == (pk.linear_conflict(S, goal) > pk.manhattan(S, goal))


# ------------------------------------------------------------ one way in: resolve_heuristic

def test_every_form_of_a_heuristic_resolves_to_one_object():
    from puzzlekit.engine.heuristic_choice import HEURISTIC_NAMES, resolve_heuristic
    goal = pk.goal_state(3)
    S = ((8, 1, 3), (4, 0, 2), (7, 6, 5))
    for given_as in ("manhattan", pk.manhattan):
        h = resolve_heuristic(given_as)
        assert (h.name, h.admissible) == ("manhattan", True)
        assert h.of_state(goal)(S) == h.flat(goal).h(pk.flatten(S)) == pk.manhattan(S, goal)
    assert resolve_heuristic(None).name == "zero" and resolve_heuristic(None).of_state(goal)(S) == 0
    assert resolve_heuristic("pdb").admissible and resolve_heuristic("pdb").engine(4, 4)
    assert resolve_heuristic("manhattan").engine(3, 3) is None       # the general IDA* there
    with pytest.raises(pk.PuzzleError, match="built-in moves"):
        resolve_heuristic("pdb").of_state(goal)

    def my_h(S, goal):
        return pk.hamming(S, goal)

    def one_arg(S):
        return 7
    mine = resolve_heuristic(my_h)
    assert (mine.name, mine.admissible, mine.engine(4, 4)) == ("my_h", False, None)
    assert mine.flat(goal).h(pk.flatten(S)) == pk.hamming(S, goal)
    assert resolve_heuristic(one_arg).of_state(goal)(S) == 7
    with pytest.raises(pk.PuzzleError, match="magic"):
        resolve_heuristic("magic")
    assert HEURISTIC_NAMES == ("zero", "hamming", "manhattan", "linear_conflict", "pdb")
