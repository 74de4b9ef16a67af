"""The catalogue's messages of the exercise checks (`puzzlekit.testcells.catalogue.checks`)
and of the student's kernel (`...catalogue.kernel`) that no other test reads, each said by
the code that shows it, from the evidence that calls for it (tests/testcells/
test_catalogue.py checks that every message a student reads is rendered by a test)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import types
from typing import Any

import pytest
from agent_here import answer_here

import puzzlekit as pk
from puzzlekit.autograder import protocol
from puzzlekit.autograder.kernel import agent
from puzzlekit.testcells import catalogue
from puzzlekit.testcells.checks import informed_search, states_and_moves, uninformed_search
from puzzlekit.testcells.messages import take_partial

G3 = pk.goal_state(3)
#: one move from the goal (the blank moved left)
NEAR = ((1, 2, 3), (4, 5, 6), (7, 0, 8))


def failure(check: Any, *args: Any, **kwargs: Any) -> str:
    """What `check` fails with."""
    with pytest.raises(AssertionError) as e:
        check(*args, **kwargs)
    return str(e.value)


# ---------------------------------------------------------------------------
# Notebook 01, States and moves

@pytest.mark.parametrize("goal, said", [
    ([(0, 1, 2), (3, 4, 5), (6, 7, 8)], catalogue.GOAL_NOT_A_TUPLE),
    (((0, 1, 2), (3, 4, 5)), catalogue.GOAL_ROWS),
    (((0, 1, 2), [3, 4, 5], (6, 7, 8)), catalogue.GOAL_ROW_NOT_A_TUPLE),
    (((0, 1, 2), (3, 4, 5), (6, 7, 7)), catalogue.NUMBERS_ON_THE_BOARD),
    (((1, 2, 3), (4, 5, 6), (7, 8, 0)), catalogue.GOAL_BLANK_LAST),
    (((0, 3, 6), (1, 4, 7), (2, 5, 8)), catalogue.GOAL_BY_COLUMNS),
])
def test_a_wrong_goal_is_told_what_is_wrong_with_it(goal, said):
    assert failure(states_and_moves.check_goal, goal).startswith(said)


def test_a_successor_list_that_is_none_no_list_or_ragged_is_told_so():
    assert failure(states_and_moves.successor_blocks, None, 10) == catalogue.SUCCESSORS_NONE
    assert failure(states_and_moves.successor_blocks, (1, 2), 10) == \
        catalogue.SUCCESSORS_NOT_A_LIST.format(kind="tuple")
    assert failure(states_and_moves.successor_blocks, [1] * 7, 5) == \
        catalogue.SUCCESSORS_NOT_BLOCKS.format(items=7, size=5)


def test_wrong_successors_are_named_with_their_node():
    node = [1, 0, 2, 3, 4, 5, 6, 7, 8, ""]
    said = failure(states_and_moves.check_gen_successors, lambda n: [], node,
                   {(0, 1, 2, 3, 4, 5, 6, 7, 8, "L")})
    assert said.startswith(catalogue.SUCCESSORS_OF.format(node=repr(node)))


def test_a_print_pos_that_prints_nothing_is_told_to_print():
    def print_pos(p: Any) -> Any:
        return p
    assert failure(states_and_moves.printed_lines, print_pos, list(range(9))) == \
        catalogue.PRINTED_NOTHING.format(name="print_pos")


def test_the_spacing_hint_shows_the_format_with_its_own_braces():
    said = states_and_moves.spacing_why(["1 2 3"], ["  1  2  3"])
    assert said == catalogue.PRINT_SPACING.format() and 'end (f"{x:>3}"), the gap' in said


def test_an_eight_puzzle_equal_to_every_other_is_told_so():
    class EightPuzzle:
        def __init__(self, squares: Any) -> None:
            self.squares = list(squares)

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__
    assert failure(states_and_moves.check_EightPuzzle, EightPuzzle) == \
        catalogue.PUZZLES_NOT_EQUAL


# ---------------------------------------------------------------------------
# Notebook 02, Uninformed search, and the paths of 02 to 04

def test_a_search_report_with_a_wrong_first_line_is_compared_line_by_line():
    def search(nextStates: Any, start: Any, goal: Any) -> None:
        print("Iteration 1: 4 new states found.")
    said = failure(uninformed_search.check_search_report, search, NEAR, G3)
    assert said.startswith(catalogue.FIRST_LINE_PRINTED)


def test_the_search_report_check_says_so_when_the_kits_own_search_finds_no_path(monkeypatch):
    monkeypatch.setattr(uninformed_search, "reference_search", lambda *args: None)
    said = failure(uninformed_search.check_search_report, lambda *args: None, NEAR, G3)
    assert said == catalogue.LECTURE_GOAL_REACHABLE


def test_a_dfs_path_that_does_not_end_at_the_goal_is_shown_against_it():
    said = failure(uninformed_search.check_dfs, lambda S, goal: [S, S], NEAR, G3)
    assert catalogue.LAST_STATE_OF.format(what=catalogue.DFS_PATH) in said


def test_a_path_that_does_not_start_at_the_start_is_shown_against_it():
    from puzzlekit.testcells.checks.paths import check_path
    start = ((1, 2, 3), (4, 5, 6), (0, 7, 8))
    said = failure(check_path, start, G3, [((1, 2, 3), (4, 5, 0), (7, 8, 6)), G3],
                   what="your path")
    assert catalogue.FIRST_STATE_OF.format(what="your path") in said, said


def test_a_ucs_total_that_is_not_its_paths_price_earns_part():
    take_partial()
    path = [NEAR, G3]
    prices = {"U": 1, "D": 1, "L": 1, "R": 2}
    uninformed_search.check_cheapest(NEAR, G3, path, 5, prices, "ucs's path")
    points, why = take_partial()
    assert points == 2 and why.startswith(catalogue.UCS_TOTAL_NOT_ITS_PRICE.format(
        what="ucs's path", total=5, price=2, why="")), why


def test_a_solve_pos_that_prints_unsolved_is_told_so():
    random.seed(123)
    shortest = {tuple(p): pk.solve(pk.from_flat(p)).length
                for p in (pk.shuffle_pos(n) for n in (4,))}

    def solve_pos(p: Any, limit: int) -> int:
        print("unsolved")
        return shortest[tuple(p)]
    said = failure(uninformed_search.check_solve_pos, solve_pos, random, 123, (4,))
    assert said == catalogue.SOLVE_POS_UNSOLVED


def test_a_solve_pos_that_counts_wrong_is_told_which_position():
    random.seed(123)

    def solve_pos(p: Any, limit: int) -> int:
        print(p)
        return 99
    said = failure(uninformed_search.check_solve_pos, solve_pos, random, 123, (4,))
    random.seed(123)
    assert catalogue.SOLVE_POS_MOVES.format(position=pk.shuffle_pos(4)) in said, said


# ---------------------------------------------------------------------------
# Notebook 03, Informed search

def test_an_astar_that_returns_nothing_is_named_with_its_board_and_heuristic():
    said = failure(informed_search.check_astar, lambda S, G, h: None, 4, 1, pk.manhattan)
    assert said.startswith(catalogue.ASTAR_PATH.format(moves=4, h="manhattan")), said


#: one move from the goal, as the solver reads it
NEAR_TEXT = "3\n1 2 3\n4 5 6\n7 0 8\n"


def _manhattan(S: Any, G: Any) -> int:
    where = {x: (r, c) for r, row in enumerate(G) for c, x in enumerate(row)}
    return sum(abs(r - where[x][0]) + abs(c - where[x][1])
               for r, row in enumerate(S) for c, x in enumerate(row) if x)


def _parts(astar: Any) -> dict[str, Any]:
    """The student's own parts of the solver: solvable and manhattan right, `astar`."""
    return {"solvable": lambda S: True, "manhattan": _manhattan, "astar": astar}


def test_a_solver_with_a_wrong_last_line_is_told_which_of_its_parts_is_wrong():
    def solver(text: str) -> None:
        print("f = 1")
        print("Minimum number of moves = 2")
    said = failure(informed_search.check_solver, solver, NEAR_TEXT,
                   **_parts(lambda S, G, h: None))
    part = catalogue.OWN_ASTAR_WRONG.format(got="None", shortest=1)
    head = catalogue.SOLVER_ON_THE_BOARD.format(board=NEAR, part=part,
                                                error=catalogue.LAST_LINE_PRINTED)
    assert said.startswith(head), said
    assert said.endswith(catalogue.PRINTED_NOT_BOARDS.format(lines=["f = 1"])), said


def test_a_solver_whose_boards_are_not_a_path_is_shown_the_boards_it_printed():
    def solver(text: str) -> None:
        print("1 2 3\n4 5 6\n7 0 8\n\n1 2 3\n4 5 6\n7 0 8\n")
        print("Minimum number of moves = 1")
    said = failure(informed_search.check_solver, solver, NEAR_TEXT,
                   **_parts(lambda S, G, h: [S, G]))
    assert catalogue.BOARDS_PRINTED in said and "on the board" not in said, said


# ---------------------------------------------------------------------------
# The student's kernel: the agent's stand-ins for the test's functions, and the guard

def _call(function: str, *args: Any) -> dict[str, Any]:
    """The grader's request to call the student's `function` with `args` (wire-encoded)."""
    return protocol.request("call", name=function, args=list(args), kwargs={}, random=None,
                            forbid=[])


def test_a_stand_in_for_the_tests_function_shows_as_one():
    stand_in = {"$j": 3, "name": "manhattan", "kind": "callable"}
    reply = answer_here({"show": repr}, _call("show", ["x", stand_in]))
    assert reply["value"] == catalogue.TEST_FUNCTION.format(name="manhattan"), reply


def test_an_answer_of_the_grader_that_cannot_be_read_is_said_so(monkeypatch):
    kernel = types.SimpleNamespace(_input_request=lambda *args, **kwargs: "not an answer")
    monkeypatch.setattr(agent, "_shell", lambda: types.SimpleNamespace(kernel=kernel))
    monkeypatch.setattr(agent, "_asking", [((), {})])
    stand_in = {"$j": 3, "name": "manhattan", "kind": "callable"}
    reply = answer_here({"use": lambda f: f(1)}, _call("use", ["x", stand_in]))
    assert reply["error"]["evalue"] == catalogue.GRADER_ANSWER_UNREADABLE, reply


def test_an_error_of_the_tests_function_that_is_no_error_is_a_failure_of_it():
    raised = agent._twin(["not", "an", "error"])
    assert type(raised) is RuntimeError and str(raised) == catalogue.TEST_FUNCTION_FAILED


GUARDED = """
import os, random, sys, types
import puzzlekit
from puzzlekit.autograder.kernel import guard
guard.install(os.path.dirname(puzzlekit.__file__),
              [n for n in sys.modules if n.startswith("puzzlekit")])
for reach in (lambda: types.FunctionType(puzzlekit.manhattan.__code__, {}),
              lambda: compile("x = 1", random.__file__, "exec")):
    try:
        reach()
        print("allowed")
    except PermissionError as e:
        print(e)
print(random.__file__)
"""


def test_the_guard_names_a_copy_of_the_kits_function_and_code_compiled_as_a_library():
    out = subprocess.run([sys.executable, "-c", GUARDED], capture_output=True, text=True,
                         env=os.environ, timeout=60)
    lines = out.stdout.splitlines()
    assert lines[:2] == [
        catalogue.REACHED_IN.format(what=catalogue.COPY_OF_KIT_FUNCTION),
        catalogue.REACHED_IN.format(what=catalogue.COMPILED_AS.format(path=lines[2]))], out
