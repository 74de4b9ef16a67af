"""Where class-grading jobs run: local worker processes, or an existing Dask scheduler.

Both pools take a job (bytes, see `puzzlekit.course.workers.remote`) and give back the
answer (bytes); `run` blocks the calling thread (the coordinator runs one thread per
submission in flight) and gives up with KeyboardInterrupt as soon as `stop` is set.

`LocalPool` keeps one single-process ``ProcessPoolExecutor`` per slot, so that when a
worker process dies (killed, out of memory) exactly one job is affected: that slot gets a
fresh process and the job is tried once more. `DaskPool` sends
`puzzlekit.course.workers.remote.execute_job_within` to a ``dask.distributed`` scheduler; Dask
itself reschedules the job of a worker that died (``distributed.scheduler.allowed-failures``).

No job waits forever (`job_timeout`, seconds, by default `default_job_timeout`): a local
worker still busy after it is stopped with everything under it (its kernel and the
processes the kernel started, found through the worker, which adopts them: see
`puzzlekit.course.workers.proctree`), its temporary folder is removed, a fresh process takes the slot,
and the job fails with `JobTimedOut` (not tried again: it would hang again). On Dask the
job itself keeps the deadline inside the worker (it runs in a child process that it kills
at the deadline, so no Dask worker thread stays held), and the coordinator cancels the
future if no answer comes long after (twice the timeout and a minute: a lost worker).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import shutil
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from ...errors import PuzzleError
from .proctree import kill_tree
from .remote import JOB_TIMED_OUT, execute_job, execute_job_within, worker_init

POLL = 0.2
#: a notebook's budget where the course sets none (WalledExecute.notebook_timeout = 0)
NOTEBOOK_TIMEOUT = 900.0
#: how long past twice the job timeout the coordinator waits for a Dask answer
DASK_GRACE = 60.0


class WorkerDied(RuntimeError):
    """A worker process died while grading a submission, also on the retry."""


class JobTimedOut(RuntimeError):
    """A submission's job ran past the job timeout; its worker was stopped."""


def default_job_timeout(config: Any = None) -> float:
    """Seconds one job may take: the per-notebook budget `WalledExecute` grades it with
    (``notebook_timeout`` times ``time_scale``, as the course config sets them or their
    defaults; 900 s where the budget is off) and a quarter more, at least a minute more
    (the kernel's start, replays after a restart, shipping, clean-up)."""
    from ...autograder.judge.autograde import WalledExecute
    traits = WalledExecute.class_traits()
    budget = float(traits["notebook_timeout"].default_value)
    scale = float(traits["time_scale"].default_value)
    try:
        section = config["WalledExecute"] if config is not None else {}
        budget = float(section.get("notebook_timeout", budget))
        scale = float(section.get("time_scale", scale))
    except (KeyError, TypeError, ValueError, AttributeError):
        pass
    budget = budget * scale if budget > 0 else NOTEBOOK_TIMEOUT * max(scale, 1.0)
    return budget + max(60.0, budget / 4)


def timed_out_message(key: str, seconds: float) -> str:
    return (f"grading {key} took longer than the job timeout ({seconds:g} s, --job-timeout): "
            f"its worker was stopped with its kernel and replaced, and the submission is "
            f"not graded; look at it by hand or grade it alone with a longer timeout")


class Pool(Protocol):
    slots: int

    def run(self, key: str, job: bytes, stop: threading.Event) -> bytes: ...

    def waited(self) -> float:
        """Seconds the calling thread's last `run` waited for a free worker."""

    def close(self, cancel: bool = False) -> None: ...


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def check_job_timeout(seconds: float | None) -> float:
    """`seconds` (the default for None) if it is a positive number, else PuzzleError."""
    if seconds is None:
        return default_job_timeout()
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or \
            not seconds > 0:
        raise PuzzleError(f"--job-timeout must be a positive number of seconds, got "
                          f"{seconds!r}")
    return float(seconds)


class _Slot:
    """One worker process of a `LocalPool`; none runs until `start`."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.executor: Any = None
        self.tmp = ""
        self.jobs = 0                #: jobs handed to its current process
        self.closed = False          #: stopped by `LocalPool.close`

    @property
    def started(self) -> bool:
        return self.executor is not None

    def start(self) -> None:
        """A fresh worker process, started now: it imports the grading modules (a new
        Python importing nbgrader: seconds of CPU) in the background, while the caller
        goes on, instead of when the first job arrives."""
        # the worker's temporary files (scratch folders) in a folder of its own, removed
        # when the worker is replaced: a killed worker leaves nothing behind
        self.tmp = tempfile.mkdtemp(prefix=f"pkworker{self.index}-")
        self.executor = ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=worker_init, initargs=(self.tmp,))
        self.jobs = 0
        # the executor starts its process at the first submit: this one, a no-op
        self.executor.submit(os.getpid)

    def pids(self) -> list[int]:
        return list(getattr(self.executor, "_processes", None) or {})

    def replace(self) -> None:
        self.stop_processes(grace=0.0)
        self.start()

    def stop_processes(self, grace: float = 5.0) -> None:
        """SIGTERM the worker (it cleans up its kernel); after `grace` seconds stop and
        kill it and everything still under it (kernel, the kernel's own processes)."""
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        if grace > 0:
            for p in processes:
                if p.is_alive():
                    p.terminate()
        deadline = time.monotonic() + grace
        for p in processes:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive() and p.pid is not None:
                kill_tree(p.pid)
                p.join(5.0)
        try:
            self.executor.shutdown(wait=False, cancel_futures=True)
        except Exception:
            pass
        shutil.rmtree(self.tmp, ignore_errors=True)


class LocalPool:
    """Up to `workers` local processes (spawned: nothing of the coordinator leaks into
    them). `start` of them (default: all) start at once, the others when `start` is
    called: a class of one submission needs one worker, not one per core."""

    def __init__(self, workers: int, retries: int = 1,
                 log: logging.Logger | None = None, job_timeout: float | None = None,
                 start: int | None = None) -> None:
        if workers < 1:
            raise PuzzleError(f"--workers must be at least 1, got {workers}")
        self.job_timeout = check_job_timeout(job_timeout)
        self.slots = workers
        self.retries = retries
        self.log = log or logging.getLogger("puzzlekit.course.workers")
        self._free: queue.Queue[_Slot] = queue.Queue()
        self._all = [_Slot(i) for i in range(workers)]
        self._starting = threading.Lock()
        self.restarts = 0
        self._local = threading.local()
        self.start(workers if start is None else start)

    @property
    def started(self) -> int:
        """How many of the slots have a worker process."""
        return sum(slot.started for slot in self._all)

    def start(self, workers: int) -> int:
        """Make sure `workers` worker processes (at most the pool's `slots`) are running
        or starting; each starts in the background (see `_Slot.start`). Returns how many
        there are."""
        with self._starting:
            for slot in self._all[:max(0, min(workers, self.slots))]:
                if not slot.started:
                    slot.start()
                    self._free.put(slot)
        return self.started

    def waited(self) -> float:
        """Seconds the calling thread's last `run` waited for a free worker."""
        return float(getattr(self._local, "waited", 0.0))

    def _take(self, stop: threading.Event) -> _Slot:
        t0 = time.perf_counter()
        while True:
            if stop.is_set():
                raise KeyboardInterrupt
            try:
                slot = self._free.get(timeout=POLL)
                self._local.waited += time.perf_counter() - t0
                return slot
            except queue.Empty:
                continue

    def run(self, key: str, job: bytes, stop: threading.Event) -> bytes:
        failures = 0
        self._local.waited = 0.0
        while True:
            slot = self._take(stop)
            try:
                slot.jobs += 1
                future = slot.executor.submit(execute_job, job)
                deadline = time.monotonic() + self.job_timeout
                while True:
                    if stop.is_set():
                        raise KeyboardInterrupt
                    if time.monotonic() > deadline:
                        self.restarts += 1
                        slot.replace()
                        self._free.put(slot)
                        message = timed_out_message(key, self.job_timeout)
                        self.log.error("%s", message)
                        raise JobTimedOut(message)
                    try:
                        result: bytes = future.result(timeout=POLL)
                        break
                    except FutureTimeout:
                        continue
            except BrokenProcessPool:
                failures += 1
                self.restarts += 1
                slot.replace()
                self._free.put(slot)
                if failures > self.retries:
                    raise WorkerDied(f"the worker process died while grading {key}, "
                                     f"{failures} times; not tried again") from None
                self.log.warning("The worker process grading %s died; it was replaced and "
                                 "the submission is graded again", key)
                continue
            except KeyboardInterrupt:
                self._free.put(slot)
                raise
            self._free.put(slot)
            return result

    def close(self, cancel: bool = False) -> None:
        """Stop the workers: with `cancel` at once (`_Slot.stop_processes`: SIGTERM, so
        that a job's kernel is cleaned up), else each as soon as its job is done. A worker
        without a job has nothing left to do (its answers are back, its kernels shut
        down, its scratch folders removed): it is killed, as if it had ended with
        ``os._exit``, instead of being left to tear down every module it imported, which
        takes a Python that imported nbgrader seconds. Closing again does nothing."""
        slots = [slot for slot in self._all if slot.started and not slot.closed]
        for slot in slots:
            slot.closed = True
        if cancel:
            for slot in slots:
                slot.stop_processes(grace=5.0 if slot.jobs else 0.0)
            return
        busy = set(slots)
        deadline = time.monotonic() + self.job_timeout
        while busy and time.monotonic() < deadline:
            try:
                slot = self._free.get(timeout=POLL)
            except queue.Empty:
                continue
            if slot in busy:
                busy.discard(slot)
                slot.stop_processes(grace=0.0)
        for slot in busy:              # still held by a job after a job's time
            slot.stop_processes()


class DaskPool:
    """Jobs on an existing Dask scheduler (``dask.distributed``)."""

    def __init__(self, address: Any, log: logging.Logger | None = None,
                 job_timeout: float | None = None) -> None:
        self.job_timeout = check_job_timeout(job_timeout)
        try:
            from distributed import Client
        except ImportError:
            raise PuzzleError("--dask needs dask.distributed: pip install "
                              "'puzzlekit[cluster]'") from None
        self.log = log or logging.getLogger("puzzlekit.course.workers")
        self._own = False
        if isinstance(address, str):
            try:
                self.client = Client(address, timeout=30)
            except (OSError, TimeoutError) as exc:
                raise PuzzleError(f"cannot reach the Dask scheduler at {address}: {exc}"
                                  ) from None
            self._own = True
        else:
            self.client = address          # a Client, or a cluster object
            if not hasattr(self.client, "submit"):
                self.client = Client(address)
                self._own = True
        threads = sum(self.client.nthreads().values())
        if threads < 1:
            try:
                self.client.wait_for_workers(1, timeout=60)
            except Exception:
                raise PuzzleError("the Dask scheduler has no workers") from None
            threads = sum(self.client.nthreads().values())
        self.slots = max(1, threads)
        self.restarts = 0
        self._futures: set[Any] = set()
        self._lock = threading.Lock()

    def waited(self) -> float:
        """Dask queues the job itself: not measured here."""
        return 0.0

    def run(self, key: str, job: bytes, stop: threading.Event) -> bytes:
        from distributed import TimeoutError as DaskTimeout

        if stop.is_set():
            raise KeyboardInterrupt
        future = self.client.submit(execute_job_within, job, self.job_timeout, pure=False,
                                    key=f"puzzlekit-grade-{key}-{time.time_ns()}")
        with self._lock:
            self._futures.add(future)
        # the job keeps its own deadline in the worker, from when it starts there; this
        # one, counted from now (Dask may first queue the job behind one that hangs), is
        # for an answer that never comes (a lost worker)
        deadline = time.monotonic() + 2 * self.job_timeout + DASK_GRACE
        try:
            while True:
                if stop.is_set():
                    future.cancel()
                    raise KeyboardInterrupt
                if time.monotonic() > deadline:
                    future.cancel()
                    message = timed_out_message(key, self.job_timeout)
                    self.log.error("%s", message)
                    raise JobTimedOut(message)
                try:
                    answer = bytes(future.result(timeout=POLL))
                    if answer.startswith(JOB_TIMED_OUT):
                        message = timed_out_message(key, self.job_timeout)
                        self.log.error("%s", message)
                        raise JobTimedOut(message)
                    return answer
                except (DaskTimeout, TimeoutError):
                    continue
                except Exception as exc:
                    if type(exc).__name__ == "KilledWorker":
                        raise WorkerDied(f"Dask workers died while grading {key}: {exc}"
                                         ) from None
                    raise
        finally:
            with self._lock:
                self._futures.discard(future)

    def close(self, cancel: bool = False) -> None:
        if cancel:
            with self._lock:
                futures = list(self._futures)
            if futures:
                self.client.cancel(futures)
        if self._own:
            self.client.close()
