"""A student's first hour, in a real JupyterLab as a new user finds it.

The released notebook of assignment 1 (every stub untouched, every function that has
been "written" returning nothing is in tests/simulated_class/test_student_view.py) is opened in
JupyterLab with a new user's default settings (news pop-up, windowed notebook), run with
Run → Run All Cells and validated with nbgrader's Validate button. Run All must reach the
summary cell at the end (every cell that may fail is tagged raises-exception), the
failures must say what to do, and the Validate dialog must list each failing test in a
line, without tracebacks. Screenshots go to test-artifacts/student-*.png.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from browser_support import REPO, chromium, jupyter_lab, require_chromium, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.nbgrader]

ASSIGNMENT = "01-states-and-moves"
RUN_ALL_TIMEOUT = 360_000
STEP_TIMEOUT = 60_000


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    """The student's copy of assignment 1, as nbgrader releases it."""
    pytest.importorskip("nbgrader")
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader
    tmp = tmp_path_factory.mktemp("student")
    course = tmp / "course"
    shutil.copytree(REPO / "notebooks" / "source", course / "source")
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", course)
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course)
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    assert api.generate_assignment(ASSIGNMENT)["success"]
    home = tmp / "home"
    home.mkdir()
    return Path(shutil.copy(course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", home))


@pytest.fixture(scope="module")
def lab(release, tmp_path_factory):
    require_chromium()
    with jupyter_lab(release.parent, tmp_path_factory.mktemp("lab"), user_defaults=True) as s:
        yield s


def wait_idle(page, timeout: int = RUN_ALL_TIMEOUT) -> None:
    page.locator("#jp-main-statusbar").get_by_text(re.compile(r"\bIdle\b")).first.wait_for(
        timeout=timeout)


def save(page, timeout_s: float = 60) -> None:
    """Save the notebook (Ctrl+S) and wait until it is saved; a dialog on the way (the
    file changed on disk, under a loaded machine) is answered by keeping this version."""
    page.keyboard.press("Control+s")
    for _ in range(int(timeout_s * 2)):
        keep = page.locator(".jp-Dialog button", has_text=re.compile("^(Overwrite|Save)$"))
        if keep.count():
            keep.first.click()
        if not page.locator(".jp-mod-dirty").count():
            return
        page.wait_for_timeout(500)
    raise AssertionError("the notebook was not saved")


def scroll_to(page, locator, steps: int = 80) -> None:
    """Scroll the windowed notebook until `locator` is drawn, then into view."""
    page.locator(".jp-Notebook").first.hover()
    for _ in range(steps):
        if locator.count():
            locator.first.scroll_into_view_if_needed()
            return
        page.mouse.wheel(0, 700)
        page.wait_for_timeout(150)
    raise AssertionError(f"never drawn: {locator}")


def test_run_all_reaches_the_summary_and_validate_lists_each_failure(lab, release):
    with chromium(width=1300, height=950) as page:
        page.goto(lab.lab_url(release.name))
        wait_idle(page)
        screenshot(page, "student-opened")
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")).click()
        summary = page.locator(".jp-OutputArea-output",
                               has_text=re.compile(r"points' worth of tests pass"))
        summary.first.wait_for(timeout=RUN_ALL_TIMEOUT)
        wait_idle(page)
        summary.first.scroll_into_view_if_needed()
        screenshot(page, "student-summary")
        text = summary.first.inner_text()
        assert "0 of 23" in text and "not written yet" in text and "moveUp" in text, text

        # a failing test, as the student reads it
        page.keyboard.press("Escape")
        page.keyboard.press("Control+Home")
        failure = page.locator(".jp-OutputArea-output", has_text="`findZero` is not written yet")
        scroll_to(page, failure)
        page.wait_for_timeout(300)
        screenshot(page, "student-failing-test")
        shown = failure.first.inner_text()
        assert "`raise NotImplementedError()` in its cell" in shown
        assert "site-packages" not in shown and "puzzlekit/" not in shown

        # nbgrader's Validate button: one line per failing test, no tracebacks
        save(page)
        page.locator(".validate-button button, button.validate-button, "
                     "jp-button.validate-button").first.click()
        dialog = page.locator(".jp-Dialog-content", has_text=re.compile("not written yet"))
        try:
            dialog.first.wait_for(timeout=RUN_ALL_TIMEOUT)
        except Exception:
            screenshot(page, "student-validate-failed")
            shown = page.locator(".jp-Dialog-content").all_inner_texts()
            raise AssertionError(f"no Validate dialog naming the stubs; dialogs: {shown}")
        dialog = dialog.first
        screenshot(page, "student-validate")
        body = dialog.inner_text()
        assert "Traceback" not in body and "site-packages" not in body
        box = dialog.bounding_box()
        (REPO / "test-artifacts" / "student-validate.json").write_text(json.dumps(
            {"dialog_px": box, "failing_lines": body.count("not written yet")
             + body.count("not defined yet")}))
        assert body.count("not written yet") + body.count("not defined yet") >= 10
