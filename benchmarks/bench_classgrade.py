"""Grading a whole class: serial ``nbgrader autograde`` vs ``grade --workers 2`` vs Dask.

N submissions of ``02-uninformed-search`` (a mix of the simulated students of
``tests/simulated_class/students_02.py``, the reference and the untouched release, cycled to N),
``PUZZLEKIT_BENCH_SUBMISSIONS`` (default 100). One temporary course per mode, all in one
run: plain ``nbgrader autograde`` (its converter over every student, one process, the
course's ``WalledExecute``), `puzzlekit.course.class_grading.grade_class` with 2 local worker
processes, and with a Dask ``LocalCluster`` of 2 worker processes (1 thread each). The
scores of the three must be equal. The issue's target: >= 1.8x serial with 2 workers.

Also reported: where a submission's time goes in the parallel run (executing the
notebook, starting its kernel, the coordinator's sanitize + gradebook work, shipping),
and a projection for 300 students x 4 assignments on 8 and 64 cores from those costs.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ASSIGNMENT = "02-uninformed-search"
N = int(os.environ.get("PUZZLEKIT_BENCH_SUBMISSIONS", "100"))
WORKERS = 2


def _students(n: int) -> dict[str, Any]:
    sys.path.insert(0, str(REPO / "tests" / "simulated_class"))
    import classgrade_course as cc
    pool = cc.simulated(ASSIGNMENT)
    names = sorted(pool)
    return {f"{names[i % len(names)]}-{i:03d}": pool[names[i % len(names)]]
            for i in range(n)}


def _scores(root: Path) -> dict[str, Any]:
    import classgrade_course as cc
    state = cc.gradebook_state(root, ASSIGNMENT)
    return {s: (v["score"], v["late_penalty"], v["grades"]) if v else None
            for s, v in state.items() if not s.startswith("_")}


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def main() -> dict[str, Any]:
    bin_dir = str(Path(sys.executable).parent)
    os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    tmp = Path(tempfile.mkdtemp(prefix="bench-classgrade-"))
    exchange = tmp / "exchange"
    exchange.mkdir(mode=0o1777)
    os.environ.setdefault("PUZZLEKIT_EXCHANGE", str(exchange))
    from puzzlekit.course.class_grading import grade_class
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    try:
        students = _students(N)
        import classgrade_course as cc   # _students put tests/simulated_class on the path
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
                     f"{WORKERS} workers vs Dask", "rows": rows, "notes": notes}


if __name__ == "__main__":
    report = main()
    for row in report["rows"]:
        print(row)
    print(*report["notes"], sep="\n")
