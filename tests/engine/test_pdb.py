"""Pattern databases and the fast IDA*: admissible by construction, checked against exact
distances (8-puzzle), Korf's published optimal lengths and the Princeton answers (15-puzzle).

The 15-puzzle tests share one 6-6-3 build (10-30 s, then cached on disk in the user's
cache directory) through the session fixture `fifteen`; they are marked slow. The 78-move
Princeton board is the slowest (about 3 s of CPU); the 80-move one (2.5 minutes with
6-6-3) is left to the benchmarks. The 7-7-1 tables (0.5 GB, minutes to build) are never
built here: their builder and table set are tested on small boards.
"""

from __future__ import annotations

import csv
import random
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlekit as pk
from puzzlekit.engine import fast_idastar, pdb
from puzzlekit.puzzle.board import flatten, unflatten
from puzzlekit.puzzle.exact import distance_table
from puzzlekit.puzzle.geometry import grid
from puzzlekit.puzzle.heuristics import manhattan

DATA = Path(__file__).parents[2].parent / "shared" / "data"
GOALS_3x3 = {"blank last": pk.goal_state(3), "blank first": pk.goal_state(3, blank="first"),
             "blank centre": ((1, 2, 3), (4, 0, 5), (6, 7, 8))}
KORF_GOAL = tuple(range(16))


def korf100() -> list[tuple[int, tuple[int, ...], int]]:
    path = DATA / "korf100.tsv"
    if not path.exists():
        pytest.skip(f"{path} not present")
    with path.open() as f:
        return [(int(r["id"]), tuple(map(int, r["tiles"].split())), int(r["optimal_length"]))
                for r in csv.DictReader(f, delimiter="\t")]


def princeton(name: str) -> tuple[pk.State, int]:
    folder = DATA / "princeton"
    if not (folder / name).exists():
        pytest.skip(f"{folder / name} not present")
    with (folder / "answers.tsv").open() as f:
        answers = {r["filename"]: int(r["min_moves"]) for r in csv.DictReader(f, delimiter="\t")}
    return pk.read_board(folder / name), answers[name]


@lru_cache(maxsize=8)
def ordered(goal: pk.State) -> list[tuple[int, ...]]:
    return sorted(distance_table(goal))


def sample(goal: pk.State, k: int, seed: int = 5) -> list[tuple[int, ...]]:
    return random.Random(seed).sample(ordered(goal), k)


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    """Small tables go to a per-session folder; the big 4×4 ones come from the user's cache."""
    monkeypatch.setenv("PUZZLEKIT_CACHE", str(tmp_path_factory.getbasetemp() / "pdb-cache"))


@pytest.fixture(scope="session")
def fifteen() -> pdb.Databases:
    """The 6-6-3 databases for the blank-first goal (built once, cached on disk)."""
    return pdb.databases(4, 4, 0)


# ----------------------------------------------------------------- small boards, exactly

@pytest.mark.parametrize("name", GOALS_3x3)
def test_8_puzzle_pdb_is_admissible_and_keeps_the_parity_of_manhattan(name):
    goal = GOALS_3x3[name]
    h = pdb.pdb_heuristic(goal).h
    exact = distance_table(goal)
    nbrs = grid(3, 3).neighbors
    assert h(flatten(goal)) == 0
    for s in sample(goal, 1500):
        hs = h(s)
        assert hs <= exact[s]
        assert hs >= manhattan(unflatten(s, 3, 3), goal)       # patterns add up to ≥ Manhattan
        z = s.index(0)
        for _, q in nbrs[z]:
            t = list(s)
            t[z], t[q] = t[q], 0
            assert (h(tuple(t)) - hs) % 2 == 1     # odd steps: IDA* bounds may grow by 2


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(GOALS_3x3)), st.integers(0, 10**9),
       st.sampled_from(["idastar_pdb", "idastar_manhattan"]))
def test_both_idastar_engines_find_optimal_8_puzzle_solutions(name, seed, engine):
    goal = GOALS_3x3[name]
    s = sample(goal, 1, seed)[0]
    moves, stats = getattr(fast_idastar, engine)(s, flatten(goal), 3, 3)
    assert len(moves) == distance_table(goal)[s] == stats.depth
    assert pk.check_solution(unflatten(s, 3, 3), goal, moves).ok


def test_other_small_shapes_are_solved_optimally():
    for rows, cols in ((2, 3), (3, 2), (2, 4)):
        goal = pk.goal_state(rows, cols)
        start = pk.scramble(rows, cols, moves=40, seed=rows * 10 + cols)
        moves, _ = fast_idastar.idastar_pdb(flatten(start), flatten(goal), rows, cols)
        assert pk.check_solution(start, goal, moves).ok
        if rows * cols <= 9:
            assert len(moves) == distance_table(goal)[flatten(start)]


@pytest.mark.parametrize("parts", [pdb._partition(4, 4, 0, "main"), pdb.PARTITION_4x4_KF,
                                   pdb._partition(4, 4, 0, "big"),
                                   pdb._partition(4, 4, 0, "small")])
def test_each_15_puzzle_partition_holds_every_tile_once(parts):
    assert sorted(sum(parts, ())) == list(range(1, 16))
    assert sorted(map(len, parts)) in ([3, 6, 6], [1, 7, 7], [5, 5, 5])


def test_the_small_table_set_is_the_main_one_below_the_15_puzzle():
    assert pdb._partition(3, 3, 0, "small") == pdb._partition(3, 3, 0, "main")
    assert pdb._partition(4, 4, 5, "small") == pdb._partition(4, 4, 5, "main")


def test_the_table_set_is_asked_for_or_named_in_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEKIT_CACHE", str(tmp_path))
    monkeypatch.delenv("PUZZLEKIT_PDB", raising=False)
    assert pdb.table_set() == "6-6-3" and pdb.table_set("7-7-1") == "7-7-1"
    monkeypatch.setenv("PUZZLEKIT_PDB", "7-7-1")
    assert pdb.table_set() == "7-7-1" and not pdb.ready(pk.goal_state(4))
    with pytest.raises(pk.PuzzleError, match="unknown pattern database set '7-8'"):
        pdb.table_set("7-8")
    with pytest.raises(pk.PuzzleError, match="unknown partition"):
        pdb._partition(4, 4, 0, "second")


# ------------------------------------------- 7-tile patterns: the blank's regions, scaled down

@pytest.mark.parametrize("rows, cols, blank, cells", [
    (3, 3, 0, (1, 2, 3, 4)), (3, 3, 8, (0, 1, 2)), (3, 3, 4, (0, 1, 2, 3, 5)),
    (2, 4, 0, (1, 2, 3)), (4, 4, 0, (12, 13, 14)), (4, 4, 15, (0, 1, 4, 5))])
def test_the_region_bfs_builds_the_same_table_as_the_0_1_bfs(rows, cols, blank, cells):
    region = pdb._component_bfs_table(rows, cols, blank, cells, None)
    assert pdb.BUILD_LOG[-1].max_value == max(v for v in region if v != 255)
    assert region == pdb._bfs_table(rows, cols, blank, cells, None)


@pytest.mark.slow
def test_seven_tiles_on_a_2x4_board_are_the_exact_distance(tmp_path, monkeypatch):
    """Less than a second, but 0.7 GB: a 7-tile table has 2**28 entries on any board."""
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("PUZZLEKIT_CACHE", str(tmp_path / "file" / "cache"))   # not writable
    monkeypatch.delenv("PUZZLEKIT_PDB", raising=False)
    goal = ((0, 1, 2, 3), (4, 5, 6, 7))
    pdb._DATABASES.pop((2, 4, 0, "big"), None)
    assert pdb._partition(2, 4, 0, "big") == ((1, 2, 3, 4, 5, 6, 7),)
    assert pdb.table_set(None, 2, 4, 0) == "6-6-3"            # not built: never unasked
    assert not pdb.ready(goal, "7-7-1")
    h = pdb.pdb_heuristic(goal, "7-7-1").h                     # built by regions (7 tiles)
    assert pdb.table_set(None, 2, 4, 0) == "7-7-1"            # built: taken from now on
    assert pdb.ready(goal)
    exact = distance_table(goal)
    assert all(h(s) == d for s, d in exact.items())            # one pattern of every tile
    s = max(exact, key=exact.get)
    moves, _ = fast_idastar.idastar_pdb(s, flatten(goal), 2, 4, tables="7-7-1")
    assert len(moves) == exact[s]
    del pdb._DATABASES[(2, 4, 0, "big")]                       # 256 MB


def test_a_pattern_table_covers_every_placement_of_its_tiles():
    p = pdb.build_pattern(4, 4, 0, (12, 13, 14))
    reached = [v for v in p.table if v != 255]
    assert len(reached) == 16 * 15 * 14          # every placement of 3 tiles on 16 squares
    assert p.value((12, 13, 14)) == 0
    assert p.value((13, 12, 14)) > 2                  # a swap costs more than Manhattan's 2


def test_a_build_reports_its_layers_then_done(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEKIT_CACHE", str(tmp_path))
    pdb._DATABASES.pop((2, 3, 0, "main"), None)
    events = []
    pdb.databases(2, 3, 0, progress=events.append)
    layers = [e.value for e in events if e.kind == "layer"]
    assert layers == list(range(len(layers))) and len(layers) > 5
    assert events[-1].kind == "done" and events[-1].value == 1      # one 5-tile table


def test_databases_print_briefly_without_their_tables():
    db = pdb.databases(3, 3, 0)
    assert "cells=(1, 2, 3, 4)" in repr(db) and len(repr(db)) < 1000


def test_tables_are_cached_on_disk_and_reloaded(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEKIT_CACHE", str(tmp_path))
    built = pdb.build_pattern(3, 3, 8, (0, 1, 2))
    assert [f.name for f in tmp_path.iterdir()] == ["pdb-3x3-b8-0_1_2.bin"]
    again = pdb.build_pattern(3, 3, 8, (0, 1, 2))
    assert again.table == built.table and pdb.BUILD_LOG[-1].cached


def test_ready_says_whether_a_build_is_needed(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEKIT_CACHE", str(tmp_path))
    goal = ((1, 2), (3, 4), (5, 0))               # 3×2: small, and not built before
    pdb._DATABASES.pop((3, 2, 0, "main"), None)
    assert not pdb.ready(goal)
    pdb.pdb_heuristic(goal)
    assert pdb.ready(goal) and not pdb.ready(pk.goal_state(5))


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PUZZLEKIT_CACHE", str(tmp_path / "a"))
    assert pdb.cache_dir() == tmp_path / "a"
    monkeypatch.delenv("PUZZLEKIT_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert pdb.cache_dir() == tmp_path / "xdg" / "puzzlekit"


def test_budgets_raise_with_partial_statistics():
    goal = flatten(pk.goal_state(3))
    start = flatten(pk.state_at_depth(26, seed=3))
    with pytest.raises(pk.SearchLimitReached) as err:
        fast_idastar.idastar_manhattan(start, goal, 3, 3, max_nodes=50)
    assert 0 < err.value.stats.nodes_generated


def test_bad_requests_are_refused_with_a_reason():
    goal = flatten(pk.goal_state(3))
    unsolvable = (2, 1, 3, 4, 5, 6, 7, 8, 0)
    with pytest.raises(pk.Unsolvable):
        fast_idastar.idastar_pdb(unsolvable, goal, 3, 3)
    with pytest.raises(pk.PuzzleError, match="at most 16 squares"):
        pdb.pdb_heuristic(pk.goal_state(5))
    with pytest.raises(pk.PuzzleError, match="bad pattern"):
        pdb.build_pattern(3, 3, 8, (0, 8))


def test_progress_reports_each_new_bound():
    events = []
    goal = flatten(pk.goal_state(3))
    start = flatten(pk.state_at_depth(24, seed=1))
    moves, _ = fast_idastar.idastar_manhattan(start, goal, 3, 3, progress=events.append)
    bounds = [e.value for e in events if e.kind == "bound"]
    assert bounds == sorted(bounds) and bounds[-1] == len(moves) == 24
    assert events[-1].kind == "done" and events[-1].value == 24


def test_progress_true_prints_a_line_in_a_terminal(capsys, monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    goal = flatten(pk.goal_state(3))
    fast_idastar.idastar_pdb(flatten(pk.state_at_depth(20, seed=2)), goal, 3, 3, progress=True)
    assert "bound" in capsys.readouterr().err


# ------------------------------------------------------------------- the 15-puzzle (slow)

@pytest.mark.slow
def test_15_puzzle_pdb_never_overestimates_korf_100(fifteen):
    h = pdb.pdb_heuristic(unflatten(KORF_GOAL, 4, 4)).h
    for _, tiles, optimal in korf100():
        assert manhattan(unflatten(tiles, 4, 4), unflatten(KORF_GOAL, 4, 4)) <= h(tiles) <= optimal


@pytest.mark.slow
def test_a_dozen_easy_korf_instances_are_solved_optimally(fifteen):
    easiest = sorted(korf100(), key=lambda r: r[2])[:12]
    for _, tiles, optimal in easiest:
        moves, stats = fast_idastar.idastar_pdb(tiles, KORF_GOAL, 4, 4)
        assert len(moves) == optimal
        assert pk.check_solution(unflatten(tiles, 4, 4), unflatten(KORF_GOAL, 4, 4), moves).ok


@pytest.mark.slow
@pytest.mark.parametrize("name", ["puzzle4x4-50.txt", "puzzle4x4-hard1.txt",
                                  "puzzle4x4-hard2.txt", "puzzle4x4-78.txt"])
def test_princeton_boards_with_the_blank_last_goal(fifteen, name):
    start, optimal = princeton(name)
    goal = pk.goal_state(4)
    h = pdb.pdb_heuristic(goal).h
    assert h(flatten(start)) <= optimal
    moves, _ = fast_idastar.idastar_pdb(flatten(start), flatten(goal), 4, 4)
    assert len(moves) == optimal
    assert pk.check_solution(start, goal, moves).ok


@pytest.mark.slow
def test_the_5_5_5_tables_solve_optimally_and_are_asked_for_by_solve(tmp_path, monkeypatch):
    """The lecture demos' tables (three 1 MB tables, seconds to build): never above the
    6-6-3 estimate's optimum, the same optimal length, only where asked for."""
    monkeypatch.setenv("PUZZLEKIT_CACHE", str(tmp_path))
    monkeypatch.delenv("PUZZLEKIT_PDB", raising=False)
    # the tables this worker's other tests loaded stay theirs (CI ran one first)
    monkeypatch.setattr(pdb, "_DATABASES", {})
    _, tiles, optimal = min(korf100(), key=lambda r: r[2])
    start, goal = unflatten(tiles, 4, 4), unflatten(KORF_GOAL, 4, 4)
    r = pk.solve(start, goal, algorithm="idastar", heuristic="pdb", tables="5-5-5")
    assert r.length == optimal and r.optimal
    assert pdb.ready(goal, "5-5-5") and not pdb.ready(goal, "6-6-3")
    h = pdb.pdb_heuristic(goal, "5-5-5").h
    for _, tiles, optimal in korf100()[:20]:
        assert manhattan(unflatten(tiles, 4, 4), goal) <= h(tiles) <= optimal
    with pytest.raises(pk.PuzzleError, match="needs heuristic='pdb'"):
        pk.solve(start, goal, algorithm="idastar", heuristic="manhattan", tables="5-5-5")


@pytest.mark.slow
def test_solve_dispatches_pdb_and_manhattan_idastar(fifteen):
    _, tiles, optimal = min(korf100(), key=lambda r: r[2])
    start, goal = unflatten(tiles, 4, 4), unflatten(KORF_GOAL, 4, 4)
    for heuristic in ("pdb", "manhattan"):
        r = pk.solve(start, goal, algorithm="idastar", heuristic=heuristic)
        assert r.length == optimal and r.optimal

