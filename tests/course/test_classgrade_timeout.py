"""The class grader's pools never wait forever (puzzlekit.course.workers.pool): a job that
hangs (tests/fake_worker.py: SIGTERM ignored, a double-forked process of its own in a new
session) is stopped at the job timeout with everything under it, its worker
is replaced, and the other jobs go on. The whole class through nbgrader, locally and on
Dask, is in tests/simulated_class/test_classgrade.py."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import fake_worker
import pytest

from puzzlekit.course.workers.pool import (
    JobTimedOut,
    LocalPool,
    check_job_timeout,
    default_job_timeout,
)
from puzzlekit.course.workers.proctree import alive
from puzzlekit.course.workers.remote import JOB_TIMED_OUT
from puzzlekit.errors import PuzzleError


def _job(key: str, tmp: Path, hang: tuple[str, ...] = ()) -> bytes:
    # an empty notebook: no kernel; the fake worker hangs on the keys in `hang`
    return fake_worker.job(key, hang=list(hang), record_dir=str(tmp))



def _gone(pids: list[int], within: float = 30.0) -> bool:
    deadline = time.monotonic() + within
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not any(alive(p) for p in pids)


def test_the_default_job_timeout_follows_the_notebook_budget():
    assert default_job_timeout() == 300 + 75          # WalledExecute's own default budget
    assert default_job_timeout({"WalledExecute": {"notebook_timeout": 120}}) == 180
    assert default_job_timeout({"WalledExecute": {"notebook_timeout": 1200}}) == 1500
    # the budget a notebook really gets is scaled, and so is its job's
    assert default_job_timeout({"WalledExecute": {"notebook_timeout": 300,
                                                  "time_scale": 2.0}}) == 600 + 150
    assert default_job_timeout({"WalledExecute": {"notebook_timeout": 0}}) == 900 + 225
    assert check_job_timeout(None) == default_job_timeout()
    for bad in (0, -1, "10", True):
        with pytest.raises(PuzzleError, match="--job-timeout"):
            check_job_timeout(bad)           # type: ignore[arg-type]


def test_hung_jobs_are_stopped_whole_and_the_others_go_on(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", fake_worker.environment()["PYTHONPATH"])
    hang = ("hang1", "hang2")
    pool = LocalPool(2, job_timeout=20)      # a fresh worker imports nbgrader first
    results: dict[str, object] = {}
    stop = threading.Event()

    def run(key: str) -> None:
        try:
            results[key] = json.loads(pool.run(key, _job(key, tmp_path, hang), stop))
        except Exception as exc:
            results[key] = exc

    try:
        tmp_dirs = [Path(slot.tmp) for slot in pool._all]
        threads = [threading.Thread(target=run, args=(k,)) for k in ("hang1", "hang2",
                                                                      "quick")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert not any(t.is_alive() for t in threads), "the pool waited on a hung job"
        for key in ("hang1", "hang2"):
            assert isinstance(results[key], JobTimedOut), results[key]
            assert "longer than the job timeout (20 s" in str(results[key])
        quick = results["quick"]
        assert isinstance(quick, dict) and "notebook" in quick  # it ran, in a worker
        assert pool.restarts == 2
        # the hung workers and the processes they started (new sessions) are gone
        pids = [int(p) for key in ("hang1", "hang2")
                for p in (tmp_path / f"hung-{key}.pids").read_text().split()]
        assert len(pids) >= 4 and _gone(pids)
        assert not any(d.exists() for d in tmp_dirs)     # their temporary folders too
        # the replaced workers take jobs
        assert "notebook" in json.loads(pool.run("again", _job("again", tmp_path), stop))
    finally:
        pool.close(cancel=True)


def test_a_job_on_dask_keeps_its_own_deadline(tmp_path, monkeypatch):
    """What a Dask worker runs: the job in a child process, killed at the deadline."""
    from puzzlekit.course.workers.remote import execute_job_within
    monkeypatch.setenv("PYTHONPATH", fake_worker.environment()["PYTHONPATH"])
    answer = execute_job_within(_job("hang", tmp_path, ("hang",)), 20)
    assert answer.startswith(JOB_TIMED_OUT)
    pids = [int(p) for p in (tmp_path / "hung-hang.pids").read_text().split()]
    assert _gone(pids)
    first = json.loads(execute_job_within(_job("other", tmp_path), 60))
    again = json.loads(execute_job_within(_job("again", tmp_path), 60))
    assert "notebook" in first and first["pid"] == again["pid"]   # a fresh runner, kept warm
