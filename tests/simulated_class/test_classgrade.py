"""`python -m puzzlekit grade`: a whole class in parallel, exactly as nbgrader autograde.

One small course (assignment 01, the fastest to grade) with simulated students, a kernel
that exits, an endless loop, a flood of output and a late submission is graded serially by
plain nbgrader (the reference), then by local worker processes, by a real Dask
LocalCluster with two worker processes, with a worker process that dies, by the command
line interrupted with Ctrl-C and run again, and, a small class, in the grader's own
process (also interrupted): the gradebook and ``autograded/`` must come out the same
every time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import classgrade_course as cc
import fake_worker
import nbformat
import pytest

from puzzlekit.course.workers.proctree import alive

REPO = Path(__file__).resolve().parents[2]
A = "01-states-and-moves"
#: the per-cell timeout of this course (the endless loop costs it once)
TIMEOUT = 6
LATE = "2026-01-20 10:00:00.000000 UTC"


def _flood(nb: Any) -> Any:
    nb = nbformat.from_dict(nb)
    cell = next(c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {})
                .get("grade_id") == "findZero_solution")
    cell.source = 'print("\\n".join(map(str, range(300_000))))\n' + cell.source
    return nb


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("nbgrader")
    exchange = tmp_path_factory.mktemp("exchange")
    exchange.chmod(0o1777)
    os.environ["PUZZLEKIT_EXCHANGE"] = str(exchange)
    root = tmp_path_factory.mktemp("classgrade") / "base"
    cc.build_course(root, A, {}, duedate="2026-01-16 10:00:00 UTC",
                    settings={"Execute.timeout": str(TIMEOUT),
                              "LateSubmissionPlugin.penalty_method": '"zero"'})
    pool = cc.simulated(A, hostile=True)        # from the release just generated
    students = {k: pool[k] for k in ("reference", "untouched", "moveUp_wrong_way",
                                     "nextStates_no_bounds_check", "hostile_kernel_exit",
                                     "hostile_endless_loop")}
    students["flood"] = _flood(pool["reference"])
    students["late"] = pool["reference"]
    return cc.hand_in(root, A, students, timestamps={"late": LATE})


@pytest.fixture(scope="module")
def serial(base: Path) -> dict[str, Any]:
    """The reference: plain `nbgrader autograde`, one submission after the other."""
    root = cc.clone(base, base.parent / "serial")
    api = cc.api(root)
    for student in sorted(p.name for p in (root / "submitted").iterdir()):
        api.autograde(A, student, force=False)
    state = cc.gradebook_state(root, A)
    assert state["late"]["late_penalty"] == state["late"]["score"] > 0   # "zero" penalty
    assert state["reference"]["score"] > state["untouched"]["score"] == 0
    return state


def _grade(root: Path, **kwargs: Any) -> Any:
    from puzzlekit.course.workers import grade_class
    return grade_class(A, root, progress=kwargs.pop("progress", "quiet"), **kwargs)


def _assert_same(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got.keys() == want.keys()
    for student in want:
        assert got[student] == want[student], (student, _differences(got[student],
                                                                    want[student]))


def _differences(got: Any, want: Any) -> Any:
    """What differs between two students' states, item by item and cell by cell (the
    whole state is too long for pytest's message to reach the difference)."""
    if not isinstance(got, dict) or not isinstance(want, dict):
        return {"got": got, "want": want}
    out: dict[str, Any] = {}
    for key in sorted(set(got) | set(want)):
        a, b = got.get(key), want.get(key)
        if a == b:
            continue
        if key == "cells" and isinstance(a, list) and isinstance(b, list):
            out[key] = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y] + (
                [("cells", len(a), len(b))] if len(a) != len(b) else [])
        else:
            out[key] = {"got": a, "want": b}
    return out


@pytest.mark.nbgrader
@pytest.mark.slow
def test_local_workers_grade_exactly_like_nbgrader(base, serial, tmp_path, monkeypatch):
    # a worker process dies (os._exit, like an OOM kill) while grading one submission:
    # it is replaced and that submission is graded again, once
    monkeypatch.setenv("PYTHONPATH", fake_worker.environment()["PYTHONPATH"])
    root = cc.clone(base, tmp_path / "course")
    fake_worker.use_in(root, crash=["moveUp_wrong_way"], record_dir=str(tmp_path))
    report = _grade(root, workers=2)
    assert report.ok, report.failed
    assert sorted(report.graded) == sorted(s for s in serial if not s.startswith("_"))
    assert report.worker_restarts == 1
    assert (tmp_path / "crashed-moveUp_wrong_way").exists()
    _assert_same(cc.gradebook_state(root, A), serial)
    # concurrent walled kernels in different worker processes: each had its own wall
    # (own pids cgroup where the machine has one, so they never share a process limit)
    walls = [nbformat.read(p, as_version=4).metadata["puzzlekit"]["wall"]
             for p in (root / "autograded").glob(f"*/{A}/*.ipynb")]
    assert len(walls) == len(report.graded)
    cgroups = [(w.get("limits") or {}).get("pids_cgroup") for w in walls]
    assert len(set(cgroups)) == len(cgroups) or not any(cgroups)
    # nothing left to do: a second run grades nothing and changes nothing
    again = _grade(root, workers=2)
    assert again.graded == [] and sorted(again.skipped) == sorted(report.graded)
    _assert_same(cc.gradebook_state(root, A), serial)
    # the times the benchmark reports are there
    t = report.times["reference"]
    assert t.total > 0 and t.execute > 0 and 0 < t.kernel_start < t.execute
    assert t.coordinator > 0 and t.remote >= t.worker >= t.execute


@pytest.mark.nbgrader
@pytest.mark.slow
def test_dask_local_cluster_grades_exactly_like_nbgrader(base, serial, tmp_path):
    distributed = pytest.importorskip("distributed")
    root = cc.clone(base, tmp_path / "course")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        report = _grade(root, dask=cluster.scheduler_address)
    assert report.ok, report.failed
    assert report.workers == 2
    _assert_same(cc.gradebook_state(root, A), serial)


@pytest.mark.nbgrader
@pytest.mark.slow
def test_a_submission_that_always_kills_its_worker_fails_alone(base, serial, tmp_path,
                                                               monkeypatch):
    monkeypatch.setenv("PYTHONPATH", fake_worker.environment()["PYTHONPATH"])
    root = cc.clone(base, tmp_path / "course")
    fake_worker.use_in(root, crash=["!untouched"], record_dir=str(tmp_path))
    report = _grade(root, workers=2, students=["reference", "untouched"])
    assert report.graded == ["reference"]
    assert list(report.failed) == ["untouched"] and "died" in report.failed["untouched"]
    assert report.worker_restarts == 2          # the first try and the one retry
    state = cc.gradebook_state(root, A)
    assert state["reference"] == serial["reference"]
    assert not (root / "autograded" / "untouched").exists() or not any(
        (root / "autograded" / "untouched").rglob("*.ipynb"))
    # the next run (the worker fixed) grades just that one
    fake_worker.use_in(root, crash=[])      # the worker fixed
    again = _grade(root, workers=1, students=["reference", "untouched"])
    assert again.graded == ["untouched"] and again.skipped == ["reference"]
    state = cc.gradebook_state(root, A)
    assert state["untouched"] == serial["untouched"]


#: a small class (at most SMALL_CLASS to grade): a hostile one, a late one, an honest one
SMALL = ("hostile_endless_loop", "late", "reference")


@pytest.mark.nbgrader
@pytest.mark.slow
def test_a_small_class_is_graded_in_this_process_exactly_like_nbgrader(
        base, serial, tmp_path, monkeypatch):
    """No worker process at all: nbgrader's converter with the course's own execute step
    (the wall, the judge), one submission after the other, in the calling process."""
    from puzzlekit.course import workers

    def no_pool(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a small class started workers")

    assert len(SMALL) <= workers.SMALL_CLASS
    root = cc.clone(base, tmp_path / "course")
    monkeypatch.setattr(workers, "make_pool", no_pool)
    report = _grade(root, students=list(SMALL))
    assert report.ok, report.failed
    assert sorted(report.graded) == sorted(SMALL) and report.workers == 0
    assert "3 graded" in report.summary() and "in this process" in report.summary()
    state = cc.gradebook_state(root, A)
    for student in SMALL:
        assert state[student] == serial[student], student
        nb = nbformat.read(next((root / "autograded" / student / A).glob("*.ipynb")),
                           as_version=4)
        assert nb.metadata["puzzlekit"]["judged"] is True      # the course's execute step
        assert "up" in nb.metadata["puzzlekit"]["wall"]
    monkeypatch.undo()
    # a job timeout (or --workers) asks for workers: one for one submission, not one per
    # core
    again = _grade(root, students=["untouched"], job_timeout=120)
    assert again.graded == ["untouched"] and again.workers == 1
    assert cc.gradebook_state(root, A)["untouched"] == serial["untouched"]


@pytest.mark.nbgrader
@pytest.mark.slow
def test_ctrl_c_of_a_small_class_cleans_up_and_a_rerun_goes_on(base, serial, tmp_path):
    """`python -m puzzlekit grade` of three submissions (in its own process), interrupted
    while grading the second: exit status 130, what is graded is right, the rest is not
    half there, no kernel of the command's is left, and a rerun finishes the class."""
    root = cc.clone(base, tmp_path / "course")
    students = [arg for s in SMALL for arg in ("--student", s)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "puzzlekit", "grade", A, "--course-root", str(root),
         "--progress", "log", *students],
        cwd=REPO, env=dict(os.environ, PYTHONUNBUFFERED="1"), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None
    seen = []
    deadline = time.monotonic() + 300
    for line in proc.stderr:            # wait until the first submission is graded
        seen.append(line)
        if line.startswith("grading: 1/") or time.monotonic() > deadline:
            break
    second = root / "autograded" / sorted(SMALL)[1] / A
    while not second.exists() and time.monotonic() < deadline:     # and the second begun
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, "".join(seen) + err
    assert "in this process" in err and "run the same command again" in err
    # nbgrader's converter removed what it had written of the second (in its own words)
    assert "Removing failed assignment" in err, "".join(seen) + err
    state = cc.gradebook_state(root, A)
    graded = [s for s in SMALL if state[s] and state[s]["files"] is not None]
    assert 1 <= len(graded) < len(SMALL), err
    for student in SMALL:
        if student in graded:
            assert state[student] == serial[student], student
        else:
            assert state[student] is None or state[student]["files"] is None, student
    # the kernels of the interrupted command were shut down with it
    kernels = [pid for pid in _processes_with(f"pkgrade-{proc.pid}-")]
    assert not kernels, kernels
    report = _grade(root, students=list(SMALL))
    assert sorted(report.skipped) == sorted(graded) and report.workers == 0
    assert sorted(report.graded + report.skipped) == sorted(SMALL)
    state = cc.gradebook_state(root, A)
    for student in SMALL:
        assert state[student] == serial[student], student


def _processes_with(text: str) -> list[int]:
    """The living processes whose command line holds `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if text in cmdline and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


#: two submissions whose job hangs once their kernel is up (tests/fake_worker.py: SIGTERM
#: ignored, a double-forked process in a session of its own), among honest ones; a job timeout well above an honest job's time on a busy machine
HANG = ("moveUp_wrong_way", "nextStates_no_bounds_check")
HONEST = ("reference", "untouched", "late")
JOB_TIMEOUT = 40



def _assert_hung_ones_reported_and_gone(root: Path, serial: dict[str, Any], crash_dir: Path,
                                        failed: dict[str, str]) -> None:
    assert sorted(failed) == sorted(HANG)
    for student in HANG:
        assert f"longer than the job timeout ({JOB_TIMEOUT} s" in failed[student]
        assert not (root / "autograded" / student / A).exists() or not any(
            (root / "autograded" / student / A).glob("*.ipynb"))
        # the hung worker and everything under it (the walled kernel, the process in
        # its own session) were stopped
        pids = [int(p) for p in (crash_dir / f"hung-{student}.pids").read_text().split()]
        assert len(pids) >= 3
        deadline = time.monotonic() + 30
        while any(alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(alive(p) for p in pids), student
    state = cc.gradebook_state(root, A)
    for student in HONEST:
        assert state[student] == serial[student], student


@pytest.mark.nbgrader
@pytest.mark.slow
def test_submissions_that_hang_are_reported_and_the_class_goes_on(base, serial, tmp_path):
    """`python -m puzzlekit grade --workers 2`: both workers hang, each on its own
    submission; the command returns, the honest ones graded, the hung ones reported."""
    root = cc.clone(base, tmp_path / "course")
    fake_worker.use_in(root, hang=list(HANG), record_dir=str(tmp_path))
    env = fake_worker.environment()
    students = [arg for s in (*HANG, *HONEST) for arg in ("--student", s)]
    done = subprocess.run(
        [sys.executable, "-m", "puzzlekit", "grade", A, "--course-root", str(root),
         "--workers", "2", "--job-timeout", str(JOB_TIMEOUT), "--progress", "quiet",
         *students], cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 1, done.stderr[-3000:]
    failed = {}
    for line in done.stderr.splitlines():
        if line.startswith("failed: "):
            student, _, why = line.removeprefix("failed: ").partition(": ")
            failed[student] = why
    assert "3 graded, 2 failed" in done.stderr, done.stderr[-3000:]
    assert done.stderr.count("ERROR grading ") == 2          # in the log, as it happens
    _assert_hung_ones_reported_and_gone(root, serial, tmp_path, failed)


@pytest.mark.nbgrader
@pytest.mark.slow
def test_on_dask_a_submission_that_hangs_is_reported_and_the_worker_freed(
        base, serial, tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("PYTHONPATH", fake_worker.environment()["PYTHONPATH"])
    root = cc.clone(base, tmp_path / "course")
    fake_worker.use_in(root, hang=list(HANG), record_dir=str(tmp_path))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        report = _grade(root, dask=cluster.scheduler_address, job_timeout=JOB_TIMEOUT,
                        students=[*HANG, *HONEST])
        # the Dask workers' threads are free again: nothing is left running there
        with distributed.Client(cluster.scheduler_address) as client:
            assert not any(client.processing().values())
    assert sorted(report.graded) == sorted(HONEST)
    _assert_hung_ones_reported_and_gone(root, serial, tmp_path, report.failed)


@pytest.mark.nbgrader
@pytest.mark.slow
def test_ctrl_c_leaves_the_gradebook_consistent_and_a_rerun_goes_on(base, serial, tmp_path):
    root = cc.clone(base, tmp_path / "course")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "puzzlekit", "grade", A, "--course-root", str(root),
         "--workers", "2", "--progress", "log"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # a shell that runs the suite in the background ignores SIGINT, and its children
        # inherit that: give the command the Ctrl-C of a terminal
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None
    seen = []
    deadline = time.monotonic() + 120
    for line in proc.stderr:            # wait until two submissions are graded
        seen.append(line)
        if line.startswith("grading: 2/") or time.monotonic() > deadline:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, "".join(seen) + err
    assert "interrupted" in err and "run the same command again" in err
    state = cc.gradebook_state(root, A)
    graded = [s for s, v in state.items() if not s.startswith("_") and v
              and v["files"] is not None]
    assert 2 <= len(graded) < len(serial) - 1, err
    for student in graded:                   # what is there is complete and right
        assert state[student] == serial[student], student
    for student, value in state.items():     # the rest has no autograded notebook
        if student not in graded and not student.startswith("_"):
            assert value is None or value["files"] is None
    # the rerun grades exactly what is left, and everything ends up as nbgrader's
    report = _grade(root, workers=2)
    assert sorted(report.skipped) == sorted(graded)
    assert sorted(report.graded + report.skipped) == sorted(
        s for s in serial if not s.startswith("_"))
    _assert_same(cc.gradebook_state(root, A), serial)


@pytest.mark.nbgrader
def test_bad_input_is_a_clear_error(base, tmp_path, capsys):
    from puzzlekit.cli import main
    assert main(["grade", "no-such-assignment", "--course-root", str(base)]) == 2
    assert "unknown assignment 'no-such-assignment'" in capsys.readouterr().err
    assert main(["grade", A, "--course-root", str(base), "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err
    assert main(["grade", A, "--course-root", str(base), "--student", "nobody"]) == 2
    assert "no submission of 01-states-and-moves by nobody" in capsys.readouterr().err
    assert main(["grade", A, "--course-root", str(tmp_path / "nowhere")]) == 2
    assert "no course folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["grade", A, "--workers", "2", "--dask", "tcp://127.0.0.1:1"])


def test_progress_lines():
    import io

    from puzzlekit.course.workers.progress import (
        LogProgress,
        TerminalProgress,
        grade_progress,
    )
    out = io.StringIO()
    p = LogProgress(out)
    p.start(40)
    for i in range(40):
        p.done(f"s{i}", float(i % 7), ok=i != 3)
    p.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 11                  # the start, then one line per 10%
    assert lines[-1].startswith("grading: 40/40 graded · 1 failed")
    assert "slowest: s6 6.0 s, s13 6.0 s, s20 6.0 s" in lines[-1]
    out = io.StringIO()
    t = TerminalProgress(out, width=10)
    t.start(4)
    t.done("alice", 2.0)
    text = out.getvalue()
    assert "[##........] 1/4 graded" in text and "ETA" in text and "alice 2.0 s" in text
    assert isinstance(grade_progress("auto", io.StringIO()), LogProgress)   # not a tty
    assert type(grade_progress(None)).__name__ == "GradeProgress"


@pytest.mark.nbgrader
@pytest.mark.slow
def test_watch_collects_grades_and_releases_feedback(tmp_path, monkeypatch):
    from puzzlekit.course.workers import watch
    exchange = tmp_path / "exchange"
    inbound = exchange / "puzzlekit" / "inbound"
    inbound.mkdir(parents=True)
    # as the set-up makes them (sudo make exchange): the course's folders are the
    # instructor's, or collect and the release of feedback refuse them
    for folder, mode in ((exchange, 0o1777), (exchange / "puzzlekit", 0o755),
                         (inbound, 0o2733)):
        folder.chmod(mode)
    monkeypatch.setenv("PUZZLEKIT_EXCHANGE", str(exchange))
    root = cc.build_course(tmp_path / "course", A, {},
                           settings={"Execute.timeout": str(TIMEOUT)})
    pool = cc.simulated(A)
    nbname = cc.notebook_name(A)

    def hand_in(student: str, nb: Any, stamp: str) -> None:
        folder = inbound / f"{student}+{A}+{stamp}"
        folder.mkdir()
        nbformat.write(nb, folder / nbname)
        (folder / "timestamp.txt").write_text(stamp)
        (folder / "submission_secret.txt").write_text(f"secret-of-{student}")   # as submit

    assert watch(A, root, rounds=1, interval=0.1, workers=1, progress="quiet") == 0
    hand_in("alice", pool["reference"], "2026-01-15 10:00:00.000000 UTC")
    assert watch(A, root, rounds=1, interval=0.1, workers=1, feedback=True,
                 progress="quiet") == 1
    assert (root / "autograded" / "alice" / A / nbname).exists()
    assert (root / "feedback" / "alice" / A / nbname.replace(".ipynb", ".html")).exists()
    assert list((exchange / "puzzlekit" / "feedback").glob("*.html"))   # released
    # a second student arrives: only that one is graded; alice hands in again: regraded
    hand_in("bob", pool["untouched"], "2026-01-15 11:00:00.000000 UTC")
    hand_in("alice", pool["untouched"], "2026-01-15 12:00:00.000000 UTC")
    assert watch(A, root, rounds=2, interval=0.1, workers=1, progress="quiet") == 2
    state = cc.gradebook_state(root, A)
    assert state["bob"]["score"] == 0 and state["alice"]["score"] == 0
    assert state["_submissions"] == 2
