"""The work unit of class grading: execute one sanitized notebook, anywhere.

`puzzlekit.course.workers` (the coordinator, the only gradebook writer) runs nbgrader's own
``Autograde`` converter for each submission, with the execute step replaced by one that
packs the sanitized notebook, the files of its folder and the execute settings into a
`job` (bytes: JSON), and sends it to a local worker process or a Dask worker. There
`execute_job` runs the course's execute preprocessor (``WalledExecute``, or nbgrader's
``Execute``) on it in a temporary folder and answers with bytes (JSON): the executed
notebook, what the preprocessor logged, and timings. Nothing here needs the course
folder, a shared file system or the gradebook.

The files are packed from the converter's folder with `puzzlekit.autograder.judge.plainfiles`: plain files
only, read without following a link (a link, FIFO or device is left out and reported).
`execute_job_within` (what Dask runs) keeps a deadline inside the worker: the job runs in
a child process (``python -m puzzlekit.course.workers.remote --serve``, kept warm for the
thread's next job), killed with everything under it at the deadline.
"""

from __future__ import annotations

import base64
import importlib
import json
import logging
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...autograder.judge.plainfiles import Dropped, ignore_names, read_all, walk_plain
from ...context import nbgrader_execution_as
from .proctree import become_subreaper, kill_tree, reap_orphans

#: job format version (coordinator and worker must agree): 2 since the package's wings (the
#: execute class is ``puzzlekit.autograder.judge.autograde.WalledExecute``; a worker with
#: the flat package of version 1 could not import it, and says so instead of failing)
JOB_VERSION = 2
#: a folder bigger than this is not shipped (a submission with a data dump, say)
MAX_JOB_BYTES = 256 * 1024 * 1024
#: the answer of `execute_job_within` when the job ran past its deadline
JOB_TIMED_OUT = b'{"timed_out": true'


def _jsonable(value: Any) -> Any:
    """`value` with everything that is not plain JSON left out (None if nothing is)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            j = _jsonable(v)
            if j is not None or v is None:
                out[str(k)] = j
        return out
    if isinstance(value, (list, tuple)):
        items = [_jsonable(v) for v in value]
        return items if all(i is not None or v is None for i, v in zip(items, value)) else None
    return None


def config_sections(config: Any) -> dict[str, Any]:
    """The plain-data part of a traitlets config (classes, functions and lazy values are
    left out): what an execute preprocessor and its kernel manager may read."""
    out: dict[str, Any] = {}
    for section, values in dict(config).items():
        if not hasattr(values, "items"):
            continue
        plain = _jsonable({k: v for k, v in values.items()})
        if plain:
            out[section] = plain
    return out


def pack_job(nb: Any, resources: dict[str, Any], execute_class: str,
             config: dict[str, Any], key: str = "",
             on_drop: Callable[[Dropped], None] | None = None) -> bytes:
    """The job for `execute_job`: the notebook, every plain file of the folder it was read
    from (``resources['metadata']['path']``; links and special files go to `on_drop`),
    the execute class's import path and its config."""
    import nbformat
    folder = Path((resources.get("metadata") or {}).get("path") or ".")
    files: dict[str, str] = {}
    size = 0
    too_big = ValueError(f"the submission folder {folder} holds more than "
                         f"{MAX_JOB_BYTES >> 20} MB; too big to ship to a worker")
    for rel, fd, st in walk_plain(folder, skip=ignore_names(".ipynb_checkpoints",
                                                            "__pycache__"), on_drop=on_drop):
        if not rel or not stat.S_ISREG(st.st_mode):          # the folders themselves
            continue
        try:
            data = read_all(fd, MAX_JOB_BYTES - size)
        except ValueError:
            raise too_big from None
        size += len(data)
        files[rel] = base64.b64encode(data).decode("ascii")
    meta = dict(resources.get("metadata") or {})
    shipped = {"metadata": {"name": meta.get("name", ""), "modified_date":
                            str(meta.get("modified_date", ""))},
               "nbgrader": _jsonable(dict(resources.get("nbgrader") or {})) or {},
               "unique_key": resources.get("unique_key"),
               "output_files_dir": resources.get("output_files_dir")}
    job = {"version": JOB_VERSION, "key": key, "execute": execute_class, "config": config,
           "notebook": nbformat.writes(nb), "resources": shipped, "files": files}
    return json.dumps(job).encode("utf-8")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[tuple[int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.records.append((record.levelno, record.getMessage()))
        except Exception:      # a bad format string must not lose the notebook
            self.records.append((record.levelno, str(record.msg)))


def _import(path: str) -> Any:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def execute_job(job: bytes) -> bytes:
    """Run a job made by `pack_job`; the answer as JSON bytes: ``notebook`` (the executed
    notebook) or ``error`` (type, message, traceback), ``log`` and ``timings``."""
    t0 = time.perf_counter()
    spec = json.loads(job)
    if spec.get("version") != JOB_VERSION:
        raise ValueError(f"job version {spec.get('version')} (this worker knows {JOB_VERSION}): "
                         "the workers and the coordinator run different versions of "
                         "puzzlekit; install the same one on both")
    key = str(spec.get("key", ""))
    import nbformat
    from traitlets.config import Config

    handler = _Collect()
    log = logging.getLogger(f"puzzlekit.course.workers.remote.{os.getpid()}")
    log.propagate = False
    log.setLevel(logging.INFO)
    log.addHandler(handler)
    timings: dict[str, float] = {}
    folder = Path(tempfile.mkdtemp(prefix="pkclass-"))
    answer: dict[str, Any] = {"key": key, "pid": os.getpid()}
    try:
        with nbgrader_execution_as("autograde"):     # as nbgrader autograde sets it
            for rel, data in spec["files"].items():
                target = folder / rel
                if folder not in target.resolve().parents:
                    raise ValueError(f"a file outside the job folder: {rel!r}")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(base64.b64decode(data))
            nb = nbformat.reads(spec["notebook"], as_version=4)
            resources = dict(spec["resources"])
            resources["metadata"] = dict(resources.get("metadata") or {}, path=str(folder))
            cls = _import(spec["execute"])
            pp = cls(config=Config(spec["config"]), log=log)
            timings["unpack"] = time.perf_counter() - t0
            first: list[float] = []
            cell_method = pp.preprocess_cell

            def timed_cell(*args: Any, **kwargs: Any) -> Any:
                if not first:
                    first.append(time.perf_counter())
                return cell_method(*args, **kwargs)
            pp.preprocess_cell = timed_cell          # the kernel is up at the first cell
            t1 = time.perf_counter()
            nb, _ = pp(nb, resources)
            t2 = time.perf_counter()
            timings["execute"] = t2 - t1
            timings["kernel_start"] = (first[0] - t1) if first else t2 - t1
            answer["notebook"] = nbformat.writes(nb)
    except Exception as exc:
        answer["error"] = {"type": f"{type(exc).__module__}.{type(exc).__qualname__}",
                           "message": str(exc), "traceback": traceback.format_exc()}
    finally:
        log.removeHandler(handler)
        shutil.rmtree(folder, ignore_errors=True)
        if _terminated:              # stopped by the coordinator: the kernel is cleaned up
            os._exit(128 + _terminated[0])
        if _subreaper:
            reap_orphans()
    answer["log"] = handler.records
    timings["worker_total"] = time.perf_counter() - t0
    answer["timings"] = timings
    return json.dumps(answer).encode("utf-8")


_terminated: list[int] = []
_subreaper: list[bool] = []


def worker_init(tmp: str | None = None) -> None:
    """Initializer of a local worker process: Ctrl-C is the coordinator's business (it
    stops the workers with SIGTERM, which unwinds the kernel's clean-up, then the process
    exits); the worker adopts the orphans of its kernels (so that stopping it finds them,
    `puzzlekit.course.workers.proctree`); its temporary files go to `tmp`; and the heavy modules are
    imported once, before the first job."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def stop(signum: int, frame: Any) -> None:
        _terminated.append(signum)
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
    if tmp:
        tempfile.tempdir = tmp
    if become_subreaper():
        _subreaper.append(True)
    try:
        import nbclient  # noqa: F401
        import nbformat  # noqa: F401
        import nbgrader.preprocessors  # noqa: F401

        import puzzlekit.autograder.judge.autograde  # noqa: F401
    except ImportError as exc:     # the job says what is missing
        print(f"puzzlekit worker: {exc}", file=sys.stderr)


class _Runner:
    """A child process (``python -m puzzlekit.course.workers.remote --serve``) that runs jobs
    one after the other, warm (its heavy imports done once): it reads the paths of a job
    and of its answer on stdin and writes a line on its own copy of stdout when done."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="pkrunner-")
        self.err = open(Path(self.dir) / "stderr.txt", "w+b")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "puzzlekit.course.workers.serve", self.dir],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err)
        self.jobs = 0

    def run(self, job: bytes, seconds: float) -> bytes | None:
        """The answer, or None when `seconds` passed (the runner is then killed)."""
        import select
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.jobs += 1
        job_file = Path(self.dir) / f"job-{self.jobs}.json"
        answer_file = Path(self.dir) / f"answer-{self.jobs}.json"
        job_file.write_bytes(job)
        deadline = time.monotonic() + seconds
        try:
            self.proc.stdin.write(f"{job_file}\t{answer_file}\n".encode())
            self.proc.stdin.flush()
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                ready, _, _ = select.select([self.proc.stdout], [], [], min(left, 1.0))
                if ready:
                    break
            line = self.proc.stdout.readline()
        except BrokenPipeError:
            line = b""
        if not line:
            self.err.seek(0)
            tail = self.err.read()[-2000:].decode(errors="replace")
            raise RuntimeError(f"the grading process died (exit code {self.proc.wait()})"
                               f":\n{tail}")
        try:
            return answer_file.read_bytes()
        finally:
            job_file.unlink(missing_ok=True)
            answer_file.unlink(missing_ok=True)

    def close(self) -> None:
        """Stop the runner and everything under it; its folder removed."""
        if self.proc.poll() is None:
            kill_tree(self.proc.pid)
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
        self.err.close()
        shutil.rmtree(self.dir, ignore_errors=True)


_runners = threading.local()


def execute_job_within(job: bytes, seconds: float) -> bytes:
    """`execute_job` in a child process of this one (warm, reused by the next job of the
    same thread), killed with everything under it after `seconds` (then the answer is
    `JOB_TIMED_OUT`): what a Dask worker runs, so that a job that hangs never holds the
    worker's thread. A child that dies is replaced and the job tried once more; then a
    RuntimeError."""
    for attempt in (1, 2):
        runner = getattr(_runners, "runner", None)
        if runner is None or runner.proc.poll() is not None:
            if runner is not None:
                runner.close()
            runner = _runners.runner = _Runner()
        try:
            answer = runner.run(job, seconds)
        except BaseException:
            runner.close()
            _runners.runner = None
            if attempt == 2:
                raise
            continue           # the runner died (killed, out of memory): once more
        if answer is None:
            runner.close()
            _runners.runner = None
            return JOB_TIMED_OUT + f', "seconds": {seconds}}}'.encode()
        return answer
    raise AssertionError("unreachable")


def serve(folder: str) -> int:
    """The runner's loop (see `_Runner`; ``python -m puzzlekit.course.workers.serve``):
    stray output of the jobs goes to stderr."""
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    worker_init(tempfile.mkdtemp(prefix="tmp-", dir=folder))
    for line in sys.stdin.buffer:
        job_file, _, answer_file = line.decode().rstrip("\n").partition("\t")
        answer = execute_job(Path(job_file).read_bytes())
        Path(answer_file).write_bytes(answer)
        replies.write(b"done\n")
        replies.flush()
    return 0

