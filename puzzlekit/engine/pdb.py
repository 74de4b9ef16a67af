"""Additive pattern databases: with the IDA* of `fast_idastar.py`, any 15-puzzle,
optimally, in seconds.

Manhattan distance treats every tile as if it were alone on the board. A *pattern
database* (PDB) does better for a group of tiles (a *pattern*): it stores, for every way
those tiles can sit on the board, the exact number of moves **of pattern tiles** needed
to bring them home, with the other tiles treated as indistinguishable and their moves
free. Because each move moves exactly one tile, and each tile belongs to one pattern only,
the values of disjoint patterns can be *added* and the sum is still never too high
(Korf & Felner 2002, "Disjoint pattern database heuristics").

How a table is built: one backwards breadth-first search from the goal over the abstract
states (positions of the pattern tiles, position of the blank). Moving the blank onto a
non-pattern square costs 0, onto a pattern tile costs 1, so the search is a 0-1 BFS; the
stored value is the minimum over blank positions. Everything runs in numpy on a *sparse*
index: each position takes 4 bits, so pattern tile j at square p contributes
``p << 4*j``. That wastes some entries but makes the index of the next state one
addition, which is what IDA* (`fast_idastar.py`) needs per node.

The 15-puzzle uses a 6-6-3 partition cut along the columns (33.5 MB of uint8 tables; on
Korf's 100 it needs 30% fewer nodes than Korf & Felner's 6-6-3, on the hardest boards
half), plus the *reflected* lookup: the goal is symmetric about the main diagonal, so
the transposed and relabelled state is exactly as far from the goal, and IDA* takes the
larger of the two estimates. (Taking also the larger with Korf & Felner's 6-6-3, four
lookups, was measured: 40% fewer nodes on puzzle4x4-80, but twice the time per node,
so no faster; it was dropped.)

Smaller patterns: the table set "5-5-5" (3 x 1 MB, built in about 4 s) needs about 9
times the nodes of 6-6-3 but still solves a typical board in a second or two; the
lecture demos use it so that no cell waits for the 6-6-3 build (30 s to 2 minutes).

Bigger patterns: the table set "7-7-1" (two 7-tile patterns and one tile, same cut)
needs 4-7 times fewer nodes again (puzzle4x4-80: 87 million nodes, 21 s, against
644 million with 6-6-3). The 0-1 BFS would need a 4 GB array for seven tiles plus the
blank, so these tables are built over (placement, the blank's *region*) instead; see
`_component_bfs_table`: 2 x 256 MB of tables, about 2.5 minutes of CPU and 1.6 GB of
memory, once. Nothing builds them unasked (see `table_set`).

Why not Korf & Felner's 7-8? Its 8-tile table would need 2**32 entries with the index
above, and its BFS 16!/8! placements times the blank's regions (over 1e9 states).
Dropping the blank instead (a pattern tile may slide onto any square no other pattern
tile holds; admissible, since each real move is such a slide or moves no pattern tile)
is much weaker: on Korf's 100 starts the blank-free 6-6-3 averages 39.5 (with
reflection) against 42.8 for the one tracking the blank, and a blank-free 7-7-1 only
40.4, with 9 times the nodes of 6-6-3 on Korf's first ten.

Tables are cached on disk (``$PUZZLEKIT_CACHE``, else
``$XDG_CACHE_HOME/puzzlekit``, else ``~/.cache/puzzlekit``). Any goal is served: a goal
with the blank in a corner is mapped onto the blank-first goal by a symmetry of the
board and a relabelling of the tiles; other goals get their own tables.

Per node the search does plain Python int and list work only: the tables are `bytes`.
`pdb_heuristic` serves the other searches (A*, ...) with the same tables.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import PuzzleError
from ..puzzle.board import Flat, State, flatten, shape, validate_state
from ..puzzle.geometry import grid
from ..puzzle.heuristics import FlatHeuristic
from .progress import ProgressEvent, Reporter, make_reporter

MAX_CELLS = 16         #: tables use 4 bits per square, so boards up to 16 squares
BITS = 4

# The 15-puzzle's 6-6-3 partition, as goal squares (blank at square 0), cut along the
# columns; on the right Korf & Felner's, which needs 1.4 to 2 times the nodes:
#   .  B  A  A        .  B  B  A
#   B  B  A  A        B  B  A  A
#   B  B  A  A        B  B  A  A
#   B  C  C  C        C  C  C  A
PARTITION_4x4 = ((2, 3, 6, 7, 10, 11), (1, 4, 5, 8, 9, 12), (13, 14, 15))
PARTITION_4x4_KF = ((3, 6, 7, 10, 11, 15), (1, 2, 4, 5, 8, 9), (12, 13, 14))
# The same cut with seven tiles a side: 2 x 256 MB of tables, 2.5 minutes of CPU to
# build (the blank's regions, see `_component_bfs_table`); built only when asked for.
#   .  B  A  A
#   B  B  A  A
#   B  B  A  A
#   B  B  C  A
PARTITION_4x4_BIG = ((2, 3, 6, 7, 10, 11, 15), (1, 4, 5, 8, 9, 12, 13), (14,))
# Three five-tile patterns: 3 x 1 MB of tables, built in about 4 s (the demos use them, so
# that no cell waits half a minute; IDA* needs about 9 times the nodes of 6-6-3).
#   .  A  A  A
#   B  A  A  C
#   B  B  C  C
#   B  B  C  C
PARTITION_4x4_SMALL = ((1, 2, 3, 5, 6), (4, 8, 9, 12, 13), (7, 10, 11, 14, 15))
#: the choices of `tables` (see `table_set`) and the partition each one uses
TABLE_SETS = {"6-6-3": "main", "7-7-1": "big", "5-5-5": "small"}


# ----------------------------------------------------------------------------- patterns

@dataclass(frozen=True)
class Pattern:
    """One pattern database: the goal squares of its tiles and its table of move counts.

    ``table[index]`` is the number of pattern-tile moves needed, where
    ``index = sum(square_of_tile_j << 4*j)``; 255 marks positions that cannot occur.
    """

    rows: int
    cols: int
    blank: int                    #: goal square of the blank
    cells: tuple[int, ...]        #: goal squares of the pattern's tiles, in slot order
    table: bytes = field(repr=False)

    def index(self, squares: Sequence[int]) -> int:
        """Table index of the pattern tiles standing on `squares` (in slot order)."""
        return sum(p << (BITS * j) for j, p in enumerate(squares))

    def value(self, squares: Sequence[int]) -> int:
        """Moves of pattern tiles needed when its tiles stand on `squares`."""
        return self.table[self.index(squares)]


def cache_dir() -> Path:
    """Where built tables are kept: $PUZZLEKIT_CACHE, $XDG_CACHE_HOME/puzzlekit or ~/.cache."""
    env = os.environ.get("PUZZLEKIT_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) / "puzzlekit" if xdg else Path.home() / ".cache" / "puzzlekit"


def _cache_file(rows: int, cols: int, blank: int, cells: tuple[int, ...]) -> Path:
    name = f"pdb-{rows}x{cols}-b{blank}-" + "_".join(map(str, cells)) + ".bin"
    return cache_dir() / name


@dataclass
class BuildReport:
    """What building one table cost: seconds, abstract states, peak working memory."""

    cells: tuple[int, ...]
    seconds: float
    states: int
    max_value: int
    work_bytes: int       #: the distance array of the BFS (the largest allocation)
    table_bytes: int
    cached: bool


BUILD_LOG: list[BuildReport] = []   #: one report per table built or loaded in this process


def build_pattern(rows: int, cols: int, blank: int, cells: Sequence[int], *,
                  progress: Reporter | None = None, use_cache: bool = True) -> Pattern:
    """The pattern database of the tiles whose goal squares are `cells` (blank at `blank`).

    Loaded from the disk cache when there; else built by 0-1 BFS and saved. Taught in
    assignment 4, exercise 4.
    """
    cells = tuple(cells)
    n = rows * cols
    if n > MAX_CELLS:
        raise PuzzleError(f"pattern databases are for boards of at most {MAX_CELLS} squares; "
                          f"this one is {rows}×{cols}")
    if blank in cells or len(set(cells)) != len(cells) or not all(0 <= c < n for c in cells):
        raise PuzzleError(f"bad pattern {cells} for a {rows}×{cols} board with the blank "
                          f"at square {blank}")
    path = _cache_file(rows, cols, blank, cells)
    size = 1 << (BITS * len(cells))
    if use_cache and path.exists() and path.stat().st_size == size:
        t0 = time.perf_counter()
        table = path.read_bytes()
        BUILD_LOG.append(BuildReport(cells, time.perf_counter() - t0, 0, _max_value(table),
                                     0, size, True))
        return Pattern(rows, cols, blank, cells, table)
    build = _component_bfs_table if len(cells) >= 7 else _bfs_table   # 4 GB otherwise
    if progress is not None:
        progress = _labelled(progress, f"table of tiles {tile_names(blank, cells)}")
    table = build(rows, cols, blank, cells, progress)
    if use_cache:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp{os.getpid()}")
            tmp.write_bytes(table)
            tmp.replace(path)
        except OSError:
            pass            # a read-only cache only costs a rebuild next time
    return Pattern(rows, cols, blank, cells, table)


def tile_names(blank: int, cells: Sequence[int]) -> str:
    """The tiles whose goal squares are `cells` in the ordered goal with the blank on
    `blank`: '1, 2, 5, 6, 9, 10' (tiles are numbered in reading order, skipping the blank)."""
    return ", ".join(str(c + 1 if c < blank else c) for c in sorted(cells))


def _labelled(progress: Reporter, label: str) -> Reporter:
    """`progress`, with each event's name replaced by `label` (the table being built)."""
    return lambda e: progress(dataclasses.replace(e, algorithm=label))


def _max_value(table: bytes) -> int:
    """The largest entry other than 255 (numpy: a 7-tile table has 2**28 entries)."""
    import numpy as np
    return int((np.frombuffer(table, dtype=np.uint8) + np.uint8(1)).max()) - 1


def _bfs_table(rows: int, cols: int, blank: int, cells: tuple[int, ...],
               progress: Reporter | None) -> bytes:
    """0-1 BFS over (pattern squares, blank square), minimised over the blank."""
    import numpy as np

    t0 = time.perf_counter()
    k = len(cells)
    shift = BITS * k                       # the blank's field sits above the tiles'
    n = rows * cols
    dist = np.full(1 << (shift + BITS), 255, dtype=np.uint8)
    start = sum(p << (BITS * j) for j, p in enumerate(cells)) + (blank << shift)
    dist[start] = 0
    nbrs = grid(rows, cols).targets
    d, states = 0, 0
    frontier = np.array([start], dtype=np.int32)
    while frontier.size:
        # level d+1 is only ever written as a pattern tile's move from level d, so the
        # next frontier is those moves' targets that kept d+1 (no scan of the whole table)
        reached: list[Any] = []
        while frontier.size:                              # close level d under free moves
            states += frontier.size
            free = []
            bounds = np.searchsorted(frontier, [b << shift for b in range(n + 1)])
            for b in range(n):
                group = frontier[bounds[b]:bounds[b + 1]]
                if group.size == 0:
                    continue
                fields = [(group >> (BITS * j)) & 15 for j in range(k)]
                for q in nbrs[b]:
                    hit = [f == q for f in fields]
                    occupied = np.logical_or.reduce(hit)
                    moved = group + ((q - b) << shift)
                    step = sum(h * np.int32((b - q) << (BITS * j)) for j, h in enumerate(hit))
                    one = (moved + step)[occupied]           # a pattern tile slides: cost 1
                    one = one[dist[one] == 255]
                    dist[one] = d + 1
                    reached.append(one)
                    zero = moved[~occupied]                  # the blank passes a stranger: free
                    zero = zero[dist[zero] > d]
                    dist[zero] = d
                    free.append(zero)
            frontier = _sorted_set(np.concatenate(free)) if free else frontier[:0]
        if progress is not None:
            progress(_event("pdb-build", "layer", d, states, time.perf_counter() - t0))
        d += 1
        if reached:
            frontier = _sorted_set(np.concatenate(reached))
            frontier = frontier[dist[frontier] == d].astype(np.int32)
    table = dist.reshape(1 << BITS, 1 << shift).min(axis=0)
    BUILD_LOG.append(BuildReport(cells, time.perf_counter() - t0, states, int(d - 1),
                                 dist.nbytes, table.nbytes, False))
    return table.tobytes()


def _component_bfs_table(rows: int, cols: int, blank: int, cells: tuple[int, ...],
                         progress: Reporter | None, chunk: int = 1 << 21) -> bytes:
    """The same table as `_bfs_table`, in far less memory: for big patterns (7 tiles).

    The blank moves for free inside its *region* (the squares it reaches without moving a
    pattern tile), so an abstract state is a placement of the tiles plus a region, named
    by its lowest square: a 16-bit mask per placement records the regions seen. A move
    slides a tile that borders the region into it (cost 1); the blank's new region grows
    from the square the tile left. Memory: 3 bytes per index (2**28 of them for 7 tiles)
    instead of 16.
    """
    import numpy as np

    t0 = time.perf_counter()
    k, n = len(cells), rows * cols
    full = (1 << n) - 1
    left_ok = sum(1 << p for p in range(n) if p % cols)           # squares with a left
    right_ok = sum(1 << p for p in range(n) if p % cols != cols - 1)
    low = np.zeros(1 << n, dtype=np.int64)                        # lowest set bit
    for b in range(n - 1, -1, -1):
        low[1 << b::1 << (b + 1)] = b

    def region(seed: Any, free: Any) -> Any:
        m = seed
        while True:
            grown = (m | (m >> cols) | ((m << cols) & full) | ((m & left_ok) >> 1)
                     | ((m & right_ok) << 1)) & free
            if np.array_equal(grown, m):
                return m
            m = grown

    nbr = np.full((4, 16), -1, dtype=np.int64)
    for sq, qs in enumerate(grid(rows, cols).targets):
        for i, q in enumerate(qs):
            nbr[i, sq] = q
    seen = np.zeros(1 << (BITS * k), dtype=np.uint16)
    value = np.full(1 << (BITS * k), 255, dtype=np.uint8)
    start = sum(p << (BITS * j) for j, p in enumerate(cells))
    occ0 = sum(1 << p for p in cells)
    reg0 = region(np.array([1 << blank], dtype=np.int64), np.int64(full & ~occ0))
    seen[start] = 1 << int(low[reg0[0]])
    value[start] = 0
    P, R = np.array([start], dtype=np.int64), reg0
    d, states = 0, 0
    while P.size:
        states += P.size
        nexts: list[tuple[Any, Any]] = []
        for c in range(0, P.size, chunk):
            p, r = P[c:c + chunk].astype(np.int64), R[c:c + chunk].astype(np.int64)
            f = [(p >> (BITS * j)) & 15 for j in range(k)]
            occ = np.zeros(p.size, dtype=np.int64)
            for fj in f:
                occ |= np.int64(1) << fj
            for j in range(k):
                for i in range(4):
                    s = nbr[i][f[j]]
                    ok = (s >= 0) & (((r >> np.maximum(s, 0)) & 1) == 1)
                    if not ok.any():
                        continue
                    sj, fj = s[ok], f[j][ok]
                    q = p[ok] + ((sj - fj) << (BITS * j))
                    new_occ = occ[ok] - (np.int64(1) << fj) + (np.int64(1) << sj)
                    rq = region(np.int64(1) << fj, full & ~new_occ)
                    bit = np.left_shift(1, low[rq]).astype(np.uint16)
                    fresh = (seen[q] & bit) == 0
                    q, rq, bit = q[fresh], rq[fresh], bit[fresh]
                    _, first = np.unique(q * 16 + low[rq], return_index=True)
                    q, rq, bit = q[first], rq[first], bit[first]
                    np.bitwise_or.at(seen, q, bit)
                    nexts.append((q.astype(np.int32), rq.astype(np.uint16)))
        if nexts:
            P = np.concatenate([a for a, _ in nexts])
            R = np.concatenate([b for _, b in nexts])
            del nexts
            value[P[value[P] == 255]] = d + 1
        else:
            P = P[:0]
        if progress is not None:
            progress(_event("pdb-build", "layer", d, states, time.perf_counter() - t0))
        d += 1
    BUILD_LOG.append(BuildReport(cells, time.perf_counter() - t0, states,
                                 int(value[value < 255].max()),
                                 seen.nbytes + value.nbytes, value.nbytes, False))
    return value.tobytes()


def _sorted_set(a: Any) -> Any:
    import numpy as np
    a.sort()
    keep = np.empty(a.size, dtype=bool)
    keep[:1] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def _event(algorithm: str, kind: str, value: float, nodes: int, elapsed: float) -> ProgressEvent:
    return ProgressEvent(algorithm, kind, value, nodes, elapsed)


# ------------------------------------------------------------- goals, symmetry, partitions

def _symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """The board's symmetries as square permutations: sigma[p] = image of square p."""
    def perm(f: Callable[[int, int], tuple[int, int]], out_cols: int) -> tuple[int, ...]:
        return tuple(f(*divmod(p, cols))[0] * out_cols + f(*divmod(p, cols))[1]
                     for p in range(rows * cols))
    R, C = rows - 1, cols - 1
    syms = [perm(lambda r, c: (r, c), cols), perm(lambda r, c: (R - r, c), cols),
            perm(lambda r, c: (r, C - c), cols), perm(lambda r, c: (R - r, C - c), cols)]
    if rows == cols:
        syms += [perm(lambda r, c: (c, r), cols), perm(lambda r, c: (C - c, R - r), cols),
                 perm(lambda r, c: (c, R - r), cols), perm(lambda r, c: (C - c, r), cols)]
    return syms


def _partition(rows: int, cols: int, blank: int,
               name: str = "main") -> tuple[tuple[int, ...], ...]:
    """The column-cut 6-6-3 for the 15-puzzle; elsewhere row-major groups of ≤ 5 tiles.

    name "big": the 7-7-1 column cut; elsewhere row-major groups of ≤ 7 tiles.
    name "small": three five-tile patterns for the 15-puzzle; elsewhere as "main".
    """
    if name not in ("main", "big", "small"):
        raise PuzzleError(f"unknown partition {name!r}")
    if (rows, cols, blank) == (4, 4, 0):
        return {"big": PARTITION_4x4_BIG, "small": PARTITION_4x4_SMALL}.get(name, PARTITION_4x4)
    cells = [c for c in range(rows * cols) if c != blank]
    groups = -(-len(cells) // (7 if name == "big" else 5))
    size = -(-len(cells) // groups)
    return tuple(tuple(cells[i:i + size]) for i in range(0, len(cells), size))


@dataclass(frozen=True)
class Databases:
    """The additive tables for one board shape and one goal square of the blank.

    Tiles are named by their goal square ("labels"); `pattern_of[label]` and
    `weight[label]` (= 16**slot) locate a tile's field in its pattern's index.
    """

    rows: int
    cols: int
    blank: int
    patterns: tuple[Pattern, ...]
    pattern_of: tuple[int, ...]
    weight: tuple[int, ...]
    reflect: tuple[int, ...] | None   #: transpose of squares, when the goal allows it

    @property
    def nbytes(self) -> int:
        return sum(len(p.table) for p in self.patterns)

    def indices(self, pos: Sequence[int]) -> list[int]:
        """Each pattern's index, given `pos[label]` = square of each tile."""
        return [sum(pos[c] << (BITS * j) for j, c in enumerate(p.cells)) for p in self.patterns]

    def reflected_indices(self, pos: Sequence[int],
                          T: Sequence[int] | None = None) -> list[int]:
        """The indices of the board transposed (and its tiles renamed to match)."""
        T = T or self.reflect
        assert T is not None
        return [sum(T[pos[T[c]]] << (BITS * j) for j, c in enumerate(p.cells))
                for p in self.patterns]

    def value(self, ix: Sequence[int]) -> int:
        return sum(p.table[i] for p, i in zip(self.patterns, ix))


_DATABASES: dict[tuple[int, int, int, str], Databases] = {}


def databases(rows: int, cols: int, blank: int = 0, *, partition: str = "main",
              progress: object = None) -> Databases:
    """The pattern databases for goals with the blank on `blank` (built or loaded once).

    partition: "main", "big" or "small" (see `_partition`).
    progress: None, True (a progress line or bar) or a function of a `ProgressEvent`;
    a build reports each finished BFS layer as kind "layer", and "done" at the end.
    """
    key = (rows, cols, blank, partition)
    if key not in _DATABASES:
        progress = make_reporter(progress)
        parts = _partition(rows, cols, blank, partition)
        if progress is not None and not _ready(rows, cols, blank, partition):
            print(f"Building the {len(parts)} pattern databases of the {rows}×{cols} puzzle: "
                  f"the first time only (seconds to minutes).\nThey are saved in "
                  f"{_cache_file(rows, cols, blank, parts[0]).parent} and load in a moment "
                  f"after that.", flush=True)
        t0, logged = time.perf_counter(), len(BUILD_LOG)
        pats = tuple(build_pattern(rows, cols, blank, cells, progress=progress)
                     for cells in parts)
        built = [r for r in BUILD_LOG[logged:] if not r.cached]
        if progress is not None and built:
            seconds = time.perf_counter() - t0
            progress(_event("pdb-build", "done", len(built), sum(r.states for r in built),
                            seconds))
            print(f"Built {len(built)} pattern database{'s' if len(built) > 1 else ''} in "
                  f"{seconds:.1f} s; the search itself follows.", flush=True)
        n = rows * cols
        pattern_of, weight = [0] * n, [0] * n
        for i, cells in enumerate(parts):
            for j, c in enumerate(cells):
                pattern_of[c], weight[c] = i, 1 << (BITS * j)
        T = _symmetries(rows, cols)[4] if rows == cols else None
        if T is not None and T[blank] != blank:
            T = None
        _DATABASES[key] = Databases(rows, cols, blank, pats, tuple(pattern_of), tuple(weight),
                                    T)
    return _DATABASES[key]


def ready(goal: State, tables: str | None = None) -> bool:
    """True when the tables for `goal` are loaded or on disk (no long build is needed).

    tables: a table set, or None for the one a search would use (see `table_set`).
    """
    goal = validate_state(goal, name="goal")
    rows, cols = shape(goal)
    if rows * cols > MAX_CELLS:
        return False
    blank = frame(flatten(goal), rows, cols).blank
    return _ready(rows, cols, blank, TABLE_SETS[table_set(tables, rows, cols, blank)])


def _ready(rows: int, cols: int, blank: int, partition: str) -> bool:
    return (rows, cols, blank, partition) in _DATABASES or all(
        _cache_file(rows, cols, blank, cells).exists()
        for cells in _partition(rows, cols, blank, partition))


def table_set(tables: str | None = None, rows: int = 4, cols: int = 4, blank: int = 0) -> str:
    """The table set a search uses: `tables` if given, else $PUZZLEKIT_PDB, else "7-7-1"
    when its tables are already built (on disk or loaded), else "6-6-3".

    "7-7-1" needs 0.5 GB of tables and minutes to build, so nothing builds it unasked.
    """
    tables = tables or os.environ.get("PUZZLEKIT_PDB") or None
    if tables is None:
        tables = "7-7-1" if _ready(rows, cols, blank, "big") else "6-6-3"
    if tables not in TABLE_SETS:
        raise PuzzleError(f"unknown pattern database set {tables!r}; choose one of "
                          f"{', '.join(TABLE_SETS)}")
    return tables


@dataclass(frozen=True)
class Frame:
    """How one goal maps onto the tables: a board symmetry and a renaming of the tiles."""

    sigma: tuple[int, ...]        #: original square -> canonical square
    label: dict[int, int]         #: tile -> its canonical goal square
    blank: int                    #: the blank's canonical goal square

    def board(self, s: Flat) -> list[int]:
        """The canonical board: board[square] = label of the tile on it (blank: own label)."""
        out = [0] * len(s)
        for p, t in enumerate(s):
            out[self.sigma[p]] = self.label[t] if t else self.blank
        return out


def frame(goal: Flat, rows: int, cols: int) -> Frame:
    """Map `goal` onto a canonical goal: blank in square 0 when it sits in a corner."""
    z = goal.index(0)
    sigma = next((s for s in _symmetries(rows, cols) if s[z] == 0), _symmetries(rows, cols)[0])
    label = {t: sigma[p] for p, t in enumerate(goal) if t}
    return Frame(sigma, label, sigma[z])


def pdb_heuristic(goal: State, tables: str | None = None) -> FlatHeuristic:
    """The additive PDB heuristic (max with its reflection) for `goal`, on flat states.

    tables: "6-6-3", "7-7-1" or None; see `table_set`.
    """
    goal = validate_state(goal, name="goal")
    return flat_pdb_heuristic(flatten(goal), *shape(goal), tables)


def flat_pdb_heuristic(g: Flat, rows: int, cols: int, tables: str | None = None
                       ) -> FlatHeuristic:
    """`pdb_heuristic` for a goal already checked, given flat."""
    if rows * cols > MAX_CELLS:
        raise PuzzleError(f"pattern databases are for boards of at most {MAX_CELLS} squares "
                          f"(up to 4×4); this goal is {rows}×{cols}")
    fr = frame(g, rows, cols)
    db = databases(rows, cols, fr.blank,
                   partition=TABLE_SETS[table_set(tables, rows, cols, fr.blank)])

    def h(s: Flat) -> int:
        pos = [0] * len(s)
        for sq, lab in enumerate(fr.board(s)):
            pos[lab] = sq
        v = db.value(db.indices(pos))
        if db.reflect is not None:
            v = max(v, db.value(db.reflected_indices(pos)))
        return v

    return FlatHeuristic("pdb", h, None, True)
