"""A notebook with a board, a path, a diff and an animation, executed with nbclient,
exported with nbconvert and opened in headless Chromium with the network unreachable:
the boards keep their colours and the animation player plays — with scripts and
stylesheets, and (as on GitHub or in a sanitised viewer) without them."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser
# the shared browser helpers (Chromium via Playwright, offline routing, screenshots)
_support = pytest.importorskip("browser_support", reason="tests/browser_support.py is missing")
chromium, offline = _support.chromium, _support.offline
require_chromium, screenshot = _support.require_chromium, _support.screenshot

CELLS = [
    "import puzzlekit as pk\nstart = ((8, 0, 6), (5, 4, 7), (2, 3, 1))",
    "pk.show(start)",
    "pk.show_path(pk.moves_to_path(pk.goal_state(3), 'ULDR'))",
    "pk.animate_path(pk.goal_state(3), 'ULDR', frames_per_move=2)",
    "from puzzlekit.display import show_diff\nshow_diff(pk.goal_state(3), "
    "pk.apply_moves(pk.goal_state(3), 'U'))",
]
FRAMES = 1 + 4 * 2
LECTURE_COLOURS = {"8": "rgb(250, 128, 114)", "6": "rgb(255, 255, 0)", "": "rgb(255, 255, 255)",
                   "5": "rgb(255, 0, 0)", "1": "rgb(173, 216, 230)"}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict:
    """The executed notebook and its nbconvert HTML export, written to a temporary folder."""
    require_chromium()
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter
    mp = pytest.MonkeyPatch()
    mp.delenv("NBGRADER_EXECUTION", raising=False)      # the kernel inherits the environment
    try:
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
        NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    finally:
        mp.undo()
    body, _ = HTMLExporter().from_notebook_node(nb)
    folder = tmp_path_factory.mktemp("export")
    full = folder / "export.html"
    full.write_text(body, encoding="utf-8")
    (folder / "feedback.html").write_text(feedback_html(nb), encoding="utf-8")
    # a sanitised copy: no <script>, no <style>, no stylesheet links (GitHub-like viewers)
    bare = re.sub(r"<(script|style)\b.*?</\1>", "", body, flags=re.S | re.I)
    bare = re.sub(r"<link\b[^>]*>", "", bare, flags=re.I)
    (folder / "bare.html").write_text(bare, encoding="utf-8")
    return {"nb": nb, "nbconvert": full, "feedback": folder / "feedback.html",
            "bare": folder / "bare.html"}


def feedback_html(nb) -> str:
    """The notebook as nbgrader's `generate_feedback` renders it (its template, its CSS)."""
    from pathlib import Path

    import nbgrader
    from nbconvert import HTMLExporter
    from traitlets.config import Config
    templates = Path(nbgrader.__file__).parent / "server_extensions" / "formgrader"
    c = Config()
    c.HTMLExporter.template_name = "feedback"
    c.HTMLExporter.extra_template_basedirs = [str(templates / "templates")]
    c.HTMLExporter.extra_template_paths = [
        str(templates / "static" / "node_modules" / "bootstrap" / "dist" / "css")]
    resources = {"nbgrader": {"notebook": "demo", "score": 0, "max_score": 0,
                              "late_penalty": 0}}
    body, _ = HTMLExporter(config=c).from_notebook_node(nb, resources=resources)
    return body


def test_outputs_carry_html_and_a_text_fallback(exported):
    outputs = [c.outputs[0] for c in exported["nb"].cells[1:]]
    assert all("text/html" in o["data"] and "text/plain" in o["data"] for o in outputs)
    assert outputs[0]["data"]["text/plain"] == " 8   6\n 5 4 7\n 2 3 1"
    anim = outputs[2]["data"]["text/html"]
    assert "http" not in anim and "<script src" not in anim and "//cdn" not in anim


def cell_colours(page, table_index: int) -> dict[str, str]:
    """{tile text: computed background colour} of one board table in the page."""
    return page.locator("table.pk-board").nth(table_index).evaluate(
        "t => Object.fromEntries([...t.querySelectorAll('td')].map("
        "td => [td.textContent.trim(), getComputedStyle(td).backgroundColor]))")


@pytest.mark.parametrize("kind", ["nbconvert", "feedback"])
def test_export_plays_offline(exported, kind):
    with chromium(width=1100, height=900) as page:
        refused = offline(page)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(exported[kind].as_uri(), wait_until="load")
        colours = cell_colours(page, 0)
        assert {k: colours[k] for k in LECTURE_COLOURS} == LECTURE_COLOURS
        assert page.locator("table.pk-board").count() == 1 + 5 + 2
        player = page.locator(".pk-player[data-ready]")
        assert player.count() == 1, f"the player script did not run: {errors}"
        frame, counter = player.locator(".pk-frame"), player.locator(".pk-counter")
        assert frame.evaluate("img => img.complete && img.naturalWidth > 0")
        assert counter.text_content() == f"1 / {FRAMES}"
        first = frame.get_attribute("src")
        player.locator("[data-act=next]").click()
        assert counter.text_content() == f"2 / {FRAMES}" and frame.get_attribute("src") != first
        player.locator("[data-act=last]").click()
        assert counter.text_content() == f"{FRAMES} / {FRAMES}"
        player.locator("[data-act=prev]").click()
        assert counter.text_content() == f"{FRAMES - 1} / {FRAMES}"
        player.locator("[data-act=first]").click()
        player.locator(".pk-speed").select_option("4")
        player.locator("[data-act=play]").click()
        page.wait_for_function("c => c.textContent.startsWith('" + str(FRAMES) + " /')",
                               arg=counter.element_handle(), timeout=20_000)
        assert "play" in player.locator("[data-act=play]").text_content()   # stopped at the end
        screenshot(page, f"export-offline-{kind}", full_page=True)
        assert not errors, errors
        assert all(not url.startswith("data:") for url in refused)


def test_sanitised_export_still_shows_coloured_boards_and_a_frame(exported):
    with chromium(width=1100, height=900) as page:
        offline(page)
        page.goto(exported["bare"].as_uri(), wait_until="load")
        assert cell_colours(page, 0)["8"] == LECTURE_COLOURS["8"]
        diff_cells = page.locator("table.pk-board").nth(6).locator("td.pk-diff")
        assert diff_cells.count() == 2
        assert diff_cells.first.evaluate("td => getComputedStyle(td).boxShadow") != "none"
        frame = page.locator(".pk-player .pk-frame")
        assert frame.evaluate("img => img.complete && img.naturalWidth > 0")
        assert not page.locator(".pk-player .pk-controls").is_visible()   # no dead buttons
        screenshot(page, "export-sanitised", full_page=True)
