"""The grader's seat in a test cell: who, if anyone, is grading the cell now.

A test cell runs in one of two places. In a notebook (a student's Validate, the lecture's
asserts), `current_judge()` is None and the grading helpers work on the spot. Under the
kit's autograder the cell runs in the grader's own process, and the judge
(`puzzlekit.autograder.judge.judge`) sits here while it does: the helpers then ask it to
time a call, forbid a reference or keep a picture for the feedback. This module is all the
testcells wing knows of the judge, so the student's kernel, which imports the grading
helpers, never imports the judge (tests/test_layers.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Any, Protocol


class KernelStopped(AssertionError):
    """The student's kernel stopped during a call (it was restarted for the next tests)."""


class Grader(Protocol):
    """What the grading helpers ask of the judge that runs the cell."""

    def display_html(self, markup: str) -> None: ...

    def forbidding(self, names: tuple[str, ...]) -> contextlib.AbstractContextManager[Any]: ...

    def recording(self, recorder: Any) -> contextlib.AbstractContextManager[Any]: ...

    def within(self, seconds: float, message: str, func: Callable[..., Any], *args: Any,
               **kwargs: Any) -> Any: ...


_CURRENT: ContextVar[Grader | None] = ContextVar("puzzlekit_judge", default=None)


def current_judge() -> Grader | None:
    """The judge running a graded test cell right now, if any."""
    return _CURRENT.get()


def seat(judge: Grader) -> Token[Grader | None]:
    """`judge` grades the cells that run from now on, until `unseat`."""
    return _CURRENT.set(judge)


def unseat(token: Token[Grader | None]) -> None:
    """The judge seated with `token` leaves its seat."""
    _CURRENT.reset(token)
