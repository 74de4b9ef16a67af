"""Progress events of long searches, and how `solve(progress=...)` turns into a reporter.

A search calls its reporter with a `ProgressEvent` at each BFS layer, each new IDA*
bound, and every so many nodes. ``progress=True`` picks a display that suits the place:
a widget bar in a notebook, a text line in a terminal, nothing under nbgrader.
"""

from __future__ import annotations

from ...context import under_autograder
from ...errors import PuzzleError
from .display import auto_reporter
from .events import ProgressEvent, Reporter, text_reporter

__all__ = ["ProgressEvent", "Reporter", "make_reporter", "text_reporter", "under_autograder"]


def make_reporter(progress: object) -> Reporter | None:
    """None/False → no reporting; a callable → itself; True → the display that suits."""
    if progress is None or progress is False:
        return None
    if progress is True:
        if under_autograder():
            return None
        return auto_reporter()
    if callable(progress):
        return progress  # type: ignore[return-value]
    raise PuzzleError(f"progress must be None, True or a function of a ProgressEvent, "
                      f"got {progress!r}")
