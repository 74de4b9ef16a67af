"""The attack corpus (attacks.py) through the real nbgrader pipeline.

Grades cannot be gamed: every trick earns no more than the same answers without it.
The grader is a wall: after all the breakouts ran, in a world-readable course folder, the
instructor's source, every submission and the gradebook are as they were, no file was
planted for later kernels, the feedback shows no hidden test (test_pipeline checks every
student), and a hostile cell costs exactly the tests of its own cell.
"""

from __future__ import annotations

import re

import pytest
from course_harness import BREAKOUTS_ON, TRICKS_ON

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]


def _corpus(course):
    return [(name, student, expectation) for name, a in course.assignments.items()
            for student, expectation in a.attacks.items()]


def page_text(markup: str) -> str:
    markup = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", markup)
    return re.sub(r"<[^>]+>", "", markup)


def test_every_attack_is_graded_as_expected(course):
    wrong = []
    for name, student, expectation in _corpus(course):
        a = course.assignments[name]
        got = a.graded[student]
        kind = expectation[0]
        if kind == "at_most":
            ok = got.score <= a.graded[expectation[1]].score
            want = f"<= {a.graded[expectation[1]].score} ({expectation[1]})"
        elif kind == "exactly":
            target = got.max_score - a.points(expectation[1])
            ok, want = got.score == target, f"== {target}"
        else:
            ok, want = got.score == expectation[1], f"== {expectation[1]}"
        if not ok:
            wrong.append(f"{name} {student}: {got.score}/{got.max_score}, expected {want}")
    assert not wrong, "\n".join(wrong)


def test_the_corpus_covers_both_assignments(course):
    tricks = {(n, s) for n, s, _ in _corpus(course) if s.startswith("trick_")}
    for name in TRICKS_ON:
        if name in course.assignments:
            assert len({s for n, s in tricks if n == name}) >= 10, name


def test_the_course_folder_is_unchanged(course):
    changed = {k for k in course.hashes_before
               if course.hashes_after.get(k) != course.hashes_before[k]}
    added = set(course.hashes_after) - set(course.hashes_before)
    assert not changed and not added, (sorted(changed), sorted(added))


def test_no_file_was_planted_for_later_kernels(course):
    assert not course.planted


def test_the_reference_earns_full_marks_before_and_after_the_attacks(course):
    a = course.assignments.get(BREAKOUTS_ON)
    if a is None:
        pytest.skip(f"{BREAKOUTS_ON} not in this run")
    for student in ("reference", "zz_reference_after", "wall_vandal"):
        graded = a.graded[student]
        assert graded.score == graded.max_score > 0, (student, graded.score)


@pytest.mark.parametrize("student, words", [
    ("wall_memory_hog", "more memory than a graded notebook may"),
    ("wall_interrupt_proof_loop", "did not stop when interrupted"),
    ("wall_kernel_killer", "kernel stopped while running this cell"),
])
def test_a_hostile_cell_is_explained_in_its_feedback(course, student, words):
    a = course.assignments.get(BREAKOUTS_ON)
    if a is None:
        pytest.skip(f"{BREAKOUTS_ON} not in this run")
    text = " ".join(page_text(course.feedback_html(a.name, student)).split())
    assert words in text


def test_stolen_answers_and_hidden_tests_stay_out_of_reach(course):
    a = course.assignments.get(BREAKOUTS_ON)
    if a is None:
        pytest.skip(f"{BREAKOUTS_ON} not in this run")
    blocked = ("PermissionError", "FileNotFoundError", "OSError")
    text = page_text(course.feedback_html(a.name, "wall_steal_answers"))
    assert "could not read" in text and any(b in text for b in blocked)
    text = page_text(course.feedback_html(a.name, "wall_vandal"))
    assert "gradebook: " in text and "classmate: " in text and "source: " in text


def test_the_integrity_report_names_every_trick_and_no_honest_answer(course):
    from course_harness import students_module

    from puzzlekit.course.integrity import report
    for name in TRICKS_ON:
        if name not in course.assignments:
            continue
        a = course.assignments[name]
        named = {f.student for f in report(course.root, name)}
        tricks = {s for s in a.attacks if s.startswith(("trick_", "wall_"))
                  and s not in ("wall_memory_hog", "wall_interrupt_proof_loop")}
        assert tricks <= named, f"not named in {name}: {sorted(tricks - named)}"
        module = students_module(name)
        # the simulated students make mistakes, not tricks; the one that answers with
        # puzzlekit's own nextStates reaches the reference, and is rightly named
        honest = {"reference", "untouched", "none_answers", "zz_reference_after",
                  *(s for s in (module.STUDENTS if module else ()) if "puzzlekit" not in s)}
        assert not honest & named, f"honest answers named in {name}: {sorted(honest & named)}"


# ---------------------------------------------------------------------------
# The second ring: what crosses the kernel's edge

def _ring(course):
    return [(a, s) for a in course.assignments.values() for s in a.graded
            if s.startswith("ring_")]


def test_the_second_ring_is_graded_in_bounded_time(course):
    """Each ring attack ends: the ones that stalled a class before (a crafted random
    state, a reply built to collide) in seconds, the ones that spend time (sleeps, added
    cells, deaths and replays) when their notebook's time is up. Generous bounds: a
    notebook that ran away would take many minutes, or never end."""
    from attacks import BUDGET_ATTACKS, TIGHT_NOTEBOOK_TIMEOUT
    from course_harness import CELL_TIMEOUT, TIME_SCALE
    ring = _ring(course)
    if not ring:
        pytest.skip("no ring attacks in this run")
    budget = TIGHT_NOTEBOOK_TIMEOUT * TIME_SCALE
    slow = []
    for a, student in ring:
        seconds = a.graded[student].seconds
        bound = budget + 2 * CELL_TIMEOUT + 60 if student in BUDGET_ATTACKS else 240
        if seconds > bound:
            slow.append(f"{a.name} {student}: {seconds:.0f} s > {bound:.0f} s")
    assert not slow, slow


@pytest.mark.parametrize("student, words", [
    ("ring_many_cells", "used up the time the grader gives one notebook"),
    ("ring_sleepy_cells", "used up the time the grader gives one notebook"),
    ("ring_deaths_and_replays", "used up the time the grader gives one notebook"),
    ("ring_collision_reply", "too large or odd for the grader"),
    ("ring_huge_reply", "too large or odd for the grader"),
    ("ring_huge_display", "[output cut: this cell displayed more than"),
    ("ring_random_state", "in a state the grader cannot use"),
])
def test_a_ring_attack_is_explained_in_its_feedback(course, student, words):
    found = [a for a, s in _ring(course) if s == student]
    if not found:
        pytest.skip(f"{student} not in this run")
    text = " ".join(page_text(course.feedback_html(found[0].name, student)).split())
    assert words in text


def test_a_huge_display_leaves_a_small_graded_notebook(course):
    found = [a for a, s in _ring(course) if s == "ring_huge_display"]
    if not found:
        pytest.skip("ring_huge_display not in this run")
    a = found[0]
    path = course.root / "autograded" / "ring_huge_display" / a.name / a.notebook
    assert path.stat().st_size < 20 * 1024 ** 2


def test_a_search_that_rewrites_its_cost_table_earns_what_its_twin_earns(course):
    a = course.assignments.get("02-uninformed-search")
    if a is None or "ring_ucs_rewrites_costs" not in a.graded:
        pytest.skip("not in this run")
    assert a.graded["ring_ucs_rewrites_costs"].cells["ucs_tests"] <= \
        a.graded["ucs_counts_moves"].cells["ucs_tests"] < 4
