"""Grading a whole class: serial ``nbgrader autograde`` vs ``grade --workers 2`` vs Dask,
and small classes: ``nbgrader autograde`` vs ``python -m puzzlekit grade``.

N submissions of ``02-uninformed-search`` (a mix of the simulated students of
``tests/simulated_class/students_02.py``, the reference and the untouched release, cycled to N),
``PUZZLEKIT_BENCH_SUBMISSIONS`` (default 100; 0 leaves this part out). One temporary
course per mode, all in one run: plain ``nbgrader autograde`` (its converter over every
student, one process, the course's ``WalledExecute``), `puzzlekit.course.workers.grade_class`
with 2 local worker processes, and with a Dask ``LocalCluster`` of 2 worker processes
(1 thread each). The scores of the three must be equal. The issue's target: >= 1.8x
serial with 2 workers.

Also reported: where a submission's time goes in the parallel run (executing the
notebook, starting its kernel, the coordinator's sanitize + gradebook work, shipping),
and a projection for 300 students x 4 assignments on 8 and 64 cores from those costs.

Small classes (``PUZZLEKIT_BENCH_SMALL``, default "1,3" submissions, of 01 and of 02):
the commands an instructor types, each in a fresh copy of the same course: ``nbgrader
autograde A``, ``python -m puzzlekit grade A`` (a small class: in its own process) and
``python -m puzzlekit grade A --workers 2`` (on workers all the same), in
``PUZZLEKIT_BENCH_ROUNDS`` rounds (default 3), the order turned round each round. The
machine is shared and its load changes by the minute, so each command is compared with
the ``nbgrader autograde`` of its own round (paired ratios: their median and range), and
the CPU seconds of each command and everything under it are reported too (steadier than
the wall clock on a busy machine). Scores must be equal to nbgrader's (where one differs,
a note says which cell, with both scores). ``PUZZLEKIT_BENCH_COMPARE=DIR`` (another
checkout of the kit, say of the main branch, with its own ``.venv``: ``make venv`` there)
times its ``grade`` in the same rounds.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ASSIGNMENT = "02-uninformed-search"
N = int(os.environ.get("PUZZLEKIT_BENCH_SUBMISSIONS", "100"))
WORKERS = 2
SMALL = tuple(int(n) for n in os.environ.get("PUZZLEKIT_BENCH_SMALL", "1,3").split(",")
              if n.strip())
SMALL_ASSIGNMENTS = ("01-states-and-moves", ASSIGNMENT)
ROUNDS = int(os.environ.get("PUZZLEKIT_BENCH_ROUNDS", "3"))
NBGRADER = "nbgrader autograde"
#: another checkout of the kit (say, of the main branch) with its own .venv (`make venv`
#: there): its `grade` is timed too
COMPARE = os.environ.get("PUZZLEKIT_BENCH_COMPARE", "")
SMALL_MODES = (NBGRADER, "grade", f"grade --workers {WORKERS}") + (
    (f"grade, {Path(COMPARE).name}'s",) if COMPARE else ())


def _harness() -> Any:
    """tests/simulated_class/classgrade_course.py (it builds the courses)."""
    if str(REPO / "tests" / "simulated_class") not in sys.path:
        sys.path.insert(0, str(REPO / "tests" / "simulated_class"))
    import classgrade_course
    return classgrade_course


def _students(n: int, assignment: str = ASSIGNMENT) -> dict[str, Any]:
    cc = _harness()
    pool = cc.simulated(assignment)
    names = sorted(pool)
    return {f"{names[i % len(names)]}-{i:03d}": pool[names[i % len(names)]]
            for i in range(n)}


def _scores(root: Path, assignment: str = ASSIGNMENT) -> dict[str, Any]:
    state = _harness().gradebook_state(root, assignment)
    return {s: (v["score"], v["late_penalty"], v["grades"]) if v else None
            for s, v in state.items() if not s.startswith("_")}


def _command(mode: str, assignment: str) -> tuple[list[str], dict[str, str]]:
    """The command line of `mode` (one of SMALL_MODES) and its environment."""
    if mode == NBGRADER:
        return ["nbgrader", "autograde", assignment], dict(os.environ)
    grade = ["-m", "puzzlekit", "grade", assignment, "--progress", "quiet"]
    if mode.startswith("grade,"):        # the other checkout's kit, in its own environment
        python = Path(COMPARE).resolve() / ".venv" / "bin" / "python"
        return [str(python), *grade], dict(os.environ, PATH=str(python.parent) + os.pathsep
                                           + os.environ.get("PATH", ""))
    return [sys.executable, *grade, *mode.split()[1:]], dict(os.environ)


def _timed(command: list[str], env: dict[str, str], root: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds of `command` run in `root` (the CPU of the command and
    of every process under it that its parent waited for: workers, kernels)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    """Where two `_scores` differ: student, grade cell, the two (auto score, manual
    score, needs manual grade, max score)."""
    out = []
    for student in sorted(set(got) | set(want)):
        a, b = got.get(student), want.get(student)
        if a == b:
            continue
        if a is None or b is None:
            out.append(f"{student}: {'not ' if a is None else ''}graded")
            continue
        for cell in sorted(set(a[2]) | set(b[2])):
            if a[2].get(cell) != b[2].get(cell):
                out.append(f"{student} {cell[1]}: {a[2].get(cell)} vs {b[2].get(cell)}")
        if a[:2] != b[:2]:
            out.append(f"{student}: score, late penalty {a[:2]} vs {b[:2]}")
    return out


def _ratio(values: list[float]) -> str:
    """The median of paired ratios and their range."""
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


def small_classes(tmp: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows and notes of the small classes (see the module docstring)."""
    cc = _harness()
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    for assignment in SMALL_ASSIGNMENTS:
        for n in SMALL:
            base = cc.build_course(tmp / f"small-{assignment}-{n}", assignment,
                                   _students(n, assignment))
            wall: dict[str, list[float]] = {m: [] for m in SMALL_MODES}
            cpu: dict[str, list[float]] = {m: [] for m in SMALL_MODES}
            same: dict[str, bool] = {}
            for r in range(ROUNDS):
                order = SMALL_MODES[r % len(SMALL_MODES):] + SMALL_MODES[:r % len(SMALL_MODES)]
                scores: dict[str, Any] = {}
                for mode in order:
                    root = cc.clone(base, tmp / f"run-{len(rows)}-{r}-{order.index(mode)}")
                    w, c = _timed(*_command(mode, assignment), root)
                    wall[mode].append(w)
                    cpu[mode].append(c)
                    scores[mode] = _scores(root, assignment)
                    shutil.rmtree(root, ignore_errors=True)
                for mode in SMALL_MODES:
                    same[mode] = same.get(mode, True) and scores[mode] == scores[NBGRADER]
                    differ = _differences(scores[mode], scores[NBGRADER])
                    if differ:
                        notes.append(f"{n} of {assignment}, round {r + 1}: {mode} vs "
                                     f"{NBGRADER}: " + "; ".join(differ))
            for mode in SMALL_MODES:
                rows.append({
                    "mode": f"{n} of {assignment[:2]}: {mode}",
                    "seconds": statistics.median(wall[mode]),
                    "CPU s": statistics.median(cpu[mode]),
                    "× nbgrader": "–" if mode == NBGRADER else _ratio(
                        [a / b for a, b in zip(wall[mode], wall[NBGRADER])]),
                    "CPU × nbgrader": "–" if mode == NBGRADER else _ratio(
                        [a / b for a, b in zip(cpu[mode], cpu[NBGRADER])]),
                    "scores equal": "–" if mode == NBGRADER else
                    ("yes" if same[mode] else "NO")})
    notes.append(
        f"small classes: {ROUNDS} rounds of each command in a fresh copy of the same course "
        f"(seconds and CPU s: medians; × nbgrader: the median of each round's ratio to that "
        f"round's nbgrader autograde, and their range); the submissions are the first "
        f"simulated students of each assignment; {os.cpu_count()} cores, shared.")
    return rows, notes


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def main() -> dict[str, Any]:
    bin_dir = str(Path(sys.executable).parent)
    os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    tmp = Path(tempfile.mkdtemp(prefix="bench-classgrade-"))
    exchange = tmp / "exchange"
    exchange.mkdir(mode=0o1777)
    os.environ.setdefault("PUZZLEKIT_EXCHANGE", str(exchange))
    from puzzlekit.course.workers import grade_class
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    try:
        if SMALL:
            rows, notes = small_classes(tmp)
        if not N:
            return {"title": "Grading a small class: nbgrader autograde vs python -m "
                             "puzzlekit grade", "rows": rows, "notes": notes}
        students = _students(N)
        cc = _harness()
        base = cc.build_course(tmp / "base", ASSIGNMENT, students)
        roots = {m: cc.clone(base, tmp / m) for m in ("serial", "local", "dask")}

        t = time.perf_counter()
        result = cc.api(roots["serial"]).autograde(ASSIGNMENT, "*", force=False)
        serial = time.perf_counter() - t
        assert result["success"], result.get("error")

        t = time.perf_counter()
        local = grade_class(ASSIGNMENT, roots["local"], workers=WORKERS, progress="log")
        local_s = time.perf_counter() - t
        assert local.ok, local.failed

        dask_s = cluster_s = None
        dask_report = None
        try:
            from distributed import LocalCluster
        except ImportError:
            notes.append("Dask not installed: `pip install -e '.[cluster]'`")
        else:
            t = time.perf_counter()
            with LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster:
                cluster_s = time.perf_counter() - t
                t = time.perf_counter()
                dask_report = grade_class(ASSIGNMENT, roots["dask"],
                                          dask=cluster.scheduler_address, progress="log")
                dask_s = time.perf_counter() - t
            assert dask_report.ok, dask_report.failed

        reference = _scores(roots["serial"])
        same_local = _scores(roots["local"]) == reference
        same_dask = _scores(roots["dask"]) == reference if dask_report else None
        rows.append({"mode": "nbgrader autograde (serial)", "seconds": serial,
                     "s per submission": serial / N, "speed-up": 1.0, "scores equal": "–"})
        rows.append({"mode": f"grade --workers {WORKERS}", "seconds": local_s,
                     "s per submission": local_s / N, "speed-up": serial / local_s,
                     "scores equal": "yes" if same_local else "NO"})
        if dask_s is not None:
            rows.append({"mode": f"grade --dask (LocalCluster, {WORKERS} workers)",
                         "seconds": dask_s, "s per submission": dask_s / N,
                         "speed-up": serial / dask_s,
                         "scores equal": "yes" if same_dask else "NO"})

        times = list(local.times.values())
        execute = _mean([t.execute for t in times])
        kernel = _mean([t.kernel_start for t in times])
        coord = _mean([t.coordinator for t in times])
        unpack = _mean([t.worker - t.execute for t in times])
        ship = _mean([t.remote - t.queue - t.worker for t in times])
        per_worker = WORKERS * local_s / N      # a worker's wall time per submission
        notes += [
            f"N = {N} submissions of {ASSIGNMENT} ({len(set(s.rsplit('-', 1)[0] for s in students))} "
            f"different simulated students, cycled), {os.cpu_count()} cores; one run, "
            f"the modes one after the other.",
            f"target >= 1.8x serial with {WORKERS} workers: {serial / local_s:.2f}x local"
            + (f", {serial / dask_s:.2f}x Dask" if dask_s else "")
            + (f" (Dask cluster start {cluster_s:.1f} s, not included)" if cluster_s else ""),
            f"per submission, in the {WORKERS}-worker run (means): executing the notebook "
            f"{execute:.2f} s, of which starting the walled kernel {kernel:.2f} s; "
            f"coordinator (sanitize, gradebook writes, autograded/ files; one at a time) "
            f"{coord:.3f} s; shipping the job and the answer {ship:.3f} s; unpacking in the "
            f"worker {unpack:.3f} s. Beyond executing the notebook: "
            f"{kernel + coord + ship + unpack:.2f} s, of which {coord + ship + unpack:.2f} s "
            f"is class grading's own (the kernel start is paid by serial nbgrader too).",
        ]
        total = 300 * 4
        for cores in (8, 64):
            work = total * per_worker / cores
            writer = total * coord
            notes.append(
                f"projection, 300 students x 4 assignments (1200 submissions, each costing "
                f"what an {ASSIGNMENT} submission cost here: an upper bound, 02 is the "
                f"slowest assignment) on {cores} cores with --workers {cores}: about "
                f"{max(work, writer) / 60:.0f} min (workers: 1200 x {per_worker:.2f} s / "
                f"{cores} = {work / 60:.1f} min; the one gradebook writer: 1200 x "
                f"{coord:.3f} s = {writer / 60:.1f} min"
                + ("; the writer is the limit" if writer > work else "") + ")")
        notes.append(f"serial nbgrader would take 1200 x {serial / N:.2f} s = "
                     f"{total * serial / N / 60:.0f} min for the same")
        if dask_report is not None:
            notes.append(f"Dask run: {dask_s / N:.2f} s per submission; mean coordinator "
                         f"{_mean([t.coordinator for t in dask_report.times.values()]):.3f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"title": f"Grading a class: {N} submissions of {ASSIGNMENT}, serial vs "
                     f"{WORKERS} workers vs Dask; small classes vs nbgrader autograde",
            "rows": rows, "notes": notes}


if __name__ == "__main__":
    report = main()
    for row in report["rows"]:
        print(row)
    print(*report["notes"], sep="\n")
