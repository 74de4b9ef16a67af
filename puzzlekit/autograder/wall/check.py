"""The self-check: runs probe.py behind the wall and compares what held with what the wall
promises.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
from typing import TYPE_CHECKING, Any, TextIO

from ... import registry
from ...errors import PuzzleError
from .cgroups import NO_MEMORY_CGROUP, end_launch, launch_cgroups, status
from .config import WallConfig, wall_argv
from .scratch import scratch_layout

if TYPE_CHECKING:
    from .scratch import ScratchLayout
    from .status import WallStatus



#: the program `check` runs behind the wall, by its path: it imports nothing of the kit
#: before it tries to (``import puzzlekit`` is one of its checks)
_PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe.py")

# expected outcome of each probe row: "denied" (an OSError), an exception name, or "ok"
_EXPECTED = {
    "write into scratch": "ok", "import puzzlekit": "ok", "import numpy": "ok",
    "import matplotlib (Agg)": "ok", "import ipywidgets": "ok",
    "allocate above the memory limit": "MemoryError",
    "write a file above the size limit": "OSError",
    "start threads above the process limit": "RuntimeError",
    "read a secret-looking variable": "KeyError",
    "fill the scratch beyond its limit": "OSError",
}
_SECRET_ENV = {"DATABASE_URL": "postgresql://grader:hunter2@db/course",
               "MAIL_PASS": "hunter2", "AWS_SESSION_X": "hunter2"}
_OS_ERRORS = ("OSError", "PermissionError", "FileNotFoundError", "ConnectionRefusedError",
              "TimeoutError", "ProcessLookupError", "NotADirectoryError")


def _verdict(expected: str, got: list[str]) -> bool:
    if expected in ("denied", "OSError"):
        return got[0] in _OS_ERRORS
    return got[0] == expected


def check(config: WallConfig = WallConfig(), course_root: str | None = None,
          out: TextIO = sys.stdout) -> int:
    """Run a probe under the wall, print ``check | expected | got``; 0 if the wall is up."""
    st = status()
    package = registry.PACKAGE_DIR
    purelib = sysconfig.get_paths()["purelib"]
    home = os.path.expanduser("~")
    token = secrets.token_hex(4)
    with tempfile.TemporaryDirectory(prefix="puzzlekit-wall-check-") as tmp:
        os.chmod(tmp, 0o755)
        scratch = os.path.join(tmp, "scratch")
        if course_root is None:
            course_dir = os.path.join(tmp, "course")
            os.mkdir(course_dir, 0o755)
            course_file = os.path.join(course_dir, "secret.txt")
            with open(course_file, "w") as f:
                f.write("the solutions\n")
            os.chmod(course_file, 0o644)
        else:
            course_dir = os.path.abspath(course_root)
            if not os.path.isdir(course_dir):
                raise PuzzleError(f"--course-root {course_root} is not a folder")
            course_file = next((os.path.join(d, n) for d, _, ns in os.walk(course_dir)
                                for n in ns), os.path.join(course_dir, "missing"))
        tcp = socket.create_server(("127.0.0.1", 0))
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        unix_path = os.path.join(tmp, "grader.sock")
        unix.bind(unix_path)
        os.chmod(unix_path, 0o777)
        unix.listen()
        abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        abstract_name = f"puzzlekit-wall-check-{token}"
        abstract.bind("\0" + abstract_name)
        abstract.listen()
        planted = [os.path.join(d, f".puzzlekit-wall-probe-{token}")
                   for d in (purelib, package, home)]
        layout = scratch_layout(scratch)
        target = _plant_links(layout, tmp)
        params = {
            "course_file": course_file, "course_dir": course_dir, "scratch": layout.home,
            "shadow": "/etc/shadow" if os.path.exists("/etc/shadow") else None,
            "parent": os.getpid(), "site_file": planted[0], "package_file": planted[1],
            "home_file": planted[2], "tcp_port": tcp.getsockname()[1], "unix": unix_path,
            "abstract": abstract_name, "memory": config.memory,
            "file_size": config.file_size, "processes": config.processes,
            "scratch_limit": config.scratch_limit, "token": f"puzzlekit-orphan-{token}",
            "memory_cgroup": st.memory_cgroup is not None, "secret_env": list(_SECRET_ENV),
        }
        argv = [*wall_argv(scratch, config), sys.executable, _PROBE, json.dumps(params)]
        env = {**os.environ, "MPLBACKEND": "Agg", **_SECRET_ENV}
        try:
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, env=env)
            try:
                stdout, stderr = proc.communicate(timeout=300)
            except subprocess.TimeoutExpired:
                proc.kill()
                stdout, stderr = proc.communicate()
        finally:
            for sock in (tcp, unix, abstract):
                sock.close()
        for path in planted:  # a probe that got through must not leave anything behind
            if os.path.lexists(path):
                os.remove(path)
        try:
            with open(layout.report) as f:
                report = json.load(f)
        except (OSError, ValueError):
            report = {}
        end_launch(launch_cgroups(report, proc.pid))
        try:
            results: dict[str, list[str]] = json.loads(stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            print(f"the probe failed (exit {proc.returncode}):\n{stderr}", file=out)
            return 1
        if "start a process that outlives the kernel" in results:
            left = _orphans(params["token"])
            results["start a process that outlives the kernel"] = \
                ["ok", "", f"still running: {left}"] if left else ["ProcessLookupError", ""]
        touched = sorted(os.listdir(target))
        results["create the scratch's folders through a planted link"] = \
            ["ok", "", f"wrote {touched}"] if touched else ["PermissionError", ""]
    return _print_check(st, report, results, out)


def _plant_links(layout: ScratchLayout, tmp: str) -> str:
    """Plant what a kernel could leave before a restart: links where the launcher makes
    its folders and its report. The folder they point to must stay empty."""
    target = os.path.join(tmp, "link-target")
    os.mkdir(target, 0o700)
    os.makedirs(layout.home, 0o700)
    for name in ("tmp", ".ipython", "work"):
        os.symlink(target, os.path.join(layout.home, name))
    os.symlink(os.path.join(target, "report.json"), layout.report)
    return target


def _orphans(token: str, wait: float = 3.0) -> list[int]:
    """Processes whose command line holds ``token`` (a probe's orphan), after ``wait``
    seconds at most for them to go; any found are killed."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError):
                    with open(f"/proc/{entry}/cmdline", "rb") as f:
                        if token.encode() in f.read():
                            found.append(int(entry))
        if not found or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid in found:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return found


def _print_check(st: WallStatus, report: dict[str, Any], results: dict[str, list[str]],
                 out: TextIO) -> int:
    abi = report.get("landlock_abi")
    layers = [f"Landlock ABI {abi}" if abi else "NO Landlock",
              "user namespace" if report.get("userns") else "NO user namespace",
              "network namespace" if report.get("netns") else "no network namespace",
              "private root" if report.get("private_root") else "NO private root",
              "pid namespace" if report.get("pidns") else "NO pid namespace",
              "memory cgroup" if (report.get("limits") or {}).get("memory_cgroup")
              else "NO memory cgroup",
              f"scratch {report['scratch_limit']} bytes" if report.get("scratch_limit")
              else "scratch NOT size-limited",
              "running as root" if report.get("root") else "not root"]
    print(f"puzzlekit wall check on {st.platform}: {', '.join(layers)}", file=out)
    width = max(len(name) for name in results) + 2
    print(f"{'check':<{width}}{'expected':<14}got", file=out)
    failed = []
    for name, got in results.items():
        expected = _EXPECTED.get(name, "denied")
        ok = _verdict(expected, got)
        shown = got[0] if got[0] == "ok" or len(got) < 2 or not got[1] \
            else f"{got[0]} ({got[1]})"
        mark = "" if ok else "   <-- NOT AS EXPECTED"
        print(f"{name:<{width}}{expected:<14}{shown}{mark}", file=out)
        if not ok:
            failed.append(name)
    for warning in report.get("warnings", []):
        print(f"warning: {warning}", file=out)
    if abi is None:
        print("\n" + "!" * 78 + "\n!! Landlock is NOT available: students' code runs with the "
              "grader's rights.\n!! It can read the course, the exchange and the gradebook."
              "\n" + "!" * 78, file=out)
        return 1
    if not (report.get("limits") or {}).get("memory_cgroup"):
        print("\n" + "!" * 78 + "\n!! No memory cgroup: " + NO_MEMORY_CGROUP.replace(
              ": ", ":\n!! ") + ".\n!! Run the grader as root or in a delegated cgroup "
              "(see docs/explanation/wall.md).\n" + "!" * 78, file=out)
    if failed or not report.get("userns"):
        print(f"\nThe wall is NOT fully up ({len(failed)} check(s) failed).", file=out)
        return 1
    print("\nThe wall is up.", file=out)
    return 0
