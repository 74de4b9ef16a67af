"""What each cell of the lecture demos (notebooks/demos/) costs a student, cold.

Every demo notebook is executed top to bottom by nbclient in a fresh kernel, as a student
runs it the first time: with an empty table cache (``PUZZLEKIT_CACHE`` pointed at a new
folder, a new one per demo), so that pattern databases are built as a first run builds them. Each code
cell's time is the kernel's own (nbclient's ``execute_input`` to ``execute_reply``).
The target (issue 32): no cell over 10 s on 2 cores.

``PUZZLEKIT_BENCH_WARM=1`` keeps the usual cache instead (a second run).
``PUZZLEKIT_BENCH_BUSY=N`` keeps N other processes spinning on the cores meanwhile (as
another job on a shared 2-core machine does: the 12.6 s of demo 02's table cell was seen so):
the report then says how each cell fares with its share of the machine.
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEMOS = REPO / "notebooks" / "demos"
TARGET = 10.0


def _seconds(cell: Any) -> float:
    times = cell.metadata.get("execution", {})
    start = times.get("iopub.execute_input")
    end = times.get("shell.execute_reply")
    if not (start and end):
        return float("nan")
    parse = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))  # noqa: E731
    return (parse(end) - parse(start)).total_seconds()


def time_demo(path: Path, cache: str | None) -> list[tuple[int, str, float]]:
    """(cell index, first line, seconds) of every code cell of one demo, run once."""
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(path, as_version=4)
    env = dict(os.environ)
    if cache is not None:
        env["PUZZLEKIT_CACHE"] = cache
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)                 # the kernel inherits this process's environment
    try:
        with tempfile.TemporaryDirectory() as work:
            NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=True,
                           resources={"metadata": {"path": work}}).execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    return [(i, c.source.splitlines()[0] if c.source else "", _seconds(c))
            for i, c in enumerate(nb.cells) if c.cell_type == "code"]


def _spin() -> None:
    while True:
        pass


@contextmanager
def busy(n: int) -> Iterator[None]:
    """n processes that spin on the cores until the block ends (a neighbour's load)."""
    import multiprocessing
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(n)]
    for p in spinners:
        p.start()
    try:
        yield
    finally:
        for p in spinners:
            p.terminate()
            p.join()


def main() -> dict[str, Any]:
    warm = os.environ.get("PUZZLEKIT_BENCH_WARM") == "1"
    spinning = int(os.environ.get("PUZZLEKIT_BENCH_BUSY", "0"))
    load_before = os.getloadavg()[0]
    rows = []
    slowest_of: dict[str, dict[str, Any]] = {}
    with busy(spinning):
        for path in sorted(DEMOS.glob("*.ipynb")):
            # each demo with a cache of its own: a student may open any of them first
            with tempfile.TemporaryDirectory() as cache:
                for index, line, seconds in time_demo(path, None if warm else cache):
                    row = {"cell": f"{path.stem[:2]} [{index}] {line[:50]}",
                           "seconds": seconds}
                    rows.append(row)
                    if path.stem not in slowest_of or seconds > slowest_of[path.stem]["seconds"]:
                        slowest_of[path.stem] = row
    slowest = max(rows, key=lambda r: r["seconds"])
    over = [r for r in rows if r["seconds"] > TARGET]
    return {"title": "The lecture demos, cell by cell, "
                     + ("warm table cache" if warm else "cold (empty table cache)")
                     + (f", {spinning} busy process(es) beside them" if spinning else ""),
            "rows": rows,
            "notes": [f"{os.cpu_count()} cores; slowest cell {slowest['seconds']:.1f} s "
                      f"({slowest['cell']}); {len(over)} cell(s) over {TARGET:.0f} s "
                      "(the target: none)",
                      "slowest of each demo: " + "; ".join(
                          f"{r['cell']} {r['seconds']:.1f} s" for r in slowest_of.values()),
                      f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after "
                      "(wall-clock times: another job on the cores stretches them)"]}


if __name__ == "__main__":
    from benchmarks.__main__ import markdown
    report = main()
    print(markdown(report["title"], report["rows"], report["notes"]))
