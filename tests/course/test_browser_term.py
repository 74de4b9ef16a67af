"""A student's view of the term, in a real JupyterLab: the due date in the assignment's
notebook, and after feedback is released, the mark and late penalty on their marks page.

An instructor (nbgrader's command line, a course copy with a due date 26 hours ago and
the per-day policy) releases assignment 1; the student fetches it in nbgrader's
Assignments list, opens the notebook (its first cell says when it is due and what
lateness costs), hands in the model solution with the list's Submit button, and after
the instructor grades and releases feedback, fetches it with Fetch Feedback and opens
``marks-<course>.html``. Screenshots go to test-artifacts/term-*.png.
"""

from __future__ import annotations

import datetime
import getpass
import json
import re
from pathlib import Path

import pytest
from browser_support import chromium, jupyter_lab, require_chromium, screenshot
from test_term import ASSIGNMENT, copy_course, env_of, gradebook, make_exchange, nbgrader

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.nbgrader]

COURSE = "term-view"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"


def student_config(exchange: Path, cache: Path) -> str:
    """The student's nbgrader_config.py as the guide gives it (with a test's own cache)."""
    return (f"c = get_config()\nc.Exchange.root = {str(exchange)!r}\n"
            f"c.Exchange.cache = {str(cache)!r}\n"
            'c.ExchangeFactory.fetch_assignment = "puzzlekit.course.term_view.FetchAssignment"\n'
            'c.ExchangeFactory.fetch_feedback = "puzzlekit.course.term_view.FetchFeedback"\n')


def open_assignments(page) -> object:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Nbgrader$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Assignment List$")).click()
    panel = page.locator("#nbgrader-assignment-list")
    panel.wait_for(timeout=60_000)
    return panel


def item(panel, list_id: str) -> object:
    return panel.locator(f"#{list_id} .list_item", has_text=ASSIGNMENT).first


def test_a_student_sees_the_due_date_and_their_returned_mark(tmp_path):
    require_chromium()
    me = getpass.getuser()      # nbgrader names a submission after its Unix owner
    exchange = make_exchange(tmp_path / "exchange")
    course = copy_course(tmp_path / COURSE)
    teacher = env_of(tmp_path, exchange, COURSE, "teacher")
    due = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=26)).replace(
        microsecond=0, tzinfo=None)
    nbgrader("db", "student", "add", me, cwd=course, env=teacher)
    nbgrader("generate_assignment", ASSIGNMENT, cwd=course, env=teacher)
    nbgrader("db", "assignment", "add", ASSIGNMENT, f"--duedate={due:%Y-%m-%d %H:%M:%S} UTC",
             cwd=course, env=teacher)
    (course / "nbgrader_config.py").open("a").write(
        'c.LateSubmissionPlugin.penalty_method = "per_day"\n')
    nbgrader("release_assignment", ASSIGNMENT, cwd=course, env=teacher)

    home = tmp_path / "student"
    home.mkdir()
    (home / "nbgrader_config.py").write_text(student_config(exchange, tmp_path / "cache"))
    with jupyter_lab(home, tmp_path / "lab") as lab, chromium() as page:
        page.goto(f"{lab.url}/lab?token={lab.token}&reset")
        panel = open_assignments(page)
        released = item(panel, "released_assignments_list")
        released.wait_for(timeout=60_000)
        released.locator("button", has_text="Fetch").click()
        item(panel, "fetched_assignments_list").wait_for(timeout=60_000)

        # the student's answers: the model solution, under the release's due-date cell
        fetched = home / ASSIGNMENT / NOTEBOOK
        nb = json.loads(fetched.read_text())
        first = nb["cells"][0]
        assert "due" in first["metadata"]["puzzlekit"], first
        model = json.loads((course / "source" / ASSIGNMENT / NOTEBOOK).read_text())
        nb["cells"] = [first, *model["cells"]]
        fetched.write_text(json.dumps(nb))

        page.goto(lab.lab_url(f"{ASSIGNMENT}/{NOTEBOOK}"))
        note = page.locator(".jp-MarkdownCell", has_text="Due ").first
        # JupyterLab may render the cell again after it first appears (its text is
        # briefly empty then): wait for the words, not for the element
        from playwright.sync_api import expect
        expect(note).to_contain_text(f"Due {due:%a %d %b %Y, %H:%M} UTC.", timeout=60_000)
        expect(note).to_contain_text(
            "loses 1 point for each day or part of a day, at most 5 in all", timeout=60_000)
        screenshot(page, "term-due-date-in-the-notebook")

        panel = open_assignments(page)
        fetched_item = item(panel, "fetched_assignments_list")
        fetched_item.locator("button", has_text="Submit").first.click()
        item(panel, "submitted_assignments_list").wait_for(timeout=60_000)

        # the instructor: collect, grade (the per-day policy), feedback
        nbgrader("collect", ASSIGNMENT, cwd=course, env=teacher)
        nbgrader("autograde", ASSIGNMENT, cwd=course, env=teacher)
        nbgrader("generate_feedback", ASSIGNMENT, cwd=course, env=teacher)
        nbgrader("release_feedback", ASSIGNMENT, cwd=course, env=teacher)
        with gradebook(course, COURSE) as gb:
            sub = gb.find_submission(ASSIGNMENT, me)
            score, penalty, max_score = sub.score, sub.late_submission_penalty, sub.max_score
        assert penalty == 2.0 and score > penalty, (score, penalty)

        panel.locator("button[title='Refresh assignments list'], #refresh_assignments_list, "
                      "button:has(.fa-refresh), .fa-refresh").first.click()
        submitted = item(panel, "submitted_assignments_list")
        submitted.locator("button", has_text=re.compile("Fetch Feedback", re.I)).first \
            .click(timeout=60_000)
        submitted.locator("a", has_text="view feedback").first.wait_for(timeout=60_000)
        screenshot(page, "term-feedback-fetched")

        marks = f"marks-{COURSE}.html"
        assert (home / marks).is_file()
        page.goto(lab.lab_url(marks))
        frame = page.frame_locator("iframe").first
        row = frame.locator("tr", has_text=ASSIGNMENT)
        row.wait_for(timeout=60_000)
        cells = row.locator("th, td").all_inner_texts()
        assert cells[0] == ASSIGNMENT
        assert cells[1] == f"{due:%a %d %b %Y, %H:%M} UTC"
        assert cells[3] == f"{score - penalty:g} / {max_score:g}", cells
        assert cells[4] == "−2", cells
        assert re.fullmatch(r"2\d h late \(due .+ UTC\): −2 points", cells[5]), cells
        screenshot(page, "term-marks-page")


def test_the_marks_page_before_and_without_feedback(tmp_path):
    """Before any feedback: each released assignment with its due date, "not returned yet";
    an assignment released without a due date says so; no notebook, no row."""
    from puzzlekit.course.term_view import add_due_notes, write_marks_page
    exchange = tmp_path / "exchange"
    for name in ("01-a", "02-b"):
        folder = exchange / "c-1" / "outbound" / name
        folder.mkdir(parents=True)
        (folder / f"{name}.ipynb").write_text(json.dumps(
            {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    due = datetime.datetime(2026, 11, 2, 17, 0)
    assert add_due_notes(exchange / "c-1" / "outbound" / "01-a", due, "Late costs 0.") == 1
    assert add_due_notes(exchange / "c-1" / "outbound" / "01-a", due, "Late costs 0.") == 1
    nb = json.loads((exchange / "c-1" / "outbound" / "01-a" / "01-a.ipynb").read_text())
    assert len(nb["cells"]) == 1        # replaced, not added twice
    (tmp_path / "home").mkdir()
    page = write_marks_page(tmp_path / "home", str(exchange), "c-1")
    text = re.sub(r"<[^>]+>", " ", page.read_text())
    assert re.search(r"01-a\s+Mon 02 Nov 2026, 17:00 UTC\s+—\s+not returned yet", text), text
    assert re.search(r"02-b\s+no due date\s+—\s+not returned yet", text), text
    assert add_due_notes(exchange / "c-1" / "outbound" / "01-a", None, "") == 1
    nb = json.loads((exchange / "c-1" / "outbound" / "01-a" / "01-a.ipynb").read_text())
    assert nb["cells"] == []


def test_the_marks_page_and_the_due_date_pass_axe_and_fit_a_phone(tmp_path):
    """What a student reads of the term, in headless Chromium: no WCAG 2.1 A/AA violation
    (axe-core), and at 320 CSS px the page never scrolls sideways (the table scrolls in a
    region of its own that the keyboard can reach)."""
    require_chromium()
    import nbformat
    from a11y_support import axe, describe
    from nbconvert import HTMLExporter

    from puzzlekit.course import term_view as tv
    due = datetime.datetime(2026, 11, 25, 1, 40)
    mark = tv.Mark("Thu 26 Nov 2026, 03:40 UTC", 23, 27, 2,
                   "27 h late (due Wed 25 Nov 2026 01:40 UTC): −2 points")
    (tmp_path / "marks.html").write_text(tv.marks_page(
        "c-1", [("01-states-and-moves", due, mark), ("02-uninformed-search", due, None),
                ("03-informed-search", None, None)]), encoding="utf-8")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        tv.due_note(due, tv.policy_text("per_day", 1, 5)))])
    (tmp_path / "due.html").write_text(HTMLExporter().from_notebook_node(nb)[0],
                                       encoding="utf-8")
    with chromium() as page:
        for name, inside in (("marks.html", None), ("due.html", ".jp-MarkdownCell")):
            for width in (1280, 320):
                page.set_viewport_size({"width": width, "height": 800})
                page.goto((tmp_path / name).as_uri())
                found = axe(page, inside)
                assert found == [], f"{name} at {width} px:\n{describe(found)}"
                wide = page.evaluate("() => document.documentElement.scrollWidth")
                assert wide <= width, f"{name} scrolls sideways at {width} px ({wide} px)"
                if name == "marks.html":
                    region = page.get_by_role("region", name="Your marks")
                    assert region.get_attribute("tabindex") == "0"
