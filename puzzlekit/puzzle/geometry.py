"""Move tables for a rows×cols grid, computed once per shape and shared by every search.

Positions are row-major indices. A move letter says where the **blank** goes
(the course's U/D/L/R); `neighbors[p]` lists ``(letter, q)`` for each legal move of a
blank at `p`, in the fixed order U, D, L, R so that searches are reproducible, and
`targets[p]` the same squares without their letters.

`slide(s, z, q)` is the one move of the puzzle on a flat tuple: the blank at `z` goes
to the adjacent square `q` and the tile there takes its place. The few hot loops that
write it out by hand (measured by the benchmarks) say so where they do.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import Flat

LETTERS = "UDLR"
INVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}


@dataclass(frozen=True)
class Grid:
    rows: int
    cols: int
    neighbors: tuple[tuple[tuple[str, int], ...], ...]
    step: dict[str, int]
    targets: tuple[tuple[int, ...], ...]      #: the squares of `neighbors`, no letters

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def target(self, pos: int, letter: str) -> int | None:
        """Where the blank at `pos` goes with `letter`, or None if that leaves the board."""
        r, c = divmod(pos, self.cols)
        if letter == "U":
            return pos - self.cols if r > 0 else None
        if letter == "D":
            return pos + self.cols if r < self.rows - 1 else None
        if letter == "L":
            return pos - 1 if c > 0 else None
        if letter == "R":
            return pos + 1 if c < self.cols - 1 else None
        return None


@lru_cache(maxsize=64)
def grid(rows: int, cols: int) -> Grid:
    """The shared move tables of a rows×cols board."""
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    nbrs = []
    for p in range(rows * cols):
        r, c = divmod(p, cols)
        opts = []
        if r > 0:
            opts.append(("U", p - cols))
        if r < rows - 1:
            opts.append(("D", p + cols))
        if c > 0:
            opts.append(("L", p - 1))
        if c < cols - 1:
            opts.append(("R", p + 1))
        nbrs.append(tuple(opts))
    targets = tuple(tuple(q for _, q in opts) for opts in nbrs)
    return Grid(rows, cols, tuple(nbrs), step, targets)


def slide(s: Flat, z: int, q: int) -> Flat:
    """The flat state `s` after its blank, on square `z`, moves to the adjacent square `q`."""
    t = list(s)
    t[z] = t[q]
    t[q] = 0
    return tuple(t)
