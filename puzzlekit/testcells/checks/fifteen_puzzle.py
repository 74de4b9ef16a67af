"""Checks of notebook 04, The fifteen puzzle (see `puzzlekit.testcells.checks`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.solver import solve
from ...puzzle.board import State
from ...puzzle.heuristics import manhattan
from .. import assert_equal, forbid_reference, run_with_timeout
from ..catalogue import IDASTAR_SHORTEST_HINT
from ..diagnose import (conflict_probes, diagnose_linear_conflict, diagnose_reachability,
                        reachability_probes)
from ..messages import passed
from ..mistakes import Diagnosis, mistake
from . import forbids
from .paths import check_path

__all__ = ["REACH_REFERENCES", "check_can_reach", "check_which_goal", "idastar_shortest_hint",
           "check_idastar", "check_linear_conflict", "passed"]

#: the references can_reach and which_goal may not call
REACH_REFERENCES = ("solve", "is_solvable", "explain_solvability", "inversions",
                    "count_inversions", "permutation_sign")


@forbids(*REACH_REFERENCES)
def check_can_reach(can_reach: Callable[[State, State], Any], S: State, G: State, want: bool,
                    what: str) -> None:
    """can_reach(S, G) must be `want`; if not, say which wrong rule answers so (named
    only when it alone gives the answers here and on a probe board)."""
    with forbid_reference(*REACH_REFERENCES):
        got = can_reach(S, G)
        also = [(T, G, can_reach(T, G)) for T in reachability_probes(S, G, got)]
    assert_equal(got, want, what, why=diagnose_reachability(S, G, got, also))


@forbids(*REACH_REFERENCES)
def check_which_goal(which_goal: Callable[[list[Any]], Any], p: list[Any], want: str,
                     what: str) -> None:
    """which_goal(p) must be `want`, "A" or "B"."""
    with forbid_reference(*REACH_REFERENCES):
        assert_equal(which_goal(p), want, what)


def idastar_shortest_hint() -> Diagnosis:
    """What a right but longer path of idastar's says (made when a test needs it)."""
    return mistake("idastar-not-shortest", IDASTAR_SHORTEST_HINT)


@forbids("solve")
def check_idastar(idastar: Callable[..., Any], S: State, G: State, what: str) -> None:
    """idastar(S, G, manhattan) must return a shortest path (puzzlekit's solver knows its
    length); a right but longer one earns 1 of the 4 points."""
    hint = idastar_shortest_hint()
    shortest = solve(S, G).length
    with forbid_reference("solve"):
        p = run_with_timeout(6, idastar, S, G, manhattan)
    check_path(S, G, p, optimal_length=shortest, what=what, partial=1, hint=hint)


@forbids("linear_conflict", "conflict_pairs")
def check_linear_conflict(linear_conflict: Callable[[State, State], Any], S: State, G: State,
                          want: int, what: str) -> None:
    """linear_conflict(S, G) must be `want`; if not, say which slip gives that number
    (named only when it alone gives the values here and on a probe board)."""
    with forbid_reference("linear_conflict", "conflict_pairs"):
        got = linear_conflict(S, G)
        also = [(T, G, linear_conflict(T, G)) for T in conflict_probes(S, G, got, want)]
    assert_equal(got, want, what, why=diagnose_linear_conflict(S, G, got, want, also))
