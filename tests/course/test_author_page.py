"""The guide's page for authors (docs/how-to/add-an-exercise.md), followed literally.

The page adds a 3-point exercise (greedy best-first search) to assignment 03 as plain
nbgrader cells; its cells are the blocks marked ``<!-- author-test: NAME -->`` in
docs/how-to/add-an-exercise.md. This test puts them into a copy of the course, generates the
assignment through the course's config (which grades the model solution first), then
autogrades a right answer and the page's simulated wrong one, and reads the gradebook.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from guide_pages import marked_blocks

REPO = Path(__file__).resolve().parents[2]
A3 = "03-informed-search"

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]


def page_blocks() -> dict[str, str]:
    return marked_blocks("author-test", "markdown|python")


def nbgrader_cell(make, source: str, **meta: object) -> nbformat.NotebookNode:
    cell = make(source.rstrip("\n"))
    cell.metadata["nbgrader"] = {"schema_version": 3, "grade": False, "solution": False,
                                 "locked": False, "task": False, **meta}
    return cell


def submit(root: Path, assignment: str, student: str, release: Path,
           answers: dict[str, str]) -> None:
    """Hand in `release` as `student`, each answer cell (by grade id) as in `answers`."""
    mine = nbformat.read(release, as_version=4)
    for cell in mine.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in answers:
            cell.source = answers[gid]
    folder = root / "submitted" / student / assignment
    folder.mkdir(parents=True)
    nbformat.write(mine, folder / f"{assignment}.ipynb")
    (folder / "timestamp.txt").write_text("2026-01-15 10:00:00.000000 UTC")


def auto_scores(root: Path, assignment: str, student: str) -> dict[str, float]:
    """The autograded score of every cell of the student's notebook, from the gradebook."""
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        sub = gb.find_submission_notebook(assignment, assignment, student)
        return {g.name: g.auto_score for g in sub.grades if g.auto_score is not None}


def test_the_page_marks_its_cells():
    assert set(page_blocks()) == {"greedy_intro", "greedy_solution", "greedy_tests",
                                  "students"}


def test_an_exercise_written_as_the_page_says_grades_right_and_wrong_answers(tmp_path):
    pytest.importorskip("nbgrader")
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    blocks = page_blocks()
    root = tmp_path / "course"
    shutil.copytree(REPO / "notebooks" / "source" / A3, root / "source" / A3)
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", root)
    path = root / "source" / A3 / f"{A3}.ipynb"
    nb = nbformat.read(path, as_version=4)
    after = next(i for i, c in enumerate(nb.cells)
                 if c.metadata.get("nbgrader", {}).get("grade_id") == "astar_more_tests")
    nb.cells[after + 1:after + 1] = [
        nbformat.v4.new_markdown_cell(blocks["greedy_intro"].rstrip("\n")),
        nbgrader_cell(nbformat.v4.new_code_cell, blocks["greedy_solution"],
                      grade_id="greedy_solution", solution=True),
        nbgrader_cell(nbformat.v4.new_code_cell, blocks["greedy_tests"],
                      grade_id="greedy_tests", grade=True, locked=True, points=3),
    ]
    nbformat.write(nb, path)

    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.CourseDirectory.root = str(root)
    config.NbGraderAPI.timezone = "UTC"
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    result = api.generate_assignment(A3)
    assert result["success"], result.get("error") or result["log"]
    release = nbformat.read(root / "release" / A3 / f"{A3}.ipynb", as_version=4)
    text = "\n".join(c.source for c in release.cells)
    assert "## 2b. Greedy best-first search (3 points)" in text
    assert '"greedy": 3' in text and 'passed("greedy")' in text
    assert "BEGIN HIDDEN TESTS" not in text and "heapq.heappop(frontier)" not in text

    page: dict = {"STUDENTS": {}, "LOSES": {}}
    exec(blocks["students"], page)           # the page's simulated student
    (wrong_name, replacements), = page["STUDENTS"].items()
    solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in nb.cells
                 if c.metadata.get("nbgrader", {}).get("solution") and c.cell_type == "code"}
    students = {"right": solutions, wrong_name: {**solutions, **replacements}}
    for student, answers in students.items():
        submit(root, A3, student, root / "release" / A3 / f"{A3}.ipynb", answers)
        assert api.autograde(A3, student)["success"]
    right, wrong = auto_scores(root, A3, "right"), auto_scores(root, A3, wrong_name)
    worth = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
             for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")
             and c.cell_type == "code"}
    right = {k: v for k, v in right.items() if k in worth}
    wrong = {k: v for k, v in wrong.items() if k in worth}
    assert right == worth
    lost = page["LOSES"][wrong_name]
    assert wrong == {cell: points - lost.get(cell, 0) for cell, points in worth.items()}
