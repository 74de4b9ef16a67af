"""WCAG 2.1 AA for what the kit draws, measured in headless Chromium (docs/visuals.md,
"Accessibility"): axe-core (wcag2a, wcag2aa, wcag21a, wcag21aa) on an executed lecture
demo exported with nbconvert (light and dark) and on the course's feedback page of a
failing submission; Chromium's accessibility tree (what a screen reader gets) for the
boards; the animation player stepped by mouse and keys, with reduced motion, at 320 px.
The live JupyterLab page is checked in tests/test_browser_lab.py."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
_support = pytest.importorskip("browser_support", reason="tests/browser_support.py is missing")
chromium, require_chromium, offline = (_support.chromium, _support.require_chromium,
                                       _support.offline)
import a11y_pages as pages  # noqa: E402
from a11y_support import ax_subtrees, axe, describe  # noqa: E402

#: the kit's outputs on a page (boards, paths, diffs, players, the widgets' pictures)
KIT = [".pk-figure", ".pk-path", ".pk-diffview", ".pk-player"]
SHOTS = Path("/work/notes/shots/a11y")       # kept when present (the author's machine)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """The demo's export (light and dark), the feedback page and a player page."""
    require_chromium()
    from nbconvert import HTMLExporter

    import puzzlekit as pk
    folder = tmp_path_factory.mktemp("a11y")
    nb = pages.execute_demo()
    out = {"demo": folder / "demo.html", "dark": folder / "demo-dark.html",
           "feedback": folder / "feedback.html", "player": folder / "player.html"}
    out["demo"].write_text(pages.export_html(nb), encoding="utf-8")
    out["dark"].write_text(HTMLExporter(theme="dark").from_notebook_node(nb)[0],
                           encoding="utf-8")
    out["feedback"].write_text(pages.feedback_page(pages.failing_submission()),
                               encoding="utf-8")
    anim = pk.animate_path(pk.goal_state(3), "ULRD", frames_per_move=3)  # back home
    anim.save(out["player"])
    out["bfs"] = folder / "bfs.html"            # frames 640 px wide
    pk.animate_bfs_layers(pk.goal_state(2, 3)).save(out["bfs"])
    out["anim"] = anim  # type: ignore[assignment]
    return out


def kit_selectors(page) -> list[str]:
    return [s for s in KIT if page.locator(s).count()]


def shot(page, name: str, **kw) -> None:
    _support.screenshot(page, name, **kw)
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"{name}.png"), **kw)


@pytest.mark.parametrize("theme", ["demo", "dark"])
def test_the_kits_outputs_in_an_exported_demo_pass_axe(files, theme):
    with chromium(width=1200, height=900) as page:
        offline(page)
        page.goto(files[theme].as_uri(), wait_until="load")
        violations = axe(page, kit_selectors(page))
        assert not violations, describe(violations)
        if theme == "dark":
            page.locator(".pk-diffview, .pk-path").first.scroll_into_view_if_needed()
            shot(page, "a11y-demo-dark")


def test_every_board_names_every_tile_and_the_blank(files):
    """Each board is a table a screen reader can walk, named with every cell in words;
    each cell is named by its tile, the blank "blank", never "0"."""
    with chromium(width=1200, height=900) as page:
        page.goto(files["demo"].as_uri(), wait_until="load")
        boards = ax_subtrees(page, "table.pk-board")
    assert len(boards) > 60
    for nodes in boards:
        table, cells = nodes[0], [x["name"] for x in nodes if x["role"] == "cell"]
        assert table["role"] == "table", table
        assert not re.fullmatch(r"\d+×\d+ board", table["name"]), table
        size = int(re.search(r"(\d+) by (\d+)", table["name"]).group(1)) * \
            int(re.search(r"(\d+) by (\d+)", table["name"]).group(2))
        first_words = [c.split(",")[0] for c in cells]
        assert len(cells) == size and first_words.count("blank") == 1, (table, cells)
        assert sorted(int(w) for w in first_words if w != "blank") == list(range(1, size))
        assert not re.search(r"(^|\D)0(\D|$)", table["name"]), table["name"]
        assert "blank" in table["name"]


def test_the_feedback_page_of_a_failing_submission_passes_axe(files):
    with chromium(width=1200, height=900) as page:
        offline(page)
        page.goto(files["feedback"].as_uri(), wait_until="load")
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.locator(".ansi-red-fg").count() > 0     # a coloured traceback
        violations = axe(page)
        assert not violations, describe(violations)


LIVE = ".pk-player .pk-live"


def test_stepping_the_player_changes_what_is_announced(files):
    anim = files["anim"]
    with chromium(width=900, height=700) as page:
        page.goto(files["player"].as_uri(), wait_until="load")
        player = page.locator(".pk-player[data-ready]")
        live, frame = page.locator(LIVE), player.locator(".pk-frame")
        assert frame.get_attribute("alt") == anim.alts[0]
        player.locator("[data-act=next]").click()
        assert live.text_content() == anim.alts[1] == frame.get_attribute("alt")
        player.locator("[data-act=last]").click()
        assert live.text_content() == anim.alts[-1]
        assert "solved" in anim.alts[-1]
        # the keyboard alone: ← / → / Home step the player, also from its buttons
        player.locator("[data-act=first]").focus()
        page.keyboard.press("Home")
        assert live.text_content() == anim.alts[0]
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert live.text_content() == anim.alts[2]
        (tree,) = ax_subtrees(page, ".pk-player")
    names = {(x["role"], x["name"].strip()) for x in tree}
    assert {("button", "go to the start"), ("button", "step back"), ("button", "play"),
            ("button", "step forward"), ("button", "go to the end")} <= names
    assert ("status", "") in names or any(r == "status" for r, _ in names)
    assert ("slider", "move") in names


def test_reduced_motion_shows_no_in_between_frames(files):
    anim = files["anim"]
    keys = {"data:image/png;base64," + base64.b64encode(anim.frames[k]).decode()
            for k in anim.keys}
    with chromium(width=900, height=700) as page:
        page.emulate_media(reduced_motion="reduce")
        page.goto(files["player"].as_uri(), wait_until="load")
        page.evaluate("""() => { window.shown = [];
            const img = document.querySelector('.pk-frame');
            new MutationObserver(() => window.shown.push(img.src))
              .observe(img, {attributes: true, attributeFilter: ['src']}); }""")
        player = page.locator(".pk-player[data-ready]")
        slider = player.locator(".pk-slider")
        assert slider.get_attribute("max") == "4"             # 4 moves, no frames between
        player.locator("[data-act=next]").click()
        assert page.locator(LIVE).text_content() == anim.alts[anim.keys[1]]
        player.locator(".pk-speed").select_option("4")
        player.locator("[data-act=play]").click()
        page.wait_for_function("s => s.value === '4'", arg=slider.element_handle(),
                               timeout=20_000)
        shown = page.evaluate("() => window.shown")
    assert len(shown) >= 4 and set(shown) <= keys


@pytest.mark.parametrize("kind", ["demo", "feedback", "player", "bfs"])
def test_at_320_px_every_control_shows_and_nothing_scrolls_sideways(files, kind):
    with chromium(width=320, height=640) as page:
        page.goto(files[kind].as_uri(), wait_until="load")
        selectors = kit_selectors(page) + [".pk-controls > *"] * (kind != "feedback")
        out = page.evaluate("""sels => sels.flatMap(s => [...document.querySelectorAll(s)])
            .filter(e => e.getClientRects().length)
            .map(e => [e.className, e.getBoundingClientRect().left,
                       e.getBoundingClientRect().right])
            .filter(([c, l, r]) => l < -1 || r > window.innerWidth + 1)""", selectors)
        assert not out, out[:5]
        if kind != "demo":          # nbconvert's own page keeps its code cells' width
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 320, f"{kind}: the page is {width} px wide at 320 px"
        if kind in ("player", "bfs"):
            page.locator("details.pk-details summary").click()
        page.locator(".pk-player, .pk-diffview").first.scroll_into_view_if_needed()
        shot(page, f"a11y-320-{kind}")
