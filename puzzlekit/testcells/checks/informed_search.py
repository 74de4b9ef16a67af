"""Checks of notebook 03, Informed search (see `puzzlekit.testcells.checks`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.solver import solve
from ...puzzle.board import State, goal_state
from ...puzzle.formats import read_board
from ...puzzle.heuristics import manhattan as reference_manhattan
from ...puzzle.scrambles import state_at_depth
from ...puzzle.solvability import count_inversions, is_solvable
from .. import assert_equal, forbid_reference, run_with_timeout
from ..catalogue import (ASTAR_PATH, ASTAR_SHORTEST_HINT, BOARDS_PRINTED, H_GIVES,
                         INVERSIONS_COUNT_BLANK, LAST_LINE_PRINTED, OWN_ASTAR_WRONG,
                         OWN_SOLVABLE_WRONG, PRINTED_NOT_BOARDS, SOLVER_ON_THE_BOARD)
from ..diagnose import diagnose_heuristic, heuristic_probes
from ..messages import passed
from ..mistakes import Diagnosis, mistake
from . import forbids
from .paths import check_path, output_of

__all__ = ["check_h", "astar_shortest_hint", "check_astar", "SIGN_REFERENCES", "check_sign",
           "SOLVABLE_REFERENCES", "check_solvable", "blank_why", "check_num_inversions",
           "check_same_parity", "printed_boards", "which_part", "check_solver", "passed"]

HEURISTICS = ("hamming", "manhattan", "linear_conflict", "tile_distances")
#: the references sign may not call
SIGN_REFERENCES = ("permutation_sign", "count_inversions", "inversions", "is_solvable",
                   "explain_solvability")
#: the references solvable, num_inversions and same_parity may not call
SOLVABLE_REFERENCES = ("solve", "permutation_sign", "count_inversions", "inversions",
                       "is_solvable", "explain_solvability")


@forbids(*HEURISTICS)
def check_h(h: Callable[[State, State], Any], S: State, G: State, want: int,
            what: str) -> None:
    """h(S, G) must be `want`; if not, say which wrong rule gives the student's number
    (named only when it alone gives h's values on this board and on a probe board)."""
    with forbid_reference(*HEURISTICS):
        got = h(S, G)
        also = [(T, G, h(T, G)) for T in heuristic_probes(S, G, got, want, h.__name__)]
    assert_equal(got, want, what,
                 why=diagnose_heuristic(S, G, got, want, h.__name__, also))


def astar_shortest_hint() -> Diagnosis:
    """What a right but longer path of astar's says (made when a test needs it)."""
    return mistake("astar-not-shortest", ASTAR_SHORTEST_HINT)


@forbids("solve")
def check_astar(astar: Callable[..., Any], moves_away: int, seed: int,
                h: Callable[[State, State], Any]) -> None:
    """astar(S, goal, h) from a board `moves_away` moves from the goal must return a
    shortest path (a right but longer one earns 1 of the 3 points)."""
    hint = astar_shortest_hint()
    S, goal = state_at_depth(moves_away, seed=seed), goal_state(3)
    with forbid_reference("solve"):
        p = run_with_timeout(6, astar, S, goal, h)
    check_path(S, goal, p, optimal_length=moves_away, partial=1, hint=hint,
               what=ASTAR_PATH.format(moves=moves_away, h=h.__name__))


@forbids(*SIGN_REFERENCES)
def check_sign(sign: Callable[[list[int]], Any], p: list[int], want: int,
               what: str | None = None) -> None:
    """sign(p) must be `want`, +1 or -1."""
    with forbid_reference(*SIGN_REFERENCES):
        assert_equal(sign(p), want, what or f"sign({p})")


@forbids(*SOLVABLE_REFERENCES)
def check_solvable(solvable: Callable[[State], Any], S: State, want: bool,
                   what: str | None = None) -> None:
    """solvable(S) must be `want`."""
    with forbid_reference(*SOLVABLE_REFERENCES):
        assert_equal(solvable(S), want, what or f"solvable({S})")


def blank_why(squares: str, got: object) -> Diagnosis | None:
    """The count with the blank read as a tile 0, which every tile before it outranks."""
    tiles = [0 if x == "_" else int(x) for x in squares]
    counted = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles))
                  if tiles[i] > tiles[j])
    return (mistake("inversions-count-blank", INVERSIONS_COUNT_BLANK)
            if got == counted != count_inversions([t for t in tiles if t]) else None)


@forbids(*SOLVABLE_REFERENCES)
def check_num_inversions(num_inversions: Callable[[str], Any], squares: str,
                         want: int) -> None:
    """num_inversions(squares) must be `want` (the blank counted as a tile is named)."""
    with forbid_reference(*SOLVABLE_REFERENCES):
        got = num_inversions(squares)
    assert_equal(got, want, f"num_inversions({squares!r})", why=blank_why(squares, got))


@forbids(*SOLVABLE_REFERENCES)
def check_same_parity(same_parity: Callable[[str, str], Any], a: str, g: str, want: bool,
                      what: str) -> None:
    """same_parity(a, g) must be `want`."""
    with forbid_reference(*SOLVABLE_REFERENCES):
        assert_equal(same_parity(a, g), want, what)


def printed_boards(text: str) -> tuple[list[State], str, list[str]]:
    """The boards in a solver's printout (blocks of lines of numbers), its last line,
    and the other lines (something your functions printed on the way)."""
    lines = text.strip().splitlines()
    last = lines[-1].strip() if lines else ""
    boards: list[State] = []
    board: list[tuple[int, ...]] = []
    other: list[str] = []
    for line in lines[:-1] + [""]:
        numbers = line.split()
        if numbers and all(x.isdigit() for x in numbers):
            board.append(tuple(int(x) for x in numbers))
            continue
        if board:
            boards.append(tuple(board))
            board = []
        if line.strip():
            other.append(line.strip())
    return boards, last, other


def which_part(S: State, shortest: int | None, solvable: Callable[..., Any],
               manhattan: Callable[..., Any], astar: Callable[..., Any]) -> str:
    """Which of your functions that solver uses gives a wrong answer for S."""
    G = goal_state(len(S))
    can, h = is_solvable(S), reference_manhattan(S, G)
    found = []
    with forbid_reference("solve", "is_solvable", "manhattan"):
        said, h_said = solvable(S), manhattan(S, G)
    if said != can:
        found.append(OWN_SOLVABLE_WRONG.format(said=said, can="can" if can else "cannot"))
    if h_said != h:
        found.append(H_GIVES.format(name="manhattan", got=h_said, right=h))
    with forbid_reference("solve"):
        p = run_with_timeout(6, astar, S, G, reference_manhattan) if can else None
    if can and (not isinstance(p, list) or len(p) - 1 != shortest):
        got = f"a path of {len(p) - 1} moves" if isinstance(p, list) else repr(p)[:60]
        found.append(OWN_ASTAR_WRONG.format(got=got, shortest=shortest))
    return mistake("own-part-wrong", "; ".join(found)) if found else ""


@forbids("solve")
def check_solver(solver: Callable[[str], Any], text_in: str, *, solvable: Callable[..., Any],
                 manhattan: Callable[..., Any], astar: Callable[..., Any]) -> None:
    """solver(text_in) must print a shortest solution's boards and its number of moves
    ("No solution possible" for a board that has none); when not, which of your
    `solvable`, `manhattan`, `astar` (what solver uses) is wrong for that board."""
    S = read_board(text_in)
    shortest = solve(S).length if is_solvable(S) else None
    with forbid_reference("solve"):
        _, out = output_of(run_with_timeout, 6, solver, text_in)
    boards, last, other = printed_boards(out)
    want = "No solution possible" if shortest is None else \
        f"Minimum number of moves = {shortest}"
    try:
        assert_equal(last, want, LAST_LINE_PRINTED)
        if shortest is not None:
            check_path(S, goal_state(len(S)), boards, optimal_length=shortest,
                       what=BOARDS_PRINTED)
    except AssertionError as e:
        part = which_part(S, shortest, solvable, manhattan, astar)
        seen = PRINTED_NOT_BOARDS.format(lines=other[:2]) if other else ""
        raise AssertionError((SOLVER_ON_THE_BOARD.format(board=S, part=part, error=e)
                              if part else str(e)) + seen) from None
