"""The judge's, the sanitiser's, the course configuration's and the integrity report's
messages that no other test reads, each rendered by the code that says it, from the
evidence that calls for it (tests/testcells/test_catalogue.py checks that every message a
student reads is rendered by a test somewhere)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from agent_here import answer_here
from traitlets.config.loader import PyFileConfigLoader

from puzzlekit.autograder import wire
from puzzlekit.autograder.judge.autograde import timeout_error
from puzzlekit.autograder.judge.crossing import by_name
from puzzlekit.autograder.judge.handles import Remote, RemoteIterator, handle_only
from puzzlekit.autograder.judge.judge import Judge
from puzzlekit.autograder.judge.sanitize import clean_data
from puzzlekit.course.integrity import scan_notebook
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
    # a question the judge cannot read: not JSON, or a call whose arguments are no list
    for question in ("{not json", json.dumps({"j": number, "op": "call", "args": {"a": 1}})):
        unread = json.loads(judge._answer(ask + question))
        assert unread["error"]["evalue"] == catalogue.UNREADABLE_QUESTION
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


# ---------------------------------------------------------------------------
# The integrity report's findings, whole

SOURCE = REPO / "notebooks" / "source"
A1, A2 = "01-states-and-moves", "02-uninformed-search"


def findings(added: str = "", edit: Any = None, *, assignment: str = A1,
             cells: dict[str, str] | None = None) -> list[str]:
    """The findings of an assignment's source with a cell of `added` code after its first
    answer, `edit` applied to its cells, and `cells` (grade id -> new source; '+grade id'
    for a new cell after it)."""
    path = SOURCE / assignment / f"{assignment}.ipynb"
    source, submitted = nbformat.read(path, as_version=4), nbformat.read(path, as_version=4)

    def at(grade_id: str) -> int:
        return next(i for i, c in enumerate(submitted.cells)
                    if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    if added:
        first = next(i for i, c in enumerate(submitted.cells) if c.cell_type == "code"
                     and c.metadata.get("nbgrader", {}).get("solution"))
        submitted.cells.insert(first + 1, nbformat.v4.new_code_cell(added))
    for where, code in (cells or {}).items():
        if where.startswith("+"):
            submitted.cells.insert(at(where[1:]) + 1, nbformat.v4.new_code_cell(code))
        else:
            submitted.cells[at(where)].source = code
    if edit is not None:
        edit(submitted.cells)
    return [f.finding for f in scan_notebook(submitted, source)]


def finding(kind: str, why: str) -> str:
    return f"{kind}: {why}"


@pytest.mark.parametrize("code, said", [
    ("!ls", finding("shell-command", catalogue.SHELL_COMMAND)),
    ("%run other.py", finding("dynamic-code", catalogue.CODE_FROM_ELSEWHERE.format(
        magic="run"))),
    ("assert_equal = print", finding("rebinds-helper", catalogue.REBINDS_HELPER.format(
        names="assert_equal"))),
    ("len = lambda x: 32", finding("builtins", catalogue.SHADOWS_BUILTIN.format(
        names="len"))),
    ("from puzzlekit.testcells import _TimeUp", finding(
        "patches-grader", catalogue.REACHES_INTERNALS.format(module="testcells",
                                                             name="_TimeUp"))),
    ("open('../../gradebook.db')", finding("file-access", catalogue.USES_PATH.format(
        path="../../gradebook.db"))),
    ("import puzzlekit.testcells\nprint(puzzlekit.testcells.__file__)",
     finding("patches-grader", catalogue.LOCATES_GRADER)),
    ("import puzzlekit\npuzzlekit.__setattr__('bfs', None)",
     finding("patches-puzzlekit", catalogue.SETS_ATTRIBUTES.format(module="puzzlekit"))),
    ("ns = globals()", finding("module-attributes", catalogue.HANDS_NAMESPACE)),
    ("class Board:\n    @property\n    def __class__(self):\n        return tuple",
     finding("rigged-dunder", catalogue.FAKES_CLASS)),
    ("class Anything:\n    def __eq__(self, other):\n        return True",
     finding("rigged-dunder", catalogue.RIGGED_IGNORES_OTHER.format(name="__eq__"))),
    ("class Path(list):\n    def __len__(self):\n        return 32",
     finding("rigged-dunder", catalogue.RIGGED_SAME_ANSWER.format(name="__len__"))),
])
def test_each_trick_is_named_in_the_catalogues_words(code: str, said: str) -> None:
    assert said in findings(code)


def test_locked_cells_deleted_or_edited_are_named() -> None:
    def locked(cells: list[Any]) -> Any:
        return next(c for c in cells if c.cell_type == "code"
                    and c.metadata.get("nbgrader", {}).get("locked")
                    and not c.metadata.get("nbgrader", {}).get("solution"))

    def edit(cells: list[Any]) -> None:
        locked(cells).source += "\nprint('mine')"

    def remove(cells: list[Any]) -> None:
        cell = locked(cells)
        cell.source = "\n".join(cell.source.splitlines()[1:])

    def delete(cells: list[Any]) -> None:
        cell = locked(cells)      # as nbgrader puts back a locked cell that was deleted
        cell.source = "# This cell was missing from the submission.\n" + cell.source
    assert catalogue.LOCKED_CELL_EDITED.format(why=catalogue.LOCKED_CELL_DIFFERS) in \
        findings(edit=edit)
    assert catalogue.LOCKED_CELL_EDITED.format(why=catalogue.LOCKED_LINE_REMOVED) in \
        findings(edit=remove)
    assert catalogue.LOCKED_CELL_DELETED in findings(edit=delete)


def test_puzzlekits_answers_handed_on_or_star_imported_are_named() -> None:
    handed = findings(assignment=A2, cells={"+search_tests": "HELPERS = {}\n"
                                                             "HELPERS['s'] = puzzlekit.search"})
    assert handed == [finding("reference-call", catalogue.HANDS_ON_FORBIDDEN.format(
        label="puzzlekit.search"))]
    starred = findings(cells={"nextStates_solution": "from puzzlekit import *"})
    assert starred == [finding("reference-call", catalogue.STAR_IMPORT_BINDS.format(
        names="findZero, moveDown, moveLeft, moveRight, moveUp, nextStates"))]
    # a star import of the engine's module that implements a forbidden search binds all
    # of it, its helpers too (it once stopped the whole report with an IndexError)
    everything = finding("reference-call", catalogue.STAR_IMPORT_EVERYTHING.format(
        module="engine.uninformed", name="bfs_layers"))
    for module in ("puzzlekit.engine.uninformed", "puzzlekit.uninformed"):
        said = findings(assignment=A2, cells={"+search_tests": f"from {module} import *"})
        assert everything in said, (module, said)
    # where nothing it holds is forbidden (01 forbids none of the searches), nothing is said
    assert findings(cells={"+setup": "from puzzlekit.engine.uninformed import *"}) == []
