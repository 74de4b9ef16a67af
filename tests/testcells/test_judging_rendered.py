"""The judge's, the sanitiser's and the course configuration's messages that no other
test reads, each rendered by the code that says it, from the evidence that calls for it
(tests/testcells/test_catalogue.py checks that every message a student reads is rendered
by a test somewhere)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from agent_here import answer_here
from traitlets.config.loader import PyFileConfigLoader

from puzzlekit.autograder import wire
from puzzlekit.autograder.judge.autograde import timeout_error
from puzzlekit.autograder.judge.crossing import by_name
from puzzlekit.autograder.judge.handles import Remote, RemoteIterator, handle_only
from puzzlekit.autograder.judge.judge import Judge
from puzzlekit.autograder.judge.sanitize import clean_data
from puzzlekit.testcells import catalogue

REPO = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------------------
# What crosses from the kernel to the judge, with a kernel that is this process


class Kernel:
    """A channel whose calls of the student's code get `call` and whose requests to set
    the test's values get `set` (when given); the agent here answers the rest."""

    def __init__(self, call: Any = None, set: dict[str, Any] | None = None) -> None:
        self.call, self.set = call, set

    def request(self, req: dict[str, Any], timeout: float, **extra: Any) -> dict[str, Any]:
        if req["kind"] == "call" and self.call is not None:
            return {"ok": True, "value": json.loads(json.dumps(self.call))}
        if req["kind"] == "set" and self.set is not None:
            return dict(self.set)
        return answer_here({"findZero": lambda S: (0, 1), "answer": lambda: 0}, req)


def failure(kernel: Kernel, test: str = "assert_equal(findZero(((1, 0), (2, 3))), (0, 1), "
                                        "'f')\n") -> str:
    """The error a test cell ends with, graded by a judge on `kernel`."""
    judge = Judge(kernel, call_timeout=5)   # type: ignore[arg-type]
    judge.run_given("from puzzlekit.testcells import assert_equal\n", 1)
    errors = [o for o in judge.run_test(test, 2) if o["output_type"] == "error"]
    return str(errors[-1]["evalue"]) if errors else ""


@pytest.mark.parametrize("value, why", [
    (["x", {"$h": "seven"}], catalogue.NOT_DATA_FROM_KERNEL),
    (["x", {"$j": 7}], catalogue.UNKNOWN_TEST_FUNCTION),
    (["x", {"$arg": 5}], catalogue.UNKNOWN_ARGUMENT),
])
def test_what_the_kernel_returns_that_the_grader_cannot_read_is_said_so(value: Any,
                                                                         why: str) -> None:
    assert failure(Kernel(call=value)) == catalogue.CANNOT_READ.format(why=why)


def test_a_failure_whose_words_cannot_be_read_is_named_by_its_class() -> None:
    odd = "class Odd(Exception):\n    def __str__(self):\n        raise RuntimeError\nraise Odd()\n"
    assert failure(Kernel(), odd) == catalogue.UNREADABLE_FAILURE.format(ename="Odd")


def test_a_kernel_that_cannot_take_the_tests_values_says_it_could_not_run_them() -> None:
    kernel = Kernel(set={"ok": False, "fault": "no memory"})
    test = "def goal_of(S):\n    return S\ngoal = findZero(((1, 0), (2, 3)))\n"
    said = failure(kernel, test)
    assert said == catalogue.COULD_NOT_RUN.format(name=catalogue.TEST_VALUES, fault="no memory")


def test_the_tests_private_attributes_and_an_answer_that_is_not_data_stay_with_the_test():
    class Counter:
        seen = 3
        _secret = 4
    judge = Judge(Kernel(), call_timeout=5)     # type: ignore[arg-type]
    number = judge._stand_in(Counter(), "object")["$j"]
    ask = "\x00puzzlekit:"

    def answer(op: str, arg: str) -> Any:
        return json.loads(judge._answer(ask + json.dumps({"j": number, "op": op,
                                                          "arg": wire.encode(arg)})))
    assert wire.decode(answer("getattr", "seen")["value"]) == 3
    assert answer("getattr", "_secret")["error"]["evalue"] == \
        catalogue.PUBLIC_ATTRIBUTES_ONLY.format(kind="Counter", attribute="_secret")
    judge._answer_question = lambda prompt: {"value": {1, 2}}       # type: ignore[method-assign]
    assert answer("getattr", "seen")["error"]["evalue"] == catalogue.TEST_ANSWER_NOT_DATA


class Handles:
    """A judge whose operations on a handle all answer `value` (`handles.Grader`)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def call(self, target: dict[str, Any], name: str, args: tuple[Any, ...],
             kwargs: dict[str, Any], handle: Remote | None = None) -> Any:
        return self.value

    def operate(self, remote: Remote, op: str, arg: object) -> Any:
        return self.value


def test_a_handle_whose_hash_iterator_or_steps_are_not_what_python_needs() -> None:
    board = Remote(Handles("17"), {"$h": 1, "type": "Board"})
    decoding = wire.PLAIN_ONLY.set(True)      # as while a reply is decoded: not asked
    try:
        with pytest.raises(TypeError) as e:
            hash(board)
        assert str(e.value) == catalogue.HANDLE_NOT_HASHED
    finally:
        wire.PLAIN_ONLY.reset(decoding)
    with pytest.raises(TypeError, match=catalogue.HASH_NOT_INT.format(kind="Board")):
        hash(board)
    odd = Remote(Handles(Remote(Handles(None), {"$h": 2})), {"$h": 3, "type": "Board"})
    with pytest.raises(TypeError) as e:
        iter(odd)
    assert str(e.value) == catalogue.ITER_NOT_ITERATOR.format(kind="Board")
    steps = RemoteIterator(Handles({"items": "nothing"}), {"$h": 4, "type": "generator"})
    with pytest.raises(TypeError, match=catalogue.CANNOT_STEP.format(kind="generator")):
        next(steps)


def test_what_the_grader_cannot_send_back_to_the_kernel_is_named() -> None:
    with pytest.raises(wire.WireError) as e:
        by_name(object())
    assert str(e.value) == catalogue.NOT_SENT_BY_NAME.format(kind="object")
    with pytest.raises(wire.WireError) as e:
        handle_only([1, 2])
    assert str(e.value) == catalogue.NOT_PLAIN_DATA


def test_a_recorder_made_without_a_function_cannot_cross() -> None:
    from puzzlekit.testcells.instrument import Recorder
    judge = Judge(Kernel(), call_timeout=5)     # type: ignore[arg-type]
    with pytest.raises(wire.WireError) as e:
        judge._outbound(Recorder())
    assert str(e.value) == catalogue.RECORDER_BY_NAME


# ---------------------------------------------------------------------------
# A graded notebook's outputs that are not data


def test_a_widget_and_an_output_of_no_known_type_leave_a_note() -> None:
    widget = {"application/vnd.jupyter.widget-view+json": {"model_id": "1"}}
    assert clean_data(widget) == {"text/plain": catalogue.WIDGET_NOT_KEPT}
    evil = {"application/x-evil": "<script>", "application/x-worse": "x"}
    assert clean_data(evil) == {"text/plain": catalogue.OUTPUT_NOT_DATA.format(
        types="application/x-evil, application/x-worse")}


# ---------------------------------------------------------------------------
# The course's words for a cell out of its seconds


def test_the_course_config_gives_a_cell_out_of_its_seconds_the_catalogues_words() -> None:
    config = PyFileConfigLoader("nbgrader_config.py", path=str(REPO / "notebooks")).load_config()
    seconds = config.Execute.timeout
    error = config.Execute.error_on_timeout
    assert error == timeout_error(seconds)
    assert error["evalue"] == catalogue.CELL_STOPPED
    assert error["traceback"][0].endswith(
        "CellTimeoutError\x1b[0m: " + catalogue.CELL_RAN_TOO_LONG.format(seconds=seconds))
