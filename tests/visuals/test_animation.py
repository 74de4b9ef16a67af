"""Animations: frames in the boards' colours, a self-contained player, static under nbgrader."""

from __future__ import annotations

import csv
import io
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
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def not_autograding(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)


@pytest.fixture(scope="module")
def lecture_animation() -> A.Animation:
    path = pk.search(pk.nextStates, LECTURE_START, LECTURE_GOAL)
    return A.animate_path(path, goal=LECTURE_GOAL)


def image(frame: bytes):
    from PIL import Image
    return Image.open(io.BytesIO(frame)).convert("RGB")


def has_colour(img, hex_colour: str, tolerance: int = 0) -> bool:
    want = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return any(all(abs(a - b) <= tolerance for a, b in zip(c, want))
               for _, c in img.getcolors(maxcolors=1 << 16))


def assert_offline(html: str) -> None:
    assert "http" not in html and "//cdn" not in html and "<script src" not in html
    assert "url(" not in html and "@import" not in html


# ----------------------------------------------------------------------------- solution paths

def test_lecture_solution_is_small_self_contained_and_plays(lecture_animation):
    anim = lecture_animation
    assert len(anim.frames) == 1 + 31 * 3
    assert all(f.startswith(PNG) for f in anim.frames)
    html = anim.to_html()
    assert_offline(html)
    assert len(html.encode()) < 1_000_000
    assert "<script>" in html and html.count("data:image/png;base64,") == 2
    assert anim._repr_html_() == html
    for act in ("first", "prev", "play", "next", "last"):
        assert f'data-act="{act}"' in html


def test_frames_use_the_boards_colours(lecture_animation):
    first = image(lecture_animation.frames[0])
    assert first.size == tuple(int(x) for x in lecture_animation.size)
    for tile, colour in tile_colours(LECTURE_GOAL).items():
        assert has_colour(first, colour), f"tile {tile}: {colour} not in the frame"


def test_in_between_frames_differ_and_the_last_shows_the_goal(lecture_animation):
    frames = lecture_animation.frames
    assert len(set(frames)) == len(frames)
    direct = A.animate_path(LECTURE_GOAL, "", goal=LECTURE_GOAL)   # the goal on its own
    last, goal = image(frames[-1]), image(direct.frames[0])
    board = (0, 30, *last.size)                                     # below the move counter
    assert last.crop(board).tobytes() == goal.crop(board).tobytes()
    assert last.tobytes() != goal.tobytes()                         # the counters differ


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 5), (12, 12)])
def test_any_board_size(rows, cols):
    start = pk.goal_state(rows, cols)
    anim = A.animate_path(start, "ULDR"[: 4 if rows * cols > 4 else 2], frames_per_move=2)
    assert len(anim.frames) == 1 + 2 * len(anim.info["moves"])
    img = image(anim.frames[0])
    for colour in tile_colours(start).values():
        assert has_colour(img, colour)
    assert_offline(anim.to_html())


def test_path_from_solve_result_states():
    result = pk.solve(pk.apply_moves(pk.goal_state(3), "ULLD"))
    for path in (result.path, result):
        anim = A.animate_path(path, frames_per_move=1)
        assert anim.info["moves"] == result.moves and len(anim.frames) == result.length + 1


@pytest.mark.parametrize("call", [
    lambda: A.animate_path([]),
    lambda: A.animate_path([LECTURE_GOAL, pk.apply_moves(LECTURE_GOAL, "DD")]),
    lambda: A.animate_path(LECTURE_GOAL, "UU"),
    lambda: A.animate_path(LECTURE_GOAL, "DX"),
    lambda: A.animate_path(pk.moves_to_path(LECTURE_GOAL, "DR"), "RD"),
    lambda: A.animate_path(LECTURE_GOAL, "D", frames_per_move=0),
    lambda: A.animate_path(LECTURE_GOAL, "D", interval=0),
    lambda: A.animate_path(pk.goal_state(13), "U"),
    lambda: A.animate_path(LECTURE_GOAL, "D", goal=pk.goal_state(4)),
    lambda: A.animate_bfs_layers(((1, 2), (2, 0))),
    lambda: A.animate_bfs_layers(LECTURE_GOAL, max_depth=0),
    lambda: A.animate_bfs_layers(LECTURE_GOAL, samples=-1),
    lambda: A.player_html([]),
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


def test_bfs_animation_has_a_frame_per_layer():
    anim = A.animate_bfs_layers(pk.goal_state(3), max_depth=5, samples=4)
    assert anim.info["layer_sizes"] == [1, 2, 4, 8, 16, 20]
    assert len(anim.frames) == 6
    img = image(anim.frames[-1])
    assert has_colour(img, "#e69f00")                       # the newest bar
    assert_offline(anim.to_html())


@pytest.mark.parametrize("rows,cols,states,depths", [(2, 2, 12, 7), (2, 3, 360, 22)])
def test_tiny_boards_draw_their_whole_state_graph(rows, cols, states, depths):
    anim = A.animate_bfs_layers(pk.goal_state(rows, cols))
    assert sum(anim.info["layer_sizes"]) == states
    assert len(anim.frames) == depths
    assert len(anim.to_html().encode()) < 1_000_000
    assert_offline(anim.to_html())


def test_bfs_stops_at_the_state_budget():
    anim = A.animate_bfs_layers(pk.goal_state(4), max_nodes=500, samples=2)
    assert anim.info["cut_short"] and sum(anim.info["layer_sizes"][:-1]) <= 500
    assert len(anim.frames) == len(anim.info["layer_sizes"])


# ----------------------------------------------------------------------------- autograding

def test_under_nbgrader_animations_degrade_to_a_static_strip(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    path = pk.moves_to_path(pk.goal_state(3), "ULDR")
    anim = A.animate_path(path)
    assert anim.static and anim.frames == []
    html = anim.to_html()
    assert "<script" not in html and "data:image" not in html
    assert html.count("<table") == len(path)
    bfs = A.animate_bfs_layers(pk.goal_state(2, 3))
    assert bfs.static and "<table" in bfs.to_html() and "<script" not in bfs.to_html()


# ----------------------------------------------------------------------------- the player

def test_players_get_distinct_ids_and_save_as_pages(tmp_path):
    one, two = (A.player_html([PNG]) for _ in range(2))
    ids = [re.search(r'id="([^"]+)"', h).group(1) for h in (one, two)]
    assert ids[0] != ids[1]
    anim = A.Animation([PNG], title="a <b> test")
    anim.save(tmp_path / "a.html")
    page = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "a &lt;b&gt; test" in page


def test_animations_never_touch_pyplot():
    code = ("import sys, puzzlekit as pk; pk.animate_path(pk.goal_state(2), 'U'); "
            "print('matplotlib.pyplot' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_players_counter_speaks_in_the_unit_of_the_frames():
    """One counter, in moves (not '2 / 94' frames beside 'move 1 / 31' in the picture)."""
    import puzzlekit as pk
    from puzzlekit.visuals.animation import player_html
    path = pk.solve(pk.state_at_depth(3, seed=1)).path
    a = pk.animate_path(path, frames_per_move=2)
    assert len(a.labels) == len(a.frames) == 1 + 2 * 3
    assert a.labels[0] == "start · 3 moves" and a.labels[1] == a.labels[2] == "move 1 of 3"
    html = a.to_html()
    assert re.search(r'class="pk-counter"[^>]*>start · 3 moves</span>', html)
    assert '"move 3 of 3"' in html and "labels ? labels[f]" in html
    layers = pk.animate_bfs_layers(pk.goal_state(2, 3))
    assert layers.labels[0] == "depth 0 of 21" and layers.labels[-1] == "depth 21 of 21"
    plain = player_html([a.frames[0]])
    assert re.search(r'class="pk-counter"[^>]*>1 / 1</span>', plain)
    assert "var labels = null" in plain
    with pytest.raises(pk.PuzzleError, match="2 labels for 1 frames"):
        player_html([a.frames[0]], labels=["a", "b"])


def test_every_frame_says_what_it_shows_and_the_whole_animation_is_text_too():
    """Alt text per frame (what a screen reader hears when stepping), the frames between
    the moves (reduced motion shows only those), and the animation in words."""
    import puzzlekit as pk
    a = pk.animate_path(pk.goal_state(3), "UL", frames_per_move=3)
    assert a.keys == [0, 3, 6] and len(a.alts) == len(a.frames) == 7
    assert a.alts[0] == ("2-move solution, start: row 1: 1, 2, 3; row 2: 4, 5, 6; "
                         "row 3: 7, 8, blank")
    assert a.alts[1] == "move 1 of 2: tile 6 slides down"
    assert a.alts[3] == ("move 1 of 2: tile 6 slides down; now row 1: 1, 2, 3; "
                         "row 2: 4, 5, blank; row 3: 7, 8, 6")
    assert "The blank goes U L; the tiles slide: 6 down, 5 right." in a.description
    html = a.to_html()
    assert "<details" in html and a.description in html
    assert 'role="status" aria-live="polite"' in html
    assert 'data-lm-suppress-shortcuts="true"' in html
    names = re.findall(r'data-act="(\w+)" title="[^"]*"(?: aria-label="([^"]*)")?', html)
    assert names == [("first", "go to the start"), ("prev", "step back"), ("play", ""),
                     ("next", "step forward"), ("last", "go to the end")]
    layers = pk.animate_bfs_layers(pk.goal_state(2, 3))
    assert layers.keys is None and layers.alts[2] == (
        "breadth-first layers of the 2×3 puzzle, depth 2 of 21: 3 new states, 6 in all")
    assert "New states per depth, from depth 0: 1, 2, 3," in layers.description
