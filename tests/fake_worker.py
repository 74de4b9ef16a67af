"""A fake worker for the class grader's tests: the course's execute step, made to die or
to hang on the submissions a test names (puzzlekit.course.workers; the production
worker has no such switch).

A test puts it in a course with `use_in(root, crash=..., hang=..., record_dir=...)`: the
course's config then runs `FakeExecute` (the kit's `WalledExecute`, unchanged for
everyone else) in place of `WalledExecute`, and every process of the run finds this
module through PYTHONPATH (`environment()`). For the pools' own tests a job with no kernel
at all is `job(key, ...)`.

- ``crash``: student ids whose job makes the worker process die (``os._exit``, as an OOM
  kill would) once per `record_dir`; an id starting with ``!`` always;
- ``hang``: student ids whose job hangs for good (SIGTERM ignored) with a double-forked
  process of its own in a new session left running; the pids of the worker and of
  everything under it go to ``record_dir/hung-<student>.pids``. With the kernel up
  (at the first cell) unless ``before_kernel``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from traitlets import Bool, List, Unicode

from puzzlekit.autograder.judge.autograde import WalledExecute
from puzzlekit.course.workers.proctree import descendants
from puzzlekit.course.workers.remote import JOB_VERSION

TESTS = Path(__file__).resolve().parent


class FakeExecute(WalledExecute):
    """WalledExecute that dies or hangs on the students the test names."""

    crash = List(Unicode(), help="students whose worker dies").tag(config=True)
    hang = List(Unicode(), help="students whose job hangs").tag(config=True)
    record_dir = Unicode("", help="where crash markers and hung pids go").tag(config=True)
    before_kernel = Bool(False, help="hang before any kernel starts").tag(config=True)

    def preprocess(self, nb: Any, resources: Any) -> Any:
        self._student = str((resources.get("nbgrader") or {}).get("student", ""))
        self._crash_now()
        if self.before_kernel:
            self._hang_now()
        if not nb.cells:            # the pools' jobs: nothing to execute
            return nb, resources
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell: Any, resources: Any, index: int) -> Any:
        if not self.before_kernel:
            self._hang_now()        # the kernel is up at the first cell
        return super().preprocess_cell(cell, resources, index)

    def _record(self, name: str) -> Path:
        return Path(self.record_dir or "/tmp") / name

    def _crash_now(self) -> None:
        if "!" + self._student in self.crash:
            os._exit(70)
        marker = self._record(f"crashed-{self._student}")
        if self._student in self.crash and not marker.exists():
            marker.write_text("crashed once\n")
            os._exit(70)

    def _hang_now(self) -> None:
        if self._student not in self.hang:
            return
        child = subprocess.Popen(
            [sys.executable, "-c", "import subprocess, sys, os\n"
             "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'],"
             " start_new_session=True)\n"
             "print(p.pid, flush=True)\n"
             "os._exit(0)\n"], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        grandchild = int(child.stdout.readline().strip())
        child.wait()
        everyone = {os.getpid(), grandchild, *descendants(os.getpid())}
        self._record(f"hung-{self._student}.pids").write_text(
            " ".join(map(str, sorted(everyone))) + "\n")
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            time.sleep(3600)


def environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """`base` (default: this process's environment) with this folder on PYTHONPATH."""
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS), env.get("PYTHONPATH")) if p)
    return env


def use_in(root: Path, **traits: Any) -> None:
    """Make the course at `root` grade with `FakeExecute` configured with `traits`."""
    lines = ["", "# the class grader's tests: the fake worker (tests/fake_worker.py)",
             f"import sys; sys.path.insert(0, {str(TESTS)!r})",
             "from fake_worker import FakeExecute",
             "from puzzlekit.autograder.judge.autograde import WalledExecute as _W",
             "c.Autograde.autograde_preprocessors = [FakeExecute if p is _W else p",
             "                                       for p in c.Autograde.autograde_preprocessors]"]
    lines += [f"c.FakeExecute.{name} = {value!r}" for name, value in traits.items()]
    with open(root / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write("\n".join(lines) + "\n")


def job(key: str, **traits: Any) -> bytes:
    """A job with an empty notebook, run by `FakeExecute` with `traits` (no kernel)."""
    return json.dumps({
        "version": JOB_VERSION, "key": key, "execute": "fake_worker.FakeExecute",
        "config": {"FakeExecute": {"before_kernel": True, **traits}},
        "notebook": json.dumps({"cells": [], "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}),
        "resources": {"nbgrader": {"student": key}}, "files": {}}).encode()
