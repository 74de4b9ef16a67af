"""What the wall costs per kernel: the launcher alone, a walled kernel's whole life
(a one-cell notebook through ``WalledExecute``: scratch, copy, start, agent, end, clean-up)
against a plain kernel's, an honest notebook graded right after one that left two CPU burners
running (the issue saw 2.5x), and honest reference submissions graded through nbgrader.

Every measure runs in a fresh process, timed after its imports. With
``PUZZLEKIT_BENCH_BEFORE=/path/to/older/venv/bin/python`` (a checkout of an earlier
version with its own virtualenv, run from that checkout's folder) each measure is also
taken there, in alternation with this one, in the same run: before -> after on the same
busy machine. Figures are medians of ``PUZZLEKIT_BENCH_ROUNDS`` rounds (default 5; the
grading measure uses at most 3).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ROUNDS = int(os.environ.get("PUZZLEKIT_BENCH_ROUNDS", "5"))

MEASURE = r'''
import json, os, shutil, subprocess, sys, tempfile, time
from pathlib import Path
kind = sys.argv[1]
base = Path(tempfile.mkdtemp(prefix="bench-wall-"))
try:
    if kind == "launcher":
        from puzzlekit.autograder.wall import WallConfig, wall_argv
        argv = [*wall_argv(str(base / "s"), WallConfig()), sys.executable, "-c", "pass"]
        t = time.perf_counter()
        subprocess.run(argv, check=True)
        seconds = time.perf_counter() - t
    elif kind in ("plain kernel", "walled kernel"):
        from nbformat.v4 import new_code_cell, new_notebook
        nb = new_notebook(cells=[new_code_cell("x = 6 * 7")])
        nb.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                     "display_name": "Python 3"}
        resources = {"metadata": {"path": str(base)}}
        if kind == "walled kernel":
            from puzzlekit.autograder.judge.autograde import WalledExecute
            executor = WalledExecute(timeout=30)
        else:
            from nbgrader.preprocessors import Execute
            executor = Execute(timeout=30)
        t = time.perf_counter()
        executor.preprocess(nb, resources)
        seconds = time.perf_counter() - t
    elif kind == "honest after a burner":
        # a notebook whose cell leaves two double-forked, setsid, SIGTERM-ignoring CPU
        # burners, then an honest CPU-bound notebook: timed, the second one only
        from nbformat.v4 import new_code_cell, new_notebook
        from puzzlekit.autograder.judge.autograde import WalledExecute
        token = f"bench-wall-burner-{os.getpid()}"
        burner = ("import os, signal, sys\nfor _ in range(2):\n    if os.fork() == 0:\n"
                  "        os.setsid()\n        if os.fork() == 0:\n"
                  "            signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                  "            os.execv(sys.executable, [sys.executable, '-c', "
                  f"'while True: pass', {token!r}])\n        os._exit(0)\n    os.wait()")
        def notebook(source):
            nb = new_notebook(cells=[new_code_cell(source)])
            nb.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                         "display_name": "Python 3"}
            return nb
        resources = {"metadata": {"path": str(base)}}
        WalledExecute(timeout=30).preprocess(notebook(burner), resources)
        t = time.perf_counter()
        WalledExecute(timeout=120).preprocess(
            notebook("sum(i * i for i in range(3 * 10 ** 7))"), resources)
        seconds = time.perf_counter() - t
        left = []
        for entry in os.listdir("/proc"):
            try:
                if entry.isdigit() and token.encode() in open(f"/proc/{entry}/cmdline",
                                                              "rb").read():
                    left.append(int(entry))
            except OSError:
                pass
        for pid in left:
            os.kill(pid, 9)
        print("SCORE", f"{len(left)} left running")
    else:   # "grade NAME": an honest reference submission of assignment NAME, autograded
        from benchmarks.bench_grading import _api, _course
        name = kind.split()[1]
        assignments = _course(base)
        api = _api(base, walled=True)
        t = time.perf_counter()
        result = api.autograde(name, "walled", force=True)
        seconds = time.perf_counter() - t
        assert result["success"], result.get("log")
        with api.gradebook as gb:
            score = gb.find_submission(name, "walled").code_score
        print("SCORE", score)
finally:
    shutil.rmtree(base, ignore_errors=True)
print("SECONDS", seconds)
'''


def _measure(python: str, cwd: Path, kind: str) -> tuple[float, str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1",
           "PATH": str(Path(python).parent) + os.pathsep + os.environ.get("PATH", "")}
    proc = subprocess.run([python, "-c", MEASURE, kind], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines()
                 if line.startswith(("SECONDS ", "SCORE ")))
    if "SECONDS" not in lines:
        raise RuntimeError(f"{kind} in {python} failed:\n{proc.stderr[-3000:]}")
    return float(lines["SECONDS"]), lines.get("SCORE", "")


def main() -> dict[str, Any]:
    before = os.environ.get("PUZZLEKIT_BENCH_BEFORE")
    versions = {"after": (sys.executable, REPO)}
    if before:
        versions = {"before": (before, Path(os.path.abspath(before)).parents[2]), **versions}
    kinds = os.environ.get("PUZZLEKIT_BENCH_KINDS", "launcher,plain kernel,walled kernel,"
                           "honest after a burner").split(",")
    grading = os.environ.get("PUZZLEKIT_BENCH_GRADE", "01-states-and-moves,02-uninformed-search").split(",")
    kinds += [f"grade {name}" for name in grading if name]
    times: dict[tuple[str, str], list[float]] = {}
    scores: dict[tuple[str, str], str] = {}
    for kind in kinds:
        rounds = ROUNDS if not kind.startswith(("grade", "honest")) else min(ROUNDS, 3)
        for _ in range(rounds):
            for version, (python, cwd) in versions.items():
                seconds, score = _measure(python, cwd, kind)
                times.setdefault((kind, version), []).append(seconds)
                scores[(kind, version)] = score
    rows = []
    for kind in kinds:
        row: dict[str, Any] = {"measure": kind}
        for version in versions:
            row[f"{version} (s)"] = statistics.median(times[(kind, version)])
            if scores[(kind, version)]:
                row[f"outcome {version}"] = scores[(kind, version)]
        if before:
            row["after / before"] = row["after (s)"] / row["before (s)"]
        row["seconds"] = row["after (s)"]
        rows.append(row)
    notes = [f"medians of {ROUNDS} rounds (grading and the burner: {min(ROUNDS, 3)}), each "
             "measure in a "
             "fresh process, versions in alternation"]
    if before:
        notes.append(f"before: {before}")
    return {"title": "What the wall costs per kernel", "rows": rows, "notes": notes}


if __name__ == "__main__":
    report = main()
    print(json.dumps(report, indent=1))
