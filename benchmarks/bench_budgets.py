"""What counting computing time costs: grading an honest submission with the tests' time
limits in CPU seconds of the kernel (the course's setting) and on the clock alone.

Each round grades the reference (source) notebook of every assignment twice, in
alternation, with the course's execute step (`WalledExecute`): once as shipped (the
judge reads the kernel's CPU time from its cgroup or /proc while it waits, `KernelClock`)
and once with the kernel's clock switched off (the clock on the wall only, as before).
The issue's target: at most 10% more time per honest submission. Figures: the median
of the rounds, wall and the grader's and kernels' CPU, in one run (the machine is
shared); ``PUZZLEKIT_BENCH_ROUNDS`` rounds (default 3).
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ROUNDS = int(os.environ.get("PUZZLEKIT_BENCH_ROUNDS", "3"))
NOTEBOOKS = ("01-states-and-moves", "02-uninformed-search", "03-informed-search",
             "04-fifteen-puzzle")


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _grade(name: str, clock: bool) -> tuple[float, float, bool]:
    """(wall seconds, CPU seconds, full marks?) of grading one reference notebook."""
    import logging

    import nbformat
    from nbgrader.utils import determine_grade

    from puzzlekit.autograder.judge.autograde import WalledExecute
    nb = nbformat.read(REPO / "notebooks" / "source" / name / f"{name}.ipynb", as_version=4)
    executor = WalledExecute(timeout=30)
    if not clock:
        executor.cpu_clock = lambda: None       # type: ignore[method-assign]
    started, cpu = time.monotonic(), _cpu()
    with tempfile.TemporaryDirectory(prefix="bench-budgets-") as folder:
        nb, _ = executor.preprocess(nb, {"metadata": {"path": folder}})
    wall, used = time.monotonic() - started, _cpu() - cpu
    full = all(determine_grade(c, logging.getLogger())[0] == c.metadata["nbgrader"]["points"]
               for c in nb.cells
               if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade"))
    return wall, used, full


def main() -> dict[str, Any]:
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]
    os.environ["NBGRADER_EXECUTION"] = "autograde"
    rows = []
    totals = {True: [0.0, 0.0], False: [0.0, 0.0]}
    for name in NOTEBOOKS:
        runs: dict[bool, list[tuple[float, float, bool]]] = {True: [], False: []}
        for _ in range(ROUNDS):
            for clock in (False, True):
                runs[clock].append(_grade(name, clock))
        med = {k: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v))
               for k, v in runs.items()}
        for k in (True, False):
            totals[k][0] += med[k][0]
            totals[k][1] += med[k][1]
        rows.append({"notebook": name,
                     "clock only: wall s": med[False][0], "computing time: wall s": med[True][0],
                     "wall ratio": med[True][0] / med[False][0],
                     "clock only: CPU s": med[False][1], "computing time: CPU s": med[True][1],
                     "CPU ratio": med[True][1] / med[False][1],
                     "full marks": all(r[2] for v in runs.values() for r in v)})
    rows.append({"notebook": "all four",
                 "clock only: wall s": totals[False][0], "computing time: wall s": totals[True][0],
                 "wall ratio": totals[True][0] / totals[False][0],
                 "clock only: CPU s": totals[False][1], "computing time: CPU s": totals[True][1],
                 "CPU ratio": totals[True][1] / totals[False][1], "full marks": None})
    return {"title": "Time limits in computing time: the cost per honest submission",
            "rows": rows,
            "notes": [f"median of {ROUNDS} rounds, the two ways alternating, in one run"]}


if __name__ == "__main__":
    from benchmarks.__main__ import markdown, normalise
    print(markdown(*normalise("bench_budgets", main())))
