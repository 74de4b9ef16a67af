"""Core benchmarks: breadth-first search over the whole 8-puzzle, and A* on Princeton's 3×3 files.

The yardstick is the plainest fast BFS one can write in Python: flat tuples, a dict of
parents and a deque. Targets (set when the kit's searches were made fast): the lecture's
`search(nextStates, ...)` within 2× of it, `solve(algorithm="bfs")` within 1.2×, and
A*+Manhattan on every 3×3 Princeton file in under 2 s in total. Each figure is the best of a few runs (the machine is shared).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import puzzlekit as pk
from puzzlekit.puzzle.geometry import grid

#: the lecture notebook's example: 31 moves apart, so BFS visits all 181,440 states
START = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
GOAL = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
PRINCETON = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "princeton"
REPEATS = 5


def plain_bfs(start: tuple[int, ...], goal: tuple[int, ...], rows: int = 3,
              cols: int = 3) -> list[tuple[int, ...]]:
    """Breadth-first search on flat tuples with a parent dict and a deque: the yardstick."""
    neighbours = [[q for _, q in moves] for moves in grid(rows, cols).neighbors]
    parent: dict[tuple[int, ...], tuple[int, ...] | None] = {start: None}
    frontier = deque([start])
    while frontier:
        s = frontier.popleft()
        if s == goal:
            break
        z = s.index(0)
        for q in neighbours[z]:
            t = list(s)
            t[z], t[q] = t[q], 0
            t = tuple(t)
            if t not in parent:
                parent[t] = s
                frontier.append(t)
    path = [goal]
    while path[-1] != start:
        path.append(parent[path[-1]])  # type: ignore[arg-type]
    return path[::-1]


def best_time(run: Callable[[], object], repeats: int = REPEATS) -> tuple[float, object]:
    """(least CPU time of `repeats` runs, the last result).

    CPU time of this process, not wall time: the machine is shared, and other people's
    jobs would otherwise swing the ratios."""
    best, result = float("inf"), None
    for _ in range(repeats):
        t0 = time.process_time()
        result = run()
        best = min(best, time.process_time() - t0)
    return best, result


def princeton_3x3() -> list[tuple[str, pk.State]]:
    files = sorted(PRINCETON.glob("puzzle*.txt"))
    boards = [(f.name, pk.read_board(f)) for f in files]
    return [(name, S) for name, S in boards if pk.shape(S) == (3, 3) and pk.is_solvable(S)]


def astar_all(boards: list[tuple[str, pk.State]]) -> int:
    return sum(pk.solve(S, algorithm="astar", heuristic="manhattan").length for _, S in boards)


def main() -> dict:
    """Measure everything once; return the markdown rows and notes."""
    flat_start, flat_goal = pk.flatten(START), pk.flatten(GOAL)
    t_plain, path = best_time(lambda: plain_bfs(flat_start, flat_goal))
    t_lecture, lecture_path = best_time(lambda: pk.search(pk.nextStates, START, GOAL))
    t_solve, result = best_time(lambda: pk.solve(START, GOAL, algorithm="bfs"))
    t_generic, _ = best_time(lambda: pk.search(lambda S: pk.nextStates(S), START, GOAL), 1)
    assert len(path) == len(lecture_path) == result.length + 1 == 32    # type: ignore
    rows = [
        {"benchmark": "plain flat-tuple dict+deque BFS, whole 8-puzzle", "seconds": t_plain,
         "ratio": 1.0, "target": "yardstick"},
        {"benchmark": "lecture search(nextStates, start, goal)", "seconds": t_lecture,
         "ratio": t_lecture / t_plain, "target": "≤ 2×"},
        {"benchmark": "search(f, start, goal), f a student's nextStates", "seconds": t_generic,
         "ratio": t_generic / t_plain, "target": "(no target)"},
        {"benchmark": 'solve(algorithm="bfs")', "seconds": t_solve,
         "ratio": t_solve / t_plain, "target": "≤ 1.2×"},
    ]
    boards = princeton_3x3()
    if boards:
        t_astar, total = best_time(lambda: astar_all(boards))
        rows.append({"benchmark": f"A*+Manhattan on all {len(boards)} solvable 3×3 Princeton "
                                  f"files ({total} moves in all)",
                     "seconds": t_astar, "ratio": None, "target": "< 2 s in total"})
    notes = [f"Every BFS visits all {lecture_path.states_seen:,} states (start and goal "  # type: ignore
             "are 31 moves apart).",
             f"Seconds are CPU seconds of this process, the least of {REPEATS} runs "
             "(the generic loop: one run); ratios divide by the plain BFS.",
             "A student's nextStates is stood for by a wrapper around the kit's: search() "
             "then runs its generic loop on tuples of tuples instead of the flat fast path."]
    return {"title": "Core: breadth-first search and A* on the 8-puzzle", "rows": rows,
            "notes": notes}


if __name__ == "__main__":
    for row in main()["rows"]:
        print(row)  # noqa: T201
