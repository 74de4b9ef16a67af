"""Coloured HTML boards: one state, a path, "expected vs got", and heuristic overlays.

Every state is drawn as an HTML table, one colour per tile and a white blank, as the
lecture notebook draws it. The look comes from `style.css`: its rules are
parsed once and their declarations inlined on every element (the class names stay too),
so a board looks the same in JupyterLab, in VS Code, on GitHub, in nbconvert HTML and in
nbgrader feedback, where `<style>` blocks are stripped or sandboxed.

    >>> html = board_html(((8, 0, 6), (5, 4, 7), (2, 3, 1)))
    >>> html.count("<td"), "#ffffff" in html
    (9, True)

`show`, `show_path` and `diff` views return small objects that Jupyter renders as HTML
and a terminal prints as text (reusing `puzzlekit.puzzle.text`). Each also carries its drawing as
plain data (`KIT_MIME`: the boards and options, not HTML), from which the grader draws the
board again (`puzzlekit.autograder.judge.sanitize`): a graded notebook trusts the data, never the HTML.
"""

from __future__ import annotations

import html as _html
import os
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from importlib import resources
from itertools import count
from typing import Any

from ..errors import PuzzleError
from ..puzzle.board import State, flatten, goal_for, resolve_goal, shape, validate_state
from ..puzzle.heuristics import conflict_pairs, hamming, linear_conflict, manhattan, tile_distances
from ..puzzle.moves import move_between, normalize_moves
from ..puzzle.text import board_str, path_str

OVERLAYS = ("misplaced", "manhattan", "linear_conflict")
ARROWS = {"U": "↑", "D": "↓", "L": "←", "R": "→"}
MAX_DISPLAY_SIDE = 12
KIT_MIME = "application/vnd.puzzlekit.board+json"   #: the kit's drawings as plain data

# ----------------------------------------------------------------------------- the stylesheet


def css_text() -> str:
    """The text of style.css, as shipped inside the package."""
    return resources.files("puzzlekit").joinpath("style.css").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def css_rules() -> dict[str, dict[str, str]]:
    """{class name: {property: value}} for the simple `.class { ... }` rules of style.css."""
    text = re.sub(r"/\*.*?\*/", "", css_text(), flags=re.S)
    rules: dict[str, dict[str, str]] = {}
    for selector, body in re.findall(r"\.([\w-]+)\s*\{([^}]*)\}", text):
        decls = rules.setdefault(selector, {})
        for decl in body.split(";"):
            if ":" in decl:
                prop, value = decl.split(":", 1)
                decls[prop.strip()] = " ".join(value.split())
    return rules


def style(*classes: str, **overrides: object) -> str:
    """The inline `style` text for an element with these classes (later ones win), plus
    overrides given as keyword arguments (`background_color="#fff"` → background-color)."""
    rules = css_rules()
    decls: dict[str, str] = {}
    for c in classes:
        decls.update(rules.get(c, {}))
    decls.update({k.replace("_", "-"): str(v) for k, v in overrides.items() if v is not None})
    return "; ".join(f"{k}: {v}" for k, v in decls.items())


def tag(name: str, classes: Sequence[str], content: str = "", **overrides: object) -> str:
    """An element with class names kept and their style.css declarations inlined."""
    attrs = overrides.pop("attrs", "")
    return (f'<{name} class="{" ".join(classes)}" style="{_html.escape(style(*classes, **overrides))}"'
            f'{attrs}>{content}</{name}>')


# ----------------------------------------------------------------------------- colours

def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(x))):02x}" for x in rgb)


def _mix(a: str, b: str, t: float) -> str:
    """Colour a moved a fraction t of the way towards colour b."""
    return _hex(x + (y - x) * t for x, y in zip(_rgb(a), _rgb(b)))


def luminance(colour: str) -> float:
    """WCAG relative luminance of a #rrggbb colour."""
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_colour(background: str) -> str:
    """Black or white, whichever reads better on `background`."""
    return max(("#000000", "#ffffff"), key=lambda fg: contrast_ratio(fg, background))


def _class_colour(name: str) -> str:
    return css_rules()[name]["background-color"]


def tile_colours(goal: State) -> dict[int, str]:
    """{tile: #rrggbb} for every tile of boards with this goal; the blank (0) is white.

    Up to 9 cells: the lecture's colour per tile number. Larger boards: one hue per goal
    row (colour-blind-safe), lighter towards the right, so solved rows read as bands.
    """
    return goal_colours(validate_state(goal, name="goal"))


def goal_colours(goal: State) -> dict[int, str]:
    """`tile_colours` of a goal already checked."""
    rows, cols = shape(goal)
    colours = {0: _class_colour("pk-blank")}
    if rows * cols <= 9:
        colours.update({t: _class_colour(f"pk-t{t}") for t in flatten(goal) if t})
        return colours
    bands = [_class_colour(f"pk-band{i}") for i in range(7)]
    for p, t in enumerate(flatten(goal)):
        if t:
            r, c = divmod(p, cols)
            hue = bands[r % len(bands)]
            if (r // len(bands)) % 2:          # second round of hues: darker shades
                hue = _mix(hue, "#000000", 0.35)
            colours[t] = _mix(hue, "#ffffff", 0.6 * c / (cols - 1))
    return colours


# ----------------------------------------------------------------------------- views

def kit_bundle(kind: str, **data: object) -> dict[str, Any]:
    """The data of a kit drawing (`KIT_MIME`), JSON-ready: what `puzzlekit.autograder.judge.sanitize.
    render_kit` draws again. Options that are None are left out."""
    def plain(x: object) -> object:
        if isinstance(x, (tuple, list)):
            return [plain(v) for v in x]
        if isinstance(x, dict):
            return {str(k): plain(v) for k, v in x.items()}
        return x
    return {"kind": kind, **{k: plain(v) for k, v in data.items() if v is not None}}


class HTMLView:
    """Rendered HTML that Jupyter displays (`_repr_html_`) and a terminal prints as text;
    `bundle` is the drawing as data (`KIT_MIME`), shown beside the HTML.

    Each of them may be given as a function of no arguments, called the first time it is
    asked for (once): a terminal that prints the text never builds the HTML."""

    def __init__(self, html: str | Callable[[], str], text: str | Callable[[], str],
                 bundle: dict[str, Any] | Callable[[], dict[str, Any] | None] | None = None
                 ) -> None:
        self._made: dict[str, Any] = {"data": html, "text": text, "bundle": bundle}

    def _part(self, key: str) -> Any:
        made = self._made[key]
        if callable(made):
            made = self._made[key] = made()
        return made

    @property
    def data(self) -> str:
        """The HTML."""
        return self._part("data")  # type: ignore[no-any-return]

    @property
    def text(self) -> str:
        """The text a terminal shows."""
        return self._part("text")  # type: ignore[no-any-return]

    @property
    def bundle(self) -> dict[str, Any] | None:
        """The drawing as data (`KIT_MIME`), if any."""
        return self._part("bundle")  # type: ignore[no-any-return]

    def _repr_html_(self) -> str:
        return self.data

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        data: dict[str, Any] = {"text/plain": self.text, "text/html": self.data}
        if self.bundle is not None:
            data[KIT_MIME] = self.bundle
        return data

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.data


def _cell_size(rows: int, cols: int, cell_size: int | None) -> int:
    if cell_size is not None:
        if not isinstance(cell_size, int) or isinstance(cell_size, bool) or not 8 <= cell_size <= 200:
            raise PuzzleError(f"cell_size must be an int from 8 to 200 (pixels), got {cell_size!r}")
        return cell_size
    side = max(rows, cols)
    return 46 if side <= 4 else max(24, 230 // side)


def _tile_colour(v: object, colours: dict[int, str]) -> str | None:
    """The colour of `v` if it is a tile (or the blank) of the board, else None."""
    if isinstance(v, int) and not isinstance(v, bool):
        return colours.get(v)
    return None


def cell_words(v: object) -> str:
    """A cell as a screen reader says it: the tile's number, "blank" for the blank."""
    return "blank" if v == 0 else ("grey" if v == "" else str(v))


def board_words(values: Sequence[Sequence[object]]) -> str:
    """A board in words, row by row: "row 1: 8, blank, 6; row 2: 5, 4, 7; ..."."""
    return "; ".join(f"row {r}: " + ", ".join(cell_words(v) for v in row)
                     for r, row in enumerate(values, 1))


def board_label(values: Sequence[Sequence[object]], what: str = "board") -> str:
    """The accessible name of a drawn board: what it is, its shape, every cell in words."""
    return f"{what}, {len(values)} by {len(values[0])}: {board_words(values)}"


def _grid_table(values: Sequence[Sequence[object]], colours: dict[int, str], size: int, *,
                marks: dict[tuple[int, int], list[str]] | None = None,
                badges: dict[tuple[int, int], str] | None = None, label: str = "",
                notes: dict[tuple[int, int], str] | None = None) -> str:
    """The table of a grid of values (not necessarily a legal state: diffs show wrong ones).

    A screen reader gets a real table (rows and cells to walk) named `label`; the blank
    cell is named "blank", and a cell with a badge or a note is named by its value and the
    note in words (`notes`), the badge itself hidden from it.
    """
    marks, badges, notes = marks or {}, badges or {}, notes or {}
    n = max(len(str(v)) for row in values for v in row)
    font = round(size * (0.5 if n <= 2 else 0.4))
    out = []
    for r, row in enumerate(values):
        cells = []
        for c, v in enumerate(row):
            bg = _tile_colour(v, colours)
            known = bg is not None
            bg = bg or "#d9d9d9"
            kind = ("pk-blank" if v == 0 else f"pk-tile pk-tile-{v}") if known else "pk-unknown"
            classes = ["pk-cell", *kind.split(), *marks.get((r, c), [])]
            badge = badges.get((r, c))
            content = ("" if v == 0 else _html.escape(str(v))) + (
                tag("span", ["pk-badge"], _html.escape(badge), attrs=' aria-hidden="true"')
                if badge else "")
            note = notes.get((r, c))
            name = (f"{cell_words(v)}, {note}" if note else
                    cell_words(v) if v == 0 or v == "" or badge else None)
            cells.append(tag("td", classes, content, background_color=bg, color=text_colour(bg),
                             width=f"{size}px", height=f"{size}px", min_width=f"{size}px",
                             font_size=f"{font}px",
                             attrs=f' aria-label="{_html.escape(name)}"' if name else ""))
        out.append("<tr>" + "".join(cells) + "</tr>")
    attrs = f' role="table" aria-label="{_html.escape(label or board_label(values))}"'
    rows, cols = len(values), len(values[0])
    return tag("table", ["pk-board", f"pk-{rows}x{cols}"], "".join(out), attrs=attrs)


def _figure(inner: str, caption: str | None) -> str:
    """An HTML figure (``.pk-figure``): `inner` with `caption` under it."""
    cap = tag("figcaption", ["pk-caption"], _html.escape(caption)) if caption else ""
    return tag("figure", ["pk-figure"], inner + cap)


def _check_side(S: State) -> None:
    rows, cols = shape(S)
    if max(rows, cols) > MAX_DISPLAY_SIDE:
        raise PuzzleError(f"boards up to {MAX_DISPLAY_SIDE}×{MAX_DISPLAY_SIDE} can be drawn; "
                          f"this one is {rows}×{cols} (use puzzlekit.board_str for text)")


def _positions(S: State) -> dict[int, tuple[int, int]]:
    return {v: (r, c) for r, row in enumerate(S) for c, v in enumerate(row)}


def _moves_from_home(d: int) -> str:
    return f"{d} move{'s' * (d != 1)} from home"


def _overlay(S: State, goal: State, overlay: str) -> tuple[dict, dict, str, dict]:
    """Marks, badges, caption and the cells' notes in words that explain a heuristic on
    the board."""
    where = _positions(S)
    dist = tile_distances(S, goal)
    if overlay == "misplaced":
        h = hamming(S, goal)
        marks = {where[t]: ["pk-misplaced"] for t, d in dist.items() if d}
        badges = {cell: "✗" for cell in marks}
        notes = {cell: "misplaced" for cell in marks}
        return marks, badges, f"misplaced tiles (Hamming) = {h}: the outlined tiles", notes
    if overlay == "manhattan":
        badges = {where[t]: str(d) for t, d in dist.items() if d}
        notes = {where[t]: _moves_from_home(d) for t, d in dist.items() if d}
        return {}, badges, (f"Manhattan distance = {manhattan(S, goal)}: each number is one "
                            "tile's row + column distance from home"), notes
    if overlay == "linear_conflict":
        pairs = conflict_pairs(S, goal)
        md, lc = manhattan(S, goal), linear_conflict(S, goal)
        marks = {where[t]: ["pk-conflict"] for pair in pairs for t in pair}
        badges = {where[t]: str(d) for t, d in dist.items() if d}
        notes = {where[t]: _moves_from_home(d) for t, d in dist.items() if d}
        for a, b in pairs:
            for t, other in ((a, b), (b, a)):
                notes[where[t]] = ", ".join(x for x in (notes.get(where[t]),
                                                        f"reversed with {other}") if x)
        shown = ", ".join(f"{a}↔{b}" for a, b in pairs) or "none"
        return marks, badges, (f"linear conflict = {lc} = Manhattan {md} + {lc - md}; "
                               f"reversed pairs in their goal line: {shown}"), notes
    raise PuzzleError(f"unknown overlay {overlay!r}; choose from {', '.join(OVERLAYS)}")


def _highlight_marks(S: State, highlight: object, cls: str = "pk-highlight") -> dict:
    if highlight is None:
        return {}
    if isinstance(highlight, (int, str)) or not isinstance(highlight, Iterable):
        raise PuzzleError("highlight must be a collection of tiles (ints) or cells "
                          f"((row, col) pairs), got {highlight!r:.60}")
    where, rows, cols = _positions(S), *shape(S)
    marks: dict[tuple[int, int], list[str]] = {}
    for h in highlight:
        if isinstance(h, int) and not isinstance(h, bool) and h in where:
            cell = where[h]
        elif (isinstance(h, tuple) and len(h) == 2 and all(isinstance(x, int) for x in h)
              and 0 <= h[0] < rows and 0 <= h[1] < cols):
            cell = h
        else:
            raise PuzzleError(f"highlight entry {h!r} is neither a tile of the board nor a "
                              f"(row, col) cell of a {rows}×{cols} board")
        marks[cell] = [cls]
    return marks


def _board_html_of(S: State, g: State, size: int, marked: dict,
                   explained: tuple[dict, dict, str, dict] | None, title: str | None) -> str:
    """`board_html` of a board and goal already checked: squares of `size` pixels, the
    highlight's marks (`_highlight_marks`) and the overlay's parts (`_overlay`), if any."""
    marks, badges, caption, notes = ({}, {}, None, {}) if explained is None else explained
    marks, notes = dict(marks), dict(notes)
    for cell, cls in marked.items():
        marks[cell] = [*marks.get(cell, []), *cls]
        notes[cell] = ", ".join(x for x in (notes.get(cell), "outlined") if x)
    text = " · ".join(x for x in (title, caption) if x) or None
    table = _grid_table(S, goal_colours(g), size, marks=marks, badges=badges, notes=notes,
                        label=board_label(S, text or "board"))
    return _figure(table, text)


def _checked_board(state: State, goal: State | None, cell_size: int | None,
                   highlight: object, overlay: str | None
                   ) -> tuple[State, State, int, dict, tuple[dict, dict, str, dict] | None]:
    """The board and its goal, each validated once (the goal: the default blank-last),
    the squares' size, the highlight's marks and the overlay's parts: what may be wrong
    is found here, before anything is drawn."""
    S = validate_state(state)
    _check_side(S)
    g = goal_for(S, None if goal is None else validate_state(goal, name="goal"))
    explained = None if overlay is None else _overlay(S, g, overlay)
    return S, g, _cell_size(*shape(S), cell_size), _highlight_marks(S, highlight), explained


def board_html(state: State, goal: State | None = None, *, cell_size: int | None = None,
               highlight: Iterable[object] | None = None, overlay: str | None = None,
               title: str | None = None) -> str:
    """One state as a coloured HTML table (styles inlined), with an optional caption.

    `highlight`: tiles or (row, col) cells to outline; `overlay`: "misplaced",
    "manhattan" or "linear_conflict" explains that heuristic on the board.
    """
    S, g, size, marked, explained = _checked_board(state, goal, cell_size, highlight, overlay)
    return _board_html_of(S, g, size, marked, explained, title)


def show(state: State, goal: State | None = None, *, cell_size: int | None = None,
         highlight: Iterable[object] | None = None, overlay: str | None = None,
         title: str | None = None) -> HTMLView:
    """The board as a displayable object (HTML in Jupyter, text in a terminal).

    In a loop, wrap it: ``display(show(S))``. It is checked at once; its HTML and its
    text are made when first shown.
    """
    kept = list(highlight) if isinstance(highlight, Iterable) \
        and not isinstance(highlight, (str, bytes)) else highlight      # a generator, once
    S, g, size, marked, explained = _checked_board(state, goal, cell_size, kept, overlay)
    notes = [title, explained and explained[2]]
    return HTMLView(
        lambda: _board_html_of(S, g, size, marked, explained, title),
        lambda: "\n".join([board_str(S), *(str(n) for n in notes if n)]),
        lambda: kit_bundle("board", state=S, goal=goal, cell_size=cell_size, highlight=kept,
                           overlay=overlay, title=title))


# ----------------------------------------------------------------------------- paths

def path_states(path: Sequence[State]) -> list[State]:
    """The validated states of a path: a list of states or a solver result (`.path`)."""
    if not isinstance(path, Sequence) and isinstance(getattr(path, "path", None), Sequence):
        path = path.path  # type: ignore[attr-defined]
    if isinstance(path, (str, bytes)) or not isinstance(path, Sequence) or not path:
        raise PuzzleError("a path must be a non-empty list of states, got "
                          f"{type(path).__name__}: {path!r:.60}")
    states = [validate_state(S, name=f"path[{i}]") for i, S in enumerate(path)]
    for i, S in enumerate(states[1:], 1):
        if shape(S) != shape(states[0]):
            raise PuzzleError(f"path[{i}] is {shape(S)[0]}×{shape(S)[1]} but path[0] is "
                              f"{shape(states[0])[0]}×{shape(states[0])[1]}")
    return states


def _letters(states: list[State], moves: str | None) -> list[str | None]:
    """The move letter between consecutive states (None where they are not one move apart)."""
    if moves is None:
        return [move_between(a, b) for a, b in zip(states, states[1:])]
    letters = normalize_moves(moves)
    if len(letters) != len(states) - 1:
        raise PuzzleError(f"{len(letters)} moves given for a path of {len(states)} states "
                          f"(need {len(states) - 1})")
    return list(letters)


BLANK_GOES = {"U": "up", "D": "down", "L": "left", "R": "right"}


def _move_html(letter: str | None) -> str:
    """The mark between two boards of a path; hidden from screen readers, since the
    board after it says the move in words (`_step_name`)."""
    if letter is None:
        return tag("div", ["pk-move", "pk-jump"], "?",
                   attrs=' title="these two states are not one move apart" aria-hidden="true"')
    return tag("div", ["pk-move"], f"{ARROWS[letter]}<br>{letter}",
               attrs=f' title="the blank moves {BLANK_GOES[letter]}" aria-hidden="true"')


def _step_name(i: int, n: int, letter: str | None, is_goal: bool) -> str:
    """What board `i` of a path of `n` moves is, in words (the start, or the move that led
    to it, where the blank went)."""
    if i == 0:
        return f"start of {n} move{'s' * (n != 1)}"
    move = (f"after move {i} of {n}, blank {BLANK_GOES[letter]} ({letter})" if letter
            else f"board {i} of {n}, not one move from the board before")
    return move + (", the goal" if is_goal else "")


def path_html(path: Sequence[State], moves: str | None = None, per_row: int | None = None, *,
              goal: State | None = None, cell_size: int | None = None) -> str:
    """The boards of a path (a list of states, or a `solve()` result) with the move letter
    (where the blank goes) between them.

    Rows wrap to the width of the page, or hold `per_row` boards each when given.
    """
    states, letters, g, size = _checked_path(path, moves, per_row, goal, cell_size)
    return _path_html_of(states, letters, per_row, g, size)


def _checked_path(path: Sequence[State], moves: str | None, per_row: int | None,
                  goal: State | None, cell_size: int | None
                  ) -> tuple[list[State], list[str | None], State, int]:
    """The states of a path, its move letters, its goal and the boards' squares' size,
    each validated once."""
    states = path_states(path)
    _check_side(states[0])
    letters = _letters(states, moves)
    if per_row is not None and (not isinstance(per_row, int) or per_row < 1):
        raise PuzzleError(f"per_row must be a positive int, got {per_row!r}")
    g = goal_for(states[0], None if goal is None else validate_state(goal, name="goal"))
    rows, cols = shape(states[0])
    size = _cell_size(rows, cols, cell_size if cell_size is not None else
                      max(16, _cell_size(rows, cols, None) * 2 // 3))
    return states, letters, g, size


def _path_html_of(states: list[State], letters: list[str | None], per_row: int | None,
                  g: State, size: int) -> str:
    """`path_html` of a path already checked, its boards' squares `size` pixels."""
    colours = goal_colours(g)
    items = []
    n = len(states) - 1
    for i, S in enumerate(states):
        step = "start" if i == 0 else (f"{i} · goal" if S == g else str(i))
        name = _step_name(i, n, letters[i - 1] if i else None, S == g)
        board = _figure(_grid_table(S, colours, size, label=board_label(S, name)), step)
        move = _move_html(letters[i - 1]) if i else ""
        items.append(tag("div", ["pk-row"], move + board))  # a letter never ends a line
    if per_row is None:
        return tag("div", ["pk-path"], "".join(items))
    chunks = [items[i:i + per_row] for i in range(0, len(items), per_row)]
    return tag("div", ["pk-path"], "".join(tag("div", ["pk-row"], "".join(ch)) for ch in chunks),
               flex_direction="column", align_items="flex-start")


def show_path(path: Sequence[State], moves: str | None = None, per_row: int | None = None, *,
              goal: State | None = None, cell_size: int | None = None) -> HTMLView:
    """The path as a displayable object (HTML in Jupyter, `path_str` text in a terminal),
    checked at once; its HTML and its text are made when first shown."""
    states, letters, g, size = _checked_path(path, moves, per_row, goal, cell_size)
    return HTMLView(
        lambda: _path_html_of(states, letters, per_row, g, size),
        lambda: path_str(states, "".join(x or "?" for x in letters)),
        lambda: kit_bundle("path", states=states, moves=moves, per_row=per_row, goal=goal,
                           cell_size=cell_size))


# ----------------------------------------------------------------------------- diffs

def _as_grid(x: object) -> list[list[object]] | None:
    """`x` as a rectangular grid of values, or None when it is not one."""
    if isinstance(x, (str, bytes)) or not isinstance(x, Sequence) or not x:
        return None
    rows = [list(r) for r in x if isinstance(r, Sequence) and not isinstance(r, (str, bytes))]
    if len(rows) != len(x) or not rows[0] or len({len(r) for r in rows}) != 1:
        return None
    if len(rows) > MAX_DISPLAY_SIDE or len(rows[0]) > MAX_DISPLAY_SIDE:
        return None
    return rows


def _problem(x: object) -> str | None:
    try:
        validate_state(x)
    except PuzzleError as e:
        return str(e)
    return None


def _drawn(v: object) -> object:
    """A cell of a student's grid as it is drawn: an int stays, anything else is its text."""
    return v if isinstance(v, int) and not isinstance(v, bool) else str(v)[:40]


def diff_data(expected: State, got: object, *, labels: tuple[str, str] = ("expected", "got"),
              cell_size: int | None = None) -> dict[str, Any]:
    """What `diff_html` draws, as plain data (`KIT_MIME`): the expected board, the grid
    the student's value is drawn as (or its text), and the notes."""
    E = validate_state(expected, name="expected")
    _check_side(E)
    G = _as_grid(got)
    data: dict[str, Any] = {"expected": E, "labels": list(labels), "cell_size": cell_size}
    if G is None:
        data["got_text"] = f"{got!r:.300}"
        data["got_kind"] = "None" if got is None else type(got).__name__
    else:
        data["got"] = [[_drawn(v) for v in row] for row in G]
        same = (len(G), len(G[0])) == shape(E)
        data["differ"] = [[r, c] for r in range(len(E)) for c in range(len(E[0]))
                          if same and G[r][c] != E[r][c]]
    data["problem"] = _problem(got)
    return kit_bundle("diff", **data)


def diff_from(E: State, G: list[list[object]] | None, *, got_text: str | None = None,
              got_kind: str | None = None, problem: str | None = None,
              differ: Iterable[Sequence[int]] | None = None,
              labels: tuple[str, str] = ("expected", "got"),
              cell_size: int | None = None) -> str:
    """The two boards of a diff drawn from its data (see `diff_data`)."""
    E = validate_state(E, name="expected")
    _check_side(E)
    colours = tile_colours(resolve_goal(E, None))
    rows, cols = shape(E)
    size = _cell_size(rows, cols, cell_size)
    same_shape = G is not None and (len(G), len(G[0])) == (rows, cols)
    if differ is None:
        cells = {(r, c) for r in range(rows) for c in range(cols)
                 if G[r][c] != E[r][c]} if G is not None and same_shape else set()
    else:
        cells = {(int(r), int(c)) for r, c in differ
                 if same_shape and 0 <= int(r) < rows and 0 <= int(c) < cols}
    marks = {cell: ["pk-diff"] for cell in sorted(cells)}
    # in words, for a screen reader: which cells differ, what was expected, what came
    ours = {cell: f"differs, got {cell_words(G[cell[0]][cell[1]])}"  # type: ignore[index]
            for cell in marks}
    theirs = {cell: f"differs, expected {cell_words(E[cell[0]][cell[1]])}" for cell in marks}
    said = "; ".join(f"row {r + 1} column {c + 1}: expected "
                     f"{cell_words(E[r][c])}, got {cell_words(G[r][c])}"  # type: ignore[index]
                     for r, c in marks)
    left = _figure(_grid_table(E, colours, size, marks=marks, notes=ours,
                               label=board_label(E, labels[0])), labels[0])
    if G is None:
        caption = (f"{labels[1]}: None, nothing (a missing return?)" if got_kind == "None"
                   else f"{labels[1]}: not a board ({got_kind})")
        right = _figure(tag("div", ["pk-error"], _html.escape(got_text or "")), caption)
    else:
        notes = [labels[1]]
        if not same_shape:
            notes.append(f"shape {len(G)}×{len(G[0])}, expected {rows}×{cols}")
        elif cells:
            notes.append(f"{len(cells)} cell{'s' * (len(cells) != 1)} differ")
        else:
            notes.append("identical")
        if problem:
            notes.append(f"not a legal state: {problem}")
        heard = " — ".join(notes).replace("×", " by ")
        label = f"{board_label(G, heard)}" + (f". Differences: {said}" if said else "")
        right = _figure(_grid_table(G, colours, size, marks=marks, notes=theirs, label=label),
                        " — ".join(notes))
    return tag("div", ["pk-diffview"], left + right)


def _diff_html_of(data: dict[str, Any]) -> str:
    return diff_from(data["expected"], data.get("got"), got_text=data.get("got_text"),
                     got_kind=data.get("got_kind"), problem=data.get("problem"),
                     differ=data.get("differ"), labels=tuple(data["labels"]),  # type: ignore
                     cell_size=data.get("cell_size"))


def diff_html(expected: State, got: object, *, labels: tuple[str, str] = ("expected", "got"),
              cell_size: int | None = None) -> str:
    """Two boards side by side with the cells that differ outlined.

    `expected` must be a legal state; `got` may be anything a student's function
    returned: a wrong-but-rectangular grid is drawn too, anything else shown as text.
    """
    return _diff_html_of(diff_data(expected, got, labels=labels, cell_size=cell_size))


def show_diff(expected: State, got: object, **kw: object) -> HTMLView:
    """`diff_html` as a displayable object (text: both boards and the differing cells)."""
    data = diff_data(expected, got, **kw)  # type: ignore[arg-type]
    right = board_str(got) if _problem(got) is None else repr(got)  # type: ignore[arg-type]
    return HTMLView(_diff_html_of(data),
                    f"expected:\n{board_str(validate_state(expected))}\ngot:\n{right}", data)


_ids = count(1)


def fresh_id(prefix: str = "pk") -> str:
    """A document-unique element id (for players that find themselves from inline JS)."""
    return f"{prefix}-{os.getpid():x}-{next(_ids)}"


# ----------------------------------------------------------------------------- patterns

def show_pattern(pattern: dict[int, int], goal: State, *, title: str | None = None,
                 cell_size: int | None = None) -> HTMLView:
    """A board as a pattern database sees it: the pattern's tiles in their colours, every
    other square grey and unnamed (the table tells the other tiles and the blank apart no
    more than that).

    `pattern` says where each pattern tile stands, {tile: square}, squares numbered row by
    row from 0; `goal` gives the board's shape and the tiles' colours.

        >>> show_pattern({1: 1, 2: 0, 3: 2}, ((1, 2, 3), (4, 5, 6), (7, 8, 0)))
        2 1 3
        · · ·
        · · ·
    """
    g = validate_state(goal, name="goal")
    _check_side(g)
    rows, cols = shape(g)
    if not isinstance(pattern, dict) or not pattern:
        raise PuzzleError("pattern must be a non-empty dict {tile: square}, got "
                          f"{type(pattern).__name__}: {pattern!r:.60}")
    tiles = set(flatten(g)) - {0}
    for tile, square in pattern.items():
        if tile not in tiles or isinstance(tile, bool):
            raise PuzzleError(f"pattern names {tile!r}, which is not a tile of the goal "
                              f"(tiles are 1 to {rows * cols - 1})")
        if (not isinstance(square, int) or isinstance(square, bool)
                or not 0 <= square < rows * cols):
            raise PuzzleError(f"pattern puts tile {tile} on square {square!r}; squares are "
                              f"numbered 0 to {rows * cols - 1}, row by row")
    if len(set(pattern.values())) != len(pattern):
        raise PuzzleError(f"pattern puts two tiles on one square: {pattern!r:.80}")
    on: dict[int, int] = {square: tile for tile, square in pattern.items()}
    grid: list[list[object]] = [[on.get(r * cols + c, "") for c in range(cols)]
                                for r in range(rows)]
    what = f"{title}: pattern" if title else "pattern"
    table = _grid_table(grid, tile_colours(g), _cell_size(rows, cols, cell_size),
                        label=board_label(grid, what) + " (grey: another tile or the blank)")
    width = len(str(rows * cols - 1))
    text = "\n".join(" ".join(f"{v if v != '' else '·':>{width}}" for v in row)
                     for row in grid)
    bundle = kit_bundle("pattern", pattern=pattern, goal=g, title=title, cell_size=cell_size)
    return HTMLView(_figure(table, title), text + (f"\n{title}" if title else ""), bundle)


# ----------------------------------------------------------------------------- charts

def show_chart(fig: Any, alt: str, *, caption: str | None = None) -> HTMLView:
    """A matplotlib figure as a PNG with its text alternative (`alt`: what the chart
    shows, its numbers in words), which a plain figure output lacks; it shrinks to a
    narrow screen. The figure is closed, so that pyplot does not show it a second time.
    """
    import base64
    import io
    if not isinstance(alt, str) or not alt.strip():
        raise PuzzleError("a chart needs its text alternative: alt='what the chart shows'")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    try:
        import matplotlib.pyplot as plt
        plt.close(fig)
    except ImportError:                                   # pragma: no cover
        pass
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    img = tag("img", ["pk-chart"], "",
              attrs=f' src="data:image/png;base64,{data}" alt="{_html.escape(alt)}"'
              ).replace("></img>", ">")
    text = alt + (f"\n{caption}" if caption else "")
    return HTMLView(_figure(img, caption), text)
