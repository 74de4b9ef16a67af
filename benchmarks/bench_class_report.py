"""The class report's cost for a class of 40 and of 300 (``python -m benchmarks class_report``).

A made-up class of assignment 1 (its 13 graded test cells and points): each student
hands in (nine in ten), and at each exercise passes, or makes one of the mistakes the
kit names there, or fails with no named mistake, or stops writing; one in twenty is
graded by plain nbgrader (no mistakes recorded). The gradebook is made with nbgrader's
API and the graded notebooks are written as the kit's grader writes them. Measured: reading
the gradebook and every graded notebook, drawing the page (four pictures, two widths each),
writing both files; and the page's size.
"""

from __future__ import annotations

import datetime
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

ASSIGNMENT = "01-states-and-moves"
#: the graded test cells of assignment 1, their points, and the mistakes the kit names there
EXERCISES: list[tuple[str, int, tuple[str, ...]]] = [
    ("goal_tests", 1, ()),
    ("findZero_tests", 2, ("findZero-column-row",)),
    ("moveUp_tests", 2, ("blank-moved-not-tile", "wrap-around", "tile-copied")),
    ("moveDown_tests", 1, ("blank-moved-not-tile", "wrap-around")),
    ("moveLeft_tests", 1, ("wrap-around", "board-unchanged")),
    ("moveRight_tests", 1, ("wrap-around",)),
    ("nextStates_tests", 3, ("self-in-next-states", "move-missing", "board-listed-twice")),
    ("gen_successors_tests", 3, ("not-one-move", "past-the-edge")),
    ("gen_successors_bonus_tests", 1, ()),
    ("print_moves_tests", 2, ("tile-letters",)),
    ("print_pos_tests", 2, ("print-spacing",)),
    ("EightPuzzle_tests", 3, ("unhashable-class",)),
    ("LETTER_OF_tests", 1, ("tile-letters",)),
]
GOAL = [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
WRAPPED = [[1, 2, 0], [4, 5, 6], [7, 8, 3]]


def _cell(grade_id: str, record: dict[str, Any] | None) -> dict[str, Any]:
    meta: dict[str, Any] = {"nbgrader": {"grade": True, "solution": False, "grade_id": grade_id,
                                         "locked": True, "points": 1, "schema_version": 3}}
    if record is not None:
        meta["puzzlekit"] = record
    return {"cell_type": "code", "execution_count": 1, "metadata": meta, "outputs": [],
            "source": f"# {grade_id}"}


def make_class(root: Path, students: int, rng: random.Random) -> Path:
    """The course folder of a made-up class (see the module's docstring)."""
    from nbgrader.api import Gradebook

    from puzzlekit.course.course_setup import environment_first_on_path
    environment_first_on_path()
    root.mkdir(parents=True)
    (root / "nbgrader_config.py").write_text(
        "c = get_config()\nc.CourseDirectory.course_id = 'bench'\n")
    ids = [f"student{i:03d}" for i in range(students)]
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id="bench") as gb:
        due = datetime.datetime(2026, 10, 1, 17)
        for k, name in enumerate((ASSIGNMENT, "02-uninformed-search", "03-informed-search")):
            gb.add_assignment(name, duedate=due + datetime.timedelta(days=14 * k))
            gb.add_notebook(name, name)
        for grade_id, points, _ in EXERCISES:
            gb.add_grade_cell(grade_id, ASSIGNMENT, ASSIGNMENT, max_score=points,
                              cell_type="code")
        gb.add_grade_cell("search_tests", "02-uninformed-search", "02-uninformed-search",
                          max_score=10, cell_type="code")
        for s in ids:
            gb.add_student(s)
        for s in ids:
            if rng.random() < 0.8:
                gb.add_submission("02-uninformed-search", s)
                gb.find_grade("search_tests", "02-uninformed-search", "02-uninformed-search",
                              s).auto_score = rng.choice([4, 6, 8, 10])
            if rng.random() < 0.1:
                continue                                    # did not hand in
            gb.add_submission(ASSIGNMENT, s)
            judged = rng.random() >= 0.05
            stop = len(EXERCISES) if rng.random() > 0.06 else rng.randrange(1, 6)
            cells = []
            for k, (grade_id, points, named) in enumerate(EXERCISES):
                roll = rng.random()
                mistakes: list[dict[str, Any]] = []
                if k >= stop:
                    status, score = "not written", 0.0
                elif roll < 0.6 or (not named and roll < 0.8):
                    status, score = "passed", float(points)
                elif roll < 0.88 and named:
                    name = rng.choice(named[:2] if roll < 0.8 else named)
                    partly = points > 1 and rng.random() < 0.3
                    boards = ({"start": GOAL, "expected": GOAL, "got": WRAPPED}
                              if name == "wrap-around" else {})
                    mistakes = [{"name": name, "sentence": f"{grade_id}: {name} (the "
                                 "sentence the student was shown)", "boards": boards}]
                    status, score = ("partly right", points / 2) if partly else ("failed", 0.0)
                else:
                    status, score = "failed", 0.0
                gb.find_grade(grade_id, ASSIGNMENT, ASSIGNMENT, s).auto_score = score
                cells.append(_cell(grade_id, {"status": status, "mistakes": mistakes}
                                   if judged else None))
            meta: dict[str, Any] = {"puzzlekit": {"judged": True}} if judged else {}
            folder = root / "autograded" / s / ASSIGNMENT
            folder.mkdir(parents=True)
            (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(
                {"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}))
        gb.db.commit()
    return root


def config_of(root: Path) -> Any:
    from traitlets.config import Config
    c = Config()
    c.CourseDirectory.root = str(root)
    c.CourseDirectory.course_id = "bench"
    return c


def main() -> dict[str, Any]:
    from puzzlekit.course.class_report import ClassReport
    from puzzlekit.course.class_report.data import read_class
    from puzzlekit.course.class_report.page import render
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        render(read_class(config_of(make_class(Path(tmp) / "warm", 5, random.Random(1))),
                          ASSIGNMENT))               # imports (nbgrader, matplotlib) first
        for n in (40, 300):
            cfg = config_of(make_class(Path(tmp) / f"class{n}", n, random.Random(n)))
            t0 = time.perf_counter()
            data = read_class(cfg, ASSIGNMENT)
            t1 = time.perf_counter()
            page = render(data)
            t2 = time.perf_counter()
            files = ClassReport(data, config=cfg).write(Path(tmp) / f"out{n}")
            t3 = time.perf_counter()
            rows.append({"class": f"{n} students ({len(data.submissions)} handed in)",
                         "read (s)": t1 - t0, "draw (s)": t2 - t1, "write (s)": t3 - t2,
                         "seconds": t3 - t0, "page (KB)": round(len(page.encode()) / 1024),
                         "csv rows": files.csv.read_text().count("\n") - 1})
    return {"title": "Class report of assignment 1 (read, draw, write)", "rows": rows,
            "notes": ["one run; `write` draws the page again (with the CSV's link) and "
                      "writes both files"]}


if __name__ == "__main__":
    for row in main()["rows"]:
        print(row)
