"""Animations that play anywhere: solution paths sliding into place, BFS layers growing.

Frames are drawn with matplotlib (imported only here, only when an animation is asked
for) in the colours of the HTML boards, stored as small palette PNGs and played by a
few lines of inline JavaScript with plain-text buttons. Nothing is fetched from the
network — unlike matplotlib's own `to_jshtml`, whose button icons come from a CDN — so
the player works in JupyterLab, in saved notebooks, in nbconvert HTML and in nbgrader
feedback. Where scripts do not run, the first frame still shows.

Under nbgrader's autograder (`NBGRADER_EXECUTION` set) both functions return a cheap
static strip of HTML boards instead, so grading time is not spent drawing frames.

Beside its HTML an animation shows its drawing as plain data (`display.KIT_MIME`: the
frames as PNG, or the strip's boards): a graded notebook keeps only what
`puzzlekit.autograder.grader.sanitize` draws again from that data (the first frame, without the script).
"""

from __future__ import annotations

import base64
import html as _html
import io
import json
import math
import os
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..context import under_autograder
from ..errors import PuzzleError
from ..puzzle.board import Flat, State, flatten, goal_state, shape, unflatten, validate_state
from ..puzzle.geometry import INVERSE, grid, slide
from ..puzzle.moves import move_between, moves_to_path, normalize_moves
from .display import (
    BLANK_GOES,
    KIT_MIME,
    HTMLView,
    _hex,
    _mix,
    _path_states,
    _rgb,
    board_html,
    board_words,
    fresh_id,
    kit_bundle,
    path_html,
    tag,
    text_colour,
    tile_colours,
)

DPI = 72
BFS_MAX_STATES = 400_000      #: a BFS animation stops growing layers beyond this many states


# ----------------------------------------------------------------------------- the player

@dataclass
class Animation:
    """Frames (PNG bytes) and an inline-JS player; Jupyter shows it via `_repr_html_`.

    `static_html` replaces the player when the animation degraded to a static strip.
    """

    frames: list[bytes]
    interval: int = 200                           #: milliseconds per frame at 1× speed
    title: str = ""
    size: tuple[int, int] = (0, 0)                #: frame width, height in pixels
    static_html: str | None = None
    info: dict[str, Any] = field(default_factory=dict)
    #: what the player's counter says at each frame ("move 3 of 31"), in the unit the
    #: frames show; None: "frame / frames"
    labels: list[str] | None = None
    #: the static strip as data (`KIT_MIME`), when the animation degraded to one
    static_bundle: dict[str, Any] | None = None
    #: what each frame shows in words (its alt text); None: the title and the counter
    alts: list[str] | None = None
    #: the frames shown when the reader asked for reduced motion (the boards between the
    #: moves, no sliding); None: every frame
    keys: list[int] | None = None
    #: the whole animation in words (the moves, the layer sizes), under the player
    description: str = ""
    _html: str | None = field(default=None, repr=False, compare=False)

    @property
    def static(self) -> bool:
        return self.static_html is not None

    def to_html(self) -> str:
        """Self-contained HTML: frames as data URIs, player script inline, no URLs."""
        if self.static_html is not None:
            return self.static_html
        if self._html is None:         # built once, so the player keeps one element id
            self._html = player_html(self.frames, interval=self.interval, title=self.title,
                                     size=self.size, labels=self.labels, alts=self.alts,
                                     keys=self.keys, description=self.description)
        return self._html

    def _repr_html_(self) -> str:
        return self.to_html()

    def bundle(self) -> dict[str, Any]:
        """The drawing as plain data (`KIT_MIME`): the strip's boards, or the frames."""
        if self.static_bundle is not None:
            return self.static_bundle
        return kit_bundle("frames", frames=[base64.b64encode(self.frames[0]).decode("ascii")],
                          count=len(self.frames), title=self.title, size=list(self.size),
                          alt=self.alts[0] if self.alts else None,
                          description=self.description or None)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return {"text/plain": repr(self), "text/html": self.to_html(), KIT_MIME: self.bundle()}

    def __repr__(self) -> str:
        kind = "static strip" if self.static else f"{len(self.frames)} frames"
        return f"<Animation {self.title!r}: {kind}, {len(self.to_html()):,} bytes of HTML>"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write a stand-alone HTML page that plays the animation offline."""
        page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
                f"{_html.escape(self.title or 'puzzlekit animation')}</title></head>"
                f"<body>{self.to_html()}</body></html>")
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)


_PLAYER_JS = """
(function () {
  var me = document.currentScript, root = me && me.parentNode;
  if (!root || !root.classList || !root.classList.contains("pk-player")) {
    // a copy of this script runs elsewhere (VS Code re-creates output scripts at the end of
    // the output): start the first player with this id that has not started yet
    root = null;
    document.querySelectorAll('.pk-player[id="' + %(id)s + '"]').forEach(function (p) {
      if (!root && !p.getAttribute("data-ready")) root = p;
    });
  }
  if (!root || root.getAttribute("data-ready")) return;
  root.setAttribute("data-ready", "1");
  root.querySelector(".pk-controls").style.display = "flex";
  var frames = %(frames)s, base = %(interval)d, n = frames.length, i = 0, timer = null;
  var labels = %(labels)s, alts = %(alts)s, keys = %(keys)s;
  var img = root.querySelector(".pk-frame"), slider = root.querySelector(".pk-slider");
  var counter = root.querySelector(".pk-counter"), speed = root.querySelector(".pk-speed");
  var live = root.querySelector(".pk-live"), play = root.querySelector("[data-act=play]");
  // reduced motion (the reader's setting): only the frames between moves, no sliding
  var motion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var seq = [];
  function sequence() {
    var f = seq.length ? seq[i] : 0, all = [];
    for (var k = 0; k < n; k++) all.push(k);
    seq = motion && motion.matches ? keys : all;
    slider.max = seq.length - 1;
    var p = 0;
    while (p + 1 < seq.length && seq[p + 1] <= f) p++;
    return p;
  }
  function show(k, say) {
    i = Math.max(0, Math.min(seq.length - 1, k));
    var f = seq[i];
    img.src = "data:image/png;base64," + frames[f];
    img.alt = alts[f];
    slider.value = i; counter.textContent = labels ? labels[f] : (f + 1) + " / " + n;
    slider.setAttribute("aria-valuetext", counter.textContent);
    if (say) live.textContent = alts[f];
  }
  function stop() {
    if (timer) { clearInterval(timer); timer = null; live.textContent = alts[seq[i]]; }
    play.innerHTML = '<span aria-hidden="true">\\u25B6</span> play';
  }
  function start() {
    if (i >= seq.length - 1) show(0);
    play.innerHTML = '<span aria-hidden="true">\\u275A\\u275A</span> pause';
    var step = seq.length > 1 ? (n - 1) / (seq.length - 1) : 1;
    timer = setInterval(function () { show(i + 1); if (i >= seq.length - 1) stop(); },
                        base * step / parseFloat(speed.value));
  }
  var acts = {first: function () { stop(); show(0, 1); },
              prev: function () { stop(); show(i - 1, 1); },
              next: function () { stop(); show(i + 1, 1); },
              last: function () { stop(); show(seq.length - 1, 1); },
              play: function () { if (timer) stop(); else start(); }};
  root.querySelectorAll("[data-act]").forEach(function (b) {
    b.addEventListener("click", acts[b.getAttribute("data-act")]);
  });
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10), 1); });
  speed.addEventListener("change", function () { if (timer) { stop(); start(); } });
  // keys inside the player (JupyterLab leaves them to it: data-lm-suppress-shortcuts)
  root.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === speed) return;
    var act = {ArrowLeft: "prev", ArrowDown: "prev", ArrowRight: "next", ArrowUp: "next",
               Home: "first", End: "last"}[e.key];
    if (!act) return;
    e.preventDefault(); e.stopPropagation(); acts[act]();
  });
  if (motion && motion.addEventListener)
    motion.addEventListener("change", function () { stop(); show(sequence()); });
  show(sequence());
})();
"""

def as_text(name: str, description: str) -> str:
    """The animation in words under its player: a closed "… as text" disclosure."""
    if not description:
        return ""
    return tag("details", ["pk-details"], f"<summary>{_html.escape(name)} as text</summary>"
               + tag("p", ["pk-text"], _html.escape(description)))


#: (data-act, visible glyph, what the button does in words: its accessible name)
_BUTTONS = [("first", "|\u25C0", "go to the start"), ("prev", "\u25C0", "step back"),
            ("play", "\u25B6", "play"), ("next", "\u25B6", "step forward"),
            ("last", "\u25B6|", "go to the end")]


def player_html(frames: Sequence[bytes], *, interval: int = 200, title: str = "",
                size: tuple[int, int] = (0, 0), labels: Sequence[str] | None = None,
                alts: Sequence[str] | None = None, keys: Sequence[int] | None = None,
                description: str = "") -> str:
    """A player for PNG frames: first/previous/play/next/last, a slider, a speed choice,
    and a counter that says `labels[i]` at frame i (default "i / frames").

    For a screen reader and for the reader's settings: `alts[i]` says what frame i shows
    (its alt text, announced when stepping); `keys` are the frames shown when the reader
    asked for reduced motion (default: every frame); `description` is the whole animation
    in words, under the player.
    """
    if not frames:
        raise PuzzleError("an animation needs at least one frame")
    if labels is not None and len(labels) != len(frames):
        raise PuzzleError(f"{len(labels)} labels for {len(frames)} frames")
    if alts is not None and len(alts) != len(frames):
        raise PuzzleError(f"{len(alts)} alt texts for {len(frames)} frames")
    keys = sorted(set(keys)) if keys is not None else list(range(len(frames)))
    if not keys or keys[0] != 0 or keys[-1] >= len(frames):
        raise PuzzleError(f"key frames must start at 0 and stay below {len(frames)}: {keys!r:.60}")
    name = title or "animation"
    alts = list(alts) if alts is not None else [
        f"{name}, {labels[k] if labels else f'frame {k + 1} of {len(frames)}'}"
        for k in range(len(frames))]
    data = [base64.b64encode(f).decode("ascii") for f in frames]
    pid = fresh_id("pk-player")
    w, h = size
    dims = f' width="{w}" height="{h}"' if w and h else ""
    img = tag("img", ["pk-frame"], "", attrs=f' src="data:image/png;base64,{data[0]}"{dims} '
                                                f'alt="{_html.escape(alts[0])}"')
    buttons = "".join(tag("button", ["pk-button"], f'<span aria-hidden="true">{glyph}</span>'
                          + (" play" if act == "play" else ""),
                          attrs=f' type="button" data-act="{act}" title="{words}"'
                                + ("" if act == "play" else f' aria-label="{words}"'))
                      for act, glyph, words in _BUTTONS)
    slider = tag("input", ["pk-slider"], "",
                 attrs=f' type="range" min="0" max="{len(data) - 1}" value="0" '
                       f'aria-label="{"move" if labels else "frame"}"').replace("></input>", ">")
    counter = tag("span", ["pk-counter"],
                  _html.escape(labels[0]) if labels else f"1 / {len(data)}",
                  attrs=' aria-hidden="true"')
    live = tag("span", ["pk-sr", "pk-live"], "", attrs=' role="status" aria-live="polite"')
    options = "".join(f'<option value="{v}"{" selected" if v == "1" else ""}>{v}×</option>'
                      for v in ("0.25", "0.5", "1", "2", "4"))
    speed = tag("select", ["pk-speed", "pk-button"], options, attrs=' aria-label="speed"')
    # hidden until the script runs: where scripts are stripped only the first frame shows
    controls = tag("div", ["pk-controls"], buttons + slider + counter + speed, display="none")
    caption = tag("div", ["pk-caption"], _html.escape(title), margin="0 auto 2px auto") \
        if title else ""
    text = as_text(name, description)
    script = _PLAYER_JS % {"id": json.dumps(pid), "frames": json.dumps(data),
                           "interval": interval,
                           "labels": json.dumps(list(labels) if labels else None),
                           "alts": json.dumps(alts), "keys": json.dumps(keys)}
    return tag("div", ["pk-player"],
               caption + img + controls + live + text + f"<script>{script}</script>",
               attrs=f' id="{pid}" data-lm-suppress-shortcuts="true"')


# ----------------------------------------------------------------------------- drawing

def _agg_figure(width_px: float, height_px: float) -> Any:
    """A blank matplotlib Figure of that many pixels, drawn off-screen (Agg) for frames."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    matplotlib.rcParams["font.family"] = "DejaVu Sans"
    fig = Figure(figsize=(width_px / DPI, height_px / DPI), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    return fig


#: colours every frame may use besides the tiles': frame, borders, text, bars, graph
UI_COLOURS = ["#ffffff", "#000000", "#00008b", "#555555", "#222222", "#56b4e9", "#0072b2",
              "#e69f00", "#7aa7c7", "#d4d4d4", "#eeeeee", "#c8c8c8", "#cccccc"]


def palette(tile_colours: Iterable[str]) -> list[str]:
    """The fixed palette of a frame: the tiles' exact colours, the UI colours, greys, and
    (when there is room) half-tones for smooth tile edges."""
    tiles = list(dict.fromkeys(tile_colours))
    greys = [_hex((v, v, v)) for v in range(0, 256, 17)]
    base = list(dict.fromkeys(tiles + UI_COLOURS + greys))
    edges = [_mix(c, "#555555", 0.5) for c in tiles] + [_mix(c, "#ffffff", 0.5) for c in tiles]
    return (base + [c for c in dict.fromkeys(edges) if c not in base])[:256]


def _png(fig: Any, colours: Sequence[str]) -> bytes:
    """The figure as a small PNG whose palette is exactly `colours` (no dithering)."""
    import numpy as np
    from PIL import Image
    fig.canvas.draw()
    rgb = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].astype(np.int32)
    pal = np.array([_rgb(c) for c in colours], dtype=np.int32)
    packed = (rgb[:, :, 0] << 16) | (rgb[:, :, 1] << 8) | rgb[:, :, 2]
    seen, inverse = np.unique(packed.ravel(), return_inverse=True)
    seen_rgb = np.stack([seen >> 16, (seen >> 8) & 255, seen & 255], axis=1)
    nearest = ((seen_rgb[:, None, :] - pal[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
    small = Image.fromarray(nearest[inverse].reshape(packed.shape).astype(np.uint8), "P")
    small.putpalette([int(v) for v in pal.ravel()])
    buf = io.BytesIO()
    small.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


class BoardArtist:
    """Tiles of one board drawn in an axes (one unit per cell), movable tile by tile."""

    def __init__(self, ax: Any, S: State, colours: dict[int, str], *, x0: float = 0,
                 y0: float = 0, scale: float = 1, font_px: float = 20) -> None:
        from matplotlib.patches import FancyBboxPatch, Rectangle
        rows, cols = shape(S)
        self.x0, self.y0, self.scale = x0, y0, scale
        self.cols = cols
        self.frame = ax.add_patch(Rectangle((x0 - 0.06 * scale, y0 - 0.06 * scale),
                                            (cols + 0.12) * scale, (rows + 0.12) * scale,
                                            facecolor="white", edgecolor="darkblue",
                                            linewidth=max(1.0, 2.5 * scale)))
        digits = len(str(rows * cols - 1))
        size = font_px * (0.5 if digits <= 2 else 0.4) * 72 / DPI
        self.tiles: dict[int, tuple[Any, Any]] = {}
        for r, row in enumerate(S):
            for c, t in enumerate(row):
                if t == 0:
                    continue
                box = FancyBboxPatch((0, 0), 0.9 * scale, 0.9 * scale,
                                     boxstyle=f"round,pad=0,rounding_size={0.12 * scale}",
                                     facecolor=colours[t], edgecolor="#555555",
                                     linewidth=max(0.5, 1.2 * scale))
                ax.add_patch(box)
                label = ax.text(0, 0, str(t), ha="center", va="center", fontsize=size,
                                fontweight="bold", color=text_colour(colours[t]))
                self.tiles[t] = (box, label)
                self.place(t, r, c)

    def show_state(self, S: State | Flat) -> None:
        """Put every tile where state `S` (nested or flat) has it."""
        flat = S if isinstance(S[0], int) else flatten(S)  # type: ignore[arg-type]
        for p, t in enumerate(flat):
            if t:
                self.place(t, *divmod(p, self.cols))  # type: ignore[arg-type]

    def set_visible(self, visible: bool) -> None:
        self.frame.set_visible(visible)
        for box, label in self.tiles.values():
            box.set_visible(visible)
            label.set_visible(visible)

    def place(self, t: int, r: float, c: float) -> None:
        """Put tile `t` at (fractional) row `r`, column `c`."""
        box, label = self.tiles[t]
        x, y, s = self.x0 + c * self.scale, self.y0 + r * self.scale, self.scale
        box.set_x(x + 0.05 * s)
        box.set_y(y + 0.05 * s)
        label.set_position((x + 0.5 * s, y + 0.52 * s))


def _board_axes(fig: Any, rect: Sequence[float], width: float, height: float) -> Any:
    ax = fig.add_axes(rect)
    ax.set_xlim(-0.1, width + 0.1)
    ax.set_ylim(height + 0.1, -0.1)          # row 0 at the top
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def _ease(t: float) -> float:
    return 0.5 - 0.5 * math.cos(math.pi * t)


# ----------------------------------------------------------------------------- solution paths

def _path_input(path: Sequence[State] | State, moves: str | None) -> tuple[list[State], str]:
    """A path given as states, or as a start state plus a move string."""
    if moves is not None and path and isinstance(path, Sequence) and path and \
            isinstance(path[0], Sequence) and path[0] and isinstance(path[0][0], int):
        start = validate_state(path)
        letters = normalize_moves(moves)
        return moves_to_path(start, letters), letters
    states = _path_states(path)  # type: ignore[arg-type]
    letters = ""
    for i, (a, b) in enumerate(zip(states, states[1:])):
        m = move_between(a, b)
        if m is None:
            raise PuzzleError(f"path[{i}] and path[{i + 1}] are not one move apart, "
                              "so there is nothing to slide")
        letters += m
    if moves is not None and normalize_moves(moves) != letters:
        raise PuzzleError("the moves given do not match the path")
    return states, letters


def animate_path(path: Sequence[State] | State, moves: str | None = None, *,
                 goal: State | None = None, frames_per_move: int = 3, interval: int = 120,
                 cell_px: int | None = None, title: str | None = None) -> Animation:
    """Tiles sliding along a solution path, with a move counter; any board up to 12×12.

    `path` is a list of states or a `solve()` result, or a start state when `moves` is
    a move string. `frames_per_move` in-between frames per move (1 = jump),
    `interval` milliseconds per frame.
    """
    states, letters = _path_input(path, moves)
    rows, cols = shape(states[0])
    if max(rows, cols) > 12:
        raise PuzzleError(f"animations go up to 12×12 boards; this one is {rows}×{cols}")
    if not isinstance(frames_per_move, int) or not 1 <= frames_per_move <= 30:
        raise PuzzleError(f"frames_per_move must be an int from 1 to 30, got {frames_per_move!r}")
    if not isinstance(interval, int) or not 10 <= interval <= 10_000:
        raise PuzzleError(f"interval must be an int from 10 to 10000 ms, got {interval!r}")
    if len(states) > 1001:
        raise PuzzleError(f"a path of {len(states) - 1} moves is too long to animate "
                          "(at most 1000); use show_path")
    g = goal_state(rows, cols) if goal is None else validate_state(goal, name="goal")
    if shape(g) != (rows, cols):
        raise PuzzleError(f"the path is {rows}×{cols} but the goal is {shape(g)[0]}×{shape(g)[1]}")
    name = title if title is not None else f"{len(letters)}-move solution"
    if under_autograder():
        return Animation([], interval, name, static_html=path_html(states, letters, goal=g),
                         static_bundle=kit_bundle("path", states=states, moves=letters,
                                                  goal=g))
    cell = cell_px or (56 if max(rows, cols) <= 4 else max(22, 240 // max(rows, cols)))
    head = 26
    fig = _agg_figure(cols * cell + 12, rows * cell + 12 + head)
    top = head / (rows * cell + 12 + head)
    ax = _board_axes(fig, (0, 0, 1, 1 - top), cols, rows)
    board = BoardArtist(ax, states[0], tile_colours(g), font_px=cell)
    counter = fig.text(0.5, 1 - 0.5 * top, "", ha="center", va="center", fontsize=13 * 72 / DPI)
    frames, labels, alts = [], [], []
    where = {t: divmod(p, cols) for p, t in enumerate(flatten(states[0]))}
    counter.set_text(f"start · {len(letters)} moves")
    colours = palette(tile_colours(g).values())      # every tile keeps its exact colour
    frames.append(_png(fig, colours))
    labels.append(f"start · {len(letters)} moves")
    alts.append(f"{name}, start: {board_words(states[0])}")
    slid = []
    for k, (a, b) in enumerate(zip(states, states[1:]), 1):
        z_before = flatten(a).index(0)
        t = flatten(b)[z_before]                          # the tile that slides into the gap
        (r0, c0), (r1, c1) = where[t], divmod(z_before, cols)
        tile_goes = BLANK_GOES[INVERSE[letters[k - 1]]]
        slid.append(f"{t} {tile_goes}")
        counter.set_text(f"move {k} / {len(letters)}: {letters[k - 1]}")
        for f in range(1, frames_per_move + 1):
            s = _ease(f / frames_per_move)
            board.place(t, r0 + (r1 - r0) * s, c0 + (c1 - c0) * s)
            if f == frames_per_move and b == g:
                counter.set_text(f"solved in {len(letters)} moves")
            frames.append(_png(fig, colours))
            labels.append(f"move {k} of {len(letters)}")
            alts.append(f"move {k} of {len(letters)}: tile {t} slides {tile_goes}"
                        + ("" if f < frames_per_move else
                           f"{', solved' if b == g else ''}; now {board_words(b)}"))
        where[t], where[0] = (r1, c1), (r0, c0)
    keys = list(range(0, len(frames), frames_per_move))
    description = (f"{len(letters)} moves from {board_words(states[0])}. The blank goes "
                   f"{' '.join(letters)}; the tiles slide: {', '.join(slid)}. "
                   + ("The goal is reached." if states[-1] == g else
                      f"It ends at {board_words(states[-1])}."))
    return Animation(frames, interval, name, (fig.bbox.width, fig.bbox.height),
                     info={"moves": letters}, labels=labels, alts=alts, keys=keys,
                     description=description)


# ----------------------------------------------------------------------------- BFS layers

def _layers(start: Flat, rows: int, cols: int, max_depth: int | None,
            max_nodes: int) -> tuple[list[list[Flat]], bool]:
    """Breadth-first layers from `start` (flat states); True when cut short by max_nodes
    (all of them, to draw: `uninformed.bfs` looks for a goal and keeps only sizes)."""
    nbrs = grid(rows, cols).neighbors
    seen = {start}
    layers = [[start]]
    while max_depth is None or len(layers) <= max_depth:
        new = []
        for s in layers[-1]:
            for u in _neighbours(s, nbrs):
                if u not in seen:
                    seen.add(u)
                    new.append(u)
        if not new:
            break
        layers.append(new)
        if len(seen) > max_nodes:
            return layers, True
    return layers, False


def animate_bfs_layers(start_or_goal: State, *, max_depth: int | None = None,
                       samples: int = 6, interval: int = 600, seed: int = 0,
                       max_nodes: int = BFS_MAX_STATES) -> Animation:
    """Breadth-first search growing layer by layer from a state (typically the goal).

    One frame per depth: the bar chart of new states per depth grows (for the 8-puzzle
    from a corner goal: 1, 2, 4, 8, 16, 20, 39, ..., 221, 2) beside `samples` boards of
    the current layer. For boards of at most 6 cells (2×2, 2×3) the whole state graph is
    drawn instead, its layers lighting up one after another.
    """
    S = validate_state(start_or_goal)
    rows, cols = shape(S)
    if max(rows, cols) > 12:
        raise PuzzleError(f"animations go up to 12×12 boards; this one is {rows}×{cols}")
    if max_depth is not None and (not isinstance(max_depth, int) or max_depth < 1):
        raise PuzzleError(f"max_depth must be a positive int, got {max_depth!r}")
    if not isinstance(samples, int) or not 0 <= samples <= 12:
        raise PuzzleError(f"samples must be an int from 0 to 12, got {samples!r}")
    layers, cut = _layers(flatten(S), rows, cols, max_depth, max_nodes)
    sizes = [len(layer) for layer in layers]
    title = f"breadth-first layers of the {rows}×{cols} puzzle"
    info = {"layer_sizes": sizes, "cut_short": cut}
    colours = tile_colours(S)
    if under_autograder():
        sizes_, deepest = _bfs_static_data(layers, rows, cols)
        return Animation([], interval, title, static_html=layers_strip(sizes_, deepest, S),
                         info=info, static_bundle=kit_bundle("layers", sizes=sizes_,
                                                             boards=deepest, goal=S))
    origin = "the goal" if S in (goal_state(rows, cols), goal_state(rows, cols, "first")) \
        else "this board"
    if rows * cols <= 6:
        frames, size = _graph_frames(layers, rows, cols, colours, origin)
    else:
        frames, size = _layer_frames(layers, rows, cols, colours, samples, seed, cut, origin)
    depth = len(layers) - 1
    labels = [f"depth {d} of {depth}" for d in range(len(frames))] \
        if len(frames) == len(layers) else None
    totals = [sum(sizes[:d + 1]) for d in range(len(sizes))]
    alts = [f"{title}, depth {d} of {depth}: {new_states(n)}, {totals[d]:,} in all"
            + (" (stopped: state budget)" if cut and d == depth else "")
            for d, n in enumerate(sizes)]
    description = (f"Breadth-first search from {origin} of the {rows}×{cols} puzzle, "
                   f"{depth} layers. New states per depth, from depth 0: "
                   f"{', '.join(f'{n:,}' for n in sizes)}; {totals[-1]:,} states in all"
                   + (", stopped by the state budget." if cut else "."))
    return Animation(frames, interval, title, size, info=info, labels=labels,
                     alts=alts if len(frames) == len(layers) else None,
                     description=description)


def new_states(n: int) -> str:
    """'1 new state', '2,048 new states'."""
    return f"{n:,} new state" + ("" if n == 1 else "s")


def _bar_axes(ax: Any, sizes: list[int], origin: str) -> list[Any]:
    bars = ax.bar(range(len(sizes)), [0] * len(sizes), color="#56b4e9", edgecolor="#0072b2")
    ax.set_xlim(-0.7, len(sizes) - 0.3)
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
    ax.set_xlabel(f"depth (moves from {origin})", fontsize=10)
    ax.set_ylabel("new states", fontsize=10)
    ax.tick_params(labelsize=8)
    ax.spines[["top", "right"]].set_visible(False)
    return list(bars)


def _grow(ax: Any, bars: list[Any], sizes: list[int], k: int, note: Any) -> None:
    """Show the bars of depths 0..k, the newest highlighted; the y axis fits them."""
    ax.set_ylim(0, max(sizes[:k + 1]) * 1.18)
    for d, bar in enumerate(bars):
        bar.set_height(sizes[d] if d <= k else 0)
        bar.set_color("#e69f00" if d == k else "#56b4e9")
    note.set_position((k, sizes[k]))
    note.set_text(f"{sizes[k]:,}")


def _layer_frames(layers: list[list[Flat]], rows: int, cols: int, colours: dict[int, str],
                  samples: int, seed: int, cut: bool,
                  origin: str) -> tuple[list[bytes], tuple[int, int]]:
    sizes = [len(x) for x in layers]
    per_col = 2 if samples > 1 else 1
    n_cols = math.ceil(samples / per_col) if samples else 0
    cell = max(6, 60 // max(rows, cols))
    board_w, board_h = cols * cell + 10, rows * cell + 10
    side = n_cols * board_w + 16
    W, H = 430 + side, max(260, per_col * board_h + 60)
    fig = _agg_figure(W, H)
    bar_ax = fig.add_axes((60 / W, 45 / H, 340 / W, (H - 80) / H))
    bars = _bar_axes(bar_ax, sizes, origin)
    note = bar_ax.text(0, 0, "", ha="center", va="bottom", fontsize=9)
    head = fig.text(0.5, 1 - 14 / H, "", ha="center", va="center", fontsize=12)
    if samples:
        fig.text((430 + side / 2 - 8) / W, 1 - 40 / H, "some states of this layer",
                 ha="center", va="bottom", fontsize=9)
    boards = []
    for i in range(samples):
        x = 430 + (i // per_col) * board_w
        y = H - 40 - (i % per_col + 1) * board_h
        ax = _board_axes(fig, (x / W, y / H, (board_w - 4) / W, (board_h - 4) / H), cols, rows)
        boards.append(BoardArtist(ax, unflatten(layers[0][0], rows, cols), colours, font_px=cell))
    rng = random.Random(seed)
    frames = []
    total = 0
    for k, layer in enumerate(layers):
        total += len(layer)
        _grow(bar_ax, bars, sizes, k, note)
        end = " (stopped: state budget)" if cut and k == len(layers) - 1 else ""
        head.set_text(f"depth {k}: {new_states(len(layer))}, {total:,} in all{end}")
        picks = sorted(rng.sample(layer, min(samples, len(layer))))
        for i, board in enumerate(boards):
            board.set_visible(i < len(picks))
            if i < len(picks):
                board.show_state(picks[i])
        frames.append(_png(fig, palette(colours.values())))
    return frames, (W, H)


def _neighbours(f: Flat, nbrs: Any) -> list[Flat]:
    z = f.index(0)
    return [slide(f, z, q) for _, q in nbrs[z]]


def _graph_frames(layers: list[list[Flat]], rows: int, cols: int, colours: dict[int, str],
                  origin: str) -> tuple[list[bytes], tuple[int, int]]:
    """The whole state graph, nodes placed by depth, lighting up layer by layer."""
    sizes = [len(x) for x in layers]
    widest = max(sizes)
    tiny = rows * cols <= 4
    W, H = (640, 480) if tiny else (640, 470)
    fig = _agg_figure(W, H)
    gx = fig.add_axes((0.03, 0.32, 0.94, 0.6))
    gx.axis("off")
    nbrs = grid(rows, cols).neighbors
    pos: dict[Flat, tuple[float, float]] = {}
    for d, layer in enumerate(layers):
        # order each layer by where its parents sit, so that few edges cross
        def parents_at(f: Flat) -> float:
            ys = [pos[u][1] for u in _neighbours(f, nbrs) if u in pos]
            return sum(ys) / len(ys) if ys else 0.0
        for i, f in enumerate(sorted(layer, key=lambda f: (parents_at(f), f))):
            pos[f] = (d, (i + 0.5) / len(layer) * widest)
    segments = [(pos[f], pos[u]) for f in pos for u in _neighbours(f, nbrs) if f < u]
    from matplotlib.collections import LineCollection
    edges = LineCollection(segments, colors="#c8c8c8", linewidths=0.5, zorder=1,
                           antialiaseds=False)
    gx.add_collection(edges)
    edge_depth = [max(x0, x1) for (x0, _), (x1, _) in segments]
    gx.set_xlim(-0.6, len(layers) - 0.4)
    gx.set_ylim(widest + 0.3, -0.3)
    order = list(pos)
    xy = [pos[f] for f in order]
    depth = {f: d for d, layer in enumerate(layers) for f in layer}
    dots = gx.scatter([p[0] for p in xy], [p[1] for p in xy], s=60 if tiny else 12,
                      zorder=2, edgecolors="#555555", linewidths=0.4)
    boards = []
    if tiny:     # 12 states: draw each node as a small board
        for f in order:
            x, y = pos[f]
            ax = _board_axes(fig, (0, 0, 0.01, 0.01), cols, rows)
            boards.append((f, ax))
        fig.canvas.draw()
        trans = gx.transData
        for f, ax in boards:
            px, py = trans.transform(pos[f])
            w = 46
            ax.set_position(((px - w / 2) / W, (py - w / 2) / H, w / W, w / H))
            BoardArtist(ax, unflatten(f, rows, cols), colours, font_px=20)
    bar_ax = fig.add_axes((0.1, 0.07, 0.85, 0.18))
    bars = _bar_axes(bar_ax, sizes, origin)
    bar_ax.set_xlabel("depth", fontsize=9)
    note = bar_ax.text(0, 0, "", ha="center", va="bottom", fontsize=8)
    head = fig.text(0.5, 0.965, "", ha="center", va="center", fontsize=12)
    frames = []
    total = 0
    for k, layer in enumerate(layers):
        total += len(layer)
        face = ["#e69f00" if depth[f] == k else "#56b4e9" if depth[f] < k else "#eeeeee"
                for f in order]
        dots.set_facecolor(face)
        edges.set_color(["#7aa7c7" if d <= k else "#d4d4d4" for d in edge_depth])
        dots.set_sizes([(150 if tiny else 30) if depth[f] == k else (60 if tiny else 12)
                        for f in order])
        for f, ax in boards:
            ax.patches[0].set_edgecolor("#e69f00" if depth[f] == k else
                                        "#0072b2" if depth[f] < k else "#cccccc")
            ax.patches[0].set_linewidth(4 if depth[f] == k else 1.5)
        _grow(bar_ax, bars, sizes, k, note)
        head.set_text(f"{rows}×{cols}: depth {k}, {new_states(len(layer))}, {total} of "
                      f"{len(pos)} reached")
        frames.append(_png(fig, palette(colours.values())))
    return frames, (W, H)


def _bfs_static_data(layers: list[list[Flat]], rows: int,
                     cols: int) -> tuple[list[int], list[State]]:
    """The layer sizes and a few boards of the deepest layer."""
    return [len(x) for x in layers], [unflatten(f, rows, cols) for f in sorted(layers[-1])[:4]]


def layers_strip(sizes: Sequence[int], deepest: Sequence[State], S: State) -> str:
    """The cheap stand-in under autograding: the layer sizes and a few boards, no frames."""
    text_sizes = ", ".join(f"{n:,}" for n in sizes)
    strip = "".join(board_html(b, S, cell_size=24) for b in deepest)
    text = tag("div", ["pk-caption"], _html.escape(f"new states per depth: {text_sizes}"),
               max_width="none", text_align="left")
    return tag("div", ["pk-path"], text + strip)


__all__ = ["Animation", "animate_path", "animate_bfs_layers", "player_html", "HTMLView"]
