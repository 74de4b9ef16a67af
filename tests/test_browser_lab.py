"""The demo notebook in a real JupyterLab, driven by headless Chromium.

A private copy of ``notebooks/demos/01-see-search.ipynb`` is opened in a JupyterLab
started by the test, run with Run → Run All Cells, and then looked at: the coloured
boards, the animation player, the step-through player and the playable board must be
there and work. The notebook is then saved as JupyterLab saves it and exported with
nbconvert, and the export must still show the boards (the widgets' static pictures) with
the network unreachable. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from browser_support import (
    ACTIVE_CELL,
    ALL_CELLS_RAN,
    REPO,
    chromium,
    copy_notebook,
    execute,
    jupyter_lab,
    offline,
    require_chromium,
    screenshot,
    slide_by_arrow_key,
    slide_by_click,
    tiles,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEMO = REPO / "notebooks" / "demos" / "01-see-search.ipynb"
DEMO2 = REPO / "notebooks" / "demos" / "02-see-heuristics.ipynb"
RUN_ALL_TIMEOUT = 360_000      #: ms for Run All on two busy cores
STEP_TIMEOUT = 60_000          #: ms for one interaction to show its effect


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    require_chromium()
    tmp = tmp_path_factory.mktemp("lab")
    for notebook in (DEMO, DEMO2):
        copy_notebook(notebook, tmp / "root")
    with jupyter_lab(tmp / "root", tmp) as server:
        yield server


@pytest.fixture(scope="module")
def page(lab):
    with chromium() as p:
        yield p


def menu(page, top: str, item: str) -> None:
    """Click menu `top` of the menu bar, then its entry `item`."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{top}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).click()


def wait_idle(page, timeout: int = RUN_ALL_TIMEOUT) -> None:
    page.locator("#jp-main-statusbar").get_by_text(re.compile(r"\bIdle\b")).first.wait_for(
        timeout=timeout)


def run_all(page, lab, notebook, name: str):
    """Open `notebook` in JupyterLab, Run All Cells, wait until every cell has run."""
    page.goto(lab.lab_url(notebook.name))
    try:
        wait_idle(page)
        screenshot(page, f"{name}-opened")
        menu(page, "Run", "Run All Cells")
        page.wait_for_function(ALL_CELLS_RAN, timeout=RUN_ALL_TIMEOUT, polling=1000)
        wait_idle(page)
    except Exception:
        screenshot(page, f"{name}-failed")
        print(lab.log_tail())
        raise
    screenshot(page, f"{name}-ran")
    return page


@pytest.fixture(scope="module")
def demo(lab, page):
    """The demo notebook open in JupyterLab after Run All Cells has finished."""
    return run_all(page, lab, DEMO, "lab-01")


def errors(page) -> list[str]:
    texts = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
                        ).all_inner_texts()
    return [t for t in texts if "Traceback" in t or "Error" in t]


def outputs(page, selector: str):
    return page.locator(f".jp-OutputArea-output {selector}")


def test_every_cell_of_the_demo_runs_without_an_error(demo):
    assert not errors(demo)


def test_the_boards_are_coloured_one_colour_per_tile(demo):
    board = outputs(demo, "table").first
    board.scroll_into_view_if_needed()
    colours = board.evaluate("""t => [...t.querySelectorAll('td')].map(
        td => [td.textContent.trim(), getComputedStyle(td).backgroundColor])""")
    assert len(colours) == 9
    assert len({c for _, c in colours}) == 9
    blank = [c for text, c in colours if text == ""]
    assert blank == ["rgb(255, 255, 255)"]
    screenshot(board, "lab-03-board")


def test_the_animation_player_steps_through_its_moves(demo):
    player = demo.locator(".pk-player[data-ready]").last
    player.scroll_into_view_if_needed()
    counter, slider = player.locator(".pk-counter"), player.locator(".pk-slider")
    stage = player.locator(".pk-stage")
    first = stage.get_attribute("aria-label")
    assert int(slider.get_attribute("max")) + 1 == 32       # a 31-move path, a step a move
    assert counter.inner_text() == "start · 31 moves"      # the counter speaks in moves
    assert stage.locator("div").count() == 8                # the tiles, drawn by the script
    player.locator("[data-act=last]").click()
    assert counter.inner_text() == "solved in 31 moves"
    assert stage.get_attribute("aria-label") != first
    player.locator("[data-act=play]").click()          # from the end, play restarts
    demo.wait_for_function("c => c.textContent.startsWith('move ')",
                           arg=counter.element_handle(), timeout=STEP_TIMEOUT)
    screenshot(player, "lab-04-animation")


def test_the_path_player_moves_through_the_solution(demo):
    player = demo.locator(".puzzlekit-player").first
    player.scroll_into_view_if_needed()
    caption = player.locator(".widget-html").last
    assert "start" in caption.inner_text()
    before = player.locator("table").first.inner_text()
    player.locator(".widget-play button").first.click()      # ▶
    demo.wait_for_function("e => /after move \\d+ of 31/.test(e.textContent)",
                           arg=caption.element_handle(), timeout=STEP_TIMEOUT)
    assert player.locator("table").first.inner_text() != before
    screenshot(player, "lab-05-path-player")


def test_clicking_a_tile_next_to_the_blank_slides_it(demo):
    board = demo.locator(".puzzlekit-board").first
    board.scroll_into_view_if_needed()
    screenshot(board, "lab-06-playable-before")
    slide_by_click(demo, board, STEP_TIMEOUT)
    assert "moves made: 1" in board.inner_text()
    screenshot(board, "lab-07-playable-after")


def test_arrow_keys_slide_tiles_while_the_board_has_focus_and_leave_cells_alone(demo):
    board = demo.locator(".puzzlekit-board").first
    board.scroll_into_view_if_needed()
    slide_by_arrow_key(demo, board, STEP_TIMEOUT)
    screenshot(board, "lab-07b-arrow-key")


def test_the_kits_outputs_and_widgets_pass_axe_and_name_every_tile_live(demo):
    """Live in JupyterLab: axe-core finds nothing inside the kit's outputs and widgets
    (boards, players, the playable boards, the path player); a screen reader gets every
    tile button and the blank by name, and the players' controls in words."""
    from a11y_support import ax_subtrees, axe, describe
    kit = [f".jp-OutputArea-output {s}" for s in
           (".pk-figure", ".pk-path", ".pk-player", ".puzzlekit-board", ".puzzlekit-player")]
    demo.locator(".puzzlekit-player [role=slider][aria-label]").first.wait_for(
        state="attached", timeout=STEP_TIMEOUT)
    violations = axe(demo, kit)
    assert not violations, describe(violations)
    whole = demo.locator(".jp-OutputArea-output .puzzlekit-board").first
    grid = whole.locator(".puzzlekit-playable")
    board = ax_subtrees(demo, ".jp-OutputArea-output .puzzlekit-playable")[0]
    buttons = [x for x in board if x["role"] == "button"]
    # each tile named by its number alone (the blank "blank"), its place the description
    assert sorted(x["name"] for x in buttons) == sorted(["blank", *map(str, range(1, 9))])
    assert [x["description"] for x in buttons] == [f"row {r} column {c}" for r in (1, 2, 3)
                                                 for c in (1, 2, 3)]
    found = [grid.get_by_role("button", name=str(t), exact=True).count() for t in range(1, 9)]
    assert found == [1] * 8, f"tiles found by their numbers: {found}"
    # and still after a move (the names follow the tiles)
    slide_by_click(demo, whole, STEP_TIMEOUT)
    demo.wait_for_function("""g => Array.from(g.querySelectorAll('button')).every(
        b => b.getAttribute('aria-label') === (b.textContent.trim() || 'blank'))""",
                           arg=grid.element_handle(), timeout=STEP_TIMEOUT)
    moved = [x for x in ax_subtrees(demo, ".jp-OutputArea-output .puzzlekit-playable")[0]
             if x["role"] == "button"]
    assert [x["name"] for x in moved] == [t or "blank" for t in tiles(whole)]
    player = ax_subtrees(demo, ".jp-OutputArea-output .puzzlekit-player")[0]
    named = {(x["role"], x["name"]) for x in player}
    assert {("button", "stop"), ("slider", "move"), ("slider", "speed")} <= named, named
    assert ("button", "play") in named or ("button", "pause") in named, named


def test_arrow_keys_step_the_animation_player_inside_jupyterlab(demo):
    player = demo.locator(".pk-player[data-ready]").last
    player.scroll_into_view_if_needed()
    player.locator("[data-act=first]").click()
    live = player.locator(".pk-live")
    cell = demo.evaluate(ACTIVE_CELL)
    player.locator(".pk-slider").focus()
    demo.keyboard.press("ArrowRight")
    demo.wait_for_function("e => e.textContent.startsWith('move 1 of 31: tile ')",
                           arg=live.element_handle(), timeout=STEP_TIMEOUT)
    demo.keyboard.press("End")
    assert player.locator(".pk-counter").inner_text() == "solved in 31 moves"
    assert demo.evaluate(ACTIVE_CELL) == cell, "the arrow key also moved the active cell"


def test_the_15_puzzle_board_wears_the_band_colours(demo):
    board = demo.locator(".puzzlekit-board").nth(1)
    board.scroll_into_view_if_needed()
    buttons = board.locator(".puzzlekit-playable button")
    assert sorted(tiles(board)) == sorted([""] + [str(t) for t in range(1, 16)])
    colours = buttons.evaluate_all("bs => bs.map(b => getComputedStyle(b).backgroundColor)")
    assert len(set(colours)) == 16
    screenshot(board, "lab-06b-fifteen")


def test_hint_outlines_a_tile_and_solve_plays_the_board_home(demo):
    board = demo.locator(".puzzlekit-board").first
    board.scroll_into_view_if_needed()
    board.get_by_role("button", name="hint", exact=True).click()
    board.get_by_text(re.compile(r"slide tile \d+ (up|down|left|right) \(outlined\)")).wait_for(
        timeout=STEP_TIMEOUT)
    screenshot(board, "lab-08-hint")
    board.get_by_role("button", name="solve", exact=True).click()
    board.get_by_text("solved!").wait_for(timeout=2 * STEP_TIMEOUT)
    assert tiles(board) == ["", "1", "2", "3", "4", "5", "6", "7", "8"]   # the demo's goal
    screenshot(board, "lab-09-solved")


def test_the_saved_notebook_exports_to_html_that_shows_everything_offline(demo, lab, tmp_path):
    import nbformat
    from nbconvert import HTMLExporter
    demo.locator(".jp-Notebook").first.click()
    demo.keyboard.press("Control+s")
    saved = lab.root / DEMO.name
    deadline = time.monotonic() + STEP_TIMEOUT / 1000
    while True:
        nb = json.loads(saved.read_text(encoding="utf-8"))
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        if all(c["execution_count"] for c in code) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert all(c["execution_count"] for c in code), "JupyterLab did not save the run"
    body, _ = HTMLExporter().from_notebook_node(nbformat.reads(json.dumps(nb), as_version=4))
    html = tmp_path / "demo.html"
    html.write_text(body, encoding="utf-8")
    page = demo.context.browser.new_page()    # a second page of the same headless Chromium
    try:
        refused = offline(page)
        page.goto(html.as_uri(), wait_until="load")
        # nbconvert's own template asks for MathJax and require.js; nothing of ours may
        assert all("cdnjs.cloudflare.com" in url for url in refused), refused
        assert page.locator(".pk-player[data-ready] .pk-stage").count() >= 2
        # widgets: no widget state saved, so their static pictures stand in for them
        assert page.locator("script[type='application/vnd.jupyter.widget-view+json']").count() == 0
        assert page.get_by_text(re.compile(r"moves made: \d+ · Manhattan distance")).count() == 2
        assert page.locator(".jp-OutputArea-output table").count() > 40
        screenshot(page, "export-offline", full_page=True)
    finally:
        page.close()


@pytest.fixture(scope="module")
def demo2(lab, page):
    """The second demo notebook (heuristics, progress bars) after Run All Cells."""
    return run_all(page, lab, DEMO2, "lab-10")


def test_the_heuristics_demo_runs_and_shows_overlays_and_progress_bars(demo2):
    assert not errors(demo2)
    assert demo2.get_by_text("Manhattan distance = 10").count() == 1
    # the two IDA* searches' bars (and, the first time, the bar of the tables' build)
    bars = demo2.locator(".jp-OutputArea-output .puzzlekit-progress", has_text="idastar")
    assert bars.count() == 2
    assert bars.first.locator(".widget-hprogress .progress-bar").count() == 1
    assert re.search(r"idastar: (bound \d+|finished) · [\d,]+ nodes expanded",
                     bars.first.inner_text())
    bars.first.scroll_into_view_if_needed()
    screenshot(demo2, "lab-11-progress")


UNTRUSTED = ["import puzzlekit as pk\nfrom puzzlekit.visuals.display import show_diff",
             "pk.show(((8, 0, 6), (5, 4, 7), (2, 3, 1)))",
             "pk.animate_path(pk.goal_state(3), 'UL')",
             "show_diff(pk.goal_state(3), pk.apply_moves(pk.goal_state(3), 'U'))",
             "pk.play(state=((1, 2, 3), (4, 0, 6), (7, 5, 8)))"]


def test_a_notebook_run_elsewhere_is_sanitised_but_keeps_its_colours(lab, page):
    """Outputs saved by someone else are not trusted here: JupyterLab drops their scripts
    and filters their inline styles. The boards keep their colours, the diff its outline,
    the animation its start (a board), and no dead buttons show; a widget (never drawn for
    untrusted outputs) shows its static picture."""
    import nbformat
    nbformat.write(execute(UNTRUSTED), lab.root / "untrusted.ipynb")
    other = page.context.browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        other.goto(lab.lab_url("untrusted.ipynb"))
        boards = other.locator(".jp-OutputArea-output table.pk-board")
        boards.first.wait_for(timeout=STEP_TIMEOUT)
        assert other.locator(".pk-player[data-ready]").count() == 0      # no script ran
        colours = boards.first.evaluate(
            "t => [...t.querySelectorAll('td')].map(td => getComputedStyle(td).backgroundColor)")
        assert len(set(colours)) == 9 and "rgb(250, 128, 114)" in colours
        diff = other.locator("td.pk-diff").first
        assert diff.evaluate("td => getComputedStyle(td).boxShadow") != "none"
        assert other.locator(".pk-player .pk-stage table.pk-board").count() == 1
        assert not other.locator(".pk-player .pk-controls").is_visible()
        assert other.get_by_text("moves made: 0 · Manhattan distance: 2").count() == 1
        assert boards.count() == 1 + 1 + 2 + 1 and other.locator(".puzzlekit-board").count() == 0
        screenshot(other, "lab-12-untrusted", full_page=True)
    finally:
        other.close()
