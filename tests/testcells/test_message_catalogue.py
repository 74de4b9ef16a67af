"""No message names a cause without the evidence that triggers it.

Two catalogues are held to that here:

* every **question** a grading message asks the student ("a missing visited set?", "does
  your code assume a 3×3 board?") is listed in `QUESTIONS` with the evidence the code
  must have seen before it asks, and the tests that show it is asked with that evidence
  and not without it; a new question in the grading code fails here until it is listed;
* every **named mistake** of docs/mistakes.md is planted by a test that gives its evidence
  and reads its name, next to the same call without the evidence reading none.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

import puzzlekit as pk
from puzzlekit.autograder.judge.verdict_words import explain_limit
from puzzlekit.testcells import assert_solution, messages
from puzzlekit.testcells.diagnose import (
    diagnose_move,
    diagnose_neighbours,
    diagnose_path,
    diagnose_report,
    diagnose_shuffle,
)
from puzzlekit.testcells.mistakes import CATALOGUE, forget_made, made, mistake, shown

ROOT = Path(__file__).resolve().parents[2]
#: where the words a student reads are written
MESSAGE_CODE = [*sorted((ROOT / "puzzlekit" / "testcells").glob("*.py")),
                *sorted((ROOT / "puzzlekit" / "testcells" / "catalogue").glob("*.py")),
                *sorted((ROOT / "puzzlekit" / "autograder" / "judge").glob("*.py"))]

#: each question -> (what was seen before it is asked, the tests that show it: asked with
#: that evidence, and not without it)
QUESTIONS: dict[str, tuple[str, list[str]]] = {
    "did it reach for this case?": (
        "the function's own code was read: it has a `return`, and this call gave None", [
            "tests/testcells/test_evidence.py::test_none_from_a_function_with_a_return_is_not_a_forgotten_return",
            "tests/testcells/test_evidence.py::test_only_a_call_whose_none_is_used_is_blamed_for_a_missing_return"]),
    "is it waiting for something": (
        "the clock's backstop stopped a call that had computed less than its budget", [
            "tests/testcells/test_budget.py::test_code_that_waits_is_stopped_by_the_backstop",
            "tests/testcells/test_budget.py::test_a_runaway_is_stopped_after_its_computing_time_with_no_cause_guessed",
            "tests/autograder/test_cpu_budgets.py::test_code_that_waits_is_stopped_by_the_backstop_and_told_so"]),
    "a missing visited set?": (
        "a recorder saw one board asked about 3 or more times", [
            "tests/testcells/test_budget.py::test_a_search_that_expands_boards_again_is_told_so_from_what_it_recorded",
            "tests/testcells/test_budget.py::test_a_search_that_keeps_a_visited_set_is_not_told_to_keep_one"]),
    "does your code assume": (
        "the checks on 3×3 boards passed and a case of another size failed, or the "
        "student's code crashed on a board of another size", [
            "tests/testcells/test_cases.py::test_another_size_after_3x3_boards_is_named_as_a_question",
            "tests/testcells/test_cases.py::test_a_wrong_value_on_a_board_of_another_size_is_not_blamed_on_the_size",
            "tests/testcells/test_evidence.py::test_an_index_error_on_a_board_not_3x3_asks_about_a_fixed_size"]),
    "did it forget to `return` its result?": (
        "the function's own code was read and has no `return` statement at all", [
            "tests/testcells/test_evidence.py::test_only_a_function_without_any_return_is_told_it_forgot_to_return",
            "tests/testcells/test_evidence.py::test_none_from_a_function_with_a_return_is_not_a_forgotten_return"]),
    "with the successor function where it says?": (
        "the student's code called a tuple or a list (a TypeError saying so)", [
            "tests/testcells/test_message_catalogue.py::test_a_board_called_as_a_function_asks_about_the_arguments"]),
    "which index was it, and how long is it?": (
        "an IndexError where no board was seen: it asks, and names no cause", [
            "tests/testcells/test_evidence.py::test_an_index_error_on_a_board_not_3x3_asks_about_a_fixed_size"]),
    "does a search keep more states than it needs?": (
        "the kernel raised MemoryError under the grader's memory limit", [
            "tests/testcells/test_message_catalogue.py::test_only_a_memory_error_asks_about_the_states_kept",
            "tests/autograder/test_budgets.py::test_a_call_that_fills_the_memory_is_named_and_the_next_test_gets_a_fresh_kernel"]),
    "Does it return something unusually large or odd": (
        "the judge's own checks of the returned value ran out of their time (the student's "
        "code was not running)", [
            "tests/autograder/test_judge.py::test_the_judges_own_work_has_a_time_limit",
            "tests/autograder/test_judge.py::test_waiting_for_the_kernel_does_not_count_against_the_judge"]),
    "did it forget to `return` it?": (
        "gen_successors returned None (another value that is no list is named, not asked "
        "about)", [
            "tests/testcells/test_checks_rendered.py::test_a_successor_list_that_is_none_no_list_or_ragged_is_told_so"]),
}


def questions_in_the_code() -> dict[str, str]:
    """Every string the message code builds that asks a question (an f-string with "{}"
    for its fields; docstrings and regular expressions left out) -> where it is."""
    found: dict[str, str] = {}
    for path in MESSAGE_CODE:
        tree = ast.parse(path.read_text("utf-8"))
        skip = {id(node.body[0].value) for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                and node.body and isinstance(node.body[0], ast.Expr)}
        texts = []
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                skip.update(id(v) for v in node.values)
                texts.append((node, "".join(v.value if isinstance(v, ast.Constant) else "{}"
                                            for v in node.values)))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                texts.append((node, node.value))
        for node, text in texts:
            if (id(node) not in skip and re.search(r"\w\W*\?", text)
                    and not re.search(r"\(\?|\?P<|\]\?|\\\?|\*\?|\\s|^\^", text)):
                found[text] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def test_every_question_the_grader_asks_is_listed_with_its_evidence():
    code = questions_in_the_code()
    unlisted = {where: text for text, where in code.items()
                if not any(q in " ".join(text.split()) for q in QUESTIONS)}
    assert unlisted == {}, ("a message asks a question not in QUESTIONS: list the evidence "
                            f"it needs and its tests: {unlisted}")
    asked = " ".join(" ".join(t.split()) for t in code)
    gone = [q for q in QUESTIONS if q not in asked]
    assert gone == [], f"QUESTIONS lists questions no message asks: {gone}"


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_listed_question_has_the_tests_that_show_its_evidence(question):
    _, tests = QUESTIONS[question]
    for ref in tests:
        file, name = ref.split("::")
        assert re.search(rf"^def {name}\(", (ROOT / file).read_text("utf-8"), re.M), ref


def test_a_board_called_as_a_function_asks_about_the_arguments():
    said = messages.explain(TypeError("'tuple' object is not callable")) or ""
    assert "with the successor function where it says?" in said
    for other in (TypeError("unsupported operand type(s) for +: 'int' and 'str'"),
                  TypeError("'int' object is not callable")):
        assert "successor function" not in (messages.explain(other) or "")


def test_only_a_memory_error_asks_about_the_states_kept():
    said = explain_limit("MemoryError", "", {"memory": "2G"}) or ""
    assert "(2G)" in said and "more states than it needs?" in said
    assert explain_limit("ValueError", "too many values", {"memory": "2G"}) is None
    assert explain_limit("RecursionError", "maximum recursion depth", {}) is None


# ---------------------------------------------------------------------------
# Named mistakes: each planted with its evidence, and not named without it

G3 = pk.goal_state(3)
MIDDLE = ((1, 2, 3), (4, 0, 5), (6, 7, 8))


def name_of(diagnosis: object) -> str | None:
    return getattr(diagnosis, "name", None)


def test_a_move_that_changed_nothing_or_went_another_way_is_named_so():
    up = pk.moveUp(MIDDLE, 1, 1)
    assert name_of(diagnose_move(MIDDLE, MIDDLE, up)) == "board-unchanged"
    assert name_of(diagnose_move(MIDDLE, pk.moveLeft(MIDDLE, 1, 1), up)) == "wrong-direction"
    assert diagnose_move(MIDDLE, up, up) is None


def test_next_states_listed_twice_or_far_away_are_named_so():
    want = pk.nextStates(MIDDLE)
    twice = [*want, next(iter(want))]
    assert name_of(diagnose_neighbours(MIDDLE, twice, want)) == "board-listed-twice"
    far = pk.apply_moves(MIDDLE, "UL")          # two moves away: not a next state
    wrong = {*list(want)[:3], far}
    assert name_of(diagnose_neighbours(MIDDLE, wrong, want)) == "not-one-move"
    assert diagnose_neighbours(MIDDLE, list(want), want) is None


def test_paths_without_their_goal_or_backwards_without_an_end_are_named_so():
    start = pk.apply_moves(G3, "ULDR" "UL")
    path = pk.solve(start).path
    assert name_of(diagnose_path(start, G3, path[:-1])) == "path-without-goal"
    assert name_of(diagnose_path(start, G3, path[::-1][:-1])) == "path-backwards-missing-end"
    assert diagnose_path(start, G3, path) is None


def test_the_moves_from_the_goal_back_are_named_so():
    start = pk.apply_moves(G3, "UL")
    assert name_of(diagnose_path(start, G3, "UL")) == "moves-from-goal"
    assert diagnose_path(start, G3, "RD") is None


def test_a_report_counting_the_start_or_one_line_too_long_is_named_so():
    sizes = [3, 5, 10]
    line = "Iteration {}: {} new states found.".format
    counts_start = [line(k, n) for k, n in enumerate([1, *sizes])]
    assert name_of(diagnose_report(counts_start, sizes)) == "report-counts-start"
    extra = [line(k, n) for k, n in enumerate([*sizes, 0], start=1)]
    assert name_of(diagnose_report(extra, sizes)) == "report-extra-line"
    assert diagnose_report([line(k, n) for k, n in enumerate(sizes, start=1)], sizes) is None


def test_a_shuffle_with_the_right_tiles_in_another_order_is_named_so():
    rng = random.Random(5)
    before = rng.getstate()
    want = pk.shuffle_pos(6, rng=rng)
    after = rng.getstate()
    other = list(reversed(want))
    assert name_of(diagnose_shuffle(6, other, before, after)) == "shuffle-order-differs"
    assert diagnose_shuffle(6, want, before, after) is None


def test_a_longer_path_is_told_what_finds_a_shortest_only_when_it_is_longer():
    start = pk.apply_moves(G3, "UL")
    hint = mistake("idastar-not-shortest", "IDA* finds a shortest path when ...")
    forget_made()
    with pytest.raises(AssertionError) as e:
        assert_solution(start, G3, "RDLR", optimal_length=2, hint=hint)
    assert [d.name for d in shown([hint], str(e.value))] == ["idastar-not-shortest"]
    forget_made()
    assert_solution(start, G3, "RD", optimal_length=2, hint=hint)     # shortest: no words
    assert made() == []


def test_every_named_mistake_is_planted_by_a_test():
    """Each catalogue name is read back by a test that gives its evidence (a name only
    docs/mistakes.md and its own test know is a name nothing shows)."""
    texts = "\n".join(p.read_text("utf-8") for p in (ROOT / "tests").rglob("*.py")
                      if p.name != "test_mistakes.py")
    unplanted = [n for n in CATALOGUE if f'"{n}"' not in texts and f"'{n}'" not in texts]
    assert unplanted == []
