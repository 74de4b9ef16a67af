"""Checks of notebook 02, Uninformed search (see `puzzlekit.testcells.checks`).

The `check_*` of each exercise run the student's search as its visible test did, with
puzzlekit's searches forbidden and the test's computing time. `check_path` and `output_of`
(`.paths`), which the notebook's setup cell imports for the hidden tests, do the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...engine.layered import search as reference_search
from ...engine.solver import solve
from ...puzzle.board import State, goal_state
from ...puzzle.formats import from_flat
from ...puzzle.lecture import nextStates as lecture_nextStates
from ...puzzle.moves import path_to_moves
from ...puzzle.scrambles import shuffle_pos as reference_shuffle_pos
from ...puzzle.scrambles import state_at_depth
from .. import Recorder, assert_board_equal, assert_equal, counted, forbid_reference, recording, run_with_timeout
from ..catalogue import (DFS_PATH, FIRST_LINE_PRINTED, LECTURE_GOAL_REACHABLE, LINES_PRINTED,
                         NOT_CHEAPEST, SHUFFLE_AFTER_SEED, SOLVE_POS_MOVES,
                         SOLVE_POS_PRINTED_NOTHING, SOLVE_POS_UNSOLVED,
                         UCS_TOTAL_NOT_ITS_PRICE)
from ..diagnose import diagnose_cost, diagnose_report, diagnose_search, diagnose_shuffle
from ..messages import partly, passed
from . import forbids
from .paths import check_path, output_of

__all__ = ["check_search", "check_search_report", "check_bfs", "check_dfs", "check_iddfs",
           "SHUFFLES", "shuffled", "check_shuffle_pos", "check_solve_pos", "cost_of", "check_cheapest", "check_ucs", "passed"]

#: the references a search of this notebook may not call
SEARCHES = ("solve", "search", "bfs_layers")
#: the layers of the lecture's search from its start to its goal: one line printed each
LAYERS = 31


@forbids(*SEARCHES)
def check_search(search: Callable[..., Any], start: State, goal: State, moves: int,
                 what: str, *, asking_at_most: int | None = None) -> None:
    """search(nextStates, start, goal) must return a shortest path, `moves` moves long (a
    longer right path earns 1 of the 3 points). With `asking_at_most`, the lecture's
    nextStates is counted (`counted`), and stops a search that asks it that many times."""
    successors = lecture_nextStates if asking_at_most is None else \
        counted(lecture_nextStates, limit=asking_at_most)
    with forbid_reference(*SEARCHES):
        path, _ = output_of(run_with_timeout, 6, search, successors, start, goal)
    check_path(start, goal, path, optimal_length=moves, what=what, partial=1,
               searched=None if asking_at_most is None else successors)  # type: ignore[arg-type]


@forbids(*SEARCHES)
def check_search_report(search: Callable[..., Any], start: State,
                        goal: State) -> tuple[list[str], list[int]]:
    """search prints one line per layer, in the lecture's words; (the lines it printed,
    the right layer sizes), for the hidden tests' lines after the first."""
    with forbid_reference(*SEARCHES):
        _, report = output_of(run_with_timeout, 6, search, lecture_nextStates, start, goal)
    lines = report.strip().splitlines()
    found = reference_search(lecture_nextStates, start, goal)      # the right report
    assert found is not None, LECTURE_GOAL_REACHABLE
    sizes = found.layer_sizes
    why = diagnose_report(lines, sizes)                  # off by one? the start counted?
    assert_equal(lines[:1], ["Iteration 1: 3 new states found."], FIRST_LINE_PRINTED, why=why)
    assert_equal(len(lines), LAYERS, LINES_PRINTED.format(layers=LAYERS), why=why)
    return lines, list(sizes)


@forbids(*SEARCHES)
def check_bfs(bfs: Callable[..., Any], board: Sequence[int], moves: int) -> None:
    """bfs(board) must return a shortest solution, `moves` letters long (a right but longer
    one earns 1 of the 3 points); what it asked flat_successors about may say why not."""
    with forbid_reference(*SEARCHES), recording("flat_successors") as asked:
        got = run_with_timeout(6, bfs, list(board))
    check_path(from_flat(board), goal_state(3), got, optimal_length=moves,
               what=f"bfs({list(board)})", partial=1, searched=asked)


@forbids(*SEARCHES)
def check_dfs(dfs: Callable[..., Any], start: State, goal: State) -> None:
    """dfs(start, goal) must return a path from start to goal, however long."""
    with forbid_reference(*SEARCHES):
        path = run_with_timeout(6, dfs, start, goal)
    check_path(start, goal, path, what=DFS_PATH)


@forbids(*SEARCHES)
def check_iddfs(iddfs: Callable[..., Any], goal: State, moves_away: int, seed: int) -> None:
    """iddfs from a board `moves_away` moves from `goal` (`state_at_depth`) must return a
    shortest path (a right but longer one earns 1 of the 3 points)."""
    S = state_at_depth(moves_away, seed=seed, goal=goal)
    with forbid_reference(*SEARCHES), recording("nextStates") as asked:
        path = run_with_timeout(6, iddfs, S, goal)
    check_path(S, goal, path, optimal_length=moves_away,
               what=f"iddfs from a board {moves_away} moves away", partial=1, searched=asked,
               kind="iterative")


def cost_of(path: Sequence[State], cost: Mapping[str, float]) -> float:
    """What `path` costs at the prices `cost` (a price per move letter)."""
    return sum(cost[letter] for letter in path_to_moves(path))  # type: ignore[arg-type]


def check_cheapest(S: State, goal: State, path: Any, total: Any, prices: dict[str, float],
                   what: str, searched: Recorder | None = None) -> None:
    """`path` solves S → goal, `total` is its price, and no path is cheaper. A right path
    whose total is not its price, or that is not the cheapest, earns 2 of the 4 points;
    the cheapest found by expanding boards again (`searched`: the record) earns 3.
    `prices` is the test's own table: ucs gets a copy (dict(prices)), so that a search
    that changes the table it is given cannot change how its path is priced."""
    check_path(S, goal, path, what=what)
    cheapest = solve(S, goal, algorithm="ucs", costs=prices).cost
    price = cost_of(path, prices)
    why = diagnose_cost(S, goal, list(path), prices, cheapest, total)
    if total != price:
        partly(2, UCS_TOTAL_NOT_ITS_PRICE.format(what=what, total=total, price=price, why=why))
    elif price > cheapest:
        partly(2, NOT_CHEAPEST.format(what=what, price=price, cheapest=cheapest, why=why))
    elif searched is not None and diagnose_search(S, searched.record, "cheapest-first"):
        partly(3, f"{what} is right, but " + diagnose_search(  # type: ignore[operator]
            S, searched.record, "cheapest-first"))


@forbids("solve")
def check_ucs(ucs: Callable[..., Any], goal: State, moves_away: int, seed: int,
              prices: dict[str, float], what: str, *, record: bool = False) -> None:
    """ucs from a board `moves_away` moves from `goal` (`state_at_depth`) at `prices` must
    return the cheapest path and its price (`check_cheapest`); with `record`, what it asks
    the notebook's `successors` about may cost it a point (boards expanded again)."""
    S = state_at_depth(moves_away, seed=seed, goal=goal)
    if record:
        with forbid_reference("solve"), recording("successors") as asked:
            path, total = run_with_timeout(6, ucs, S, goal, dict(prices))
        check_cheapest(S, goal, path, total, prices, what, searched=asked)
        return
    with forbid_reference("solve"):
        path, total = run_with_timeout(6, ucs, S, goal, dict(prices))
    check_cheapest(S, goal, path, total, prices, what)


#: the references shuffle_pos may not call
SHUFFLES = ("shuffle_pos", "random_walk", "scramble")


@forbids(*SHUFFLES)
def shuffled(shuffle_pos: Callable[[int], Any], random: Any, n: int) -> tuple[Any, Any]:
    """shuffle_pos(n), and why it may differ from the course's (from the states of
    `random` before and after the call). `random`: the test's own module (the grader gives
    a test cell a `random` of its own), never this module's import."""
    before = random.getstate()
    with forbid_reference(*SHUFFLES):
        position = shuffle_pos(n)
    return position, diagnose_shuffle(n, position, before, random.getstate())


@forbids(*SHUFFLES)
def check_shuffle_pos(shuffle_pos: Callable[[int], Any], random: Any, seed: int,
                      expected: Sequence[list[Any]]) -> None:
    """After random.seed(seed), shuffle_pos(1), shuffle_pos(2), ... must give the positions
    `expected`, in turn; the first call that went astray says why (`diagnose_shuffle`)."""
    random.seed(seed)
    got = [shuffled(shuffle_pos, random, n) for n in range(1, len(expected) + 1)]
    for n, ((g, _), e) in enumerate(zip(got, expected), start=1):
        why = next((w for _, w in got[:n] if w), None)    # the first call that went astray
        what = SHUFFLE_AFTER_SEED.format(n=n, seed=seed)
        assert_board_equal(g, e, what=what, why=why)
        assert_equal(g, e, what, why=why)


@forbids(*SEARCHES)
def check_solve_pos(solve_pos: Callable[..., Any], random: Any, seed: int,
                    scrambles: Sequence[int]) -> None:
    """After random.seed(seed), each position puzzlekit's shuffle_pos makes with `scrambles`
    moves (in turn) must be solved by solve_pos(p, 20): it returns the number of moves of a
    shortest solution (puzzlekit's solver knows it) and prints the positions on the way.
    `random`: the test's own module, as for `shuffled`."""
    random.seed(seed)
    for n in scrambles:
        p = reference_shuffle_pos(n)
        shortest = solve(from_flat(p)).length
        with forbid_reference(*SEARCHES):
            moves, text = output_of(run_with_timeout, 6, solve_pos, list(p), 20)
        assert_equal(moves, shortest, SOLVE_POS_MOVES.format(position=p))
        assert "unsolved" not in text, SOLVE_POS_UNSOLVED
        assert text.strip(), SOLVE_POS_PRINTED_NOTHING
