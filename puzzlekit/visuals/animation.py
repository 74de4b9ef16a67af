"""Animations that play anywhere: solution paths sliding into place, BFS layers growing.

An animation is the kit's own HTML, stepped by a few lines of inline JavaScript with
plain-text buttons (no frames, no matplotlib, nothing fetched from the network): a path
is a board whose tiles slide from move to move (CSS transitions, or jumps when the reader
asked for reduced motion); BFS layers are a bar chart of new states per depth that grows,
with some boards of each layer (small HTML tables), or for boards of at most 6 cells the
whole state graph (SVG) lighting up layer by layer. All of it is text, so it reflows and
stays readable on a narrow screen (320 px) and in every theme. It plays in JupyterLab, in
saved notebooks, in nbconvert HTML and in nbgrader feedback; where scripts do not run,
the start (a path) or the whole search (BFS layers) shows, and the buttons stay hidden.

Under nbgrader's autograder (`NBGRADER_EXECUTION` set) both functions return a cheap
static strip of HTML boards instead, so grading time is not spent on animations.

Beside its HTML an animation shows its drawing as plain data (`display.KIT_MIME`, the kind
"path" or "layers"): a graded notebook keeps only what
`puzzlekit.autograder.judge.sanitize` draws again from that data (a static strip).
"""

from __future__ import annotations

import html as _html
import os
import random
from collections.abc import Sequence
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
    path_states,
    board_html,
    board_words,
    fresh_id,
    kit_bundle,
    path_html,
    tag,
    text_colour,
    tile_colours,
)
from . import player
from .search_view import small_board

BFS_MAX_STATES = 400_000      #: a BFS animation stops growing layers beyond this many states


# ----------------------------------------------------------------------------- the player

@dataclass
class Animation:
    """An animation: what its script draws at each step, and its player; Jupyter shows it
    via `_repr_html_`.

    `static_html` replaces the player when the animation degraded to a static strip
    (under the autograder).
    """

    kind: str                                     #: "path" or "layers"
    #: what the script needs to draw each step (JSON-ready)
    data: dict[str, Any]
    #: the stage as it shows without the script (a path's start; the whole BFS)
    stage: str
    #: what the counter says at each step ("move 3 of 31")
    labels: list[str]
    #: what each step shows in words (announced when stepped, the stage's name)
    alts: list[str]
    interval: int = 400                           #: milliseconds per step at 1× speed
    title: str = ""
    info: dict[str, Any] = field(default_factory=dict)
    #: the drawing as data (`KIT_MIME`): a path or layers, as the static strip takes it
    drawing: dict[str, Any] | None = None
    #: the whole animation in words (the moves, the layer sizes), under the player
    description: str = ""
    #: the step the player starts on (a path: the start; BFS layers: the last depth)
    first: int = 0
    static_html: str | None = None
    _html: str | None = field(default=None, repr=False, compare=False)

    @property
    def static(self) -> bool:
        return self.static_html is not None

    @property
    def steps(self) -> int:
        return len(self.labels)

    def to_html(self) -> str:
        """Self-contained HTML: the stage, its data and the player's script inline."""
        if self.static_html is not None:
            return self.static_html
        if self._html is None:         # built once, so the player keeps one element id
            self._html = player_html(self)
        return self._html

    def _repr_html_(self) -> str:
        return self.to_html()

    def bundle(self) -> dict[str, Any] | None:
        """The drawing as plain data (`KIT_MIME`)."""
        return self.drawing

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        out: dict[str, Any] = {"text/plain": repr(self), "text/html": self.to_html()}
        if self.drawing is not None:
            out[KIT_MIME] = self.drawing
        return out

    def __repr__(self) -> str:
        kind = "static strip" if self.static else f"{self.steps} steps"
        return f"<Animation {self.title!r}: {kind}, {len(self.to_html()):,} bytes of HTML>"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write a stand-alone HTML page that plays the animation offline."""
        page = (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><meta "
                f"name='viewport' content='width=device-width, initial-scale=1'><title>"
                f"{_html.escape(self.title or 'puzzlekit animation')}</title></head>"
                f"<body>{self.to_html()}</body></html>")
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)


# An animation's stepper for the shared player (`player`): `draw` (one per kind, below)
# makes the stage show step k; the stage is named by what it shows, the counter says the
# step's label, and each step lasts the animation's interval at 1× speed.
_STEPPER = """function (root, D, still) {
  var stage = root.querySelector(".pk-stage"), draw = (__DRAW__)(stage, D, still);
  return {first: D.first, last: D.labels.length - 1,
          draw: function (k) {
            draw(k);
            stage.setAttribute("aria-label", D.alts[k]);
            return D.labels[k];
          },
          said: function (k) { return D.alts[k]; },
          dwell: function () { return D.interval; }};
}"""

# A path: the static board (a table) becomes a board of tiles that slide (CSS transforms),
# as the sliding board of a drawn search does (search_view.py)
_PATH_DRAW = """function (stage, D, still) {
  var s = D.s, tiles = {};
  stage.innerHTML = "";
  stage.setAttribute("role", "img");
  stage.style.cssText = "position:relative;box-sizing:content-box;width:" + D.c * s +
    "px;height:" + D.r * s + "px;border:4px double #00008b;background-color:#ffffff;margin:0 auto";
  D.b[0].forEach(function (v) {
    if (!v) return;
    var t = document.createElement("div");
    t.textContent = v;
    t.style.cssText = "position:absolute;left:0;top:0;box-sizing:border-box;width:" + s +
      "px;height:" + s + "px;line-height:" + (s - 4) + "px;text-align:center;font-weight:bold;" +
      "font-family:'DejaVu Sans',Verdana,Arial,sans-serif;font-size:" +
      Math.round(s * (v > 99 ? 0.32 : 0.45)) + "px;border:2px groove #808080;" +
      "background-color:" + D.bg[v] + ";color:" + D.fg[v];
    stage.appendChild(t); tiles[v] = t;
  });
  return function (k) {
    D.b[k].forEach(function (v, p) {
      if (!v) return;
      tiles[v].style.transition = still() ? "none" : "transform " + D.t + "ms ease-in-out";
      tiles[v].style.transform = "translate(" + (p % D.c) * s + "px," +
        Math.floor(p / D.c) * s + "px)";
    });
  };
}"""

# BFS layers: the bars of depths 0..k (the newest marked and numbered; the scale fits
# them), the headline, and the sample boards of layer k (or the graph's dots by depth)
_LAYERS_DRAW = """function (stage, D, still) {
  var bars = stage.querySelectorAll(".pk-bar"), head = stage.querySelector(".pk-bfs-head");
  var layers = stage.querySelectorAll(".pk-bfs-layer");
  var dots = stage.querySelectorAll("[data-d]");
  return function (k) {
    var top = 1;
    for (var d = 0; d <= k; d++) top = Math.max(top, D.sizes[d]);
    bars.forEach(function (b, d) {
      var v = b.firstChild;
      b.style.height = d <= k ? Math.max(1, Math.round(D.h * D.sizes[d] / top)) + "px" : "0px";
      b.style.backgroundColor = d === k ? "#e69f00" : "#56b4e9";
      b.style.borderColor = d === k ? "#000000" : "#0072b2";
      v.style.display = d === k ? "" : "none";
    });
    head.textContent = D.heads[k];
    layers.forEach(function (x, d) { x.style.display = d === k ? "flex" : "none"; });
    dots.forEach(function (x) {
      var d = parseInt(x.getAttribute("data-d"), 10), edge = x.tagName.toLowerCase() === "line";
      if (edge) { x.setAttribute("stroke", d <= k ? "#7aa7c7" : "#d4d4d4"); return; }
      x.setAttribute("fill", d === k ? "#e69f00" : d < k ? "#56b4e9" : "#eeeeee");
      x.setAttribute("r", d === k ? x.getAttribute("data-big") : x.getAttribute("data-small"));
    });
  };
}"""


def as_text(name: str, description: str) -> str:
    """The animation in words under its player: a closed "… as text" disclosure."""
    if not description:
        return ""
    return tag("details", ["pk-details"], f"<summary>{_html.escape(name)} as text</summary>"
               + tag("p", ["pk-text"], _html.escape(description)))


_DRAW = {"path": _PATH_DRAW, "layers": _LAYERS_DRAW}


def player_html(anim: Animation) -> str:
    """The player of `anim`: its stage, first/previous/play/next/last, a slider, a speed
    choice, a counter in the animation's own unit, a live region that says what each step
    shows, and the whole animation in words under it."""
    if anim.kind not in _DRAW:
        raise PuzzleError(f"an animation is a path or layers, not {anim.kind!r}")
    n = anim.steps
    if not n or len(anim.alts) != n:
        raise PuzzleError(f"an animation needs a label and words for each of its steps "
                          f"({n} labels, {len(anim.alts)} in words)")
    name = anim.title or "animation"
    pid = fresh_id("pk-player")
    # a group named by what it shows (a path's script makes it one picture, role img)
    stage = tag("div", ["pk-stage"], anim.stage,
                attrs=f' role="group" aria-label="{_html.escape(anim.alts[anim.first])}"')
    unit = "move" if anim.kind == "path" else "depth"
    controls = player.controls(n - 1, anim.first, unit, anim.labels[anim.first], speed=True)
    caption = tag("div", ["pk-caption"], _html.escape(anim.title), margin="0 auto 2px auto") \
        if anim.title else ""
    data = dict(anim.data, labels=anim.labels, alts=anim.alts, first=anim.first,
                interval=anim.interval)
    script = player.script(pid, "pk-player", data,
                           _STEPPER.replace("__DRAW__", _DRAW[anim.kind]))
    return tag("div", ["pk-player"],
               caption + stage + controls + as_text(name, anim.description) + script,
               attrs=f' id="{pid}" data-lm-suppress-shortcuts="true"')


# ----------------------------------------------------------------------------- solution paths

def path_input(path: Sequence[State] | State, moves: str | None) -> tuple[list[State], str]:
    """A path given as states, or as a start state plus a move string."""
    if moves is not None and path and isinstance(path, Sequence) and path and \
            isinstance(path[0], Sequence) and path[0] and isinstance(path[0][0], int):
        start = validate_state(path)
        letters = normalize_moves(moves)
        return moves_to_path(start, letters), letters
    states = path_states(path)  # type: ignore[arg-type]
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
                 goal: State | None = None, interval: int = 400, cell_px: int | None = None,
                 title: str | None = None) -> Animation:
    """Tiles sliding along a solution path, with a move counter; any board up to 12×12.

    `path` is a list of states or a `solve()` result, or a start state when `moves` is
    a move string. `interval`: milliseconds per move at 1× speed (the slide takes
    at most 250 ms of it); `cell_px`: pixels per square.
    """
    states, letters = path_input(path, moves)
    rows, cols = shape(states[0])
    if max(rows, cols) > 12:
        raise PuzzleError(f"animations go up to 12×12 boards; this one is {rows}×{cols}")
    if not isinstance(interval, int) or isinstance(interval, bool) or \
            not 10 <= interval <= 10_000:
        raise PuzzleError(f"interval must be an int from 10 to 10000 ms, got {interval!r}")
    if cell_px is not None and (not isinstance(cell_px, int) or isinstance(cell_px, bool)
                                or not 12 <= cell_px <= 120):
        raise PuzzleError(f"cell_px must be an int from 12 to 120 (pixels), got {cell_px!r}")
    if len(states) > 1001:
        raise PuzzleError(f"a path of {len(states) - 1} moves is too long to animate "
                          "(at most 1000); use show_path")
    g = goal_state(rows, cols) if goal is None else validate_state(goal, name="goal")
    if shape(g) != (rows, cols):
        raise PuzzleError(f"the path is {rows}×{cols} but the goal is {shape(g)[0]}×{shape(g)[1]}")
    name = title if title is not None else f"{len(letters)}-move solution"
    drawing = kit_bundle("path", states=states, moves=letters, goal=g)
    if under_autograder():
        return Animation("path", {}, "", [], [], interval, name,
                         static_html=path_html(states, letters, goal=g), drawing=drawing,
                         info={"moves": letters})
    # at most 264 px wide (a 320 px screen, the player's padding): 56 px up to 4×4
    cell = cell_px or (56 if max(rows, cols) <= 4 else max(22, 264 // max(rows, cols)))
    colours = tile_colours(g)
    n = len(letters)
    labels = [f"start · {n} moves"] + [f"move {k} of {n}" for k in range(1, n + 1)]
    alts = [f"{name}, start: {board_words(states[0])}"]
    slid = []
    for k, (a, b) in enumerate(zip(states, states[1:]), 1):
        t = flatten(b)[flatten(a).index(0)]             # the tile that slides into the gap
        tile_goes = BLANK_GOES[INVERSE[letters[k - 1]]]
        slid.append(f"{t} {tile_goes}")
        alts.append(f"move {k} of {n}: tile {t} slides {tile_goes}"
                    f"{', solved' if b == g else ''}; now {board_words(b)}")
    if states[-1] == g and n:
        labels[-1] = f"solved in {n} moves"
    description = (f"{n} moves from {board_words(states[0])}. The blank goes "
                   f"{' '.join(letters)}; the tiles slide: {', '.join(slid)}. "
                   + ("The goal is reached." if states[-1] == g else
                      f"It ends at {board_words(states[-1])}."))
    data = {"b": [list(flatten(S)) for S in states], "r": rows, "c": cols, "s": cell,
            "t": min(250, interval * 3 // 5),
            "bg": {str(t): c for t, c in colours.items()},
            "fg": {str(t): text_colour(c) for t, c in colours.items()}}
    # without the script: the start, as a board a screen reader can walk
    stage = board_html(states[0], g, cell_size=cell)
    return Animation("path", data, stage, labels, alts, interval, name,
                     info={"moves": letters}, drawing=drawing, description=description)


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

    One step per depth: the bar chart of new states per depth grows (for the 8-puzzle
    from a corner goal: 1, 2, 4, 8, 16, 20, 39, ..., 221, 2) beside `samples` boards of
    the current layer. For boards of at most 6 cells (2×2, 2×3) the whole state graph is
    drawn instead of the boards, its layers lighting up one after another.
    """
    S = validate_state(start_or_goal)
    rows, cols = shape(S)
    if max(rows, cols) > 12:
        raise PuzzleError(f"animations go up to 12×12 boards; this one is {rows}×{cols}")
    if max_depth is not None and (not isinstance(max_depth, int) or max_depth < 1):
        raise PuzzleError(f"max_depth must be a positive int, got {max_depth!r}")
    if not isinstance(samples, int) or not 0 <= samples <= 12:
        raise PuzzleError(f"samples must be an int from 0 to 12, got {samples!r}")
    if not isinstance(interval, int) or isinstance(interval, bool) or \
            not 10 <= interval <= 10_000:
        raise PuzzleError(f"interval must be an int from 10 to 10000 ms, got {interval!r}")
    layers, cut = _layers(flatten(S), rows, cols, max_depth, max_nodes)
    sizes = [len(layer) for layer in layers]
    title = f"breadth-first layers of the {rows}×{cols} puzzle"
    info = {"layer_sizes": sizes, "cut_short": cut}
    sizes_, deepest = _bfs_static_data(layers, rows, cols)
    drawing = kit_bundle("layers", sizes=sizes_, boards=deepest, goal=S)
    if under_autograder():
        return Animation("layers", {}, "", [], [], interval, title, info=info,
                         static_html=layers_strip(sizes_, deepest, S), drawing=drawing)
    origin = "the goal" if S in (goal_state(rows, cols), goal_state(rows, cols, "first")) \
        else "this board"
    depth = len(layers) - 1
    totals = [sum(sizes[:d + 1]) for d in range(len(sizes))]
    stopped = [" (stopped: state budget)" if cut and d == depth else "" for d in range(len(sizes))]
    heads = [f"depth {d}: {new_states(n)}, {totals[d]:,} in all{stopped[d]}"
             for d, n in enumerate(sizes)]
    alts = [f"{title}, depth {d} of {depth}: {new_states(n)}, {totals[d]:,} in all{stopped[d]}"
            for d, n in enumerate(sizes)]
    labels = [f"depth {d} of {depth}" for d in range(len(sizes))]
    description = (f"Breadth-first search from {origin} of the {rows}×{cols} puzzle, "
                   f"{depth} layers. New states per depth, from depth 0: "
                   f"{', '.join(f'{n:,}' for n in sizes)}; {totals[-1]:,} states in all"
                   + (", stopped by the state budget." if cut else "."))
    colours = tile_colours(S)
    if rows * cols <= 6:
        picture = _graph_svg(layers, rows, cols)
    else:
        picture = _samples_html(layers, rows, cols, colours, samples, seed)
    stage = (tag("p", ["pk-bfs-head"], _html.escape(heads[-1]), attrs=' aria-hidden="true"')
             + _bars_html(sizes, origin) + picture)
    data = {"sizes": sizes, "heads": heads, "h": BAR_PX}
    return Animation("layers", data, stage, labels, alts, interval, title, info=info,
                     drawing=drawing, description=description, first=depth)


def new_states(n: int) -> str:
    """'1 new state', '2,048 new states'."""
    return f"{n:,} new state" + ("" if n == 1 else "s")


BAR_PX = 120          #: the height of the tallest bar of the BFS chart


def _bars_html(sizes: list[int], origin: str) -> str:
    """The bar chart of new states per depth, as the last step shows it (the script scales
    it to the depths shown): one bar per depth, the newest numbered."""
    top = max(sizes)
    bars = []
    for d, n in enumerate(sizes):
        last = d == len(sizes) - 1
        number = tag("span", ["pk-bar-value"], f"{n:,}", display=None if last else "none")
        bars.append(tag("div", ["pk-bar"], number,
                        height=f"{max(1, round(BAR_PX * n / top))}px",
                        background_color="#e69f00" if last else "#56b4e9",
                        border_color="#000000" if last else "#0072b2"))
    axis = tag("div", ["pk-bars-axis"], _html.escape(
        f"depth 0 to {len(sizes) - 1} (moves from {origin}); bar height: new states"))
    return tag("div", ["pk-bars-box"],
               tag("div", ["pk-bars"], "".join(bars), height=f"{BAR_PX + 16}px") + axis,
               attrs=' aria-hidden="true"')


def _samples_html(layers: list[list[Flat]], rows: int, cols: int, colours: dict[int, str],
                  samples: int, seed: int) -> str:
    """Up to `samples` boards of each layer (the last layer's shown), as small tables."""
    if not samples:
        return ""
    rng = random.Random(seed)
    size = max(8, 72 // max(rows, cols))
    out = []
    for d, layer in enumerate(layers):
        picks = sorted(rng.sample(layer, min(samples, len(layer))))
        boards = "".join(small_board(f, rows, cols, colours,
                                     f"a board of depth {d}: {board_words(unflatten(f, rows, cols))}",
                                     size) for f in picks)
        out.append(tag("div", ["pk-bfs-layer"], boards,
                       display=None if d == len(layers) - 1 else "none"))
    return tag("div", ["pk-bfs-samples"], tag("div", ["pk-caption"], "some states of this layer")
               + "".join(out))


def _neighbours(f: Flat, nbrs: Any) -> list[Flat]:
    z = f.index(0)
    return [slide(f, z, q) for _, q in nbrs[z]]


def _graph_svg(layers: list[list[Flat]], rows: int, cols: int) -> str:
    """The whole state graph as SVG, a column per depth, each layer ordered by where its
    parents sit (so that few edges cross); dots and edges marked with their depth."""
    sizes = [len(x) for x in layers]
    widest = max(sizes)
    nbrs = grid(rows, cols).neighbors
    pos: dict[Flat, tuple[float, float]] = {}
    for d, layer in enumerate(layers):
        def parents_at(f: Flat) -> float:
            ys = [pos[u][1] for u in _neighbours(f, nbrs) if u in pos]
            return sum(ys) / len(ys) if ys else 0.0
        for i, f in enumerate(sorted(layer, key=lambda f: (parents_at(f), f))):
            pos[f] = (d, (i + 0.5) / len(layer) * widest)
    W, H = 640, 300
    x = lambda d: 16 + d * (W - 32) / max(1, len(layers) - 1)          # noqa: E731
    y = lambda v: 8 + v * (H - 16) / widest                            # noqa: E731
    depth = {f: d for d, layer in enumerate(layers) for f in layer}
    last = len(layers) - 1
    small, big = (6, 10) if widest <= 4 else (2.5, 4.5)
    edges = "".join(
        f'<line x1="{x(pos[f][0]):.1f}" y1="{y(pos[f][1]):.1f}" x2="{x(pos[u][0]):.1f}" '
        f'y2="{y(pos[u][1]):.1f}" stroke="#7aa7c7" stroke-width="0.6" '
        f'data-d="{max(depth[f], depth[u])}"/>'
        for f in pos for u in _neighbours(f, nbrs) if f < u and u in pos)
    dots = "".join(
        f'<circle cx="{x(pos[f][0]):.1f}" cy="{y(pos[f][1]):.1f}" '
        f'r="{big if depth[f] == last else small}" data-small="{small}" data-big="{big}" '
        f'fill="{"#e69f00" if depth[f] == last else "#56b4e9"}" stroke="#555555" '
        f'stroke-width="0.5" data-d="{depth[f]}"/>' for f in pos)
    return (f'<svg class="pk-graph" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
            f'style="max-width: 100%; height: auto; display: block" aria-hidden="true" '
            f'focusable="false">{edges}{dots}</svg>')


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
