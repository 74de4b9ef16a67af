"""The released notebooks as a student first runs them: every failure says what to do.

Each release is run in a kernel as a student would (Run All), twice: with the stubs
untouched, and with every function's stub replaced by ``return None`` (the classic
forgotten ``return``); each run happens once per session, whichever tests read it.
Every failing test cell must show a short message, with no frame inside the kit, in
words that tell the student what to do; Run All must reach the end (test and solution
cells carry the ``raises-exception`` tag, which JupyterLab honours), and the summary cell
must list every graded exercise.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest
from course_harness import assignments, grade_id, is_test, notebook_name

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
STUB = "raise NotImplementedError()"
#: What a message must say, by how the notebook was left.
WORDS = {
    "untouched": ("is not written yet", "is not defined yet"),
    "returning None": ("forget to `return`", "forget to return", "is not written yet",
                       "is not defined yet", "printed", "None"),
}


def returning_none(source: str) -> str:
    """The stub of every function becomes `return None`; other stubs stay."""
    if STUB not in source:
        return source
    lines = source.split("\n")
    in_function = {node.lineno for fn in ast.walk(ast.parse(source))
                   if isinstance(fn, ast.FunctionDef)
                   for node in ast.walk(fn) if isinstance(node, ast.Raise)}
    return "\n".join(line.replace(STUB, "return None") if n in in_function else line
                     for n, line in enumerate(lines, start=1))


#: (course root, assignment, how) -> the executed notebook: each release runs once per way
#: per session, however many tests read it (the tests only read it)
_RUNS: dict[tuple[str, str, str], Any] = {}


def run_as_student(course: Any, assignment: str, how: str) -> Any:
    key = (str(course.root), assignment, how)
    if key not in _RUNS:
        _RUNS[key] = _run_as_student(course, assignment, how)
    return _RUNS[key]


def _run_as_student(course: Any, assignment: str, how: str) -> Any:
    import nbformat
    from nbclient import NotebookClient
    path = course.root / "release" / assignment / notebook_name(assignment)
    nb = nbformat.read(path, as_version=4)
    if how == "returning None":
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.source = returning_none(cell.source)
    # like JupyterLab's Run All: a cell tagged raises-exception does not stop the run
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


@pytest.mark.parametrize("how", list(WORDS))
@pytest.mark.parametrize("assignment", assignments())
def test_every_failure_says_what_to_do(course, assignment, how):
    nb = run_as_student(course, assignment, how)
    failures = 0
    for cell in nb.cells:
        if cell.cell_type != "code" or not is_test(cell):
            continue
        for output in cell.outputs:
            if output.output_type != "error":
                continue
            failures += 1
            text = ANSI.sub("", "\n".join(output.traceback))
            where = f"{grade_id(cell)} ({how}):\n{text}"
            assert "site-packages" not in text and "/puzzlekit/" not in text, where
            assert len(text.splitlines()) <= 30, where
            assert any(words in output.evalue for words in WORDS[how]), where
    assert failures >= 3, f"{assignment} ({how}) fails only {failures} tests"


@pytest.mark.parametrize("assignment", assignments())
def test_the_summary_lists_every_exercise(course, assignment):
    nb = run_as_student(course, assignment, "untouched")
    labels = [grade_id(c).removesuffix("_tests") for c in nb.cells if is_test(c)]
    summary = nb.cells[-1]
    assert grade_id(summary) == "summary"
    [shown] = [o for o in summary.outputs if o.output_type == "execute_result"]
    text = shown.data["text/plain"]
    assert "0 of " in text.splitlines()[0], text
    for label in labels:
        assert re.search(rf"^  {re.escape(label)} +\d+ pt  ", text, re.M), (label, text)
    assert "✔ passed" not in text and "✎ not written yet" in text


@pytest.mark.parametrize("assignment", assignments())
def test_the_summary_knows_every_exercise_and_its_points(assignment):
    """The summary's table in the students' copy is the notebook's graded test cells and
    their points (generate derives it from the metadata: puzzlekit.course.authoring), and Run
    All goes past every cell that may fail (JupyterLab's raises-exception tag)."""
    import nbformat
    from course_harness import COURSE

    from puzzlekit.course.authoring import with_kit_lines
    nb = with_kit_lines(nbformat.read(COURSE / "source" / assignment /
                                      notebook_name(assignment), as_version=4))
    tests = {grade_id(c).removesuffix("_tests"): c.metadata["nbgrader"]["points"]
             for c in nb.cells if is_test(c)}
    call = ast.parse(nb.cells[-1].source).body[-1].value
    assert call.func.id == "summary"
    assert ast.literal_eval(call.args[0]) == tests
    for n, cell in enumerate(nb.cells):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade_id") not in ("setup", "summary"):
            assert "raises-exception" in cell.metadata.get("tags", []), (n, cell.source)
        if is_test(cell):
            label = grade_id(cell).removesuffix("_tests")
            assert re.search(rf'^passed\("{re.escape(label)}"(, hidden=True)?\)$',
                             cell.source, re.M), label


@pytest.mark.parametrize("assignment", assignments())
def test_a_deleted_test_cell_can_be_put_back(assignment):
    """nbgrader puts a deleted test cell back after the nbgrader cell before it in the
    source, which must then be a solution or test cell (one the student cannot delete
    without nbgrader putting it back too), or autograding the submission fails."""
    import nbformat
    from course_harness import COURSE
    nb = nbformat.read(COURSE / "source" / assignment / notebook_name(assignment),
                       as_version=4)
    marked = [c.metadata["nbgrader"] for c in nb.cells if "nbgrader" in c.metadata]
    for before, meta in zip(marked, marked[1:]):
        if meta.get("grade") and not meta.get("solution"):
            assert before.get("grade") or before.get("solution"), \
                f"{meta['grade_id']} follows {before['grade_id']}"
