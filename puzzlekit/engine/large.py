"""Big boards, fast and not optimal: solve the puzzle the way people do, line by line.

Optimal search is hopeless on a 10×10 board (about 10^158 states), but a person can still
solve it: put the top row in place and never touch it again, then the left column, and
so on, until a 2×2 corner is left. Each tile is walked to its square by moving the blank
around it (a small breadth-first search for the blank that steps around the tile and the
finished squares). The last two tiles of a line need a trick, because placing one pushes
the other out; here a tiny exact search over (blank, the two tiles) in a 3×4 window does it.

`solve_large` works for any rows×cols and any goal: the blank is first taken to the
bottom-right corner of the goal by a fixed path, the board is solved towards that, and
the path is replayed backwards at the end.
"""

from __future__ import annotations

from collections import deque

from ..errors import PuzzleError, Unsolvable
from ..puzzle.board import State, flatten, resolve_goal, shape, validate_state
from ..puzzle.geometry import INVERSE, grid, slide
from ..puzzle.solvability import parity_report


def solve_large(start: State, goal: State | None = None) -> str:
    """A legal (not necessarily shortest) move string from `start` to `goal`, any size."""
    start = validate_state(start, name="start")
    goal = resolve_goal(start, goal)
    report = parity_report(start, goal)
    if not report.solvable:
        raise Unsolvable("No solution possible. " + report.text)
    return line_by_line(start, goal)


def line_by_line(start: State, goal: State) -> str:
    """`solve_large` for boards already checked: legal, of one shape, goal reachable."""
    if start == goal:
        return ""
    rows, cols = shape(start)
    g = flatten(goal)
    # walk the goal's blank to the bottom-right corner: right, then down
    z = g.index(0)
    detour = []
    while z % cols != cols - 1:
        g, z = slide(g, z, z + 1), z + 1
        detour.append("R")
    while z // cols != rows - 1:
        g, z = slide(g, z, z + cols), z + cols
        detour.append("D")
    target = {t: p for p, t in enumerate(g)}        # tile -> its square in the corner goal
    board = _Board(rows, cols, [target[t] if t else -1 for t in flatten(start)])
    board.solve()
    return "".join(board.moves) + "".join(INVERSE[m] for m in reversed(detour))


class _Stuck(Exception):
    """A walk that cannot be done from here (the caller tries another plan)."""


class _Board:
    """A board whose tiles are named by their target square; -1 is the blank."""

    def __init__(self, rows: int, cols: int, cells: list[int]) -> None:
        self.rows, self.cols = rows, cols
        self.cells = cells
        self.where = [0] * (rows * cols)
        for p, t in enumerate(cells):
            if t >= 0:
                self.where[t] = p
        self.blank = cells.index(-1)
        self.locked = bytearray(rows * cols)
        self.moves: list[str] = []
        self.nbrs = grid(rows, cols).neighbors

    # ------------------------------------------------------------------ primitive moves

    def step(self, letter: str, q: int) -> None:
        """Move the blank to the adjacent square `q` (the tile there moves back)."""
        t = self.cells[q]
        self.cells[self.blank], self.cells[q] = t, -1
        self.where[t] = self.blank
        self.blank = q
        self.moves.append(letter)

    def route_blank(self, goal: int, avoid: tuple[int, ...] = ()) -> None:
        """Walk the blank to `goal` by a shortest path around locked squares and `avoid`."""
        start = self.blank
        if start == goal:
            return
        parent: dict[int, tuple[int, str] | None] = {start: None}
        frontier = deque([start])
        locked, nbrs = self.locked, self.nbrs
        while frontier:
            p = frontier.popleft()
            if p == goal:
                break
            for letter, q in nbrs[p]:
                if q not in parent and not locked[q] and q not in avoid:
                    parent[q] = (p, letter)
                    frontier.append(q)
        if goal not in parent:
            raise _Stuck
        path = []
        p = goal
        while (link := parent[p]) is not None:
            prev, letter = link
            path.append((letter, p))
            p = prev
        for letter, q in reversed(path):
            self.step(letter, q)

    def route_tile(self, tile: int, goal: int) -> None:
        """Walk `tile` to square `goal` one square at a time, the blank going round it."""
        locked, nbrs = self.locked, self.nbrs
        here = self.where[tile]
        if here == goal:
            return
        parent = {here: -1}
        frontier = deque([here])
        while frontier and goal not in parent:
            p = frontier.popleft()
            for _, q in nbrs[p]:
                if q not in parent and not locked[q]:
                    parent[q] = p
                    frontier.append(q)
        if goal not in parent:
            raise _Stuck
        path = [goal]
        while parent[path[-1]] != here:
            path.append(parent[path[-1]])
        for nxt in reversed(path):
            self.route_blank(nxt, avoid=(self.where[tile],))
            letter = next(m for m, q in nbrs[nxt] if q == self.where[tile])
            self.step(letter, self.where[tile])

    # ------------------------------------------------------------------ lines and corners

    def solve(self) -> None:
        top, left, bottom, right = 0, 0, self.rows, self.cols
        while bottom - top > 2 or right - left > 2:
            if bottom - top > 2 and bottom - top >= right - left:
                self.solve_line([top * self.cols + c for c in range(left, right)],
                                [(r, c) for r in range(top, top + 3)
                                 for c in range(max(left, right - 4), right)])
                top += 1
            else:
                self.solve_line([r * self.cols + left for r in range(top, bottom)],
                                [(r, c) for r in range(max(top, bottom - 4), bottom)
                                 for c in range(left, left + 3)])
                left += 1
        corner = [r * self.cols + c for r in range(top, bottom) for c in range(left, right)]
        self.window_search([t for t in corner if t != self.rows * self.cols - 1], corner)

    def solve_line(self, line: list[int], window: list[tuple[int, int]]) -> None:
        """Fix the squares of `line` (each tile's target = its square), last two together."""
        for square in line[:-2]:
            self.route_tile(square, square)
            self.locked[square] = 1
        a, b = line[-2], line[-1]
        if self.where[a] == a and self.where[b] == b:
            self.locked[a] = self.locked[b] = 1
            return
        box = [r * self.cols + c for r, c in window]
        box = [p for p in box if not self.locked[p]]
        self.gather(a, b, box)
        self.window_search([a, b], box)
        self.locked[a] = self.locked[b] = 1

    def blank_into(self, box: list[int], tiles: tuple[int, ...]) -> None:
        """Walk the blank into `box` without pushing `tiles`."""
        if self.blank not in box:
            spots = [self.where[t] for t in tiles]
            self.route_blank(next(p for p in box if p not in spots), avoid=tuple(spots))

    def gather(self, a: int, b: int, box: list[int]) -> None:
        """Bring tiles `a`, `b` and the blank into `box`; a plan that walls the blank in
        is undone and the next one tried."""
        saved = (self.cells[:], self.where[:], self.blank, len(self.moves))
        if self.where[a] in box and self.where[b] in box:
            try:
                return self.blank_into(box, (a, b))
            except _Stuck:
                pass
        spots = [p for p in reversed(box) if p not in (a, b)]
        for x in spots:
            for y in spots:
                if x == y:
                    continue
                try:
                    self.route_tile(b, x)
                    self.locked[x] = 1
                    self.route_tile(a, y)
                    self.blank_into(box, (a, b))
                    return
                except _Stuck:
                    cells, where, self.blank, n = saved
                    self.cells, self.where = cells[:], where[:]
                    del self.moves[n:]
                finally:
                    self.locked[x] = 0
        raise PuzzleError("internal: the last tiles of a line cannot be gathered")  # pragma: no cover

    def window_search(self, tiles: list[int], box: list[int]) -> None:
        """Exact BFS over (blank, positions of `tiles`) inside `box`; others don't matter."""
        inside = set(box)
        start = (self.blank, *[self.where[t] for t in tiles])
        goal = tuple(tiles)
        parent: dict[tuple[int, ...], tuple[tuple[int, ...], str, int] | None] = {start: None}
        frontier = deque([start])
        found = None
        while frontier:
            s = frontier.popleft()
            if s[1:] == goal:
                found = s
                break
            z = s[0]
            for letter, q in self.nbrs[z]:
                if q not in inside:
                    continue
                nxt = (q, *[z if p == q else p for p in s[1:]])
                if nxt not in parent:
                    parent[nxt] = (s, letter, q)
                    frontier.append(nxt)
        if found is None:
            raise PuzzleError("internal: the last tiles of a line cannot be placed")  # pragma: no cover
        steps = []
        s = found
        while parent[s] is not None:
            prev, letter, q = parent[s]        # type: ignore[misc]
            steps.append((letter, q))
            s = prev
        for letter, q in reversed(steps):
            self.step(letter, q)
