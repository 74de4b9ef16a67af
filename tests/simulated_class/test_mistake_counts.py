"""The simulated class's planted mistakes, counted from what the grader recorded.

Each simulated student of students_NN.py makes known mistakes (`MISTAKES`: test cell →
the mistake's name). Graded by the kit's grader, the autograded notebooks must carry
exactly those names, cell by cell, and the class report
(`puzzlekit.course.class_report`) must count them, exercise by exercise
(`test_the_class_report_counts_the_planted_mistakes_per_exercise`).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import nbformat
import pytest
from course_harness import assignments, students_module

from puzzlekit.testcells.mistakes import CATALOGUE

ASSIGNMENTS = assignments()


def recorded(course, assignment: str, student: str) -> dict[str, list[str]]:
    """Test cell → the names the grader recorded there, for one graded submission."""
    a = course.assignments[assignment]
    nb = nbformat.read(course.root / "autograded" / student / assignment / a.notebook,
                       as_version=4)
    assert nb.metadata["puzzlekit"]["judged"] is True
    out = {}
    for cell in nb.cells:
        record = cell.metadata.get("puzzlekit")
        if record and record["mistakes"]:
            out[cell.metadata["nbgrader"]["grade_id"]] = [m["name"] for m in record["mistakes"]]
    return out


def without_timing(cells: dict[str, list[str]]) -> dict[str, list[str]]:
    """`cells` without "too-slow", which the machine's speed decides as much as the code:
    a slow search that is also wrong may be named slow besides (planted "too-slow" is
    checked on its own)."""
    kept = {cell: [n for n in names if n != "too-slow"] for cell, names in cells.items()}
    return {cell: names for cell, names in kept.items() if names}


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_simulated_student_plants_named_mistakes_of_the_catalogue(assignment):
    module = students_module(assignment)
    assert set(module.MISTAKES) == set(module.STUDENTS)
    for student, cells in module.MISTAKES.items():
        assert set(cells) <= set(module.LOSES[student]), f"{student}: a mistake costs points"
        assert set(cells.values()) <= set(CATALOGUE), student


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_grader_records_exactly_the_planted_mistakes(course, assignment):
    module = students_module(assignment)
    students = [s for s in module.MISTAKES if s in course.assignments[assignment].graded]
    for student in students:
        assert without_timing(recorded(course, assignment, student)) == \
            without_timing({cell: [name] for cell, name in module.MISTAKES[student].items()}), \
            student
        for cell, name in module.MISTAKES[student].items():
            if name == "too-slow":
                assert name in recorded(course, assignment, student).get(cell, []), student
    counts = Counter((cell, name) for s in students for cell, name in
                     module.MISTAKES[s].items())
    assert sum(counts.values()) >= len(students) - 2      # nearly every student is named


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_reference_and_the_untouched_notebook_have_no_mistakes(course, assignment):
    assert recorded(course, assignment, "reference") == {}
    a = course.assignments[assignment]
    nb = nbformat.read(course.root / "autograded" / "untouched" / assignment / a.notebook,
                       as_version=4)
    statuses = Counter(c.metadata["puzzlekit"]["status"] for c in nb.cells
                       if "puzzlekit" in c.metadata)
    assert statuses["not written"] > 0 and not any(
        c.metadata["puzzlekit"]["mistakes"] for c in nb.cells if "puzzlekit" in c.metadata)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_class_report_counts_the_planted_mistakes_per_exercise(course, assignment):
    """The class report of the graded class, read by the report's own code: its CSV
    (grade_id, mistake, students, points_lost) over the simulated students has exactly
    the planted mistakes, with as many students as planted them, exercise by exercise,
    and the points they lost there (the points LOSES says the cell costs)."""
    import dataclasses

    from puzzlekit.course.class_report import class_report, tally
    module = students_module(assignment)
    report = class_report(assignment, course.root, config=course.config)
    data = report.data
    planted = [s for s in module.MISTAKES if s in course.assignments[assignment].graded]
    assert set(planted) <= set(data.submissions)
    theirs = dataclasses.replace(data, submissions={s: data.submissions[s] for s in planted})
    rows = tally.csv_rows(theirs)
    assert rows[0] == ["grade_id", "mistake", "students", "points_lost"]
    got = {(g, name): (int(n), float(lost)) for g, name, n, lost in rows[1:]
           if name != "too-slow"}
    want: dict[tuple[str, str], tuple[int, float]] = {}
    for student in planted:
        for cell, name in module.MISTAKES[student].items():
            if name == "too-slow":
                continue
            n, lost = want.get((cell, name), (0, 0.0))
            want[(cell, name)] = (n + 1, lost + module.LOSES[student][cell])
    labels = {g for g, _ in got} | {g for g, _ in want}
    assert len(labels) == len({g.split("/")[-1] for g in labels})     # one notebook each
    assert {(g.split("/")[-1], name): v for (g, name), v in got.items()} == want
    # the whole class's page (attacks and all) has each planted row, with at least as many
    whole = {(g.split("/")[-1], name): int(n) for g, name, n, _ in tally.csv_rows(data)[1:]}
    for key, (n, _) in want.items():
        assert whole.get(key, 0) >= n, key
    # the page itself: self-contained and anonymous by default (kept for a look, with the
    # course record, in test-artifacts/class-reports/)
    page = report.html()
    report.write(out=Path(__file__).resolve().parents[2] / "test-artifacts" / "class-reports")
    assert "http://" not in page and "https://" not in page
    assert not any(f">{s}<" in page for s in planted)
