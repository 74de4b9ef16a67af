"""Progress events of long searches, and the plain text reporter for terminals.

The searches and both displays (`puzzlekit.progress` picks one, `puzzlekit.progress_display`
draws the notebook's) share these, so that neither display module imports the other.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ProgressEvent:
    algorithm: str
    kind: str            #: "layer", "bound", "nodes" or "done"
    value: float         #: layer number, new bound, or node count
    nodes_expanded: int
    elapsed: float


Reporter = Callable[[ProgressEvent], None]


def under_autograder() -> bool:
    """True while nbgrader executes the notebook (it sets NBGRADER_EXECUTION)."""
    return bool(os.environ.get("NBGRADER_EXECUTION"))


def text_reporter(stream=None) -> Reporter:
    """A reporter that keeps one line of text up to date (for terminals)."""
    out = stream or sys.stderr

    def report(e: ProgressEvent) -> None:
        label = {"layer": "depth", "bound": "bound", "nodes": "nodes", "done": "done"}[e.kind]
        end = "\n" if e.kind == "done" else ""
        out.write(f"\r{e.algorithm}: {label} {e.value:,.0f}, {e.nodes_expanded:,} nodes "
                  f"expanded, {e.elapsed:.1f} s" + end)
        out.flush()
    return report
