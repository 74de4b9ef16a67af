"""HTML boards: colours from style.css inlined, any shape, overlays, paths and diffs."""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlekit as pk
from puzzlekit.visuals import display as d

REPO = Path(__file__).parents[2]
LECTURE_START = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
LECTURE_GOAL = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 5), (4, 4), (5, 5), (12, 12), (2, 12)]


class Cells(HTMLParser):
    """Collects every <td> (its classes, inline style and text) and other tags' attributes."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.cells: list[dict] = []
        self.tags: list[tuple[str, dict]] = []
        self._td: dict | None = None
        self.feed(html)

    def handle_starttag(self, name: str, attrs: list) -> None:
        a = dict(attrs)
        self.tags.append((name, a))
        if name == "td":
            style = dict(kv.split(":", 1) for kv in a.get("style", "").split("; ") if ":" in kv)
            self._td = {"classes": a.get("class", "").split(), "text": "",
                        "style": {k.strip(): v.strip() for k, v in style.items()}}
            self.cells.append(self._td)
        elif name == "span" and self._td is not None:
            self._td["badge"] = ""

    def handle_endtag(self, name: str) -> None:
        if name == "td":
            self._td = None

    def handle_data(self, data: str) -> None:
        if self._td is not None:
            key = "badge" if "badge" in self._td else "text"
            self._td[key] += data


def tables(html: str) -> list[list[dict]]:
    """The cells of each board table in `html`, table by table."""
    return [Cells(part).cells for part in html.split("<table")[1:]]


# ----------------------------------------------------------------------------- style.css


def test_the_top_level_stylesheet_is_the_packaged_one():
    """One file: the repository's style.css links to the package's, which a plain
    `pip install` ships."""
    top = REPO / "style.css"
    assert top.is_symlink() and top.resolve() == (REPO / "puzzlekit" / "style.css").resolve()
    assert d.css_text() == top.read_text(encoding="utf-8")


def test_css_rules_are_parsed_and_inlined_with_class_names_kept():
    rules = d.css_rules()
    assert rules["pk-cell"]["text-align"] == "center"
    html = d.board_html(LECTURE_START)
    cell = tables(html)[0][0]
    assert "pk-cell" in cell["classes"]
    for prop, value in rules["pk-cell"].items():
        assert cell["style"][prop] == value


# ----------------------------------------------------------------------------- colours

@pytest.mark.parametrize("rows,cols", SHAPES)
def test_every_tile_has_its_own_colour_and_the_blank_is_white(rows, cols):
    goal = pk.goal_state(rows, cols)
    colours = d.tile_colours(goal)
    assert colours[0] == "#ffffff"
    assert len(set(colours.values())) == rows * cols
    cells = tables(d.board_html(goal))[0]
    assert len(cells) == rows * cols
    by_text = {c["text"]: c["style"]["background-color"] for c in cells}
    assert len(set(by_text.values())) == rows * cols
    assert by_text[""] == "#ffffff"


@pytest.mark.parametrize("rows,cols", SHAPES)
def test_tile_numbers_are_readable(rows, cols):
    for bg in d.tile_colours(pk.goal_state(rows, cols)).values():
        assert d.contrast_ratio(bg, d.text_colour(bg)) >= 4.5, bg


def test_small_boards_use_the_lecture_colours():
    colours = d.tile_colours(LECTURE_GOAL)
    assert colours[1] == "#add8e6" and colours[5] == "#ff0000"   # lightblue, red
    assert d.tile_colours(pk.goal_state(3)) == colours           # by tile number


def test_large_boards_colour_tiles_by_goal_position():
    goal = pk.goal_state(4)
    first = pk.goal_state(4, blank="first")
    a, b = d.tile_colours(goal), d.tile_colours(first)
    where = {t: p for p, t in enumerate(pk.flatten(first))}
    by_pos = {p: a[t] for p, t in enumerate(pk.flatten(goal))}
    shared = [t for t in range(1, 16) if by_pos[where[t]] != "#ffffff"]   # not the blank's square
    assert len(shared) == 14 and all(b[t] == by_pos[where[t]] for t in shared)


def test_contrast_ratio_matches_wcag():
    assert d.contrast_ratio("#000000", "#ffffff") == pytest.approx(21)
    assert d.contrast_ratio("#777777", "#777777") == pytest.approx(1)
    assert d.text_colour("#000000") == "#ffffff" and d.text_colour("#ffff00") == "#000000"


# ----------------------------------------------------------------------------- boards

@given(st.sampled_from(SHAPES), st.integers(0, 10**6))
@settings(max_examples=25, deadline=None)
def test_board_cells_follow_the_state(shape, seed):
    S = pk.random_state(*shape, seed=seed)
    cells = tables(d.board_html(S))[0]
    assert [c["text"] for c in cells] == [str(x) if x else "" for x in pk.flatten(S)]
    colours = d.tile_colours(pk.goal_state(*shape))
    assert [c["style"]["background-color"] for c in cells] == [colours[x] for x in pk.flatten(S)]


def test_title_and_aria_label():
    html = d.board_html(LECTURE_START, title="the lecture's start")
    assert "the lecture&#x27;s start" in html
    # a table a screen reader can walk, named with its caption and every cell in words
    assert ('role="table" aria-label="the lecture&#x27;s start, 3 by 3: row 1: 8, blank, 6; '
            'row 2: 5, 4, 7; row 3: 2, 3, 1"') in html
    assert "<figcaption" in html
    blank = Cells(html).cells[1]
    assert "pk-blank" in blank["classes"] and blank["text"] == ""
    assert ' aria-label="blank"' in html and "0," not in html.split("aria-label=")[1]


def test_a_diff_says_which_cells_differ_in_words():
    got = pk.apply_moves(pk.goal_state(3), "U")         # 6 and the blank swapped
    html = d.diff_html(pk.goal_state(3), got)
    assert ("Differences: row 2 column 3: expected 6, got blank; "
            "row 3 column 3: expected blank, got 6") in html
    expected, theirs = (Cells(part) for part in html.split("<table")[1:])
    named = [dict(a)["aria-label"] for name, a in theirs.tags if name == "td"
             and "aria-label" in dict(a)]
    assert named == ["blank, differs, expected 6", "6, differs, expected blank"]
    named = [dict(a)["aria-label"] for name, a in expected.tags if name == "td"
             and "aria-label" in dict(a)]
    assert named == ["6, differs, got blank", "blank, differs, got 6"]


def test_overlays_say_their_badges_in_words():
    html = d.board_html(((2, 1, 3), (5, 4, 6), (7, 8, 0)), overlay="linear_conflict")
    names = [dict(a).get("aria-label") for name, a in Cells(html).tags if name == "td"]
    assert names[:3] == ["2, 1 move from home, reversed with 1",
                         "1, 1 move from home, reversed with 2", None]
    assert names[-1] == "blank"
    badges = [a for name, a in Cells(html).tags if "pk-badge" in a.get("class", "")]
    assert badges and all(a.get("aria-hidden") == "true" for a in badges)


def test_path_boards_say_the_move_that_led_to_them():
    html = d.path_html(pk.moves_to_path(pk.goal_state(3), "UL"))
    assert 'aria-label="after move 2 of 2, blank left (L), 3 by 3: row 1: 1, 2, 3; ' \
           'row 2: 4, blank, 5; row 3: 7, 8, 6"' in html
    marks = [a for name, a in Cells(html).tags if "pk-move" in a.get("class", "")]
    assert len(marks) == 2 and all(a["aria-hidden"] == "true" for a in marks)


def test_highlight_tiles_or_cells():
    cells = tables(d.board_html(LECTURE_START, highlight=[8, (2, 2)]))[0]
    marked = [c["text"] for c in cells if "pk-highlight" in c["classes"]]
    assert marked == ["8", "1"]
    assert "box-shadow" in cells[0]["style"]


def test_show_renders_html_in_jupyter_and_text_in_a_terminal():
    view = d.show(LECTURE_START)
    assert view._repr_html_() == d.board_html(LECTURE_START)
    assert repr(view) == pk.board_str(LECTURE_START)
    explained = repr(d.show(((8, 1, 3), (4, 0, 2), (7, 6, 5)), overlay="manhattan", title="t"))
    assert explained.splitlines()[3:] == ["t", "Manhattan distance = 10: each number is one "
                                          "tile's row + column distance from home"]


# ----------------------------------------------------------------------------- overlays

def _marked(cells: list[dict], cls: str) -> set[str]:
    return {c["text"] for c in cells if cls in c["classes"]}


@given(st.sampled_from([(3, 3), (4, 4), (3, 5)]), st.integers(0, 10**6))
@settings(max_examples=20, deadline=None)
def test_overlays_explain_the_heuristics(shape, seed):
    S = pk.random_state(*shape, seed=seed)
    misplaced = tables(d.board_html(S, overlay="misplaced"))[0]
    assert len(_marked(misplaced, "pk-misplaced")) == pk.hamming(S)
    md = tables(d.board_html(S, overlay="manhattan"))[0]
    assert sum(int(c.get("badge") or 0) for c in md) == pk.manhattan(S)
    lc_html = d.board_html(S, overlay="linear_conflict")
    pairs = pk.conflict_pairs(S)
    assert _marked(tables(lc_html)[0], "pk-conflict") == {str(t) for p in pairs for t in p}
    assert f"linear conflict = {pk.linear_conflict(S)}" in lc_html


def test_overlay_on_princetons_example_board():
    S = ((8, 1, 3), (4, 0, 2), (7, 6, 5))
    assert "Hamming) = 5" in d.board_html(S, overlay="misplaced")
    assert "Manhattan distance = 10" in d.board_html(S, overlay="manhattan")


# ----------------------------------------------------------------------------- paths

def test_path_shows_every_board_and_the_moves_between():
    path = pk.moves_to_path(pk.goal_state(3), "ULDR")
    html = d.path_html(path)
    assert len(tables(html)) == 5
    assert re.findall(r"<br>([UDLR])</div>", html) == list("ULDR")
    wrapped = d.path_html(path, per_row=2)
    assert wrapped.count('class="pk-row"') == 5 + 3       # 5 steps in 3 rows
    assert repr(d.show_path(path)) == pk.path_str(path, "ULDR")


def test_path_of_a_solver_result():
    result = pk.solve(pk.apply_moves(pk.goal_state(3), "ULDR"))
    assert d.path_html(result) == d.path_html(result.path)
    assert len(tables(d.path_html(result))) == result.length + 1


def test_path_marks_states_that_are_not_one_move_apart():
    path = [pk.goal_state(3), pk.apply_moves(pk.goal_state(3), "UU")]
    assert "pk-jump" in d.path_html(path)


def test_lecture_path_renders():
    path = pk.search(pk.nextStates, LECTURE_START, LECTURE_GOAL)
    html = d.path_html(path, goal=LECTURE_GOAL)
    assert len(tables(html)) == 32 and "31 · goal" in html


# ----------------------------------------------------------------------------- diffs

def test_diff_outlines_exactly_the_differing_cells():
    got = pk.apply_moves(LECTURE_GOAL, "R")
    expected_cells, got_cells = tables(d.diff_html(LECTURE_GOAL, got))
    assert _marked(expected_cells, "pk-diff") == {"", "1"}
    assert _marked(got_cells, "pk-diff") == {"", "1"}
    assert "2 cells differ" in d.diff_html(LECTURE_GOAL, got)


def test_diff_draws_illegal_or_misshapen_answers_too():
    dup = ((8, 4, 6), (5, 4, 7), (2, 3, 1))             # a moveUp that forgot the blank
    html = d.diff_html(LECTURE_START, dup)
    assert "not a legal state" in html and len(tables(html)) == 2
    assert "shape 2×2" in d.diff_html(LECTURE_START, ((1, 2), (3, 0)))
    assert "None, nothing (a missing return?)" in d.diff_html(LECTURE_START, None)
    assert "not a board (list)" in d.diff_html(LECTURE_START, [1, 2])
    assert "identical" in d.diff_html(LECTURE_START, LECTURE_START)
    # the label shows once (the caption), and names the board for a screen reader
    labelled = d.diff_html(LECTURE_GOAL, LECTURE_START, labels=("goal", "yours"))
    assert labelled.count(">yours") == 1 and 'aria-label="yours' in labelled


# ----------------------------------------------------------------------------- no network, bad input

def test_no_external_references_in_any_output():
    outputs = [d.board_html(pk.goal_state(12), overlay="manhattan"),
               d.path_html(pk.moves_to_path(pk.goal_state(3), "UL")),
               d.diff_html(LECTURE_GOAL, LECTURE_START)]
    for html in outputs:
        assert "http" not in html and "//" not in html and "<script" not in html
        assert "url(" not in html and "@import" not in html


@pytest.mark.parametrize("call", [
    lambda: d.board_html(((1, 2), (3, 3))),
    lambda: d.board_html("1238_4765"),
    lambda: d.board_html(pk.goal_state(13)),
    lambda: d.board_html(LECTURE_START, overlay="euclid"),
    lambda: d.board_html(LECTURE_START, highlight=[9]),
    lambda: d.board_html(LECTURE_START, highlight=5),
    lambda: d.board_html(LECTURE_START, cell_size=0),
    lambda: d.board_html(LECTURE_START, goal=pk.goal_state(4)),
    lambda: d.path_html([]),
    lambda: d.path_html([LECTURE_START, pk.goal_state(4)]),
    lambda: d.path_html(pk.moves_to_path(LECTURE_GOAL, "DR"), moves="D"),
    lambda: d.path_html(pk.moves_to_path(LECTURE_GOAL, "DR"), per_row=0),
    lambda: d.diff_html(None, LECTURE_START),
])
def test_bad_input_raises_puzzle_error(call):
    with pytest.raises(pk.PuzzleError):
        call()


def test_display_does_not_import_heavy_libraries():
    code = ("import sys, puzzlekit as pk; pk.show(pk.goal_state(3)); "
            "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'IPython') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_chart_carries_its_text_alternative():
    from matplotlib.figure import Figure
    fig = Figure(figsize=(2, 1))
    fig.add_subplot().bar([0, 1], [3, 5])
    view = d.show_chart(fig, "bars: 0 has 3, 1 has 5", caption="a chart")
    assert 'alt="bars: 0 has 3, 1 has 5"' in view.data and "<figcaption" in view.data
    assert "max-width: 100%" in view.data and repr(view).startswith("bars: 0 has 3")
    with pytest.raises(pk.PuzzleError, match="text alternative"):
        d.show_chart(fig, " ")



# ----------------------------------------------------------------------------- checked once

class Spy:
    """Counts the calls of a function it stands for."""

    def __init__(self, func):
        self.func, self.calls = func, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.func(*args, **kwargs)


@pytest.fixture
def spies(monkeypatch):
    """Spies on the validator and on what builds the HTML and the text of a view."""
    found = {}
    for name in ("validate_state", "_grid_table", "board_str", "path_str"):
        found[name] = Spy(getattr(d, name))
        monkeypatch.setattr(d, name, found[name])
    return found


def test_show_checks_each_board_once_and_builds_only_what_is_shown(spies):
    view = d.show(LECTURE_START, LECTURE_GOAL, overlay="manhattan", highlight=[8])
    assert spies["validate_state"].calls == 2                  # the board and the goal
    assert spies["_grid_table"].calls == 0 and spies["board_str"].calls == 0
    text = repr(view)                                          # a terminal: the text only
    assert "Manhattan distance = 21" in text
    assert spies["board_str"].calls == 1 and spies["_grid_table"].calls == 0
    bundle = view._repr_mimebundle_()                          # Jupyter: HTML, text, data
    assert spies["_grid_table"].calls == 1 and spies["board_str"].calls == 1
    assert bundle["text/plain"] == text and bundle[d.KIT_MIME]["highlight"] == [8]
    assert bundle["text/html"] == d.board_html(LECTURE_START, LECTURE_GOAL,
                                               overlay="manhattan", highlight=[8])
    assert spies["validate_state"].calls == 4                  # board_html's own two


def test_show_path_checks_each_board_once_and_builds_only_what_is_shown(spies):
    path = pk.moves_to_path(LECTURE_START, "RDLU")
    view = d.show_path(path, "RDLU", goal=LECTURE_GOAL)
    assert spies["validate_state"].calls == len(path) + 1      # the boards and the goal
    assert spies["_grid_table"].calls == 0 and spies["path_str"].calls == 0
    assert view.text.count("\n") > 4 and spies["path_str"].calls == 1
    assert spies["_grid_table"].calls == 0
    assert view.data == d.path_html(path, "RDLU", goal=LECTURE_GOAL)
    assert spies["_grid_table"].calls == 2 * len(path)          # the view's and path_html's
    view.data, view.text                                        # made once, then kept
    assert spies["_grid_table"].calls == 2 * len(path) and spies["path_str"].calls == 1


def test_what_is_wrong_is_said_when_the_view_is_made_not_when_it_is_shown():
    with pytest.raises(pk.PuzzleError, match="cell_size"):
        d.show(LECTURE_START, cell_size=3)
    with pytest.raises(pk.PuzzleError, match="unknown overlay"):
        d.show(LECTURE_START, overlay="nope")
    with pytest.raises(pk.PuzzleError, match="highlight entry"):
        d.show(LECTURE_START, highlight=[(9, 9)])
    with pytest.raises(pk.PuzzleError, match="cell_size"):
        d.show_path([LECTURE_START], cell_size=500)
    with pytest.raises(pk.PuzzleError, match="per_row"):
        d.show_path([LECTURE_START], per_row=0)
    kept = d.show(LECTURE_START, highlight=(t for t in [8, 6]))     # a generator, read once
    assert kept.bundle["highlight"] == [8, 6] and kept.data.count("outlined") == 2
