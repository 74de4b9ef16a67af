"""What the class got wrong: ``python -m puzzlekit class-report ASSIGNMENT``.

For a graded assignment, one HTML page an instructor would rather look at than read, and a
CSV (``grade_id, mistake, students, points_lost``), written beside the course
(``<course root>/class-reports/``, where JupyterLab's file browser shows them):

- the named mistakes ranked by how many students made them, each with what to teach
  again and the boards of its most common example, drawn as the kit draws boards;
- the score distribution per exercise;
- the exercises where students lost points with no named mistake (where a new diagnosis
  would help);
- who did not hand in and who got stuck early;
- the term's assignments in due-date order: mean and median score, how many handed in.

From a notebook::

    from puzzlekit.course.class_report import class_report
    report = class_report("01-states-and-moves", "/path/to/notebooks")
    report                     # the page, in the notebook
    report.write()             # class-reports/class-report-01-states-and-moves.html, .csv

The page names no student unless asked (``names=True``, ``--names``): it can be shown to
the class. `watch` (``--watch``) writes it again whenever a graded notebook or the
gradebook changes, for a live view during a lab session.

Rooms: `data` (the gradebook and the graded notebooks, read as untrusted, into plain
dataclasses), `tally` (the counts and the CSV), `charts` (matplotlib, SVG), `page` (the
HTML), `watch` (the loop).
"""

from __future__ import annotations

import html
import logging
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .data import ClassData, read_class
from .tally import CSV_HEADER, csv_text
from .watch import watch

OUT_DIR = "class-reports"          #: the report's folder, in the course root


@dataclass(frozen=True)
class ReportFiles:
    """Where a report was written."""
    html: Path
    csv: Path


def report_config(course_root: str | os.PathLike[str], config: Any | None) -> Any:
    if config is not None:
        return config
    from ..workers import course_config
    return course_config(course_root)


def file_stem(assignment: str) -> str:
    """The report's file name without its extension: ``class-report-<assignment>``."""
    return "class-report-" + re.sub(r"[^\w.-]", "_", assignment).lstrip(".")


def default_out(config: Any) -> Path:
    """``<course root>/class-reports``."""
    from nbgrader.coursedir import CourseDirectory
    return Path(CourseDirectory(config=config).root) / OUT_DIR


@dataclass
class ClassReport:
    """A class report of one assignment: its data, the page and the CSV."""
    data: ClassData
    names: bool = False
    config: Any = None

    def html(self, *, csv_name: str | None = None, live_seconds: float | None = None) -> str:
        """The page (see `puzzlekit.course.class_report.page.render`)."""
        from .page import render
        return render(self.data, names=self.names, csv_name=csv_name,
                      live_seconds=live_seconds)

    def csv(self) -> str:
        """The CSV: ``grade_id, mistake, students, points_lost``."""
        return csv_text(self.data)

    def write(self, out: str | os.PathLike[str] | None = None, *,
              live_seconds: float | None = None) -> ReportFiles:
        """Write the page and the CSV into `out` (default: ``<course root>/class-reports``),
        each replaced at once (a reader never sees half a page); with names, readable by
        their owner only, else as the umask allows."""
        folder = Path(out) if out is not None else default_out(self.config)
        folder.mkdir(parents=True, exist_ok=True)
        stem = file_stem(self.data.assignment)
        page, table = folder / f"{stem}.html", folder / f"{stem}.csv"
        _replace(table, self.csv(), self.names)
        _replace(page, self.html(csv_name=table.name, live_seconds=live_seconds), self.names)
        return ReportFiles(page, table)

    def _repr_html_(self) -> str:
        # the page in a frame of its own: its styles stay off the notebook's
        return (f'<iframe title="{html.escape("Class report: " + self.data.assignment)}" '
                f'srcdoc="{html.escape(self.html())}" style="width: 100%; height: 80vh; '
                f'border: 1px solid #767676"></iframe>')


def _replace(path: Path, text: str, private: bool) -> None:
    """Write `text` to a new file beside `path` and put it in its place: readable as the
    umask allows, or by its owner only (`private`)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o666)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def class_report(assignment: str, course_root: str | os.PathLike[str] = ".", *,
                 names: bool = False, config: Any | None = None) -> ClassReport:
    """Read `assignment` of the course at `course_root` (or of nbgrader's `config`, as
    `puzzlekit.course.workers.course_config` loads it) into a `ClassReport`."""
    cfg = report_config(course_root, config)
    return ClassReport(read_class(cfg, assignment), names, cfg)


def write_report(assignment: str, course_root: str | os.PathLike[str] = ".", *,
                 out: str | os.PathLike[str] | None = None, names: bool = False,
                 config: Any | None = None) -> ReportFiles:
    """`class_report` and write it (see `ClassReport.write`)."""
    return class_report(assignment, course_root, names=names, config=config).write(out)


LOG = logging.getLogger("puzzlekit.course.class_report")

__all__ = ["CSV_HEADER", "OUT_DIR", "ClassData", "ClassReport", "ReportFiles", "class_report",
           "default_out", "file_stem", "read_class", "watch", "write_report"]
