"""The course in any browser (issue 35): the JupyterLite site of `make lite`, served on
127.0.0.1 only, in headless Chromium with every other request refused.

The site is built once per checkout (deploy/lite/build.py; kept in
~/.cache/puzzlekit-lite/site-<hash of the files it is made of>, PUZZLEKIT_LITE_CACHE to
move it); the first build needs PyPI and npm and is skipped, with the reason, when they
cannot be reached. Then: the student versions hold no solution; with the model answer
typed into 02's `search`, Run All gives the visible tests' ✔ lines and see_search's
stepper; the demos run, a board renders, the playable board answers a click, and a cell
that needs numpy or matplotlib says so instead of a ModuleNotFoundError (the animations
are the kit's own HTML: they play).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from browser_support import (REPO, chromium, offline, require_chromium, screenshot,
                             slide_by_click, static_site)

pytestmark = [pytest.mark.slow, pytest.mark.browser]

sys.path.insert(0, str(REPO / "deploy" / "lite"))
import build as lite  # noqa: E402  (deploy/lite/build.py)

CACHE = Path(os.environ.get("PUZZLEKIT_LITE_CACHE", Path.home() / ".cache" / "puzzlekit-lite"))
#: what the site is made of: a change to any of these builds it again
SOURCES = ["puzzlekit", "notebooks/source", "notebooks/demos", "notebooks/nbgrader_config.py",
           "deploy/lite", "pyproject.toml"]
KERNEL_TIMEOUT = 180_000        #: ms for the kernel's first start (Pyodide, 19 wheels)
RUN_TIMEOUT = 300_000           #: ms for Run All on two busy cores
#: the signs of registries that cannot be reached, in pip's and npm's words
OFFLINE = re.compile(r"Could not find a version|No matching distribution|ENOTFOUND|"
                     r"EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|Network is unreachable|"
                     r"Failed to establish a new connection|Temporary failure in name")

#: JS: Run All has finished: no cell waits ("[*]"), at least one ran
QUEUE_DONE = """() => {
  const p = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
    .map(e => e.textContent.trim());
  return p.length > 0 && !p.includes('[*]:') && p.some(t => /^\\[\\d+\\]:$/.test(t));
}"""


def checkout_key() -> str:
    digest = hashlib.sha256()
    for name in SOURCES:
        path = REPO / name
        for f in sorted([path] if path.is_file() else path.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and ".ipynb_checkpoints" not in f.parts:
                digest.update(str(f.relative_to(REPO)).encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()[:16]


@pytest.fixture(scope="module")
def site() -> tuple[Path, dict]:
    require_chromium()
    out = CACHE / f"site-{checkout_key()}"
    if not (out / "puzzlekit-lite.json").exists():
        try:
            lite.build(out, CACHE)
        except lite.BuildError as e:
            if OFFLINE.search(str(e)):
                pytest.skip(f"make lite needs PyPI and npm the first time: {str(e)[-300:]}")
            raise
        for old in CACHE.glob("site-*"):              # one site per cache: the newest
            if old != out:
                shutil.rmtree(old, ignore_errors=True)
    return out, json.loads((out / "puzzlekit-lite.json").read_text())


@pytest.fixture(scope="module")
def base(site) -> str:
    """The site on http://127.0.0.1:PORT, a plain static server (no other address)."""
    with static_site(site[0]) as url:
        yield url


@pytest.fixture(scope="module")
def browser(base):
    with chromium() as page:
        refused = offline(page, allow=(base, "data:", "blob:"))
        # leaving a changed notebook asks first (Playwright's default, dismiss, would stay)
        page.on("dialog", lambda dialog: dialog.accept())
        yield page, refused
        assert refused == [], f"the site reached for the network: {refused[:5]}"


def menu(page, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{top}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).click()


def open_notebook(page, base: str, path: str) -> float:
    """Open `path` of the site; wait for its kernel to be idle; the seconds it took."""
    started = time.perf_counter()
    page.goto(f"{base}/lab/index.html?path={path}")
    page.locator("#jp-main-statusbar").get_by_text(re.compile(r"\bIdle\b")).first.wait_for(
        timeout=KERNEL_TIMEOUT)
    return time.perf_counter() - started


def run_all(page, name: str) -> None:
    try:
        menu(page, "Run", "Run All Cells")
        page.wait_for_function(QUEUE_DONE, timeout=RUN_TIMEOUT, polling=1000)
    except Exception:
        screenshot(page, f"lite-{name}-failed")
        raise
    screenshot(page, f"lite-{name}-ran")


def cell(page, index: int):
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


def outputs(page) -> list[str]:
    return page.locator(".jp-Notebook .jp-OutputArea-output").all_inner_texts()


def no_module_not_found(page) -> None:
    texts = outputs(page)
    assert not [t for t in texts if "ModuleNotFoundError" in t], texts
    for t in texts:
        if "MissingExtra" in t:                       # what a missing package says instead
            assert re.search(r'needs (numpy|matplotlib).*pip install "puzzlekit\[', t), t


def model_answer(assignment: str, grade_id: str) -> str:
    """The model solution of the cell `grade_id` (its code without the solution markers)."""
    source = json.loads((REPO / "notebooks" / "source" / assignment /
                         f"{assignment}.ipynb").read_text())
    code = next("".join(c["source"]) for c in source["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)
    code = "\n".join(line for line in code.splitlines() if "### " not in line
                     or not re.search(r"### (BEGIN|END) SOLUTION", line))
    return code


def student_cell_index(site_dir: Path, assignment: str, grade_id: str) -> int:
    nb = json.loads((site_dir / "files" / "assignments" / f"{assignment}.ipynb").read_text())
    return next(i for i, c in enumerate(nb["cells"])
                if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)


def type_into(page, index: int, code: str) -> None:
    """Replace the code of cell `index` as a student would (select all, then the text)."""
    editor = cell(page, index).locator(".cm-content")
    editor.scroll_into_view_if_needed()
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)                  # no auto-indent, no closing brackets
    page.keyboard.press("Escape")


# ---------------------------------------------------------------------------------- tests

def test_the_site_holds_student_versions_and_every_wheel_it_needs(site):
    out, summary = site
    assert len([n for n in summary["notebooks"] if n.startswith("assignments/")]) == 4
    assert len([n for n in summary["notebooks"] if n.startswith("demos/")]) == 3
    for nb in (out / "files" / "assignments").glob("*.ipynb"):
        text = nb.read_text()
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text, nb.name
    assert "parent = {start: None}" not in (out / "files" / "assignments" /
                                            "02-uninformed-search.ipynb").read_text()
    lock = json.loads((out / "static" / "pyodide" / "pyodide-lock.json").read_text())
    for name, spec in lock["packages"].items():
        wheel = out / "static" / "pyodide" / spec["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == spec["sha256"], name
        assert set(spec["depends"]) <= set(lock["packages"]), name
    assert {"puzzlekit", "ipywidgets", "ipython"} <= set(lock["packages"])
    assert not {"numpy", "matplotlib"} & set(lock["packages"])


def test_with_the_model_search_run_all_gives_the_visible_tests_ticks(site, base, browser):
    page, _ = browser
    first = open_notebook(page, base, "assignments/02-uninformed-search.ipynb")
    index = student_cell_index(site[0], "02-uninformed-search", "search_solution")
    type_into(page, index, model_answer("02-uninformed-search", "search_solution"))
    run_all(page, "02")
    no_module_not_found(page)
    ticks = [t for t in outputs(page) if "✔ search" in t]
    assert any("✔ search:" in t for t in ticks) and any("✔ search_report:" in t for t in ticks), \
        [t[-300:] for t in outputs(page) if "search" in t][:6]
    # see_search draws the search and steps through it (its script ran in the page)
    view = page.locator(".jp-OutputArea-output .pk-controls").first
    view.scroll_into_view_if_needed()
    assert view.is_visible()
    slider = view.locator(".pk-slider")
    last = slider.input_value()
    view.locator("[data-act=first]").click()
    assert slider.input_value() == "0" != last
    screenshot(page.locator(".jp-OutputArea-output:has(.pk-controls)").first, "lite-02-see-search")
    print(f"02: the kernel idle {first:.1f} s after the page was opened")


def test_demo_01_draws_a_board_the_playable_board_answers_and_the_animations_play(
        site, base, browser):
    page, _ = browser
    open_notebook(page, base, "demos/01-see-search.ipynb")
    run_all(page, "demo-01")
    no_module_not_found(page)
    board = page.locator(".jp-OutputArea-output table.pk-board").first
    board.scroll_into_view_if_needed()
    assert len(board.locator("td").all()) == 9
    playable = page.locator(".jp-OutputArea-output:has(.puzzlekit-playable)").first
    playable.scroll_into_view_if_needed()
    slide_by_click(page, playable, timeout=30_000)
    screenshot(playable, "lite-demo-01-playable")
    # the animations are the kit's own HTML and script: they play here too
    players = page.locator(".jp-OutputArea-output .pk-player")
    assert players.count() >= 2, outputs(page)
    player = players.last
    player.scroll_into_view_if_needed()
    slider = player.locator(".pk-slider")
    player.locator("[data-act=first]").click()
    assert slider.input_value() == "0"
    player.locator("[data-act=last]").click()
    assert slider.input_value() != "0"
    page.wait_for_timeout(800)          # the tiles' slide to the end is over
    screenshot(player, "lite-demo-01-animation")


def test_demo_03_says_that_pattern_databases_need_numpy(site, base, browser):
    page, _ = browser
    open_notebook(page, base, "demos/03-pattern-databases.ipynb")
    run_all(page, "demo-03")
    no_module_not_found(page)
    assert any('pip install "puzzlekit[' in t for t in outputs(page)), outputs(page)[:3]


@pytest.mark.parametrize("path", ["assignments/01-states-and-moves.ipynb",
                                  "assignments/03-informed-search.ipynb",
                                  "assignments/04-fifteen-puzzle.ipynb",
                                  "demos/02-see-heuristics.ipynb"])
def test_every_other_notebook_opens(site, base, browser, path):
    # a browser profile of its own: JupyterLite keeps the open tabs in the browser's storage
    context = browser[0].context.browser.new_context()
    page = context.new_page()
    try:
        refused = offline(page, allow=(base, "data:", "blob:"))
        page.goto(f"{base}/lab/index.html?path={path}")
        title = page.locator(".jp-Notebook .jp-MarkdownCell h1").first
        title.wait_for(timeout=60_000)
        assert title.inner_text().strip()
        assert page.locator(".jp-Notebook .jp-CodeCell").count() > 3
        assert refused == []
    finally:
        context.close()
