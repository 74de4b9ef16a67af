"""A class server for tests: JupyterHub on 127.0.0.1 with real Unix users (tests/test_hub.py).

- `class_hub(roster, more_courses=...)`: `make hub` as the guide says, on free 127.0.0.1
  ports, with the class environment at $PUZZLEKIT_HUB_TEST_ENV (default
  /opt/puzzlekit-hub-test: built by the first run, then only the kit is reinstalled), the
  users marked with `MARKER` and their homes (on volumes of `SHARE["disk"]`), the
  exchange and the hub's state under a fresh folder of BASES; before it, the guide's block
  that adds a course (`make hub-course`) for each further course's roster; the test logs
  in with the first passwords the set-up wrote; on exit the hub is stopped and the users,
  their processes and the folder removed;
- `as_user(hub, name, argv)`: a command run as that Unix user, with the environment their
  server has (what their JupyterLab terminal runs: with the hub's API token of their
  server while it runs); `in_server(hub, name, argv)`: the same inside their running
  server's walls (its namespaces and cgroups), where their terminal runs;
- `UserSession`: a browser context logged in to the hub as one person, with calls to their
  own server's REST API (contents, as JupyterLab makes them).
"""

from __future__ import annotations

import csv
import fcntl
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_support import REPO, answers, free_port, require_chromium, stop_group

CLASS_ENV = Path(os.environ.get("PUZZLEKIT_HUB_TEST_ENV", "/opt/puzzlekit-hub-test"))
MARKER = "puzzlekit-hub-test"            #: the GECOS field of every user the tests make
BASES = Path("/srv/puzzlekit-hub-tests")  #: where each run's folder goes
#: each person's share on the test's hub (make hub's HUB_* variables): small enough that a
#: test fills each quickly, big enough for the class (JupyterLab, a kernel, nbgrader)
SHARE = {"memory": "1G", "processes": 256, "shm": "64M", "tmp": "128M", "cpus": 1,
         "disk": "256M"}
sys.path.insert(0, str(REPO / "deploy" / "hub"))
import classroom  # noqa: E402


def require_hub_machine() -> None:
    """Skip, saying why, where this machine cannot run a class server with real users."""
    if sys.platform != "linux":
        pytest.skip("the class server needs Linux (Unix users, PAM)")
    if os.geteuid() != 0:
        pytest.skip("the class server test makes Unix users and runs the hub as root: "
                    "run it as root (CI does)")
    for tool in ("useradd", "userdel", "chpasswd", "runuser"):
        if not shutil.which(tool):
            pytest.skip(f"`{tool}` is missing: this machine cannot make users")
    if not (CLASS_ENV / ".installed-hub").exists() and not shutil.which("npm"):
        pytest.skip("npm is missing, so the hub's proxy (configurable-http-proxy) cannot be "
                    "installed (apt-get install npm)")
    require_chromium()


@contextmanager
def class_env_lock() -> Iterator[None]:
    """One test at a time builds or refreshes the class environment (tests run in
    several processes, and the hub's test and the exchange's share it)."""
    with open(Path(tempfile.gettempdir()) / "puzzlekit-hub-test-env.lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def make_hub_env(out: Any) -> int:
    """`make hub-env` into CLASS_ENV (the first run builds it, later ones refresh the kit),
    under `class_env_lock`, its output into the binary file `out`; its exit code."""
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "LANG": "C.UTF-8", "HOME": "/root"}
    with class_env_lock():
        return subprocess.run(["make", "--no-print-directory", "hub-env",
                               f"HUB_ENV={CLASS_ENV}"], cwd=REPO, env=env, stdout=out,
                              stderr=subprocess.STDOUT).returncode


def remove_leftovers() -> list[str]:
    """Users an interrupted run left behind (only those carrying MARKER)."""
    return classroom.remove_marked_users(MARKER)


@dataclass
class Hub:
    url: str                       #: http://127.0.0.1:PORT
    settings: Any                  #: classroom.Settings
    passwords: dict[str, str]
    base: Path                     #: the folder of this run (homes, exchange, state)
    process: subprocess.Popen
    log: Path

    def server_env(self, user: str) -> dict[str, str]:
        """The environment the spawner gives this user's server (what their terminal has),
        with the hub's variables (API token, URL) of their server while it runs."""
        import pwd
        home = pwd.getpwnam(user).pw_dir
        return {"HOME": home, "USER": user, "LOGNAME": user, "LANG": "C.UTF-8",
                "PATH": f"{self.settings.env}/bin:/usr/local/bin:/usr/bin:/bin",
                **self.settings.server_env(user), **running_server_env(user)}

    def log_tail(self, n: int = 60) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])


def running_server_env(user: str) -> dict[str, str]:
    """The JUPYTERHUB_* variables of `user`'s running server (empty when it is not running)."""
    import pwd
    uid = pwd.getpwnam(user).pw_uid
    for pid in classroom.user_processes({uid}):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if b"jupyterhub-singleuser" in cmdline:
            pairs = (item.decode().partition("=") for item in environ.split(b"\0") if item)
            return {k: v for k, _, v in pairs if k.startswith("JUPYTERHUB_")}
    return {}


def as_user(hub: Hub, user: str, argv: list[str], *, cwd: str | None = None,
            timeout: float = 300, check: bool = True) -> subprocess.CompletedProcess:
    """Run `argv` as the Unix user `user` with their server's environment."""
    import pwd
    env = hub.server_env(user)
    cmd = ["runuser", "-u", user, "--", "env", "-i", *(f"{k}={v}" for k, v in env.items()),
           *argv]
    done = subprocess.run(cmd, cwd=cwd or pwd.getpwnam(user).pw_dir, capture_output=True,
                          text=True, timeout=timeout)
    if check:
        assert done.returncode == 0, f"{argv} as {user} failed:\n{done.stdout}\n{done.stderr}"
    return done


def server_pid(user: str) -> int | None:
    """The (machine's) pid of `user`'s running jupyterhub-singleuser, or None (not the
    first process of its PID namespace, serverwall.py's init, which names it too)."""
    import pwd
    uid = pwd.getpwnam(user).pw_uid
    for pid in classroom.user_processes({uid}):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"jupyterhub-singleuser" in cmdline and b"serverwall.py" not in cmdline:
                return pid
        except OSError:
            continue
    return None


def cgroup_folders(pid: int) -> dict[str, str]:
    """{controller: folder} of the cgroup (version 1) of process `pid`, per hierarchy."""
    mounts = {}
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        parts = line.split()
        sep = parts.index("-")
        if parts[sep + 1] == "cgroup":
            for option in parts[sep + 3].split(","):
                mounts.setdefault(option, (parts[3], parts[4]))
    out = {}
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for c in controllers.split(","):
            if c in mounts:
                root, point = mounts[c]
                out[c] = os.path.normpath(os.path.join(point, os.path.relpath(path, root)))
    return out


def in_server(hub: Hub, user: str, argv: list[str], *, timeout: float = 120,
              check: bool = True) -> subprocess.CompletedProcess:
    """Run `argv` as `user` inside their running server's walls, as their JupyterLab
    terminal would: its PID and mount namespaces (nsenter) and its cgroups, their uid."""
    import pwd
    pw = pwd.getpwnam(user)
    pid = server_pid(user)
    assert pid is not None, f"{user}'s server is not running"
    groups = cgroup_folders(pid)

    def join_groups() -> None:
        for folder in set(groups.values()):
            with open(os.path.join(folder, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))

    env = hub.server_env(user)
    cmd = ["nsenter", f"--target={pid}", "--mount", "--pid", f"--wd={pw.pw_dir}", "--",
           "setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}", "--init-groups", "--",
           "env", "-i", *(f"{k}={v}" for k, v in env.items()), *argv]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=join_groups)
    if check:
        assert done.returncode == 0, f"{argv} in {user}'s server failed:\n{done.stdout}\n" \
                                     f"{done.stderr}"
    return done


def roster_csv(path: Path, roster: Sequence[tuple[str, str]]) -> Path:
    path.write_text("username,role,first_name,last_name,email\n"
                    + "".join(f"{u},{r},{u.split('-')[-1].title()},Tester,\n"
                              for u, r in roster))
    return path


@contextmanager
def class_hub(roster: list[tuple[str, str]], artifacts: Path,
              more_courses: Sequence[tuple[list[tuple[str, str]], str]] = ()) -> Iterator[Hub]:
    """`make hub` for `roster` ((username, role) pairs) on free 127.0.0.1 ports, with the
    users' homes, the exchange and the hub's state in a fresh folder of BASES. Before it, for
    each of `more_courses` ((roster, the guide's shell block that adds a course)), the
    block runs with that roster and the test's folders and ports."""
    remove_leftovers()
    # not in /tmp, which every user server has of its own
    BASES.mkdir(mode=0o755, exist_ok=True)
    base = Path(tempfile.mkdtemp(prefix="puzzlekit-hub-", dir=BASES))
    os.chmod(base, 0o755)
    (base / "home").mkdir()
    os.chmod(base / "home", 0o755)
    state, port = base / "state", free_port()
    setup_args = (f"--hub-port {free_port()} --proxy-api-port {free_port()} "
                  f"--home-base {base / 'home'} --comment {MARKER}")
    where = [f"HUB_ENV={CLASS_ENV}", f"HUB_STATE={state}", f"EXCHANGE={base / 'exchange'}",
             "HUB_IP=127.0.0.1", f"HUB_PORT={port}", f"HUB_SETUP_ARGS={setup_args}",
             *(f"HUB_{k.upper()}={v}" for k, v in SHARE.items())]
    log = artifacts / "hub.log"
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "LANG": "C.UTF-8", "HOME": "/root"}
    everyone = {u for u, _ in roster}
    process = None
    try:
        with open(log, "wb") as out:
            # make hub's first step, one test at a time (it may build the environment)
            assert make_hub_env(out) == 0, log.read_text(errors="replace")[-3000:]
            for n, (course_roster, block) in enumerate(more_courses, start=2):
                # the guide's block as written; the test's folders, ports and roster after
                # its own words (make takes the last value of a variable)
                rows = roster_csv(base / f"roster-{n}.csv", course_roster)
                make = ("make() { command make --no-print-directory \"$@\" "
                        + " ".join(shlex.quote(v) for v in [*where, f"ROSTER={rows}"]) + "; }\n")
                done = subprocess.run(["bash", "-euo", "pipefail", "-c", make + block],
                                      cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
                assert done.returncode == 0, (f"the guide's block failed:\n{block}\n"
                                              + log.read_text(errors="replace")[-3000:])
                everyone |= {u for u, _ in course_roster}
            process = subprocess.Popen(
                ["make", "--no-print-directory", "hub", *where,
                 f"ROSTER={roster_csv(base / 'roster.csv', roster)}"],
                cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 1500      # a first run builds the class environment
        while not answers(f"{url}/hub/api/", timeout=3):
            tail = "\n".join(log.read_text(errors="replace").splitlines()[-60:])
            assert process.poll() is None, "make hub exited:\n" + tail
            assert time.monotonic() < deadline, "the hub did not answer:\n" + tail
            time.sleep(0.5)
        with open(state / classroom.PASSWORDS_FILE, newline="") as f:
            passwords = {row["username"]: row["initial_password"] for row in csv.DictReader(f)}
        assert set(passwords) == everyone, passwords
        yield Hub(url, classroom.load_settings(state), passwords, base, process, log)
    finally:
        if process is not None:
            stop_group(process, gently=40, firmly=10)
        remove_leftovers()
        shutil.rmtree(base, ignore_errors=True)


@dataclass
class UserSession:
    """One person's browser context, logged in to the hub, and their server's API."""
    hub: Hub
    user: str
    context: Any
    page: Any
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def server(self) -> str:
        return f"{self.hub.url}/user/{self.user}"

    def _xsrf(self) -> str:
        for cookie in self.context.cookies():
            if cookie["name"] == "_xsrf":
                return cookie["value"]
        return ""

    def api(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """A call of their own server's REST API with their login (as JupyterLab makes it)."""
        headers = {"X-XSRFToken": self._xsrf(), "Content-Type": "application/json"}
        r = self.context.request.fetch(f"{self.server}/{path.lstrip('/')}", method=method,
                                       headers=headers,
                                       data=json.dumps(body) if body is not None else None)
        try:
            data = r.json()
        except Exception:
            data = r.text()
        return r.status, data


def start_login(browser: Any, hub: Hub, user: str) -> UserSession:
    """Submit `user`'s login form (their server starts); `wait_for_lab` waits for it."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{hub.url}/hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", hub.passwords[user])
    page.click("#login_submit", no_wait_after=True)
    return UserSession(hub, user, context, page)


def wait_for_lab(s: UserSession, timeout: int = 180_000) -> UserSession:
    s.page.wait_for_url(f"**/user/{s.user}/lab**", timeout=timeout)
    s.page.locator("#jp-main-statusbar").wait_for(timeout=timeout)
    return s


def login(browser: Any, hub: Hub, user: str) -> UserSession:
    """Log `user` in through the hub's login page and wait for their JupyterLab."""
    return wait_for_lab(start_login(browser, hub, user))
