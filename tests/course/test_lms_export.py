"""The LMS exports (puzzlekit.course.lms_export) of a small class, checked against the formats
Canvas's Gradebook import, Moodle's CSV grade import and Blackboard's Grade Center upload document (see the module's
docstring): their headers, a row per student of the roster, a column per assignment,
missing submissions as each wants them, numbers as they read them. The gradebook is made
with nbgrader's API; the files are written by ``nbgrader export --exporter=...``."""

from __future__ import annotations

import csv
import datetime
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
A1, A2 = "01-states-and-moves", "02-uninformed-search"

pytestmark = [pytest.mark.nbgrader,
              # nbgrader makes a submission row with autoflush on (as `puzzlekit extend` does)
              pytest.mark.filterwarnings("ignore:.*not in session")]


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """A course folder whose gradebook has two assignments (10 and 4 points, A2 due first)
    and four students: ann (both, A1 late by 2 points), bo (A1 only, 7.25 points), cy
    (nothing handed in, but an extension for A1), dee (no names, no email)."""
    pytest.importorskip("nbgrader")
    from nbgrader.api import Gradebook

    from puzzlekit.course.course_setup import environment_first_on_path
    environment_first_on_path()         # nbgrader stamps a new gradebook with its alembic
    root = tmp_path_factory.mktemp("lms") / "course"
    root.mkdir()
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", root)
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id="puzzlekit") as gb:
        gb.add_assignment(A1, duedate=datetime.datetime(2026, 11, 9, 17))
        gb.add_assignment(A2, duedate=datetime.datetime(2026, 11, 2, 17))
        for name, points in ((A1, (6, 4)), (A2, (4,))):
            gb.add_notebook(name, name)
            for i, p in enumerate(points):
                gb.add_grade_cell(f"t{i}", name, name, max_score=p, cell_type="code")
        gb.add_student("ann", first_name="Ann", last_name="O'Neil, Jr", email="ann@uni.example")
        gb.add_student("bo", first_name="Bo", last_name="Ek", email="bo@uni.example",
                       lms_user_id="4711")
        gb.add_student("cy", first_name="Cy", last_name="Young", email="")
        gb.add_student("dee")

        def hand_in(assignment: str, student: str, scores: list[float], late: float = 0):
            gb.add_submission(assignment, student,
                              timestamp=datetime.datetime(2026, 11, 1, 12))
            for i, s in enumerate(scores):
                gb.find_grade(f"t{i}", assignment, assignment, student).auto_score = s
            nb = gb.find_submission_notebook(assignment, assignment, student)
            nb.late_submission_penalty = late or None
            gb.db.commit()

        hand_in(A1, "ann", [6, 4], late=2)
        hand_in(A2, "ann", [4])
        hand_in(A1, "bo", [5.25, 2])
        hand_in(A1, "dee", [0, 0])
        gb.update_or_create_submission(A1, "cy")       # as `puzzlekit extend` makes it
        gb.grant_extension(A1, "cy", days=2)
    return root


def export(course: Path, exporter: str, *extra: str) -> list[list[str]]:
    dest = course / f"{exporter}.csv"
    done = subprocess.run([str(VENV_BIN / "nbgrader"), "export",
                           f"--exporter=puzzlekit.course.lms_export.{exporter}", f"--to={dest}",
                           *extra], cwd=course, capture_output=True, text=True, timeout=300,
                          env={"PATH": f"{VENV_BIN}:/usr/bin:/bin", "HOME": str(course.parent),
                               "PUZZLEKIT_EXCHANGE": str(course.parent / "exchange")})
    assert done.returncode == 0, done.stdout + done.stderr
    raw = dest.read_bytes()
    raw.decode("utf-8")                                 # UTF-8, as both LMSs want
    return list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))


def test_canvas_gradebook_import(course):
    rows = export(course, "CanvasExport")
    # Canvas's columns, then a column per assignment (the one due first, first)
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", A2, A1]
    # the Points Possible row of Canvas's own export: each assignment's maximum
    assert rows[1] == ["    Points Possible", "", "", "", "", "4", "10"]
    students = {r[3]: r for r in rows[2:]}
    assert len(rows) == 2 + 4 and set(students) == {"ann", "bo", "cy", "dee"}
    assert all(len(r) == len(rows[0]) for r in rows)
    # Student "Last, First"; ID is Canvas's user id when the roster has it
    assert students["ann"][:5] == ["O'Neil, Jr, Ann", "", "ann", "ann", ""]
    assert students["bo"][:3] == ["Ek, Bo", "4711", "bo"]
    assert students["dee"][0] == "dee"
    # marks: score minus late penalty; a missing submission empty (ungraded in Canvas)
    assert students["ann"][5:] == ["4", "8"]
    assert students["bo"][5:] == ["", "7.25"]
    assert students["cy"][5:] == ["", ""]              # an extension is not a submission
    assert students["dee"][5:] == ["", "0"]            # handed in, scored 0
    for r in rows[2:]:
        for cell in r[5:]:
            assert cell == "" or float(cell) >= 0 and "," not in cell


def test_moodle_grade_import(course):
    rows = export(course, "MoodleExport")
    assert rows[0] == ["Username", "ID number", "Email address", "First name", "Last name",
                       A2, A1]
    by_user = {r[0]: r for r in rows[1:]}
    assert len(rows) == 1 + 4 and set(by_user) == {"ann", "bo", "cy", "dee"}
    # Moodle stops the whole import at a row with an empty identifier: none here
    assert all(r[0] for r in rows[1:])
    assert by_user["bo"] == ["bo", "4711", "bo@uni.example", "Bo", "Ek", "", "7.25"]
    assert by_user["ann"][5:] == ["4", "8"]
    assert by_user["cy"][5:] == ["", ""]               # empty: no grade in Moodle
    # numbers as Moodle's unformat_float reads them: digits and a dot
    for r in rows[1:]:
        for cell in r[5:]:
            assert cell == "" or cell.replace(".", "", 1).isdigit()


def test_blackboard_grade_center_upload(course):
    """Blackboard's Grade Center upload: the Username identifies a student, a column's
    heading is its download's ("NAME [Total Pts: MAX Score]", with " |ID" for an existing
    column), and every value of a comma-delimited file is within quotation marks."""
    dest = course / "BlackboardExport.csv"
    rows = export(course, "BlackboardExport", f'--BlackboardExport.column_ids={{"{A1}": "123456"}}')
    assert rows[0] == ["Last Name", "First Name", "Username", "Student ID",
                       f"{A2} [Total Pts: 4 Score]", f"{A1} [Total Pts: 10 Score] |123456"]
    by_user = {r[2]: r for r in rows[1:]}
    assert len(rows) == 1 + 4 and set(by_user) == {"ann", "bo", "cy", "dee"}
    assert by_user["bo"] == ["Ek", "Bo", "bo", "4711", "", "7.25"]
    assert by_user["ann"][4:] == ["4", "8"] and by_user["cy"][4:] == ["", ""]
    for line in dest.read_text(encoding="utf-8").splitlines():
        assert line.startswith('"') and line.endswith('"'), line    # every value quoted
    from puzzlekit.course.lms_export import MarksTable, blackboard_rows
    from puzzlekit.errors import PuzzleError
    with pytest.raises(PuzzleError, match="Column ID is a number"):
        blackboard_rows(MarksTable([A1], {A1: 10}, []), column_ids={A1: "Quiz 1"})


def test_wide_csv_and_options(course):
    rows = export(course, "WideCsvExport")
    assert rows[0] == ["student_id", "last_name", "first_name", "email", A2, A1]
    assert [r[0] for r in rows[1:]] == ["ann", "bo", "cy", "dee"]
    # missing submissions are 0 here, as in nbgrader export
    assert {r[0]: r[4:] for r in rows[1:]} == {"ann": ["4", "8"], "bo": ["0", "7.25"],
                                               "cy": ["0", "0"], "dee": ["0", "0"]}
    # nbgrader's own --assignment/--student choices, and the plugin's own option
    rows = export(course, "CanvasExport", f"--assignment=['{A1}']", "--student=['bo','cy']",
                  "--CanvasExport.missing=0", "--CanvasExport.section=AI-101 Lab 1")
    assert rows[0][5:] == [A1] and [r[3] for r in rows[2:]] == ["bo", "cy"]
    assert rows[2][4:] == ["AI-101 Lab 1", "7.25"] and rows[3][5:] == ["0"]


def test_numbers_as_lms_read_them():
    from puzzlekit.course.lms_export import number
    assert [number(x) for x in (0, 21, 21.5, 7.25, 1 / 3, 2.005, 1e-9, 1234.5)] == \
        ["0", "21", "21.5", "7.25", "0.33", "2", "0", "1234.5"]
