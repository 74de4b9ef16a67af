"""The catalogue's messages that no other test reads, each rendered by the code that
shows it, with the evidence that calls for it (tests/testcells/test_catalogue.py checks
that every message a student reads is rendered by a test somewhere)."""

from __future__ import annotations

import json
import socket
import sys
from typing import Any

import pytest
from agent_here import answer_here

import puzzlekit as pk
from puzzlekit.autograder.judge.judge import Judge, KernelFault
from puzzlekit.autograder.judge.verdict_words import explain_limit
from puzzlekit.testcells import budget, catalogue, messages
from puzzlekit.testcells.cases import Cases
from puzzlekit.testcells.diagnose import diagnose_search
from puzzlekit.testcells.instrument import Record, limit_message

G3 = pk.goal_state(3)
MIDDLE = ((1, 2, 3), (4, 0, 5), (6, 7, 8))


def test_a_class_without_hash_and_a_search_too_deep_are_explained():
    class Board:
        def __eq__(self, other: object) -> bool:
            return True
    with pytest.raises(TypeError) as e:
        {Board()}
    assert catalogue.UNHASHABLE in (messages.explain(e.value) or "")
    deep = RecursionError("maximum recursion depth exceeded")
    assert catalogue.TOO_DEEP.format(depth=sys.getrecursionlimit()) in (
        messages.explain(deep) or "")


def test_partial_credit_of_several_cases_counts_the_others():
    messages.partly(1, "case one")
    messages.partly(2, "case two")
    messages.partly(3, "case three")
    assert messages.take_partial() == (1.0, "case one" + catalogue.MORE_CASES.format(
        more=2, s="s"))


def test_the_summary_says_each_status_and_the_exercises_that_pass(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.setattr(messages, "results", {
        "a": messages._Result("passed"), "b": messages._Result("failed", "why"),
        "c": messages._Result("partly right", "half"), "d": messages._Result("hidden")})
    text = str(messages.summary())
    assert text.splitlines()[0] == catalogue.SUMMARY_PASS.format(exercises="1 of 4 exercises")
    for status in (catalogue.STATUS_PASSED, catalogue.STATUS_FAILED, catalogue.STATUS_PARTLY,
                   catalogue.STATUS_HIDDEN):
        assert status in text
    assert catalogue.STATUS_NOT_RUN in str(messages.summary({"e": 1}))
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert messages.summary() == catalogue.BEING_GRADED


def test_a_time_out_says_what_was_seen_on_an_easier_board():
    messages.note("it expanded some boards more than once")
    with pytest.raises(AssertionError) as e:
        pk.testcells.run_with_timeout(0.2, lambda: [0 for _ in iter(int, 1)])
    messages.take_notes()
    assert str(e.value).endswith(catalogue.SEEN_EASIER.format(
        why="it expanded some boards more than once"))


def test_a_call_that_waited_says_how_little_it_computed():
    said = budget.waited("bfs", 30, 0.25)
    assert said == catalogue.WAITED.format(name="bfs", seconds="30 seconds",
                                           used=catalogue.COMPUTED_ONLY.format(cpu=0.25))


def test_a_search_asking_again_is_told_to_keep_a_visited_set_or_skip_stale_entries():
    record = Record(calls=50, distinct=10, most=MIDDLE, most_times=5, first=[MIDDLE])
    bfs = str(diagnose_search(MIDDLE, record, "breadth-first"))
    assert bfs.endswith(catalogue.KEEP_VISITED)
    ucs = str(diagnose_search(MIDDLE, record, "cheapest-first"))
    assert ucs.endswith(catalogue.STALE_ENTRY)
    assert limit_message("nextStates", record) == catalogue.CALLED_AGAIN.format(
        name="nextStates", calls=50, distinct=10,
        again=catalogue.ASKED_MOST.format(most=5, board=MIDDLE))
    wide = Record(calls=50, distinct=40)
    assert limit_message("nextStates", wide) == catalogue.TOO_MANY_CALLS.format(
        name="nextStates", calls=50)


def test_a_crash_on_a_board_of_another_size_asks_about_the_size():
    said = Cases._words(IndexError("tuple index out of range"), "nextStates(S)", (4, 4))
    assert said == catalogue.ASSUMES_SIZE.format(
        what="nextStates(S)", seen=catalogue.SEEN_FAILED, rows=4, cols=4, shape="a 3×3",
        fixed="a fixed 3, or range(3)", own="IndexError: tuple index out of range")


def test_no_network_and_no_other_folder_are_said_so():
    assert explain_limit(socket.gaierror.__name__, "", {}) == catalogue.NETWORK
    evalue = "[Errno 13] Permission denied: '/etc/shadow'"
    assert explain_limit("PermissionError", evalue, {}) == catalogue.OUTSIDE.format(
        evalue=evalue)


# ---------------------------------------------------------------------------
# The judge's words, with a kernel that is this process (as tests/autograder/test_judge.py)

class Replies:
    """A Channel whose calls of the student's code all get `reply`, or `fault`."""

    def __init__(self, reply: dict[str, Any] | None = None, fault: str = "") -> None:
        self.reply, self.fault = reply, fault

    def request(self, req: dict[str, Any], timeout: float, **extra: Any) -> dict[str, Any]:
        if req["kind"] == "call":
            if self.fault:
                raise KernelFault(self.fault)
            return json.loads(json.dumps(self.reply))
        return answer_here({"findZero": lambda S: (0, 1)}, req)


def said(channel: Replies) -> str:
    judge = Judge(channel, call_timeout=5)   # type: ignore[arg-type]
    judge.run_given("from puzzlekit.testcells import assert_equal\n", 1)
    outputs = judge.run_test("assert_equal(findZero(((1, 0), (2, 3))), (0, 1), 'f')\n", 2)
    errors = [o for o in outputs if o["output_type"] == "error"]
    return str(errors[-1]["evalue"]) if errors else ""


def test_a_kernel_that_died_in_a_call_is_restarted_for_the_next_tests():
    assert said(Replies(fault="died")) == catalogue.KERNEL_DIED.format(
        what="findZero", how="", restarted=catalogue.RESTARTED_FOR_TESTS)


def test_the_judge_says_what_it_could_not_run_or_read():
    assert said(Replies({"ok": False, "fault": "no memory"})) == \
        catalogue.COULD_NOT_RUN.format(name="findZero", fault="no memory")
    # a reply that does not fit the protocol is refused whole, with the protocol's reason
    assert said(Replies({"ok": True, "error": "not a dict"})) == catalogue.COULD_NOT_RUN.format(
        name="findZero", fault="reply to call: error must be error report")
    # what the judge's twin of an error says when it is given none it can read
    judge = Judge(Replies(), call_timeout=5)    # type: ignore[arg-type]
    assert str(judge.student_error("not a dict", "findZero")) == \
        catalogue.FAILED_IN_KERNEL.format(name="findZero")
    assert said(Replies({"ok": True, "value": {"$h": "x"}})).startswith(
        catalogue.CANNOT_READ.format(why=""))


def test_a_stop_iteration_of_a_call_is_an_error():
    stopped = said(Replies({"ok": True, "error": {"ename": "StopIteration", "evalue": "",
                                                       "traceback": []}}))
    assert catalogue.STOP_ITERATION.format(name="findZero", ename="StopIteration") in stopped


def test_a_students_input_is_answered_with_no_input():
    judge = Judge(Replies(), call_timeout=5)    # type: ignore[arg-type]
    reply = judge._answer_question("What is your name? ")
    assert catalogue.NO_INPUT in json.dumps(reply)


def gives_up(S, G):
    """A search that gives up on every board (its code has a `return` of a value)."""
    if S == G:
        return [S]
    return None


def test_a_path_of_none_says_what_was_seen_of_the_board():
    from puzzlekit.testcells import assert_solution
    swapped = ((1, 2, 3), (4, 5, 6), (8, 7, 0))         # the goal cannot be reached
    start = pk.apply_moves(G3, "UL")
    with pytest.raises(AssertionError) as e:
        assert_solution(swapped, G3, None, what="search(S, G)")
    assert str(e.value).endswith(catalogue.RETURNED_NONE)
    with pytest.raises(AssertionError) as e:
        assert_solution(start, G3, None, what="search(S, G)")
    assert str(e.value).endswith(catalogue.RETURNED_NONE_FOR.format(
        board=catalogue.A_BOARD_AWAY.format(moves=2, s="s")))
    with pytest.raises(AssertionError) as e:
        assert_solution(start, G3, gives_up(start, G3), what="gives_up(S, G)")
    assert str(e.value).endswith(catalogue.NO_PATH_FOUND.format(
        away=catalogue.MOVES_AWAY.format(moves=2, s="s")))
    G4 = pk.goal_state(4)
    with pytest.raises(AssertionError) as e:
        assert_solution(pk.apply_moves(G4, "UL"), G4, None, what="gives_up(S, G)")
    assert str(e.value).endswith(catalogue.NO_PATH_FOUND.format(away=catalogue.REACHABLE))


def test_a_printed_path_with_other_move_letters_says_so():
    from puzzlekit.testcells import assert_prints_path

    def show(S, moves):
        for board in pk.moves_to_path(pk.as_state(S), moves):
            print(pk.board_str(board))
            print("X")
    with pytest.raises(AssertionError) as e:
        assert_prints_path(show, [1, 2, 3, 4, 0, 5, 6, 7, 8], "UL", what="show")
    assert catalogue.MOVE_LETTERS.format(what="show") in str(e.value)
