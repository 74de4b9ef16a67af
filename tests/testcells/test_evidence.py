"""A message names a cause only when the grader saw the evidence for it.

Each test plants a situation an instructor found told the wrong cause, and reads the first
sentence the student reads.
"""

from __future__ import annotations

import linecache
from typing import Any

import pytest

from puzzlekit.autograder.judge.handles import RemoteFunction
from puzzlekit.testcells import messages as m
from puzzlekit.testcells.mistakes import Diagnosis, made

GOAL = ((1, 2, 3), (4, 5, 6), (7, 8, 0))
TWO_AWAY = ((1, 2, 3), (4, 5, 6), (0, 7, 8))


def cells(*sources: str) -> dict[str, Any]:
    """Run `sources` as notebook cells (their sources kept in `linecache`, as IPython
    does); the namespace they share."""
    namespace: dict[str, Any] = {}
    for n, source in enumerate(sources, start=1):
        name = f"<evidence cell {n}>"
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        exec(compile(source, name, "exec"), namespace)
    return namespace


def failure(*sources: str) -> BaseException:
    """The exception the last of `sources` raises."""
    with pytest.raises(Exception) as caught:
        cells(*sources)
    return caught.value


def first_sentence(e: BaseException) -> str:
    return (m.explain(e) or str(e)).split("\n")[0]


CHECK = ("from puzzlekit.testcells import assert_solution\n"
         "assert_solution({S}, {G}, search({S}, {G}), what=\"search's path\")\n")
# a search that returns None on purpose when it finds nothing (here it gives up at once)
GIVES_UP = """
def search(start, goal):
    frontier = [start]
    while frontier and False:
        return [start]
    return None
"""
NO_RETURN_AT_ALL = """
def search(start, goal):
    path = [start, goal]
"""


def test_a_search_that_returned_none_on_purpose_is_told_what_it_was_given():
    e = failure(GIVES_UP, CHECK.format(S=GOAL, G=GOAL))
    assert first_sentence(e) == ("search's path is None: it returned None: it found no path "
                                 "from this board (0 moves from the goal: it is the goal "
                                 "itself)")
    assert "forget" not in str(e)
    e = failure(GIVES_UP, CHECK.format(S=TWO_AWAY, G=GOAL))
    assert first_sentence(e) == ("search's path is None: it returned None: it found no path "
                                 "from this board (2 moves from the goal)")


def test_only_a_function_without_any_return_is_told_it_forgot_to_return():
    e = failure(NO_RETURN_AT_ALL, CHECK.format(S=TWO_AWAY, G=GOAL))
    assert first_sentence(e) == ("search's path is None: (`search` has no `return` "
                                 "statement, so it returns None: did it forget to `return` "
                                 "its result?)")
    [named] = [d for d in made() if d in str(e)]
    assert isinstance(named, Diagnosis) and named.name == "no-return"


class _Kernel:
    """A judge whose kernel answers None to every call."""

    def call(self, target: dict[str, Any], name: str, args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> Any:
        return None

    def operate(self, remote: Any, op: str, arg: object) -> Any:
        raise AssertionError("not used")


def test_a_handle_whose_code_cannot_be_read_is_told_only_what_was_seen():
    space = cells("from puzzlekit.testcells import assert_solution\n")
    space["search"] = RemoteFunction(_Kernel(), "search")   # the student's, while grading
    with pytest.raises(AssertionError) as e:
        exec(CHECK.format(S=TWO_AWAY, G=GOAL), space)
    assert first_sentence(e.value) == ("search's path is None: it returned None for a board "
                                       "2 moves from the goal")
    with pytest.raises(AssertionError) as e:
        exec(CHECK.format(S=GOAL, G=GOAL), space)
    assert first_sentence(e.value) == ("search's path is None: it returned None for a board "
                                       "0 moves from the goal, the goal itself")
    A4, B4 = ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 0)), \
        ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 0, 15))
    with pytest.raises(AssertionError) as e:
        exec(CHECK.format(S=B4, G=A4), space)      # too big to count the moves quickly
    assert first_sentence(e.value) == ("search's path is None: it returned None for a board "
                                       "from which the goal can be reached")


def test_none_from_a_function_with_a_return_is_not_a_forgotten_return():
    e = failure("def findZero(S):\n    return None if S else (0, 0)\n",
                "r, c = findZero(((1, 0), (2, 3)))")
    assert "forget" not in m.explain(e)
    assert first_sentence(e) == "cannot unpack non-iterable NoneType object"
    assert m.explain(e).split("\n")[1] == m.NONE_SEEN
    e = failure("from puzzlekit.testcells import assert_equal\n"
                "def iddfs(S, G):\n    for depth in range(0):\n        return [S]\n",
                "assert_equal(iddfs(1, 1), [1], 'iddfs(goal, goal)')")
    assert str(e).splitlines()[-1] == ("(`iddfs` returned None here; it returns a value "
                                       "elsewhere: which `return`, or the end of the function, "
                                       "did it reach for this case?)")


# nextStates that assumes a 3×3 board (range(3), a fixed 2 for the last row)
FIXED_SIZE = """
def nextStates(S):
    r, c = next((r, c) for r in range(3) for c in range(3) if S[r][c] == 0)
    out = set()
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr <= 2 and 0 <= c + dc <= 2:
            L = [list(row) for row in S]
            L[r][c], L[r + dr][c + dc] = L[r + dr][c + dc], 0
            out.add(tuple(map(tuple, L)))
    return out
"""
# nextStates that never checks the last row
NO_EDGE_CHECK = """
def nextStates(S):
    r, c = next((r, c) for r, row in enumerate(S) for c, x in enumerate(row) if x == 0)
    L = [list(row) for row in S]
    L[r][c], L[r + 1][c] = L[r + 1][c], 0
    return {tuple(map(tuple, L))}
"""


def test_an_index_error_on_a_board_not_3x3_asks_about_a_fixed_size():
    e = failure(FIXED_SIZE, "nextStates(((1, 2), (0, 3)))")
    assert first_sentence(e) == ("tuple index out of range (on a 2×2 board: does your code "
                                 "assume a 3×3 board (a fixed 3 or range(3))?)")
    e = failure(NO_EDGE_CHECK, "nextStates(((1, 2, 3), (4, 5, 6), (7, 8, 0)))")
    assert first_sentence(e) == ("list index out of range (a row or column past the edge of "
                                 "the board: check that the blank can move that way before "
                                 "moving it)")
    e = failure("x = [1, 2]\nx[5]")
    assert first_sentence(e) == f"list index out of range {m.INDEX_SEEN}"


def test_the_judge_sees_the_board_its_call_gave_the_students_code(tmp_path):
    from test_judge import GIVEN, student
    judge, _ = student(tmp_path, FIXED_SIZE)
    judge.run_given(GIVEN, 1)
    test = ('with forbid_reference("nextStates"):\n'
            '    run_with_timeout(5, nextStates, ((1, 2, 3), (4, 0, 5)))\n')
    [error] = [o for o in judge.run_test(test, 2) if o["output_type"] == "error"]
    assert error["evalue"].split("\n")[0] == (
        "list index out of range (on a 2×3 board: does your code assume a 3×3 board "
        "(a fixed 3 or range(3))?)")
    # a question, named for the class report as the cases' questions are
    assert [m["name"] for m in judge.last_cell["mistakes"]] == ["assumes-3x3"]


class _Ran:
    """What IPython hands a post_run_cell hook: the cell's source and its error."""

    def __init__(self, source: str, error: BaseException | None) -> None:
        self.info = type("info", (), {"raw_cell": source})()
        self.error_in_exec, self.error_before_exec = error, None


GOAL_CELL = "PLACES = {1: (0, 0)}\nwhere = PLACES[15]\ngoal = ((1, 2), (3, 0))\n"


def test_a_name_whose_cell_raised_is_told_that_error_not_to_write_it():
    m.forget_raised()
    e = failure("print(goal)")
    assert first_sentence(e).startswith("name 'goal' is not defined yet: the exercise")
    m._after_cell(_Ran(GOAL_CELL, KeyError(15)))     # the cell ran, and raised
    e = failure("print(goal)")
    assert m.explain(e) == ("name 'goal' is not defined: its cell raised KeyError: 15 before "
                            "defining `goal`;\nfix that error and run the cell again.")
    assert m.status_of(e) == "failed"
    m._after_cell(_Ran(GOAL_CELL.replace("[15]", "[1]"), None))      # fixed and run again
    assert m.raised_before("goal") is None
    m._after_cell(_Ran("goal = None\nraise NotImplementedError()", NotImplementedError()))
    assert m.raised_before("goal") is None          # a stub is not written yet, not an error


def test_the_judge_hears_from_the_kernel_that_the_cell_raised(tmp_path):
    from test_judge import GIVEN, student
    judge, _ = student(tmp_path, "")
    m._after_cell(_Ran(GOAL_CELL, KeyError(15)))     # in the student's kernel
    judge.run_given(GIVEN, 1)
    [error] = [o for o in judge.run_test("assert_equal(len(goal), 2, 'goal')", 2)
               if o["output_type"] == "error"]
    assert error["evalue"].split("\n")[0] == ("name 'goal' is not defined: its cell raised "
                                              "KeyError: 15 before defining `goal`;")
    assert judge.last_cell["status"] == "failed"
    m.forget_raised()


# --- heuristics and can_reach: a rule is named only when it alone gives the answers

BLANK_FIRST = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
# on this board, for the blank-first goal, Hamming that counts the blank and Hamming
# against the default goal both give 8 (the right value is 7)
AMBIGUOUS = ((7, 5, 2), (8, 3, 1), (4, 0, 6))


def hamming_of_the_default_goal(S, goal):
    """A student's hamming that ignores the goal it is given."""
    import puzzlekit
    return puzzlekit.hamming(S)


def test_a_heuristics_value_two_rules_give_is_said_as_numbers_until_a_probe_tells():
    import puzzlekit
    from puzzlekit.testcells.diagnose import diagnose_heuristic, heuristic_probes
    got = hamming_of_the_default_goal(AMBIGUOUS, BLANK_FIRST)
    assert (got, puzzlekit.hamming(AMBIGUOUS, BLANK_FIRST)) == (8, 7)
    # before: "it counts the blank as a misplaced tile" (the first rule that gave 8)
    why = diagnose_heuristic(AMBIGUOUS, BLANK_FIRST, got, 7, "hamming")
    assert why == "your h gives 8 for this board; the right value is 7"
    assert not isinstance(why, Diagnosis)
    [T] = heuristic_probes(AMBIGUOUS, BLANK_FIRST, got, 7, "hamming")
    also = [(T, BLANK_FIRST, hamming_of_the_default_goal(T, BLANK_FIRST))]
    why = diagnose_heuristic(AMBIGUOUS, BLANK_FIRST, got, 7, "hamming", also)
    assert why.name == "ignores-the-goal"
    assert why.split(":")[0] == "it ignores the goal it is given"


def test_can_reach_that_ignores_its_goal_is_told_so_not_the_blank_row():
    import puzzlekit
    from puzzlekit.testcells.diagnose import diagnose_reachability, reachability_probes
    A4, B4 = puzzlekit.goal_state(4), puzzlekit.goal_state(4, blank="first")

    def can_reach(S, goal):     # the student's: always towards goal A
        return puzzlekit.is_solvable(S)
    got = can_reach(A4, B4)     # True; the right answer is False
    # before: "the board is 4 wide, an even width: ... so the blank's row counts too"
    assert diagnose_reachability(A4, B4, got) is None
    also = [(T, B4, can_reach(T, B4)) for T in reachability_probes(A4, B4, got)]
    why = diagnose_reachability(A4, B4, got, also)
    assert why.name == "ignores-the-goal"
    assert why == ("it ignores the goal it is given: its answers are those for the default "
                   "goal (the tiles in order, the blank last)")


def test_a_search_whose_path_ends_at_the_default_goal_ignores_the_goal():
    import puzzlekit
    from puzzlekit.testcells.diagnose import diagnose_path
    S = puzzlekit.random_walk(puzzlekit.goal_state(3), 6, seed=1)[0]
    path = puzzlekit.solve(S).path                  # to the default goal, blank last
    why = diagnose_path(S, BLANK_FIRST, path)
    assert why.name == "ignores-the-goal"
    assert why.startswith("it ignores the goal it is given: the path ends at the default goal")
    assert diagnose_path(S, BLANK_FIRST, puzzlekit.path_to_moves(path)).name == \
        "ignores-the-goal"


# --- a visible check's precise diagnosis stays beside a later (hidden) failure

UCS = """
def ucs(start, goal, costs):
    return None, None
"""
UCS_TEST = """
from puzzlekit.testcells import partly, passed
partly(2, "the path ucs returned costs 179, but the cheapest path costs 44: a cheaper "
          "path exists (44)")
### BEGIN HIDDEN TESTS
assert_equal(ucs(start, start, {"U": 1}), ([start], 0), "ucs(goal, goal)")
### END HIDDEN TESTS
passed("ucs")
"""
EARLIER = ("why (seen before this failure): the path ucs returned costs 179, but the "
           "cheapest path costs 44: a cheaper path exists (44)")


def test_a_partial_diagnosis_stays_beside_a_later_failure_in_the_judges_words(tmp_path):
    from test_judge import GIVEN, student
    judge, _ = student(tmp_path, UCS)
    judge.run_given(GIVEN, 1)
    [error] = [o for o in judge.run_test(UCS_TEST, 2) if o["output_type"] == "error"]
    lines = error["evalue"].split("\n")
    assert lines[0] == "ucs(goal, goal)" and lines[-1] == EARLIER
    assert EARLIER in " ".join(m.plain(error["traceback"][-1]).split())    # wrapped there
    assert m.earlier_words() == ""              # the cell's record is gone with it


def test_a_partial_diagnosis_stays_beside_a_later_failure_in_the_notebook():
    m.take_partial(), m.take_notes()
    m.partly(2, "the path ucs returned costs 179, but\nthe cheapest path costs 44: a "
                "cheaper path exists (44)")
    m.note("a cheaper path exists (44)")          # said already in the reason: once
    e = failure(UCS, "from puzzlekit.testcells import assert_equal\n"
                "assert_equal(ucs(1, 1, {}), ([1], 0), 'ucs(goal, goal)')")
    shown = m.friendlier(e, m.earlier_words(m.explain(e) or str(e)))
    assert str(shown).split("\n")[0] == "ucs(goal, goal)"
    assert str(shown).split("\n")[-1] == EARLIER
    assert str(shown).count("a cheaper path exists") == 1
    m.take_partial(), m.take_notes()


def test_only_a_call_whose_none_is_used_is_blamed_for_a_missing_return():
    # print_pos has no return, as it should; moveUp returns None here on purpose
    e = failure("def print_pos(S):\n    for row in S:\n        print(row)\n"
                "def moveUp(S):\n    return None\n",
                "print_pos(moveUp(((1, 2), (3, 0))))")
    assert "print_pos" not in m.explain(e) and m.explain(e).endswith(m.NONE_SEEN)
    e = failure("def moveUp(S):\n    S = [list(r) for r in S]\n",
                "print(len(moveUp(((1, 2), (3, 0)))))")
    assert m.explain(e).split("\n")[1].startswith("(`moveUp` has no `return` statement")


def test_a_path_two_slips_explain_names_neither():
    import puzzlekit
    from puzzlekit.testcells.diagnose import diagnose_path
    A = puzzlekit.goal_state(3)
    G = puzzlekit.apply_moves(A, "U")       # a goal one move from the default goal
    S = puzzlekit.random_walk(A, 5, seed=3)[0]
    path = puzzlekit.solve(S).path          # to A: it ignores G, or stops one move short
    assert diagnose_path(S, G, path) is None
    assert diagnose_path(S, BLANK_FIRST, path).name == "ignores-the-goal"


def test_a_ucs_total_two_rules_give_names_neither():
    import puzzlekit
    from puzzlekit.testcells.diagnose import diagnose_cost
    A = puzzlekit.goal_state(3)
    S = puzzlekit.apply_moves(A, "UU")
    path = puzzlekit.moves_to_path(S, "DD")   # the blank goes down twice: price 2 each
    prices = {"U": 1, "D": 2, "L": 3, "R": 4}
    # 2 is the number of moves and the price of the tile's way (up, 1 each): either rule
    why = diagnose_cost(S, A, path, prices, 4, total=2)
    assert why.name == "cost-total-wrong"
    assert diagnose_cost(S, A, path, {"U": 5, "D": 2, "L": 3, "R": 4}, 4, total=2).name == \
        "cost-counts-moves"


def judge_of(tmp_path, code: str) -> Any:
    """A judge over an in-process kernel whose cell `code` IPython would have kept in
    `linecache` (so the kernel can read its functions' sources)."""
    from test_judge import GIVEN, InProcess

    from puzzlekit.autograder.judge.judge import Judge
    space: dict[str, Any] = {"__name__": "__main__"}
    name = "<kernel cell 1>"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    exec(compile(code, name, "exec"), space)
    judge = Judge(InProcess(tmp_path, space), call_timeout=5)
    judge.run_given(GIVEN, 1)
    return judge


def test_while_grading_the_kernel_reads_the_functions_code_for_the_judge(tmp_path):
    check = CHECK.format(S=TWO_AWAY, G=GOAL)
    judge = judge_of(tmp_path, NO_RETURN_AT_ALL)
    [error] = [o for o in judge.run_test(check, 2) if o["output_type"] == "error"]
    assert error["evalue"].split("\n")[0] == (
        "search's path is None: (`search` has no `return` statement, so it returns None: "
        "did it forget to `return` its result?)")
    assert [d["name"] for d in judge.last_cell["mistakes"]] == ["no-return"]
    judge = judge_of(tmp_path, GIVES_UP)
    [error] = [o for o in judge.run_test(check, 2) if o["output_type"] == "error"]
    assert error["evalue"].split("\n")[0] == ("search's path is None: it returned None: it "
                                              "found no path from this board (2 moves from "
                                              "the goal)")
    assert judge.last_cell["mistakes"] == []
    judge = judge_of(tmp_path, "def findZero(S):\n    S = S\n")
    [error] = [o for o in judge.run_test("r, c = findZero(start)", 2)
               if o["output_type"] == "error"]
    assert error["evalue"].split("\n")[1].startswith("(`findZero` has no `return` statement")
