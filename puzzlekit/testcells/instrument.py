"""Count what a student's search asks of the puzzle: a recording successor function.

A test hands the student's search a `Recorder` in place of `nextStates` (`counted`), or
records a given function that the search calls by name, such as the notebook's
`successors` (`puzzlekit.testcells.recording`). The record says how often it was called,
on how many different boards, which board was asked about most often, and the first
boards in the order they were asked about. From it `puzzlekit.testcells.diagnose` names mistakes
that a timeout alone cannot: a search with no visited set (the same board expanded again
and again), a "breadth-first" search that takes the newest board first, an iterative
deepening that steps back to the board it came from.

A recorder can also stop a search that runs away: past its `limit` of calls it raises
`ExpansionLimit` inside the student's code, so that a search without a visited set on a
board with 12 reachable boards fails at once with the reason, not after a timeout.

While autograding, the recorder runs in the student's kernel (the student's code calls
it) and only its `Record` comes back to the grader, as plain data. A record can only cost
points, on an answer that is right (a right path found by expanding boards twice earns
part of its points), so a student's code that tampered with its recorder could at most
win back what a correct search earns on that check; the checks that decide the rest
(paths, lengths, prices, time limits on hard boards) are the grader's own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .catalogue import (ASKED_MOST, CALLED_AGAIN, NO_FUNCTION_TO_CALL, THE_SUCCESSOR_FUNCTION,
                        TOO_MANY_CALLS)
from .mistakes import mistake

#: How many of the first calls a record keeps, in order.
KEEP = 200


class ExpansionLimit(AssertionError):
    """A recorded function was called more often than the test allows."""


@dataclass
class Record:
    """What a recorder saw: calls, different boards, the most asked-about board, the
    first boards asked about (in order), and whether the limit stopped the search."""

    calls: int = 0
    distinct: int = 0
    most: Any = None
    most_times: int = 0
    first: list[Any] = field(default_factory=list)
    stopped: bool = False

    def as_data(self) -> dict[str, Any]:
        """The record as plain data (for the wire)."""
        return {"calls": self.calls, "distinct": self.distinct, "most": self.most,
                "most_times": self.most_times, "first": list(self.first),
                "stopped": self.stopped}

    @classmethod
    def from_data(cls, data: object) -> Record:
        """A record re-built from `as_data`'s plain data (anything else: an empty one)."""
        if not isinstance(data, dict):
            return cls()
        ints = {k: data.get(k) for k in ("calls", "distinct", "most_times")}
        if not all(type(v) is int and v >= 0 for v in ints.values()):
            return cls()
        first = data.get("first")
        return cls(calls=ints["calls"], distinct=ints["distinct"],  # type: ignore[arg-type]
                   most=data.get("most"), most_times=ints["most_times"],  # type: ignore[arg-type]
                   first=list(first) if isinstance(first, list) else [],
                   stopped=data.get("stopped") is True)


class Recorder:
    """`func` (a successor function or a heuristic) that records the board of each call.

    `limit`: past this many calls, raise `ExpansionLimit` (None: no limit). `name`: how
    the function is called in messages ("nextStates"). A recorder made without `func`
    stands for a function of the notebook recorded by name (`testcells.recording`)."""

    def __init__(self, func: Callable[..., Any] | None = None, *, limit: int | None = None,
                 name: str | None = None, keep: int = KEEP) -> None:
        self.func = func
        self.limit = limit
        self.name = name or getattr(func, "__name__", None) or THE_SUCCESSOR_FUNCTION
        self.keep = keep
        self.record = Record()
        self._seen: Counter[Any] = Counter()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.func is None:
            raise TypeError(NO_FUNCTION_TO_CALL.format(name=self.name))
        board = args[0] if args else None
        self.note(board)
        return self.func(*args, **kwargs)

    def note(self, board: Any) -> None:
        """Count one call about `board` (raises `ExpansionLimit` past the limit)."""
        global _last
        _last = self
        rec = self.record
        rec.calls += 1
        try:
            key = _hashable(board)
            self._seen[key] += 1
            times = self._seen[key]
        except TypeError:
            key, times = None, 1
        if times > rec.most_times:
            rec.most, rec.most_times = key, times
        rec.distinct = len(self._seen)
        if len(rec.first) < self.keep:
            rec.first.append(key)
        if self.limit is not None and rec.calls > self.limit:
            rec.stopped = True
            raise ExpansionLimit(limit_message(self.name, rec))

    def load(self, data: object) -> None:
        """Take the record another process made (the grader's side of a kernel's call)."""
        self.record = Record.from_data(data)

    def __repr__(self) -> str:
        return f"<{self.name}, recorded: {self.record.calls:,} calls>"


#: the recorder that counted the latest call (`last_record`)
_last: Recorder | None = None


def forget_last() -> None:
    """Start afresh: `last_record` says nothing of what was recorded before."""
    global _last
    _last = None


def last_record() -> Record | None:
    """The record of the recorder that counted a call since `forget_last`, if any: what a
    search that ran out of time was doing (`puzzlekit.testcells.budget.repeats`)."""
    return None if _last is None else _last.record


def _hashable(board: Any) -> Any:
    """A board as a tuple of tuples (lists from a flat-list exercise become tuples)."""
    if isinstance(board, list):
        return tuple(_hashable(x) for x in board)
    hash(board)
    return board


def limit_message(name: str, rec: Record) -> str:
    """Why a recorder stopped the search: the same boards, asked about again and again."""
    if rec.distinct * 2 > rec.calls:
        return TOO_MANY_CALLS.format(name=name, calls=rec.calls)
    again = (ASKED_MOST.format(most=rec.most_times, board=rec.most)
             if rec.most_times > 1 else "")
    return mistake("no-visited-set", CALLED_AGAIN.format(name=name, calls=rec.calls,
                                                         distinct=rec.distinct, again=again))


def counted(func: Callable[..., Any], limit: int | None = None) -> Recorder:
    """`func` that records every board it is called with (see `Recorder`)."""
    return Recorder(func, limit=limit)
