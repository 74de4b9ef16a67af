"""The counts a class report shows, from `ClassData`: named mistakes ranked by how many
students made them, points lost with no named mistake, the score distribution per
exercise, who did not hand in and who got stuck early, and the CSV
(``grade_id, mistake, students, points_lost``).

The rules, as the page states them:

- a cell with two named mistakes counts its points lost for each;
- *lost points with no named mistake*: the student lost points at an exercise the kit's
  judge marked failed or partly right, and no mistake was named there;
- *stuck early*: handed in and graded by the kit's judge, but every exercise from one in
  the first half of the assignment on is "not written" (see `stuck_early`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..csv_cells import inert_rows
from .data import ClassData, Exercise, MistakeSeen

CSV_HEADER = ("grade_id", "mistake", "students", "points_lost")
#: a cell's status where a student tried and lost points
TRIED = ("failed", "partly right")


@dataclass
class MistakeCount:
    """A named mistake across the assignment: the students who made it (at any exercise),
    the points lost where it was named, by exercise, and its most common example."""
    name: str
    students: set[str] = field(default_factory=set)
    points_lost: float = 0.0
    #: exercise key -> the students who made it there
    by_exercise: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    lost_by_exercise: dict[tuple[str, str], float] = field(default_factory=dict)
    example: MistakeSeen | None = None
    example_exercise: tuple[str, str] | None = None
    example_students: int = 0           #: how many students were shown that same example


@dataclass(frozen=True)
class ScoreSpread:
    """How the students who handed in scored at one exercise (`ungraded`: no score yet,
    a written answer not marked by hand; `mean` of the others)."""
    exercise: Exercise
    full: int
    some: int
    none: int
    mean: float
    ungraded: int = 0

    @property
    def total(self) -> int:
        return self.full + self.some + self.none


@dataclass(frozen=True)
class Stuck:
    """A student stuck early: nothing written from `first_unwritten` (an exercise) on."""
    student: str
    first_unwritten: Exercise
    position: int                       #: 1-based position of that exercise


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def mistakes(data: ClassData) -> list[MistakeCount]:
    """Every named mistake, most students first (then most points lost, then name)."""
    found: dict[str, MistakeCount] = {}
    examples: dict[str, Counter[str]] = {}
    first: dict[tuple[str, str], tuple[MistakeSeen, tuple[str, str]]] = {}
    position = {e.key: i for i, e in enumerate(data.exercises)}
    for sub in data.judged:
        for key, cell in sub.cells.items():
            for m in cell.mistakes:
                count = found.setdefault(m.name, MistakeCount(m.name))
                count.students.add(sub.student)
                count.by_exercise.setdefault(key, set()).add(sub.student)
                count.points_lost += cell.lost
                count.lost_by_exercise[key] = count.lost_by_exercise.get(key, 0.0) + cell.lost
                # the typical example: the exercise, sentence and boards most shown
                sig = json.dumps([position.get(key, 0), key, m.sentence,
                                  sorted((k, v) for k, v in m.boards.items())])
                examples.setdefault(m.name, Counter())[sig] += 1
                first.setdefault((m.name, sig), (m, key))
    for name, count in found.items():
        (sig, n), *_ = sorted(examples[name].items(),
                              key=lambda kv: (-kv[1], -len(first[(name, kv[0])][0].boards),
                                              kv[0]))
        count.example, count.example_exercise = first[(name, sig)]
        count.example_students = n
    return sorted(found.values(), key=lambda c: (-len(c.students), -c.points_lost, c.name))


def unnamed_losses(data: ClassData) -> list[tuple[Exercise, int, float]]:
    """Per exercise, in order: the students who lost points there with no named mistake
    (status failed or partly right), and the points they lost."""
    out = []
    for e in data.exercises:
        students, lost = 0, 0.0
        for sub in data.judged:
            cell = sub.cells.get(e.key)
            if cell and cell.status in TRIED and not cell.mistakes and cell.lost > 0:
                students += 1
                lost += cell.lost
        out.append((e, students, lost))
    return out


def spreads(data: ClassData) -> list[ScoreSpread]:
    """Per exercise, in order: how many of those who handed in got full, some or no
    points (from the gradebook: every submission, judged or not)."""
    out = []
    for e in data.exercises:
        full = some = none = ungraded = 0
        scores = []
        for sub in data.submissions.values():
            cell = sub.cells.get(e.key)
            if cell is None:
                continue
            if not cell.graded:
                ungraded += 1
                continue
            scores.append(cell.score)
            if cell.max_score > 0 and (cell.score >= cell.max_score
                                       or _close(cell.score, cell.max_score)):
                full += 1
            elif cell.score > 0 and not _close(cell.score, 0.0):
                some += 1
            else:
                none += 1
        out.append(ScoreSpread(e, full, some, none,
                               statistics.fmean(scores) if scores else 0.0, ungraded))
    return out


def stuck_early(data: ClassData) -> list[Stuck]:
    """Students graded by the kit's judge who wrote nothing from an exercise in the first
    half of the assignment on: for some k ≤ ⌈n/2⌉ of its n exercises, exercise k and
    every one after it are "not written"."""
    n = len(data.exercises)
    if n < 2:
        return []
    half = math.ceil(n / 2)
    out = []
    for sub in sorted(data.judged, key=lambda s: s.student):
        statuses = [sub.cells[e.key].status if e.key in sub.cells else None
                    for e in data.exercises]
        k = n
        while k > 0 and statuses[k - 1] == "not written":
            k -= 1
        # statuses[k:] are all "not written"; the first of them is exercise k + 1
        if k < n and k + 1 <= half:
            out.append(Stuck(sub.student, data.exercises[k], k + 1))
    return out


def grade_label(data: ClassData, e: Exercise) -> str:
    """An exercise's name: its grade_id, with its notebook where the assignment has
    several notebooks."""
    several = len({x.notebook for x in data.exercises}) > 1
    return f"{e.notebook}/{e.grade_id}" if several else e.grade_id


def number(x: float) -> str:
    """Points as a spreadsheet reads them: at most two decimals, no trailing zeros."""
    text = f"{round(x, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def csv_rows(data: ClassData, ranked: Sequence[MistakeCount] | None = None) -> list[list[str]]:
    """The CSV: a header, then a row per exercise and named mistake (most students first)."""
    ranked = mistakes(data) if ranked is None else ranked
    by_key = {e.key: e for e in data.exercises}
    position = {e.key: i for i, e in enumerate(data.exercises)}
    rows = []
    for count in ranked:
        for key, students in count.by_exercise.items():
            rows.append((len(students), count.lost_by_exercise.get(key, 0.0), position[key],
                         grade_label(data, by_key[key]), count.name))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2], r[4]))
    return [list(CSV_HEADER)] + [[g, name, str(n), number(lost)]
                                 for n, lost, _, g, name in rows]


def csv_text(data: ClassData, ranked: Sequence[MistakeCount] | None = None) -> str:
    """The CSV as text (RFC 4180, CRLF line ends as Python's csv writes them)."""
    out = io.StringIO()
    csv.writer(out).writerows(inert_rows(csv_rows(data, ranked)))
    return out.getvalue()
