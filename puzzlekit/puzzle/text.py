"""Plain-text boards for terminals: the 15-puzzle notebook's `print_pos` and the Thai
course's `print_moves`."""

from __future__ import annotations

from collections.abc import Sequence

from .board import State, validate_state
from .formats import as_state
from .moves import moves_to_path, normalize_moves


def board_str(S: State, width: int | None = None) -> str:
    """Rows of right-aligned tiles, the blank as spaces (the 15-puzzle notebook's layout)."""
    S = validate_state(S)
    n = len(S) * len(S[0])
    w = width or len(str(n - 1)) + 1
    return "\n".join("".join(f"{x:>{w}}" if x else " " * w for x in row) for row in S)


def print_pos(p: Sequence[object]) -> None:
    """Print a position (flat list, ``' '`` for the gap) as rows of 3-wide columns, as the
    15-puzzle notebook does."""
    S = as_state(list(p)) if not isinstance(p, tuple) or not p or not isinstance(p[0], tuple) \
        else validate_state(p)
    print(board_str(S, width=3))


def path_str(path: Sequence[State], moves: str | None = None) -> str:
    """Boards of a path one below another, each move letter on a line between them."""
    parts = []
    for i, S in enumerate(path):
        if i:
            parts.append(f"  {moves[i - 1]}" if moves else "")
        parts.append(board_str(S))
    return "\n".join(parts)


def print_moves(board: object, moves: str) -> None:
    """Print every board along `moves` from `board`, with the letters between, as the Thai
    course's 8-puzzle assignment does."""
    S = as_state(board)
    letters = normalize_moves(moves)
    print(path_str(moves_to_path(S, letters), letters))
