"""The playable board's rules (the `Game`, no front end needed), the widgets built on it,
and their static HTML fallback."""

from __future__ import annotations

import importlib.util
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlekit.errors import PuzzleError
from puzzlekit.puzzle.board import flatten, goal_state
from puzzlekit.puzzle.exact import exact_distance
from puzzlekit.puzzle.heuristics import manhattan
from puzzlekit.puzzle.moves import check_solution
from puzzlekit.puzzle.scrambles import random_state, state_at_depth
from puzzlekit.puzzle.solvability import is_solvable
from puzzlekit.puzzle.text import board_str
from puzzlekit.visuals.game import Game
from puzzlekit.visuals.widgets import (
    BLANK_LABEL,
    WIDGET_VIEW,
    PathPlayer,
    PlayableBoard,
    play,
    play_path,
)

shapes = st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])


@st.composite
def games(draw):
    rows, cols = draw(shapes)
    seed = draw(st.integers(0, 10**6))
    return Game(rows, cols, state=random_state(rows, cols, seed=seed))


def tile_at(game, rc):
    r, c = rc
    return game.state[r][c]


@given(games())
def test_a_click_on_a_tile_next_to_the_blank_slides_it_into_the_blank(game):
    for rc in list(game.movable()):
        g = Game(state=game.state, goal=game.goal)
        blank, tile = g.blank(), tile_at(g, rc)
        assert g.click(*rc)
        assert tile_at(g, blank) == tile and g.blank() == rc
        assert g.moves_made == 1


@given(games())
def test_a_click_anywhere_else_changes_nothing(game):
    rows, cols = game.shape
    movable = game.movable()
    assert 2 <= len(movable) <= 4
    for r in range(-1, rows + 1):
        for c in range(-1, cols + 1):
            if (r, c) not in movable:
                before = game.state
                assert not game.click(r, c)
                assert game.state == before and game.moves_made == 0


@given(games(), st.lists(st.integers(0, 3), max_size=12))
def test_undo_takes_moves_back_in_order_and_reset_returns_to_the_start(game, picks):
    seen = [game.state]
    for k in picks:
        cells = sorted(game.movable())
        game.click(*cells[k % len(cells)])
        seen.append(game.state)
    assert game.moves_made == len(picks)
    while game.undo():
        seen.pop()
        assert game.state == seen[-1]
    assert game.state == game.start and not game.undo()
    for k in picks:
        game.click(*sorted(game.movable())[k % 2])
    game.reset()
    assert game.state == game.start and game.moves_made == 0


def test_the_rules_load_without_a_front_end():
    import json
    import subprocess
    import sys
    code = ("import sys, json, puzzlekit.visuals.game; "
            "print(json.dumps([m for m in ('ipywidgets', 'IPython', 'matplotlib') "
            "if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert json.loads(out.stdout) == [], out.stderr


def test_status_reports_moves_manhattan_and_solvability():
    game = Game(state=((1, 2, 3), (4, 5, 6), (0, 7, 8)))
    assert game.manhattan == manhattan(game.state) == 2 and game.solvable
    game.click(2, 1)
    assert "moves made: 1" in game.status() and "Manhattan distance: 1" in game.status()
    game.click(2, 2)
    assert game.solved and "solved" in game.status()
    stuck = Game(state=((2, 1, 3), (4, 5, 6), (7, 8, 0)))
    assert not stuck.solvable and "cannot" in stuck.status() and stuck.hint() is None


def test_scramble_is_seeded_solvable_and_clears_the_history():
    a, b = Game(4), Game(4)
    a.click(3, 2)
    assert a.scramble(40, seed=7) == b.scramble(40, seed=7) != goal_state(4)
    assert a.moves_made == 0 and a.start == a.state and is_solvable(a.state)


def test_bad_boards_are_refused_with_a_puzzle_error():
    with pytest.raises(PuzzleError):
        Game(state=((1, 2), (3, 3)))
    with pytest.raises(PuzzleError):
        Game(state=((1, 2, 3), (4, 5, 6), (7, 8, 0)), goal=((1, 2), (3, 0)))


# hints come from the solver ###################################################################

def have(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


needs_solver = pytest.mark.skipif(not have("puzzlekit.engine.solver"), reason="no puzzlekit.engine.solver yet")
needs_display = pytest.mark.skipif(not have("puzzlekit.visuals.display"),
                                   reason="no puzzlekit.visuals.display yet")


@needs_solver
@settings(max_examples=12, deadline=None)
@given(st.integers(1, 24), st.integers(0, 10**6))
def test_a_hint_is_an_optimal_next_move_on_the_8_puzzle(depth, seed):
    goal = goal_state(3)
    game = Game(state=state_at_depth(depth, seed=seed, goal=goal), goal=goal)
    rc = game.hint_tile()
    assert game.click(*rc)
    assert exact_distance(game.state, goal) == depth - 1


@needs_solver
def test_following_hints_solves_the_puzzle_in_the_optimal_number_of_moves():
    goal = goal_state(3)
    game = Game(state=state_at_depth(20, seed=3, goal=goal), goal=goal)
    while not game.solved:
        assert game.click(*game.hint_tile())
    assert game.moves_made == 20
    assert game.hint() is None


@needs_solver
def test_beyond_optimal_reach_the_solution_is_legal_and_labelled_not_shortest():
    game = Game(5)
    game.scramble(seed=4)
    plan = game.solution()
    assert not plan.optimal
    assert check_solution(game.state, game.goal, plan.moves).ok
    first = plan.moves[0]
    assert game.hint() == first and game.move(first)
    assert game.solution().moves == plan.moves[1:]     # the plan is reused, not recomputed


@needs_solver
@pytest.mark.slow
def test_a_15_puzzle_hint_builds_only_the_small_tables_when_the_default_ones_are_missing(
        tmp_path, monkeypatch):
    """A hint never waits half a minute or more for the 6-6-3 build: with an empty table
    cache it plans on the 5-5-5 tables (seconds to build), still optimally."""
    from puzzlekit.engine import pdb
    monkeypatch.setenv("PUZZLEKIT_CACHE", str(tmp_path))
    monkeypatch.delenv("PUZZLEKIT_PDB", raising=False)
    monkeypatch.setattr(pdb, "_DATABASES", {})
    from puzzlekit import scramble
    goal = goal_state(4)
    game = Game(state=scramble(4, moves=40, seed=5), goal=goal)
    plan = game.solution()
    assert plan.optimal and check_solution(game.state, goal, plan.moves).ok
    assert pdb.ready(goal, "5-5-5") and not pdb.ready(goal, "6-6-3")


# the widgets ##################################################################################


def board_on_buttons(board):
    rows, cols = board.game.shape
    labels = [int(b.description.strip() or 0) for b in board.cells]
    return tuple(tuple(labels[r * cols:(r + 1) * cols]) for r in range(rows))


@needs_display
def test_clicking_a_tile_button_slides_the_tile_on_the_widget():
    board = PlayableBoard(state=((1, 2, 3), (4, 0, 5), (7, 8, 6)))
    assert board_on_buttons(board) == board.state
    board.cells[5].click()                       # tile 5, right of the blank
    assert board.state == ((1, 2, 3), (4, 5, 0), (7, 8, 6))
    assert board.cells[5].description == BLANK_LABEL  # never "": the front end keeps old text
    assert board_on_buttons(board) == board.state
    board.cells[0].click()                       # tile 1, far from the blank: nothing
    assert board.state == ((1, 2, 3), (4, 5, 0), (7, 8, 6))
    assert "next to the blank" in board.message.value
    assert board_str(board.state) in board._repr_mimebundle_()["text/plain"]
    board.buttons["undo"].click()
    assert board_on_buttons(board) == ((1, 2, 3), (4, 0, 5), (7, 8, 6))


@needs_display
def test_tile_buttons_wear_distinct_colours_and_a_white_blank():
    from puzzlekit.visuals.display import tile_colours
    board = play(4, seed=5)
    colours = {int(b.description.strip() or 0): b.style.button_color for b in board.cells}
    assert colours == tile_colours(board.game.goal)
    assert colours[0].lower() in ("white", "#fff", "#ffffff")
    assert len(set(colours.values())) == 16


@needs_display
@needs_solver
def test_the_solve_button_plays_a_solution_to_the_goal():
    board = PlayableBoard(state=state_at_depth(12, seed=1))
    board.solve(delay=0)
    assert board.game.solved and board_on_buttons(board) == goal_state(3)
    assert board.game.moves_made == 12


@needs_display
@needs_solver
def test_the_hint_names_the_tile_and_where_it_slides():
    board = PlayableBoard(state=((1, 2, 3), (4, 5, 6), (7, 0, 8)))
    assert board.hint() == (2, 2)
    assert board.message.value.startswith("<i>slide tile 8 left (outlined)")


@needs_display
@needs_solver
def test_the_solve_button_turns_into_a_stop_button():
    """The solution slides in a thread of its own; the same button (now "stop") stops it
    after the move it is making, and the board stays where it stopped."""
    board = PlayableBoard(state=state_at_depth(20, seed=3))
    board._solve_or_stop(delay=0.2)
    assert board.solving and board.buttons["solve"].description == "stop"
    deadline = time.monotonic() + 30
    while board.game.moves_made < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert board.click(0, 0) is False and "press stop first" in board.message.value
    board.buttons["solve"].click()                       # stop
    assert not board.solving and board.buttons["solve"].description == "solve"
    made = board.game.moves_made
    assert 2 <= made < 20 and not board.game.solved
    assert f"stopped after move {made} of 20" in board.message.value
    time.sleep(0.3)
    assert board.game.moves_made == made                 # it stays stopped


@needs_display
def test_the_player_shows_the_board_of_each_step():
    from puzzlekit.visuals.display import board_html
    path = [goal_state(3)]
    for tile in (6, 5, 2):
        g = Game(state=path[-1])
        g.click(*next(rc for rc in g.movable() if g.state[rc[0]][rc[1]] == tile))
        path.append(g.state)
    player = play_path(path[::-1])
    assert player.board.value == board_html(path[-1], path[0])
    player.show_step(2)
    assert player.board.value == board_html(path[1], path[0])
    assert "move 2 of 3" in player.caption.value
    assert "(blank right: tile 5 slides left)" in player.caption.value
    player.speed.value = 10
    assert player.play.interval == 100
    same = play_path(path[-1], "".join(player.letters), goal=path[0])
    assert same.path == player.path
    with pytest.raises(PuzzleError):
        PathPlayer([goal_state(3), random_state(3, seed=1)])
    with pytest.raises(PuzzleError):
        PathPlayer([])


@pytest.mark.parametrize("make", [lambda: PlayableBoard(4), lambda: play_path(
    [goal_state(2), ((1, 2), (0, 3))])])
@needs_display
def test_widgets_carry_a_static_html_picture_for_places_without_widgets(make, monkeypatch):
    widget = make()
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    bundle = widget._repr_mimebundle_()
    assert WIDGET_VIEW in bundle and bundle[WIDGET_VIEW]["model_id"] == widget.model_id
    assert "<table" in bundle["text/html"]
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    bundle = widget._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle and "<table" in bundle["text/html"]


# The arrow keys' script, run in headless Chromium on a stand-in board (no Jupyter needed)

ARROW_LETTER = {"ArrowUp": "D", "ArrowDown": "U", "ArrowLeft": "R", "ArrowRight": "L"}


def stand_in_board(game: Game) -> str:
    """A page with tile buttons as the PlayableBoard lays them out, which record clicks,
    and the board's arrow-key helper."""
    from puzzlekit.visuals.widgets import _keys_html
    buttons = "".join(f'<button onclick="window.clicked.push({i})">{t or BLANK_LABEL}</button>'
                      for i, t in enumerate(flatten(game.state)))
    return ("<html><body><script>window.clicked = [];</script><div class='puzzlekit-board'>"
            f"<div class='puzzlekit-playable'>{buttons}</div>{_keys_html(game.shape[1])}"
            "</div></body></html>")


@pytest.mark.browser
@pytest.mark.parametrize("rows, cols", [(3, 3), (4, 4), (2, 3)])
def test_an_arrow_key_clicks_the_tile_that_slides_that_way(rows, cols, tmp_path):
    """↑ clicks the tile below the blank (it slides up, as the lecture's moveUp), and so on;
    at an edge nothing is clicked. Checked against `Game.movable` for every blank cell."""
    support = pytest.importorskip("browser_support")
    support.require_chromium()
    with support.chromium(width=400, height=300) as page:
        for z in range(rows * cols):
            goal = goal_state(rows, cols)
            flat = [t for t in flatten(goal) if t]
            flat.insert(z, 0)
            game = Game(state=tuple(tuple(flat[r * cols:(r + 1) * cols]) for r in range(rows)))
            html = tmp_path / f"board{z}.html"
            html.write_text(stand_in_board(game), encoding="utf-8")
            page.goto(html.as_uri())
            page.wait_for_function("() => document.querySelector('[data-pk-keys]')")
            grid = page.locator(".puzzlekit-playable")
            for key, letter in ARROW_LETTER.items():
                page.evaluate("() => { window.clicked = []; }")
                grid.focus()
                page.keyboard.press(key)
                wanted = [r * cols + c for (r, c), m in game.movable().items() if m == letter]
                assert page.evaluate("() => window.clicked") == wanted, (game.state, key)


def test_a_played_board_wears_the_static_boards_frame_and_cells():
    """Shown, animated or played, a board looks the same: the widget's frame and tile
    borders are style.css's .pk-board and .pk-cell borders."""
    import re

    from puzzlekit.visuals import widgets
    from puzzlekit.visuals.display import css_text
    css = css_text()

    def border(rule: str) -> str:
        block = re.search(r"\." + rule + r"\s*\{([^}]*)\}", css).group(1)
        return re.search(r"(?<![-\w])border:\s*([^;]+);", block).group(1).strip()

    assert widgets.BOARD_FRAME == border("pk-board")
    assert widgets.TILE_BORDER == border("pk-cell")
    board = widgets.PlayableBoard(3, state=((1, 2, 3), (4, 5, 6), (7, 0, 8)))
    assert board.grid.layout.border == widgets.BOARD_FRAME
    assert {b.layout.border for b in board.cells} == {widgets.TILE_BORDER}


@pytest.mark.parametrize("rows, cols", [(r, c) for r in range(2, 13) for c in range(2, 13)
                                        if abs(r - c) <= 1])
def test_the_focus_ring_stands_out_3_to_1_from_every_tile(rows, cols):
    """WCAG 2.1 non-text contrast for the focus ring: its black and white rings are each
    3 px, and for every tile colour of every shape one of them reaches 3:1."""
    import re

    from puzzlekit.visuals import widgets
    from puzzlekit.visuals.display import contrast_ratio, tile_colours
    widths = re.findall(r"outline: (\d+)px solid #000000", widgets.FOCUS_CSS)
    assert widths and all(int(w) >= 2 for w in widths)
    assert "inset 0 0 0 6px #ffffff" in widgets.FOCUS_CSS
    worst = min(max(contrast_ratio("#000000", c), contrast_ratio("#ffffff", c))
                for c in tile_colours(goal_state(rows, cols)).values())
    assert worst >= 3.0
