"""The demo notebook in Notebook 7 (`jupyter notebook`), driven by headless Chromium.

Notebook 7 is built from JupyterLab's pieces but is its own application: its own page,
menus, toolbar and widget manager set-up. A private copy of
``notebooks/demos/01-see-search.ipynb`` is opened there and run with Run → Run All Cells;
then the coloured board, the animation player and the playable board must show, and a
click on a tile next to the blank must slide it. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest
from browser_support import (
    ACTIVE_CELL,
    ALL_CELLS_RAN,
    REPO,
    chromium,
    copy_notebook,
    jupyter_notebook,
    require_chromium,
    screenshot,
    slide_by_arrow_key,
    slide_by_click,
    tiles,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEMO = REPO / "notebooks" / "demos" / "01-see-search.ipynb"
RUN_ALL_TIMEOUT = 240_000      #: ms for Run All on two busy cores
STEP_TIMEOUT = 60_000          #: ms for one interaction to show its effect

def kernel_idle(server) -> bool:
    """True when the server has a session whose kernel is idle."""
    with urllib.request.urlopen(f"{server.url}/api/sessions?token={server.token}",
                                timeout=5) as r:
        return any(s["kernel"]["execution_state"] == "idle" for s in json.load(r))


def start_kernel(page, server) -> None:
    """Wait until the notebook's kernel is up and idle, and the page knows it (Run All
    before that runs nothing). On a slow machine Notebook 7 may ask which kernel to start
    before its kernel list has loaded: the dialog's default is the notebook's own."""
    select = page.locator(".jp-Dialog .jp-mod-accept")
    indicator = page.locator(".jp-Notebook-ExecutionIndicator[data-status=idle]")
    deadline = time.monotonic() + 2 * STEP_TIMEOUT / 1000
    while not (indicator.count() and kernel_idle(server)):
        if select.count():
            select.first.click()
        if time.monotonic() > deadline:
            raise TimeoutError("the notebook's kernel did not start")
        page.wait_for_timeout(500)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo notebook open in Notebook 7 after Run All Cells has finished."""
    require_chromium()
    tmp = tmp_path_factory.mktemp("notebook7")
    copy_notebook(DEMO, tmp / "root")
    with jupyter_notebook(tmp / "root", tmp) as server, chromium() as page:
        page.goto(server.notebook_url(DEMO.name))
        try:
            start_kernel(page, server)
            page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).click()
            page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")).click()
            page.wait_for_function(ALL_CELLS_RAN, timeout=RUN_ALL_TIMEOUT, polling=500)
        except Exception:
            screenshot(page, "nb7-failed")
            print(server.log_tail())
            raise
        screenshot(page, "nb7-01-ran")
        yield page


def outputs(page, selector: str):
    return page.locator(f".jp-OutputArea-output {selector}")


def test_the_demo_runs_in_notebook_7_without_an_error(demo):
    assert demo.locator("#main-panel .jp-NotebookPanel").count() == 1   # Notebook 7's page
    stderr = demo.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
                          ).all_inner_texts()
    assert not [t for t in stderr if "Traceback" in t or "Error" in t]


def test_the_board_is_coloured_one_colour_per_tile(demo):
    board = outputs(demo, "table.pk-board").first
    board.scroll_into_view_if_needed()
    colours = board.evaluate("""t => [...t.querySelectorAll('td')].map(
        td => [td.textContent.trim(), getComputedStyle(td).backgroundColor])""")
    assert len(colours) == 9 and len({c for _, c in colours}) == 9
    assert [c for text, c in colours if text == ""] == ["rgb(255, 255, 255)"]
    screenshot(board, "nb7-02-board")


def test_the_animation_player_runs_its_script_and_steps(demo):
    player = outputs(demo, ".pk-player[data-ready]").last      # data-ready: its script ran
    player.scroll_into_view_if_needed()
    counter, stage = player.locator(".pk-counter"), player.locator(".pk-stage")
    first = stage.get_attribute("aria-label")
    total = int(player.locator(".pk-slider").get_attribute("max")) + 1
    assert total == 32                       # a 31-move path, a step a move
    assert counter.inner_text() == "start · 31 moves"      # the counter speaks in moves
    player.locator("[data-act=last]").click()
    assert counter.inner_text() == "solved in 31 moves"
    assert stage.get_attribute("aria-label") != first
    screenshot(player, "nb7-03-animation")


def test_the_path_player_and_the_playable_boards_are_live_widgets(demo):
    assert outputs(demo, ".puzzlekit-player").count() == 1
    assert outputs(demo, ".puzzlekit-board").count() == 2     # 8- and 15-puzzle
    assert sorted(tiles(outputs(demo, ".puzzlekit-board").nth(1))) == sorted(
        [""] + [str(t) for t in range(1, 16)])


def test_clicking_a_tile_next_to_the_blank_slides_it(demo):
    board = outputs(demo, ".puzzlekit-board").first
    board.scroll_into_view_if_needed()
    screenshot(board, "nb7-04-playable-before")
    slide_by_click(demo, board, STEP_TIMEOUT)
    assert "moves made: 1" in board.inner_text()
    screenshot(board, "nb7-05-playable-after")


def test_arrow_keys_slide_tiles_while_the_board_has_focus_and_leave_cells_alone(demo):
    board = outputs(demo, ".puzzlekit-board").first
    board.scroll_into_view_if_needed()
    slide_by_arrow_key(demo, board, STEP_TIMEOUT)
    screenshot(board, "nb7-06-arrow-key")


def test_without_the_board_an_arrow_key_in_an_output_moves_the_active_cell(demo):
    """The control for the test above: Notebook 7 does take arrow keys from outputs."""
    status = outputs(demo, ".puzzlekit-board .widget-html").first
    status.evaluate("e => { e.tabIndex = 0; e.focus(); }")
    cell = demo.evaluate(ACTIVE_CELL)
    demo.keyboard.press("ArrowUp")
    demo.wait_for_function(f"() => ({ACTIVE_CELL})() !== {cell}", timeout=STEP_TIMEOUT)


#: everything the kit draws or offers, and whether any of it lies beyond the right edge
CUT_OFF = """() => [...document.querySelectorAll('.jp-OutputArea-output button, ' +
    '.jp-OutputArea-output .pk-stage, .jp-OutputArea-output table.pk-board, ' +
    '.jp-OutputArea-output .pk-controls > *')]
  .filter(e => e.getClientRects().length)
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .map(e => e.className + ' ' + e.textContent.trim().slice(0, 20))"""


def test_at_390_px_the_notebook_takes_the_width_and_cuts_nothing_off(demo):
    """A phone (390 px): Notebook 7's page (what `make lab` names for a narrow screen, and
    `make notebook` opens) gives the notebook the whole width, and no button of the
    playable boards, the players or the path player and no board lies beyond the edge.
    (JupyterLab at 390 px leaves the notebook a column of about 60 px: measured once.)"""
    demo.set_viewport_size({"width": 390, "height": 844})
    try:
        demo.wait_for_timeout(500)
        panel = demo.locator("#main-panel .jp-NotebookPanel").bounding_box()
        assert panel["width"] >= 380, panel
        cut = demo.evaluate(CUT_OFF)
        assert not cut, cut[:10]
        board = outputs(demo, ".puzzlekit-board").first
        board.scroll_into_view_if_needed()
        screenshot(demo, "nb7-390-board")
    finally:
        demo.set_viewport_size({"width": 1400, "height": 1000})
