"""What a search did, drawn from its own record: the boards it expanded, row by depth.

A `Trace` is the plain record of one run of a search: its start and goal, the boards it
asked its successor function about (its *expansions*), in order, each with the boards
that function gave back, and the path the search returned. `search_html` draws it:

- one row per depth (moves from the start along the search's own tree: one more than
  the shallowest board expanded before that gave this board back), each expanded board
  numbered by when it was expanded, so a breadth-first search fills its rows one after
  the other, growing, and a depth-first search dives down the rows;
- a board expanded again marked ↻ with the number of its first expansion, and dashed;
  the boards on the returned path marked ★; the goal, when the search returned it
  without expanding it, at the end of its row;
- at the end of each row, how many boards of that depth were seen (given back by the
  successor function) but not expanded: the frontier, as far as calls can show it;
- under the rows, the path it returned, as a strip of boards with the blank's moves.

Boards are small HTML tables with inline styles (style.css, inlined as display.py does),
each named for a screen reader with its number, depth, marks and every cell in words.
A few lines of inline JavaScript step through the drawing (start, back, play, forward,
end, a slider, the arrow keys): the boards not yet expanded are hidden, the frontier
counts follow, each step is announced, and at the end a board of the path slides its
tiles from the start to the goal (at once when the reader asked for reduced motion).
Where scripts do not run (nbgrader's feedback, a sanitising viewer) every step shows
at once, numbered. No frames, no matplotlib: a drawing takes milliseconds.

The drawing carries its trace as plain data (`KIT_MIME`, kind "search"), from which
the grader draws it again, without the script (`puzzlekit.autograder.judge.sanitize`).
"""

from __future__ import annotations

import html as _html
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import PuzzleError
from ..puzzle.board import Flat, State, flatten, shape, unflatten, validate_state
from ..puzzle.moves import move_between
from . import player
from .display import (
    ARROWS,
    BLANK_GOES,
    HTMLView,
    board_words,
    fresh_id,
    kit_bundle,
    style,
    text_colour,
    tile_colours,
)

#: expansions drawn at most; the rest are counted in words
MAX_DRAWN = 200
#: the boards of a returned path drawn at most (the first and the last half of them)
MAX_PATH_DRAWN = 24
#: the longest returned path a trace keeps (longer ones are told, not drawn)
MAX_PATH = 1000
CELL = 13            #: pixels per square of a small board
SLIDE_CELL = 34      #: pixels per square of the sliding board
SIDE_MAX = 5         #: boards up to 5×5 are drawn (bigger searches are no picture)
TEXT_LINES = 12      #: expansions listed in the text version


@dataclass
class Trace:
    """One run of a search, as plain data: what `search_html` draws."""

    start: State
    goal: State
    #: the expansions drawn, in order: (the board, the boards its successors gave back)
    expansions: list[tuple[State, list[State]]] = field(default_factory=list)
    total: int = 0             #: every expansion seen (drawn or not)
    distinct: int = 0          #: different boards among them
    path: list[State] | None = None
    who: str = "the search"    #: "your bfs", "puzzlekit's reference DFS"
    notes: list[str] = field(default_factory=list)   #: sentences: stopped, not written, ...

    def __post_init__(self) -> None:
        self.start = validate_state(self.start, name="start")
        self.goal = validate_state(self.goal, name="goal")
        rows, cols = shape(self.start)
        if shape(self.goal) != (rows, cols):
            raise PuzzleError(f"the goal is {shape(self.goal)[0]}×{shape(self.goal)[1]} but "
                              f"the start is {rows}×{cols}")
        if max(rows, cols) > SIDE_MAX:
            raise PuzzleError(f"searches on boards up to {SIDE_MAX}×{SIDE_MAX} can be drawn; "
                              f"this one is {rows}×{cols}")
        for i, (board, children) in enumerate(self.expansions):
            for S in [board, *children]:
                if shape(validate_state(S, name=f"expansion {i + 1}")) != (rows, cols):
                    raise PuzzleError(f"expansion {i + 1} has a board of another shape")
        if self.path is not None:
            for i, S in enumerate(self.path):
                if shape(validate_state(S, name=f"path[{i}]")) != (rows, cols):
                    raise PuzzleError(f"path[{i}] is not {rows}×{cols}")
        self.expansions = self.expansions[:MAX_DRAWN]
        self.total = max(self.total, len(self.expansions))


# ----------------------------------------------------------------------------- the layout

@dataclass
class Node:
    """One board in the drawing: an expansion (`step` from 1), or the goal found."""

    step: int
    board: Flat
    depth: int | None          #: None: no earlier expansion gave this board back
    again: int | None = None   #: the step that first expanded this board
    on_path: bool = False
    found: bool = False        #: the goal, returned but never expanded


@dataclass
class Layout:
    """Where each board goes: the nodes by row, and what the frontier counts need."""

    nodes: list[Node]
    rows: list[int | None]               #: the depth of each row, top to bottom
    #: every board seen: (row, the step that first gave it back, the step that first
    #: expanded it, 0 for never)
    seen: list[tuple[int, int, int]]


def lay_out(trace: Trace) -> Layout:
    """The nodes of `trace`, their depths and marks, and the boards seen per row."""
    start = flatten(trace.start)
    depth: dict[Flat, int] = {start: 0}          # the shallowest depth known
    born: dict[Flat, int] = {start: 0}           # the step that first gave it back
    first: dict[Flat, int] = {}                  # the step that first expanded it
    nodes: list[Node] = []
    for step, (S, children) in enumerate(trace.expansions, 1):
        f = flatten(S)
        d = 0 if f == start else depth.get(f)
        nodes.append(Node(step, f, d, again=first.get(f)))
        first.setdefault(f, step)
        for T in children:
            t = flatten(T)
            born.setdefault(t, step)
            if d is not None and (t not in depth or d + 1 < depth[t]):
                depth[t] = d + 1
    path = [flatten(S) for S in trace.path] if trace.path else []
    last_of = {n.board: n for n in nodes}        # each board's last expansion
    for f in set(path):
        if f in last_of:
            last_of[f].on_path = True
    if path and path[-1] not in first:
        goal = path[-1]
        nodes.append(Node(0, goal, depth.get(goal, len(path) - 1), on_path=True, found=True))
    depths = sorted({n.depth for n in nodes if n.depth is not None})
    rows: list[int | None] = list(depths)
    if any(n.depth is None for n in nodes):
        rows.append(None)
    row_of = {d: i for i, d in enumerate(rows)}
    seen = [(row_of[depth[f]], b, first.get(f, 0)) for f, b in born.items()
            if f in depth and depth[f] in row_of and b > 0]
    return Layout(nodes, rows, seen)


# ----------------------------------------------------------------------------- the pieces

@lru_cache(maxsize=64)
def _style(*classes: str) -> str:
    return _html.escape(style(*classes))


def _el(name: str, classes: Sequence[str], content: str = "", attrs: str = "") -> str:
    """An element with its classes and their style.css declarations inlined (cached)."""
    return (f'<{name} class="{" ".join(classes)}" style="{_style(*classes)}"{attrs}>'
            f"{content}</{name}>")


def _td(v: int, colours: dict[int, str]) -> str:
    bg = colours[v]
    fg = text_colour(bg)
    ink = "" if fg == "#000000" else f";color:{fg}"
    return f'<td style="background-color:{bg}{ink}">{v or ""}</td>'


def small_board(f: Flat, rows: int, cols: int, colours: dict[int, str], label: str,
                size: int = CELL) -> str:
    """A board as a small table named `label` (one image to a screen reader)."""
    body = "".join(f'<tr style="height:{size}px">'
                   + "".join(_td(v, colours) for v in f[r * cols:(r + 1) * cols]) + "</tr>"
                   for r in range(rows))
    cols_html = f'<colgroup><col span="{cols}" style="width:{size}px"></colgroup>'
    table = _el("table", ["pk-sv-board"], cols_html + body,
                f' role="img" aria-label="{_html.escape(label)}"')
    if size == CELL:
        return table
    # bigger squares, bigger numbers (the later declaration wins)
    return table.replace(f'style="{_style("pk-sv-board")}"',
                         f'style="{_style("pk-sv-board")}; font-size: {size // 2}px"', 1)


def _words(f: Flat, rows: int, cols: int) -> str:
    return board_words(unflatten(f, rows, cols))


def node_label(n: Node, rows: int, cols: int) -> str:
    """What a screen reader says of a node: its number, depth, marks and cells."""
    what = "the goal, found (not expanded)" if n.found else f"expansion {n.step}"
    if n.again is not None:
        what += f", again (first expanded as {n.again})"
    if n.on_path and not n.found:
        what += ", on the returned path"
    where = "depth unknown" if n.depth is None else f"depth {n.depth}"
    return f"{what}, {where}: {_words(n.board, rows, cols)}"


def _node_html(n: Node, rows: int, cols: int, colours: dict[int, str]) -> str:
    marks = ("★" if n.on_path else "") + ("↻" if n.again is not None else "")
    number = "goal" if n.found else str(n.step)
    again = f"={n.again}" if n.again is not None else ""
    head = _el("span", ["pk-sv-num"], _html.escape(f"{marks}{number}{again}"),
               ' aria-hidden="true"')
    classes = ["pk-sv-node"] + (["pk-sv-again"] if n.again is not None else []) \
        + (["pk-sv-onpath"] if n.on_path else [])
    board = small_board(n.board, rows, cols, colours, node_label(n, rows, cols))
    return _el("div", classes, head + board)


def _frontier_words(count: int) -> str:
    return f"+{count:,} seen" if count else ""


def layer_sizes(layout: Layout) -> list[tuple[int | None, int]]:
    """(depth, expansions drawn at that depth) for each row."""
    return [(d, sum(1 for n in layout.nodes if n.depth == d and not n.found))
            for d in layout.rows]


def _path_strip(path: list[Flat], rows: int, cols: int, colours: dict[int, str]) -> str:
    """The returned path as a strip of boards with the blank's moves between them;
    a long one as its first and last boards around a count of the moves left out."""
    n = len(path) - 1
    keep = list(range(len(path)))
    if len(path) > MAX_PATH_DRAWN:
        half = MAX_PATH_DRAWN // 2
        keep = keep[:half] + keep[-half:]
    items = []
    for i, j in enumerate(keep):
        if i and keep[i - 1] != j - 1:
            left = j - keep[i - 1] - 1
            items.append(_el("span", ["pk-sv-move"], f"… {left:,} more boards …"))
        if j:
            letter = move_between(unflatten(path[j - 1], rows, cols), unflatten(path[j], rows, cols))
            mark = f"{ARROWS[letter]}{letter}" if letter else "?"
            items.append(_el("span", ["pk-sv-move"], mark, ' aria-hidden="true"'))
        what = "start" if j == 0 else f"after move {j} of {n}"
        if j and j == n:
            what += ", the end"
        items.append(small_board(path[j], rows, cols, colours,
                                 f"path, {what}: {_words(path[j], rows, cols)}"))
    return _el("div", ["pk-sv-strip"], "".join(items))


def _moves_text(path: list[Flat], rows: int, cols: int) -> str:
    letters = [move_between(unflatten(a, rows, cols), unflatten(b, rows, cols))
               for a, b in zip(path, path[1:])]
    return "".join(x or "?" for x in letters)


# ----------------------------------------------------------------------------- in words

def summary(trace: Trace, layout: Layout) -> str:
    """The drawing in one paragraph: expansions, repeats, depths, frontier, path."""
    drawn = [n for n in layout.nodes if not n.found]
    again = sum(1 for n in drawn if n.again is not None)
    deepest = max((n.depth for n in drawn if n.depth is not None), default=0)
    parts = [f"{trace.who.capitalize()} expanded {trace.total:,} board"
             f"{'s' * (trace.total != 1)}"]
    if trace.total:
        repeats = trace.total - trace.distinct if trace.distinct else again
        parts.append(f"{repeats:,} of them again (↻)" if repeats else "each once")
        parts.append(f"down to depth {deepest}")
    text = ", ".join(parts) + "."
    if trace.total > len(drawn):
        text += f" The first {len(drawn):,} are drawn."
    sizes = [k for d, k in layer_sizes(layout) if d is not None and k]
    what = "drawn" if trace.total > len(drawn) else "expanded"
    if sizes and len(sizes) <= 16:
        text += f" Boards {what} per depth: " + ", ".join(map(str, sizes)) + "."
    elif sizes:
        text += f" At most {max(sizes)} board{'s' * (max(sizes) != 1)} {what} at any depth."
    return text


def path_words(trace: Trace) -> str:
    if trace.path is None:
        return "It returned no path."
    n = len(trace.path) - 1
    return f"It returned a path of {n:,} move{'s' * (n != 1)} (★)."


KEY = ("n: the n-th board expanded · ↻ dashed: expanded again (=n: first as n) · "
       "★ outlined: on the path it returned · +k seen: boards of that depth seen, not "
       "(yet) expanded")


# ----------------------------------------------------------------------------- the drawing

# The drawing's stepper for the shared player (`player`): steps 1..n are the expansions
# (the boards not yet expanded hidden, the current one outlined, the frontier counts
# following), then the moves of the returned path on the sliding board
_STEPPER = """function (root, D, still) {
  var nodes = root.querySelectorAll(".pk-sv-node"), chips = root.querySelectorAll(".pk-sv-front");
  var box = root.querySelector(".pk-sv-layers");
  var n = D.steps.length, P = D.path, L = P ? P.b.length - 1 : 0, front = 0;
  function words(b) {
    var out = [];
    for (var r = 0; r < P.r; r++) {
      var row = [];
      for (var c = 0; c < P.c; c++) { var v = b[r * P.c + c]; row.push(v ? String(v) : "blank"); }
      out.push("row " + (r + 1) + ": " + row.join(", "));
    }
    return out.join("; ");
  }
  var slide = P ? root.querySelector(".pk-sv-slide") : null, tiles = {};
  if (slide) {
    var s = P.s;
    slide.style.cssText = "position:relative;width:" + P.c * s + "px;height:" + P.r * s +
      "px;border:4px double #00008b;background-color:#ffffff;margin:2px 0 4px 0";
    slide.setAttribute("role", "img");
    P.b[0].forEach(function (v) {
      if (!v) return;
      var t = document.createElement("div");
      t.textContent = v;
      t.style.cssText = "position:absolute;left:0;top:0;box-sizing:border-box;width:" + s +
        "px;height:" + s + "px;line-height:" + (s - 4) + "px;text-align:center;" +
        "font-weight:bold;font-size:" + Math.round(s * 0.45) + "px;border:2px groove #808080;" +
        "background-color:" + P.bg[v] + ";color:" + P.fg[v];
      slide.appendChild(t); tiles[v] = t;
    });
  }
  function place(j) {
    var b = P.b[j], calm = still();
    b.forEach(function (v, i) {
      if (!v) return;
      tiles[v].style.transition = calm ? "none" : "transform 0.25s ease-in-out";
      tiles[v].style.transform = "translate(" + (i % P.c) * P.s + "px," +
        Math.floor(i / P.c) * P.s + "px)";
    });
    slide.setAttribute("aria-label", "the returned path, " +
      (j ? "after move " + j + " of " + L : "its start") + ": " + words(b));
  }
  function seen(e) {
    var c = [], total = 0;
    for (var d = 0; d < chips.length; d++) c.push(0);
    D.seen.forEach(function (x) { if (x[1] <= e && (x[2] === 0 || x[2] > e)) { c[x[0]]++; total++; } });
    for (d = 0; d < chips.length; d++)
      chips[d].textContent = c[d] ? "+" + c[d] + " seen" : "";
    return total;
  }
  function draw(k, follow) {
    var e = Math.min(k, n), cur = null;
    for (var st = 1; st <= n; st++) {
      var node = nodes[D.steps[st - 1]], num = node.firstChild;
      node.style.visibility = st <= e ? "" : "hidden";
      var now = st === e && k <= n;
      node.style.outline = now ? "3px solid #000000" : "";
      num.style.backgroundColor = now ? "#000000" : "";
      num.style.color = now ? "#ffffff" : "";
      if (now) cur = node;
    }
    if (D.found >= 0) nodes[D.found].style.visibility = k >= n ? "" : "hidden";
    front = seen(e);
    if (slide) place(Math.max(0, k - n));
    if (follow && cur && box.scrollHeight > box.clientHeight) {
      var top = cur.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight)
        box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
    return k > n ? "path: move " + (k - n) + " of " + L :
      e === 0 ? "start: nothing expanded" : "expansion " + e + " of " + n;
  }
  function said(k) {
    var e = Math.min(k, n);
    if (k > n) return "path, move " + (k - n) + " of " + L + ", blank " + D.goes[k - n - 1] +
      ": " + words(P.b[k - n]);
    if (e === 0) return "before the first expansion";
    var t = nodes[D.steps[e - 1]].querySelector("table").getAttribute("aria-label");
    return t + ". " + front + " seen, not expanded";
  }
  return {first: n + L, last: n + L, draw: draw, said: said,
          dwell: function (k) { return k >= n ? D.slow : D.fast; }};
}"""


def search_html(trace: Trace, *, interactive: bool = True) -> str:
    """The drawing of `trace`: rows of numbered boards by depth, the frontier counts,
    the returned path; with `interactive`, the controls and the script that step it."""
    rows, cols = shape(trace.start)
    colours = tile_colours(trace.goal)
    layout = lay_out(trace)
    counts: list[int] = [0] * len(layout.rows)
    for r, _, exp in layout.seen:
        if exp == 0:
            counts[r] += 1
    row_of = {d: i for i, d in enumerate(layout.rows)}
    order: list[int] = []             # DOM index of each node, row by row
    rows_html = []
    dom = 0
    where: dict[int, int] = {}
    for i, d in enumerate(layout.rows):
        members = [n for n in layout.nodes if row_of[n.depth] == i]
        label = "depth ?" if d is None else f"depth {d}"
        head = _el("span", ["pk-sv-depth"], label + "<br>"
                   + _el("span", ["pk-sv-front"], _frontier_words(counts[i])))
        boards = ""
        for n in members:
            boards += _node_html(n, rows, cols, colours)
            where[id(n)] = dom
            dom += 1
        # the row's label beside its boards, which wrap under the first board
        rows_html.append(_el("div", ["pk-sv-row"], head + _el("div", ["pk-sv-boards"], boards)))
    for n in layout.nodes:
        if not n.found:
            order.append(where[id(n)])
    found = next((where[id(n)] for n in layout.nodes if n.found), -1)
    title = _el("p", ["pk-sv-title"], _html.escape(f"{summary(trace, layout)} "
                                                      f"{path_words(trace)}"))
    notes = "".join(_el("p", ["pk-sv-note"], _html.escape(x)) for x in trace.notes)
    key = _el("p", ["pk-sv-key"], _html.escape(KEY))
    # with the script the rows scroll in a box (focusable, so that keys scroll it too);
    # without it (the feedback) every row shows at full length
    layers = _el("div", ["pk-sv-layers"] + ["pk-sv-scroll"] * interactive, "".join(rows_html),
                 ' role="group" aria-label="the boards expanded, one row per depth"'
                 + ' tabindex="0"' * interactive)
    path = [flatten(S) for S in trace.path] if trace.path else []
    path_part = ""
    if path:
        n_moves = len(path) - 1
        head = _el("p", ["pk-sv-note"], _html.escape(
            f"The path it returned, {n_moves:,} move{'s' * (n_moves != 1)}: "
            f"{_moves_text(path, rows, cols) or '(none: the start is the goal)'}"))
        slide = '<div class="pk-sv-slide"></div>' if interactive else ""
        path_part = _el("div", ["pk-sv-path"], head + slide + _path_strip(path, rows, cols,
                                                                          colours))
    body = title + notes + key + layers
    if not interactive:
        return _el("div", ["pk-search"], body + path_part,
                   ' role="group" aria-label="what the search did"')
    pid = fresh_id("pk-search")
    steps = len(order) + max(0, len(path) - 1)
    goes = [BLANK_GOES.get(move_between(unflatten(a, rows, cols), unflatten(b, rows, cols))
                           or "", "jumps") for a, b in zip(path, path[1:])]
    data = {"steps": order, "found": found, "seen": layout.seen,
            "fast": max(60, min(400, 12000 // max(1, len(order)))), "slow": 450,
            "goes": goes,
            "path": {"b": [list(f) for f in path], "r": rows, "c": cols, "s": SLIDE_CELL,
                     "bg": {str(t): c for t, c in colours.items()},
                     "fg": {str(t): text_colour(c) for t, c in colours.items()}}
            if path else None}
    return _el("div", ["pk-search"], body + player.controls(steps, steps, "step") + path_part
               + player.script(pid, "pk-search", data, _STEPPER),
               f' id="{pid}" role="group" aria-label="what the search did" '
               f'data-lm-suppress-shortcuts="true"')


# ----------------------------------------------------------------------------- as data

def trace_data(trace: Trace) -> dict[str, Any]:
    """The trace as plain data (`KIT_MIME`, kind "search"): a table of boards (flat)
    and indexes into it."""
    table: dict[Flat, int] = {}

    def at(S: State) -> int:
        return table.setdefault(flatten(S), len(table))
    expanded = [[at(S), [at(T) for T in children]] for S, children in trace.expansions]
    path = [at(S) for S in trace.path] if trace.path is not None else None
    return kit_bundle("search", start=trace.start, goal=trace.goal,
                      boards=[list(f) for f in table], expanded=expanded, total=trace.total,
                      distinct=trace.distinct, path=path, who=trace.who, notes=trace.notes)


def _count(x: object, name: str) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= 10**12:
        raise PuzzleError(f"{name} must be a count")
    return x


def _words_field(x: object, name: str, most: int) -> str:
    if not isinstance(x, str) or len(x) > most:
        raise PuzzleError(f"{name} must be a string of at most {most} characters")
    return x


def trace_from_data(data: dict[str, Any]) -> Trace:
    """A trace re-built from `trace_data`'s plain data, every part checked (a
    `PuzzleError` naming the first that is wrong)."""
    def state(x: object, name: str) -> State:
        if not isinstance(x, list) or not all(isinstance(r, list) for r in x):
            raise PuzzleError(f"{name} must be a list of rows")
        return validate_state(tuple(tuple(r) for r in x), name=name)
    start, goal = state(data.get("start"), "start"), state(data.get("goal"), "goal")
    rows, cols = shape(start)
    raw = data.get("boards")
    if not isinstance(raw, list) or len(raw) > 5 * MAX_DRAWN + MAX_PATH + 2:
        raise PuzzleError("boards must be a list")
    boards = []
    for i, f in enumerate(raw):
        if not isinstance(f, list) or len(f) != rows * cols:
            raise PuzzleError(f"boards[{i}] must be a flat list of {rows * cols}")
        boards.append(validate_state(unflatten(f, rows, cols), name=f"boards[{i}]"))

    def board(i: object) -> State:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(boards):
            raise PuzzleError("a board index is out of range")
        return boards[i]
    expanded = data.get("expanded")
    if not isinstance(expanded, list) or len(expanded) > MAX_DRAWN:
        raise PuzzleError(f"expanded must be a list of at most {MAX_DRAWN}")
    expansions = []
    for e in expanded:
        if not (isinstance(e, list) and len(e) == 2 and isinstance(e[1], list)
                and len(e[1]) <= 8):
            raise PuzzleError("an expansion is [board, [children]]")
        expansions.append((board(e[0]), [board(c) for c in e[1]]))
    path = data.get("path")
    if path is not None and (not isinstance(path, list) or not 1 <= len(path) <= MAX_PATH):
        raise PuzzleError(f"path must be a list of 1 to {MAX_PATH} boards")
    notes = data.get("notes", [])
    if not isinstance(notes, list) or len(notes) > 8:
        raise PuzzleError("notes must be a list of sentences")
    return Trace(start, goal, expansions, _count(data.get("total", 0), "total"),
                 _count(data.get("distinct", 0), "distinct"),
                 None if path is None else [board(i) for i in path],
                 _words_field(data.get("who", "the search"), "who", 100),
                 [_words_field(x, "a note", 600) for x in notes])


def trace_text(trace: Trace) -> str:
    """The drawing as text (a terminal's view): the summary, the notes and the order."""
    layout = lay_out(trace)
    rows, cols = shape(trace.start)
    lines = [f"{summary(trace, layout)} {path_words(trace)}", *trace.notes]
    for n in layout.nodes[:TEXT_LINES]:
        mark = ("goal" if n.found else f"{n.step:>3}") + ("↻" if n.again is not None else " ")
        where = "?" if n.depth is None else str(n.depth)
        lines.append(f"{mark} depth {where:>3}: " + " ".join(str(v) for v in n.board))
    if len(layout.nodes) > TEXT_LINES:
        lines.append(f"... {len(layout.nodes) - TEXT_LINES:,} more")
    return "\n".join(lines)


class SearchView(HTMLView):
    """A search's drawing: HTML in Jupyter, text in a terminal, its trace as data."""

    def __init__(self, trace: Trace, *, interactive: bool = True) -> None:
        self.trace = trace
        super().__init__(search_html(trace, interactive=interactive), trace_text(trace),
                         trace_data(trace))

    def order(self) -> list[State]:
        """The boards in the order the search expanded them (as drawn)."""
        return [S for S, _ in self.trace.expansions]


__all__ = ["Trace", "Node", "Layout", "lay_out", "search_html", "trace_data",
           "trace_from_data", "trace_text", "SearchView", "small_board", "MAX_DRAWN"]
