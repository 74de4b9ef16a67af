"""Late work as a course policy: a penalty per day late up to a cap, extensions, and a
line in the feedback that says what lateness cost.

The policy is chosen in the course's ``nbgrader_config.py`` and applied by nbgrader's own
``AssignLatePenalties`` step of ``Autograde``; ``nbgrader autograde``, the formgrader and
``python -m puzzlekit grade`` all run that converter, so they apply it identically:

    c.AssignLatePenalties.plugin_class = "puzzlekit.course.late.PerDayPenalty"
    c.LateSubmissionPlugin.penalty_method = "per_day"   # or "none", "zero"
    c.PerDayPenalty.points_per_day = 1.0                # for each day or part of a day
    c.PerDayPenalty.max_points = 5.0                    # never more than this (per notebook)

`PerDayPenalty` is nbgrader's ``LateSubmissionPlugin`` with one more method: "none" and
"zero" keep nbgrader's meaning (and ``--LateSubmissionPlugin.penalty_method=zero`` on a
command line still works); "per_day" takes ``points_per_day`` for each started day (24 h)
after the due date, at most ``max_points``. As everywhere in nbgrader, the penalty is set
per notebook and never exceeds the notebook's score.

Lateness is nbgrader's: the submission's timestamp against the assignment's due date plus
the student's extension (`grant_extension`, which uses ``Gradebook.grant_extension``;
``python -m puzzlekit extend``). `LateNote` puts the verdict at the top of the feedback:
"Submitted 26 h late (due ...): -2 points."
"""

from __future__ import annotations

import datetime
import functools
import math
import warnings
from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleError

DAY = 86400.0
#: The methods `PerDayPenalty` knows: nbgrader's two and the kit's.
PENALTY_METHODS = ("none", "zero", "per_day")


def per_day_penalty(seconds_late: float, points_per_day: float, max_points: float | None,
                    score: float) -> float:
    """``points_per_day`` for each started day late, at most ``max_points`` and the score."""
    if seconds_late <= 0 or points_per_day <= 0:
        return 0.0
    penalty = points_per_day * math.ceil(seconds_late / DAY)
    if max_points is not None:
        penalty = min(penalty, max_points)
    return max(0.0, min(penalty, score))


@functools.cache
def _plugin() -> type:
    from nbgrader.plugins import LateSubmissionPlugin
    from traitlets import Enum, Float

    class PerDayPenalty(LateSubmissionPlugin):  # type: ignore[misc]
        """nbgrader's late plugin with a third method: points per started day, capped."""

        penalty_method = Enum(
            PENALTY_METHODS, default_value="per_day",
            help="'none': no penalty; 'zero': the notebook scores 0; 'per_day': "
                 "points_per_day for each started day late, at most max_points.",
        ).tag(config=True)
        points_per_day = Float(
            1.0, help="Points taken for each day (or part of a day) late.").tag(config=True)
        max_points = Float(
            None, allow_none=True,
            help="The largest penalty in points (None: up to the score).").tag(config=True)

        def late_submission_penalty(self, student_id: str, score: float,
                                    total_seconds_late: float) -> float | None:
            if self.penalty_method != "per_day":
                return super().late_submission_penalty(  # type: ignore[no-any-return]
                    student_id, score, total_seconds_late)
            return per_day_penalty(total_seconds_late, self.points_per_day, self.max_points,
                                   score)

    return PerDayPenalty


def late_text(seconds_late: float) -> str:
    """How late, for people: "26 h", "3 days 2 h", "40 min"."""
    minutes = math.ceil(seconds_late / 60)
    if seconds_late >= DAY and seconds_late % DAY == 0:
        days = int(seconds_late // DAY)
        return f"{days} day" + ("" if days == 1 else "s")
    if minutes < 60:
        return f"{minutes} min"
    hours = math.ceil(seconds_late / 3600)
    if hours <= 48:
        return f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} days" + (f" {hours} h" if hours else "")


def _points(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return f"{text} point" + ("" if text == "1" else "s")


def late_message(seconds_late: float, penalty: float, duedate: datetime.datetime | None,
                 extension: datetime.timedelta | None) -> str:
    """The feedback's line: "Submitted 26 h late (due ...): −2 points." (markdown)."""
    due = f"due {duedate:%a %d %b %Y %H:%M} UTC" if duedate else "after the due date"
    if extension:
        due += f", with your extension of {late_text(extension.total_seconds())}"
    cost = f"−{_points(penalty)}" if penalty > 0 else "no penalty under this course's policy"
    return f"**Submitted {late_text(seconds_late)} late** ({due}): {cost}."


@functools.cache
def _late_note() -> type:
    import nbformat
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.preprocessors import NbGraderPreprocessor
    from traitlets import List

    class LateNote(NbGraderPreprocessor):  # type: ignore[misc]
        """Feedback: a first cell saying how late the work was and what it cost."""

        # configurable, as in nbgrader's own GetGrades: nbgrader's feedback sets it for
        # every preprocessor, and traitlets warned once per notebook that this one took
        # no such option
        display_data_priority = List(
            NbGraderPreprocessor.class_traits()["display_data_priority"].default()
        ).tag(config=True)

        def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
            info = resources["nbgrader"]
            with Gradebook(info["db_url"]) as gb:
                try:
                    sub = gb.find_submission(info["assignment"], info["student"])
                    notebook = gb.find_submission_notebook(info["notebook"],
                                                           info["assignment"], info["student"])
                except MissingEntry:
                    return nb, resources
                late = sub.total_seconds_late
                if late <= 0:
                    return nb, resources
                text = late_message(late, notebook.late_submission_penalty or 0.0,
                                    sub.duedate, sub.extension)
            cell = nbformat.v4.new_markdown_cell(text)
            cell.metadata["puzzlekit"] = {"late_note": True}
            nb.cells.insert(0, cell)
            return nb, resources

    return LateNote


# ---------------------------------------------------------------------------
# Extensions: python -m puzzlekit extend ASSIGNMENT STUDENT --hours N

@dataclass(frozen=True)
class Extension:
    """A student's extension for one assignment, and the due date it gives them."""
    assignment: str
    student: str
    extension: datetime.timedelta
    duedate: datetime.datetime | None     #: the assignment's due date plus the extension

    def line(self) -> str:
        due = f"due {self.duedate:%Y-%m-%d %H:%M} UTC" if self.duedate else "no due date set"
        return f"{self.assignment}\t{self.student}\t+{late_text(self.extension.total_seconds())}" \
               f"\t{due}"


def _gradebook(config: Any) -> Any:
    from nbgrader.api import Gradebook
    from nbgrader.coursedir import CourseDirectory
    cd = CourseDirectory(config=config)
    return Gradebook(cd.db_url, cd.course_id)


def grant_extension(config: Any, assignment: str, student: str, *, hours: float = 0,
                    days: float = 0) -> Extension:
    """Give `student` `days` + `hours` more for `assignment` (replacing an earlier one;
    0 removes it), with nbgrader's ``Gradebook.grant_extension``. Granted before the
    student submitted, the submission's row is made (empty, no timestamp) to hold it."""
    from nbgrader.api import MissingEntry
    if hours < 0 or days < 0:
        raise PuzzleError("an extension cannot be negative (0 removes one)")
    with _gradebook(config) as gb:
        try:
            gb.find_assignment(assignment)
        except MissingEntry:
            raise PuzzleError(f"no assignment {assignment!r} in the gradebook: generate it "
                              f"first (nbgrader generate_assignment {assignment})") from None
        try:
            gb.find_student(student)
        except MissingEntry:
            raise PuzzleError(f"no student {student!r} in the gradebook: add them first "
                              f"(nbgrader db student add {student})") from None
        try:
            gb.find_submission(assignment, student)
        except MissingEntry:
            # granted before the student submitted: nbgrader's grant_extension needs the
            # submission's row, which autograde later fills in (keeping the extension).
            # nbgrader's code makes it with SQLAlchemy's autoflush on, which warns about
            # rows it adds a moment later: nothing an instructor can act on.
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*not in session")
                gb.update_or_create_submission(assignment, student)
        gb.grant_extension(assignment, student, hours=hours, days=days)
        sub = gb.find_submission(assignment, student)
        return Extension(assignment, student, sub.extension or datetime.timedelta(0),
                         sub.duedate)


def extensions(config: Any) -> list[Extension]:
    """Every extension in the gradebook, by assignment then student."""
    found = []
    with _gradebook(config) as gb:
        for a in gb.assignments:
            for sub in a.submissions:
                if sub.extension:
                    found.append(Extension(a.name, sub.student.id, sub.extension,
                                           sub.duedate))
    return sorted(found, key=lambda e: (e.assignment, e.student))


def __getattr__(name: str) -> Any:
    # nbgrader imports these by their dotted names; nbgrader is imported only then.
    if name == "PerDayPenalty":
        return _plugin()
    if name == "LateNote":
        return _late_note()
    raise AttributeError(name)


__all__ = ["Extension", "LateNote", "PENALTY_METHODS", "PerDayPenalty", "extensions",
           "grant_extension", "late_message", "late_text", "per_day_penalty"]
