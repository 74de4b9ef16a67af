"""What a "see your search" cell costs (puzzlekit.testcells.see, visuals.search_view).

The course's own cells, as they run in notebooks 02, 03 and 04: each notebook's setup and
model answers are run in this process (its test cells and examples are not), then every
cell that calls ``see_search`` is timed, median of ``ROUNDS``:

- in a student's notebook (the drawing with its script), and the bytes it adds to the
  saved notebook (its outputs as JSON: HTML, text and the trace as data);
- under the autograder (``NBGRADER_EXECUTION=autograde``: static, fewer boards), plus
  the grader's redraw of it for the feedback (`sanitize.clean_data`): what grading one
  submission pays for the cell.

Also a runaway search (a BFS without a visited set on a goal it cannot reach), stopped
by the expansion limit and drawn with its first 200 expansions. The target: every cell
under 1 s on 2 cores.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ROUNDS = int(os.environ.get("PUZZLEKIT_BENCH_ROUNDS", "5"))
NOTEBOOKS = ["02-uninformed-search", "03-informed-search", "04-fifteen-puzzle"]


def _namespace(name: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The notebook's namespace after its given cells and model answers, and its
    see_search cells (grade id, source)."""
    import nbformat
    nb = nbformat.read(REPO / "notebooks" / "source" / name / f"{name}.ipynb", as_version=4)
    space: dict[str, Any] = {"__name__": "__main__", "display": lambda *a, **k: None}
    cells = []
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code":
            continue
        if "see_search(" in cell.source:
            cells.append((meta.get("grade_id", "?"), cell.source))
        elif meta.get("solution") or (meta.get("locked") and not meta.get("grade")):
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(cell.source, meta.get("grade_id", "cell"), "exec"), space)
    return space, cells


def _time(source: str, space: dict[str, Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    view = eval(compile(source.splitlines()[-1], "see", "eval"), space)
    return time.perf_counter() - t0, view


def _median(source: str, space: dict[str, Any]) -> tuple[float, Any]:
    runs = [_time(source, space) for _ in range(ROUNDS)]
    return statistics.median(t for t, _ in runs), runs[-1][1]


def main() -> dict[str, Any]:
    from puzzlekit.autograder.judge.sanitize import clean_data
    rows = []
    for name in NOTEBOOKS:
        space, cells = _namespace(name)
        for grade_id, source in cells:
            exec(source.splitlines()[0], space)              # the import line
            os.environ.pop("NBGRADER_EXECUTION", None)
            seconds, view = _median(source, space)
            size = len(json.dumps(view._repr_mimebundle_()))
            os.environ["NBGRADER_EXECUTION"] = "autograde"
            try:
                graded, static = _median(source, space)
            finally:
                os.environ.pop("NBGRADER_EXECUTION", None)
            t0 = time.perf_counter()
            clean_data(static._repr_mimebundle_())
            redraw = time.perf_counter() - t0
            rows.append({"cell": f"{name[:2]} {grade_id}", "seconds": seconds,
                         "expansions": view.trace.total, "bytes saved": size,
                         "graded s": graded, "feedback redraw s": redraw,
                         "graded bytes": len(json.dumps(static._repr_mimebundle_()))})
    from collections import deque

    import puzzlekit as pk
    from puzzlekit.testcells import see_search

    def no_visited_set(nextStates: Any, start: Any, goal: Any) -> Any:
        """A search that forgets where it has been, towards a goal it cannot reach."""
        queue = deque([start])
        while queue:
            queue.extend(nextStates(queue.popleft()))
    t0 = time.perf_counter()
    view = see_search(no_visited_set, pk.nextStates, ((1, 2, 3), (5, 4, 0)), ((1, 2, 3), (4, 5, 0)))
    rows.append({"cell": "runaway BFS (stopped at 2,000 calls)",
                 "seconds": time.perf_counter() - t0, "expansions": view.trace.total,
                 "bytes saved": len(json.dumps(view._repr_mimebundle_()))})
    slowest = max(r["seconds"] for r in rows)
    return {"title": "See your search: one drawing cell", "rows": rows,
            "notes": [f"median of {ROUNDS}; slowest cell {slowest:.3f} s (target: under 1 s)",
                      "graded s + feedback redraw s: what autograding one submission pays "
                      "per cell"]}


if __name__ == "__main__":
    from benchmarks.__main__ import markdown
    report = main()
    print(markdown(report["title"], report["rows"], report["notes"]))
