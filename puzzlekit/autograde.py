"""Autograding behind a wall: the student's code reaches only its own notebook.

`WalledExecute` replaces nbgrader's ``Execute`` preprocessor in ``nbgrader autograde``.
For every submission it

1. copies the submission's folder into a fresh scratch folder and starts the kernel
   there, behind `puzzlekit.wall` (Landlock, user and network namespaces, rlimits): the
   kernel can read Python and its packages but nothing of the course (not ``source/``,
   not other students' files, not ``gradebook.db``) and write only its scratch folder;
   it talks to the grader over Unix sockets in that folder, with no network;
2. runs the student's cells and the notebook's given cells in that kernel, as nbgrader
   would, but runs every graded test cell in the grader's own process (`puzzlekit.judge`),
   which calls the student's functions in the kernel and checks plain data: the
   verdict is out of the kernel's reach;
3. survives a hostile cell: a cell that ignores interrupts, kills its kernel or hits a
   limit gets a plain-words error; the kernel is restarted, the cells that ran before
   are replayed silently, and grading goes on, so the cell costs only its own tests.

Only the executed notebook comes back (nbgrader writes it); the scratch folder is removed.

Use it in ``nbgrader_config.py``::

    c.Autograde.autograde_preprocessors = with_walled_execute(
        Autograde.class_traits()["autograde_preprocessors"].default())
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from queue import Empty
from typing import Any

import nbformat
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbgrader.preprocessors import Execute  # type: ignore[import-untyped]
from traitlets import Bool, Float, Integer, Unicode

from .agent import REPLY, REQUEST
from .judge import Judge, KernelFault, explain_limit
from .messages import error_line, error_output
from .plainfiles import copy_plain_tree, ignore_names

KERNEL_DIED = ("the Python kernel stopped while running this cell.\nDid the code call "
               "os._exit() or sys.exit(), or use more memory than a graded notebook may "
               "({memory})? The kernel was restarted and the cells before this one were run "
               "again; the cells after it were graded as usual.")
KERNEL_HUNG = ("this cell ran too long and did not stop when interrupted, so its kernel "
               "was stopped.\nThe kernel was restarted and the cells before this one were "
               "run again; the cells after it were graded as usual.")
NOT_RUN = ("not run: the kernel stopped too often in earlier cells ({restarts} restarts), "
           "so grading stopped here.")
NO_WALL = ("puzzlekit: no wall around the students' code on this machine ({why}): their "
           "code runs with the grader's rights and can read and change the course folder. "
           "See docs/instructors.md, 'The wall'.")

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


class WalledKernelManager(AsyncKernelManager):
    """A kernel manager that starts the kernel behind `puzzlekit.wall`."""

    wall_prefix: list[str] = []

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        return list(self.wall_prefix) + super().format_kernel_cmd(extra_arguments)


class WalledExecute(Execute):
    """nbgrader's Execute with the student's kernel behind a wall and the graded tests
    run by the grader (see the module docstring)."""

    wall = Bool(True, help="Start the student's kernel behind puzzlekit.wall "
                "(Landlock, namespaces, rlimits) where the machine allows it").tag(config=True)
    memory_limit = Unicode("2G", help="Memory one student's kernel may use").tag(config=True)
    process_limit = Integer(64, help="Extra processes/threads a kernel may start"
                            ).tag(config=True)
    file_size_limit = Unicode("64M", help="Largest file a kernel may write").tag(config=True)
    network = Bool(False, help="Let the student's code use the network").tag(config=True)
    judge_tests = Bool(True, help="Run graded test cells in the grader's process, so that "
                       "the kernel cannot change their verdicts").tag(config=True)
    max_restarts = Integer(6, help="Kernel restarts per notebook before the rest is "
                           "marked as not run").tag(config=True)
    replay_timeout = Integer(60, help="Seconds to replay the cells before a restart"
                             ).tag(config=True)
    time_scale = Float(1.0, help="Multiplies the seconds a test gives the student's code "
                       "(run_with_timeout): raise it on a grading machine busier or slower "
                       "than the one the tests were written for, so that a right but "
                       "slowish answer does not run out of time; messages keep the "
                       "exercise's own seconds").tag(config=True)

    # -- one notebook --------------------------------------------------------------

    def preprocess(self, nb: Any, resources: Any = None, km: Any = None) -> Any:
        from nbclient.client import NotebookClient
        resources = resources if resources is not None else {}
        source_dir = (resources.get("metadata", {}) or {}).get("path") or os.getcwd()
        self._scratch = Path(tempfile.mkdtemp(prefix="pkgrade-"))
        os.chmod(self._scratch, 0o700)
        self._work = self._scratch / "work"
        copy_plain_tree(source_dir, self._work,
                        skip=ignore_names(".ipynb_checkpoints", "__pycache__"),
                        on_drop=lambda d: self.log.warning("left out of the copy the kernel "
                                                           "sees: %s", d))
        self._replay: list[str] = []
        self._restarts = 0
        self._kernels = 0
        self._gave_up = False
        self._count = 0
        self._kernel_count = 1     # the number the kernel gives its next cell
        self._quiet: tuple[Any, Any] | None = None
        self.kernel_manager_class = WalledKernelManager
        NotebookClient.__init__(self, nb, km)
        self.reset_execution_trackers()
        self._check_assign_resources(resources)
        self.judge = Judge(self, call_timeout=float(self.timeout or 30),
                           memory=self.memory_limit, limits=self._limits(),
                           time_scale=self.time_scale)
        # the kernel's own stdout/stderr (warnings, crash messages, whatever the student's
        # code writes to the process's streams) go to a file, not the grader's terminal
        self._kernel_log = tempfile.TemporaryFile()
        try:
            with self.setup_kernel(**self._launch_options()):
                assert self.kc
                info = self.wait_for_reply(self.kc.kernel_info())
                assert info
                self.nb.metadata["language_info"] = info["content"]["language_info"]
                self._install_agent()
                wall = self._wall_report()    # read before any student code could touch it
                for index, cell in enumerate(self.nb.cells):
                    self.preprocess_cell(cell, resources, index)
            self.set_widgets_metadata()
            self.nb.metadata["puzzlekit"] = {"wall": wall, "judge": bool(self.judge_tests),
                                             "kernel_restarts": self._restarts}
        finally:
            if self._quiet is not None:
                self._quiet[1].stop_channels()
            self._kernel_log.close()
            shutil.rmtree(self._scratch, ignore_errors=True)
        return self.nb, self.resources

    def _wall_report(self) -> dict[str, Any]:
        """What the wall held for this kernel (its launcher's report), in short."""
        try:
            report = json.loads((self._scratch / ".wall.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"up": False}
        keys = ("landlock_abi", "userns", "netns", "private_root", "network", "limits",
                "warnings")
        short = {k: report.get(k) for k in keys}
        short["up"] = bool(report.get("landlock_abi"))
        return short

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
        km.ip = str(self._scratch / f"k{self._kernels}")
        km.connection_file = str(self._scratch / f"kernel-{self._kernels}.json")
        km.wall_prefix = self._wall_prefix()
        return km

    def _wall_prefix(self) -> list[str]:
        if not self.wall:
            _warn_once(self.log, NO_WALL.format(why="switched off in nbgrader_config.py"))
            return []
        try:     # the wall needs POSIX (`resource`): elsewhere the grader warns instead
            from .wall import WallConfig, parse_size, status, wall_argv
            state = status()
            if not state.landlock_abi:
                _warn_once(self.log, NO_WALL.format(why="this kernel has no Landlock"))
            config = WallConfig(memory=parse_size(self.memory_limit),
                                processes=self.process_limit,
                                file_size=parse_size(self.file_size_limit),
                                network=self.network)
            return wall_argv(str(self._scratch), config)
        except ImportError as e:
            _warn_once(self.log, NO_WALL.format(why=str(e)))
            return []

    # -- cells -----------------------------------------------------------------------

    def preprocess_cell(self, cell: Any, resources: Any, index: int) -> Any:
        if cell.cell_type != "code" or not cell.source.strip():
            return cell, resources
        self._count += 1
        if self.judge_tests and is_test_cell(cell):
            cell.outputs = [nbformat.from_dict(o) for o in
                            self.judge.run_test(cell.source, self._count)]
            cell.execution_count = self._count
            return cell, resources
        if self._gave_up:
            cell.outputs = [error_output("KernelDied", NOT_RUN.format(restarts=self._restarts))]
            return cell, resources
        if self._kernel_count != self._count:
            self._set_count(self._count)
        self._kernel_count = self._count + 1
        fatal = False
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
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
            if not self._responsive():
                fatal = True
                cell.outputs.append(error_output("KernelStopped", KERNEL_HUNG))
                self._recover()
        except DeadKernelError:
            fatal = True
            cell.outputs = list(cell.get("outputs", [])) + [error_output(
                "KernelDied", KERNEL_DIED.format(memory=self.memory_limit))]
            self.log.warning("The kernel died in cell %d; restarting it. Its last words:\n%s",
                             index, self._kernel_log_tail())
            self._recover()
        cell.execution_count = self._count
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
        if not fatal:
            self._replay.append(cell.source)
        if self.judge_tests and is_given_cell(cell):
            self.judge.run_given(cell.source, self._count)
        return cell, resources

    # -- the kernel --------------------------------------------------------------------

    def _set_count(self, n: int) -> None:
        """Number the next kernel cell `n`, so that tracebacks name the right cell."""
        try:
            self.request({"kind": "count", "n": n}, 10)
        except KernelFault:
            pass

    def _responsive(self) -> bool:
        try:
            return self.request({"kind": "ping"}, 5, recover=False).get("ok") is True
        except KernelFault:
            return False

    def _recover(self) -> None:
        """Start a fresh kernel and replay the cells that ran before, silently."""
        while True:
            self._restarts += 1
            if self._restarts > self.max_restarts:
                self._gave_up = True
                return
            self._cleanup_kernel()
            self.km = self.create_kernel_manager()
            self.start_new_kernel(**self._launch_options())
            self.start_new_kernel_client()
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
            try:
                self._execute_quietly(source, self.replay_timeout)
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
            client.start_channels(iopub=False, stdin=False, hb=False, control=False)
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

    def _wait_for(self, client: Any, msg_id: str, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise KernelFault("timeout")
            try:
                msg = client.shell_channel.get_msg(timeout=min(left, 1.0))
            except Empty:
                if not self._alive():
                    raise KernelFault("died") from None
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg  # type: ignore[no-any-return]

    def _install_agent(self) -> None:
        """Let the agent answer the judge's requests in the kernel just started."""
        expression = "__import__('puzzlekit.agent', fromlist=['install']).install()"
        try:
            reply = self._execute_quietly("", self.startup_timeout, {"r": expression})
            result = reply["content"].get("user_expressions", {}).get("r", {})
            if result.get("status") != "ok":
                self.log.warning("The grader's agent did not start in the kernel: %s",
                                 result.get("evalue", result))
        except KernelFault:
            self.log.warning("The kernel stopped before the grader's agent could start")

    def request(self, req: dict[str, Any], timeout: float, recover: bool = True
                ) -> dict[str, Any]:
        """Send `req` to the agent in the kernel; its reply (the judge's Channel)."""
        if self._gave_up or self.kc is None:
            raise KernelFault("died")
        client = self._quiet_client()
        msg = client.session.msg(REQUEST, content=req)
        client.shell_channel.send(msg)
        try:
            reply = self._wait_for(client, msg["header"]["msg_id"], max(timeout, 0.05))
        except KernelFault as fault:
            if not recover:
                raise
            if fault.kind == "timeout" and self._interrupted():
                raise
            self._recover()
            raise
        buffers = reply.get("buffers") or []
        if reply.get("msg_type") != REPLY or len(buffers) != 1:
            return {"ok": False, "fault": "the kernel did not answer"}
        try:
            answer = json.loads(bytes(buffers[0]))
        except (ValueError, RecursionError):
            return {"ok": False, "fault": "the kernel's answer is not JSON"}
        return answer if type(answer) is dict else {"ok": False, "fault": "not a reply"}

    def _interrupted(self) -> bool:
        """Interrupt the kernel after a call ran out of time: did it stop?"""
        assert self.km is not None
        try:
            run_sync(self.km.interrupt_kernel)()
        except Exception:
            return False
        return self._responsive()


def _warn_once(log: Any, message: str) -> None:
    if message not in _warned:
        _warned.append(message)
        log.warning(message)


def with_walled_execute(preprocessors: list[Any]) -> list[Any]:
    """`preprocessors` with nbgrader's Execute replaced by `WalledExecute`."""
    return [WalledExecute if p is Execute else p for p in preprocessors]


#: the name used by earlier versions of the kit's nbgrader_config.py
with_resilient_execute = with_walled_execute
ResilientExecute = WalledExecute
