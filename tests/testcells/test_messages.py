"""What a student reads: failures that say what to do, short tracebacks, the summary."""

from __future__ import annotations

import linecache
import re
import traceback

import pytest

from puzzlekit.testcells import assert_equal
from puzzlekit.testcells import messages as m

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_cells(*sources: str) -> BaseException:
    """Run `sources` as notebook cells <cell 1>, <cell 2>, … (the last one raises); like
    IPython, the cells' sources are kept in `linecache`."""
    __tracebackhide__ = True   # like IPython's own frame around a cell
    namespace: dict = {}
    try:
        for n, source in enumerate(sources, start=1):
            name = f"<cell {n}>"
            linecache.cache[name] = (len(source), None, source.splitlines(True), name)
            exec(compile(source, name, "exec"), namespace)
    except Exception as e:
        return e
    raise AssertionError("the cells did not raise")


STUB = "def findZero(S):\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"


def test_a_stub_called_from_a_test_is_named():
    e = run_cells(STUB, "findZero(((0, 1), (2, 3)))")
    assert m.not_written_name(e) == "findZero"
    assert m.explain(e).startswith("`findZero` is not written yet: replace\n`raise "
                                   "NotImplementedError()`")
    assert m.status_of(e) == "not written"


def test_a_stubbed_cell_says_this_exercise():
    e = run_cells("goal = None\nraise NotImplementedError()")
    assert m.not_written_name(e) == ""
    assert m.explain(e).startswith("this exercise is not written yet")
    e = run_cells("class EightPuzzle:\n    raise NotImplementedError()")
    assert m.explain(e).startswith("this exercise is not written yet")


def test_a_missing_name_points_to_the_exercise_above():
    e = run_cells("print(goal)")
    assert m.explain(e).startswith("name 'goal' is not defined yet: the exercise that "
                                   "defines `goal` is above")
    assert m.status_of(e) == "not written"
    friendlier = m.friendlier(e)
    assert type(friendlier) is NameError and friendlier.name == "goal"
    assert friendlier.__traceback__ is e.__traceback__


def test_a_name_the_setup_cell_imports_asks_for_the_setup_cell_after_a_restart():
    for name in ("forbid_reference", "goal_state", "run_with_timeout"):
        e = run_cells(f"{name}")
        assert m.explain(e).startswith(f"name '{name}' is not defined: it comes from "
                                       f"puzzlekit, which the setup cell at the top"), name
    # an exercise's own name, even one puzzlekit has too, points to the exercise
    e = run_cells("findZero(((1, 0), (2, 3)))")
    assert m.explain(e).startswith("name 'findZero' is not defined yet: the exercise")


def test_a_typo_inside_a_function_is_left_alone():
    e = run_cells("def f():\n    return golas\n", "f()")
    assert m.explain(e) is None and m.status_of(e) == "failed"


def test_none_gets_the_missing_return_hint():
    e = run_cells("def nextStates(S):\n    pass\n", "len(nextStates(1))")
    assert m.explain(e).endswith("did it forget to `return` its result?)")
    e = run_cells("from puzzlekit.testcells import assert_equal\n"
                  "def findZero(S):\n    print(S)\n",
                  "assert_equal(findZero(1), (0, 1), 'findZero(start)')")
    assert "`findZero` has no `return` statement" in str(e) and "forget to `return`" in str(e)
    e = run_cells("from puzzlekit import show\ndef moveUp(S, r, c):\n    pass\n",
                  "show(moveUp(1, 0, 1))")
    assert "got NoneType" in str(e) and m.explain(e).endswith("its result?)")


def test_other_errors_keep_their_words():
    e = run_cells("1 / 0")
    assert m.explain(e) is None and m.friendlier(e) is e
    assert m.first_line(e) == "ZeroDivisionError: division by zero"
    assert m.status_of(None) == "passed"
    assert m.is_stub(NotImplementedError()) and not m.is_stub(NotImplementedError("later"))


def test_first_line_is_one_short_line():
    e = AssertionError("x" * 200 + "\nsecond line")
    line = m.first_line(e, width=40)
    assert line.startswith("AssertionError: xxx") and line.endswith("…")
    assert "\n" not in line and len(line) <= len("AssertionError: ") + 40


def test_student_frames_drop_the_kit():
    try:
        exec(compile("assert_equal(1, 2, 'one')", "<cell 3>", "exec"),
             {"assert_equal": assert_equal})
    except AssertionError as e:
        tb = e.__traceback__
    full = traceback.extract_tb(tb)
    short = traceback.extract_tb(m.student_frames(tb))
    only_cells = traceback.extract_tb(m.student_frames(tb, lambda name: name.startswith("<c")))
    assert any("puzzlekit" in f.filename for f in full)
    assert [f.filename for f in short] == [__file__, "<cell 3>"]
    assert [f.filename for f in only_cells] == ["<cell 3>"]


def test_a_stub_shows_where_it_ran_and_the_stub_only():
    e = run_cells(STUB, "def helper(S):\n    return findZero(S)\n",
                  "def check(S):\n    return helper(S)\n", "check(((0, 1), (2, 3)))")
    cells = lambda name: name.startswith("<cell")
    every = traceback.extract_tb(m.student_frames(e.__traceback__, cells))
    ends = traceback.extract_tb(m.student_frames(e.__traceback__, cells, ends_only=True))
    assert [f.filename for f in every] == ["<cell 4>", "<cell 3>", "<cell 2>", "<cell 1>"]
    assert [f.filename for f in ends] == ["<cell 4>", "<cell 1>"]


def test_the_summary_lists_every_exercise(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.setattr(m, "results", {
        "goal": m._Result("passed"), "findZero": m._Result("failed", "AssertionError: no"),
        "moveUp": m._Result("not written"), "bfs_hard": m._Result("hidden")})
    s = m.summary({"goal": 1, "findZero": 2, "moveUp": 2, "bfs_hard": 2, "nextStates": 3})
    assert isinstance(s, m.Summary)
    text = str(s)
    assert text.splitlines()[0] == "1 of 10 points' worth of tests pass (1 of 5 exercises)"
    for words in (r"goal +1 pt  ✔ passed", r"findZero +2 pt  ✘ failed: AssertionError: no",
                  r"moveUp +2 pt  ✎ not written yet", r"nextStates +3 pt  · not run yet",
                  r"bfs_hard +2 pt  · tested when graded"):
        assert re.search(words, text), text
    page = s._repr_html_()
    assert page.count("<tr>") == 6 and "<code>nextStates</code>" in page


def test_while_grading_the_summary_points_to_the_feedback(monkeypatch, capsys):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert "feedback" in m.summary({"goal": 1})
    m.passed("goal")
    assert capsys.readouterr().out == "✔ goal: all tests passed\n"
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    m.passed("goal")
    m.passed("bfs_hard", hidden=True)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("✔ goal: the tests above pass")
    assert out[1] == "· bfs_hard: its tests are hidden; they run when your notebook is graded"


def test_install_is_a_no_op_outside_ipython():
    assert m.install() is False


# ---------------------------------------------------------------------------
# In a real kernel

NOTEBOOK = [
    "import puzzlekit.testcells",
    STUB,
    "from puzzlekit.testcells import assert_equal, passed\n"
    "assert_equal(findZero(((0, 1), (2, 3))), (0, 0), 'findZero')\npassed('findZero')",
    "def moveUp(S, r, c):\n    L = [list(row) for row in S]\n"
    "    L[r][c], L[r + 1][c] = L[r + 1][c], 0",
    "from puzzlekit.testcells import assert_board_equal, passed\n"
    "assert_board_equal(moveUp(((0, 1), (2, 3)), 0, 0), ((2, 1), (0, 3)), what='moveUp')\n"
    "passed('moveUp')",
    "from puzzlekit.testcells import passed\nx = 1\npassed('easy')",
    "from puzzlekit.testcells import passed\nprint(goal)\npassed('goal')",
    "from puzzlekit.testcells import summary\n"
    "summary({'findZero': 2, 'moveUp': 2, 'easy': 1, 'goal': 1, 'later': 3})",
]


def run_notebook(env: str | None, monkeypatch: pytest.MonkeyPatch) -> list:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    if env is None:
        monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    else:
        monkeypatch.setenv("NBGRADER_EXECUTION", env)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in NOTEBOOK])
    nbclient.NotebookClient(nb, timeout=60, kernel_name="python3", allow_errors=True).execute()
    return nb.cells


def error_of(cell) -> tuple[str, str]:
    [error] = [o for o in cell.outputs if o.output_type == "error"]
    return error.evalue, ANSI.sub("", "\n".join(error.traceback))


@pytest.mark.slow
def test_in_a_notebook_errors_say_what_to_do(monkeypatch):
    cells = run_notebook(None, monkeypatch)
    evalue, tb = error_of(cells[2])
    assert evalue.startswith("`findZero` is not written yet")
    assert "Cell In[" in tb and "raise NotImplementedError()" in tb
    assert "puzzlekit" not in tb.replace("puzzlekit.testcells import", "")
    assert "site-packages" not in tb
    evalue, tb = error_of(cells[4])
    assert "did it forget to `return`" in evalue and "site-packages" not in tb
    assert len(tb.splitlines()) < 25
    assert cells[5].outputs[0].text.startswith("✔ easy: the tests above pass")
    evalue, _ = error_of(cells[6])
    assert evalue.startswith("name 'goal' is not defined yet")
    text = cells[7].outputs[0].data["text/plain"]
    assert "1 of 9 points' worth of tests pass" in text
    for words in (r"findZero +2 pt  ✎ not written yet",
                  r"moveUp +2 pt  ✘ failed: AssertionError",
                  r"easy +1 pt  ✔ passed", r"goal +1 pt  ✎ not written yet",
                  r"later +3 pt  · not run yet"):
        assert re.search(words, text), text
    assert "<table>" in cells[7].outputs[0].data["text/html"]


@pytest.mark.slow
def test_under_validate_a_failure_is_its_words_only(monkeypatch):
    cells = run_notebook("validate", monkeypatch)
    evalue, tb = error_of(cells[2])
    assert tb == f"NotImplementedError: {evalue}"
    assert len(tb.splitlines()) == 2


VERDICTS = r"""
import contextlib, io, json
from IPython.testing.globalipapp import start_ipython
from puzzlekit.testcells import messages as m
ip = start_ipython()
m.install(ip)
ip.run_cell("from puzzlekit.testcells import assert_equal, passed, Cases\n"
            "def findZero(S):\n    return (0, 0)\n", store_history=True)
said = []
for source in [
        "x = findZero(((1, 0), (2, 3)))\nassert_equal(x, (0, 1), 'findZero(S)')\npassed('findZero')",
        "c = Cases(2)\nwith c.case(1, 'a 2x2 board'):\n"
        "    assert_equal(findZero(((1, 0), (2, 3))), (0, 1), 'findZero')\npassed('findZero')",
        "def findZero(S):\n    return S[5][5]\n",
        "assert_equal(findZero(((1, 0), (2, 3))), (0, 1), 'findZero')\npassed('findZero')"]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        ip.run_cell(source, store_history=True)
    said.append(out.getvalue())
print(json.dumps(said))
"""


def test_a_test_cells_own_check_shows_its_verdict_first_and_partial_credit_as_such():
    import json
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-c", VERDICTS], capture_output=True, text=True,
                         timeout=120, check=True)
    checked, partial, _, crashed = (ANSI.sub("", s) for s in json.loads(run.stdout))
    assert checked.startswith("AssertionError: findZero(S)") and "Traceback" not in checked
    assert partial.startswith("◐ partly right, worth 1 point when graded: a 2x2 board")
    assert "PartlyRight" not in partial and "Traceback" not in partial
    # the student's own code failing in a test keeps its frames
    assert "Traceback" in crashed and "return S[5][5]" in crashed
