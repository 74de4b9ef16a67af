"""Widgets: a step-through player for any path, and a board you can play.

`PlayableBoard` and `PathPlayer` are the ipywidgets faces: tile buttons in the board's
colours over the rules of `puzzlekit.visuals.game` (which need no browser), and a
play/pause/slider/speed player over the coloured HTML board.

Where no widget front end is present (nbconvert, nbgrader feedback) a widget shows as
nothing at all; so each of ours also offers a static ``text/html`` picture of its board
in its mime bundle, and under nbgrader's autograding offers only that picture.
"""

from __future__ import annotations

import html as _html
import threading
import time
from typing import Any

import ipywidgets as W

from ..context import under_autograder
from ..puzzle.board import State, flatten, resolve_goal
from ..puzzle.geometry import INVERSE
from ..puzzle.text import board_str
from .animation import path_input
from .display import (
    BLANK_GOES,
    KIT_MIME,
    board_html,
    kit_bundle,
    path_html,
    text_colour,
    tile_colours,
)
from .game import Game

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
STRIP_MAX = 60             #: a player's static picture shows paths up to this long as a strip
#: a one-pixel image: its onload runs the widgets' helpers (arrow keys, names in words)
_PIXEL = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"


# Colours and static pictures ##################################################################

def _colours(goal: State) -> dict[int, tuple[str, str]]:
    """{tile: (background, text colour)} as the HTML boards colour them."""
    return {t: (bg, text_colour(bg)) for t, bg in tile_colours(goal).items()}


def _static_bundle(widget: W.Widget, html: str, text: str,
                   drawing: dict[str, Any] | None = None) -> dict[str, Any]:
    """The widget's own mime bundle plus a static picture (``text/html``, and `text` for
    ``text/plain``, and the `drawing` as data, `KIT_MIME`); under nbgrader's autograding
    only the pictures (no front end will ever draw the widget there)."""
    data: dict[str, Any] = {"text/plain": text, "text/html": html}
    if drawing is not None:
        data[KIT_MIME] = drawing
    if not under_autograder() and widget._view_name is not None:
        data[WIDGET_VIEW] = {"version_major": 2, "version_minor": 0,
                             "model_id": widget._model_id}
    return data


# The step-through player ######################################################################

class PathPlayer(W.VBox):
    """Step through a path of states: play/pause, a slider, a speed control, the board."""

    def __init__(self, path: object, moves: str | None = None, *, goal: State | None = None,
                 speed: int = 3) -> None:
        self.path, self.letters = path_input(path, moves)  # type: ignore[arg-type]
        self.goal = resolve_goal(self.path[0], goal if goal is not None else self.path[-1])
        self._html: dict[int, str] = {}
        last = len(self.path) - 1
        self.board = W.HTML(self.html_at(0))
        self.play = W.Play(value=0, min=0, max=last, step=1, interval=1000 // speed,
                           description="Play", layout=W.Layout(width="auto"))
        self.slider = W.IntSlider(value=0, min=0, max=last, description="move",
                                  readout=True, continuous_update=True)
        self.speed = W.IntSlider(value=speed, min=1, max=12, description="speed",
                                 layout=W.Layout(width="240px"))
        self.caption = W.HTML(self.caption_at(0))
        self.caption.add_class("puzzlekit-caption")
        W.jslink((self.play, "value"), (self.slider, "value"))
        self.slider.observe(self._on_step, names="value")
        self.speed.observe(self._on_speed, names="value")
        controls = W.HBox([self.play, self.slider, self.speed],
                          layout=W.Layout(flex_flow="row wrap", max_width="100%"))
        super().__init__([self.board, controls, W.HTML(_NAMES_HTML), self.caption])
        self.add_class("puzzlekit-player")

    def html_at(self, i: int) -> str:
        """The board of step `i` (cached)."""
        if i not in self._html:
            self._html[i] = board_html(self.path[i], self.goal)
        return self._html[i]

    def caption_at(self, i: int) -> str:
        n = len(self.letters)
        if i == 0:
            return f"start · {n} move{'s' * (n != 1)} to go"
        letter = self.letters[i - 1]
        tile = flatten(self.path[i])[flatten(self.path[i - 1]).index(0)]
        return (f"after move {i} of {n}: <b>{letter}</b> (blank {BLANK_GOES[letter]}: "
                f"tile {tile} slides {BLANK_GOES[INVERSE[letter]]})")

    @property
    def step(self) -> int:
        return self.slider.value

    def show_step(self, i: int) -> None:
        """Jump to step `i` (0 = the start)."""
        self.slider.value = max(0, min(i, len(self.path) - 1))

    def _on_step(self, change: dict[str, Any]) -> None:
        self.board.value = self.html_at(change["new"])
        self.caption.value = self.caption_at(change["new"])

    def _on_speed(self, change: dict[str, Any]) -> None:
        self.play.interval = max(40, 1000 // change["new"])

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        n = len(self.letters)
        text = f"<PathPlayer: {n} move{'s' * (n != 1)} {self.letters}>"
        if len(self.path) <= STRIP_MAX:
            return _static_bundle(self, path_html(self.path, goal=self.goal), text,
                                  kit_bundle("path", states=self.path, goal=self.goal))
        i = self.step
        note, bold = ((self.caption_at(0), None) if i == 0 else
                      (f"after move {i} of {n}: ", self.letters[i - 1]))
        return _static_bundle(self, self.html_at(i) + f"<p>{self.caption_at(i)}</p>", text,
                              kit_bundle("board", state=self.path[i], goal=self.goal,
                                         note=note, note_bold=bold))


# ipywidgets' Play buttons are icons without names (play and pause are one button whose
# icon changes) and its sliders' handles are not tied to
# their labels: a one-pixel image's onload names them in words and makes the caption under
# the board a live region (announced at each step), where the front end runs widget HTML.
_NAMES_JS = """var p = this.closest('.puzzlekit-player');
if (!p || p.dataset.pkNamed) return;
p.dataset.pkNamed = '1';
var words = {'fa-play': 'play', 'fa-pause': 'pause', 'fa-stop': 'stop',
             'fa-retweet': 'repeat', 'fa-repeat': 'repeat'};
function name() {
  p.querySelectorAll('.widget-play button').forEach(function (b) {
    var i = b.querySelector('i'), n = null;
    if (i) Object.keys(words).forEach(function (k) { if (i.classList.contains(k)) n = words[k]; });
    if (n && b.getAttribute('aria-label') !== n) { b.setAttribute('aria-label', n); b.title = n; }
  });
}
name();
p.querySelectorAll('.widget-play').forEach(function (w) {
  new MutationObserver(name).observe(w, {subtree: true, attributes: true,
                                         attributeFilter: ['class']}); });
p.querySelectorAll('.widget-slider').forEach(function (s) {
  var l = s.querySelector('.widget-label'), h = s.querySelector('[role=slider]');
  if (l && h) h.setAttribute('aria-label', l.textContent.trim());
});
var c = p.querySelector('.puzzlekit-caption');
if (c) { c.setAttribute('role', 'status'); c.setAttribute('aria-live', 'polite'); }"""
_NAMES_HTML = (f'<img src="{_PIXEL}" alt="" width="1" height="1" '
               f'onload="{_html.escape(" ".join(x.strip() for x in _NAMES_JS.splitlines()))}">')


def play_path(path: object, moves: str | None = None, *, goal: State | None = None,
              speed: int = 3) -> PathPlayer:
    """A player for `path`: a list of states, a solver result, or a start state plus a
    move string (as `animate_path` takes them). Display it to play."""
    return PathPlayer(path, moves, goal=goal, speed=speed)


# The playable board ###########################################################################

TILE_PX = 48
BLANK_LABEL = "\u00a0"
#: the static board's frame and cell borders (style.css: .pk-board, .pk-cell)
BOARD_FRAME = "4px double darkblue"
TILE_BORDER = "3px groove #808080"
#: what each button of the playable board does, in words (its tooltip)
BUTTON_TIPS = {"scramble": "scramble the board", "undo": "take back the last move",
               "reset": "back to the board you started with",
               "hint": "outline the tile to slide next and say where it goes",
               "solve": "slide the solver's solution, one move at a time (press again to stop)"}

# Arrow keys without a front-end extension: an HTML widget holds a one-pixel image whose
# onload makes the tile grid focusable and turns an arrow key into a click on the tile that
# slides that way (↑ slides the tile below the blank up, as the lecture's moveUp), so the
# game logic stays in Python. `data-lm-suppress-shortcuts` (Lumino) keeps JupyterLab's and
# Notebook 7's own arrow-key shortcuts (cell navigation) out only while the board has focus.
# The same script gives a screen reader what ipywidgets cannot: every tile button named by
# its tile alone ("5", "blank": what a reader looks for and says, the name a voice command
# or a test's get_by_role finds) and described by its place ("row 2 column 2",
# aria-description), both kept up to date as the tiles move, and the
# status and message lines as live regions (announced when they change).
# A front end that sanitises widget HTML leaves the image inert; clicks still play.
_KEYS_JS = """var box = this.closest('.puzzlekit-board');
var g = box && box.querySelector('.puzzlekit-playable');
if (!g || g.dataset.pkKeys) return;
g.dataset.pkKeys = '1'; g.tabIndex = 0; g.setAttribute('data-lm-suppress-shortcuts', 'true');
g.setAttribute('role', 'group');
g.setAttribute('aria-label', 'the board: click a tile next to the blank, or press an arrow key');
box.querySelectorAll('.puzzlekit-status, .puzzlekit-message').forEach(function (x) {
  x.setAttribute('role', 'status'); x.setAttribute('aria-live', 'polite'); });
var cols = %d;
function name() {
  Array.from(g.querySelectorAll('button')).forEach(function (b, i) {
    var t = b.textContent.trim(), words = t === '' ? 'blank' : t,
      place = 'row ' + (Math.floor(i / cols) + 1) + ' column ' + (i %% cols + 1);
    if (b.getAttribute('aria-label') !== words) b.setAttribute('aria-label', words);
    if (b.getAttribute('aria-description') !== place) b.setAttribute('aria-description', place);
  });
}
name();
new MutationObserver(name).observe(g, {subtree: true, childList: true, characterData: true});
g.addEventListener('keydown', function (e) {
  var d = {ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, 1], ArrowRight: [0, -1]}[e.key];
  if (!d || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  e.preventDefault(); e.stopPropagation();
  var b = Array.from(g.querySelectorAll('button'));
  var z = b.findIndex(function (x) { return x.textContent.trim() === ''; });
  var r = Math.floor(z / cols) + d[0], c = z %% cols + d[1];
  if (z >= 0 && r >= 0 && c >= 0 && c < cols && r * cols + c < b.length) b[r * cols + c].click();
});"""

#: the focus ring of the tiles and the board: black outside, white inside, so that one of
#: the two stands out at least 3:1 from any tile colour (and 21:1 from each other), 3 px
FOCUS_CSS = (".puzzlekit-board .puzzlekit-tile:focus,"
             " .puzzlekit-board .puzzlekit-tile:focus-visible"
             " { outline: 3px solid #000000 !important; outline-offset: -3px !important;"
             " box-shadow: inset 0 0 0 6px #ffffff !important; }"
             " .puzzlekit-board .puzzlekit-playable:focus-visible"
             " { outline: 3px solid #000000 !important; outline-offset: 2px;"
             " box-shadow: 0 0 0 5px #ffffff; }")


def _keys_html(cols: int) -> str:
    """The arrow-key and screen-reader helper of a board with `cols` columns (see
    `_KEYS_JS`), and the tiles' focus ring."""
    js = " ".join(line.strip() for line in (_KEYS_JS % cols).splitlines())
    return (f"<style>{FOCUS_CSS}</style>"
            f'<img src="{_PIXEL}" alt="" width="1" height="1" onload="{_html.escape(js)}">'
            "<small>after a click on the board, the arrow keys slide tiles too</small>")


class PlayableBoard(W.VBox):
    """A board to play: click a tile next to the blank to slide it in; scramble, undo,
    reset, hint and solve; the line below says moves made, Manhattan distance, solvable."""

    def __init__(self, rows: int = 3, cols: int | None = None, state: State | None = None,
                 goal: State | None = None, *, seed: int | None = None) -> None:
        self.game = Game(rows, cols, state, goal)
        self._colours = _colours(self.game.goal)
        self._seed = seed
        r, c = self.game.shape
        side = TILE_PX if r * c <= 36 else 34
        self._font = f"{side * 3 // 8}px"
        # the look of the static board (style.css: .pk-board, .pk-cell), so that a board
        # looks the same shown, animated or played
        self.cells = [W.Button(layout=W.Layout(width=f"{side}px", height=f"{side}px",
                                               margin="0", padding="0"))
                      for _ in range(r * c)]
        for i, b in enumerate(self.cells):
            b.on_click(lambda _b, i=i: self.click(*divmod(i, c)))
            b.add_class("puzzlekit-tile")
        self.grid = W.GridBox(self.cells, layout=W.Layout(
            grid_template_columns=f"repeat({c}, {side}px)", width="max-content",
            border=BOARD_FRAME, margin="2px"))
        self.grid.add_class("puzzlekit-playable")
        buttons = {name: W.Button(description=name, layout=W.Layout(width="auto"))
                   for name in ("scramble", "undo", "reset", "hint", "solve")}
        buttons["scramble"].on_click(lambda _: self.scramble())
        buttons["undo"].on_click(lambda _: self.undo())
        buttons["reset"].on_click(lambda _: self.reset())
        buttons["hint"].on_click(lambda _: self.hint())
        buttons["solve"].on_click(lambda _: self._solve_or_stop())
        for name, b in buttons.items():
            b.tooltip = BUTTON_TIPS[name]
        self.buttons = buttons
        self._stop = threading.Event()
        self._solver: threading.Thread | None = None
        self.status = W.HTML()
        self.status.add_class("puzzlekit-status")
        self.message = W.HTML()
        self.message.add_class("puzzlekit-message")
        self.arrow_keys = W.HTML(_keys_html(c))
        super().__init__([self.grid, W.HBox(list(buttons.values())), self.status, self.arrow_keys,
                          self.message])
        self.add_class("puzzlekit-board")
        self.refresh()

    @property
    def state(self) -> State:
        return self.game.state

    def refresh(self, highlight: tuple[int, int] | None = None) -> None:
        """Draw the game's board on the tile buttons and update the status line."""
        S, colours = self.game.state, self._colours
        cols = len(S[0])
        for i, tile in enumerate(flatten(S)):
            b = self.cells[i]
            # a blank is a no-break space: ipywidgets keeps the old text of a button
            # whose description becomes empty
            b.description = str(tile) if tile else BLANK_LABEL
            b.tooltip = f"tile {tile}" if tile else "blank"
            b.style.button_color, b.style.text_color = colours[tile]
            b.style.font_weight = "bold"
            b.style.font_size = self._font
            b.layout.border = ("3px solid #222" if highlight == divmod(i, cols)
                               else TILE_BORDER)
        self.status.value = self.game.status()

    def say(self, text: str) -> None:
        self.message.value = f"<i>{text}</i>" if text else ""

    @property
    def solving(self) -> bool:
        """True while the solve button's solution is sliding (its stop button shows)."""
        return self._solver is not None and self._solver.is_alive()

    def click(self, row: int, col: int) -> bool:
        """What a click on the tile at (row, col) does."""
        if self.solving:
            self.say("the solver is sliding the tiles: press stop first")
            return False
        moved = self.game.click(row, col)
        self.refresh()
        self.say("" if moved else "only a tile next to the blank can slide")
        return moved

    def scramble(self, moves: int | None = None) -> None:
        self._halt()
        seed = self._seed
        self._seed = None if seed is None else seed + 1
        self.game.scramble(moves, seed)
        self.refresh()
        self.say("scrambled: bring it back to the goal")

    def undo(self) -> None:
        self._halt()
        self.say("" if self.game.undo() else "nothing to undo")
        self.refresh()

    def reset(self) -> None:
        self._halt()
        self.game.reset()
        self.refresh()
        self.say("")

    def hint(self) -> tuple[int, int] | None:
        """Outline the tile to move next (first move of the solver's solution) and say
        which tile slides where."""
        self._halt()
        if self.game.solved:
            self.say("already solved")
            return None
        if not self.game.solvable:
            self.say("no hint: this board can never reach the goal")
            return None
        self.say("thinking…")
        rc = self.game.hint_tile()
        plan = self.game.solution()
        self.refresh(highlight=rc)
        if rc is None:
            return None
        tile, goes = self.game.state[rc[0]][rc[1]], BLANK_GOES[INVERSE[plan.moves[0]]]
        self.say(f"slide tile {tile} {goes} (outlined): {'an optimal' if plan.optimal else 'a'} "
                 f"solution needs {len(plan.moves)} more moves from here")
        return rc

    def solve(self, delay: float | None = None) -> str:
        """Animate the solver's solution on the board, one jump per move (no sliding);
        returns the moves made (fewer when stopped with `stop`)."""
        if not self.game.solvable:
            self.say("this board can never reach the goal: no solution to show")
            return ""
        self.say("thinking…")
        plan = self.game.solution()
        kind = "an optimal" if plan.optimal else "a (not necessarily shortest)"
        pause = delay if delay is not None else min(0.3, 8.0 / max(1, len(plan.moves)))
        for done, letter in enumerate(plan.moves, start=1):
            if self._stop.is_set():
                self.say(f"stopped after move {done - 1} of {len(plan.moves)} of {kind} "
                         "solution")
                return plan.moves[:done - 1]
            self.game.move(letter)
            self.refresh()
            self.say(f"sliding {kind} solution: move {done} of {len(plan.moves)}")
            if pause:
                time.sleep(pause)
        self.say(f"{kind} solution: {len(plan.moves)} moves, {plan.moves}")
        return plan.moves

    def _halt(self) -> None:
        """Any other button stops a sliding solution first."""
        if self.solving and threading.current_thread() is not self._solver:
            self.stop()

    def stop(self) -> None:
        """Stop the solve button's solution after the move it is making."""
        self._stop.set()
        if self._solver is not None:
            self._solver.join(timeout=10)

    def _solve_or_stop(self, delay: float | None = None) -> None:
        """The solve button: the solution slides in a thread of its own, so that the
        kernel hears the button again, which stops it meanwhile."""
        if self.solving:
            self.stop()
            return
        button = self.buttons["solve"]

        def run() -> None:
            try:
                self.solve(delay)
            finally:
                button.description, button.tooltip = "solve", BUTTON_TIPS["solve"]
        self._stop.clear()
        button.description, button.tooltip = "stop", "stop the solver after this move"
        self._solver = threading.Thread(target=run, name="puzzlekit-solve", daemon=True)
        self._solver.start()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        status = self.game.status()
        return _static_bundle(self, board_html(self.game.state, self.game.goal)
                              + f"<p>{status}</p>", f"{board_str(self.game.state)}\n{status}",
                              kit_bundle("board", state=self.game.state, goal=self.game.goal,
                                         note=status))


def play(rows: int = 3, cols: int | None = None, state: State | None = None,
         goal: State | None = None, *, scrambled: bool = True,
         seed: int | None = None) -> PlayableBoard:
    """A playable board (scrambled unless a `state` is given or `scrambled=False`)."""
    board = PlayableBoard(rows, cols, state, goal, seed=seed)
    if state is None and scrambled:
        board.scramble()
        board.say("")
    return board
