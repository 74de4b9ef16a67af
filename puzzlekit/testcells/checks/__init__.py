"""The checks of the graded notebooks' test cells, one module per notebook.

A visible test cell reads as a few sentences, its verdict right after them:

    from puzzlekit.testcells.checks.states_and_moves import check_findZero, passed
    check_findZero(findZero, start, (0, 1), "findZero(start)")
    passed("findZero")

The checks take the student's function as an argument (they never look it up by name),
so they run alike in the student's kernel and in the grader's judge, which imports them
in its own process: a student's code cannot redefine them. Each check does what the test
cell's own code did before it moved here, with the same messages and named mistakes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TypeVar

__all__ = ["forbids", "forbidden_by"]

F = TypeVar("F", bound=Callable[..., object])

#: where the checks live: a test cell imports them from a module of this package
PACKAGE = __name__


def forbids(*names: str) -> Callable[[F], F]:
    """Mark a check as one that forbids puzzlekit's references `names` while the student's
    function runs (it calls ``forbid_reference(*names)`` itself). The course's integrity
    scan reads the mark as it reads a ``forbid_reference`` call in the test cell."""
    def mark(check: F) -> F:
        setattr(check, "forbids", tuple(names))
        return check
    return mark


def forbidden_by(module: str, name: str) -> tuple[str, ...]:
    """The references the check `name` of `module` (a module of this package) forbids;
    () for a name that is no check, or a module outside this package."""
    if module != PACKAGE and not module.startswith(f"{PACKAGE}."):
        return ()
    try:
        check = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return ()
    marked = getattr(check, "forbids", ())
    return tuple(n for n in marked if isinstance(n, str))
