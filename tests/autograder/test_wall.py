"""The wall around a student's kernel (puzzlekit.autograder.wall): real runs of the launcher.

Every behaviour test runs ``python -m puzzlekit.autograder.wall ... -- python -c ...`` for real. The
probes are grouped: one walled run answers many questions, so the module stays fast.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import sysconfig
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from puzzlekit.autograder import wall
from puzzlekit.errors import PuzzleError

STATUS = wall.status()
needs_landlock = pytest.mark.skipif(
    STATUS.landlock_abi is None,
    reason=f"Landlock is not available on this kernel ({STATUS.platform}): the wall cannot "
           "be tested here")
needs_userns = pytest.mark.skipif(
    not STATUS.userns, reason="unprivileged user namespaces are not allowed on this machine")

PACKAGE = Path(wall.__file__).resolve().parents[2]      # puzzlekit/
WALL_DIR = Path(wall.__file__).resolve().parent
SITE = Path(sysconfig.get_paths()["purelib"])
DENIED = ("PermissionError", "FileNotFoundError", "OSError", "ConnectionRefusedError")

# A walled script: runs named attempts and prints {name: [outcome, errno name]} as JSON. Its
# attempts are the wall's own self-check's (puzzlekit/autograder/wall/probe.py, imported
# from the folder given as its second argument), with the parameters of this test.
PROBE = textwrap.dedent(r'''
    import errno, json, os, sys
    sys.path.insert(0, sys.argv[2])
    import probe
    from socket import AF_INET, AF_UNIX
    p = probe.p
    p.update(json.loads(sys.argv[1]))
    out = {}

    def attempt(name, fn):
        try:
            fn()
            out[name] = ["ok", ""]
        except BaseException as exc:
            code = errno.errorcode.get(getattr(exc, "errno", None) or 0, "")
            out[name] = [type(exc).__name__, code]

    attempt("read secret", lambda: open(p["secret"]).read())
    attempt("list secret", lambda: os.listdir(os.path.dirname(p["secret"])))
    attempt("write site-packages", lambda: probe.write(p["site_file"]))
    attempt("write package", lambda: probe.write(p["package_file"]))
    attempt("write home", lambda: probe.write(p["home_file"]))
    attempt("write scratch", lambda: probe.write(os.path.join(p["scratch"], "answer.txt")))
    attempt("tcp", lambda: probe.connect(AF_INET, ("127.0.0.1", p["port"])))
    attempt("unix socket", lambda: probe.connect(AF_UNIX, p["unix"]))
    attempt("signal", lambda: os.kill(p["pid"], 0))
    if p["imports"]:
        attempt("import puzzlekit", probe.puzzle)
        attempt("import numpy", probe.numpy)
        attempt("import matplotlib", probe.plot)
        attempt("import ipywidgets", probe.widgets)
    attempt("memory", lambda: bytearray(p["memory"] + (64 << 20)))
    attempt("file size", probe.big_file)
    attempt("threads", probe.threads)
    out["files"] = {n: os.path.getsize(os.path.join(p["scratch"], n))
                    for n in os.listdir(p["scratch"]) if n.endswith((".txt", ".png", ".bin"))}
    out["written"] = open(os.path.join(p["scratch"], "answer.txt")).read()
    print(json.dumps(out))
''')


def run_walled(scratch: Path, code: str, *options: str, args: tuple[str, ...] = (),
               timeout: float = 120) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "puzzlekit.autograder.wall", "--scratch", str(scratch), *options,
            "--", sys.executable, "-c", code, *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                          check=False)


def probe(base: Path, name: str, *options: str, imports: bool) -> dict[str, Any]:
    """One walled run of PROBE against a world-readable secret, a home, TCP and Unix servers."""
    secret_dir = base / f"{name}-course"
    secret_dir.mkdir(mode=0o755)
    secret = secret_dir / "solutions.txt"
    secret.write_text("the answers")
    secret.chmod(0o644)
    home = base / f"{name}-home"
    home.mkdir(mode=0o755)
    scratch = base / f"{name}-scratch"
    unix_path = str(base / f"{name}.sock")
    planted = [SITE / f".wall-test-{name}-{os.getpid()}", PACKAGE / f".wall-test-{name}",
               home / ".bashrc"]
    with socket.create_server(("127.0.0.1", 0)) as tcp, \
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as unix:
        unix.bind(unix_path)
        os.chmod(unix_path, 0o777)
        unix.listen()
        params = {"secret": str(secret), "site_file": str(planted[0]),
                  "package_file": str(planted[1]), "home_file": str(planted[2]),
                  "scratch": str(scratch / wall.HOME_NAME), "port": tcp.getsockname()[1],
                  "unix": unix_path,
                  "pid": os.getpid(), "memory": 512 << 20, "file_size": 1 << 20,
                  "processes": 8, "imports": imports}
        try:
            proc = run_walled(scratch, PROBE, "--memory", "512M", "--file-size", "1M",
                              "--processes", "8", *options,
                              args=(json.dumps(params), str(WALL_DIR)))
        finally:
            for path in planted[:2]:
                if path.exists():
                    path.unlink()
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    report = json.loads((scratch / wall.REPORT_NAME).read_text())
    return {"results": results, "report": report, "scratch": scratch, "stderr": proc.stderr}


@pytest.fixture(scope="module")
def walled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The full wall (default settings apart from small limits)."""
    if STATUS.landlock_abi is None:
        pytest.skip("Landlock is not available on this kernel")
    return probe(tmp_path_factory.mktemp("wall"), "full", imports=True)


@pytest.fixture(scope="module")
def landlock_only(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The wall without the private root: Landlock alone guards the files."""
    if STATUS.landlock_abi is None:
        pytest.skip("Landlock is not available on this kernel")
    return probe(tmp_path_factory.mktemp("wall"), "shared", "--shared-root", imports=False)


def outcome(run: dict[str, Any], name: str) -> str:
    return str(run["results"][name][0])


# --- the walled process ---------------------------------------------------------------

@needs_landlock
@pytest.mark.parametrize("attempt", ["read secret", "list secret", "write site-packages",
                                     "write package", "write home"])
def test_files_outside_scratch_are_out_of_reach(walled: dict[str, Any], attempt: str) -> None:
    assert outcome(walled, attempt) in DENIED, walled["results"][attempt]


@needs_landlock
@pytest.mark.parametrize("attempt", ["read secret", "list secret", "write site-packages",
                                     "write package", "write home"])
def test_landlock_alone_says_permission_denied(landlock_only: dict[str, Any],
                                               attempt: str) -> None:
    assert landlock_only["results"][attempt] == ["PermissionError", "EACCES"]


@needs_landlock
def test_scratch_is_writable(walled: dict[str, Any]) -> None:
    assert outcome(walled, "write scratch") == "ok"
    assert walled["results"]["written"] == "walled code was here\n"
    assert walled["results"]["files"]["plot.png"] > 0
    # the kernel's home is a tmpfs of its own mount namespace: nothing of it on disk
    assert walled["report"]["scratch_limit"] == 256 << 20
    assert not (walled["scratch"] / wall.HOME_NAME / "answer.txt").exists()


@needs_landlock
def test_no_tcp_even_to_loopback(walled: dict[str, Any], landlock_only: dict[str, Any]) -> None:
    assert outcome(walled, "tcp") in DENIED
    if STATUS.landlock_abi is not None and STATUS.landlock_abi >= 4:
        assert outcome(landlock_only, "tcp") in DENIED


@needs_landlock
@needs_userns
def test_private_root_hides_unix_sockets(walled: dict[str, Any]) -> None:
    assert walled["report"]["private_root"] is True
    assert outcome(walled, "unix socket") in DENIED


@needs_landlock
def test_cannot_signal_the_grader(walled: dict[str, Any]) -> None:
    if walled["report"]["pidns"]:      # the grader is not even there to be named
        assert walled["results"]["signal"] == ["ProcessLookupError", "ESRCH"]
        return
    if STATUS.landlock_abi is not None and STATUS.landlock_abi < 6:
        pytest.skip("Landlock ABI < 6 cannot scope signals")
    assert walled["results"]["signal"] == ["PermissionError", "EPERM"]


@needs_landlock
def test_memory_and_file_size_limits(walled: dict[str, Any]) -> None:
    assert outcome(walled, "memory") == "MemoryError"
    assert walled["results"]["file size"] == ["OSError", "EFBIG"]
    assert walled["results"]["files"]["big.bin"] == 1 << 20


@needs_landlock
def test_process_limit(walled: dict[str, Any]) -> None:
    limits = walled["report"]["limits"]
    if limits["processes"] is None:
        pytest.skip(f"processes are not limited here: {walled['report']['warnings']}")
    assert outcome(walled, "threads") == "RuntimeError"


@needs_landlock
@pytest.mark.parametrize("module", ["puzzlekit", "numpy", "matplotlib", "ipywidgets"])
def test_course_libraries_import(walled: dict[str, Any], module: str) -> None:
    assert outcome(walled, f"import {module}") == "ok", walled["stderr"][-2000:]


@needs_landlock
def test_report_says_what_was_applied(walled: dict[str, Any]) -> None:
    report = walled["report"]
    assert report["landlock_abi"] == STATUS.landlock_abi
    assert report["limits"]["memory"] == 512 << 20
    assert report["limits"]["file_size"] == 1 << 20
    assert report["limits"]["core"] == 0
    assert report["root"] is (os.getuid() == 0)
    assert report["userns"] is STATUS.userns and report["netns"] is STATUS.userns
    assert report["pidns"] is STATUS.userns
    if STATUS.memory_cgroup:
        assert report["limits"]["memory_cgroup"] == report["cgroups"]["memory"]
        assert report["cgroups"]["memory"].startswith(STATUS.memory_cgroup + "/")
    assert str(PACKAGE) in report["readable"]
    assert not any(p in report["readable"] for p in ("/usr/local", "/usr/share", "/tmp"))
    if STATUS.full and (not STATUS.root or STATUS.pids_cgroup):
        assert report["warnings"] == []


@needs_landlock
def test_environment_points_into_scratch(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    code = "import json, os; print(json.dumps(dict(os.environ)))"
    proc = run_walled(scratch, code)
    assert proc.returncode == 0, proc.stderr
    env = json.loads(proc.stdout)
    for key in ("HOME", "TMPDIR", "MPLCONFIGDIR", "IPYTHONDIR", "JUPYTER_RUNTIME_DIR"):
        assert env[key].startswith(str(scratch / wall.HOME_NAME)), key
    assert env["PYTHONNOUSERSITE"] == "1" and env["OMP_NUM_THREADS"] == "1"
    assert "JUPYTER_PATH" not in env and "PYTHONPATH" not in env


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    proc = run_walled(Path("/"), "print('hi')")
    assert proc.returncode == 2 and "too broad" in proc.stderr
    proc = run_walled(SITE / "x", "print('hi')")
    assert proc.returncode == 2 and "read-only" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "puzzlekit.autograder.wall", "--scratch",
                           str(tmp_path), "--memory", "lots", "--", "true"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "size" in proc.stderr


# --- a real kernel behind the wall ----------------------------------------------------

@pytest.fixture
def walled_kernel(tmp_path: Path) -> Iterator[tuple[Any, Any, Path]]:
    pytest.importorskip("jupyter_client")
    from jupyter_client.manager import KernelManager
    from traitlets import List, Unicode

    if STATUS.landlock_abi is None:
        pytest.skip("Landlock is not available on this kernel")

    class WalledKernelManager(KernelManager):
        """Puts the wall launcher in front of the kernel command."""

        wall_prefix = List(Unicode())

        def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
            return [*self.wall_prefix, *super().format_kernel_cmd(extra_arguments)]

    scratch = tmp_path / "scratch"
    (scratch / "ipc").mkdir(parents=True)
    km = WalledKernelManager(transport="ipc", ip=f"{scratch}/ipc/k",
                             connection_file=f"{scratch}/ipc/kernel.json",
                             wall_prefix=wall.wall_argv(str(scratch), wall.WallConfig()))
    km.start_kernel(cwd=str(scratch))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        yield km, kc, scratch
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_ipykernel_runs_behind_the_wall(walled_kernel: tuple[Any, Any, Path],
                                       tmp_path: Path) -> None:
    km, kc, scratch = walled_kernel
    secret = tmp_path / "solutions.txt"
    secret.write_text("the answers")
    secret.chmod(0o644)
    outputs: list[dict[str, Any]] = []

    def hook(msg: dict[str, Any]) -> None:
        if msg["msg_type"] in ("stream", "error"):
            outputs.append(msg["content"])

    reply = kc.execute_interactive("print(1+1)", timeout=60, output_hook=hook)
    assert reply["content"]["status"] == "ok"
    assert outputs == [{"name": "stdout", "text": "2\n"}]
    outputs.clear()
    reply = kc.execute_interactive(f"open({str(secret)!r}).read()", timeout=60,
                                   output_hook=hook)
    assert reply["content"]["status"] == "error"
    assert reply["content"]["ename"] in ("PermissionError", "FileNotFoundError")
    report = json.loads((scratch / wall.REPORT_NAME).read_text())
    assert report["landlock_abi"] == STATUS.landlock_abi
    assert any(name.startswith("k-") for name in os.listdir(scratch / "ipc"))  # the sockets
    # the grader can still interrupt a runaway cell (nbclient does on a timeout)
    msg_id = kc.execute("import time; time.sleep(30)")
    time.sleep(0.5)
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=10)
    assert reply["parent_header"]["msg_id"] == msg_id
    assert reply["content"]["ename"] == "KeyboardInterrupt"


# --- helpers that need no wall ---------------------------------------------------------

@pytest.mark.parametrize("text, size", [
    ("12345", 12345), ("0", 0), ("100k", 100 * 1024), ("100K", 100 * 1024),
    ("512M", 512 << 20), ("512MiB", 512 << 20), ("2G", 2 << 30), ("2GiB", 2 << 30),
    ("2gb", 2 << 30), ("1.5G", 3 << 29), ("1T", 1 << 40), (" 64M ", 64 << 20), (7, 7),
])
def test_parse_size(text: str | int, size: int) -> None:
    assert wall.parse_size(text) == size


@pytest.mark.parametrize("text", ["", "lots", "-1", "2X", "1.2.3G", "G"])
def test_parse_size_refuses_nonsense(text: str) -> None:
    with pytest.raises(PuzzleError, match="size"):
        wall.parse_size(text)


def test_config_checks_its_values() -> None:
    with pytest.raises(PuzzleError, match="memory"):
        wall.WallConfig(memory=-1)
    with pytest.raises(PuzzleError, match="read"):
        wall.WallConfig(read="/srv")  # type: ignore[arg-type]
    assert wall.WallConfig(read=("rel",)).read == (os.path.abspath("rel"),)


def test_wall_argv_round_trips(tmp_path: Path) -> None:
    config = wall.WallConfig(memory=1 << 30, processes=5, file_size=1 << 20, network=True,
                             read=(str(tmp_path),))
    argv = wall.wall_argv(str(tmp_path / "s"), config)
    assert argv[:3] == [sys.executable, "-m", "puzzlekit.autograder.wall"] and argv[-1] == "--"
    ns = wall.cli._parser().parse_args(argv[3:-1])
    assert (ns.memory, ns.processes, ns.file_size, ns.network, ns.read) == (
        1 << 30, 5, 1 << 20, True, [str(tmp_path)])


def test_readable_paths_stay_narrow() -> None:
    paths = wall.readable_paths()
    assert str(PACKAGE) in paths and str(SITE) in paths
    for broad in ("/", "/usr", "/usr/local", "/usr/share", "/home", "/root", "/tmp", "/opt",
                  str(PACKAGE.parent), os.path.expanduser("~")):
        assert broad not in paths
    assert "/etc/shadow" not in paths and "/etc/passwd" in paths


def test_leaks(tmp_path: Path) -> None:
    course = tmp_path / "course"
    course.mkdir()
    assert wall.leaks(str(course)) == []
    shared = wall.WallConfig(read=(str(tmp_path),))
    assert wall.leaks(str(course), shared) == [str(tmp_path)]  # course inside an allowed tree
    assert str(PACKAGE) in wall.leaks(str(PACKAGE.parent))  # an allowed tree inside it
    assert wall.leaks(str(SITE / "numpy"))
    repo_course = PACKAGE.parent / "notebooks"
    if repo_course.is_dir():
        assert wall.leaks(str(repo_course)) == []


def test_a_scratch_folder_a_thousand_levels_deep_is_removed(tmp_path):
    from puzzlekit.autograder.wall.scratch import remove_tree
    import os
    top = tmp_path / "deep"
    path = str(top)
    os.mkdir(path)
    for _ in range(1200):              # deeper than Python's recursion limit
        path += "/d"
        os.mkdir(path)
    with open(path + "/f", "w") as f:
        f.write("x")
    (top / "link").symlink_to(tmp_path)     # a link is removed, never followed
    (tmp_path / "kept").write_text("keep")
    remove_tree(str(top))
    assert not top.exists() and (tmp_path / "kept").read_text() == "keep"


READ_PROC = ("import os\nfor pid in sorted(p for p in os.listdir('/proc') if p.isdigit()):\n"
             "    for what in ('cmdline', 'environ'):\n        try:\n"
             "            print(pid, what, open(f'/proc/{pid}/{what}', 'rb').read()"
             ".replace(bytes(1), b' ').decode().strip())\n"
             "        except OSError as e:\n            print(pid, what, e.strerror)\n")


def test_the_init_shows_the_kernel_no_command_line(tmp_path: Path) -> None:
    """The pid namespace's init is a fork of the launcher: its /proc/1/cmdline was the
    launcher's argv (the grader's scratch, the notebook's folder, the limits, the
    grader's Python); its environment the grader's whole one (unreadable: not dumpable)."""
    from puzzlekit.autograder.wall.launcher import INIT_NAME
    work = tmp_path / "course-folder"
    work.mkdir()
    proc = run_walled(tmp_path / "scratch", READ_PROC, "--workdir", str(work),
                      "--memory", "768M")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert f"1 cmdline {INIT_NAME.decode()}" in lines, lines
    for leak in (str(tmp_path), "puzzlekit.autograder.wall", "--memory", sys.executable):
        assert not any(line.startswith("1 ") and leak in line for line in lines), (leak, lines)
    assert "1 environ Permission denied" in lines
