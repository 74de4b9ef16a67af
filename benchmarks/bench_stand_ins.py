"""What a test's own function costs when the student's code calls it while grading
(`puzzlekit.autograder.judge.judge`): the same 2,000 calls from a student's loop to

* a function of the test that needs nothing of the test's (sent as code: runs in the
  kernel),
* a closure that records each call in a list of the test's (a stand-in: each call asks
  the grader over the kernel's stdin channel),
* a method of a test's object (a stand-in too),

each timed inside the graded test cell, in a walled kernel through ``WalledExecute``, in a
fresh process. Figures are medians of ``PUZZLEKIT_BENCH_ROUNDS`` rounds (default 3).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROUNDS = int(os.environ.get("PUZZLEKIT_BENCH_ROUNDS", "3"))
CALLS = 2000

MEASURE = r'''
import json, sys, tempfile
from nbformat.v4 import new_code_cell, new_notebook
from puzzlekit.autograder.judge.autograde import WalledExecute
CALLS = int(sys.argv[1])
student = "def many(f, n):\n    return sum(f(i) for i in range(n))"
test = f"""
import time
def portable(i):
    return 1
seen = []
def closure(i):
    seen.append(i)
    return 1
class Counter:
    def __init__(self):
        self.n = 0
    def tick(self, i):
        self.n += 1
        return 1
times = {{}}
for name, f in (("portable", portable), ("closure", closure), ("method", Counter().tick)):
    t = time.perf_counter()
    assert many(f, {CALLS}) == {CALLS}
    times[name] = time.perf_counter() - t
print("TIMES", times)
"""
cells = [new_code_cell(student), new_code_cell(test)]
cells[1].metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                 "points": 1, "grade_id": "t", "schema_version": 3}
nb = new_notebook(cells=cells)
nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
nb, _ = WalledExecute(timeout=600).preprocess(nb, {"metadata": {"path": tempfile.mkdtemp()}})
for output in nb.cells[1].outputs:
    if output.output_type == "stream" and "TIMES" in output.text:
        print(json.dumps(eval(output.text.split("TIMES", 1)[1].strip())))
        break
else:
    raise SystemExit(f"the test cell failed: {nb.cells[1].outputs}")
'''


def measure() -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", MEASURE, str(CALLS)], capture_output=True,
                          text=True, timeout=900, cwd=Path(__file__).resolve().parents[1])
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> dict[str, Any]:
    runs = [measure() for _ in range(ROUNDS)]
    medians = {kind: statistics.median(r[kind] for r in runs)
               for kind in ("portable", "closure", "method")}
    rows = [{"the test's function": kind, "calls": CALLS, "seconds": seconds,
             "ms per call": 1000 * seconds / CALLS} for kind, seconds in medians.items()]
    notes = [f"closure / portable: {medians['closure'] / medians['portable']:.0f}x; "
             f"{ROUNDS} rounds, medians, in one run on a shared machine."]
    return {"title": "A test's own function called by the student's code", "rows": rows,
            "notes": notes}
