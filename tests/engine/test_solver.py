"""The searches of `solve`: optimal ones agree with BFS, budgets stop them with partial
statistics, unsolvable boards are refused before any search, node counts are
reproducible, and students' own successor functions and heuristics plug in."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlekit as pk
from puzzlekit.engine.solver import ALGORITHMS

LECTURE_START = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
LECTURE_GOAL = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
OPTIMAL = ["bfs", "bidirectional", "iddfs", "ucs", "astar", "idastar"]
GOALS_3x3 = [pk.goal_state(3), pk.goal_state(3, blank="first"), pk.from_string("1238_4765")]


def exact(S, goal):
    return pk.exact_distance(S, goal)


@pytest.mark.parametrize("algorithm", ["bfs", "bidirectional", "ucs", "astar", "idastar"])
def test_lecture_example_is_31_moves(algorithm):
    r = pk.solve(LECTURE_START, LECTURE_GOAL, algorithm=algorithm)
    assert r.length == 31 and len(r.path) == 32 and r.optimal
    assert r.path[0] == LECTURE_START and r.path[-1] == LECTURE_GOAL
    assert pk.check_solution(LECTURE_START, LECTURE_GOAL, r.moves).ok
    assert pk.moves_to_path(LECTURE_START, r.moves) == r.path


def test_bfs_reports_the_lecture_layer_sizes():
    r = pk.solve(LECTURE_START, LECTURE_GOAL, algorithm="bfs")
    assert r.layer_sizes[:6] == [3, 5, 10, 14, 28, 42]
    assert r.layer_sizes == pk.search(pk.nextStates, LECTURE_START, LECTURE_GOAL).layer_sizes


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 31), st.integers(0, 2**32 - 1), st.sampled_from(range(len(GOALS_3x3))))
def test_optimal_algorithms_agree_with_bfs_on_the_8_puzzle(depth, seed, gi):
    goal = GOALS_3x3[gi]
    depth = min(depth, len(pk.depth_histogram(goal)) - 1)   # 30 for the snail goal
    S = pk.state_at_depth(depth, seed=seed, goal=goal)
    assert exact(S, goal) == depth
    for algorithm in ["bidirectional", "astar", "idastar"] + (["iddfs"] if depth <= 10 else []):
        r = pk.solve(S, goal, algorithm=algorithm)
        assert r.length == depth, (algorithm, S)
        assert pk.check_solution(S, goal, r.moves).ok


@pytest.mark.parametrize("heuristic", ["hamming", "manhattan", "linear_conflict"])
def test_astar_is_optimal_with_every_builtin_heuristic_on_hundreds_of_boards(heuristic):
    rng = random.Random(7)
    goal = pk.goal_state(3)
    for _ in range(40 if heuristic == "hamming" else 150):
        S = pk.random_state(3, seed=rng)
        r = pk.solve(S, goal, algorithm="astar", heuristic=heuristic)
        assert r.length == exact(S, goal)


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 2), (2, 2), (2, 4)])
def test_small_rectangles_every_optimal_algorithm(rows, cols):
    rng = random.Random(rows * 10 + cols)
    goal = pk.goal_state(rows, cols)
    for _ in range(40):
        S = pk.random_state(rows, cols, seed=rng)
        best = pk.solve(S, goal, algorithm="bfs").length
        for a in OPTIMAL:
            if a == "iddfs" and best > 14:
                continue   # iterative deepening re-walks every shallower tree: too slow here
            assert pk.solve(S, goal, algorithm=a).length == best, a


def test_non_optimal_algorithms_return_legal_solutions_and_say_so():
    S = pk.state_at_depth(20, seed=3)
    goal = pk.goal_state(3)
    for algorithm in ["dfs", "greedy", "weighted_astar"]:
        r = pk.solve(S, goal, algorithm=algorithm)
        assert not r.optimal
        assert r.length >= 20
        assert pk.check_solution(S, goal, r.moves).ok
    assert "not optimal" in ALGORITHMS["weighted_astar"].title


def test_weighted_astar_stays_within_its_bound():
    rng = random.Random(11)
    for _ in range(40):
        S = pk.random_state(3, seed=rng)
        best = exact(S, pk.goal_state(3))
        for w in (1.5, 2.0, 3.0):
            assert pk.solve(S, algorithm="weighted_astar", weight=w).length <= w * best


def test_dls_finds_only_within_its_limit():
    S = pk.state_at_depth(8, seed=1)
    assert pk.solve(S, algorithm="dls", depth_limit=8).length <= 8
    with pytest.raises(pk.SearchLimitReached, match="within depth 7"):
        pk.solve(S, algorithm="dls", depth_limit=7)


def test_dfs_wanders_far_from_the_shortest_path():
    S = pk.state_at_depth(6, seed=2)
    r = pk.solve(S, algorithm="dfs")
    assert r.length > 100 and pk.check_solution(S, None, r.moves).ok


def test_ucs_with_equal_costs_expands_like_bfs_and_costs_change_the_path():
    S = pk.state_at_depth(12, seed=5)
    equal = pk.solve(S, algorithm="ucs", costs={"up": 1, "down": 1, "left": 1, "right": 1})
    bfs = pk.solve(S, algorithm="bfs")
    assert equal.length == bfs.length == 12
    seed004 = {"up": 1, "down": 2, "left": 3, "right": 4}
    weighted = pk.solve(S, algorithm="ucs", costs=seed004)
    cost_of = lambda moves: sum({"U": 1, "D": 2, "L": 3, "R": 4}[m] for m in moves)  # noqa
    assert weighted.cost == cost_of(weighted.moves) <= cost_of(bfs.moves)
    # A* with Manhattan × cheapest step is admissible for these costs and agrees
    assert pk.solve(S, algorithm="astar", costs=seed004).cost == weighted.cost


def test_ucs_expansion_order_equals_bfs_order_with_unit_costs():
    from collections import deque

    from puzzlekit.engine.informed import best_first
    from puzzlekit.engine.problem import Budget, FlatProblem
    S = pk.flatten(pk.state_at_depth(10, seed=9))
    G = pk.flatten(pk.goal_state(3))
    order = []
    P = FlatProblem(S, G, 3, 3)
    expand = P.expand
    P.expand = lambda s, h: (order.append(s), expand(s, h))[1]
    best_first(P, Budget("ucs", math.inf, None), g_weight=1.0, h_weight=0.0)
    # a FIFO breadth-first search over the same successors, expanding until the goal
    fifo, seen, bfs_order = deque([S]), {S}, []
    while fifo[0] != G:
        s = fifo.popleft()
        bfs_order.append(s)
        for _, t in P.successors(s):
            if t not in seen:
                seen.add(t)
                fifo.append(t)
    assert order == bfs_order


def test_node_counts_are_reproducible():
    S = pk.state_at_depth(24, seed=4)
    for algorithm in ["bfs", "astar", "idastar", "bidirectional", "greedy"]:
        a, b = (pk.solve(S, algorithm=algorithm) for _ in range(2))
        assert (a.moves, a.nodes_expanded, a.nodes_generated, a.max_frontier) == \
               (b.moves, b.nodes_expanded, b.nodes_generated, b.max_frontier)


def test_unsolvable_is_refused_before_any_search_on_any_size():
    for S in [((1, 2, 3), (4, 5, 6), (8, 7, 0)),
              pk.from_flat(list(range(1, 14)) + [15, 14, 0]),
              ((2, 1), (3, 0)),
              ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (11, 12, 13, 15, 14),
               (16, 17, 18, 19, 20), (21, 22, 23, 24, 0))]:
        for algorithm in ALGORITHMS:
            with pytest.raises(pk.Unsolvable, match="No solution possible"):
                pk.solve(S, algorithm=algorithm, max_nodes=10)


def test_budgets_raise_with_partial_statistics():
    hard = pk.from_flat([0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1])
    with pytest.raises(pk.SearchLimitReached) as info:
        pk.solve(hard, algorithm="bfs", max_nodes=5000)
    st_ = info.value.stats
    assert 5000 < st_.nodes_generated < 5000 + 5000 and st_.nodes_expanded > 0
    assert st_.extra["layer_sizes"] and "5,000" in str(info.value)
    for algorithm in ["astar", "idastar", "iddfs", "dfs", "bidirectional", "ucs"]:
        with pytest.raises(pk.SearchLimitReached) as info:
            pk.solve(hard, algorithm=algorithm, max_nodes=20_000)
        assert info.value.stats.nodes_generated > 0
    with pytest.raises(pk.SearchLimitReached, match="time limit"):
        pk.solve(hard, algorithm="astar", heuristic="hamming", time_limit=0.2)


def test_default_budget_protects_the_kernel():
    from puzzlekit.engine.solver import DEFAULT_MAX_NODES
    assert DEFAULT_MAX_NODES[True] <= 2_000_000


def test_students_next_states_and_heuristic_plug_in():
    calls = []

    def my_next_states(S):
        calls.append(S)
        return pk.nextStates(S)

    def my_h(S, goal):
        return pk.manhattan(S, goal)

    r = pk.solve(LECTURE_START, LECTURE_GOAL, algorithm="bfs", next_states=my_next_states)
    assert r.length == 31 and calls and r.moves is not None
    r = pk.solve(LECTURE_START, LECTURE_GOAL, algorithm="astar", heuristic=my_h)
    assert r.length == 31 and r.heuristic == "my_h" and not r.optimal   # unknown h: no promise
    S = pk.state_at_depth(16, seed=3, goal=LECTURE_GOAL)
    r = pk.solve(S, LECTURE_GOAL, algorithm="idastar", next_states=pk.nextStates,
                 heuristic=pk.manhattan)
    assert r.length == 16 and r.optimal


def test_generic_search_over_non_board_states():
    # any hashable states: walk on the integers towards 10
    r = pk.solve(((1, 2), (3, 0)), ((1, 2), (3, 0)), algorithm="bfs")
    assert r.length == 0 and r.moves == ""


def test_bad_requests_are_puzzle_errors():
    S = pk.state_at_depth(5, seed=1)
    for kwargs, text in [({"algorithm": "magic"}, "unknown algorithm"),
                         ({"heuristic": "psychic"}, "unknown heuristic"),
                         ({"max_nodes": -1}, "max_nodes"),
                         ({"time_limit": 0}, "time_limit"),
                         ({"algorithm": "ucs", "costs": {"up": 1}}, "missing"),
                         ({"algorithm": "ucs", "costs": {"U": 0, "D": 1, "L": 1, "R": 1}},
                          "positive"),
                         ({"algorithm": "bfs", "costs": {"U": 1, "D": 1, "L": 1, "R": 1}},
                          "cost-aware"),
                         ({"algorithm": "weighted_astar", "weight": 0.5}, "weight")]:
        with pytest.raises(pk.PuzzleError, match=text):
            pk.solve(S, **kwargs)
    with pytest.raises(pk.PuzzleError):
        pk.solve(((1, 2), (3, 0)), ((1, 2, 3), (4, 5, 0)))


def test_progress_events_are_reported():
    events = []
    pk.solve(LECTURE_START, LECTURE_GOAL, algorithm="bfs", progress=events.append)
    layers = [e.value for e in events if e.kind == "layer"]
    assert layers == list(range(1, len(layers) + 1)) and len(layers) >= 31
    assert events[-1].kind == "done"
    events.clear()
    pk.solve(pk.state_at_depth(20, seed=1), algorithm="idastar", progress=events.append)
    bounds = [e.value for e in events if e.kind == "bound"]
    assert bounds == sorted(bounds) and bounds[-1] == 20


def test_fast_15_puzzle_engine_reports_its_bounds_and_done():
    events = []
    S = pk.scramble(4, 4, moves=40, seed=3)
    r = pk.solve(S, algorithm="idastar", heuristic="manhattan", progress=events.append)
    assert r.optimal and pk.check_solution(S, None, r.moves).ok
    assert events[-1].kind == "done" and events[-1].value == r.length
    bounds = [e.value for e in events if e.kind == "bound"]
    assert bounds and bounds[-1] == r.length


def test_move_costs_on_a_search_that_counts_moves_name_every_search_that_takes_them():
    from puzzlekit.engine.solver import COST_AWARE
    with pytest.raises(pk.PuzzleError) as e:
        pk.solve(pk.state_at_depth(5, seed=1), algorithm="bfs",
                 costs={"U": 1, "D": 2, "L": 3, "R": 4})
    assert all(name in str(e.value) for name in COST_AWARE) and "bfs counts moves" in str(e.value)
    for name in COST_AWARE:        # and each of them takes costs
        kw = {"weight": 1.5} if name == "weighted_astar" else {}
        pk.solve(pk.state_at_depth(5, seed=1), algorithm=name,
                 costs={"U": 1, "D": 2, "L": 3, "R": 4}, **kw)
