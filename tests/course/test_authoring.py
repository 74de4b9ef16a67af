"""One place for a point, and regrading with the tests of today's source.

An exercise's points live in its test cell's nbgrader metadata only: generating the
assignment derives the score table, the "(N points)" notes, the line each test cell
reports with and the raises-exception tags (`puzzlekit.course.authoring.KitAuthoring`). A test
changed in ``source/`` since generate is refused by autograde, not silently replaced by
the gradebook's old copy (`RefuseStaleTests`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest

from puzzlekit.course.authoring import (
    exercise_label,
    notes_without_cells,
    points_notes,
    stale_cells,
    summary_points,
    with_kit_lines,
)

REPO = Path(__file__).parents[2]
A1 = "01-states-and-moves"
ASSIGNMENTS = sorted(p.name for p in (REPO / "notebooks" / "source").iterdir() if p.is_dir())


def cell(kind: str, source: str, **nbgrader: object) -> nbformat.NotebookNode:
    make = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
    c = make(source)
    if nbgrader:
        c.metadata["nbgrader"] = {"schema_version": 3, "grade": False, "solution": False,
                                  "locked": False, "task": False, **nbgrader}
    return c


def plain_notebook() -> nbformat.NotebookNode:
    """An exercise as nbgrader's docs teach it: no line of the kit's anywhere."""
    return nbformat.v4.new_notebook(cells=[
        cell("markdown", "## Exercise 1: squares (2 points)\n\nWrite `square(x)`."),
        cell("code", "def square(x):\n    ### BEGIN SOLUTION\n    return x * x\n"
                     "    ### END SOLUTION", grade_id="square_solution", solution=True),
        cell("code", "assert square(3) == 9", grade_id="square_tests", grade=True,
             locked=True, points=2),
        cell("markdown", "## Exercise 2: halves (1 point)"),
        cell("code", "def half(x):\n    ### BEGIN SOLUTION\n    return x / 2\n"
                     "    ### END SOLUTION", grade_id="half_solution", solution=True),
        cell("code", "score = 0\nif half(4) == 2:\n    score += 1\nscore",
             grade_id="half_tests", grade=True, locked=True, points=1),
        cell("markdown", "**Question (1 point).** Why?"),
        cell("markdown", "YOUR ANSWER", grade_id="why_answer", grade=True, solution=True,
             points=3),
        cell("code", "summary()", grade_id="summary", locked=True),
    ])


def test_a_plain_exercise_gets_the_kits_lines_from_its_metadata():
    nb = with_kit_lines(plain_notebook())
    square, half = nb.cells[2], nb.cells[5]
    assert square.source.endswith('from puzzlekit.testcells import passed\npassed("square")\n')
    # a cell whose last value is its score (nbgrader's partial credit) keeps that value
    assert half.source.startswith("# exercise: half\n") and half.source.endswith("score")
    assert exercise_label(half) == "half"
    for index in (1, 2, 4, 5):
        assert "raises-exception" in nb.cells[index].metadata["tags"]
    assert "tags" not in nb.cells[8].metadata or \
        "raises-exception" not in nb.cells[8].metadata["tags"]
    assert nb.cells[8].source == ('from puzzlekit.testcells import summary\n'
                                  'summary({"square": 2,\n         "half": 1})')
    # the note over a written answer says the answer's points (3), not what was typed
    assert "(3 points)" in nb.cells[6].source
    assert points_notes(plain_notebook()) == [(0, 2.0), (3, 1.0), (6, 3.0)]


def test_a_point_lives_in_one_place():
    source = plain_notebook()
    source.cells[2].metadata["nbgrader"]["points"] = 4
    nb = with_kit_lines(source)
    assert nb.cells[0].source.startswith("## Exercise 1: squares (4 points)")
    assert '"square": 4' in nb.cells[8].source
    source.cells[5].metadata["nbgrader"]["points"] = 1.5
    assert "(1.5 points)" in with_kit_lines(source).cells[3].source
    assert summary_points(source) == {"square": 4.0, "half": 1.5}


def test_a_note_that_introduces_no_graded_cell_is_left_alone():
    nb = plain_notebook()
    nb.cells.insert(0, cell("markdown", "Each exercise says its points, like this (2 points)."))
    nb.cells.insert(1, cell("markdown", "# The assignment"))
    assert notes_without_cells(nb) == [0]
    assert with_kit_lines(nb).cells[0].source == nb.cells[0].source


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_courses_own_notebooks_are_a_fixed_point(assignment):
    """The kit's notebooks already say what generate derives, except the score table,
    which their source leaves to generate; deriving twice changes nothing."""
    path = REPO / "notebooks" / "source" / assignment / f"{assignment}.ipynb"
    nb = nbformat.read(path, as_version=4)
    once = with_kit_lines(nb)
    assert with_kit_lines(once) == once
    changed = [i for i, (a, b) in enumerate(zip(nb.cells, once.cells))
               if a.source != b.source or a.metadata != b.metadata]
    summary = [i for i, c in enumerate(nb.cells)
               if c.metadata.get("nbgrader", {}).get("grade_id") == "summary"]
    assert changed == summary
    assert not notes_without_cells(nb)


def test_stale_cells_name_what_changed():
    nb = plain_notebook()
    generated = with_kit_lines(nb)
    stored = {c.metadata["nbgrader"]["grade_id"]: (c.source, c.metadata["nbgrader"].get("points"))
              for c in generated.cells
              if c.metadata.get("nbgrader", {}).get("grade") or
              c.metadata.get("nbgrader", {}).get("locked")}
    assert stale_cells(nb, stored) == []
    nb.cells[2].source = "assert square(3) == 9\nassert square(-2) == 4"
    nb.cells[5].metadata["nbgrader"]["points"] = 2
    assert stale_cells(nb, stored) == ["square_tests: its code", "half_tests: points 1 -> 2"]


# ---------------------------------------------------------------------------
# through nbgrader: generate, autograde, generate again

def course_api(root: Path):
    """nbgrader's API for the course at `root`, through its own nbgrader_config.py."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.CourseDirectory.root = str(root)
    config.NbGraderAPI.timezone = "UTC"
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


@pytest.fixture()
def course(tmp_path):
    pytest.importorskip("nbgrader")
    root = tmp_path / "course"
    (root / "source").mkdir(parents=True)
    shutil.copytree(REPO / "notebooks" / "source" / A1, root / "source" / A1)
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", root)
    return root, lambda: course_api(root)


def _set_points(path: Path, grade_id: str, points: int) -> None:
    raw = json.loads(path.read_text(encoding="utf-8"))
    for c in raw["cells"]:
        if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id:
            c["metadata"]["nbgrader"]["points"] = points
    path.write_text(json.dumps(raw, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


@pytest.mark.nbgrader
def test_generate_derives_the_students_copy_from_the_metadata(course):
    root, api = course
    source = root / "source" / A1 / f"{A1}.ipynb"
    _set_points(source, "moveDown_tests", 3)
    result = api().generate_assignment(A1)
    assert result["success"], result["log"]
    release = nbformat.read(root / "release" / A1 / f"{A1}.ipynb", as_version=4)
    text = "\n".join(c.source for c in release.cells)
    assert "## Exercise 4: `moveDown` (3 points)" in text
    summary = next(c for c in release.cells
                   if c.metadata.get("nbgrader", {}).get("grade_id") == "summary")
    assert '"moveDown": 3' in summary.source and '"goal": 1' in summary.source
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        nb = gb.find_notebook(A1, A1)
        assert {c.name: c.max_score for c in nb.grade_cells}["moveDown_tests"] == 3


@pytest.mark.nbgrader
def test_a_test_fixed_in_source_is_never_graded_with_its_old_copy(course):
    from nbgrader.api import Gradebook
    root, api = course
    source = root / "source" / A1 / f"{A1}.ipynb"
    assert api().generate_assignment(A1)["success"]
    submitted = root / "submitted" / "alice" / A1
    submitted.mkdir(parents=True)
    shutil.copy(root / "release" / A1 / f"{A1}.ipynb", submitted)
    (submitted / "timestamp.txt").write_text("2026-01-15 10:00:00.000000 UTC")

    _set_points(source, "goal_tests", 2)        # the instructor changes a test's points
    result = api().autograde(A1, "alice")
    assert not result["success"]
    said = result.get("error", "") + result.get("log", "")
    assert "goal_tests: points 1 -> 2" in " ".join(said.split())
    assert f"nbgrader generate_assignment {A1} --force" in said
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        assert not gb.find_assignment(A1).submissions or \
            gb.find_submission(A1, "alice").score == 0

    assert api().generate_assignment(A1, force=True)["success"]
    result = api().autograde(A1, "alice", force=True)
    assert result["success"], result["log"]
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        sub = gb.find_submission_notebook(A1, A1, "alice")
        assert sub.max_score == 28


# ---------------------------------------------------------------------------
# the model solution is graded before a release is written

def _replace_in_cell(path: Path, grade_id: str, old: str, new: str) -> None:
    raw = json.loads(path.read_text(encoding="utf-8"))
    for c in raw["cells"]:
        if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id:
            text = "".join(c["source"])
            assert old in text, (grade_id, old)
            c["source"] = text.replace(old, new)
    path.write_text(json.dumps(raw, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


@pytest.mark.nbgrader
def test_generate_refuses_a_test_the_model_solution_fails(course):
    root, api = course
    source = root / "source" / A1 / f"{A1}.ipynb"
    # a slip an author makes: the expected blank position of the goal typed wrong
    _replace_in_cell(source, "findZero_tests", "(2, 2)", "(2, 1)")
    result = api().generate_assignment(A1)
    assert not result["success"]
    said = " ".join((result.get("error", "") + result.get("log", "")).split())
    assert "the model solution does not pass its own tests" in said
    assert "test cell findZero_tests" in said and "earns 0 of 2 points" in said
    assert "(2, 1)" in said        # the line, as the author wrote it
    assert not (root / "release" / A1 / f"{A1}.ipynb").exists()


@pytest.mark.nbgrader
def test_check_tests_grades_the_model_solution_without_generating(course, capsys):
    from puzzlekit.cli import main
    root, _ = course
    assert main(["check-tests", A1, "--course-root", str(root)]) == 0
    out = capsys.readouterr().out
    assert "✔ findZero_tests: 2 of 2" in out and f"{A1}: all tests pass" in out
    assert not (root / "release").exists()
    source = root / "source" / A1 / f"{A1}.ipynb"
    _replace_in_cell(source, "findZero_tests", "(2, 2)", "(2, 1)")
    assert main(["check-tests", A1, "--course-root", str(root)]) == 1
    captured = capsys.readouterr()
    assert "✘ findZero_tests: 0 of 2" in captured.out and "NOT READY" in captured.out
    assert "Fix the test or the solution in source/" in captured.err


@pytest.mark.nbgrader
def test_the_class_grader_refuses_stale_tests_before_any_submission(course):
    from puzzlekit.course.workers import grade_class
    from puzzlekit.errors import PuzzleError
    root, api = course
    assert api().generate_assignment(A1)["success"]
    _set_points(root / "source" / A1 / f"{A1}.ipynb", "moveUp_tests", 3)
    with pytest.raises(PuzzleError, match="moveUp_tests: points 2 -> 3"):
        grade_class(A1, root, workers=1, progress="quiet")
