"""Grade a whole class fast: ``python -m puzzlekit grade ASSIGNMENT``.

The coordinator (this process) is the only writer to the gradebook. For every submission
that is not graded yet it runs nbgrader's own ``Autograde`` converter, exactly as
``nbgrader autograde`` does (the same skip/``--force``/newer-timestamp rules, timestamps,
late penalties, files copied into ``autograded/``, permissions, clean-up after a
failure), with one change: the execute step (the course's ``WalledExecute``, or
nbgrader's ``Execute``) is replaced by `RemoteExecute`, which ships the sanitized notebook
and the files of its folder to a worker (`puzzlekit.course.workers.pool`: local processes or
Dask) and puts the executed notebook back into the converter. Saving the grades, the late
penalties and writing ``autograded/`` then happen here, as in nbgrader.

Concurrency: each submission in flight has a thread running its converter; a single
lock lets one converter at a time run (sanitizing, gradebook writes, files), and
`RemoteExecute` releases it while the worker executes. So the gradebook (SQLite) has one
writer at a time, and nbgrader's converter code runs as it does serially.

No submission holds the class up: each job has a timeout (`job_timeout`, ``--job-timeout``;
by default the course's per-notebook budget and a quarter more, see
`puzzlekit.course.workers.pool.default_job_timeout`), after which its worker is stopped with
its kernel and replaced, and the submission is reported as failed, saying so.

Only plain files are shipped to the workers (`puzzlekit.autograder.judge.plainfiles`): a link or special
file in a submission is left out, with a line in the log naming the student and the entry
(the converter's own copy into ``autograded/`` already leaves them out, see
`puzzlekit.autograder.judge.plainfiles.guard_autograde_copies`).

Interrupting (Ctrl-C) stops handing out work; a submission whose notebook was still
executing is cleaned up the way nbgrader cleans up a failed one (its ``autograded/``
folder removed), so a rerun grades exactly the submissions that are not graded yet.

A small class (at most `SMALL_CLASS` submissions to grade, and no workers, Dask, pool or
job timeout asked for) is graded in this process instead, one submission after the other,
by nbgrader's converter with the course's own execute step: exactly what
``nbgrader autograde`` runs. A worker is a new Python that imports nbgrader (about as
much CPU as nbgrader autograde's whole start), and a few notebooks side by side do not
win that back (benchmarks/bench_classgrade.py measures both). There each notebook's time
is bounded by the course's own budget (``WalledExecute.notebook_timeout``), as with
``nbgrader autograde``; stopping a grader that is stuck past it needs a worker process.
"""

from __future__ import annotations

import contextlib
import glob
import json
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...autograder.judge.plainfiles import guard_autograde_copies, report_line
from ...context import nbgrader_execution_as
from ...errors import PuzzleError
from ..quiet import filter_nbgraders_warnings
from .pool import DaskPool, LocalPool, default_job_timeout, default_workers
from .progress import grade_progress
from .remote import config_sections, pack_job

LOG = logging.getLogger("puzzlekit.course.workers")
#: at most this many submissions to grade: graded in this process (see the docstring)
SMALL_CLASS = 3


@dataclass
class SubmissionTimes:
    """Where one submission's time went (seconds)."""
    total: float = 0.0          #: from the start of its converter to the graded notebook
    coordinator: float = 0.0    #: in the coordinator: sanitize, gradebook, files
    remote: float = 0.0         #: round trip of its jobs (shipping + queue + worker)
    worker: float = 0.0         #: inside the worker: unpack + execute
    execute: float = 0.0        #: the execute preprocessor itself (kernel start included)
    kernel_start: float = 0.0   #: from the start of execute to the first cell
    queue: float = 0.0          #: waiting for a free worker (local workers only)

    @property
    def own(self) -> float:
        """The submission's own cost: in the coordinator and in the worker (no queues)."""
        return self.coordinator + self.worker


@dataclass
class GradeReport:
    """What `grade_class` did."""
    assignment: str
    graded: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)       #: already graded
    not_done: list[str] = field(default_factory=list)      #: left by an interruption
    interrupted: bool = False
    seconds: float = 0.0
    workers: int = 0             #: 0: graded in this process
    worker_restarts: int = 0
    times: dict[str, SubmissionTimes] = field(default_factory=dict)
    #: student -> the entries of the submission left out (links, special files)
    dropped: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failed and not self.interrupted

    def summary(self) -> str:
        parts = [f"{self.assignment}: {len(self.graded)} graded"]
        if self.skipped:
            parts.append(f"{len(self.skipped)} already graded")
        if self.failed:
            parts.append(f"{len(self.failed)} failed ({', '.join(sorted(self.failed))})")
        if self.interrupted:
            parts.append(f"interrupted, {len(self.not_done)} not graded yet (run the same "
                         f"command again to go on)")
        parts.append(f"{self.seconds:.1f} s in this process" if not self.workers else
                     f"{self.seconds:.1f} s with {self.workers} worker"
                     f"{'s' if self.workers != 1 else ''}")
        return ", ".join(parts)


# ------------------------------------------------------------------------------ course

def course_config(course_root: str | os.PathLike[str] = ".",
                  options: Sequence[str] = ()) -> Any:
    """The course's nbgrader config, loaded as nbgrader's own commands load it when run
    from `course_root` (``nbgrader_config.py`` there, plus the user's and system ones),
    with nbgrader's command-line `options` on top (``--Class.trait=value``)."""
    from nbgrader.apps.autogradeapp import AutogradeApp
    root = Path(course_root).resolve()
    if not root.is_dir():
        raise PuzzleError(f"no course folder at {root}")
    old = os.getcwd()
    os.chdir(root)
    try:
        app = AutogradeApp()
        app.log.setLevel(logging.ERROR)
        app.initialize(list(options))
        config = app.config
        if "root" not in config.get("CourseDirectory", {}):
            config.CourseDirectory.root = str(root)
    finally:
        os.chdir(old)
    return config


def _coursedir(config: Any, assignment: str = "", student: str = "*") -> Any:
    from nbgrader.coursedir import CourseDirectory
    cd = CourseDirectory(config=config)
    cd.assignment_id = assignment
    cd.student_id = student
    return cd


def submissions(config: Any, assignment: str) -> list[str]:
    """The students with a collected submission of `assignment` (submitted/<id>/<a>/)."""
    cd = _coursedir(config, assignment)
    pattern = cd.format_path(cd.submitted_directory, "*", assignment)
    regexp = cd.format_path(cd.submitted_directory, "(?P<student_id>[^/]+)", assignment,
                            escape=True)
    excluded = set(filter(None, (cd.student_id_exclude or "").split(",")))
    found = []
    for path in glob.glob(pattern):
        m = re.match(regexp, path)
        if m and os.path.isdir(path) and m["student_id"] not in excluded:
            found.append(m["student_id"])
    return sorted(set(found))


def needs_grading(config: Any, assignment: str, student: str, force: bool = False) -> bool:
    """nbgrader's rule: not autograded yet, or ``force``, or submitted again since."""
    cd = _coursedir(config, assignment, student)
    dest = cd.format_path(cd.autograded_directory, student, assignment)
    if force or not os.path.exists(dest):
        return True
    new = cd.get_existing_timestamp(cd.format_path(cd.submitted_directory, student,
                                                   assignment))
    old = cd.get_existing_timestamp(dest)
    return new is not None and old is not None and new > old


def _check_assignment(config: Any, assignment: str) -> None:
    from nbgrader.api import Gradebook, MissingEntry
    cd = _coursedir(config, assignment)
    with Gradebook(cd.db_url, cd.course_id) as gb:
        try:
            gb.find_assignment(assignment)
        except MissingEntry:
            known = sorted(a.name for a in gb.assignments)
            raise PuzzleError(
                f"unknown assignment {assignment!r} in the gradebook of {cd.root} (known: "
                f"{', '.join(known) or 'none'}); run `nbgrader generate_assignment "
                f"{assignment}` first") from None
    # the class is not graded with tests older than today's source (puzzlekit.course.authoring):
    # said once, before any submission, where nbgrader's autograde says it for each one
    from ..authoring import stale_message, stale_tests
    changed = stale_tests(cd, assignment, cd.db_url)
    if changed:
        raise PuzzleError(stale_message(assignment, changed))


class _DropExpected(logging.Filter):
    """nbgrader's checksum warning, which every test cell with hidden tests gives on every
    submission (docs/how-to/grade-a-class.md explains it): thousands of lines for a class, no news."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Attribute 'checksum' for cell" not in record.getMessage()


def _converter_log(log: logging.Logger) -> logging.Logger:
    """The logger nbgrader's converters write to: `log`'s child, without the expected."""
    child = log.getChild("nbgrader")
    if not any(isinstance(f, _DropExpected) for f in child.filters):
        child.addFilter(_DropExpected())
    return child


# ------------------------------------------------------------------ the execute proxy

class _Run:
    """What the converter threads of one `grade_class` call share."""

    def __init__(self, pool: Any, execute: str, config: dict[str, Any],
                 log: logging.Logger) -> None:
        self.pool = pool
        self.execute = execute
        self.config = config
        self.log = log
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.local = threading.local()
        self.times: dict[str, SubmissionTimes] = {}
        self.errors: dict[str, str] = {}
        self.dropped: dict[str, list[str]] = {}
        self.outcome: dict[str, str] = {}       #: student -> 'graded', 'failed', 'stopped'

    def hold(self) -> None:
        self.lock.acquire()
        self.local.since = time.perf_counter()

    def release(self, student: str) -> None:
        self.times[student].coordinator += time.perf_counter() - self.local.since
        self.lock.release()


def _remote_execute_class(run: _Run) -> type:
    """nbconvert preprocessor that executes the notebook on `run.pool`."""
    from nbconvert.preprocessors import Preprocessor
    from nbgrader.preprocessors.execute import UnresponsiveKernelError
    from traitlets import Bool


    class RemoteExecute(Preprocessor):
        """The execute step of the course, run by a worker (see the module docstring)."""

        enabled = Bool(True)

        def preprocess(self, nb: Any, resources: dict[str, Any]) -> Any:
            import nbformat
            student = str(resources.get("nbgrader", {}).get("student", ""))
            times = run.times.setdefault(student, SubmissionTimes())
            where = f"{resources.get('nbgrader', {}).get('assignment', '')}, shipping"
            job = pack_job(nb, resources, run.execute, run.config, key=student,
                           on_drop=lambda d: self.log.warning(
                               "%s", report_line(student, where, d)))
            run.release(student)
            t0 = time.perf_counter()
            try:
                answer = json.loads(run.pool.run(student, job, run.stop))
            except KeyboardInterrupt:
                raise
            except Exception as exc:
                run.errors[student] = str(exc)
                raise
            finally:
                times.remote += time.perf_counter() - t0
                times.queue += getattr(run.pool, "waited", lambda: 0.0)()
                run.hold()
                # as in a serial run at this point (another converter's autograde pass
                # may have ended meanwhile and removed it; nbgrader's setenv deletes it)
                os.environ["NBGRADER_EXECUTION"] = "autograde"
            timings = answer.get("timings", {})
            times.worker += float(timings.get("worker_total", 0.0))
            times.execute += float(timings.get("execute", 0.0))
            times.kernel_start += float(timings.get("kernel_start", 0.0))
            for level, message in answer.get("log", []):
                self.log.log(int(level), "[%s] %s", student, message)
            error = answer.get("error")
            if error:
                run.errors[student] = f"{error['type']}: {error['message']}"
                if error["type"].endswith("UnresponsiveKernelError"):
                    raise UnresponsiveKernelError(error["message"])
                raise RuntimeError(f"executing the notebook failed in the worker:\n"
                                   f"{error['traceback']}")
            return nbformat.reads(answer["notebook"], as_version=4), resources

    return RemoteExecute


def _execute_step(config: Any) -> tuple[int, str]:
    """(index, import path) of the execute preprocessor among the autograde steps."""
    from nbconvert.preprocessors import ExecutePreprocessor
    from nbgrader.converters.autograde import Autograde
    from traitlets.utils.importstring import import_item
    steps = Autograde(config=config).autograde_preprocessors
    for i, step in enumerate(steps):
        cls = import_item(step) if isinstance(step, str) else step
        if isinstance(cls, type) and issubclass(cls, ExecutePreprocessor):
            return i, f"{cls.__module__}.{cls.__qualname__}"
    raise PuzzleError("the course's Autograde.autograde_preprocessors have no execute step")


def _converter(run: _Run, config: Any, remote: type | None, step: int, assignment: str,
               student: str, force: bool) -> Any:
    """nbgrader's Autograde converter for one submission; its execute step replaced by
    `remote` (None: the course's own, run in this process, its lines named after the
    student as a worker's are)."""
    from nbgrader.converters.autograde import Autograde
    log: Any = _converter_log(run.log)
    if remote is None:
        log = _StudentLog(log, {"student": student})
    converter = Autograde(coursedir=_coursedir(config, assignment, student), config=config,
                          log=log)
    converter.force = force
    if remote is not None:
        steps = list(converter.autograde_preprocessors)
        steps[step] = remote
        converter.autograde_preprocessors = steps
    return converter


def _grade_one(run: _Run, config: Any, remote: type | None, step: int, assignment: str,
               student: str, force: bool) -> str:
    """Autograde one submission with nbgrader's converter: 'graded', 'failed' or 'stopped'."""
    from nbgrader.converters.base import NbGraderException
    if run.stop.is_set():
        return "stopped"
    run.hold()
    t0 = time.perf_counter()
    times = run.times.setdefault(student, SubmissionTimes())
    try:
        if run.stop.is_set():
            return "stopped"
        converter = _converter(run, config, remote, step, assignment, student, force)
        try:
            converter.start()
        finally:             # what puzzlekit.autograder.judge.plainfiles left out, refused
            dropped = getattr(converter, "_puzzlekit_dropped", None)
            if dropped:
                run.dropped[student] = [str(d) for d in dropped]
            refused = getattr(converter, "_puzzlekit_refused", None)
            if refused:
                run.errors[student] = refused
        return "graded"
    except KeyboardInterrupt:
        return "stopped"
    except NbGraderException as exc:
        run.errors.setdefault(student, str(exc))
        return "failed"
    except Exception as exc:       # nbgrader let it through: report it, go on
        run.log.error("[%s] %s", student, exc, exc_info=True)
        run.errors.setdefault(student, f"{type(exc).__name__}: {exc}")
        return "failed"
    finally:
        times.total = time.perf_counter() - t0
        run.release(student)


# --------------------------------------------------------------------------- grading

def make_pool(workers: int | None = None, dask: Any = None,
              log: logging.Logger | None = None, job_timeout: float | None = None,
              start: int | None = None) -> Any:
    """The pool of workers: Dask at `dask` (an address or a Client), else `workers` local
    processes (default: one per core), `start` of which start now (default: all; the
    others when `LocalPool.start` asks for them); each job stopped after `job_timeout`
    seconds (default: `default_job_timeout`)."""
    if dask is not None:
        if workers is not None:
            raise PuzzleError("give either --workers or --dask, not both")
        return DaskPool(dask, log=log, job_timeout=job_timeout)
    n = default_workers() if workers is None else workers
    if not isinstance(n, int) or n < 1:
        raise PuzzleError(f"--workers must be a whole number of at least 1, got {workers!r}")
    return LocalPool(n, log=log, job_timeout=job_timeout, start=start)


def grade_class(assignment: str, course_root: str | os.PathLike[str] = ".", *,
                force: bool = False, workers: int | None = None, dask: Any = None,
                students: Sequence[str] | None = None, progress: Any = "auto",
                config: Any = None, pool: Any = None,
                log: logging.Logger | None = None,
                job_timeout: float | None = None,
                in_process: bool | None = None) -> GradeReport:
    """Autograde every collected submission of `assignment` not graded yet (all with
    `force`), on `workers` local processes or the Dask scheduler `dask`; results land in
    the gradebook and ``autograded/`` exactly as ``nbgrader autograde`` leaves them.

    `config` is the course's nbgrader config (default: loaded from `course_root`);
    `pool` an existing `make_pool` result to reuse (it is left open; its own job timeout
    holds); `progress` "auto", "bar", "log", "widget", None or a `GradeProgress`;
    `job_timeout`: seconds after which a submission's job is stopped and reported as
    failed (default: the course's ``WalledExecute.notebook_timeout`` and a quarter more).

    `in_process`: grade in this process, one submission after the other, as
    ``nbgrader autograde`` does (True), on workers (False), or (None) in this process
    when there are at most `SMALL_CLASS` submissions to grade and none of `workers`,
    `dask`, `pool` and `job_timeout` is given."""
    if not assignment or "/" in assignment or assignment.startswith("."):
        raise PuzzleError(f"not an assignment name: {assignment!r}")
    if dask is not None and workers is not None:
        raise PuzzleError("give either --workers or --dask, not both")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise PuzzleError(f"--workers must be a whole number of at least 1, got {workers!r}")
    on_workers = workers is not None or dask is not None or pool is not None \
        or job_timeout is not None
    if in_process and on_workers:
        raise PuzzleError("grading in this process uses no workers: give none of "
                          "--workers, --dask, --job-timeout or a pool with it")
    log = log or LOG
    if config is None:
        config = course_config(course_root)
    _check_assignment(config, assignment)
    everyone = submissions(config, assignment)
    if students is not None:
        unknown = sorted(set(students) - set(everyone))
        if unknown:
            raise PuzzleError(f"no submission of {assignment} by {', '.join(unknown)}")
        everyone = [s for s in everyone if s in set(students)]
    if not everyone:
        cd = _coursedir(config, assignment)
        raise PuzzleError(f"no submissions of {assignment} in "
                          f"{cd.format_path(cd.submitted_directory, '*', assignment)}")
    report = GradeReport(assignment)
    pending = [s for s in everyone if needs_grading(config, assignment, s, force)]
    report.skipped = [s for s in everyone if s not in pending]
    # nbgrader's own gradebook code warns for every submission (SQLAlchemy's "not in
    # session" SAWarning, harmless and the same in a serial run): not the instructor's news
    filter_nbgraders_warnings()
    display = grade_progress(progress)
    t_start = time.perf_counter()
    if not pending:
        display.start(0)
        display.close()
        return report

    step, execute = _execute_step(config)
    guard_autograde_copies()        # the course's config does it too; an older one may not
    if in_process or (in_process is None and not on_workers
                      and len(pending) <= SMALL_CLASS):
        run = _Run(None, execute, {}, log)
        report.interrupted = _grade_here(run, config, assignment, pending, force, display)
        return _finish(report, run, pending, t_start)
    own_pool = pool is None
    if own_pool:
        pool = make_pool(workers, dask, log=log, job_timeout=(
            default_job_timeout(config) if job_timeout is None else job_timeout),
            start=len(pending))
    # local workers: as many as there are submissions to grade, up to the pool's size
    report.workers = pool.start(len(pending)) if isinstance(pool, LocalPool) else pool.slots
    run = _Run(pool, execute, config_sections(config), log)
    remote = _remote_execute_class(run)
    cwd = os.getcwd()
    # nbgrader's converters set NBGRADER_EXECUTION in these threads: as it was, after
    with nbgrader_execution_as(None):
        threads = ThreadPoolExecutor(max_workers=2 * pool.slots + 1,
                                     thread_name_prefix="puzzlekit-grade")
        futures = {threads.submit(_grade_one, run, config, remote, step, assignment, s,
                                  force): s for s in pending}
        display.start(len(pending))
        outcome: dict[str, str] = {}
        cancel = False
        try:
            waiting = set(futures)
            while waiting:
                done, waiting = wait(waiting, timeout=0.5, return_when=FIRST_COMPLETED)
                for f in done:
                    student = futures[f]
                    outcome[student] = f.result()
                    display.done(student, run.times.get(student, SubmissionTimes()).own,
                                 ok=outcome[student] == "graded")
        except KeyboardInterrupt:
            report.interrupted = cancel = True
            run.stop.set()
            log.warning("Interrupted: finishing what is being written to the gradebook, "
                        "cleaning up the rest")
            for f in futures:
                f.cancel()
            for f, student in futures.items():
                if f.cancelled():
                    outcome[student] = "stopped"
                    continue
                try:
                    outcome[student] = f.result()
                except BaseException:
                    outcome[student] = "stopped"
        finally:
            threads.shutdown(wait=True, cancel_futures=True)
            report.worker_restarts = getattr(pool, "restarts", 0)
            if own_pool:
                pool.close(cancel=cancel)
            os.chdir(cwd)
            display.close()
    run.outcome = outcome
    return _finish(report, run, pending, t_start)


@contextlib.contextmanager
def interrupts_not_lost() -> Iterator[None]:
    """While the block runs, a Ctrl-C that lands in a finaliser (a weakref callback, a
    ``__del__``), where Python reports it as unraisable and goes on, is delivered again to
    the main thread: grading stops, and nbgrader cleans up the submission it was on."""
    import _thread
    old = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            # from another thread, a moment later: the finaliser will have ended (if
            # not, this hook runs again)
            threading.Timer(0.05, _thread.interrupt_main).start()
            return
        old(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = old


def _grade_here(run: _Run, config: Any, assignment: str, pending: list[str], force: bool,
                display: Any) -> bool:
    """Grade `pending` in this process, one after the other, with the course's own
    execute step (see the module docstring); True if interrupted (Ctrl-C: nbgrader's
    converter has removed what it had written of the submission it was grading)."""
    cwd = os.getcwd()
    errors = _LastTraceback()
    nbgrader_log = _converter_log(run.log)
    nbgrader_log.addHandler(errors)
    display.start(len(pending))
    try:
        # nbgrader's converter sets NBGRADER_EXECUTION while it grades: as it was, after
        with nbgrader_execution_as(None):
            for student in pending:
                errors.last = ""
                result = run.outcome[student] = _grade_one(run, config, None, -1,
                                                           assignment, student, force)
                if result == "stopped":
                    raise KeyboardInterrupt
                if result == "failed" and errors.last:      # nbgrader's own words
                    run.errors[student] = errors.last
                display.done(student, run.times.get(student, SubmissionTimes()).own,
                             ok=result == "graded")
    except KeyboardInterrupt:
        run.log.warning("Interrupted: the submission being graded was cleaned up")
        return True
    finally:
        nbgrader_log.removeHandler(errors)
        os.chdir(cwd)
        display.close()
    return False


class _LastTraceback(logging.Handler):
    """The last traceback nbgrader's converter logged (it logs a failed submission's
    error that way, then raises a general one)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.last = ""

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "Traceback (most recent call last)" in message:
            self.last = message


class _StudentLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """A converter's log whose lines start with ``[student]``."""

    def process(self, msg: Any, kwargs: Any) -> tuple[Any, Any]:
        return f"[{(self.extra or {}).get('student', '')}] {msg}", kwargs


def _finish(report: GradeReport, run: _Run, pending: list[str],
            t_start: float) -> GradeReport:
    """`report` with what became of each of `pending` (`run.outcome`)."""
    for student in pending:
        result = run.outcome.get(student, "stopped")
        if result == "graded":
            report.graded.append(student)
        elif result == "failed":
            report.failed[student] = run.errors.get(student, "see the log")
        else:
            report.not_done.append(student)
    report.times = run.times
    report.dropped = run.dropped
    report.seconds = time.perf_counter() - t_start
    return report


# ------------------------------------------------------------------------------ watch

def watch(assignment: str, course_root: str | os.PathLike[str] = ".", *,
          interval: float = 30.0, feedback: bool = False, workers: int | None = None,
          dask: Any = None, progress: Any = "log", rounds: int | None = None,
          config: Any = None, log: logging.Logger | None = None,
          job_timeout: float | None = None) -> int:
    """Collect new submissions from the exchange (``nbgrader collect``), grade them and,
    with `feedback`, generate and release their feedback; every `interval` seconds, for
    `rounds` rounds (None: until interrupted). Returns the number of submissions graded."""
    from nbgrader.apps import NbGraderAPI
    log = log or LOG
    if interval <= 0:
        raise PuzzleError(f"--interval must be positive, got {interval}")
    if config is None:
        config = course_config(course_root)
    _check_assignment(config, assignment)
    api = NbGraderAPI(coursedir=_coursedir(config), config=config)
    # local workers start when a round has something to grade (`grade_class`)
    pool = make_pool(workers, dask, log=log, job_timeout=(
        default_job_timeout(config) if job_timeout is None else job_timeout), start=0)
    graded = 0
    n = 0
    try:
        while rounds is None or n < rounds:
            n += 1
            collected = api.collect(assignment)
            if not collected.get("success"):
                log.warning("nbgrader collect %s failed: %s", assignment,
                            (collected.get("error") or collected.get("log") or "").strip())
            if submissions(config, assignment):
                report = grade_class(assignment, force=False, progress=progress,
                                     config=config, pool=pool, log=log)
                graded += len(report.graded)
                if report.graded or report.failed:
                    log.warning("%s", report.summary())
                if feedback:
                    for student in report.graded:
                        made = api.generate_feedback(assignment, student)
                        sent = api.release_feedback(assignment, student) if made.get(
                            "success") else made
                        if not sent.get("success"):
                            log.warning("feedback for %s: %s", student,
                                        (sent.get("error") or sent.get("log") or "").strip())
                if report.interrupted:
                    break
            if rounds is None or n < rounds:
                time.sleep(interval)
    except KeyboardInterrupt:
        log.warning("stopped watching %s", assignment)
    finally:
        pool.close(cancel=True)
    return graded


def print_report(report: GradeReport, stream: Any = None) -> None:
    """The summary line, the reason of every failure and what was left out."""
    out = stream or sys.stderr
    for student, entries in sorted(report.dropped.items()):
        for entry in entries:
            print(f"left out: {student}: {entry}", file=out)
    for student, why in sorted(report.failed.items()):
        print(f"failed: {student}: {why.strip().splitlines()[-1] if why.strip() else why}",
              file=out)
    print(report.summary(), file=out)
