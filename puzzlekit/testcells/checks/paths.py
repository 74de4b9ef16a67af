"""The path checks of the search notebooks (02, 03, 04): their setup cells import them."""

from __future__ import annotations

import io
from collections.abc import Callable
from contextlib import redirect_stdout
from typing import Any

from .. import Recorder, assert_board_equal, assert_solution
from ..catalogue import FIRST_STATE_OF, LAST_STATE_OF
from ..diagnose import diagnose_path

__all__ = ["output_of", "check_path"]


def output_of(func: Callable[..., Any], *args: Any) -> tuple[Any, str]:
    """Run func(*args); return its result and everything it printed."""
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        result = func(*args)
    return result, buffer.getvalue()


def check_path(start: Any, goal: Any, path: Any, *, optimal_length: int | None = None,
               what: str = "your path", partial: float | None = None,
               searched: Recorder | None = None, kind: str = "breadth-first",
               hint: str | None = None) -> None:
    """Fail unless `path` (states or move letters) solves start → goal; with
    `optimal_length`, in exactly that many moves (a longer path earns `partial` points).
    A wrong first or last state is shown in colour next to the right one; `searched`, the
    record of what the search asked its successor function, may say what went wrong, and
    `hint` what makes a search find a shortest path."""
    if isinstance(path, (list, tuple)) and path and isinstance(path[0], tuple):
        why = diagnose_path(start, goal, list(path))    # backwards, no start, no goal?
        if why:
            raise AssertionError(f"{what}: {why}")
        assert_board_equal(path[0], start, what=FIRST_STATE_OF.format(what=what))
        assert_board_equal(path[-1], goal, what=LAST_STATE_OF.format(what=what))
    assert_solution(start, goal, path, optimal_length=optimal_length, what=what,
                    partial=partial, searched=searched, kind=kind, hint=hint)
