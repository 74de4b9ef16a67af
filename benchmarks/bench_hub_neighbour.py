"""A student's work next to a noisy neighbour on the class server, without and with the
walls of a fair share (deploy/hub/serverwall.py; as root, Linux, cgroup v1).

Two users of a class (made for the run, removed after, homes on volumes as `make hub`
makes them): student B times a CPU-bound loop (what running a search cell is) alone,
then while student A's server runs four `setsid` CPU burners, a memory hog (3 GiB), a
/dev/shm filler (2 GiB) and a disk filler (2 GiB into their home). "before": both as
plain processes of their users (what LocalProcessSpawner gave); "after": each through
serverwall.py with its default share (1 core, 2 GiB, 512 processes, /dev/shm 256 MiB;
the home's volume 512 MiB here). The figure is B's time with the neighbour / alone
(medians of PUZZLEKIT_BENCH_ROUNDS runs, default 3, alone both before and after the
neighbour's); the walls aim at 1.2x at most. Other work on the machine weighs on both
figures alike: the load average is in the notes.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "deploy" / "hub"))
import classroom  # noqa: E402

ROUNDS = int(os.environ.get("PUZZLEKIT_BENCH_ROUNDS", "3"))
MARKER = "puzzlekit-bench-neighbour"
NEIGHBOUR, STUDENT = "pkbench-a", "pkbench-b"
PYTHON = "/usr/bin/python3"
WORK = ("import time\nt = time.perf_counter()\nn = 0\nfor i in range(8_000_000):\n"
        "    n += i * i\nprint(time.perf_counter() - t)")
HOG = ("import time\nheld = []\nfor _ in range(48):\n    held.append(bytearray(64 << 20))\n"
       "time.sleep(600)")
NOISE = (f"for i in 1 2 3 4; do setsid {PYTHON} -c 'while True: pass' & done\n"
         f"{PYTHON} -c '{HOG}' &\n"
         "dd if=/dev/zero of=/dev/shm/bench-filler bs=1M count=2048 2>/dev/null &\n"
         "dd if=/dev/zero of=$HOME/bench-filler bs=1M count=2048 2>/dev/null &\n"
         "sleep 600\n")


def as_student(user: str, argv: list[str], walls: bool) -> list[str]:
    """`argv` as `user`: through serverwall.py (its default share), or plainly."""
    if walls:
        return [sys.executable, "-I", str(REPO / "deploy" / "hub" / "serverwall.py"),
                f"--user={user}", "--", *argv]
    return [classroom.system_tool("runuser"), "-u", user, "--", *argv]


def timed_work(walls: bool) -> float:
    done = subprocess.run(as_student(STUDENT, [PYTHON, "-c", WORK], walls), check=True,
                          capture_output=True, text=True, cwd="/",
                          env={"HOME": pwd.getpwnam(STUDENT).pw_dir, "PATH": "/usr/bin:/bin"})
    return float(done.stdout.split()[-1])


def stop_noise(noise: subprocess.Popen, walls: bool) -> None:
    """End the neighbour: the launcher's namespace, or every process of their user."""
    uid = pwd.getpwnam(NEIGHBOUR).pw_uid
    if walls:
        noise.send_signal(signal.SIGTERM)
    for pid in classroom.user_processes({uid}):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    noise.wait(timeout=30)
    Path("/dev/shm/bench-filler").unlink(missing_ok=True)      # (before: the machine's)
    (Path(pwd.getpwnam(NEIGHBOUR).pw_dir) / "bench-filler").unlink(missing_ok=True)


def neighbours_share() -> dict[str, Any]:
    """What A's hog, /dev/shm filler and disk filler hold now (MiB; the hog: "killed" when
    it is gone), seen through A's processes (their /dev/shm may be their own)."""
    mib = 1 << 20
    found: dict[str, Any] = {"hog MiB": "killed", "/dev/shm MiB": None, "home MiB": None}
    home = Path(pwd.getpwnam(NEIGHBOUR).pw_dir) / "bench-filler"
    found["home MiB"] = home.stat().st_size // mib if home.exists() else None
    for pid in classroom.user_processes({pwd.getpwnam(NEIGHBOUR).pw_uid}):
        proc = Path(f"/proc/{pid}")
        try:
            if b"bytearray" in (proc / "cmdline").read_bytes():
                rss = next(line for line in (proc / "status").read_text().splitlines()
                           if line.startswith("VmRSS:"))
                found["hog MiB"] = int(rss.split()[1]) // 1024
            shm = proc / "root" / "dev" / "shm" / "bench-filler"
            if found["/dev/shm MiB"] is None and shm.exists():
                found["/dev/shm MiB"] = shm.stat().st_size // mib
        except (OSError, StopIteration):
            continue
    return found


def measure(walls: bool) -> dict[str, Any]:
    """B's work alone (before and after the neighbour's run) and with the neighbour."""
    alone = [timed_work(walls) for _ in range(ROUNDS)]
    env = {"HOME": pwd.getpwnam(NEIGHBOUR).pw_dir, "PATH": "/usr/bin:/bin"}
    noise = subprocess.Popen(as_student(NEIGHBOUR, ["bash", "-c", NOISE], walls), cwd="/",
                             env=env, start_new_session=True)
    try:
        time.sleep(3)                   # the burners run, the hog and fillers are at work
        noisy = statistics.median(timed_work(walls) for _ in range(ROUNDS))
        held = neighbours_share()
    finally:
        stop_noise(noise, walls)
    alone.extend(timed_work(walls) for _ in range(ROUNDS))
    return {"walls": "after: serverwall.py" if walls else "before: plain processes",
            "alone s": statistics.median(alone), "with the neighbour s": noisy, "slowdown": noisy / statistics.median(alone), **held}


def main() -> Any:
    title = "A student's work next to a noisy neighbour (class server)"
    if os.geteuid() != 0 or not Path("/sys/fs/cgroup/cpu").is_dir():
        return {"title": title, "rows": [], "notes": ["needs root and cgroup v1: skipped"]}
    classroom.remove_marked_users(MARKER)
    base = Path(tempfile.mkdtemp(prefix="puzzlekit-bench-", dir="/srv"))
    try:
        os.chmod(base, 0o755)
        (base / "home").mkdir(mode=0o755)
        (base / "volumes").mkdir(mode=0o700)
        for name in (NEIGHBOUR, STUDENT):
            classroom.create_user(classroom.Person(name, "student"), str(base / "home"), MARKER)
            classroom.mount_home_volume(name, base / "volumes", 512 << 20)
        rows = [measure(walls=False), measure(walls=True)]
    finally:
        classroom.remove_marked_users(MARKER)
        shutil.rmtree(base, ignore_errors=True)
    return {"title": title, "rows": rows,
            "notes": [f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the "
                      f"end; medians of {ROUNDS} runs of an 8M-step loop"]}


if __name__ == "__main__":
    report = main()
    for row in report["rows"]:
        print(row)
    print(*report["notes"], sep="\n")
