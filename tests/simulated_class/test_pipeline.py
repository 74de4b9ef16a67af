"""The instructor's pipeline, end to end, on every assignment of the course.

generate → validate (source passes, release fails only at the stubs) → students submit →
autograde (scores from the gradebook) → feedback (coloured boards, no hidden test) →
export (CSV). One course is generated per session (see conftest.py); these tests read it.
"""

from __future__ import annotations

import csv
import html
import re
from pathlib import Path

import nbformat
import pytest
from course_harness import (
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_SOLUTION,
    HOSTILE_ON,
    assignments,
    hidden_lines,
    secret_snippets,
    solution_lines,
    students_module,
)

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]

REPO = Path(__file__).parents[2]
ASSIGNMENTS = assignments()


def student_names(assignment: str) -> list[str]:
    module = students_module(assignment)
    return ["reference", "untouched"] + (list(module.STUDENTS) if module else [])


SUBMISSIONS = [(a, s) for a in ASSIGNMENTS for s in student_names(a)]


def page_text(markup: str) -> str:
    """What a reader of an HTML page sees: tags removed, entities decoded."""
    markup = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", markup)
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


# ---------------------------------------------------------------------------
# The course itself: students files and assignments follow the layout

def test_the_course_follows_the_layout():
    assert ASSIGNMENTS, "no assignment found in notebooks/source"
    for a in ASSIGNMENTS:
        assert re.fullmatch(r"\d\d-[a-z0-9-]+", a), a
        module = students_module(a)
        if module is None:
            continue
        assert set(module.STUDENTS) == set(module.LOSES), f"students_{a[:2]}.py"
        source = nbformat.read(REPO / "notebooks" / "source" / a / f"{a}.ipynb", as_version=4)
        tests = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
                 for c in source.cells if c.metadata.get("nbgrader", {}).get("grade")
                 and c.cell_type == "code"}
        for student, lost in module.LOSES.items():
            for cell, points in lost.items():    # a cell that exists, and no more than it gives
                assert 0 < points <= tests.get(cell, -1), \
                    f"LOSES of {student} in students_{a[:2]}.py: {cell} {points}"
        assert len(module.STUDENTS) >= 3, f"students_{a[:2]}.py needs three typical mistakes"


# ---------------------------------------------------------------------------
# generate and validate

@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_source_validates(course, assignment):
    result = course.assignments[assignment].source_validation
    assert not result, f"the instructor's version of {assignment} does not pass: {result}"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_release_fails_only_at_the_stubs(course, assignment):
    """Validating the untouched release fails at every stub, each time in a few words that
    say what to do (nbgrader's Validate dialog lists them all: no tracebacks there)."""
    a = course.assignments[assignment]
    failed = a.release_validation.get("failed", [])
    assert failed, "the released notebook passes its tests without any solution"
    assert set(a.release_validation) == {"failed"}, a.release_validation.keys()
    for cell in failed:
        error = re.sub(r"\x1b\[[0-9;]*m", "", cell["raw_error"]).strip()
        not_defined = re.search(r"NameError: name '(\w+)' is not defined yet", error)
        assert ("NotImplementedError: " in error and "not written yet" in error
                or (not_defined and not_defined.group(1) in a.solution_names)
                or error == "You did not provide a response."), \
            f"a cell of the release fails for another reason than the stub:\n{error[-800:]}"
        assert len(error.splitlines()) <= 3 and "Traceback" not in error, error


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_release_holds_no_solution_and_no_hidden_test(course, assignment):
    a = course.assignments[assignment]
    text = "\n".join(c.source for c in a.release_nb.cells)
    for marker in (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN):
        assert marker not in text
    for secret in (secret_snippets(a.source_nb, hidden_lines)
                   + secret_snippets(a.source_nb, solution_lines)):
        assert secret not in text, f"the release shows {secret!r}"
    assert all(not c.get("outputs") for c in a.release_nb.cells if c.cell_type == "code")


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_source_is_committed_clean(assignment):
    import nbformat
    from course_harness import COURSE, notebook_name
    nb = nbformat.read(COURSE / "source" / assignment / notebook_name(assignment), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, cell.source[:80]
    ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells]
    ids = [i for i in ids if i]
    assert len(ids) == len(set(ids)), "grade ids must be unique"
    graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert all(c.metadata["nbgrader"].get("points", 0) > 0 for c in graded)
    assert any(c.cell_type == "markdown" and c.metadata["nbgrader"].get("solution")
               for c in graded), "at least one written answer graded by hand"


# ---------------------------------------------------------------------------
# autograde

def _diagnoses() -> list[tuple[str, str, str]]:
    out = []
    for a in ASSIGNMENTS:
        module = students_module(a)
        for student, phrases in (getattr(module, "DIAGNOSES", None) or {}).items():
            out.append((a, student, phrases))
    return out


@pytest.mark.parametrize("assignment, student, phrases", _diagnoses())
def test_the_feedback_names_the_mistake(course, assignment, student, phrases):
    text = " ".join(page_text(course.feedback_html(assignment, student)).split())
    for words in phrases:
        assert " ".join(words.split()) in text, f"{student}: {words!r} not in its feedback"


def _tests_points(assignment: str) -> dict[str, float]:
    source = nbformat.read(REPO / "notebooks" / "source" / assignment / f"{assignment}.ipynb",
                           as_version=4)
    return {c.metadata["nbgrader"]["grade_id"]: float(c.metadata["nbgrader"]["points"])
            for c in source.cells
            if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")}


def _partial() -> list[tuple[str, str, str, float]]:
    """(assignment, student, test cell, points earned) where a mistake costs part of a
    cell's points: partial credit, written in students_NN.py as points lost."""
    out = []
    for a in ASSIGNMENTS:
        worth = _tests_points(a)
        module = students_module(a)
        for student, lost in (getattr(module, "LOSES", None) or {}).items():
            out += [(a, student, cell, worth[cell] - points) for cell, points in lost.items()
                    if 0 < points < worth.get(cell, 0)]
    return out


@pytest.mark.parametrize("assignment, student, cell, points", _partial())
def test_a_mistake_earns_partial_credit(course, assignment, student, cell, points):
    """The test cells a typical mistake gets partly right give some of their points,
    more than nothing and less than all, as nbgrader reads them from the cell's value."""
    graded = course.assignments[assignment].graded[student]
    assert graded.cells.get(cell) == points, \
        f"{student}: {cell} earned {graded.cells.get(cell)}, expected {points}\n" \
        f"{graded.log[-1500:]}\n{course.cell_errors(assignment, student, {cell})}"


@pytest.mark.parametrize("assignment, student", SUBMISSIONS)
def test_autograded_score(course, assignment, student):
    """Every test cell gives what students_NN.py says: its points, less what the
    student's mistake loses there."""
    a = course.assignments[assignment]
    graded = a.graded[student]
    want = a.expected_cells(student)
    wrong = {cell: f"{graded.cells.get(cell, 0):g} instead of {points:g}"
             for cell, points in want.items() if graded.cells.get(cell, 0) != points}
    assert not wrong, f"{student} ({graded.score:g}/{graded.max_score:g}): {wrong}\n" \
        f"{graded.log[-2000:]}\n{course.cell_errors(assignment, student, set(wrong))}"
    assert graded.score == sum(want.values())
    if student == "reference":
        assert graded.score == graded.max_score > 0
    elif student == "untouched":
        assert graded.score == 0
    else:   # a typical mistake costs some points, not all
        assert 0 < graded.score < graded.max_score, f"LOSES of {student}"


@pytest.mark.parametrize("student", ["hostile_endless_loop", "hostile_kernel_exit",
                                     "hostile_edited_tests", "hostile_deleted_tests",
                                     "hostile_deleted_tests_stub"])
def test_hostile_submissions_are_graded_right(course, student):
    a = course.assignments[ASSIGNMENTS[HOSTILE_ON - 1]]
    graded = a.graded[student]
    assert a.hostile[student](graded.score, graded.max_score), \
        f"{student}: {graded.score}/{graded.max_score}\n{graded.log[-2000:]}"
    # every hostile submission was still autograded and got feedback
    assert (course.root / "autograded" / student / a.name / a.notebook).exists()
    assert "Score" in course.feedback_html(a.name, student)


def test_grading_goes_on_after_an_endless_loop(course):
    a = course.assignments[ASSIGNMENTS[HOSTILE_ON - 1]]
    feedback = page_text(course.feedback_html(a.name, "hostile_endless_loop"))
    assert "CellTimeoutError: this cell ran too long" in feedback
    assert "The cells after it were graded as usual" in feedback
    assert a.graded["hostile_endless_loop"].score > 0


def test_a_dead_kernel_is_explained_to_the_student(course):
    a = course.assignments[ASSIGNMENTS[HOSTILE_ON - 1]]
    feedback = page_text(course.feedback_html(a.name, "hostile_kernel_exit"))
    assert "KernelDied" in feedback and "exit status 1, as a call of os._exit(1)" in feedback


# ---------------------------------------------------------------------------
# feedback

@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_feedback_never_shows_a_hidden_test(course, assignment):
    a = course.assignments[assignment]
    assert course.feedback_log[assignment]["success"], course.feedback_log[assignment]
    secrets = secret_snippets(a.source_nb, hidden_lines)
    assert secrets, "no hidden tests to look for"
    for student in a.graded:
        text = page_text(course.feedback_html(assignment, student))
        assert BEGIN_HIDDEN not in text and END_HIDDEN not in text
        leaked = [s for s in secrets if s in text]
        assert not leaked, f"the feedback of {student} shows hidden tests: {leaked[:3]}"


def test_feedback_explains_a_failed_hidden_test(course):
    failed_hidden = [(a.name, s) for a in course.assignments.values() for s in a.graded
                     if re.search("hidden tests? failed", course.feedback_html(a.name, s))]
    assert failed_hidden, "no student failed a hidden test only"


#: the simulated student whose feedback shows a wrong board beside the right one
BOARDS_SHOWN_BY = ("01-states-and-moves", "moveUp_wrong_way")


def test_feedback_shows_expected_and_received_boards_in_colour(course):
    if BOARDS_SHOWN_BY[0] not in course.assignments:
        pytest.skip(f"{BOARDS_SHOWN_BY[0]} not in this run (PUZZLEKIT_ASSIGNMENTS)")
    a = course.assignments[BOARDS_SHOWN_BY[0]]
    markup = course.feedback_html(a.name, BOARDS_SHOWN_BY[1])
    assert "pk-diffview" in markup or "expected" in page_text(markup)
    tiles = re.findall(r"<td[^>]*background(?:-color)?:\s*(#[0-9a-fA-F]{6})", markup)
    assert len(set(tiles)) >= 8, "the boards are not coloured"
    assert "Score: 0.0 / 2.0" in page_text(markup) or "0.0 / 2.0" in page_text(markup)


# ---------------------------------------------------------------------------
# export

def test_export_writes_every_score_to_the_csv(course):
    with open(course.csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    got = {(r["assignment"], r["student_id"]): (float(r["score"]), float(r["max_score"]))
           for r in rows}
    for name, a in course.assignments.items():
        for student, graded in a.graded.items():
            written = float(sum(c.metadata["nbgrader"]["points"] for c in a.source_nb.cells
                                if c.cell_type == "markdown"
                                and c.metadata.get("nbgrader", {}).get("grade")))
            assert got[(name, student)] == (graded.score, graded.max_score + written), \
                (name, student)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_no_kernel_cell_reads_a_name_only_a_test_cell_defines(assignment):
    """Test cells run in the grader (the judge) while autograding: a student's cell or a
    demo cell that reads a name only a test cell defines would fail there."""
    import symtable

    import nbformat
    from course_harness import COURSE, is_test, notebook_name

    from puzzlekit.autograder.judge.judge import bound_names

    def read_names(source: str) -> set[str]:
        try:
            table = symtable.symtable(source, "<cell>", "exec")
        except SyntaxError:
            return set()
        names = {s.get_name() for s in table.get_symbols() if s.is_referenced()}
        stack = list(table.get_children())
        while stack:
            child = stack.pop()
            names |= {s.get_name() for s in child.get_symbols()
                      if s.is_global() and s.is_referenced()}
            stack += child.get_children()
        return names

    nb = nbformat.read(COURSE / "source" / assignment / notebook_name(assignment),
                       as_version=4)
    in_tests: set[str] = set()
    in_kernel: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        bound = bound_names(cell.source)
        if is_test(cell):
            in_tests |= bound
            continue
        wrong = (read_names(cell.source) - bound - in_kernel) & in_tests
        assert not wrong, f"a kernel cell reads {sorted(wrong)}, defined only by a test cell"
        in_kernel |= bound
