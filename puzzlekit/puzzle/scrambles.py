"""Scrambled boards: the 15-puzzle notebook's `shuffle_pos`, seeded random walks, uniformly random
solvable boards, and 8-puzzle boards at an exact optimal distance from the goal."""

from __future__ import annotations

import random
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from ..errors import PuzzleError
from .board import State, flatten, goal_state, shape, unflatten, validate_state
from .exact import distance_table
from .geometry import INVERSE, grid, slide
from .solvability import is_solvable

#: the 15-puzzle notebook's moves: 0 = up (tile below the gap moves up), 1 = left,
#: 2 = down, 3 = right,
#: as the change of the gap's index on a 4×4 board.
SHIFT_4x4 = {0: 4, 1: 1, 2: -4, 3: -1}


def _allowed_4x4(gap: int) -> set[int]:
    allowed = set()
    if gap < 12:
        allowed.add(0)
    if (gap + 1) % 4 != 0:
        allowed.add(1)
    if gap > 3:
        allowed.add(2)
    if gap % 4 != 0:
        allowed.add(3)
    return allowed


#: The generator `shuffle_pos` draws from when it is given none: None means Python's global
#: `random`; while the grader runs a notebook's tests, the tests' own `random`
#: (`puzzlekit.autograder.judge.judge` sets it), so that ``random.seed(1)`` in a test seeds what it draws.
GENERATOR: ContextVar[Any] = ContextVar("puzzlekit_generator", default=None)


def shuffle_pos(N: int, *, allow_undo: bool = False, rng: Any = None) -> list:
    """The 15-puzzle notebook's scramble: N random moves from goal A (1..15, then ``' '``)
    on the 4×4 board.

    Each move is drawn with ``random.randint(0, 3)`` from Python's global generator;
    draws that are illegal at the edge, or that undo the previous move, are rejected and
    drawn again. So ``random.seed(1)`` followed by the same calls gives that notebook's asserts.
    `allow_undo`: also accept a move that undoes the previous one (a typical slip, which
    `puzzlekit.testcells.diagnose` replays). `rng`: a `random.Random` (or module) to draw from instead.
    """
    if isinstance(N, bool) or not isinstance(N, int) or N < 0:
        raise PuzzleError(f"shuffle_pos(N): N must be a non-negative int, got {N!r}")
    randint = (rng if rng is not None else GENERATOR.get() or random).randint
    p: list = list(range(1, 16)) + [" "]
    last = -1
    for _ in range(N):
        gap = p.index(" ")
        allowed = _allowed_4x4(gap)
        move = randint(0, 3)
        while move not in allowed or (abs(move - last) == 2 and not allow_undo):
            move = randint(0, 3)
        new = gap + SHIFT_4x4[move]
        p[gap], p[new] = p[new], p[gap]
        last = move
    return p


def _rng(seed: int | random.Random | None) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def random_walk(start: State, n: int, seed: int | random.Random | None = None,
                *, allow_undo: bool = False) -> tuple[State, str]:
    """(state, moves) after `n` random blank moves from `start`; never undoes the last move
    unless `allow_undo`. Deterministic for a given `seed`."""
    start = validate_state(start)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise PuzzleError(f"random_walk: n must be a non-negative int, got {n!r}")
    rng = _rng(seed)
    rows, cols = shape(start)
    nbrs = grid(rows, cols).neighbors
    s = flatten(start)
    z = s.index(0)
    moves: list[str] = []
    for _ in range(n):
        options = [(m, q) for m, q in nbrs[z]
                   if allow_undo or not moves or INVERSE[m] != moves[-1]]
        m, q = rng.choice(options)
        s, z = slide(s, z, q), q
        moves.append(m)
    return unflatten(s, rows, cols), "".join(moves)


def scramble(rows: int = 3, cols: int | None = None, moves: int = 30,
             seed: int | random.Random | None = None, goal: State | None = None) -> State:
    """A board `moves` random moves away from the goal (blank last unless `goal` is given)."""
    g = goal_state(rows, cols) if goal is None else validate_state(goal, name="goal")
    return random_walk(g, moves, seed)[0]


def random_state(rows: int = 3, cols: int | None = None,
                 seed: int | random.Random | None = None,
                 goal: State | None = None) -> State:
    """A uniformly random board among those that can reach the goal."""
    g = goal_state(rows, cols) if goal is None else validate_state(goal, name="goal")
    r, c = shape(g)
    rng = _rng(seed)
    flat = list(flatten(g))
    rng.shuffle(flat)
    S = unflatten(flat, r, c)
    if not is_solvable(S, g):
        # swapping two tiles (not the blank) flips the parity: a bijection between halves
        i, j = [k for k, x in enumerate(flat) if x != 0][:2]
        flat[i], flat[j] = flat[j], flat[i]
        S = unflatten(flat, r, c)
    return S


@lru_cache(maxsize=8)
def _layers(goal: State) -> tuple[tuple[tuple[int, ...], ...], ...]:
    table = distance_table(goal)
    layers: list[list[tuple[int, ...]]] = [[] for _ in range(max(table.values()) + 1)]
    for s, k in table.items():
        layers[k].append(s)
    return tuple(tuple(sorted(layer)) for layer in layers)


def state_at_depth(d: int, seed: int | random.Random | None = None,
                   goal: State | None = None) -> State:
    """A random 8-puzzle (or other ≤ 9-cell) board whose optimal solution has exactly `d`
    moves (0..31 for the 3×3 board with a corner goal; 0..30 with the blank in the middle)."""
    g = goal_state(3) if goal is None else validate_state(goal, name="goal")
    layers = _layers(g)
    if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < len(layers):
        raise PuzzleError(f"state_at_depth: d must be an int from 0 to {len(layers) - 1} for "
                          f"this board, got {d!r}")
    r, c = shape(g)
    return unflatten(_rng(seed).choice(layers[d]), r, c)
