"""Converters between states and every format the course material uses.

- flat list with 0 for the blank, row-major (seeds 000 and 001): ``[1, 0, 3, 4, 2, 5, 7, 8, 6]``
- flat list with ``' '`` for the blank (the 15-puzzle notebook): ``[1, 2, ..., 15, ' ']``
- a string like ``'1238_4765'`` with ``_`` for the blank (the lecture slides)
- Princeton file text: first line N, then N rows of N numbers (0 = blank)
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

from ..errors import PuzzleError
from .board import State, flatten, shape, unflatten, validate_state


def _is_blank_token(x: object) -> bool:
    return x is None or (isinstance(x, str) and x.strip() in ("", "_", "."))


def _infer_shape(n: int, rows: int | None, cols: int | None, what: str) -> tuple[int, int]:
    for v, name in ((rows, "rows"), (cols, "cols")):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 2):
            raise PuzzleError(f"{what}: {name} must be an int of at least 2, got {v!r}")
    if rows is None and cols is None:
        side = math.isqrt(n)
        if side * side != n:
            raise PuzzleError(f"{what} has {n} items, not a square number; pass rows= and cols=")
        return side, side
    if rows is None:
        rows = n // cols if cols else 0
    if cols is None:
        cols = n // rows if rows else 0
    if rows * cols != n:
        raise PuzzleError(f"{what} has {n} items, which does not fit {rows}×{cols}")
    return rows, cols


def from_flat(items: Sequence[object], rows: int | None = None, cols: int | None = None) -> State:
    """A state from a row-major flat list; the blank may be 0, ``' '``, ``''`` or ``'_'``.

    >>> from_flat([1, 2, 3, 4, 5, 6, 7, 8, ' '])
    ((1, 2, 3), (4, 5, 6), (7, 8, 0))
    """
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise PuzzleError(f"a flat board must be a list, got {type(items).__name__}")
    vals: list[object] = []
    for x in items:
        if _is_blank_token(x):
            vals.append(0)
        elif isinstance(x, str) and x.strip().isdecimal():
            vals.append(int(x))
        else:
            vals.append(x)
    r, c = _infer_shape(len(vals), rows, cols, "the flat board")
    return validate_state(unflatten(vals, r, c))  # type: ignore[arg-type]


def to_flat(S: State, blank: object = 0) -> list:
    """Row-major flat list of `S`, with `blank` in place of 0 (``' '`` as in the 15-puzzle
    notebook)."""
    return [blank if x == 0 else x for x in flatten(validate_state(S))]


def from_string(text: str, rows: int | None = None, cols: int | None = None) -> State:
    """A state from ``'1238_4765'`` (one character a tile) or ``'1 2 3 / 4 5 6 / 7 8 _'``.

    ``_``, ``.`` and ``0`` mark the blank. Tokens separated by spaces, commas or slashes
    allow tiles above 9.
    """
    if not isinstance(text, str):
        raise PuzzleError(f"from_string needs a str, got {type(text).__name__}")
    cleaned = text.replace(",", " ").replace("/", " ").replace("\n", " ").strip()
    tokens = cleaned.split() if " " in cleaned else list(cleaned)
    vals: list[object] = []
    for tok in tokens:
        if tok in ("_", ".", "0"):
            vals.append(0)
        elif tok.isdecimal():
            vals.append(int(tok))
        else:
            raise PuzzleError(f"from_string: {tok!r} in {text!r} is not a tile (digits, or _ "
                              "for the blank)")
    r, c = _infer_shape(len(vals), rows, cols, f"the string {text!r}")
    return validate_state(unflatten(vals, r, c))  # type: ignore[arg-type]


def to_string(S: State, blank: str = "_") -> str:
    """``'1238_4765'`` for boards whose tiles are single digits, else space-separated."""
    flat = flatten(validate_state(S))
    if max(flat) < 10:
        return "".join(blank if x == 0 else str(x) for x in flat)
    return " ".join(blank if x == 0 else str(x) for x in flat)


def parse_board_text(text: str, *, source: str = "board text") -> State:
    """Parse Princeton text: first line N (or 'rows cols'), then the rows (0 = blank)."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise PuzzleError(f"{source} is empty")
    head = lines[0]
    try:
        dims = [int(x) for x in head]
    except ValueError:
        raise PuzzleError(f"{source}: the first line should be the board size N, "
                          f"got {' '.join(head)!r}") from None
    if len(dims) == 1:
        rows = cols = dims[0]
    elif len(dims) == 2:
        rows, cols = dims
    else:
        raise PuzzleError(f"{source}: the first line should be N (or 'rows cols'), "
                          f"got {' '.join(head)!r}")
    if rows < 2 or cols < 2:
        raise PuzzleError(f"{source}: size {rows}×{cols} is too small (at least 2×2)")
    body = lines[1:]
    if len(body) != rows:
        raise PuzzleError(f"{source}: the header says {rows} rows but {len(body)} follow")
    grid_rows = []
    for i, row in enumerate(body, start=2):
        if len(row) != cols:
            raise PuzzleError(f"{source}, line {i}: expected {cols} numbers, got {len(row)}")
        try:
            grid_rows.append(tuple(int(x) for x in row))
        except ValueError:
            raise PuzzleError(f"{source}, line {i}: {' '.join(row)!r} has a non-integer") from None
    try:
        return validate_state(tuple(grid_rows))
    except PuzzleError as e:
        raise PuzzleError(f"{source}: {e}") from None


def read_board(path_or_text: str | os.PathLike[str]) -> State:
    """Read a board from a Princeton-format file, or from such text directly."""
    if isinstance(path_or_text, os.PathLike) or (
            isinstance(path_or_text, str) and "\n" not in path_or_text.strip()
            and path_or_text.strip() and not path_or_text.strip().isdigit()):
        p = Path(path_or_text)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise PuzzleError(f"no such board file: {p}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise PuzzleError(f"cannot read board file {p}: {e}") from None
        return parse_board_text(text, source=str(p))
    if not isinstance(path_or_text, str):
        raise PuzzleError(f"read_board needs a path or text, got {type(path_or_text).__name__}")
    return parse_board_text(path_or_text)


def board_text(S: State) -> str:
    """Princeton text of `S`: N (or 'rows cols'), then right-aligned rows."""
    S = validate_state(S)
    rows, cols = shape(S)
    width = len(str(rows * cols - 1))
    head = str(rows) if rows == cols else f"{rows} {cols}"
    body = "\n".join(" ".join(f"{x:>{width}}" for x in row) for row in S)
    return f"{head}\n{body}\n"


def write_board(S: State, path: str | os.PathLike[str] | None = None) -> str:
    """Write `S` in Princeton format to `path` (if given) and return the text."""
    text = board_text(S)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def as_state(x: object) -> State:
    """Any accepted board format to a validated state (tuple of tuples)."""
    if isinstance(x, str):
        return parse_board_text(x) if "\n" in x.strip() else from_string(x)
    if isinstance(x, Sequence) and x and all(
            isinstance(v, (int, str)) or v is None for v in x):
        return from_flat(x)
    return validate_state(x)
