"""Animations: HTML boards in the boards' colours stepped by a self-contained player,
static under nbgrader."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlekit as pk
from puzzlekit.visuals import animation as A
from puzzlekit.visuals.display import tile_colours

DATA = Path(__file__).parents[2].parent / "shared" / "data"
LECTURE_START = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
LECTURE_GOAL = ((0, 1, 2), (3, 4, 5), (6, 7, 8))


@pytest.fixture(autouse=True)
def not_autograding(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)


@pytest.fixture(scope="module")
def lecture_animation() -> A.Animation:
    path = pk.search(pk.nextStates, LECTURE_START, LECTURE_GOAL)
    return A.animate_path(path, goal=LECTURE_GOAL)


def assert_offline(html: str) -> None:
    assert "http" not in html and "//cdn" not in html and "<script src" not in html
    assert "url(" not in html and "@import" not in html and "data:image" not in html


def script_data(html: str) -> dict:
    """The data the player's script steps through (the JSON in the script)."""
    return json.loads(re.search(r"var D = (\{.*?\});\n", html).group(1))


# ----------------------------------------------------------------------------- solution paths

def test_lecture_solution_is_small_self_contained_and_plays(lecture_animation):
    anim = lecture_animation
    assert anim.steps == 1 + 31 and anim.kind == "path"
    html = anim.to_html()
    assert_offline(html)
    assert len(html.encode()) < 40_000                      # PNG frames: about 300 KB
    assert "<script>" in html and anim._repr_html_() == html
    for act in ("first", "prev", "play", "next", "last"):
        assert f'data-act="{act}"' in html
    data = script_data(html)
    assert len(data["b"]) == 32 and data["b"][0] == [8, 0, 6, 5, 4, 7, 2, 3, 1]
    assert data["b"][-1] == list(range(9))                  # it ends at the goal


def test_the_board_wears_the_boards_colours_and_shows_the_start_without_script(
        lecture_animation):
    html = lecture_animation.to_html()
    data = script_data(html)
    assert data["bg"] == {str(t): c for t, c in tile_colours(LECTURE_GOAL).items()}
    stage = re.search(r'<div class="pk-stage".*?</table>', html, re.S).group(0)
    assert 'role="table"' in stage and "row 1: 8, blank, 6" in stage     # a real board
    for colour in tile_colours(LECTURE_GOAL).values():
        assert colour in stage


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 5), (12, 12)])
def test_any_board_size_fits_a_narrow_screen(rows, cols):
    start = pk.goal_state(rows, cols)
    anim = A.animate_path(start, "ULDR"[: 4 if rows * cols > 4 else 2])
    assert anim.steps == 1 + len(anim.info["moves"])
    data = script_data(anim.to_html())
    assert data["s"] * cols <= 264                           # 320 px, the player's padding
    assert_offline(anim.to_html())


def test_path_from_solve_result_states():
    result = pk.solve(pk.apply_moves(pk.goal_state(3), "ULLD"))
    for path in (result.path, result):
        anim = A.animate_path(path)
        assert anim.info["moves"] == result.moves and anim.steps == result.length + 1


@pytest.mark.parametrize("call", [
    lambda: A.animate_path([]),
    lambda: A.animate_path([LECTURE_GOAL, pk.apply_moves(LECTURE_GOAL, "DD")]),
    lambda: A.animate_path(LECTURE_GOAL, "UU"),
    lambda: A.animate_path(LECTURE_GOAL, "DX"),
    lambda: A.animate_path(pk.moves_to_path(LECTURE_GOAL, "DR"), "RD"),
    lambda: A.animate_path(LECTURE_GOAL, "D", interval=0),
    lambda: A.animate_path(LECTURE_GOAL, "D", cell_px=500),
    lambda: A.animate_path(pk.goal_state(13), "U"),
    lambda: A.animate_path(LECTURE_GOAL, "D", goal=pk.goal_state(4)),
    lambda: A.animate_bfs_layers(((1, 2), (2, 0))),
    lambda: A.animate_bfs_layers(LECTURE_GOAL, max_depth=0),
    lambda: A.animate_bfs_layers(LECTURE_GOAL, samples=-1),
    lambda: A.animate_bfs_layers(LECTURE_GOAL, interval=True),
    lambda: A.player_html(A.Animation("path", {}, "", [], [])),
    lambda: A.player_html(A.Animation("frames", {}, "", ["a"], ["a"])),
])
def test_bad_input_raises_puzzle_error(call):
    with pytest.raises(pk.PuzzleError):
        call()


# ----------------------------------------------------------------------------- BFS layers

def published_8_puzzle_layers() -> list[int]:
    """New states per depth from the blank-last corner goal (shared data, else exact.py)."""
    table = DATA / "eight_puzzle_depth_histogram.tsv"
    if not table.exists():
        return pk.depth_histogram(pk.goal_state(3))
    with table.open() as f:
        return [int(row["count_goal_blank_bottom_right"]) for row in csv.DictReader(f, delimiter="\t")]


def test_bfs_layers_of_the_8_puzzle_match_the_published_counts(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")     # the counts, without frames
    anim = A.animate_bfs_layers(pk.goal_state(3))
    sizes = anim.info["layer_sizes"]
    assert sizes == published_8_puzzle_layers()
    assert sizes[:7] == [1, 2, 4, 8, 16, 20, 39] and sizes[-2:] == [221, 2]


def test_bfs_animation_has_a_step_per_layer_and_bars_in_html():
    anim = A.animate_bfs_layers(pk.goal_state(3), max_depth=5, samples=4)
    assert anim.info["layer_sizes"] == [1, 2, 4, 8, 16, 20]
    assert anim.steps == 6 and anim.first == 5              # it opens on the whole search
    html = anim.to_html()
    assert html.count('class="pk-bar"') == 6 and "#e69f00" in html   # the newest bar
    assert html.count('class="pk-bfs-layer"') == 6
    assert html.count('class="pk-sv-board"') == 1 + 2 + 4 + 4 + 4 + 4
    assert script_data(html)["sizes"] == [1, 2, 4, 8, 16, 20]
    assert_offline(html)


@pytest.mark.parametrize("rows,cols,states,depths", [(2, 2, 12, 7), (2, 3, 360, 22)])
def test_tiny_boards_draw_their_whole_state_graph(rows, cols, states, depths):
    anim = A.animate_bfs_layers(pk.goal_state(rows, cols))
    assert sum(anim.info["layer_sizes"]) == states
    assert anim.steps == depths
    html = anim.to_html()
    assert html.count("<circle") == states and "<svg" in html
    assert len(html.encode()) < 300_000
    assert_offline(html)


def test_bfs_stops_at_the_state_budget():
    anim = A.animate_bfs_layers(pk.goal_state(4), max_nodes=500, samples=2)
    assert anim.info["cut_short"] and sum(anim.info["layer_sizes"][:-1]) <= 500
    assert anim.steps == len(anim.info["layer_sizes"])
    assert anim.alts[-1].endswith("(stopped: state budget)")


# ----------------------------------------------------------------------------- autograding

def test_under_nbgrader_animations_degrade_to_a_static_strip(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    path = pk.moves_to_path(pk.goal_state(3), "ULDR")
    anim = A.animate_path(path)
    assert anim.static and anim.steps == 0
    html = anim.to_html()
    assert "<script" not in html and "data:image" not in html
    assert html.count("<table") == len(path)
    bfs = A.animate_bfs_layers(pk.goal_state(2, 3))
    assert bfs.static and "<table" in bfs.to_html() and "<script" not in bfs.to_html()


# ----------------------------------------------------------------------------- the player

def test_players_get_distinct_ids_and_save_as_pages(tmp_path):
    one, two = (pk.animate_path(pk.goal_state(2), "U").to_html() for _ in range(2))
    ids = [re.search(r'id="([^"]+)"', h).group(1) for h in (one, two)]
    assert ids[0] != ids[1]
    anim = pk.animate_path(pk.goal_state(2), "U", title="a <b> test")
    anim.save(tmp_path / "a.html")
    page = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "a &lt;b&gt; test" in page
    assert 'name=\'viewport\'' in page


def test_animations_never_touch_matplotlib():
    code = ("import sys, puzzlekit as pk; pk.animate_path(pk.goal_state(2), 'U'); "
            "pk.animate_bfs_layers(pk.goal_state(2, 3)); "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_players_counter_speaks_in_the_unit_of_the_animation():
    """One counter, in moves or depths."""
    path = pk.solve(pk.state_at_depth(3, seed=1)).path
    a = pk.animate_path(path)
    assert a.labels == ["start · 3 moves", "move 1 of 3", "move 2 of 3", "solved in 3 moves"]
    html = a.to_html()
    assert re.search(r'class="pk-counter"[^>]*>start · 3 moves</span>', html)
    assert 'aria-label="move"' in html
    layers = pk.animate_bfs_layers(pk.goal_state(2, 3))
    assert layers.labels[0] == "depth 0 of 21" and layers.labels[-1] == "depth 21 of 21"
    assert re.search(r'class="pk-counter"[^>]*>depth 21 of 21</span>', layers.to_html())


def test_every_step_says_what_it_shows_and_the_whole_animation_is_text_too():
    """Words per step (what a screen reader hears when stepping, the stage's name), and
    the animation in words; reduced motion is asked at each step (the slide jumps)."""
    a = pk.animate_path(pk.goal_state(3), "UL")
    assert len(a.alts) == a.steps == 3
    assert a.alts[0] == ("2-move solution, start: row 1: 1, 2, 3; row 2: 4, 5, 6; "
                         "row 3: 7, 8, blank")
    assert a.alts[1] == ("move 1 of 2: tile 6 slides down; now row 1: 1, 2, 3; "
                         "row 2: 4, 5, blank; row 3: 7, 8, 6")
    assert "The blank goes U L; the tiles slide: 6 down, 5 right." in a.description
    html = a.to_html()
    assert "<details" in html and a.description in html
    assert 'role="status" aria-live="polite"' in html
    assert 'data-lm-suppress-shortcuts="true"' in html
    assert 'still() ? "none"' in html and "prefers-reduced-motion: reduce" in html
    names = re.findall(r'data-act="(\w+)" title="[^"]*"(?: aria-label="([^"]*)")?', html)
    assert names == [("first", "go to the start"), ("prev", "step back"), ("play", ""),
                     ("next", "step forward"), ("last", "go to the end")]
    layers = pk.animate_bfs_layers(pk.goal_state(2, 3))
    assert layers.alts[2] == (
        "breadth-first layers of the 2×3 puzzle, depth 2 of 21: 3 new states, 6 in all")
    assert "New states per depth, from depth 0: 1, 2, 3," in layers.description
