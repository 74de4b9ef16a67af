"""A hostile submission's outputs reach the instructor's browser as data, never as code.

A course of its own (assignment 01 and the course's nbgrader_config.py); a submission
whose cells display what a hostile student would: an HTML output whose script calls the
formgrader's grade API with the instructor's ``_xsrf`` cookie (full marks for itself), a
``Javascript`` output, an SVG with a script, an inline SVG with ``onload``, an HTML
widget whose value carries a script (nbclient keeps it in the notebook's widget state), a
forged kit bundle, a page takeover without a script (meta refresh, base, a fixed overlay, a
form), and a markdown answer with ``<img src=x onerror=...>``; one honest cell shows a kit
board.
It is autograded through the course's config, then a logged-in instructor (JupyterLab on
127.0.0.1 with a token, headless Chromium) opens the submission in the formgrader's
Manual grading page, and the student's feedback page is opened too. No script of the
student's may run (no dialog, no request to the grade API, no changed title, no console
marker, no takeover), the grades in gradebook.db stay as the autograder left them, the
markdown answer shows as its text, and the honest board still renders (screenshots in
test-artifacts/hostile-*.png).

Before the outputs were sanitised this test failed: six of the scripts ran in both pages,
and every grade of the submission went to full marks (0/27 -> 27/27).
"""

from __future__ import annotations

import json
import time

import pytest
from active_content import runnable
from browser_support import chromium, jupyter_lab, offline, require_chromium
from hostile_outputs import (
    A1,
    ARTIFACTS,
    MARK,
    assert_data_only,
    grades,
    make_course,
    submission_id,
)

pytest.importorskip("nbgrader")
pytestmark = [pytest.mark.nbgrader, pytest.mark.browser, pytest.mark.slow]


class Watch:
    """Everything a student's script could do in the page, recorded."""

    def __init__(self, page: object) -> None:
        self.console: list[str] = []
        self.dialogs: list[str] = []
        self.grade_requests: list[str] = []
        page.on("console", lambda m: self.console.append(m.text))  # type: ignore
        page.on("dialog", self._dialog)  # type: ignore[attr-defined]
        page.on("request", self._request)  # type: ignore[attr-defined]

    def _dialog(self, dialog: object) -> None:
        self.dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    def _request(self, request: object) -> None:
        url = request.url  # type: ignore[attr-defined]
        if "/formgrader/api/grade" in url and request.method != "GET":  # type: ignore
            self.grade_requests.append(f"{request.method} {url}")  # type: ignore

    def marks(self) -> list[str]:
        return [m for m in self.console if MARK in m]


#: JS: what of TAKEOVER made it into the page (a fixed overlay, a base, a refresh, a form)
TAKEOVER_FOUND = """() => {
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    if (getComputedStyle(el).position === 'fixed' && el.textContent.includes('FAKE-OVERLAY'))
      found.push('fixed overlay');
  }
  if (document.querySelector('base[href*="evil"]')) found.push('base');
  if (document.querySelector('meta[http-equiv]')) found.push('meta refresh');
  if (document.querySelector('form[action*="grade"]')) found.push('form');
  return found;
}"""


def settle(page: object, seconds: float = 4.0) -> None:
    """Let the page load, run what it runs and send what it sends."""
    page.wait_for_load_state("load")  # type: ignore[attr-defined]
    try:
        page.wait_for_load_state("networkidle", timeout=15_000)  # type: ignore
    except Exception:
        pass
    time.sleep(seconds)


def test_a_hostile_submission_runs_no_script_in_the_instructors_or_students_page(tmp_path):
    require_chromium()
    import nbformat
    course, _ = make_course(tmp_path)
    before = grades(course)
    assert before and all(m is None for _, m, _ in before.values()), before
    graded = nbformat.read(course / "autograded" / "mallory" / A1 / f"{A1}.ipynb",
                           as_version=4)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    sid = submission_id(course)
    found: dict[str, object] = {}
    with jupyter_lab(course, tmp_path) as lab, chromium() as page:
        watch = Watch(page)
        page.goto(f"{lab.url}/formgrader?token={lab.token}")          # log in
        settle(page, 1)
        submission = f"{lab.url}/formgrader/submissions/{sid}/"
        page.goto(submission)                                            # Manual grading
        settle(page)
        found["formgrader url"] = page.url
        found["formgrader takeover"] = page.evaluate(TAKEOVER_FOUND)
        page.screenshot(path=str(ARTIFACTS / "hostile-formgrader.png"), full_page=True)
        found["formgrader title"] = page.title()
        board = page.locator("table.pk-board")
        found["formgrader boards"] = board.count()
        if board.count():
            board.first.screenshot(path=str(ARTIFACTS / "hostile-formgrader-board.png"))
        answer = page.locator(".text_cell_render", has_text="My answer")
        markdown_text = answer.count()
        if markdown_text:
            answer.first.screenshot(path=str(ARTIFACTS / "hostile-formgrader-markdown.png"))
            found["formgrader answer"] = answer.first.inner_text()
        found["formgrader console"] = watch.marks()
        found["formgrader dialogs"] = list(watch.dialogs)
        found["formgrader grade requests"] = list(watch.grade_requests)

        feedback = course / "feedback" / "mallory" / A1 / f"{A1}.html"
        fb = Watch(page)
        refused = offline(page)
        page.goto(feedback.as_uri())
        settle(page)
        page.screenshot(path=str(ARTIFACTS / "hostile-feedback.png"), full_page=True)
        found["feedback url"] = page.url
        found["feedback takeover"] = page.evaluate(TAKEOVER_FOUND)
        found["feedback title"] = page.title()
        found["feedback boards"] = page.locator("table.pk-board").count()
        found["feedback console"] = fb.marks()
        found["feedback dialogs"] = list(fb.dialogs)
    after = grades(course)
    print(json.dumps({k: v for k, v in found.items()}, indent=1, default=str))
    print("refused requests of the feedback page:", refused)

    assert after == before, f"the page changed grades: {before} -> {after}"
    for where in ("formgrader", "feedback"):
        assert not found[f"{where} console"], found
        assert not found[f"{where} dialogs"], found
        assert MARK not in str(found[f"{where} title"]), found
        assert found[f"{where} boards"], f"the honest board is not drawn in the {where} page"
    assert not found["formgrader grade requests"], found
    assert found["formgrader url"].startswith(submission), found         # no refresh away
    assert found["feedback url"] == feedback.as_uri(), found
    assert not found["formgrader takeover"] and not found["feedback takeover"], found
    assert markdown_text, "the markdown answer's text is not shown in the formgrader"
    assert '<img src="x" onerror=' in str(found["formgrader answer"])   # shown as text
    assert_data_only(graded)            # what the graded notebook keeps: data only
    page_html = feedback.read_text(encoding="utf-8")
    assert not [code for code in runnable(page_html) if MARK in code]
    assert "application/vnd.jupyter.widget-state" not in page_html
