"""The reference notebooks keep full marks on a busy grading machine, graded and in the
student's live kernel: the grader and its kernels run on one core beside two processes
that compute all the time (CPU burners), so the kernel gets about a third of a core. The
tests' time limits count computing time (`puzzlekit.testcells.budget`), so no right answer
runs out of time; before they did, a kernel with a fifth of a core lost points."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from throttle import burners

pytest.importorskip("nbgrader")
pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]

HERE = Path(__file__).resolve().parent
NOTEBOOKS = ("01-states-and-moves", "02-uninformed-search", "03-informed-search",
             "04-fifteen-puzzle")
#: run in the live kernel too: the two whose tests give searches a few seconds each
LIVE = ("02-uninformed-search", "03-informed-search")


def test_the_reference_notebooks_keep_full_marks_beside_two_burners_per_core():
    cpus = os.sched_getaffinity(0)
    core = {min(cpus)}
    with burners(2, cpus=core):
        done = subprocess.run([sys.executable, str(HERE / "reference_run.py"),
                               ",".join(NOTEBOOKS), ",".join(LIVE)],
                              capture_output=True, text=True, timeout=1200,
                              preexec_fn=lambda: os.sched_setaffinity(0, core))
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    for name in NOTEBOOKS:
        want = {"graded": {}, "live": {}} if name in LIVE else {"graded": {}}
        assert results[name] == want, (name, results[name])
