"""Grades where the university wants them: nbgrader export plugins for a wide CSV, Canvas's
gradebook import, Moodle's grade import and Blackboard's Grade Center upload.

    nbgrader export --exporter=puzzlekit.course.lms_export.WideCsvExport --to=grades-wide.csv
    nbgrader export --exporter=puzzlekit.course.lms_export.CanvasExport  --to=canvas.csv
    nbgrader export --exporter=puzzlekit.course.lms_export.MoodleExport  --to=moodle.csv
    nbgrader export --exporter=puzzlekit.course.lms_export.BlackboardExport --to=bb.csv

(or ``c.ExportApp.plugin_class = "puzzlekit.course.lms_export.CanvasExport"`` in the course's
config). nbgrader's own ``nbgrader export`` writes a row per student *and assignment*;
these write a row per student and a column per assignment, as the gradebook imports want.
Every student of the roster (nbgrader's student table) has a row, whether they submitted
or not; an assignment's mark is nbgrader's: the submission's score minus its late penalty
(never below 0), the same number ``nbgrader export`` puts in its ``score`` column.
Numbers are written as both LMSs read them: a dot for decimals, at most two places, no
thousands separator ("21", "21.5"). Each file is UTF-8 with a header row.

The formats (their public documentation):

- **Canvas** (Instructure's Gradebook import, Grades > Import; the format is that of
  Canvas's own Gradebook export, "How do I import grades in the Gradebook?" in the Canvas
  Instructor Guide; as described by Ohio State's guide
  https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades
  and VCU's https://ts.vcu.edu/askit/teaching-and-learning/canvas/faculty/grading-faculty/gradebook-action-menu-faculty/;
  not tried against a live Canvas):
  the columns ``Student`` ("Last, First"), ``ID`` (Canvas's user id), ``SIS User ID``,
  ``SIS Login ID``, ``Section``, then one column per assignment; Canvas matches a row by
  one of Student name, ID or SIS User ID, with the SIS Login ID; a column whose name is
  not yet an assignment becomes a new one. The second row, ``Points Possible``, gives each
  assignment's maximum, as in Canvas's export. Roster mapping: Student <- last_name,
  first_name; ID <- the roster's ``lms_user_id`` (empty when unknown); SIS User ID and
  SIS Login ID <- the nbgrader student id (the university login the class server uses).
  A missing submission is left empty (Canvas then shows it ungraded, and its own missing
  submission policy applies); ``--CanvasExport.missing=0`` writes 0 instead.
- **Moodle** (Grades > Import > CSV file, https://docs.moodle.org/en/Grade_import: "the
  import file format is the same as the corresponding export format"; the user is
  identified by the column chosen in "Map from", matched against "Map to" = username,
  useridnumber, useremail or userid; a grade cell that is empty or ``-`` means no grade;
  a row whose identifier is empty stops the whole import, so every row here has one):
  the columns ``Username`` (<- nbgrader student id), ``ID number`` (<- the roster's
  ``lms_user_id``, empty when unknown), ``Email address`` (<- email), ``First name``,
  ``Last name``, then one column per assignment. Map from "Username" to "username" (or
  "Email address" to "useremail" when every student's email is in the roster). A missing
  submission is left empty (no grade); ``--MoodleExport.missing=0`` writes 0.
- **Blackboard** (Learn's Grade Center, Work Offline > Upload; Blackboard's help,
  "Uploading or Downloading Grade Center Items for Working Offline": a student is
  identified by the Username, a column by its Column ID; a column without one becomes a
  new column, added as a text column with 0 points possible, which the instructor then
  edits; in a comma-delimited file every value is within quotation marks): the columns
  ``Last Name``, ``First Name``, ``Username`` (<- nbgrader student id), ``Student ID``
  (<- the roster's ``lms_user_id``), then one column per assignment headed as Blackboard's
  own download heads it, ``NAME [Total Pts: MAX Score]``, followed by `` |ID`` when
  ``--BlackboardExport.column_ids`` maps the assignment to its Column ID (the Grade
  Center's Quick Column Information shows it), so the upload fills the existing column.
  A missing submission is left empty; ``--BlackboardExport.missing=0`` writes 0.
- **Wide CSV** (any spreadsheet): ``student_id``, ``last_name``, ``first_name``,
  ``email``, then one column per assignment; a missing submission is 0, as in
  ``nbgrader export``.

Assignments are in the order of their due dates (those without one last), then by name.
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import PuzzleError
from .csv_cells import inert_rows


@dataclass
class StudentMarks:
    """One student of the roster and their mark (None: no submission) per assignment."""
    id: str
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    lms_user_id: str = ""
    marks: dict[str, float | None] = field(default_factory=dict)


@dataclass
class MarksTable:
    """The course's marks: the assignments (in order), their maxima, and the students."""
    assignments: list[str]
    max_scores: dict[str, float]
    students: list[StudentMarks]


def number(x: float) -> str:
    """A mark as LMSs read it: a dot, at most two decimals, no trailing zeros."""
    text = f"{round(x, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def marks_table(gradebook: Any, assignments: Sequence[str] = (),
                students: Sequence[str] = ()) -> MarksTable:
    """Read every student's mark per assignment from an open nbgrader ``Gradebook``
    (optionally only some `assignments` and `students`)."""
    from nbgrader.api import MissingEntry
    far = datetime.datetime.max
    chosen = [a for a in gradebook.assignments if not assignments or a.name in assignments]
    unknown = set(assignments) - {a.name for a in chosen}
    if unknown:
        raise PuzzleError(f"no assignment {', '.join(sorted(unknown))} in the gradebook")
    chosen.sort(key=lambda a: (a.duedate or far, a.name))
    table = MarksTable([a.name for a in chosen], {a.name: float(a.max_score) for a in chosen},
                       [])
    for st in sorted(gradebook.students, key=lambda s: s.id):
        if students and st.id not in students:
            continue
        row = StudentMarks(st.id, st.first_name or "", st.last_name or "", st.email or "",
                           str(st.lms_user_id or ""))
        for a in chosen:
            try:
                sub = gradebook.find_submission(a.name, st.id)
            except MissingEntry:
                row.marks[a.name] = None
                continue
            if not _graded(sub):
                row.marks[a.name] = None     # e.g. only an extension's row: not handed in
                continue
            penalty = sub.late_submission_penalty or 0.0
            row.marks[a.name] = max(0.0, float(sub.score) - float(penalty))
        table.students.append(row)
    return table


def _graded(sub: Any) -> bool:
    """True if any of the submission's notebooks was graded (autograde ran on it)."""
    return any(g.auto_score is not None or g.manual_score is not None
               for nb in sub.notebooks for g in nb.grades)


def _mark(x: float | None, missing: str) -> str:
    return missing if x is None else number(x)


def wide_rows(table: MarksTable, missing: str = "0") -> list[list[str]]:
    """The wide CSV: a header and a row per student."""
    rows = [["student_id", "last_name", "first_name", "email", *table.assignments]]
    for s in table.students:
        rows.append([s.id, s.last_name, s.first_name, s.email,
                     *(_mark(s.marks[a], missing) for a in table.assignments)])
    return rows


#: Canvas's Gradebook columns before the assignments, and its points-possible row's label.
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
CANVAS_POINTS_POSSIBLE = "    Points Possible"


def canvas_name(s: StudentMarks) -> str:
    """Canvas's "Last, First" (the id when the roster has no names)."""
    if s.last_name and s.first_name:
        return f"{s.last_name}, {s.first_name}"
    return s.last_name or s.first_name or s.id


def canvas_rows(table: MarksTable, missing: str = "", section: str = "") -> list[list[str]]:
    """Canvas's Gradebook import: header, Points Possible, a row per student."""
    rows = [[*CANVAS_COLUMNS, *table.assignments],
            [CANVAS_POINTS_POSSIBLE, "", "", "", "",
             *(number(table.max_scores[a]) for a in table.assignments)]]
    for s in table.students:
        rows.append([canvas_name(s), s.lms_user_id, s.id, s.id, section,
                     *(_mark(s.marks[a], missing) for a in table.assignments)])
    return rows


#: Moodle's user columns (as its grade export names them) before the grade items.
MOODLE_COLUMNS = ("Username", "ID number", "Email address", "First name", "Last name")


def moodle_rows(table: MarksTable, missing: str = "") -> list[list[str]]:
    """Moodle's CSV grade import: header and a row per student (identified by Username)."""
    rows = [[*MOODLE_COLUMNS, *table.assignments]]
    for s in table.students:
        if not s.id:
            raise PuzzleError("a student without an id: Moodle stops the whole import at a "
                              "row without its user")
        rows.append([s.id, s.lms_user_id, s.email, s.first_name, s.last_name,
                     *(_mark(s.marks[a], missing) for a in table.assignments)])
    return rows


#: Blackboard's Grade Center columns before the grade columns.
BLACKBOARD_COLUMNS = ("Last Name", "First Name", "Username", "Student ID")


def blackboard_heading(assignment: str, max_score: float, column_id: str = "") -> str:
    """A grade column's heading as Blackboard's Grade Center download writes it."""
    heading = f"{assignment} [Total Pts: {number(max_score)} Score]"
    return f"{heading} |{column_id}" if column_id else heading


def blackboard_rows(table: MarksTable, missing: str = "",
                    column_ids: dict[str, str] | None = None) -> list[list[str]]:
    """Blackboard's Grade Center upload: header and a row per student (by Username)."""
    ids = column_ids or {}
    bad = {a: i for a, i in ids.items() if not str(i).strip().isdigit()}
    if bad:
        raise PuzzleError(f"a Blackboard Column ID is a number (Quick Column Information "
                          f"shows it), not {bad}")
    rows = [[*BLACKBOARD_COLUMNS, *(blackboard_heading(a, table.max_scores[a],
                                                       str(ids.get(a, "")).strip())
                                    for a in table.assignments)]]
    for s in table.students:
        if not s.id:
            raise PuzzleError("a student without an id: Blackboard matches a row by its "
                              "Username")
        rows.append([s.last_name, s.first_name, s.id, s.lms_user_id,
                     *(_mark(s.marks[a], missing) for a in table.assignments)])
    return rows


def csv_text(rows: Iterable[Sequence[str]], quote_all: bool = False) -> str:
    """Rows as CSV text (quoted where needed, or every value with `quote_all`; \\r\\n
    line ends as RFC 4180 has them); no cell a spreadsheet would run (`inert`)."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL)
    writer.writerows(inert_rows(rows))     # a name like =HYPERLINK(...) stays text
    return out.getvalue()


@functools.cache
def _plugins() -> dict[str, type]:
    from nbgrader.plugins import ExportPlugin
    from traitlets import Dict, Unicode

    class _WideExport(ExportPlugin):  # type: ignore[misc]
        default_to = "grades.csv"
        quote_all = False
        missing = Unicode("0", help="What a missing submission is written as.").tag(
            config=True)

        def rows(self, table: MarksTable) -> list[list[str]]:
            raise NotImplementedError

        def export(self, gradebook: Any) -> None:
            dest = self.to or self.default_to
            table = marks_table(gradebook, [str(a) for a in self.assignment],
                                [str(s) for s in self.student])
            self.log.info("Exporting %d students x %d assignments to %s",
                          len(table.students), len(table.assignments), dest)
            with open(dest, "w", encoding="utf-8", newline="") as fh:
                fh.write(csv_text(self.rows(table), self.quote_all))

    class WideCsvExport(_WideExport):
        """A row per student, a column per assignment (missing: 0)."""
        default_to = "grades-wide.csv"

        def rows(self, table: MarksTable) -> list[list[str]]:
            return wide_rows(table, self.missing)

    class CanvasExport(_WideExport):
        """Canvas's Gradebook import CSV (missing: empty)."""
        default_to = "canvas-grades.csv"
        missing = Unicode("", help="What a missing submission is written as.").tag(
            config=True)
        section = Unicode("", help="The Section column (Canvas may leave it empty).").tag(
            config=True)

        def rows(self, table: MarksTable) -> list[list[str]]:
            return canvas_rows(table, self.missing, self.section)

    class MoodleExport(_WideExport):
        """Moodle's CSV grade import (missing: empty)."""
        default_to = "moodle-grades.csv"
        missing = Unicode("", help="What a missing submission is written as.").tag(
            config=True)

        def rows(self, table: MarksTable) -> list[list[str]]:
            return moodle_rows(table, self.missing)

    class BlackboardExport(_WideExport):
        """Blackboard's Grade Center upload CSV (missing: empty; every value quoted)."""
        default_to = "blackboard-grades.csv"
        quote_all = True
        missing = Unicode("", help="What a missing submission is written as.").tag(
            config=True)
        column_ids = Dict(key_trait=Unicode(), value_trait=Unicode(), help=(
            "Assignment -> the Grade Center's Column ID, so the upload fills that column "
            "(without one, Blackboard adds a new text column)")).tag(config=True)

        def rows(self, table: MarksTable) -> list[list[str]]:
            return blackboard_rows(table, self.missing, dict(self.column_ids))

    return {"WideCsvExport": WideCsvExport, "CanvasExport": CanvasExport,
            "MoodleExport": MoodleExport, "BlackboardExport": BlackboardExport}


def __getattr__(name: str) -> Any:
    # nbgrader imports the plugin by its dotted name; nbgrader is imported only then.
    plugins = _plugins()
    if name in plugins:
        return plugins[name]
    raise AttributeError(name)


__all__ = ["BlackboardExport", "CanvasExport", "MarksTable", "MoodleExport", "StudentMarks",
           "WideCsvExport", "blackboard_heading", "blackboard_rows", "canvas_rows", "csv_text",
           "marks_table", "moodle_rows", "number", "wide_rows"]
