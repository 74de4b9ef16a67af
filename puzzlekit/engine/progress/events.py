"""Progress events of long searches, their words, and the plain text reporter for terminals.

The searches and both displays (`puzzlekit.engine.progress` picks one, `puzzlekit.engine.progress.display`
draws the notebook's) share these; `puzzlekit.engine.progress` imports the display, never the
other way round.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class ProgressEvent:
    algorithm: str
    kind: str            #: "layer", "bound", "nodes" or "done"
    value: float         #: layer number, new bound, or node count
    nodes_expanded: int
    elapsed: float


Reporter = Callable[[ProgressEvent], None]

#: what the value of each kind of event counts
LABELS = {"layer": "depth", "bound": "bound", "nodes": "nodes", "done": "done"}


def text_reporter(stream: TextIO | None = None) -> Reporter:
    """A reporter that keeps one line of text up to date (for terminals)."""
    out = stream or sys.stderr

    def report(e: ProgressEvent) -> None:
        label = LABELS[e.kind]
        end = "\n" if e.kind == "done" else ""
        out.write(f"\r{e.algorithm}: {label} {e.value:,.0f}, {e.nodes_expanded:,} nodes "
                  f"expanded, {e.elapsed:.1f} s" + end)
        out.flush()
    return report
