"""WCAG 2.1 AA for what the kit draws, measured in headless Chromium (docs/visuals.md,
"Accessibility"): axe-core (wcag2a, wcag2aa, wcag21a, wcag21aa) on an executed lecture
demo exported with nbconvert (light and dark) and on the course's feedback page of a
failing submission; Chromium's accessibility tree (what a screen reader gets) for the
boards; the animation player stepped by mouse and keys, with reduced motion, at 320 px.
The live JupyterLab page is checked in tests/test_browser_lab.py."""

from __future__ import annotations

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
    anim = pk.animate_path(pk.goal_state(3), "ULRD")                    # back home
    anim.save(out["player"])
    out["bfs"] = folder / "bfs.html"            # the state graph (PNG frames: 640 px wide)
    pk.animate_bfs_layers(pk.goal_state(2, 3)).save(out["bfs"])
    out["layers"] = folder / "layers.html"      # bars and boards (PNG frames: 656 px wide)
    pk.animate_bfs_layers(pk.goal_state(3)).save(out["layers"])
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


@pytest.mark.parametrize("width", [1280, 390])
def test_the_checks_failures_and_the_guards_refusal_pass_axe_on_the_feedback_page(
        tmp_path_factory, width):
    """A failing check of each checks module, and the kernel guard's refusal, as the
    feedback page shows them: no violation, on a wide and a phone-sized page."""
    require_chromium()
    nb = pages.checks_failing()
    errors = [o for c in nb.cells for o in c.outputs if o.output_type == "error"]
    assert len(errors) == len(pages.CHECKS_FAILING) - 1, [e.evalue for e in errors]
    assert "PermissionError" in {e.ename for e in errors}
    page_file = tmp_path_factory.mktemp("checks") / "feedback.html"
    page_file.write_text(pages.feedback_page(nb), encoding="utf-8")
    with chromium(width=width, height=900) as page:
        offline(page)
        page.goto(page_file.as_uri(), wait_until="load")
        assert page.get_by_text("reached into the grader's machinery").count()
        violations = axe(page)
        assert not violations, describe(violations)


LIVE = ".pk-player .pk-live"


def test_stepping_the_player_changes_what_is_announced(files):
    anim = files["anim"]
    with chromium(width=900, height=700) as page:
        page.goto(files["player"].as_uri(), wait_until="load")
        player = page.locator(".pk-player[data-ready]")
        live, stage = page.locator(LIVE), player.locator(".pk-stage")
        assert stage.get_attribute("aria-label") == anim.alts[0]
        assert stage.get_attribute("role") == "img"            # one picture, named in words
        player.locator("[data-act=next]").click()
        assert live.text_content() == anim.alts[1] == stage.get_attribute("aria-label")
        player.locator("[data-act=last]").click()
        assert live.text_content() == anim.alts[-1]
        assert "move 4 of 4" in anim.alts[-1]
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
    assert {("img", anim.alts[2]), ("image", anim.alts[2])} & names, sorted(names)


TILE_AT = """([tile]) => [...document.querySelectorAll('.pk-stage > div')]
    .find(t => t.textContent === tile)"""


@pytest.mark.parametrize("reduced", [False, True])
def test_tiles_slide_unless_the_reader_asked_for_reduced_motion(files, reduced):
    """The tile that moves slides (a CSS transition) or, with reduced motion, jumps; either
    way it ends one square over."""
    with chromium(width=900, height=700) as page:
        if reduced:
            page.emulate_media(reduced_motion="reduce")
        page.goto(files["player"].as_uri(), wait_until="load")
        player = page.locator(".pk-player[data-ready]")
        before = page.evaluate(f"() => ({TILE_AT})(['6']).style.transform")
        player.locator("[data-act=next]").click()      # U: tile 6 slides down
        tile = page.evaluate(f"""() => {{ const t = ({TILE_AT})(['6']);
            return [t.style.transition, t.style.transform]; }}""")
    assert tile[0] == ("none" if reduced else tile[0]) and (reduced or "transform" in tile[0])
    assert before == "translate(112px, 56px)" and tile[1] == "translate(112px, 112px)"


@pytest.mark.parametrize("kind", ["layers", "bfs", "player"])
def test_an_animation_at_320_px_is_drawn_at_full_size(files, kind):
    """No picture shrinks: the stage's boards keep their size and their text its size at
    320 px as at 1280 px (PNG frames shrank to 40%: 264 of 656 px)."""
    sizes = {}
    for width in (1280, 320):
        with chromium(width=width, height=700) as page:
            page.goto(files[kind].as_uri(), wait_until="load")
            sizes[width] = page.evaluate("""() => {
                const shown = s => [...document.querySelectorAll(s)]
                    .filter(e => e.getClientRects().length);
                const boxes = shown('.pk-stage table, .pk-stage[role=img] > div')
                    .map(e => [e.getBoundingClientRect().width,
                               e.getBoundingClientRect().height]);
                const fonts = shown('.pk-stage td, .pk-stage[role=img] > div, ' +
                                    '.pk-bfs-head, .pk-bars-axis, .pk-bar-value')
                    .map(e => getComputedStyle(e).fontSize);
                const stage = document.querySelector('.pk-stage').getBoundingClientRect();
                return {boxes, fonts, fits: stage.right <= window.innerWidth};
            }""")
    narrow, wide = sizes[320], sizes[1280]
    assert narrow["fits"] and narrow["fonts"] and narrow["fonts"] == wide["fonts"], kind
    # boards and tiles keep their size (bars and the graph take the room there is)
    assert narrow["boxes"] == wide["boxes"] and (narrow["boxes"] or kind == "bfs"), kind


@pytest.mark.parametrize("kind", ["demo", "feedback", "player", "bfs", "layers"])
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
        if kind in ("player", "bfs", "layers"):
            page.locator("details.pk-details summary").click()
        page.locator(".pk-player, .pk-diffview").first.scroll_into_view_if_needed()
        shot(page, f"a11y-320-{kind}")


# ----------------------------------------------------------------------------- a search drawn

@pytest.fixture(scope="module")
def searches(tmp_path_factory) -> dict[str, object]:
    """Pages with a student's search drawn (see_search): a right layered BFS and one
    without a visited set, as a notebook shows them (with the script) and as the
    grader redraws them for the feedback (static)."""
    require_chromium()
    import sys

    from puzzlekit.autograder.judge.sanitize import clean_data
    from puzzlekit.testcells import see_search
    here = Path(__file__).parents[1] / "testcells"
    sys.path.insert(0, str(here))
    try:
        import test_see as student
    finally:
        sys.path.remove(str(here))
    folder = tmp_path_factory.mktemp("search")
    right = see_search(student.search, student.nextStates, student.NEAR, student.LECTURE_GOAL)
    again = see_search(student.no_visited_set, student.nextStates, student.NEAR,
                       student.LECTURE_GOAL)
    # a DFS that dives: its path's 47 move letters are one word wider than 390 px
    deep = see_search(student.dfs, ((0, 4, 2), (5, 1, 3)), student.SMALL_GOAL)

    def page(name: str, body: str) -> Path:
        path = folder / f"{name}.html"
        path.write_text('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>'
                        f'{name}</title></head><body>{body}</body></html>', encoding="utf-8")
        return path
    return {"right": right, "live": page("live", right.data + again.data + deep.data),
            "static": page("static", "".join(clean_data(view._repr_mimebundle_())["text/html"]
                                             for view in (right, again, deep)))}


@pytest.mark.parametrize("kind", ["live", "static"])
def test_a_drawn_search_passes_axe(searches, kind):
    with chromium(width=1280, height=900) as page:
        offline(page)
        page.goto(searches[kind].as_uri(), wait_until="load")
        assert page.locator(".pk-search").count() == 3
        violations = axe(page, [".pk-search"])
        assert not violations, describe(violations)


def test_a_drawn_search_steps_by_keyboard_and_says_each_step(searches):
    right = searches["right"]
    steps = len(right.trace.expansions)
    with chromium(width=1280, height=900) as page:
        page.goto(searches["live"].as_uri(), wait_until="load")
        drawing = page.locator(".pk-search[data-ready]").first
        live, counter = drawing.locator(".pk-live"), drawing.locator(".pk-counter")
        first = drawing.locator("[data-act=first]")
        first.focus()
        page.keyboard.press("Tab")                          # the buttons are in tab order
        assert page.evaluate("() => document.activeElement.getAttribute('data-act')") == "prev"
        page.keyboard.press("Home")
        assert counter.text_content() == "start: nothing expanded"
        hidden = drawing.locator(".pk-sv-node").evaluate_all(
            "ns => ns.filter(n => getComputedStyle(n).visibility === 'hidden').length")
        assert hidden == steps + 1                          # and the goal, found at the end
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert counter.text_content() == f"expansion 2 of {steps}"
        said = live.text_content()
        assert said.startswith("expansion 2, depth 1") and "seen, not expanded" in said
        page.keyboard.press("End")
        assert live.text_content().startswith("path, move 5 of 5, blank")
        tree = ax_subtrees(page, ".pk-search[data-ready]")[0]
        names = {(x["role"], x["name"].strip()) for x in tree}
        assert {("button", "go to the start"), ("button", "step back"), ("button", "play"),
                ("button", "step forward"), ("button", "go to the end"),
                ("slider", "step")} <= names, names
        assert any(r == "status" for r, _ in names)
        boards = [n for r, n in names if r in ("img", "image") and "row 1:" in n]
        assert len(boards) > steps, sorted({r for r, _ in names})
        shot(page, "search-1280")


def test_a_drawn_search_slides_its_path_without_motion_when_asked(searches):
    with chromium(width=900, height=700) as page:
        page.emulate_media(reduced_motion="reduce")
        page.goto(searches["live"].as_uri(), wait_until="load")
        drawing = page.locator(".pk-search[data-ready]").first
        drawing.locator("[data-act=last]").click()
        drawing.locator("[data-act=prev]").click()
        moves = drawing.locator(".pk-sv-slide > div").evaluate_all(
            "ts => ts.map(t => getComputedStyle(t).transitionDuration)")
        assert moves and set(moves) == {"0s"}
        assert "after move 4 of 5" in drawing.locator(".pk-sv-slide").get_attribute("aria-label")
    with chromium(width=900, height=700) as page:             # with motion: it slides
        page.goto(searches["live"].as_uri(), wait_until="load")
        drawing = page.locator(".pk-search[data-ready]").first
        drawing.locator("[data-act=prev]").click()
        moves = drawing.locator(".pk-sv-slide > div").evaluate_all(
            "ts => ts.map(t => getComputedStyle(t).transitionDuration)")
        assert set(moves) == {"0.25s"}


@pytest.mark.parametrize("kind", ["live", "static"])
def test_a_drawn_search_fits_390_px(searches, kind):
    with chromium(width=390, height=800) as page:
        page.goto(searches[kind].as_uri(), wait_until="load")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"{kind}: the page is {width} px wide at 390 px"
        # nor does a drawing scroll sideways inside its own box (the feedback's boxes
        # scroll: axe's scrollable-region-focusable)
        wider = page.evaluate("() => [...document.querySelectorAll('.pk-search')]"
                              ".map(e => e.scrollWidth - e.clientWidth)")
        assert max(wider) <= 0, f"{kind}: drawings wider than their box by {wider} px"
        shot(page, f"search-390-{kind}", full_page=True)
