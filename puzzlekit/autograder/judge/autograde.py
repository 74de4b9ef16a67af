"""Autograding behind a wall: the student's code reaches only its own notebook.

`WalledExecute` replaces nbgrader's ``Execute`` preprocessor in ``nbgrader autograde``.
For every submission it

1. copies the submission's folder into a fresh scratch folder and starts the kernel
   there, behind `puzzlekit.autograder.wall` (Landlock, user and network namespaces, rlimits): the
   kernel can read Python and its packages but nothing of the course (not ``source/``,
   not other students' files, not ``gradebook.db``) and write only its scratch folder;
   it talks to the grader over Unix sockets in that folder, with no network;
2. runs the student's cells and the notebook's given cells in that kernel, as nbgrader
   would, but runs every graded test cell in the grader's own process (`puzzlekit.autograder.judge.judge`),
   which calls the student's functions in the kernel and checks plain data: the
   verdict is out of the kernel's reach;
3. survives a hostile cell: a cell that ignores interrupts, kills its kernel or hits a
   limit gets a plain-words error; the kernel is restarted, the cells that ran before
   are replayed silently, and grading goes on, so the cell costs only its own tests;
4. bounds what one notebook costs the grader: a multiple of what the model solution's
   notebook cost (`model_cost`: measured once, by grading the source notebook) in
   computing time (the kernel's CPU seconds over the cells) and, as a backstop, on the
   notebook's clock (`fair_clock`: cells, sleeps, replays after a kernel died, the
   judge's checks; not what a busy machine kept the kernel waiting for a core), at most
   `notebook_timeout` seconds, after which the remaining cells are marked as not run; `judge_timeout` seconds of the judge's own work per test
   cell; replies of at most `max_reply_bytes` from the kernel, and at most
   `max_notebook_bytes` and `max_notebook_items` from it in all; the grader's own
   process under `grader_memory_limit` while it grades (`own_memory`); and outputs counted as
   they arrive, every kind (`max_cell_output`, `max_notebook_output`), the rest replaced
   by one line, so that no notebook can make the graded file or the grader huge.

Only the executed notebook comes back (nbgrader writes it); the scratch folder is removed.

Use it in ``nbgrader_config.py``::

    c.Autograde.autograde_preprocessors = with_walled_execute(
        Autograde.class_traits()["autograde_preprocessors"].default())
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import secrets
import signal
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from queue import Empty
from typing import Any

import nbformat
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import ensure_async, run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbgrader.preprocessors import Execute  # type: ignore[import-untyped]
from traitlets import Bool, Float, Integer, Unicode

from ...testcells.budget import Pace, backstop
from ...testcells.catalogue import (
    ANSWER_NOT_JSON,
    CELL_STOPPED,
    CELL_RAN_TOO_LONG,
    CELL_TOO_LONG,
    CELL_WAITED,
    CPU_BUDGET,
    KERNEL_DIED,
    KERNEL_HUNG,
    KERNEL_NO_ANSWER,
    NO_INPUT,
    NO_LANDLOCK,
    NO_WALL,
    NOT_RUN,
    NOT_RUN_CPU,
    NOT_RUN_TIME,
    NOTEBOOK_DATA_SPENT,
    OUT_OF_CPU,
    OUT_OF_TIME,
    OUTPUT_CUT,
    REPLY_TOO_BIG,
    RESTARTED_AND_REPLAYED,
    WALL_SWITCHED_OFF,
)
from ...testcells.messages import error_line, error_output
from .. import protocol, wire
from ..protocol import REPLY, REQUEST
from . import own_memory
from .judge import Judge, KernelFault, KernelWorries, explain_limit
from .model_cost import ModelCost, course_root, key_of, read_cost, relative_budget, write_cost
from .cell_budget import CellBudget
from .fair_clock import FairClock, Reading
from .kernel_clock import KernelClock
from .kernel_end import clause, ended_words
from .plainfiles import copy_plain_tree, ignore_names

_warned: list[str] = []


def _meta(cell: Any) -> dict[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def is_test_cell(cell: Any) -> bool:
    """A graded test cell: nbgrader's autograder tests (grade, not solution)."""
    meta = _meta(cell)
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def is_given_cell(cell: Any) -> bool:
    """A locked cell the notebook gives (imports, helpers, data), not a test."""
    meta = _meta(cell)
    return (cell.cell_type == "code" and bool(meta.get("locked"))
            and not meta.get("grade") and not meta.get("solution"))


def relative_traits(factor: float, floor: float, what: str, then: str,
                    least: str) -> tuple[Float, Float]:
    """The two settings of a notebook budget relative to the model solution's cost
    (`model_cost`): its factor and its floor."""
    return (Float(factor, help=f"{what}, as a multiple of what the model solution's notebook "
                  f"used (the assignment's source, graded once the same way: model_cost), "
                  f"at least {then}").tag(config=True),
            Float(floor, help=f"The least {least} a notebook gets, however little its model "
                  "solution used").tag(config=True))


class WalledKernelManager(AsyncKernelManager):
    """A kernel manager that starts the kernel behind `puzzlekit.autograder.wall`."""

    wall_prefix: list[str] = []

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        return list(self.wall_prefix) + super().format_kernel_cmd(extra_arguments)


#: seconds between two readings of the notebook's clock while a cell waits past its time
#: on the wall (`WalledExecute._async_handle_timeout`)
CLOCK_EVERY = 0.25


class WalledExecute(Execute):
    """nbgrader's Execute with the student's kernel behind a wall and the graded tests
    run by the grader (see the module docstring)."""

    wall = Bool(True, help="Start the student's kernel behind puzzlekit.autograder.wall "
                "(Landlock, namespaces, rlimits) where the machine allows it").tag(config=True)
    memory_limit = Unicode("2G", help="Memory one student's kernel may use").tag(config=True)
    process_limit = Integer(64, help="Extra processes/threads a kernel may start"
                            ).tag(config=True)
    file_size_limit = Unicode("64M", help="Largest file a kernel may write").tag(config=True)
    scratch_limit = Unicode("256M", help="Size of the kernel's writable folder (a tmpfs "
                            "holding the copy of the notebook's folder; its pages count "
                            "against memory_limit); 0: a folder on disk, not size-limited"
                            ).tag(config=True)
    network = Bool(False, help="Let the student's code use the network").tag(config=True)
    judge_tests = Bool(True, help="Run graded test cells in the grader's process, so that "
                       "the kernel cannot change their verdicts").tag(config=True)
    max_restarts = Integer(6, help="Kernel restarts per notebook before the rest is "
                           "marked as not run").tag(config=True)
    replay_timeout = Integer(60, help="Seconds to replay the cells before a restart"
                             ).tag(config=True)
    judge_timeout = Float(30.0, help="Seconds of the grader's own work (its checks, "
                          "diagnoses and decoding of what the student's code returned, not "
                          "the time the student's code runs) per test cell, times "
                          "time_scale; a cell over it fails with a message that says so"
                          ).tag(config=True)
    notebook_timeout = Float(300.0, help="Seconds on the notebook's clock one notebook may "
                             "take in all (from its kernel's start: every cell, sleeps, kernel "
                             "restarts and replays, the judge's checks; not the seconds a busy "
                             "machine kept the kernel waiting for a core), times time_scale; "
                             "the cells after are marked as not run. Where the model "
                             "solution's cost is known, the relative notebook_wall_factor "
                             "is used up to this. 0: no limit"
                             ).tag(config=True)
    notebook_cpu_factor, notebook_cpu_floor = relative_traits(
        4.0, 120.0, "Computing time one notebook may use in all (the kernel's CPU seconds "
        "over its cells)", "notebook_cpu_floor, times time_scale; the cells after are "
        "marked as not run. 0: no such limit", "computing time (CPU seconds)")
    notebook_wall_factor, notebook_wall_floor = relative_traits(
        3.0, 90.0, "Seconds on the notebook's clock one notebook may take in all (a backstop "
        "for code that waits rather than computes; the clock does not count the seconds a "
        "busy machine kept the kernel waiting for a core)", "notebook_wall_floor, never more "
        "than notebook_timeout, times time_scale. 0: notebook_timeout alone",
        "time on the clock (seconds)")
    measure_model = Bool(True, help="Grade an assignment's source notebook (the model "
                         "solution) first when its cost is not yet kept in the course's "
                         ".puzzlekit/model-costs.json, and keep it there").tag(config=True)
    max_reply_bytes = Integer(32 * 1024 * 1024, help="Largest reply the grader accepts from "
                              "the student's kernel for one call (bytes)").tag(config=True)
    grader_memory_limit = Unicode("3G", help="Memory the grader's own process may write "
                                  "while it grades one notebook (its soft RLIMIT_DATA, "
                                  "lowered for the notebook and put back after; never "
                                  "raised): a test that runs out of it fails saying so, "
                                  "and grading goes on. 0: no limit").tag(config=True)
    max_notebook_bytes = Integer(256 * 1024 * 1024, help="Bytes the grader takes from the "
                                 "student's kernel in one notebook, over all its replies "
                                 "(values, printed text, questions of the test's stand-ins); "
                                 "past it, each test that needs more fails saying so. 0: no "
                                 "limit").tag(config=True)
    max_notebook_items = Integer(16_000_000, help="Items (values and containers) the grader "
                                 "builds from what the student's kernel sends in one "
                                 "notebook; a len() over what is left is refused before "
                                 "anything is built on it. 0: no limit").tag(config=True)
    max_cell_output = Integer(16 * 1024 * 1024, help="Bytes of output one cell may produce "
                              "(every kind: streams, displays, updates, errors, widget "
                              "messages), counted as they arrive").tag(config=True)
    max_notebook_output = Integer(64 * 1024 * 1024, help="Bytes of output one notebook may "
                                  "produce, counted as they arrive").tag(config=True)
    time_scale = Float(1.0, help="Multiplies the seconds a test gives the student's code "
                       "(run_with_timeout): raise it on a grading machine busier or slower "
                       "than the one the tests were written for, so that a right but "
                       "slowish answer does not run out of time; messages keep the "
                       "exercise's own seconds").tag(config=True)

    # -- one notebook --------------------------------------------------------------

    #: True while grading the model solution's notebook to measure it
    measuring = False
    #: while a student's cell runs: the notebook's clock when it started, and its seconds
    _cell_clock: tuple[float, float | None] | None = None

    def preprocess(self, nb: Any, resources: Any = None, km: Any = None) -> Any:
        from nbclient.client import NotebookClient
        resources = resources if resources is not None else {}
        self.model = None if self.measuring else self._model_cost(resources)
        self._cpu_used = 0.0
        source_dir = (resources.get("metadata", {}) or {}).get("path") or os.getcwd()
        self._scratch = Path(_make_scratch(self.log))
        os.chmod(self._scratch, 0o700)
        (self._scratch / "ipc").mkdir(mode=0o700)   # connection files and the sockets
        self._launches: list[dict[str, Any]] = []   # every kernel started, with its cgroups
        self._work = self._scratch / "work"
        names, scratch = ignore_names(".ipynb_checkpoints", "__pycache__"), \
            os.stat(self._scratch)

        def skip(rel: str, st: os.stat_result) -> bool:
            # the scratch folder itself, where the notebook's folder holds it (a notebook
            # graded in the temporary folder): never a copy of the copy
            return names(rel, st) or (st.st_dev, st.st_ino) == (scratch.st_dev,
                                                                  scratch.st_ino)
        copy_plain_tree(source_dir, self._work, skip=skip,
                        on_drop=lambda d: self.log.warning("left out of the copy the kernel "
                                                           "sees: %s", d))
        self._replay: list[str] = []
        self._restarts = 0
        self._kernels = 0
        self._gave_up = False
        self._count = 0
        self._kernel_count = 1     # the number the kernel gives its next cell
        self._quiet: tuple[Any, Any] | None = None
        #: a reply that came while the judge waited for a question of the kernel's
        #: (`exchange`): the call it ends is still waited for further out
        self._early: dict[str, Any] = {}
        self._poller: tuple[Any, Any] | None = None
        #: the kernel's CPU seconds against the clock, while a call of the judge runs
        self._pace = Pace()
        self.kernel_manager_class = WalledKernelManager
        NotebookClient.__init__(self, nb, km)
        self.reset_execution_trackers()
        self._check_assign_resources(resources)
        #: a kernel cell ran out of memory: start a fresh kernel before the next cell
        self._memory_exhausted = False
        # the kernel's own stdout/stderr (warnings, crash messages, whatever the student's
        # code writes to the process's streams) go to a file, not the grader's terminal
        self._kernel_log = tempfile.TemporaryFile()
        try:
            with own_memory.limited(self._own_memory_bytes()), \
                    self.setup_kernel(**self._launch_options()):
                self.judge = self._make_judge()
                assert self.kc
                info = self.wait_for_reply(self.kc.kernel_info())
                assert info
                self.nb.metadata["language_info"] = info["content"]["language_info"]
                self._install_agent()
                self._clock.restart()         # the notebook's clock: its kernel is ready
                wall = self._wall_report()    # read before any student code could touch it
                for cell in self.nb.cells:    # the records of mistakes are the judge's alone
                    _drop_records(cell)
                for index, cell in enumerate(self.nb.cells):
                    self.preprocess_cell(cell, resources, index)
                tampering = self._tampering()
            self.set_widgets_metadata()
            self.nb.metadata["puzzlekit"] = {"wall": wall, "judged": bool(self.judge_tests),
                                             "kernel_restarts": self._restarts,
                                             "tampering": tampering}
        finally:
            if self._quiet is not None:
                self._quiet[1].stop_channels()
            self._end_launches()
            self._kernel_log.close()
            shutil.rmtree(self._scratch, ignore_errors=True)
        return self.nb, self.resources

    def _model_cost(self, resources: dict[str, Any]) -> ModelCost | None:
        """What the model solution of the notebook being graded cost: kept in the course,
        or measured now by grading its source notebook (`model_cost`); None outside
        nbgrader, or with no source notebook."""
        key = key_of(resources)
        if key is None or (self.notebook_cpu_factor <= 0 and self.notebook_wall_factor <= 0):
            return None
        root = course_root(resources, os.getcwd())
        cost = read_cost(root, key)
        source = root / "source" / f"{key}.ipynb"
        if cost is not None or not self.measure_model or not source.is_file():
            return cost
        self.log.info("Grading the model solution of %s once, to measure what it costs", key)
        model = WalledExecute(config=self.config, log=self.log,      # as this one is set
                              **self.trait_values(config=True))
        model.measuring = True
        model.preprocess(nbformat.read(source, as_version=4),
                         {"metadata": {"path": str(source.parent)}})
        if model._time_up:       # cut short: not what the model costs
            self.log.warning("The model solution of %s did not finish within "
                             "notebook_timeout: its cost is not kept", key)
            return None
        # on the notebook's clock, as a submission's is counted: from its kernel's start,
        # without what a busy machine kept the kernel waiting
        cost = ModelCost(model.cpu_used(), max(model._clock.seconds(), 0.001))
        try:
            write_cost(root, key, cost)
        except OSError as e:
            self.log.warning("Could not keep the model solution's cost in %s: %s", root, e)
        return cost

    def cpu_used(self) -> float:
        """The kernel's CPU seconds over this notebook's cells so far (those of a kernel
        that died in a cell are not counted)."""
        return float(getattr(self, "_cpu_used", 0.0))

    def _cpu_seconds(self) -> float | None:
        """The computing time this notebook may use (None: no such limit)."""
        model = getattr(self, "model", None)
        if model is None or self.notebook_cpu_factor <= 0:
            return None
        return relative_budget(model.cpu, self.notebook_cpu_factor,
                               self.notebook_cpu_floor) * float(self.time_scale)

    def _cpu_left(self) -> float | None:
        seconds = self._cpu_seconds()
        return None if seconds is None else seconds - self.cpu_used()

    def _cpu_words(self) -> str:
        model = self.model
        assert model is not None
        return CPU_BUDGET.format(seconds=self._cpu_seconds(), factor=self.notebook_cpu_factor,
                                 model=model.cpu, floor=self.notebook_cpu_floor)

    def _wall_report(self) -> dict[str, Any]:
        """What the wall held for this notebook's first kernel (its launcher's report, read
        before any student code ran), in short."""
        report = self._launches[0].get("report", {}) if self._launches else {}
        if not report:
            return {"up": False}
        keys = ("landlock_abi", "userns", "netns", "pidns", "private_root", "network",
                "scratch_limit", "limits", "warnings")
        short = {k: report.get(k) for k in keys}
        short["up"] = bool(report.get("landlock_abi"))
        short["cgroups"] = sorted(self._launches[0].get("groups", {}))
        return short

    # -- each kernel's launch: its report, read once, and its cgroups, emptied at the end

    async def async_start_new_kernel(self, **kwargs: Any) -> None:
        await super().async_start_new_kernel(**kwargs)
        process = getattr(getattr(self.km, "provisioner", None), "process", None)
        self._launches.append({"pid": getattr(process, "pid", None), "read": False,
                               "ended": False, "groups": {}, "report": {}})

    start_new_kernel = run_sync(async_start_new_kernel)

    async def async_start_new_kernel_client(self) -> Any:
        client = await super().async_start_new_kernel_client()
        self._read_launch()     # the kernel is ready: no student code has run yet
        return client

    start_new_kernel_client = run_sync(async_start_new_kernel_client)

    async def _async_cleanup_kernel(self) -> None:
        try:
            await super()._async_cleanup_kernel()
        finally:
            self._end_launches()

    _cleanup_kernel = run_sync(_async_cleanup_kernel)

    def _read_launch(self) -> None:
        """Read the newest launcher's report (once, from the scratch root, which the kernel
        cannot write) and keep the cgroups it names that `wall.launch_cgroups` accepts."""
        if not self._launches or self._launches[-1]["read"]:
            return
        launch = self._launches[-1]
        launch["read"] = True
        launch["clock"] = KernelClock(launch["pid"] if isinstance(launch["pid"], int) else None)
        if not self.wall:
            return
        try:
            report = json.loads((self._scratch / ".wall.json").read_text(encoding="utf-8"))
            from ..wall import launch_cgroups
        except (OSError, ValueError, ImportError):
            return
        launch["report"] = report if isinstance(report, dict) else {}
        if isinstance(launch["pid"], int):
            launch["groups"] = launch_cgroups(launch["report"], launch["pid"])
            launch["clock"] = KernelClock(launch["pid"], launch["groups"])

    def _get_timeout(self, cell: Any) -> int | None:
        """A cell's time on the clock: the backstop of its computing time where the
        kernel's CPU time can be read (`CellBudget` stops it), never past the notebook's
        time."""
        seconds = self._cell_backstop(cell)
        timeout = None if seconds is None else int(seconds)
        left = self._time_left()
        if left is None:
            return timeout
        left_int = max(1, int(left) + 1)
        return left_int if timeout is None else min(timeout, left_int)

    def _cell_backstop(self, cell: Any) -> float | None:
        """A cell's own seconds on the notebook's clock (None: no limit)."""
        timeout = super()._get_timeout(cell)
        if timeout is not None and self.cpu_clock() is not None:
            return float(math.ceil(backstop(timeout)))
        return None if timeout is None else float(timeout)

    def _cell_has_time(self) -> bool:
        """Whether the running cell and the notebook still have seconds on the notebook's
        clock (`FairClock`: what the machine's load kept the kernel waiting for a core is
        not counted)."""
        if self._cell_clock is None:
            return False
        started, seconds = self._cell_clock
        left = self._time_left()
        return (seconds is None or self._clock.seconds() - started < seconds) \
            and (left is None or left > 0)

    async def _async_handle_timeout(self, timeout: int,
                                    cell: Any = None) -> None | dict[str, Any]:
        """nbclient's clock for the cell ran out (`_get_timeout`, on the wall): if the
        machine's load kept the kernel waiting for a core meanwhile, wait on until the
        cell's seconds are up on the notebook's clock, then stop it as nbclient does."""
        while self._cell_has_time():
            assert self.kc is not None
            if await ensure_async(self.kc.shell_channel.msg_ready()):
                return None         # its reply came: nbclient takes it
            await self._async_check_alive()
            await asyncio.sleep(CLOCK_EVERY)
        return await super()._async_handle_timeout(timeout, cell)

    def _signal_kernel(self, signum: int) -> None:
        """Send `signum` to the kernel's process group, as its manager interrupts it (from
        `CellBudget`'s thread, which cannot use the manager's event loop)."""
        provisioner = getattr(self.km, "provisioner", None)
        pgid = getattr(provisioner, "pgid", None)
        process = getattr(provisioner, "process", None)
        with contextlib.suppress(OSError, ProcessLookupError):
            if pgid:
                os.killpg(pgid, signum)
            elif process is not None:
                process.send_signal(signum)

    def _out_of_computing_time(self, cell: Any, spent: CellBudget) -> None:
        """The cell computed its seconds and was interrupted: its KeyboardInterrupt
        becomes the course's words for a cell that ran too long (a cell that ended, well
        or with an error of its own, before the interrupt landed keeps its outputs)."""
        outputs = [o for o in cell.outputs
                   if not (o.output_type == "error" and o.get("ename") == "KeyboardInterrupt")]
        if len(outputs) == len(cell.outputs):
            return
        words = self.error_on_timeout or {}
        cell.outputs = outputs + [nbformat.from_dict({"output_type": "error", **words})
                                  if words.get("evalue") else error_output(
                                      "CellTimeoutError", CELL_TOO_LONG.format(
                                          seconds=spent.seconds))]

    @staticmethod
    def _waited(cell: Any, spent: CellBudget, seconds: float) -> None:
        """The clock's backstop stopped a cell that computed less than its seconds: say
        so, instead of the words for a cell that computed too long."""
        used = spent.used()
        if not spent.active or spent.fired or used is None or used >= spent.seconds:
            return
        if not any(o.output_type == "error" and o.get("ename") == "CellTimeoutError"
                   for o in cell.outputs):
            return      # it was not stopped
        kept = [o for o in cell.outputs if not (o.output_type == "error" and o.get("ename")
                                                in ("CellTimeoutError", "KeyboardInterrupt"))]
        cell.outputs = kept + [
                error_output("CellTimeoutError", CELL_WAITED.format(
                    seconds=seconds, cpu=used))]

    def kernel_end(self) -> str:
        """What was seen of how the kernel that just stopped ended ('' when nothing):
        a kill for memory its cgroup counted, a signal, an exit status."""
        process = getattr(getattr(self.km, "provisioner", None), "process", None)
        status = None
        with contextlib.suppress(Exception):
            status = process.wait(timeout=2) if process is not None else None
        launches = getattr(self, "_launches", None)
        groups = launches[-1].get("groups", {}) if launches else {}
        return ended_words(status, groups, self.memory_limit)

    def cpu_clock(self) -> float | None:
        """Seconds of CPU the running kernel's processes used so far (None: unknown);
        the judge's budgets for the student's code count these (`KernelClock`)."""
        clock = self._kernel_clock()
        return clock.seconds() if clock is not None else None

    def _kernel_clock(self) -> KernelClock | None:
        """The running kernel's `KernelClock` (None before its launch is read)."""
        launches = getattr(self, "_launches", None)
        clock = launches[-1].get("clock") if launches else None
        return clock if isinstance(clock, KernelClock) else None

    def _end_launches(self) -> None:
        """Kill whatever the kernels started is still running (double-forked, setsid,
        ignoring SIGTERM) and remove their cgroups: at a restart and when grading ends."""
        self._read_launch()
        for launch in getattr(self, "_launches", []):
            if launch["ended"] or not launch["groups"]:
                continue
            launch["ended"] = True
            from ..wall import end_launch
            left = end_launch(launch["groups"])
            if left:
                self.log.info("Stopped %d process(es) that a student's kernel left running",
                              left)

    def _limits(self) -> dict[str, str]:
        return {"memory": self.memory_limit, "processes": str(self.process_limit),
                "file_size": self.file_size_limit}

    def _launch_options(self) -> dict[str, Any]:
        return {"cwd": str(self._work), "stdout": self._kernel_log,
                "stderr": self._kernel_log}

    def _kernel_log_tail(self, size: int = 2000) -> str:
        """The end of what the kernel process wrote to its own stdout and stderr."""
        try:
            self._kernel_log.seek(0, os.SEEK_END)
            end = self._kernel_log.tell()
            self._kernel_log.seek(max(0, end - size))
            return self._kernel_log.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""

    def create_kernel_manager(self) -> Any:
        km = super().create_kernel_manager()
        self._kernels += 1
        km.transport = "ipc"
        token = secrets.token_hex(4)      # names a kernel cannot guess before a restart
        km.ip = str(self._scratch / "ipc" / f"k{self._kernels}-{token}")
        km.connection_file = str(self._scratch / "ipc" /
                                 f"kernel-{self._kernels}-{token}.json")
        km.wall_prefix = self._wall_prefix()
        return km

    def _wall_prefix(self) -> list[str]:
        if not self.wall:
            _warn_once(self.log, NO_WALL.format(why=WALL_SWITCHED_OFF))
            return []
        try:     # the wall needs POSIX (`resource`): elsewhere the grader warns instead
            from ..wall import WallConfig, parse_size, status, wall_argv
            state = status()
            if not state.landlock_abi:
                _warn_once(self.log, NO_WALL.format(why=NO_LANDLOCK))
            config = WallConfig(memory=parse_size(self.memory_limit),
                                processes=self.process_limit,
                                file_size=parse_size(self.file_size_limit),
                                network=self.network,
                                scratch_limit=parse_size(self.scratch_limit))
            return wall_argv(str(self._scratch), config, workdir=str(self._work))
        except ImportError as e:
            _warn_once(self.log, NO_WALL.format(why=str(e)))
            return []

    # -- cells -----------------------------------------------------------------------

    # -- a notebook's budgets (time, output) -----------------------------------------

    def reset_execution_trackers(self) -> None:
        """nbclient's per-notebook trackers, and the kit's: the notebook's clock starts
        (`preprocess` calls this for every notebook before it starts the kernel, and starts
        the clock again once the kernel is ready)."""
        super().reset_execution_trackers()
        #: the notebook's clock, which does not count what a busy machine kept the
        #: kernel waiting for a core (started again once the kernel is ready)
        self._clock = FairClock(self._kernel_waited)
        self._notebook_output = 0
        self._cell_output = 0
        self._cut = False
        self._time_up = ""      # "wall" or "cpu" once the notebook's time is up
        self._received = 0      # bytes the kernel sent the judge in this notebook

    def _relative_wall(self) -> bool:
        return getattr(self, "model", None) is not None and self.notebook_wall_factor > 0

    def _notebook_seconds(self) -> float:
        model = getattr(self, "model", None)
        if model is not None and self.notebook_wall_factor > 0:
            seconds = relative_budget(model.wall, self.notebook_wall_factor,
                                      self.notebook_wall_floor)
            if self.notebook_timeout > 0:       # never past the course's own bound
                seconds = min(seconds, float(self.notebook_timeout))
            return seconds * float(self.time_scale)
        return float(self.notebook_timeout) * float(self.time_scale)

    def _time_left(self) -> float | None:
        """Seconds this notebook has left (None: no limit)."""
        if not self._relative_wall() and (not self.notebook_timeout
                                          or self.notebook_timeout <= 0):
            return None
        if getattr(self, "_clock", None) is None:
            self._clock = FairClock(self._kernel_waited)
        return self._notebook_seconds() - self._clock.seconds()

    def _notebook_left(self) -> float:
        """The notebook's seconds left on its clock (the judge's `notebook_left`)."""
        left = self._time_left()
        return float("inf") if left is None else left

    def _kernel_waited(self) -> Reading | None:
        """The running kernel's seconds waiting for a core (`FairClock`'s reading)."""
        clock = self._kernel_clock()
        waited = clock.waited() if clock is not None else None
        return None if waited is None else (len(self._launches), waited)

    def _make_judge(self) -> Judge:
        """This notebook's judge, with its budgets (made anew for each notebook, inside
        the grader's own memory limit, whose words its messages use)."""
        left = self._time_left()
        return Judge(self, call_timeout=float(self.timeout or 30),
                     memory=self.memory_limit, limits=self._limits(),
                     time_scale=self.time_scale,
                     judge_timeout=float(self.judge_timeout) if self.judge_timeout > 0
                     else None,
                     notebook_left=None if left is None else self._notebook_left,
                     notebook_seconds=self._notebook_seconds() if left is not None else 0.0,
                     allowance=wire.Allowance(self.max_notebook_items)
                     if self.max_notebook_items > 0 else None,
                     own_memory=own_memory.limit_words())

    def process_message(self, msg: dict[str, Any], cell: Any, cell_index: int) -> Any:
        """Count every output as it arrives; past the cell's or the notebook's bytes, drop
        it (the cell gets one line that says so)."""
        kind = msg.get("msg_type", "")
        if kind in _COUNTED or kind.startswith("comm"):
            size = _size(msg.get("content"))
            cell_over = self.max_cell_output > 0 and \
                self._cell_output + size > self.max_cell_output
            notebook_over = self.max_notebook_output > 0 and \
                self._notebook_output + size > self.max_notebook_output
            if self._cut or cell_over or notebook_over:
                if not self._cut:
                    self._cut = True
                    what, limit = (("cell", self.max_cell_output) if cell_over else
                                   ("notebook", self.max_notebook_output))
                    cell.outputs.append(nbformat.v4.new_output(
                        "stream", name="stderr",
                        text=OUTPUT_CUT.format(limit=_mb(limit), what=what)))
                    self.log.warning("Output of cell %d cut at %s", cell_index, _mb(limit))
                return None
            self._cell_output += size
            self._notebook_output += size
        return super().process_message(msg, cell, cell_index)

    # -- cells -----------------------------------------------------------------------

    def preprocess_cell(self, cell: Any, resources: Any, index: int) -> Any:
        """Run one cell (`_run_cell`), counting the kernel's CPU seconds it used towards
        the notebook's computing time."""
        launches, before = len(self._launches), self.cpu_clock()
        try:
            return self._run_cell(cell, resources, index)
        finally:
            after = self.cpu_clock()
            if before is not None and after is not None and after >= before \
                    and len(self._launches) == launches:
                self._cpu_used = self.cpu_used() + (after - before)

    def _run_cell(self, cell: Any, resources: Any, index: int) -> Any:
        if cell.cell_type != "code" or not cell.source.strip():
            return cell, resources
        self._count += 1
        left, cpu_left = self._time_left(), self._cpu_left()
        if not self._time_up and ((left is not None and left <= 0)
                                  or (cpu_left is not None and cpu_left <= 0)):
            self._time_up = "cpu" if cpu_left is not None and cpu_left <= 0 else "wall"
            self.log.warning("The notebook's %s is up at cell %d: the rest is not run",
                             "computing time" if self._time_up == "cpu" else
                             f"time ({self._notebook_seconds():g} s)", index)
        if self._time_up:
            cell.outputs = [error_output("NotebookTimeout", NOT_RUN_CPU.format(
                budget=self._cpu_words()) if self._time_up == "cpu" else NOT_RUN_TIME.format(
                seconds=self._notebook_seconds()))]
            cell.execution_count = self._count
            return cell, resources
        self._cell_output, self._cut = 0, False
        if self.judge_tests and is_test_cell(cell):
            cell.outputs = [nbformat.from_dict(o) for o in
                            self.judge.run_test(cell.source, self._count)]
            # the test's status and the mistakes it named, as data (the class report)
            cell.metadata["puzzlekit"] = self.judge.last_cell
            cell.execution_count = self._count
            self._fresh_memory()
            return cell, resources
        if self._gave_up:
            cell.outputs = [error_output("KernelDied", NOT_RUN.format(restarts=self._restarts))]
            return cell, resources
        if self._kernel_count != self._count:
            self._set_count(self._count)
        self._kernel_count = self._count + 1
        fatal = False
        seconds = float(self.timeout or 0)
        if cpu_left is not None and seconds > 0:    # never past the notebook's computing time
            seconds = max(0.1, min(seconds, cpu_left))
        spend = CellBudget(self.cpu_clock, seconds,
                            lambda: self._signal_kernel(signal.SIGINT),
                            lambda: self._signal_kernel(signal.SIGKILL))
        self._cell_clock = (self._clock.seconds(), self._cell_backstop(cell))
        try:
            with spend:
                cell, resources = super().preprocess_cell(cell, resources, index)
            if spend.fired and not spend.hung:
                self._out_of_computing_time(cell, spend)
            else:
                self._waited(cell, spend, self._get_timeout(cell) or 0)
            if any(o.get("ename") == "CellTimeoutError" for o in cell.outputs
                   if o.output_type == "error") and not self._responsive():
                fatal = True
                cell.outputs.append(error_output("KernelStopped", KERNEL_HUNG))
                self._recover()
        except CellTimeoutError:       # interrupted, and its output never finished
            cell.outputs = list(cell.get("outputs", []))
            if self.error_on_timeout and not any(o.get("ename") == "CellTimeoutError"
                                                 for o in cell.outputs):
                cell.outputs.append(nbformat.from_dict(
                    {"output_type": "error", **self.error_on_timeout}))
            self._waited(cell, spend, self._get_timeout(cell) or 0)
            if not self._responsive():
                fatal = True
                cell.outputs.append(error_output("KernelStopped", KERNEL_HUNG))
                self._recover()
        except DeadKernelError:
            fatal = True
            cell.outputs = list(cell.get("outputs", [])) + ([error_output(
                "KernelStopped", KERNEL_HUNG)] if spend.hung else [error_output(
                    "KernelDied", KERNEL_DIED.format(
                        what="this cell", how=clause(self.kernel_end()),
                        restarted=RESTARTED_AND_REPLAYED))])
            self.log.warning("The kernel died in cell %d; restarting it. Its last words:\n%s",
                             index, self._kernel_log_tail())
            self._recover()
        self._cell_clock = None
        cell.execution_count = self._count
        if self._cut:
            _trim_errors(cell.outputs)
        left = self._time_left()
        if left is not None and left <= 0 and not self._time_up:
            self._time_up = "wall"
            cell.outputs.append(error_output("NotebookTimeout", OUT_OF_TIME.format(
                seconds=self._notebook_seconds())))
        used = spend.used()
        if cpu_left is not None and used is not None and used >= cpu_left \
                and not self._time_up:
            self._time_up = "cpu"
            cell.outputs.append(error_output("NotebookTimeout", OUT_OF_CPU.format(
                budget=self._cpu_words())))
        for output in cell.outputs:
            if output.output_type != "error":
                continue
            words = explain_limit(output.get("ename", ""), output.get("evalue", ""),
                                  self._limits())
            if words is not None:
                output.evalue = words
                output.traceback = list(output.get("traceback", []))[:-1] + [
                    error_line(output.get("ename", "Error"), words)]
        self.judge.kernel_changed()
        if not fatal and any(o.get("ename") == "MemoryError" for o in cell.outputs
                             if o.output_type == "error"):
            fatal = True        # not replayed: it would use the fresh kernel's memory up
            self._memory_exhausted = True
        if not fatal:
            self._replay.append(cell.source)
        self._fresh_memory()
        if self.judge_tests and is_given_cell(cell):
            self.judge.run_given(cell.source, self._count)
        return cell, resources

    # -- the kernel --------------------------------------------------------------------

    def _fresh_memory(self) -> None:
        """After a MemoryError, a fresh kernel (the cells before replayed): memory that a
        runaway search left allocated must not cost the next tests (an honest search
        in a later cell ran out of memory behind one that did not keep a visited set).
        What the judge's calls left the kernel in is taken from it (`take_worries`)."""
        worries: KernelWorries = self.judge.take_worries()
        exhausted, self._memory_exhausted = \
            self._memory_exhausted or worries.memory_exhausted, False
        if self._gave_up:
            return
        if worries.timed_out and self._memory_used() > 0.75 * self._memory_bytes():
            # a search stopped for time may have left its memory allocated (Python keeps
            # most of it): a fresh kernel too when that is most of the limit (seen: an
            # honest 60 MB search in the next cell ran out of the 2G behind one)
            exhausted = True
        if not exhausted:
            return
        self.log.info("A cell ran out of memory: restarting the kernel before the next cell")
        self._recover()

    def _own_memory_bytes(self) -> int:
        """`grader_memory_limit` in bytes (0: none)."""
        try:
            from ..wall import parse_size
        except ImportError:         # not POSIX: no limit either
            return 0
        return int(parse_size(self.grader_memory_limit) or 0)

    def _memory_bytes(self) -> float:
        try:
            from ..wall import parse_size
            return float(parse_size(self.memory_limit)) or float("inf")
        except Exception:
            return float("inf")

    def _memory_used(self) -> float:
        """The kernel's address space in bytes, as its agent says (0 if unknown)."""
        try:
            vm = self._maintenance("memory", 5, recover=False).get("vm")
        except KernelFault:
            return 0.0
        return float(vm) if type(vm) is int else 0.0

    def _set_count(self, n: int) -> None:
        """Number the next kernel cell `n`, so that tracebacks name the right cell."""
        try:
            self._maintenance("count", 10, n=n)
        except KernelFault:
            pass

    def _responsive(self) -> bool:
        try:
            return self._maintenance("ping", 5, recover=False).get("ok") is True
        except KernelFault:
            return False

    def _recover(self) -> None:
        """Start a fresh kernel and replay the cells that ran before, silently."""
        while True:
            self._restarts += 1
            left = self._time_left()
            if self._restarts > self.max_restarts or (left is not None and left <= 0):
                self._gave_up = True
                return
            self._cleanup_kernel()
            self.km = self.create_kernel_manager()
            try:
                self.start_new_kernel(**self._launch_options())
                self.start_new_kernel_client()
            except RuntimeError as e:
                # a fresh kernel that died before it answered (seen once on a loaded
                # machine, right after the kernel before it ran out of memory): the next
                # try starts another, within max_restarts
                self.log.warning("A fresh kernel did not start (%s); starting another", e)
                continue
            self._install_agent()
            self._kernel_count = 1
            self.judge.kernel_changed()
            bad = self._replay_cells()
            if bad is None:
                return
            self.log.warning("A replayed cell stopped the kernel again; leaving it out")
            del self._replay[bad]

    def _replay_cells(self) -> int | None:
        """Run the replay list; the index of a cell that killed or hung the kernel."""
        for i, source in enumerate(self._replay):
            left = self._time_left()
            if left is not None and left <= 0:
                return None         # the notebook's time is up: the next cell says so
            timeout = self.replay_timeout if left is None else min(self.replay_timeout, left)
            try:
                self._execute_quietly(source, timeout)
            except KernelFault:
                return i
        return None

    def _quiet_client(self) -> Any:
        """A blocking client of its own for the judge's requests and the replays (a few
        times faster per request than going through nbclient's asynchronous one)."""
        if self._quiet is None or self._quiet[0] is not self.km:
            if self._quiet is not None:
                self._quiet[1].stop_channels()
            assert self.km is not None
            client = self.km.blocking_client()
            client.start_channels(iopub=False, stdin=True, hb=False, control=False)
            self._quiet = (self.km, client)
        return self._quiet[1]

    def _alive(self) -> bool:
        assert self.km is not None
        try:
            return bool(run_sync(self.km.is_alive)())
        except Exception:
            return False

    def _execute_quietly(self, code: str, timeout: float,
                         user_expressions: dict[str, str] | None = None) -> dict[str, Any]:
        """Run `code` silently in the kernel; its execute_reply, or `KernelFault`."""
        client = self._quiet_client()
        msg_id = client.execute(code, silent=True, store_history=False,
                                user_expressions=user_expressions or {}, allow_stdin=False,
                                stop_on_error=False)
        return self._wait_for(client, msg_id, timeout)

    def _wait_for(self, client: Any, msg_id: str, timeout: float,
                  answer: Callable[[str], str] | None = None,
                  cpu_deadline: float | None = None) -> dict[str, Any]:
        """The kernel's reply to `msg_id`; each question it asks meanwhile on its stdin
        channel (a stand-in of the test's, `puzzlekit.autograder.kernel.agent`) gets
        ``answer(prompt)``. `cpu_deadline`: the kernel's `cpu_clock` reading at which the
        call is out of time (`timeout` is then the backstop on the clock); without it,
        `timeout` is counted on the notebook's clock (`FairClock`)."""
        deadline = time.monotonic() + timeout
        self._pace.restart()        # what the kernel computed in this call, not before
        taken = self._clock.taken()
        while True:
            if msg_id in self._early:
                return self._early.pop(msg_id)
            try:
                channel, msg = self._next(client, deadline, cpu_deadline)
            except KernelFault as fault:
                # a call with no computing time of its own has `timeout` seconds on the
                # notebook's clock: what the machine kept the kernel waiting is added
                more = self._clock.taken() - taken \
                    if fault.kind == "timeout" and cpu_deadline is None else 0.0
                if more <= 0:
                    raise
                deadline, taken = deadline + more, taken + more
                continue
            if channel == "stdin":
                if msg.get("msg_type") == "input_request":
                    # the judge's answer runs the test's own function: its time is the
                    # judge's (its watchdog), not the student's call's
                    started = time.monotonic()
                    prompt = str(msg.get("content", {}).get("prompt", ""))
                    client.input(self._answer_text(prompt, answer))
                    deadline += time.monotonic() - started
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg  # type: ignore[no-any-return]

    def _spent(self, size: int) -> dict[str, Any] | None:
        """Count `size` bytes more from the kernel in this notebook: a fault reply when
        that is over `max_notebook_bytes` (checked before anything is built from them)."""
        self._received = getattr(self, "_received", 0) + size
        if self._received > self.max_notebook_bytes > 0:
            limit = _mb(self.max_notebook_bytes)
            return protocol.fault(NOTEBOOK_DATA_SPENT.format(limit=limit),
                                  too_big=True, spent=True, limit=limit)
        return None

    def _answer_text(self, prompt: str, answer: Callable[[str], str] | None) -> str:
        spent = self._spent(len(prompt))
        if spent is not None:
            return json.dumps(protocol.answer(error={"ename": "ValueError",
                                                     "evalue": spent["fault"]}))
        if len(prompt) > self.max_reply_bytes > 0:
            return json.dumps(protocol.answer(error={"ename": "ValueError", "evalue":
                REPLY_TOO_BIG.format(size=_mb(len(prompt)), most=_mb(self.max_reply_bytes))}))
        if answer is None:
            return json.dumps(protocol.answer(error={"ename": "RuntimeError",
                                                     "evalue": str(NO_INPUT)}))
        return answer(prompt)

    def _next(self, client: Any, deadline: float,
              cpu_deadline: float | None = None) -> tuple[str, dict[str, Any]]:
        """The next message on the shell or stdin channel before `deadline` (on
        time.monotonic()) and before the kernel's CPU time reaches `cpu_deadline`, or
        `KernelFault`: "timeout" when the time is up, "waited" when only the clock's
        backstop is and the kernel was seen waiting, not computing (`Pace`): past the
        backstop, a kernel that computes on a busy machine goes on until its CPU time is
        used up."""
        while True:
            left = deadline - time.monotonic()
            used = self.cpu_clock() if cpu_deadline is not None else None
            if used is not None:
                self._pace.note(used)
            if left <= 0:
                if used is None or cpu_deadline is None:
                    raise KernelFault("timeout" if cpu_deadline is None else "waited")
                if used >= cpu_deadline:
                    raise KernelFault("timeout")
                if self._pace.waiting(used):
                    raise KernelFault("waited")
                left = 1.0          # it computes: its CPU time decides
            wait = min(left, 1.0)
            if used is not None and cpu_deadline is not None:
                if used >= cpu_deadline:
                    raise KernelFault("timeout")
                # the kernel computes no faster than the clock runs (on one core)
                wait = min(wait, max(cpu_deadline - used, 0.02))
            ready = self._poll(client, wait)
            if ready is not None:
                return ready
            if not self._alive():
                raise KernelFault("died")

    def _poll(self, client: Any, timeout: float) -> tuple[str, dict[str, Any]] | None:
        """The next message on the shell or stdin channel, within `timeout` seconds."""
        import zmq
        if self._poller is None or self._poller[0] is not client:
            poller = zmq.Poller()
            poller.register(client.shell_channel.socket, zmq.POLLIN)
            poller.register(client.stdin_channel.socket, zmq.POLLIN)
            self._poller = (client, poller)
        poller = self._poller[1]
        for channel, name in ((client.stdin_channel, "stdin"),
                              (client.shell_channel, "shell")):
            if channel.msg_ready():
                return name, channel.get_msg(timeout=0)
        events = dict(poller.poll(int(timeout * 1000)))
        for channel, name in ((client.stdin_channel, "stdin"),
                              (client.shell_channel, "shell")):
            if events.get(channel.socket):
                try:
                    return name, channel.get_msg(timeout=0)
                except Empty:
                    continue
        return None

    def exchange(self, text: str, timeout: float) -> str | dict[str, Any]:
        """Answer the kernel's pending question with `text`; its next question (the
        judge's Channel: a request made while the kernel waits for the judge)."""
        if self._gave_up or self.kc is None:
            raise KernelFault("died")
        client = self._quiet_client()
        client.input(text)
        deadline = time.monotonic() + timeout
        while True:
            channel, msg = self._next(client, deadline)
            if channel == "shell":      # the outer call ended (interrupted): keep it
                self._early[msg["parent_header"].get("msg_id")] = msg
                raise KernelFault("timeout")
            if msg.get("msg_type") == "input_request":
                prompt = str(msg.get("content", {}).get("prompt", ""))
                spent = self._spent(len(prompt))
                if spent is not None:
                    return spent
                if len(prompt) > self.max_reply_bytes > 0:
                    return protocol.fault(REPLY_TOO_BIG.format(
                        size=_mb(len(prompt)), most=_mb(self.max_reply_bytes)), too_big=True)
                return prompt

    def _install_agent(self) -> None:
        """Let the agent answer the judge's requests in the kernel just started."""
        expression = "__import__('puzzlekit.autograder.kernel.agent', fromlist=['install']).install()"
        try:
            reply = self._execute_quietly("", self.startup_timeout, {"r": expression})
            result = reply["content"].get("user_expressions", {}).get("r", {})
            if result.get("status") != "ok":
                self.log.warning("The grader's agent did not start in the kernel: %s",
                                 result.get("evalue", result))
        except KernelFault:
            self.log.warning("The kernel stopped before the grader's agent could start")

    def request(self, req: dict[str, Any], timeout: float, recover: bool = True,
                answer: Callable[[str], str] | None = None,
                cpu_deadline: float | None = None) -> dict[str, Any]:
        """Send `req` to the agent in the kernel; its reply (the judge's Channel).
        `cpu_deadline`: see `_wait_for`."""
        if self._gave_up or self.kc is None:
            raise KernelFault("died")
        client = self._quiet_client()
        msg = client.session.msg(REQUEST, content=req)
        client.shell_channel.send(msg)
        try:
            reply = self._wait_for(client, msg["header"]["msg_id"], max(timeout, 0.05),
                                   answer, cpu_deadline)
        except KernelFault as fault:
            if not recover:
                raise
            if fault.kind in ("timeout", "waited") and self._interrupted():
                raise
            self._recover()
            raise
        except BaseException:
            # the judge's answer to a question of the kernel ended the call (its time, or
            # the test's function timing out a call it made): the kernel still waits
            if not self._interrupted():
                self._recover()
            raise
        buffers = reply.get("buffers") or []
        if reply.get("msg_type") != REPLY or len(buffers) != 1:
            return protocol.fault(str(KERNEL_NO_ANSWER))
        size = len(buffers[0])
        spent = self._spent(size)
        if spent is not None:
            return spent
        if size > self.max_reply_bytes > 0:
            return protocol.fault(REPLY_TOO_BIG.format(
                size=_mb(size), most=_mb(self.max_reply_bytes)), too_big=True)
        try:
            answer = json.loads(bytes(buffers[0]))
        except (ValueError, RecursionError):
            return protocol.fault(str(ANSWER_NOT_JSON))
        return answer if type(answer) is dict else protocol.fault("not a reply")

    def _tampering(self) -> list[dict[str, Any]]:
        """What the kernel's guard refused and which of puzzlekit's names the notebook
        rebound (`puzzlekit.autograder.kernel.guard`), each with the cell it was seen in
        when known; [] when the kernel cannot say (it stopped)."""
        try:
            reply = self._maintenance("seen", 10, recover=False)
        except KernelFault:
            return []
        return tampering_seen(reply, self.nb.cells)

    def _maintenance(self, kind: str, timeout: float, recover: bool = True,
                     **fields: Any) -> dict[str, Any]:
        """The executor's own request of `kind` (between cells, never nested); its
        reply, or a fault when the reply does not fit (`protocol`)."""
        reply = self.request(protocol.request(kind, **fields), timeout, recover=recover)
        try:
            return protocol.check_reply(kind, reply)
        except protocol.ProtocolError as e:
            return protocol.fault(str(e))

    def _interrupted(self) -> bool:
        """Interrupt the kernel after a call ran out of time: did it stop?"""
        assert self.km is not None
        try:
            run_sync(self.km.interrupt_kernel)()
        except Exception:
            return False
        return self._responsive()


def tampering_seen(reply: dict[str, Any], cells: list[Any]) -> list[dict[str, Any]]:
    """The guard's report (the agent's reply, untrusted: only short strings and cell
    numbers are kept) as ``{"what", "cell", "grade_id"}`` entries; the cell is the index
    of the notebook's cell that ran with that execution count."""
    by_count = {c.get("execution_count"): i for i, c in enumerate(cells)
                if c.get("cell_type") == "code" and type(c.get("execution_count")) is int}
    out: list[dict[str, Any]] = []
    seen: list[Any] = reply["seen"] if type(reply.get("seen")) is list else []
    for entry in seen[:50]:
        if type(entry) is not dict or type(entry.get("what")) is not str:
            continue
        index = by_count.get(entry.get("cell")) if type(entry.get("cell")) is int else None
        gid = _meta(cells[index]).get("grade_id") if index is not None else None
        out.append({"what": entry["what"][:200], "cell": index, "grade_id": gid})
    changed: list[Any] = reply["changed"] if type(reply.get("changed")) is list else []
    for name in changed[:50]:
        if type(name) is str:
            out.append({"what": f"{name[:200]} rebound", "cell": None, "grade_id": None})
    return out


def _drop_records(cell: Any) -> None:
    """Remove what a submission says of its own test results (``metadata.puzzlekit``'s
    status and mistakes, which only the judge writes); keep the rest (the due date)."""
    meta = cell.get("metadata", {})
    own = meta.get("puzzlekit")
    if isinstance(own, dict):
        own.pop("status", None)
        own.pop("mistakes", None)
    if "puzzlekit" in meta and not (isinstance(own, dict) and own):
        del meta["puzzlekit"]


def _make_scratch(log: Any) -> str:
    """A fresh scratch folder named after this grader process; first, the folders of
    graders that were killed before they could remove theirs are removed."""
    try:
        from ..wall import make_scratch, remove_stale_scratch
    except ImportError:     # no POSIX `resource` (Windows): a plain temporary folder
        return tempfile.mkdtemp(prefix="pkgrade-")
    for path in remove_stale_scratch():
        log.info("Removed %s, left by a grader that was stopped", path)
    return make_scratch()


#: the messages that add to a cell's output (nbclient's `output` and display updates)
_COUNTED = frozenset({"stream", "display_data", "execute_result", "error",
                      "update_display_data"})


def _size(content: Any, depth: int = 0) -> int:
    """About the bytes an output's content takes in the notebook: its strings' lengths."""
    if type(content) is str:
        return len(content)
    if depth > 20:
        return 0
    if type(content) is dict:
        return sum(len(k) + _size(v, depth + 1) for k, v in content.items()
                   if type(k) is str)
    if type(content) in (list, tuple):
        return sum(_size(v, depth + 1) for v in content)
    if isinstance(content, (bytes, bytearray, memoryview)):
        return len(content)
    return 8


def _trim_errors(outputs: list[Any], chars: int = 1000) -> None:
    """Shorten the error outputs of a cell whose output was cut (nbgrader adds the error
    of the kernel's reply when the cell has none: it keeps its name and a short message)."""
    for output in outputs:
        if output.get("output_type") == "error":
            output["evalue"] = str(output.get("evalue", ""))[:chars]
            output["traceback"] = [str(line)[:chars] for line in
                                   list(output.get("traceback", []))[-3:]]


def _mb(size: int) -> str:
    return f"{size / 2 ** 20:.3g} MB" if size >= 2 ** 20 else f"{size / 1024:.3g} KB"


def _warn_once(log: Any, message: str) -> None:
    if message not in _warned:
        _warned.append(message)
        log.warning(message)


def timeout_error(seconds: int) -> dict[str, Any]:
    """The error a cell out of its `seconds` gets (``Execute.error_on_timeout``, set in the
    course's nbgrader_config.py), in the course's words: it names no cause."""
    return {"ename": "CellTimeoutError", "evalue": str(CELL_STOPPED),
            "traceback": [error_line("CellTimeoutError",
                                     CELL_RAN_TOO_LONG.format(seconds=seconds))]}


def with_walled_execute(preprocessors: list[Any]) -> list[Any]:
    """`preprocessors` with nbgrader's Execute replaced by `WalledExecute`, and right
    after it `puzzlekit.autograder.judge.sanitize.SanitizeOutputs`: what the student's cells displayed is
    made inert data before the graded notebook is written (and seen in the formgrader)."""
    from .sanitize import with_sanitized_outputs
    return with_sanitized_outputs([WalledExecute if p is Execute else p
                                   for p in preprocessors])
