"""The wall's second ring (issue 21): a kernel's processes end with it and share one budget.

Real kernels behind the wall: the pid namespace (a kernel sees only its own processes;
double-forked, setsid, SIGTERM-ignoring children die with it, also when the launcher or
the grader is SIGKILLed), the per-launch cgroup (memory as a whole, emptied when grading
ends), the size-limited scratch, folders never made through a planted link, the
environment allow-list, the notebook's own folder as working directory, and stale scratch
folders removed. One test grades a small course with the course's nbgrader_config.py
through the real ``nbgrader autograde``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from puzzlekit.autograder import wall

STATUS = wall.status()
pytestmark = pytest.mark.skipif(
    STATUS.landlock_abi is None or not STATUS.userns,
    reason="the wall's namespaces or Landlock are not available on this machine")
needs_memory_cgroup = pytest.mark.skipif(
    STATUS.memory_cgroup is None, reason=f"no writable memory cgroup: {wall.NO_MEMORY_CGROUP}")

REPO = Path(__file__).resolve().parents[2]

# a cell that leaves a CPU burner behind: double fork, setsid, SIGTERM and SIGHUP ignored
BURNER = textwrap.dedent('''
    import os, signal, sys
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            os.execv(sys.executable, [sys.executable, "-c", "while True: pass", {token!r}])
        os._exit(0)
    os.wait()
''')


def running(token: str, wait: float = 5.0) -> list[int]:
    """Processes of the machine whose command line holds ``token``, after waiting up to
    ``wait`` seconds for them to go (scanning the grader's /proc)."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if token.encode() in cmdline and state != "Z":
                found.append(int(entry))
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def appears(token: str, wait: float = 10.0) -> list[int]:
    """Processes whose command line holds ``token``, once at least one has started (a
    double-forked child execs a moment after the cell that forked it has returned)."""
    deadline = time.monotonic() + wait
    while True:
        found = running(token, wait=0)
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


@pytest.fixture
def token(request: pytest.FixtureRequest) -> Iterator[str]:
    name = f"puzzlekit-test-{request.node.name}-{os.getpid()}-{time.time_ns()}"
    yield name
    for pid in running(name, wait=0):   # never leave a burner behind, whatever happened
        os.kill(pid, signal.SIGKILL)


class Kernel:
    """A walled ipykernel started as WalledExecute starts one (ipc in scratch/ipc)."""

    def __init__(self, scratch: Path, config: wall.WallConfig, n: int = 1,
                 workdir: Path | None = None) -> None:
        from jupyter_client.manager import KernelManager
        from traitlets import List, Unicode

        class WalledKernelManager(KernelManager):  # type: ignore[misc]
            wall_prefix = List(Unicode())

            def format_kernel_cmd(self, extra_arguments: list[str] | None = None
                                  ) -> list[str]:
                return [*self.wall_prefix, *super().format_kernel_cmd(extra_arguments)]

        (scratch / "ipc").mkdir(parents=True, exist_ok=True, mode=0o700)
        self.scratch = scratch
        self.km = WalledKernelManager(
            transport="ipc", ip=f"{scratch}/ipc/k{n}", connection_file=f"{scratch}/ipc/k{n}.json",
            wall_prefix=wall.wall_argv(str(scratch), config,
                                       workdir=None if workdir is None else str(workdir)))
        self.km.start_kernel(cwd=str(scratch), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        self.pid = self.km.provisioner.process.pid
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)
        self.report = json.loads((scratch / wall.REPORT_NAME).read_text())
        self.groups = wall.launch_cgroups(self.report, self.pid)

    def run(self, code: str, timeout: float = 60) -> tuple[dict[str, Any], str]:
        out: list[str] = []

        def hook(msg: dict[str, Any]) -> None:
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
        reply = self.kc.execute_interactive(code, timeout=timeout, output_hook=hook)
        return reply["content"], "".join(out)

    def value(self, expression: str) -> Any:
        code = f"import json as _j; print(_j.dumps({expression}))"
        content, out = self.run(code)
        if content["status"] == "aborted":   # ipykernel aborts what arrives right after an
            time.sleep(0.5)                   # error (here: the interrupt) for a moment
            content, out = self.run(code)
        assert content["status"] == "ok", content
        return json.loads(out)

    def stop(self, now: bool = False) -> int:
        self.kc.stop_channels()
        if self.km.is_alive():
            self.km.shutdown_kernel(now=now)
        return wall.end_launch(self.groups)


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[Kernel]:
    k = Kernel(tmp_path / "scratch", wall.WallConfig())
    try:
        yield k
    finally:
        k.stop(now=True)


# --- processes end with their kernel ---------------------------------------------------

def test_the_kernel_sees_only_its_own_processes(kernel: Kernel) -> None:
    assert kernel.report["pidns"] is True
    pids = kernel.value("sorted(int(p) for p in __import__('os').listdir('/proc') "
                        "if p.isdigit())")
    me = kernel.value("__import__('os').getpid()")
    assert set(pids) == {1, me}       # its init and itself: nothing of the machine
    names = kernel.value("[open(f'/proc/{p}/cmdline').read() for p in (1, "
                         "__import__('os').getpid())]")
    assert names[0].rstrip("\0") == "puzzlekit-wall-init" and "ipykernel" in names[1]
    # its init is a fork of the launcher, which holds the grader's whole environment:
    # out of the kernel's reach (not dumpable, outside its Landlock domain)
    for attempt in ("open('/proc/1/environ').read()", "os.kill(1, 9)",
                    "open('/proc/1/mem', 'rb').read(1)"):
        content, _ = kernel.run(f"import os\n{attempt}")
        assert content["status"] == "error", attempt
        assert content["ename"] in ("PermissionError", "ProcessLookupError"), content
    assert kernel.km.is_alive()


def test_interrupts_still_reach_the_kernel(kernel: Kernel) -> None:
    msg_id = kernel.kc.execute("print('sleeping', flush=True); import time; time.sleep(30)")
    deadline = time.monotonic() + 30      # on a busy machine the cell starts late
    while time.monotonic() < deadline:    # interrupt once it runs, not before
        msg = kernel.kc.get_iopub_msg(timeout=30)
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
            break
    time.sleep(0.2)
    kernel.km.interrupt_kernel()          # jupyter_client: killpg(SIGINT) of the launcher
    reply = kernel.kc.get_shell_msg(timeout=10)
    while reply["parent_header"].get("msg_id") != msg_id:   # kernel_info's, from start
        reply = kernel.kc.get_shell_msg(timeout=10)
    assert reply["content"]["ename"] == "KeyboardInterrupt"
    assert kernel.value("6 * 7") == 42 and kernel.km.is_alive()


@pytest.mark.parametrize("how", ["shutdown", "launcher killed", "kernel exits"])
def test_a_double_forked_child_dies_with_its_kernel(tmp_path: Path, token: str,
                                                    how: str) -> None:
    k = Kernel(tmp_path / "scratch", wall.WallConfig())
    content, _ = k.run(BURNER.format(token=token))
    assert content["status"] == "ok"
    assert appears(token), "the burner did not start"
    if how == "launcher killed":
        os.kill(k.pid, signal.SIGKILL)
    elif how == "kernel exits":
        k.kc.execute("import os; os._exit(3)")
    else:
        k.kc.stop_channels()
        k.km.shutdown_kernel(now=False)   # graceful: shutdown_request, then the group
    assert running(token) == []
    k.stop(now=True)
    assert not any(os.path.exists(g) for g in k.groups.values())   # groups removed


def test_a_killed_grader_takes_its_kernels_along(tmp_path: Path, token: str) -> None:
    """The grader SIGKILLed while a kernel's burner runs: nothing is left running."""
    script = textwrap.dedent(f'''
        import sys, time
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from pathlib import Path
        from test_wall_ring import BURNER, Kernel
        from puzzlekit.autograder import wall
        k = Kernel(Path({str(tmp_path / "scratch")!r}), wall.WallConfig())
        k.run(BURNER.format(token={token!r}))
        print("ready", flush=True)
        time.sleep(600)
    ''')
    grader = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert grader.stdout is not None and grader.stdout.readline() == "ready\n"
        assert appears(token)
    finally:
        grader.kill()
        grader.wait()
    assert running(token) == []


def test_what_the_launch_left_is_killed_by_its_cgroup(tmp_path: Path, token: str) -> None:
    """The second line, without the pid namespace's help: a process still in the group
    (here one started beside the kernel by the test) dies in end_launch."""
    k = Kernel(tmp_path / "scratch", wall.WallConfig())
    assert k.groups, f"no cgroup: {k.report['warnings']}"
    stray = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", token],
                             start_new_session=True)
    for path in set(k.groups.values()):
        (Path(path) / "cgroup.procs").write_text(str(stray.pid))
    k.kc.stop_channels()
    k.km.shutdown_kernel(now=True)
    assert wall.end_launch(k.groups) >= 1
    stray.wait(timeout=10)
    assert running(token, wait=0) == []
    assert not any(os.path.exists(g) for g in k.groups.values())


def _cgroup2_mount() -> str | None:
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        parts = line.split()
        if "-" in parts and parts[parts.index("-") + 1] == "cgroup2":
            return parts[4]
    return None


def test_a_cgroup_v2_group_is_emptied_with_cgroup_kill(token: str) -> None:
    """The v2 path of end_launch, on this machine's unified hierarchy."""
    import secrets
    mount = _cgroup2_mount()
    if mount is None or not os.access(mount, os.W_OK):
        pytest.skip("no writable cgroup v2 hierarchy here")
    parent = Path(mount) / "puzzlekit-wall-test"
    group = parent / f"{os.getpid()}-{secrets.token_hex(4)}"
    group.mkdir(parents=True)
    try:
        if not (group / "cgroup.kill").exists():
            pytest.skip("no cgroup.kill (Linux < 5.14): end_launch freezes and kills instead")
        sleepers = [subprocess.Popen([sys.executable, "-c", "import signal, time; "
                                      "signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                                      "time.sleep(600)", token], start_new_session=True)
                    for _ in range(2)]
        for sleeper in sleepers:
            (group / "cgroup.procs").write_text(str(sleeper.pid))
        assert wall.end_launch({"unified": str(group)}) == 2
        for sleeper in sleepers:
            assert sleeper.wait(timeout=10) == -signal.SIGKILL
        assert not group.exists()
    finally:
        if group.exists():
            group.rmdir()
        with __import__("contextlib").suppress(OSError):
            parent.rmdir()


def test_reported_cgroups_are_checked_before_use(tmp_path: Path) -> None:
    version, bases = wall.cgroups.cgroup_bases()
    if not bases:
        pytest.skip("no cgroups here")
    key, base = next(iter(bases.items()))
    good = f"{base}/puzzlekit-wall/4242-0123abcd"
    fakes = [base, f"{base}/puzzlekit-wall/../x/4242-0123abcd", "/etc/4242-0123abcd",
             f"{base}/puzzlekit-wall/4243-0123abcd", f"{base}/other/4242-0123abcd", 7]
    for fake in fakes:
        assert wall.launch_cgroups({"cgroups": {key: fake}}, 4242) == {}, fake
    assert wall.launch_cgroups({"cgroups": {key: good}}, 4242) == {}   # not a folder
    assert wall.launch_cgroups("nonsense", 4242) == {}
    assert wall.launch_cgroups({"cgroups": {"nope": good}}, 4242) == {}


# --- one budget ----------------------------------------------------------------------

@needs_memory_cgroup
def test_three_processes_of_1_gib_cannot_all_live_under_2g(tmp_path: Path) -> None:
    code = textwrap.dedent('''
        import subprocess, sys
        code = "b = bytearray(1 << 30); print('held', flush=True); import time; time.sleep(30)"
        kids = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
                for _ in range(3)]
        held = sum(k.stdout.readline().startswith(b"held") for k in kids)
        for k in kids:
            k.kill()
        print(held)
    ''')
    argv = [*wall.wall_argv(str(tmp_path / "s"), wall.WallConfig(memory=2 << 30)),
            sys.executable, "-c", code]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    report = json.loads((tmp_path / "s" / wall.REPORT_NAME).read_text())
    assert report["limits"]["memory_cgroup"], report["warnings"]
    said = proc.stdout.strip().splitlines()
    assert said and said[-1] in ("0", "1", "2"), (proc.returncode, proc.stdout, proc.stderr)
    # the launch is over: its groups are empty, and end_launch removes them
    groups = {k: v for k, v in report["cgroups"].items()}
    assert wall.end_launch(groups) == 0
    assert not any(os.path.exists(path) for path in groups.values())


def test_the_scratch_is_capped(tmp_path: Path) -> None:
    k = Kernel(tmp_path / "scratch", wall.WallConfig(scratch_limit=8 << 20))
    try:
        assert k.report["scratch_limit"] == 8 << 20
        content, _ = k.run("with open('fill.bin', 'wb') as f:\n"
                           "    for _ in range(16):\n        f.write(bytes(1 << 20))")
        assert content["status"] == "error" and "No space left" in content["evalue"]
        assert not (tmp_path / "scratch" / "home" / "fill.bin").exists()   # not on disk
    finally:
        k.stop(now=True)


# --- nothing is made through a link --------------------------------------------------

@pytest.mark.parametrize("scratch_limit", [0, 256 << 20], ids=["disk", "tmpfs"])
def test_a_planted_link_is_not_followed_at_a_restart(tmp_path: Path,
                                                     scratch_limit: int) -> None:
    target = tmp_path / "instructor" / "source"
    target.mkdir(parents=True)
    (target / "ps1.ipynb").write_text("the model solutions")
    scratch = tmp_path / "scratch"
    work = scratch / "work"
    work.mkdir(parents=True)
    (work / "data.txt").write_text("42")
    config = wall.WallConfig(scratch_limit=scratch_limit)
    first = Kernel(scratch, config, n=1, workdir=work)
    home = first.report["home"]
    first.kc.execute(
        "import os, shutil\n"
        f"for name in ('tmp', '.ipython', 'work', '.cache'):\n"
        f"    shutil.rmtree(os.path.join({home!r}, name))\n"
        f"    os.symlink({str(target)!r}, os.path.join({home!r}, name))\n"
        "os._exit(1)")                    # a forced restart, links in place
    deadline = time.monotonic() + 30
    while first.km.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    first.stop(now=True)
    second = Kernel(scratch, config, n=2, workdir=work)
    try:
        assert sorted(os.listdir(target)) == ["ps1.ipynb"]      # untouched
        assert (target / "ps1.ipynb").read_text() == "the model solutions"
        second.run("import os")
        assert second.value("[os.path.islink(os.path.join(os.environ['HOME'], n)) "
                            "for n in ('tmp', '.ipython', 'work', '.cache')]") \
            == [False] * 4
        assert second.value("open('data.txt').read()") == "42"
    finally:
        second.stop(now=True)


def test_the_report_cannot_be_planted(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (scratch / wall.REPORT_NAME).symlink_to(victim)
    k = Kernel(scratch, wall.WallConfig())
    k.stop(now=True)
    assert victim.read_text() == "keep me"
    assert not (scratch / wall.REPORT_NAME).is_symlink()
    (scratch / "ipc").rmdir() if not any((scratch / "ipc").iterdir()) else None
    shutil.rmtree(scratch / "ipc", ignore_errors=True)
    (scratch / "ipc").symlink_to(tmp_path)
    proc = subprocess.run([*wall.wall_argv(str(scratch)), sys.executable, "-c", "pass"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "not a plain folder" in proc.stderr


# --- what crosses in ------------------------------------------------------------------

def test_the_environment_is_an_allow_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    for name in ("DATABASE_URL", "MAIL_PASS", "AWS_SESSION_X", "JPY_PARENT_PID",
                 "LD_PRELOAD", "PYTHONPATH"):
        monkeypatch.setenv(name, "hunter2")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    proc = subprocess.run([*wall.wall_argv(str(tmp_path / "s")), sys.executable, "-c",
                           "import json, os; print(json.dumps(dict(os.environ)))"],
                          capture_output=True, text=True, check=False)
    env = json.loads(proc.stdout)
    assert "hunter2" not in json.dumps(env)
    assert env["LC_ALL"] == "C.UTF-8" and env["NBGRADER_EXECUTION"] == "autograde"
    assert env["HOME"] == str(tmp_path / "s" / "home") and env["PATH"]


# --- stale scratch folders -------------------------------------------------------------

def test_stale_scratch_folders_are_removed_and_nothing_else(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    mine = Path(wall.make_scratch(str(tmp_path)))
    start = wall.scratch._grader_start(os.getpid())
    stale = tmp_path / f"pkgrade-{dead.pid}-{start}-abc123"          # grader gone
    reused = tmp_path / f"pkgrade-{os.getpid()}-1-abc123"            # pid reused since
    (stale / "home").mkdir(parents=True)
    reused.mkdir()
    keep = [tmp_path / "pkgrade-abc123", tmp_path / "pkgrade-1-2-notes.txt",
            tmp_path / "other"]
    keep[0].mkdir()
    keep[1].write_text("not a folder")
    keep[2].mkdir()
    link = tmp_path / f"pkgrade-{dead.pid}-{start}-link"
    link.symlink_to(keep[2])
    removed = wall.remove_stale_scratch(str(tmp_path))
    assert sorted(removed) == sorted([str(stale), str(reused)])
    assert mine.is_dir() and all(p.exists() for p in keep) and link.is_symlink()


# --- through the real nbgrader autograde ----------------------------------------------

def _course(root: Path) -> None:
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", root / "nbgrader_config.py")
    cells = [new_code_cell("data = '?'\n### BEGIN SOLUTION\ndata = open('data.txt').read()"
                           ".strip()\n### END SOLUTION"),
             new_code_cell("assert data == '42', 'data.txt was not read'")]
    cells[0].metadata["nbgrader"] = {"solution": True, "grade": False, "locked": False,
                                     "grade_id": "answer", "schema_version": 3}
    cells[1].metadata["nbgrader"] = {"solution": False, "grade": True, "locked": True,
                                     "points": 1, "grade_id": "test", "schema_version": 3}
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                 "display_name": "Python 3"}
    source = root / "source" / "ps1"
    source.mkdir(parents=True)
    nbformat.write(nb, source / "ps1.ipynb")
    (source / "data.txt").write_text("42\n")


def _submit(root: Path, student: str, extra: str = "") -> None:
    import nbformat
    folder = root / "submitted" / student / "ps1"
    folder.mkdir(parents=True)
    nb = nbformat.read(root / "release" / "ps1" / "ps1.ipynb", as_version=4)
    nb.cells[0].source = "data = open('data.txt').read().strip()\n" + extra
    nbformat.write(nb, folder / "ps1.ipynb")
    shutil.copy(root / "release" / "ps1" / "data.txt", folder / "data.txt")


def _nbgrader(root: Path, *args: str, env: dict[str, str] | None = None) -> None:
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_nbgrader_autograde_ends_what_a_student_left_running(tmp_path: Path,
                                                             token: str) -> None:
    pytest.importorskip("nbgrader")
    root = tmp_path / "course"
    root.mkdir()
    env = {**os.environ, "DATABASE_URL": "postgresql://grader:hunter2@db/course",
           "MAIL_PASS": "hunter2", "AWS_SESSION_X": "hunter2",
           "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]}
    _course(root)
    _nbgrader(root, "generate_assignment", "ps1", "--force", env=env)
    leak = ("import os\nprint('LEAKED', [k for k in os.environ if 'hunter2' in "
            "os.environ[k]])\n")
    _submit(root, "burner", leak + BURNER.format(token=token))
    _submit(root, "honest")
    _nbgrader(root, "autograde", "ps1", "--student", "burner", env=env)
    assert running(token) == []          # nothing left once autograde has returned
    _nbgrader(root, "autograde", "ps1", "--student", "honest", env=env)

    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gb:
        scores = {s: gb.find_submission("ps1", s).score for s in ("burner", "honest")}
    assert scores == {"burner": 1.0, "honest": 1.0}     # data.txt beside the notebook
    import nbformat
    graded = nbformat.read(root / "autograded" / "burner" / "ps1" / "ps1.ipynb",
                           as_version=4)
    printed = "".join(o.get("text", "") for o in graded.cells[0].outputs)
    assert "LEAKED []" in printed
    wall_meta = graded.metadata["puzzlekit"]["wall"]
    assert wall_meta["up"] and wall_meta["pidns"] and wall_meta["scratch_limit"]
    assert not list(Path(os.environ.get("TMPDIR", "/tmp")).glob(f"pkgrade-*-{token}"))
