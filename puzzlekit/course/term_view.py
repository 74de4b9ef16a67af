"""What a student sees of the term: due dates in the notebook, marks next to their work.

nbgrader's Assignments list (its JupyterLab extension) draws a fixed set of fields from
nbgrader's exchange and offers no place to add one, so the kit shows a student's term in
two places they open anyway:

- **The due date, in the assignment's notebook.** The course's release
  (`puzzlekit.course.course_setup.CheckedReleaseAssignment`) puts a first cell into each released
  notebook: the due date from the gradebook and what lateness costs under the course's
  policy. The cell carries ``metadata.puzzlekit.due`` (ISO date, UTC).
- **The marks, in ``marks-<course>.html``** beside the student's assignment folders. The
  Assignments list's own Fetch and Fetch Feedback buttons refresh it when the student's
  nbgrader config names the kit's two classes (the class server's does):

      c.ExchangeFactory.fetch_assignment = "puzzlekit.course.term_view.FetchAssignment"
      c.ExchangeFactory.fetch_feedback = "puzzlekit.course.term_view.FetchFeedback"

  A row per released assignment: its due date (from the released notebooks, readable by
  every student), and once feedback is fetched, the mark, the late penalty and the
  feedback's late note (which names the student's extension). Marks come from the
  student's own feedback files, which only they can fetch: nothing private passes
  through a file another student can read.
"""

from __future__ import annotations

import datetime
import functools
import html
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: ``metadata.puzzlekit`` key of the due-date cell of a released notebook.
DUE_KEY = "due"

_SCORE = re.compile(r"\(Score: (-?[\d.]+) / ([\d.]+)\)</h4>")
_PENALTY = re.compile(r"Late submission penalty \(Score: -([\d.]+)\)")
_LATE_NOTE = re.compile(r"Submitted ([^<]*?) late(?:</strong>)? \((due [^)]*)\): ([^<]*?)\.")
_TAG = re.compile(r"<[^>]+>")


def policy_text(method: str, points_per_day: float | None = None,
                max_points: float | None = None) -> str:
    """What lateness costs, in a sentence, for a late policy ("none", "zero", "per_day")."""
    if method == "zero":
        return "Work handed in after it scores 0."
    if method == "per_day" and points_per_day:
        per = f"{points_per_day:g} point" + ("" if points_per_day == 1 else "s")
        cap = f", at most {max_points:g} in all" if max_points is not None else ""
        return f"Work handed in after it loses {per} for each day or part of a day{cap}."
    return "Work handed in after it is marked late but loses no points."


def due_note(duedate: datetime.datetime, policy: str) -> str:
    """The released notebook's first cell (markdown)."""
    return (f"**Due {duedate:%a %d %b %Y, %H:%M} UTC.** {policy} If you have an "
            f"extension, it counts from this date; your feedback will show it.")


def add_due_notes(folder: str | os.PathLike[str], duedate: datetime.datetime | None,
                  policy: str) -> int:
    """Put (or replace) the due-date cell at the top of each notebook in `folder`; with no
    due date, remove it. Returns the number of notebooks changed."""
    import nbformat
    changed = 0
    for path in sorted(Path(folder).glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cells = [c for c in nb.cells if DUE_KEY not in c.get("metadata", {}).get("puzzlekit", {})]
        if duedate is not None:
            cell = nbformat.v4.new_markdown_cell(due_note(duedate, policy))
            cell.metadata["puzzlekit"] = {DUE_KEY: f"{duedate:%Y-%m-%dT%H:%M:%S}Z"}
            cell.metadata["deletable"] = False
            cell.metadata["editable"] = False
            cells.insert(0, cell)
        if cells != nb.cells:
            nb.cells = cells
            nbformat.write(nb, path)
            changed += 1
    return changed


def late_policy_of(config: Any) -> str:
    """The sentence for the late policy a course's config sets (its late plugin, built from
    the config, as nbgrader's AssignLatePenalties builds it)."""
    from nbgrader.preprocessors import AssignLatePenalties
    from traitlets.utils.importstring import import_item
    plugin_class = AssignLatePenalties(config=config).plugin_class
    if isinstance(plugin_class, str):
        plugin_class = import_item(plugin_class)
    plugin = plugin_class(config=config)
    return policy_text(plugin.penalty_method, getattr(plugin, "points_per_day", None),
                       getattr(plugin, "max_points", None))


def released_due_date(folder: str | os.PathLike[str]) -> datetime.datetime | None:
    """The due date a release put into its notebooks (the first one that has it)."""
    for path in sorted(Path(folder).glob("*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError):
            continue
        for cell in cells[:3]:
            due = cell.get("metadata", {}).get("puzzlekit", {}).get(DUE_KEY)
            if isinstance(due, str):
                try:
                    return datetime.datetime.strptime(due, "%Y-%m-%dT%H:%M:%SZ")
                except ValueError:
                    return None
    return None


# ---------------------------------------------------------------------------- marks page

@dataclass(frozen=True)
class Mark:
    """A returned assignment, as its feedback files say: points after the late penalty."""
    submitted: str          #: when it was handed in, as nbgrader's timestamp says
    score: float            #: the points before the penalty
    max_score: float
    penalty: float
    late_note: str | None   #: "due ..., with your extension of 3 days: −2 points"

    @property
    def mark(self) -> float:
        return max(0.0, self.score - self.penalty)


def read_feedback(folder: str | os.PathLike[str]) -> Mark | None:
    """The mark in the newest feedback under ``<assignment>/feedback/`` (nbgrader writes
    ``feedback/<timestamp>/<notebook>.html``), summed over its notebooks."""
    stamps = sorted(p for p in Path(folder).glob("*") if p.is_dir() and any(p.glob("*.html")))
    if not stamps:
        return None
    newest = stamps[-1]
    score = max_score = penalty = 0.0
    notes = []
    for page in sorted(newest.glob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        found = _SCORE.search(text)
        if not found:
            continue
        score += float(found[1])
        max_score += float(found[2])
        late = _PENALTY.search(text)
        penalty += float(late[1]) if late else 0.0
        note = _LATE_NOTE.search(text)
        if note:
            notes.append(html.unescape(_TAG.sub("", f"{note[1]} late ({note[2]}): {note[3]}")))
    if not max_score:
        return None
    # nbgrader's header score is already after the penalty: give back the points before
    return Mark(_when(newest.name), score + penalty, max_score, penalty, "; ".join(notes) or None)


def _when(timestamp: str) -> str:
    """nbgrader's "2026-11-03 19:00:00.123456 UTC" as "Tue 03 Nov 2026, 19:00 UTC"."""
    try:
        when = datetime.datetime.strptime(timestamp.removesuffix(" UTC")[:19],
                                          "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return timestamp
    return f"{when:%a %d %b %Y, %H:%M} UTC"


def _points(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def marks_page(course_id: str, rows: list[tuple[str, datetime.datetime | None, Mark | None]],
               now: datetime.datetime | None = None) -> str:
    """The student's marks page: a row per assignment (name, due date, mark)."""
    now = now or datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    body = []
    for name, due, mark in rows:
        due_cell = f"{due:%a %d %b %Y, %H:%M} UTC" if due else "no due date"
        if mark is None:
            cells = [html.escape(due_cell), "—", "not returned yet", "—", ""]
        else:
            penalty = f"−{_points(mark.penalty)}" if mark.penalty else "none"
            cells = [html.escape(due_cell), html.escape(mark.submitted),
                     f"<strong>{_points(mark.mark)} / {_points(mark.max_score)}</strong>",
                     penalty, html.escape(mark.late_note or "")]
        body.append(f"<tr><th scope=\"row\">{html.escape(name)}</th>"
                    + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Your marks in {html.escape(course_id)}</title>
<style>
body {{ font-family: system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 1.5em; }}
.marks {{ overflow-x: auto; }}
.marks:focus {{ outline: 2px solid #1a1a1a; outline-offset: 2px; }}
table {{ border-collapse: collapse; }}
@media (max-width: 480px) {{ body {{ margin: .75em; }} th, td {{ padding: .3em .4em; }} }}
th, td {{ border: 1px solid #767676; padding: .4em .7em; text-align: left; }}
thead th {{ background: #e8e8e8; }}
p.small {{ color: #3d3d3d; }}
</style></head>
<body>
<h1>Your marks in {html.escape(course_id)}</h1>
<div class="marks" role="region" aria-label="Your marks" tabindex="0">
<table>
<caption>Each assignment, its due date and, once your feedback is fetched, your mark
(points after any late penalty). The feedback itself is in each assignment's
<code>feedback</code> folder.</caption>
<thead><tr><th scope="col">Assignment</th><th scope="col">Due</th>
<th scope="col">Handed in</th><th scope="col">Mark</th><th scope="col">Late penalty</th>
<th scope="col">Late work</th></tr></thead>
<tbody>
{chr(10).join(body)}
</tbody></table>
</div>
<p class="small">Updated {now:%a %d %b %Y, %H:%M} UTC, when you last fetched an assignment or
feedback in the Assignments list.</p>
</body></html>
"""


def write_marks_page(home: str | os.PathLike[str], exchange_root: str, course_id: str,
                     path_includes_course: bool = False) -> Path:
    """Write ``marks-<course_id>.html`` into `home` (the folder nbgrader fetches into):
    every assignment released in the exchange or fetched, with due dates and marks."""
    outbound = Path(exchange_root) / course_id / "outbound"
    work = Path(home) / course_id if path_includes_course else Path(home)
    names = {p.name for p in outbound.glob("*") if p.is_dir()} if outbound.is_dir() else set()
    names |= {p.parent.parent.name for p in work.glob("*/feedback/*")}
    rows = []
    for name in sorted(names):
        due = released_due_date(outbound / name) or released_due_date(work / name)
        rows.append((name, due, read_feedback(work / name / "feedback")))
    target = Path(home) / f"marks-{course_id}.html"
    target.write_text(marks_page(course_id, rows), encoding="utf-8")
    return target


@functools.cache
def _fetch_classes() -> tuple[type, type]:
    from .exchange_owners import CheckedFetchAssignment, CheckedFetchFeedback

    class _Marks:
        def write_marks(self: Any) -> None:
            try:
                page = write_marks_page(self.assignment_dir, self.root,
                                        self.coursedir.course_id, self.path_includes_course)
            except OSError as error:   # the page is a help: the fetch itself went through
                self.log.warning("could not write the marks page: %s", error)
            else:
                self.log.info("Your marks and due dates: %s", page)

    class FetchAssignment(CheckedFetchAssignment, _Marks):  # type: ignore[misc]
        """nbgrader's fetch (from the course instructor's release only:
        `puzzlekit.course.exchange_owners`), then the student's marks page (due dates) is
        refreshed."""

        def copy_files(self) -> None:
            super().copy_files()
            self.write_marks()

    class FetchFeedback(CheckedFetchFeedback, _Marks):  # type: ignore[misc]
        """nbgrader's fetch of feedback (from the instructor's folder only), then the
        student's marks page is refreshed."""

        def copy_files(self) -> None:
            super().copy_files()
            self.write_marks()

    return FetchAssignment, FetchFeedback


def __getattr__(name: str) -> Any:
    # nbgrader imports the classes by their dotted names; nbgrader is imported only then
    if name == "FetchAssignment":
        return _fetch_classes()[0]
    if name == "FetchFeedback":
        return _fetch_classes()[1]
    raise AttributeError(name)


__all__ = ["DUE_KEY", "FetchAssignment", "FetchFeedback", "Mark", "add_due_notes", "due_note",
           "late_policy_of", "marks_page", "policy_text", "read_feedback", "released_due_date",
           "write_marks_page"]
