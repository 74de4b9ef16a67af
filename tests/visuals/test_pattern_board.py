"""show_pattern: a board as a pattern database sees it, pattern tiles in colour, the rest grey."""

from __future__ import annotations

import doctest

import pytest
from test_display import Cells

import puzzlekit as pk
from puzzlekit.visuals import display as d

GOAL = pk.goal_state(3)
GOAL15 = pk.goal_state(4, blank="first")
GREY = "#d9d9d9"


def cells(view: d.HTMLView) -> list[dict]:
    return Cells(view.data).cells


def test_pattern_tiles_are_in_their_colours_and_the_rest_grey_and_unnamed():
    view = d.show_pattern({1: 1, 2: 0, 3: 2}, GOAL)
    got = cells(view)
    assert len(got) == 9
    colours = d.tile_colours(GOAL)
    for square, cell in enumerate(got):
        tile = {0: 2, 1: 1, 2: 3}.get(square)
        if tile is None:
            assert cell["style"]["background-color"] == GREY and cell["text"] == ""
            assert "pk-unknown" in cell["classes"]
        else:
            assert cell["style"]["background-color"] == colours[tile]
            assert cell["text"] == str(tile) and f"pk-tile-{tile}" in cell["classes"]


def test_the_blank_is_grey_too():
    """The table's value does not depend on where the blank is: no white square."""
    got = cells(d.show_pattern({1: 0}, GOAL))
    assert all(c["style"]["background-color"] == GREY for c in got[1:])


def test_a_15_puzzle_pattern_at_home_with_a_caption_and_text():
    pattern = {t: t for t in (1, 2, 5, 6, 9, 10)}
    view = d.show_pattern(pattern, GOAL15, title="pattern A")
    got = cells(view)
    assert [c["text"] for c in got] == [str(s) if s in pattern else "" for s in range(16)]
    assert "pattern A" in view.data and "pk-caption" in view.data
    assert repr(view).splitlines() == [" ·  1  2  ·", " ·  5  6  ·", " ·  9 10  ·",
                                       " ·  ·  ·  ·", "pattern A"]


def test_the_docstring_example():
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    for test in finder.find(d.show_pattern, "show_pattern", globs={"show_pattern": d.show_pattern}):
        runner.run(test)
    assert runner.summarize(verbose=False) == (0, 1)


@pytest.mark.parametrize("pattern, goal, words", [
    ([1, 2, 3], GOAL, "dict {tile: square}"),
    ({}, GOAL, "non-empty"),
    ({9: 0}, GOAL, "not a tile of the goal"),
    ({0: 0}, GOAL, "not a tile of the goal"),
    ({True: 0}, GOAL, "not a tile of the goal"),
    ({1: 9}, GOAL, "squares are numbered 0 to 8"),
    ({1: -1}, GOAL, "squares are numbered 0 to 8"),
    ({1: (0, 0)}, GOAL, "squares are numbered 0 to 8"),
    ({1: 0, 2: 0}, GOAL, "two tiles on one square"),
    ({1: 0}, ((1, 2), (3, 3)), "goal"),
])
def test_bad_input_is_named(pattern, goal, words):
    with pytest.raises(pk.PuzzleError, match=words):
        d.show_pattern(pattern, goal)
