"""One person's server on the class server, behind the walls of a fair share (as root).

The hub's spawner (jupyterhub_config.py, `ClassSpawner`) starts every user server through
this launcher, as root, with the class environment's Python:

    python serverwall.py --user NAME [--memory BYTES] [--processes N] [--shm BYTES]
                         [--tmp BYTES] [--cpus N] -- COMMAND [ARG...]

- cgroups (version 1, where the machine has them): the person's own group in each of the
  cpu, memory, pids and freezer hierarchies, `puzzlekit-hub/<user>` under the hub's own
  groups: equal cpu.shares for every person (four busy processes of one person weigh as
  much as one of another's; the hub's group as much as one process per person), at most `--cpus` cores' worth of CPU time, `--memory` bytes
  of memory (and of memory + swap, where the kernel counts swap), `--processes` tasks;
- a PID namespace with its own /proc: the person's processes see only each other;
- a mount namespace with private tmpfs folders on /dev/shm (`--shm` bytes) and on /tmp
  and /var/tmp (one tmpfs of `--tmp` bytes; 0: the machine's): a file there is the
  person's memory, counted by their memory cgroup, gone when the server stops;
- then, as the person (their groups, uid, home), the namespace's first process (a small
  init that reaps orphans and forwards the hub's signals) starts COMMAND.

This launcher stays outside, as root, the process the hub watches: it forwards the hub's
SIGINT/SIGTERM/SIGHUP, and when the server ends it kills whatever is left in the person's
groups and removes them. If it is killed, the namespace's init dies with it (its parent-
death signal), and so does every process of the namespace.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import select
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom import Limits  # noqa: E402
from puzzlekit.autograder.wall import linux  # noqa: E402
from puzzlekit.autograder.wall.cgroups import cgroup_bases, end_launch  # noqa: E402

#: the folder, in each hierarchy under the hub's own group, of everyone's groups
HUB_PARENT = "puzzlekit-hub"
CONTROLLERS = ("cpu", "memory", "pids", "freezer")
CFS_PERIOD = 100_000            #: microseconds (the kernel's default period)
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


def user_groups(user: str) -> dict[str, str]:
    """{controller: the folder of `user`'s group} in this machine's cgroup v1 hierarchies
    (under this process's own groups); {} where there is no cgroup v1."""
    version, bases = cgroup_bases(CONTROLLERS)
    if version != 1:
        return {}
    return {c: os.path.join(bases[c], HUB_PARENT, user) for c in CONTROLLERS if c in bases}


def _write(folder: str, name: str, value: str) -> None:
    with open(os.path.join(folder, name), "w") as f:
        f.write(value)


def make_user_groups(user: str, limits: Limits) -> tuple[dict[str, str], list[str]]:
    """`user`'s groups, emptied of what an earlier server left and set to `limits`; and
    what could not be limited, said plainly."""
    groups = user_groups(user)
    notes = [] if groups else ["no cgroup v1 hierarchy: CPU, memory and processes are "
                               "not limited per person"]
    end_launch(groups)              # an earlier server's leftovers, and its groups
    made: dict[str, str] = {}
    for controller, folder in groups.items():
        try:
            os.makedirs(folder, exist_ok=True)
            if controller == "cpu":
                _write(folder, "cpu.shares", "1024")
                if limits.cpus:
                    _write(folder, "cpu.cfs_period_us", str(CFS_PERIOD))
                    _write(folder, "cpu.cfs_quota_us", str(int(limits.cpus * CFS_PERIOD)))
            elif controller == "memory" and limits.memory:
                _write(folder, "memory.limit_in_bytes", str(limits.memory))
                with contextlib.suppress(OSError):   # where the kernel counts swap
                    _write(folder, "memory.memsw.limit_in_bytes", str(limits.memory))
            elif controller == "pids" and limits.processes:
                _write(folder, "pids.max", str(limits.processes))
            made[controller] = folder
        except OSError as e:
            notes.append(f"{controller}: {folder}: {e.strerror}: not limited")
    weigh_the_hub(groups.get("cpu"))
    return made, notes


def weigh_the_hub(cpu_group: str | None) -> None:
    """The hub's cpu group weighs as much as one process of the machine per person with a
    server (1024 each): the class as a whole gets what its people would get as plain
    processes, shared equally between them, however many processes each of them runs."""
    if cpu_group is None:
        return
    parent = os.path.dirname(cpu_group)
    with contextlib.suppress(OSError):
        people = sum(os.path.isdir(os.path.join(parent, n)) for n in os.listdir(parent))
        _write(parent, "cpu.shares", str(1024 * max(1, people)))


def private_mounts(limits: Limits) -> None:
    """In a new mount namespace: its own /proc (of the new PID namespace), and tmpfs
    folders of the limits' sizes on /dev/shm and on /tmp (and /var/tmp, the same)."""
    linux.unshare(linux.CLONE_NEWNS)
    linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)  # nothing back to the host
    linux.mount("proc", "/proc", "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC)
    flags = linux.MS_NOSUID | linux.MS_NODEV
    linux.mount("tmpfs", "/dev/shm", "tmpfs", flags, f"size={limits.shm or '50%'},mode=1777")
    if limits.tmp:                  # (0: the machine's own /tmp)
        linux.mount("tmpfs", "/tmp", "tmpfs", flags, f"size={limits.tmp},mode=1777")
        if os.path.isdir("/var/tmp"):
            linux.mount("/tmp", "/var/tmp", None, linux.MS_BIND)


def become(user: pwd.struct_passwd) -> None:
    """Drop root for good: the person's groups, gid and uid, in their home."""
    os.setgroups(os.getgrouplist(user.pw_name, user.pw_gid))
    os.setgid(user.pw_gid)
    os.setuid(user.pw_uid)
    os.chdir(user.pw_dir)


def init(command: list[str]) -> int:
    """The PID namespace's first process (as the person): start `command`, forward the
    signals the launcher passes on, reap every orphan; COMMAND's exit status."""
    child = os.fork()
    if child == 0:
        for sig in FORWARDED:
            signal.signal(sig, signal.SIG_DFL)
        try:
            os.execvp(command[0], command)
        except OSError as e:
            print(f"serverwall: cannot start {command[0]}: {e.strerror}", file=sys.stderr)
        os._exit(127)

    def forward(sig: int, _frame: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, sig)

    for sig in FORWARDED:
        signal.signal(sig, forward)
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            return 1
        if pid == child:
            return os.waitstatus_to_exitcode(status)


def launch(username: str, limits: Limits, command: list[str]) -> int:
    """Start `command` as `username` behind the walls (see the module); its exit status."""
    user = pwd.getpwnam(username)
    groups, notes = make_user_groups(username, limits)
    for note in notes:
        print(f"serverwall: {username}: {note}", file=sys.stderr)
    linux.unshare(linux.CLONE_NEWPID)   # the next child is the namespace's first process
    ready_r, ready_w = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(ready_w)
        try:
            if os.read(ready_r, 1) != b"1":     # the launcher has put it into the groups
                os._exit(1)
            private_mounts(limits)
            become(user)
            # dies with the launcher (setuid clears the setting: set after it)
            linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)
            if select.select([ready_r], [], [], 0)[0]:  # end of file: the launcher died
                os._exit(1)
            os.close(ready_r)
            os._exit(init(command))
        except BaseException as e:      # never back into the launcher's code as root
            print(f"serverwall: {username}: {e}", file=sys.stderr)
            os._exit(1)
    os.close(ready_r)
    for folder in groups.values():
        with contextlib.suppress(OSError):
            _write(folder, "cgroup.procs", str(child))

    def forward(sig: int, _frame: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, sig)

    for sig in FORWARDED:
        signal.signal(sig, forward)
    os.write(ready_w, b"1")             # (kept open: its end tells the init we died)
    _, status = os.waitpid(child, 0)
    end_launch(groups)                  # whatever is left (nothing, normally) dies here
    weigh_the_hub(groups.get("cpu"))
    return os.waitstatus_to_exitcode(status)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--user", required=True)
    defaults = Limits()
    # (the disk limit is the home's volume, which classroom.py makes)
    parser.add_argument("--memory", type=int, default=defaults.memory)
    parser.add_argument("--processes", type=int, default=defaults.processes)
    parser.add_argument("--shm", type=int, default=defaults.shm)
    parser.add_argument("--tmp", type=int, default=defaults.tmp)
    parser.add_argument("--cpus", type=float, default=defaults.cpus)
    parser.add_argument("command", nargs="+")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if os.geteuid() != 0:
        print("serverwall: run it as root (the hub's spawner does)", file=sys.stderr)
        return 1
    limits = Limits(memory=args.memory, processes=args.processes, shm=args.shm, tmp=args.tmp,
                    cpus=args.cpus)
    return launch(args.user, limits, args.command)


if __name__ == "__main__":
    sys.exit(main())
