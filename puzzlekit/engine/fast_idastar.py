"""Fast IDA* on flat boards: the engines `solve` uses for optimal 15-puzzle solutions.

IDA* with an incremental heuristic spends its life in one recursive function, so that
function is written for speed: the board is one list of tiles, the heuristic is updated
by a table lookup per move, and each square's moves are precomputed *without the move
back* (see `_children`), so the search never tests for its parent. Two engines share
the driver `_iterate`:

- `idastar_manhattan`: Manhattan distance, any board (no pattern database needed);
- `idastar_pdb`: the additive pattern databases of `pdb.py`, with their reflection.

Both count nodes the way `SearchStats` does and obey one `problem.Budget` (nodes, time,
progress), like every other search of the kit. IDA* is taught in assignment 4, exercise 2.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleError, SearchStats, Unsolvable
from ..puzzle.board import Flat, unflatten, validate_state
from ..puzzle.geometry import grid
from ..puzzle.solvability import parity_report
from .pdb import MAX_CELLS, TABLE_SETS, Databases, Frame, databases, frame, table_set
from .problem import Budget
from .progress import make_reporter

Moves = list[Any]     #: ``(square, *table deltas, onward moves)`` entries, see `_children`


# ------------------------------------------------------------------- the public doors

def idastar_pdb(start: Flat, goal: Flat, rows: int, cols: int, *,
                max_nodes: float | None = None, time_limit: float | None = None,
                progress: object = None, tables: str | None = None
                ) -> tuple[str, SearchStats]:
    """An optimal move string from `start` to `goal` by IDA* on the additive PDB heuristic.

    progress: None, True or a function of a `ProgressEvent` (table building reports
    layers; the search reports each new bound and "done").
    tables: "6-6-3", "7-7-1" or None (see `pdb.table_set`).
    """
    start, goal = _checked(start, goal, rows, cols)
    budget = _budget(max_nodes, time_limit, progress)
    moves = search_pdb(start, goal, rows, cols, budget, tables)
    budget.report("done", len(moves))
    return moves, budget.stats


def idastar_manhattan(start: Flat, goal: Flat, rows: int, cols: int, *,
                      max_nodes: float | None = None, time_limit: float | None = None,
                      progress: object = None) -> tuple[str, SearchStats]:
    """An optimal move string by IDA* with Manhattan distance (incremental, any board)."""
    start, goal = _checked(start, goal, rows, cols)
    budget = _budget(max_nodes, time_limit, progress)
    moves = search_manhattan(start, goal, rows, cols, budget)
    budget.report("done", len(moves))
    return moves, budget.stats


def _checked(start: Flat, goal: Flat, rows: int, cols: int) -> tuple[Flat, Flat]:
    """`start` and `goal` as flat tuples of two legal boards of one shape, the goal
    reachable; else `PuzzleError` or `Unsolvable`."""
    start, goal = tuple(start), tuple(goal)
    if len(start) != rows * cols or len(goal) != rows * cols:
        raise PuzzleError(f"start and goal must hold {rows * cols} tiles for a "
                          f"{rows}×{cols} board")
    S = validate_state(unflatten(start, rows, cols), name="start")
    G = validate_state(unflatten(goal, rows, cols), name="goal")
    if not parity_report(S, G).solvable:
        raise Unsolvable("No solution possible: the start and the goal have different "
                         "parity (see explain_solvability)")
    return start, goal


def _budget(max_nodes: float | None, time_limit: float | None, progress: object) -> Budget:
    return Budget("idastar", math.inf if max_nodes is None else max_nodes, time_limit,
                  make_reporter(progress))


# -------------------------------------------------- the trusted engines (checked boards)

def search_pdb(start: Flat, goal: Flat, rows: int, cols: int, budget: Budget,
               tables: str | None = None) -> str:
    """IDA* + pattern databases on boards already checked (legal, solvable)."""
    if rows * cols > MAX_CELLS:
        raise PuzzleError(f"pattern databases are for boards of at most {MAX_CELLS} squares "
                          f"(up to 4×4); this one is {rows}×{cols}. Use algorithm='reduction' "
                          "for big boards")
    fr = frame(goal, rows, cols)
    db = databases(rows, cols, fr.blank, progress=budget.reporter,
                   partition=TABLE_SETS[table_set(tables, rows, cols, fr.blank)])
    budget.restart_clock()               # the search's own time, not the tables' build
    return _iterate(_pdb_engine(db, fr.board(start)), fr, rows, cols, budget)


def search_manhattan(start: Flat, goal: Flat, rows: int, cols: int, budget: Budget) -> str:
    """IDA* + Manhattan distance on boards already checked (legal, solvable), any size."""
    fr = Frame(tuple(range(rows * cols)), {t: p for p, t in enumerate(goal) if t},
               goal.index(0))
    return _iterate(_manhattan_engine(rows, cols, fr.board(start), fr.blank), fr, rows, cols,
                    budget)


# ------------------------------------------------------------------------ the engines

@dataclass
class _Engine:
    """A depth-first search closure plus what `_iterate` needs to drive it."""

    dfs: Callable[..., bool]
    blank: int
    moves: Moves                 #: the root's moves
    h0: tuple[int, ...]          #: the root's heuristic arguments
    counts: list[int]            #: expansions per blank square
    path: list[int]              #: blank squares, goal first, filled on success
    hook: list[Callable[[], None]]


def _children(rows: int, cols: int, payload: Callable[[int, int], tuple[Any, ...]]
              ) -> list[list[Moves]]:
    """kids[b][prev]: the moves of a blank on `b` that came from `prev` (never back there).

    Each entry is ``(q, *payload(b, q), kids[q][b])``: the square the blank goes to, the
    precomputed table deltas of that move, and the move list to use from there on, so
    the search neither tests for the parent nor looks anything up by position.
    ``kids[b][n]`` (n = rows*cols) holds all moves, for the root.
    """
    n = rows * cols
    nbrs = grid(rows, cols).targets
    kids: list[list[Moves]] = [[[] for _ in range(n + 1)] for _ in range(n)]
    for b in range(n):
        for prev in (*nbrs[b], n):
            kids[b][prev].extend((q, *payload(b, q), kids[q][b]) for q in nbrs[b] if q != prev)
    return kids


# The two depth-first functions below slide the blank by hand (``board[blank] = t``)
# instead of calling `geometry.slide`: they are the hot loops that bench_pdb measures.

def _pdb_engine(db: Databases, board: list[int]) -> _Engine:
    rows, cols, n = db.rows, db.cols, db.rows * db.cols
    pos = [0] * n
    for sq, lab in enumerate(board):
        pos[lab] = sq
    blank = pos[db.blank]
    tabs = [p.table for p in db.patterns]
    pat, wt = list(db.pattern_of), list(db.weight)
    ix = db.indices(pos)
    counts = [0] * n
    path: list[int] = []
    hook: list[Callable[[], None]] = [lambda: None]
    # without a symmetry the "reflection" is the board itself: same code, same answers
    T = db.reflect or tuple(range(n))
    rpat = [pat[T[t]] for t in range(n)]
    rix = db.reflected_indices(pos, T)
    kids = _children(rows, cols, lambda b, q: ([(b - q) * wt[t] for t in range(n)],
                                               [(T[b] - T[q]) * wt[T[t]] for t in range(n)]))

    # the plain and the reflected view are looked up side by side, written out twice on
    # purpose: this is the hot loop that bench_pdb measures (no helper call per move)
    def rdfs(blank: int, moves: Moves, rem: int, h: int, hr: int) -> bool:
        k = counts[blank] + 1
        counts[blank] = k
        if not k & 4095:
            hook[0]()
        for nb, dl, rdl, onward in moves:
            t = board[nb]
            p = pat[t]
            tab = tabs[p]
            old = ix[p]
            new = old + dl[t]
            nh = h - tab[old] + tab[new]
            if nh >= rem:
                continue
            rp = rpat[t]
            rtab = tabs[rp]
            rold = rix[rp]
            rnew = rold + rdl[t]
            nhr = hr - rtab[rold] + rtab[rnew]
            if nhr >= rem:
                continue
            if not nh:
                path.append(nb)
                return True
            board[blank] = t
            ix[p] = new
            rix[rp] = rnew
            if rdfs(nb, onward, rem - 1, nh, nhr):
                path.append(nb)
                return True
            ix[p] = old
            rix[rp] = rold
            board[nb] = t
        return False
    return _Engine(rdfs, blank, kids[blank][n], (db.value(ix), db.value(rix)), counts, path,
                   hook)


def _manhattan_engine(rows: int, cols: int, board: list[int], goal_blank: int) -> _Engine:
    n = rows * cols

    def md(t: int, p: int) -> int:
        return abs(p // cols - t // cols) + abs(p % cols - t % cols)
    # moving tile t from q into the blank's square b changes h by md(t, b) - md(t, q)
    kids = _children(rows, cols, lambda b, q: (
        [md(t, b) - md(t, q) if t != goal_blank else 0 for t in range(n)],))
    blank = board.index(goal_blank)
    h0 = sum(md(t, p) for p, t in enumerate(board) if p != blank)
    counts = [0] * n
    path: list[int] = []
    hook: list[Callable[[], None]] = [lambda: None]

    def dfs(blank: int, moves: Moves, rem: int, h: int) -> bool:
        k = counts[blank] + 1
        counts[blank] = k
        if not k & 4095:
            hook[0]()
        for nb, dl, onward in moves:
            t = board[nb]
            nh = h + dl[t]
            if nh >= rem:
                continue
            if not nh:
                path.append(nb)
                return True
            board[blank] = t
            if dfs(nb, onward, rem - 1, nh):
                path.append(nb)
                return True
            board[nb] = t
        return False
    return _Engine(dfs, blank, kids[blank][n], (h0,), counts, path, hook)


def _iterate(eng: _Engine, fr: Frame, rows: int, cols: int, budget: Budget) -> str:
    """Iterative deepening: bounds h0, h0+2, ... (each move changes h by exactly ±1).

    Returns the move string; a spent `budget` raises `SearchLimitReached`."""
    n = rows * cols
    degree = [len(q) for q in grid(rows, cols).targets]
    roots = [0]

    def tally() -> tuple[int, int]:
        expanded = sum(eng.counts)
        generated = sum(c * (d - 1) for c, d in zip(eng.counts, degree)) + roots[0]
        budget.update(expanded, generated)
        return expanded, generated

    def check() -> None:
        budget.check(*tally())
    eng.hook[0] = check
    bound = max(eng.h0)
    while bound:
        roots[0] += 1
        if sys.getrecursionlimit() < bound + 100:      # deep searches on big boards
            sys.setrecursionlimit(bound + 100)
        if eng.dfs(eng.blank, eng.moves, bound, *eng.h0):
            break
        bound += 2
        budget.stats.depth = bound
        tally()
        budget.report("bound", bound)
        check()
    tally()
    inv = [0] * n
    for p, c in enumerate(fr.sigma):
        inv[c] = p
    squares = [inv[eng.blank]] + [inv[c] for c in reversed(eng.path)]
    letters = {-cols: "U", cols: "D", -1: "L", 1: "R"}
    moves = "".join(letters[b - a] for a, b in zip(squares, squares[1:]))
    budget.stats.depth = len(moves)
    return moves
