"""What a class report reads: the gradebook's scores and the graded notebooks' diagnoses,
as plain dataclasses.

Scores, the roster and the term come from nbgrader's gradebook (the instructor's, trusted).
The diagnoses come from the autograded notebooks (``autograded/<student>/<assignment>/``):
the kit's grader writes them there, but the file began as the student's, so everything in
it is read as untrusted: types and sizes checked, text capped, boards made into states by
the kit's own validation, and only the grade cells the gradebook knows are read. What does
not pass is left out and counted (`ClassData.malformed`), never drawn.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import PuzzleError
from ...puzzle.board import State, validate_state

#: A graded test cell's outcome as the kit's judge records it.
STATUSES = ("passed", "failed", "partly right", "not written")
#: The boards a diagnosis may carry.
BOARD_KEYS = ("start", "expected", "got")

MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024   #: a graded notebook larger than this is not read
MAX_CELLS = 5000                        #: cells read per notebook
MAX_MISTAKES = 8                        #: named mistakes read per test cell
MAX_SENTENCE = 600                      #: characters of a sentence kept
MAX_SIDE = 12                           #: rows or columns of a board drawn
MAX_TILE = 10_000                       #: the largest number a drawn cell may hold

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]{1,47}")   # as puzzlekit.testcells.mistakes names them


# ------------------------------------------------------------------------ the dataclasses

@dataclass(frozen=True)
class Exercise:
    """A graded test cell of the assignment (a grade cell of the gradebook)."""
    notebook: str
    grade_id: str
    max_score: float

    @property
    def key(self) -> tuple[str, str]:
        return (self.notebook, self.grade_id)


@dataclass(frozen=True)
class MistakeSeen:
    """A named mistake a student was shown: its name, the sentence, the boards (each a
    tuple of rows of ints; "start" and "expected" are legal states, "got" any grid)."""
    name: str
    sentence: str
    boards: Mapping[str, State] = field(default_factory=dict)


@dataclass(frozen=True)
class CellResult:
    """One student's result at one exercise: points from the gradebook, and from the
    graded notebook (when the kit's judge graded it) the status and the named mistakes."""
    score: float
    max_score: float
    status: str | None = None          #: one of STATUSES; None where it was not read
    mistakes: tuple[MistakeSeen, ...] = ()
    graded: bool = True                #: False: no score yet (a written answer not marked)

    @property
    def lost(self) -> float:
        return max(0.0, self.max_score - self.score) if self.graded else 0.0


@dataclass
class Submission:
    """A student's graded submission of the assignment."""
    student: str
    cells: dict[tuple[str, str], CellResult] = field(default_factory=dict)
    #: why the mistakes of this submission could not be read (None: they were read)
    unread: str | None = None

    @property
    def judged(self) -> bool:
        return self.unread is None

    @property
    def score(self) -> float:
        return sum(c.score for c in self.cells.values())

    @property
    def max_score(self) -> float:
        return sum(c.max_score for c in self.cells.values())


@dataclass(frozen=True)
class TermPoint:
    """One assignment of the term: how many handed it in and how they scored (percent of
    the points of its grade cells, before late penalties)."""
    assignment: str
    duedate: datetime.datetime | None
    submissions: int
    mean: float | None
    median: float | None


@dataclass
class ClassData:
    """Everything a class report shows of one assignment, read at `read_at`."""
    course_id: str
    assignment: str
    duedate: datetime.datetime | None
    roster: list[str]
    exercises: list[Exercise]
    submissions: dict[str, Submission]
    term: list[TermPoint]
    #: the words that name a student (ids and names), hidden from an anonymous page
    identities: list[str] = field(default_factory=list)
    malformed: int = 0                  #: diagnosis records left out as malformed
    read_at: datetime.datetime = field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC).replace(tzinfo=None))

    @property
    def not_submitted(self) -> list[str]:
        """The roster's students with no graded submission."""
        return sorted(set(self.roster) - set(self.submissions))

    @property
    def judged(self) -> list[Submission]:
        return [s for s in self.submissions.values() if s.judged]

    @property
    def unread(self) -> dict[str, str]:
        """student -> why their mistakes could not be read."""
        return {s.student: s.unread for s in self.submissions.values() if s.unread}


# ------------------------------------------------------------------ untrusted notebooks

def _int_grid(x: object) -> tuple[tuple[int, ...], ...] | None:
    """`x` as a rectangular grid of small non-negative ints, or None."""
    if not isinstance(x, list) or not 2 <= len(x) <= MAX_SIDE:
        return None
    rows = []
    for row in x:
        if not isinstance(row, list) or not 2 <= len(row) <= MAX_SIDE:
            return None
        if not all(type(v) is int and 0 <= v <= MAX_TILE for v in row):
            return None
        rows.append(tuple(row))
    if len({len(r) for r in rows}) != 1:
        return None
    return tuple(rows)


def _boards(x: object) -> tuple[dict[str, State], int]:
    """The boards of a diagnosis that pass, and how many did not."""
    if x is None:
        return {}, 0
    if not isinstance(x, dict):
        return {}, 1
    out: dict[str, State] = {}
    bad = 0
    for key in BOARD_KEYS:
        if key not in x:
            continue
        grid = _int_grid(x[key])
        if grid is None:
            bad += 1
            continue
        if key != "got":                 # the student's own board may be any grid
            try:
                grid = validate_state(grid, name=key)
            except PuzzleError:
                bad += 1
                continue
        out[key] = grid
    bad += len([k for k in x if k not in BOARD_KEYS])
    return out, bad


def _sentence(x: object) -> str | None:
    if not isinstance(x, str):
        return None
    text = " ".join(x[:MAX_SENTENCE * 4].split())
    text = "".join(ch for ch in text if ch.isprintable())
    if len(text) > MAX_SENTENCE:
        text = text[:MAX_SENTENCE - 1].rstrip() + "…"
    return text


def _mistake(x: object) -> tuple[MistakeSeen | None, int]:
    """A diagnosis record as a `MistakeSeen` (None if it is not one), and how many of its
    parts were left out."""
    if not isinstance(x, dict):
        return None, 1
    name = x.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        return None, 1
    sentence = _sentence(x.get("sentence", ""))
    if sentence is None:
        return None, 1
    boards, bad = _boards(x.get("boards"))
    return MistakeSeen(name, sentence, boards), bad


@dataclass
class NotebookReading:
    """What a graded notebook says of its test cells: status and named mistakes by
    grade_id (only when the kit's judge graded it), and how many records were malformed."""
    judged: bool
    cells: dict[str, tuple[str | None, tuple[MistakeSeen, ...]]] = field(default_factory=dict)
    malformed: int = 0
    problem: str | None = None          #: why it could not be read at all


def read_graded_notebook(path: str | os.PathLike[str],
                         grade_ids: Iterable[str]) -> NotebookReading:
    """Read the diagnoses of an autograded notebook, trusting nothing in it: only the test
    cells whose ``grade_id`` is one of `grade_ids` (the gradebook's), statuses from
    `STATUSES`, mistakes with a proper name, capped sentences and validated boards."""
    known = set(grade_ids)
    p = Path(path)
    try:
        if not p.is_file():
            return NotebookReading(False, problem="no graded notebook")
        if p.stat().st_size > MAX_NOTEBOOK_BYTES:
            return NotebookReading(False, problem="graded notebook too large to read")
        nb = json.loads(p.read_bytes())
    except (OSError, ValueError, RecursionError):
        return NotebookReading(False, problem="graded notebook could not be read")
    meta = nb.get("metadata") if isinstance(nb, dict) else None
    kit = meta.get("puzzlekit") if isinstance(meta, dict) else None
    if not isinstance(kit, dict) or kit.get("judged") is not True:
        return NotebookReading(False, problem="graded without the kit's judge")
    reading = NotebookReading(True)
    cells = nb.get("cells")
    if not isinstance(cells, list):
        return NotebookReading(False, problem="graded notebook could not be read")
    for cell in cells[:MAX_CELLS]:
        cmeta = cell.get("metadata") if isinstance(cell, dict) else None
        if not isinstance(cmeta, dict):
            continue
        grader = cmeta.get("nbgrader")
        if not (isinstance(grader, dict) and grader.get("grade") is True
                and grader.get("solution") is not True):
            continue
        grade_id = grader.get("grade_id")
        if not isinstance(grade_id, str) or grade_id not in known:
            continue
        record = cmeta.get("puzzlekit")
        if record is None:
            continue
        if grade_id in reading.cells or not isinstance(record, dict):
            reading.malformed += 1       # a second record for one cell, or not a record
            continue
        status = record.get("status")
        if status not in STATUSES:
            reading.malformed += 1
            status = None
        found: list[MistakeSeen] = []
        raw = record.get("mistakes", [])
        if not isinstance(raw, list):
            reading.malformed += 1
            raw = []
        reading.malformed += max(0, len(raw) - MAX_MISTAKES)
        for item in raw[:MAX_MISTAKES]:
            m, bad = _mistake(item)
            reading.malformed += bad
            if m is not None and all(m.name != other.name for other in found):
                found.append(m)
        reading.cells[grade_id] = (status, tuple(found))
    return reading


# --------------------------------------------------------------------------- the gradebook

def _far(d: datetime.datetime | None) -> datetime.datetime:
    return d if d is not None else datetime.datetime.max


def _scores(gb: Any) -> dict[str, dict[str, dict[tuple[str, str], tuple[float | None, float]]]]:
    """assignment -> student -> (notebook, grade_id) -> (score or None, max_score), every
    grade cell of every submission in one query."""
    from nbgrader.api import (Assignment, Grade, GradeCell, Notebook, SubmittedAssignment,
                              SubmittedNotebook)
    rows = (gb.db.query(Assignment.name, SubmittedAssignment.student_id, Notebook.name,
                        GradeCell.name, Grade.auto_score, Grade.manual_score,
                        Grade.extra_credit, GradeCell.max_score)
            .join(SubmittedAssignment, SubmittedAssignment.assignment_id == Assignment.id)
            .join(SubmittedNotebook, SubmittedNotebook.assignment_id == SubmittedAssignment.id)
            .join(Notebook, Notebook.id == SubmittedNotebook.notebook_id)
            .join(Grade, Grade.notebook_id == SubmittedNotebook.id)
            .join(GradeCell, GradeCell.id == Grade.cell_id))
    out: dict[str, dict[str, dict[tuple[str, str], tuple[float | None, float]]]] = {}
    for a, student, nb, grade_id, auto, manual, extra, max_score in rows:
        base = manual if manual is not None else auto
        score = None if base is None else float(base) + float(extra or 0.0)
        out.setdefault(a, {}).setdefault(student, {})[(nb, grade_id)] = (
            score, float(max_score or 0.0))
    return out


def _handed_in(cells: Mapping[tuple[str, str], tuple[float | None, float]]) -> bool:
    """Graded: a score in any cell (a row made only for an extension has none)."""
    return any(score is not None for score, _ in cells.values())


def _percent(cells: Mapping[tuple[str, str], tuple[float | None, float]]) -> float | None:
    total = sum(m for _, m in cells.values())
    if not total:
        return None
    return 100.0 * sum(s or 0.0 for s, _ in cells.values()) / total


def source_order(root: Path, assignment: str, notebooks: Sequence[str],
                 source_dir: str = "source") -> dict[tuple[str, str], int]:
    """(notebook, grade_id) -> position in the instructor's source notebooks, where they
    are (an exercise found nowhere comes after, by name)."""
    order: dict[tuple[str, str], int] = {}
    for nb_name in notebooks:
        path = root / source_dir / assignment / f"{nb_name}.ipynb"
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError, AttributeError):
            continue
        for cell in cells if isinstance(cells, list) else []:
            grader = cell.get("metadata", {}).get("nbgrader", {}) if isinstance(cell, dict) \
                else {}
            if isinstance(grader, dict) and isinstance(grader.get("grade_id"), str):
                order.setdefault((nb_name, grader["grade_id"]), len(order))
    return order


def read_class(config: Any, assignment: str) -> ClassData:
    """Read `assignment` of the course `config` (nbgrader's config, as
    `puzzlekit.course.workers.course_config` loads it): the gradebook's roster, scores
    and term, and the diagnoses of every graded notebook."""
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.coursedir import CourseDirectory
    cd = CourseDirectory(config=config)
    root = Path(cd.root)
    url = str(cd.db_url)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).is_file():
        # nbgrader would make an empty gradebook there
        raise PuzzleError(f"no gradebook at {url.removeprefix('sqlite:///')}: is {root} the "
                          f"course root (--course-root), and was the assignment graded?")
    with Gradebook(cd.db_url, cd.course_id) as gb:
        try:
            this = gb.find_assignment(assignment)
        except MissingEntry:
            known = sorted(a.name for a in gb.assignments)
            raise PuzzleError(f"unknown assignment {assignment!r} in the gradebook of {root} "
                              f"(known: {', '.join(known) or 'none'})") from None
        duedate = this.duedate
        notebooks = sorted(nb.name for nb in this.notebooks)
        cells = [(nb.name, gc.name, float(gc.max_score or 0.0))
                 for nb in this.notebooks for gc in nb.grade_cells]
        students = gb.students
        roster = sorted(s.id for s in students)
        identities = sorted({w for s in students
                             for w in (s.id, s.first_name, s.last_name, s.email)
                             if isinstance(w, str) and len(w.strip()) >= 2})
        assignments = sorted(((a.name, a.duedate) for a in gb.assignments),
                             key=lambda x: (_far(x[1]), x[0]))
        scores = _scores(gb)
    exercises = [Exercise(nb, gid, m) for nb, gid, m in cells]

    term = []
    for name, due in assignments:
        handed = [c for c in scores.get(name, {}).values() if _handed_in(c)]
        pcts = [p for p in map(_percent, handed) if p is not None]
        term.append(TermPoint(name, due, len(handed),
                              statistics.fmean(pcts) if pcts else None,
                              statistics.median(pcts) if pcts else None))

    data = ClassData(cd.course_id, assignment, duedate, roster, exercises, {}, term,
                     identities)
    ids_of = {nb: [e.grade_id for e in exercises if e.notebook == nb] for nb in notebooks}
    seen: dict[tuple[str, str], int] = {}
    for student, got in sorted(scores.get(assignment, {}).items()):
        if not _handed_in(got):
            continue
        sub = Submission(student)
        readings = {}
        for nb in notebooks:
            path = Path(cd.format_path(cd.autograded_directory, student, assignment)) / \
                f"{nb}.ipynb"
            reading = read_graded_notebook(path, ids_of[nb])
            readings[nb] = reading
            data.malformed += reading.malformed
            if reading.problem and sub.unread is None:
                sub.unread = reading.problem
        for e in exercises:
            score, max_score = got.get(e.key, (None, e.max_score))
            status: str | None = None
            mistakes: tuple[MistakeSeen, ...] = ()
            if sub.judged:
                status, mistakes = readings[e.notebook].cells.get(e.grade_id, (None, ()))
            sub.cells[e.key] = CellResult(_finite(score), max_score, status, mistakes,
                                          graded=score is not None)
        data.submissions[student] = sub
        for nb, reading in readings.items():
            for gid in reading.cells:
                seen.setdefault((nb, gid), len(seen))
    # the exercises in the order of the instructor's source notebook; where it is gone, in
    # the order the graded notebooks have them (an order only: nothing else is taken)
    order = source_order(root, assignment, notebooks, os.path.basename(cd.source_directory))
    exercises.sort(key=lambda e: (order.get(e.key, len(order)), seen.get(e.key, len(seen)),
                                  e.notebook, e.grade_id))
    return data


def _finite(x: float | None) -> float:
    return x if x is not None and math.isfinite(x) else 0.0
