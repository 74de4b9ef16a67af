"""Heuristics: estimates of the moves still needed, never counting the blank.

- `hamming`: tiles out of place (Princeton's 8-puzzle assignment's example board scores 5);
- `manhattan`: sum of each tile's row + column distance to its goal square (scores 10);
- `linear_conflict`: Manhattan plus 2 for each tile that must leave its goal row or
  column to let another pass (still admissible).

Each works for any board and any goal. Searches use the flat, table-driven versions from
`flat_heuristic`, which update Manhattan incrementally after a move.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..errors import PuzzleError
from .board import Flat, State, flatten, resolve_goal, shape, unflatten, validate_state
from .exact import distance_table
from .geometry import grid, slide


def _prepare(S: State, goal: State | None) -> tuple[Flat, Flat, int, int]:
    S = validate_state(S)
    g = resolve_goal(S, goal)
    rows, cols = shape(S)
    return flatten(S), flatten(g), rows, cols


def hamming(S: State, goal: State | None = None) -> int:
    """Number of tiles (not the blank) that are not on their goal square."""
    s, g, _, _ = _prepare(S, goal)
    return sum(1 for a, b in zip(s, g) if a != 0 and a != b)


def manhattan(S: State, goal: State | None = None) -> int:
    """Sum over tiles (not the blank) of |row - goal row| + |col - goal col|."""
    s, g, rows, cols = _prepare(S, goal)
    return _manhattan_flat(s, _md_table(g, rows, cols))


def linear_conflict(S: State, goal: State | None = None) -> int:
    """Manhattan distance plus 2 per tile that must step out of its goal line."""
    s, g, rows, cols = _prepare(S, goal)
    return _manhattan_flat(s, _md_table(g, rows, cols)) + _conflicts(s, g, rows, cols)


def tile_distances(S: State, goal: State | None = None) -> dict[int, int]:
    """{tile: its Manhattan distance}, for overlays that explain the heuristic."""
    s, g, rows, cols = _prepare(S, goal)
    md = _md_table(g, rows, cols)
    return {t: md[t][p] for p, t in enumerate(s) if t}


def conflict_pairs(S: State, goal: State | None = None) -> list[tuple[int, int]]:
    """Pairs of tiles in their goal row (or column) but in reversed order."""
    s, g, rows, cols = _prepare(S, goal)
    goal_pos = {t: p for p, t in enumerate(g)}
    pairs = []
    for line_cells, key in _lines(rows, cols):
        tiles = [s[p] for p in sorted(line_cells)
                 if s[p] and goal_pos[s[p]] in line_cells]
        for i in range(len(tiles)):
            for j in range(i + 1, len(tiles)):
                if key(goal_pos[tiles[i]]) > key(goal_pos[tiles[j]]):
                    pairs.append((tiles[i], tiles[j]))
    return pairs


# ----------------------------------------------------------------------------- flat tables

@lru_cache(maxsize=32)
def _md_table(g: Flat, rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """md[tile][pos]: Manhattan distance of `tile` at `pos` from its goal square (0 for blank)."""
    n = rows * cols
    table = [[0] * n for _ in range(n)]
    for gp, t in enumerate(g):
        if t == 0:
            continue
        gr, gc = divmod(gp, cols)
        for p in range(n):
            r, c = divmod(p, cols)
            table[t][p] = abs(r - gr) + abs(c - gc)
    return tuple(tuple(row) for row in table)


def _manhattan_flat(s: Flat, md: tuple[tuple[int, ...], ...]) -> int:
    return sum(md[t][p] for p, t in enumerate(s) if t)


def _lines(rows: int, cols: int) -> list[tuple[frozenset[int], Callable[[int], int]]]:
    out: list[tuple[frozenset[int], Callable[[int], int]]] = []
    for r in range(rows):
        out.append((frozenset(range(r * cols, (r + 1) * cols)), lambda p: p % cols))
    for c in range(cols):
        out.append((frozenset(range(c, rows * cols, cols)), lambda p: p // cols))
    return out


def _lis(seq: list[int]) -> int:
    tails: list[int] = []
    for x in seq:
        i = bisect_left(tails, x)
        if i == len(tails):
            tails.append(x)
        else:
            tails[i] = x
    return len(tails)


def _conflicts(s: Flat, g: Flat, rows: int, cols: int) -> int:
    goal_row, goal_col = _goal_rc(g, cols)
    extra = 0
    for r in range(rows):
        keys = [goal_col[t] for t in s[r * cols:(r + 1) * cols] if t and goal_row[t] == r]
        if len(keys) > 1:
            extra += len(keys) - _lis(keys)
    for c in range(cols):
        keys = [goal_row[t] for t in s[c::cols] if t and goal_col[t] == c]
        if len(keys) > 1:
            extra += len(keys) - _lis(keys)
    return 2 * extra


@lru_cache(maxsize=32)
def _goal_rc(g: Flat, cols: int) -> tuple[dict[int, int], dict[int, int]]:
    return ({t: p // cols for p, t in enumerate(g)}, {t: p % cols for p, t in enumerate(g)})


@dataclass(frozen=True)
class FlatHeuristic:
    """A heuristic over flat states for one goal, as the search engines use it.

    `delta[t][a][b]` (when not None) is the change in h when tile `t` moves from square
    `a` to square `b`, so that a search can update h in O(1) after each move.
    """

    name: str
    h: Callable[[Flat], float]
    delta: tuple[tuple[tuple[int, ...], ...], ...] | None
    admissible: bool


def flat_heuristic(name: str, goal: State) -> FlatHeuristic:
    """The named built-in heuristic ('zero', 'hamming', 'manhattan', 'linear_conflict')."""
    g = flatten(goal)
    rows, cols = shape(goal)
    return _flat_heuristic(name, g, rows, cols)


@lru_cache(maxsize=32)
def _flat_heuristic(name: str, g: Flat, rows: int, cols: int) -> FlatHeuristic:
    if name == "zero":
        return FlatHeuristic("zero", lambda s: 0, None, True)
    if name == "hamming":
        return FlatHeuristic("hamming", lambda s: sum(1 for a, b in zip(s, g) if a and a != b),
                             None, True)
    md = _md_table(g, rows, cols)
    if name == "manhattan":
        n = rows * cols
        delta = tuple(tuple(tuple(md[t][b] - md[t][a] for b in range(n)) for a in range(n))
                      for t in range(n))
        return FlatHeuristic("manhattan", lambda s: _manhattan_flat(s, md), delta, True)
    if name == "linear_conflict":
        return FlatHeuristic("linear_conflict",
                             lambda s: _manhattan_flat(s, md) + _conflicts(s, g, rows, cols),
                             None, True)
    raise PuzzleError(f"unknown heuristic {name!r}; the flat forms are zero, hamming, "
                      "manhattan and linear_conflict")

# ------------------------------------------------------------------ probing a student's h


@dataclass(frozen=True)
class HeuristicReport:
    """What `check_heuristic` found; `ok` when no violation was seen."""

    admissible: bool
    consistent: bool
    states_checked: int
    overestimate: tuple[State, float, int] | None      #: (state, h, true distance)
    inconsistency: tuple[State, State, float, float] | None  #: (s, t, h(s), h(t))
    blank_counted: bool
    message: str

    @property
    def ok(self) -> bool:
        return self.admissible and self.consistent

    def __bool__(self) -> bool:
        return self.ok


def of_state(h: Callable[..., float], goal: State) -> Callable[[State], float]:
    """A heuristic given as ``h(S, goal)`` or ``h(S)``, as a function of the board alone.

    Which one it is, a call ``h(goal, goal)`` tells: a TypeError means ``h(S)``."""
    try:
        h(goal, goal)
    except TypeError:
        return h
    return lambda S: h(S, goal)


def check_heuristic(h: Callable[..., float], goal: State | None = None, *,
                    samples: int = 3000, seed: int = 0) -> HeuristicReport:
    """Probe a heuristic `h(S, goal)` (or `h(S)`) on the 8-puzzle against exact distances.

    Checks admissibility (h ≤ true distance) and consistency (h(s) ≤ 1 + h(t) for
    neighbours) on the goal's neighbourhood and `samples` random states, and says
    whether it seems to count the blank (h > 0 where only the blank is misplaced).
    """
    g = resolve_goal(((1, 2, 3), (4, 5, 6), (7, 8, 0)), goal)
    rows, cols = shape(g)
    table = distance_table(g)
    call = of_state(h, g)

    def unflat(f: Flat) -> State:
        return unflatten(f, rows, cols)

    rng = random.Random(seed)
    states = sorted(table)
    picks = [flatten(g)] + [s for s in states if table[s] <= 2] + rng.sample(states, min(samples, len(states)))
    targets = grid(rows, cols).targets
    over = incons = None
    blank_counted = False
    for f in picks:
        S = unflat(f)
        hv = call(S)
        if over is None and hv > table[f]:
            over = (S, hv, table[f])
        z = f.index(0)
        for q in targets[z]:
            T = unflat(slide(f, z, q))
            ht = call(T)
            if incons is None and hv > 1 + ht:
                incons = (S, T, hv, ht)
    # a board where only the blank has moved: a blank-counting h scores it > 0 needlessly
    gf = flatten(g)
    z = gf.index(0)
    for q in targets[z]:
        t = slide(gf, z, q)
        if call(unflat(t)) > _md_table(gf, rows, cols)[t[z]][z]:
            blank_counted = True
    parts = []
    if over:
        parts.append(f"not admissible: h = {over[1]} but the state is only {over[2]} moves "
                     "from the goal")
    if incons:
        parts.append(f"not consistent: h drops from {incons[2]} to {incons[3]} in one move")
    if blank_counted:
        parts.append("it seems to count the blank as a tile")
    msg = "; ".join(parts) if parts else (f"admissible and consistent on all {len(picks)} "
                                          "states checked")
    return HeuristicReport(over is None, incons is None, len(picks), over, incons,
                           blank_counted, msg)
