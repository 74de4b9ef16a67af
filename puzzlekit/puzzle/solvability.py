"""Which boards can reach which goals, decided by parity alone (no search).

Number the tiles by where they stand in the goal and read the start row by row, skipping
the blank. An *inversion* is a pair of tiles in the wrong order. A horizontal move never
changes the inversions; a vertical move jumps one tile over ``cols - 1`` others. So:

- odd width (3×3, 5×5): solvable iff start and goal have inversions of the same parity;
- even width (4×4, 2×2): solvable iff inversions + rows between the two blanks is even.

This holds for every rows×cols board from 2×2 up and every goal.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import State, flatten, resolve_goal, shape, validate_state


def count_inversions(seq: list[int]) -> int:
    """Pairs i < j with seq[i] > seq[j] (merge sort, O(n log n))."""
    def sort(a: list[int]) -> tuple[list[int], int]:
        if len(a) <= 1:
            return a, 0
        mid = len(a) // 2
        left, x = sort(a[:mid])
        right, y = sort(a[mid:])
        merged, inv, i, j = [], x + y, 0, 0
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                merged.append(left[i])
                i += 1
            else:
                merged.append(right[j])
                inv += len(left) - i
                j += 1
        merged += left[i:] + right[j:]
        return merged, inv
    return sort(list(seq))[1]


def inversions(S: State, goal: State | None = None) -> int:
    """Inversions of `S` with tiles ranked by their place in `goal` (blank skipped).

    With the default goal this is the textbook count (the lecture slides' ``num_inversions``).
    """
    S = validate_state(S)
    return _inversions(S, resolve_goal(S, goal))


def _inversions(S: State, goal: State) -> int:
    rank = {t: i for i, t in enumerate(flatten(goal))}
    return count_inversions([rank[t] for t in flatten(S) if t != 0])


@dataclass(frozen=True)
class SolvabilityReport:
    solvable: bool
    rows: int
    cols: int
    inversions: int          #: of the start, tiles ranked by goal position
    goal_inversions: int     #: always 0 with goal ranking; kept for the textbook form
    blank_row: int           #: 0-based row of the blank in the start
    goal_blank_row: int
    text: str

    def __bool__(self) -> bool:
        return self.solvable

    def __str__(self) -> str:
        return self.text


def explain_solvability(S: State, goal: State | None = None) -> SolvabilityReport:
    """Decide solvability and explain it in words a student can check by hand."""
    S = validate_state(S)
    return parity_report(S, resolve_goal(S, goal))


def parity_report(S: State, g: State) -> SolvabilityReport:
    """`explain_solvability` for two boards already checked (legal, of one shape)."""
    rows, cols = shape(S)
    inv = _inversions(S, g)
    br, gr = flatten(S).index(0) // cols, flatten(g).index(0) // cols
    lines = [f"Read the board row by row, skipping the blank, with each tile numbered by its "
             f"place in the goal: {inv} pair(s) stand in the wrong order (inversions); the "
             f"goal has 0."]
    if cols % 2 == 1:
        ok = inv % 2 == 0
        lines.append(f"The board is {cols} wide (odd), so a vertical move jumps a tile over "
                     f"{cols - 1} others and the inversion count keeps its parity: it is "
                     f"{'even' if inv % 2 == 0 else 'odd'} here and even in the goal.")
    else:
        dist = abs(br - gr)
        ok = (inv + dist) % 2 == 0
        lines.append(f"The board is {cols} wide (even), so each vertical move changes the "
                     f"inversions by an odd number and moves the blank one row: inversions + "
                     f"blank rows from the goal row = {inv} + {dist} = {inv + dist}, which is "
                     f"{'even' if (inv + dist) % 2 == 0 else 'odd'}.")
    lines.append("So the goal can be reached." if ok else
                 "So the goal cannot be reached: no sequence of moves changes this parity.")
    return SolvabilityReport(ok, rows, cols, inv, 0, br, gr, " ".join(lines))


def is_solvable(S: State, goal: State | None = None) -> bool:
    """True if `goal` (default: blank last) can be reached from `S`."""
    return explain_solvability(S, goal).solvable


def permutation_sign(perm: list[int]) -> int:
    """+1 for an even permutation, -1 for an odd one (Princeton's 8-puzzle assignment's sgn)."""
    return -1 if count_inversions(perm) % 2 else 1
