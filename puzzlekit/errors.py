"""The kit's exceptions: every bad input becomes a `PuzzleError` that names the problem."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class PuzzleError(ValueError):
    """A board, move, file or search request that cannot be used, with the reason."""


class Unsolvable(PuzzleError):
    """The start cannot reach the goal; `explanation` says why (parity argument)."""

    def __init__(self, explanation: str) -> None:
        super().__init__(explanation)
        self.explanation = explanation


@dataclass
class SearchStats:
    """Counters a search keeps while it runs; carried by results and by budget errors."""

    algorithm: str = ""
    nodes_expanded: int = 0
    nodes_generated: int = 0
    max_frontier: int = 0
    elapsed: float = 0.0
    depth: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> str:
        return (f"{self.nodes_expanded:,} nodes expanded, {self.nodes_generated:,} generated, "
                f"largest frontier {self.max_frontier:,}, depth {self.depth}, "
                f"{self.elapsed:.2f} s")


class SearchLimitReached(PuzzleError):
    """A search ran out of its node or time budget; `stats` holds what it did so far."""

    def __init__(self, reason: str, stats: SearchStats) -> None:
        algo = f"{stats.algorithm} " if stats.algorithm else ""
        super().__init__(f"{algo}search stopped: {reason} ({stats.summary()}). "
                         "Raise max_nodes/time_limit, or use a better heuristic.")
        self.reason = reason
        self.stats = stats
