"""`solve`: one entry point to every search of the course, with budgets and statistics.

>>> r = solve(((1, 2, 3), (4, 0, 6), (7, 5, 8)))
>>> r.moves, r.length, r.optimal
('DR', 2, True)
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import PuzzleError, SearchLimitReached, Unsolvable
from ..puzzle.board import State, flatten, goal_for, shape, unflatten
from ..puzzle.formats import as_state
from ..puzzle.moves import moves_to_path, normalize_moves, path_to_moves
from ..puzzle.solvability import parity_report
from .heuristic_choice import resolve_heuristic
from .informed import best_first, idastar
from .large import line_by_line
from .problem import (
    MAX_NODES_DEPTH_FIRST,
    MAX_NODES_STORED,
    Budget,
    FlatProblem,
    GenericProblem,
    Problem,
)
from .progress import make_reporter
from .uninformed import bfs, bidirectional, dfs, dls, iddfs


@dataclass(frozen=True)
class Algorithm:
    name: str
    title: str
    run: Callable[..., Any] | None
    optimal: bool          #: guaranteed shortest (cheapest) path, given an admissible h
    informed: bool         #: uses a heuristic
    memory_bound: bool     #: stores every state it meets (so the default node cap is lower)
    options: dict[str, float] = field(default_factory=dict)


ALGORITHMS: dict[str, Algorithm] = {a.name: a for a in [
    Algorithm("bfs", "breadth-first search", bfs, True, False, True),
    Algorithm("dfs", "depth-first search", dfs, False, False, True),
    Algorithm("dls", "depth-limited search", dls, False, False, False),
    Algorithm("iddfs", "iterative deepening", iddfs, True, False, False),
    Algorithm("bidirectional", "bidirectional breadth-first search", bidirectional, True,
              False, True),
    Algorithm("ucs", "uniform-cost search", best_first, True, False, True,
              {"g_weight": 1.0, "h_weight": 0.0}),
    Algorithm("greedy", "greedy best-first search", best_first, False, True, True,
              {"g_weight": 0.0, "h_weight": 1.0}),
    Algorithm("astar", "A*", best_first, True, True, True,
              {"g_weight": 1.0, "h_weight": 1.0}),
    Algorithm("weighted_astar", "weighted A* (not optimal: cost ≤ weight × optimal)",
              best_first, False, True, True, {"g_weight": 1.0}),
    Algorithm("idastar", "IDA*", idastar, True, True, False),
    # not a search over states: solve() hands it to large.solve_large
    Algorithm("reduction", "row-and-column reduction (fast, not optimal)", None,
              False, False, False),
]}

_ALIASES = {"a*": "astar", "ida*": "idastar", "breadth-first": "bfs", "depth-first": "dfs",
            "uniform-cost": "ucs", "dijkstra": "ucs", "weighted": "weighted_astar",
            "bidir": "bidirectional", "ids": "iddfs", "best-first": "greedy"}

#: Node caps when `max_nodes` is not given, by `Algorithm.memory_bound` (see problem.py).
DEFAULT_MAX_NODES = {True: MAX_NODES_STORED, False: MAX_NODES_DEPTH_FIRST}


@dataclass
class SearchResult:
    """What a search found and what it cost."""

    path: list[State]
    moves: str | None
    length: int
    cost: float
    nodes_expanded: int
    nodes_generated: int
    max_frontier: int
    elapsed: float
    optimal: bool
    algorithm: str
    heuristic: str | None
    start: State
    goal: State
    layer_sizes: list[int] | None = None

    def __repr__(self) -> str:
        h = f", heuristic={self.heuristic!r}" if self.heuristic else ""
        moves = self.moves if self.moves is None or len(self.moves) <= 40 else \
            self.moves[:37] + "..."
        return (f"SearchResult(algorithm={self.algorithm!r}{h}, length={self.length}, "
                f"moves={moves!r}, nodes_expanded={self.nodes_expanded:,}, "
                f"nodes_generated={self.nodes_generated:,}, max_frontier={self.max_frontier:,}, "
                f"elapsed={self.elapsed:.3f}s, optimal={self.optimal})")


def _algorithm(name: str) -> Algorithm:
    key = _ALIASES.get(str(name).lower(), str(name).lower())
    if key not in ALGORITHMS:
        raise PuzzleError(f"unknown algorithm {name!r}; choose from {', '.join(ALGORITHMS)}")
    return ALGORITHMS[key]


def _costs(costs: dict[str, float] | None) -> dict[str, float] | None:
    if costs is None:
        return None
    out = {}
    for k, v in costs.items():
        letter = normalize_moves([k])
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0 \
                or not math.isfinite(v):
            raise PuzzleError(f"move cost of {k!r} must be a positive number, got {v!r}")
        out[letter] = v
    missing = set("UDLR") - set(out)
    if missing:
        raise PuzzleError(f"costs must give every direction; missing {sorted(missing)}")
    return out


#: the searches that take move costs (`costs=`); the others count moves
COST_AWARE = ("ucs", "astar", "greedy", "weighted_astar", "idastar")

def solve(start: object, goal: object = None, *, algorithm: str = "astar",
          heuristic: str | Callable[..., float] | None = "manhattan",
          max_nodes: float | None = None, time_limit: float | None = None,
          next_states: Callable[[Any], Iterable[Any]] | None = None,
          costs: dict[str, float] | None = None, weight: float = 2.0,
          depth_limit: int | None = None, progress: object = None,
          tables: str | None = None) -> SearchResult:
    """Solve the puzzle from `start` to `goal` (default: blank last) with `algorithm`.

    algorithm: "bfs", "dfs", "dls", "iddfs", "bidirectional", "ucs", "greedy", "astar",
    "weighted_astar", "idastar", "reduction" (see `ALGORITHMS`). heuristic (informed
    searches): "zero" (or None), "hamming", "manhattan", "linear_conflict", "pdb", or a
    function h(S, goal) or h(S) (see `heuristic_choice`); the result is `optimal` only with
    an admissible one, the kit's. costs: per-direction move costs for "ucs"/"astar", keyed
    by where the blank goes (``{"up": 1, "down": 2, "left": 3, "right": 4}`` in the lecture
    slides). next_states: your own successor function (generic algorithms run on it
    instead of the built-in moves).
    max_nodes: cap on generated nodes (default 2 M for searches that store every state,
    50 M for the depth-first family; ``math.inf`` for none); time_limit in seconds. Running
    out raises `SearchLimitReached` with the partial statistics. progress: None, True, or
    a function receiving `ProgressEvent`s. tables (heuristic="pdb" only): the pattern
    databases' table set, "5-5-5" (built in seconds), "6-6-3" or "7-7-1" (see
    `puzzlekit.engine.pdb.table_set`; None: the default).
    """
    algo = _algorithm(algorithm)
    h = resolve_heuristic(heuristic)
    if tables is not None and h.name != "pdb":
        raise PuzzleError(f"tables= chooses pattern databases: it needs heuristic='pdb', "
                          f"not {h.name!r}")
    S = as_state(start)                 # the door: S and G are checked here, once
    G = goal_for(S, None if goal is None else as_state(goal))
    rows, cols = shape(S)
    if next_states is None:
        report = parity_report(S, G)
        if not report.solvable:
            raise Unsolvable("No solution possible. " + report.text)
    if algo.name == "reduction":
        return _solve_large(S, G)
    move_costs = _costs(costs)
    if move_costs is not None and algo.name not in COST_AWARE:
        raise PuzzleError(f"move costs need a cost-aware search ({', '.join(COST_AWARE)}); "
                          f"{algo.name} counts moves")
    if algo.name == "weighted_astar" and not (isinstance(weight, (int, float)) and weight >= 1):
        raise PuzzleError(f"weight must be a number ≥ 1, got {weight!r}")
    if max_nodes is None:
        max_nodes = DEFAULT_MAX_NODES[algo.memory_bound]
    elif isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, float)) or max_nodes <= 0:
        raise PuzzleError(f"max_nodes must be a positive number, got {max_nodes!r}")
    if time_limit is not None and (not isinstance(time_limit, (int, float)) or time_limit <= 0):
        raise PuzzleError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    hname = h.name if algo.informed else None
    reporter = make_reporter(progress)
    budget = Budget(algo.name, max_nodes, time_limit, reporter)
    sf, gf = flatten(S), flatten(G)

    engine = h.engine(rows, cols, tables) if (algo.name == "idastar" and move_costs is None
                                      and next_states is None) else None
    if engine is not None:          # the kit's fast IDA* (fast_idastar.py)
        letters = engine(sf, gf, rows, cols, budget)
        budget.report("done", len(letters))
        return _result(algo, hname, S, G, moves_to_path(S, letters), letters,
                       float(len(letters)), budget, optimal=h.admissible)

    P: Problem
    if next_states is None:
        P = FlatProblem(sf, gf, rows, cols, h.flat(G, tables) if algo.informed else None,
                        move_costs)
    else:
        if not callable(next_states):
            raise PuzzleError("next_states must be a function from a state to its successors")
        P = GenericProblem(S, G, next_states, h.of_state(G) if algo.informed else None)

    opts = dict(algo.options)
    if algo.name == "weighted_astar":
        opts["h_weight"] = float(weight)
    if reporter is not None:
        budget.report("nodes", 0)
    # searches allocate millions of tuples but no reference cycles: pausing the cyclic
    # garbage collector meanwhile saves 20-30 % of the time
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        assert algo.run is not None
        found = algo.run(P, budget, depth_limit=depth_limit, **opts)
    finally:
        if gc_was_enabled:
            gc.enable()
        budget.stats.elapsed = budget.elapsed()
    if found is None:
        why = (f"no path within depth {depth_limit}" if depth_limit is not None
               else "the goal was not reached")
        raise SearchLimitReached(why, budget.stats)
    if next_states is None:
        path = [unflatten(s, rows, cols) for s in found]
    else:
        path = list(found)
    try:
        moves: str | None = path_to_moves(path)
    except (PuzzleError, TypeError, IndexError, AttributeError):
        moves = None
    cost = budget.stats.extra.get("cost", float(len(path) - 1))
    optimal = algo.optimal and (not algo.informed or h.admissible)
    if reporter is not None:
        budget.report("done", len(path) - 1)
    return _result(algo, hname, S, G, path, moves, cost, budget, optimal=optimal)


def _result(algo: Algorithm, hname: str | None, S: State, G: State, path: list[State],
            moves: str | None, cost: float, budget: Budget, *, optimal: bool) -> SearchResult:
    st = budget.stats
    return SearchResult(path=path, moves=moves, length=len(path) - 1, cost=cost,
                        nodes_expanded=st.nodes_expanded, nodes_generated=st.nodes_generated,
                        max_frontier=st.max_frontier, elapsed=st.elapsed, optimal=optimal,
                        algorithm=algo.name, heuristic=hname, start=S, goal=G,
                        layer_sizes=st.extra.get("layer_sizes"))


def _solve_large(S: State, G: State) -> SearchResult:
    t0 = time.perf_counter()
    moves = line_by_line(S, G)
    path = moves_to_path(S, moves)
    algo = ALGORITHMS["reduction"]
    budget = Budget(algo.name, math.inf, None)
    budget.stats.elapsed = time.perf_counter() - t0
    return _result(algo, None, S, G, path, moves, float(len(moves)), budget, optimal=False)
