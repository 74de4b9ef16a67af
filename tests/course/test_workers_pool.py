"""A local pool of class-grading workers starts only the workers asked for, each one at
once rather than at its first job, and, closed, kills its idle workers rather than waiting
for them to tear down what they imported (puzzlekit.course.workers.pool). A small
class is graded without any pool: tests/simulated_class/test_classgrade.py."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path

import pytest

from puzzlekit.course.workers import grade_class
from puzzlekit.course.workers.pool import LocalPool
from puzzlekit.course.workers.proctree import alive
from puzzlekit.course.workers.remote import JOB_VERSION
from puzzlekit.errors import PuzzleError


def _job(key: str) -> bytes:
    # not a whole job: the worker answers at once, with an error and its pid
    return json.dumps({"version": JOB_VERSION, "key": key}).encode()


def test_a_pool_starts_the_workers_asked_for_each_before_its_first_job():
    stop = threading.Event()
    pool = LocalPool(3, start=1, job_timeout=120)
    try:
        first, second, third = pool._all
        assert pool.started == 1
        # the first worker is running already, with no job yet; the others do not exist
        assert len(first.pids()) == 1 and alive(first.pids()[0])
        assert not second.started and not third.started and not second.pids()
        answer = json.loads(pool.run("alice", _job("alice"), stop))
        assert "error" in answer and answer["pid"] == first.pids()[0]
        # more on demand, never more than the pool's slots
        assert pool.start(2) == 2 and not third.started
        assert len(second.pids()) == 1 and alive(second.pids()[0])
        assert pool.start(10) == 3
        # every worker takes jobs
        pids = set()
        for key in ("bob", "carol", "dave", "erin", "frank", "grace"):
            pids.add(json.loads(pool.run(key, _job(key), stop))["pid"])
        assert pids <= {pid for slot in pool._all for pid in slot.pids()}
    finally:
        processes = [p for slot in pool._all
                     for p in (getattr(slot.executor, "_processes", None) or {}).values()]
        folders = [Path(slot.tmp) for slot in pool._all if slot.tmp]
        pool.close()
    # closed once their jobs were done: killed, not left to tear down their imports
    assert len(processes) == 3 and len(folders) == 3
    assert all(p.exitcode == -signal.SIGKILL for p in processes), \
        [p.exitcode for p in processes]
    assert not any(alive(p.pid) for p in processes)
    assert not any(folder.exists() for folder in folders)
    pool.close()                   # closing again does nothing
    pool.close(cancel=True)


def test_a_pool_started_with_no_worker_starts_none_until_asked():
    pool = LocalPool(2, start=0, job_timeout=120)
    try:
        assert pool.started == 0 and not any(slot.pids() for slot in pool._all)
    finally:
        pool.close()
    assert pool.started == 0


def test_in_process_grading_takes_no_workers(tmp_path):
    # refused before the course is even looked at
    for kwargs in ({"workers": 2}, {"job_timeout": 60.0}, {"dask": "tcp://127.0.0.1:1"},
                   {"pool": object()}):
        with pytest.raises(PuzzleError, match="grading in this process uses no workers"):
            grade_class("01-states-and-moves", tmp_path / "nowhere", in_process=True,
                        **kwargs)    # type: ignore[arg-type]
