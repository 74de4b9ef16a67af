"""Cgroups: one group per launch, killed whole when grading ends.
"""

from __future__ import annotations

import contextlib
import os
import platform
import re
import secrets
import signal
import stat
import sys
import time
from typing import TYPE_CHECKING, Any

from .config import CGROUP_PARENT
from .linux import own_threads, landlock_abi
from .paths import is_inside
from .status import WallStatus, probe_userns

if TYPE_CHECKING:
    from .config import WallConfig



def cgroup_bases(controllers: tuple[str, ...] = ("pids", "memory", "freezer"),
                 ) -> tuple[int | None, dict[str, str]]:
    """Where this process's launches make their groups: (cgroup version, {controller:
    this process's own group folder}). Version 1 has a hierarchy per controller (pids,
    memory, freezer; the class server's walls add cpu); version 2 one unified group, listed
    under each controller it offers and under "unified". Version 1 wins where both are
    mounted (hybrid systems)."""
    try:
        with open("/proc/self/mountinfo") as f:
            mounts = [line.split() for line in f]
        with open("/proc/self/cgroup") as f:
            groups = [line.rstrip("\n").split(":", 2) for line in f]
    except OSError:
        return None, {}
    v1: dict[str, str] = {}
    v2: dict[str, str] = {}
    for parts in mounts:
        if "-" not in parts:
            continue
        sep = parts.index("-")
        fstype, options = parts[sep + 1], parts[sep + 3] if len(parts) > sep + 3 else ""
        mount_root, point = parts[3], parts[4]
        if fstype == "cgroup":
            for controller in controllers:
                if controller not in options.split(",") or controller in v1:
                    continue
                own = [g[2] for g in groups if len(g) == 3 and controller in g[1].split(",")]
                if own and is_inside(own[0], mount_root):
                    rel = os.path.relpath(own[0], mount_root)
                    v1[controller] = os.path.normpath(os.path.join(point, rel))
        elif fstype == "cgroup2" and not v2:
            own = [g[2] for g in groups if len(g) == 3 and g[0] == "0" and g[1] == ""]
            if own and is_inside(own[0], mount_root):
                base = os.path.normpath(os.path.join(point, os.path.relpath(own[0], mount_root)))
                try:
                    with open(os.path.join(point, "cgroup.controllers")) as f:
                        offered = f.read().split()
                except OSError:
                    continue
                v2 = {"unified": base, **{c: base for c in controllers
                                            if c in offered and c != "freezer"}}
    if "pids" in v1 or "memory" in v1:
        return 1, v1
    if v2:
        return 2, v2
    return (1, v1) if v1 else (None, {})


def _pids_bases() -> list[str]:
    """Folders of this process's pids cgroup (kept for callers of earlier versions)."""
    _, bases = cgroup_bases()
    return [bases["pids"]] if "pids" in bases else []


def status() -> WallStatus:
    """Probe Landlock, the namespaces and writable cgroups; restricts nothing here."""
    problems = []
    abi = landlock_abi()
    if abi is None:
        problems.append("no Landlock: students' code can read and write what the grader can")
    why = probe_userns()
    if why is not None:
        problems.append(f"no user/network/pid namespaces: {why}")
    root = os.getuid() == 0
    version, bases = cgroup_bases()
    pids = bases.get("pids") if bases.get("pids") and os.access(bases["pids"], os.W_OK) \
        else None
    memory = bases.get("memory") if bases.get("memory") and \
        os.access(bases["memory"], os.W_OK) else None
    if root and pids is None:
        problems.append("running as root without a writable pids cgroup: "
                        "the number of processes is not limited")
    if memory is None:
        problems.append(f"no writable memory cgroup: {NO_MEMORY_CGROUP}")
    return WallStatus(abi, why is None, root, pids, f"{sys.platform}/{platform.machine()}",
                      tuple(problems), memory, version)


NO_MEMORY_CGROUP = ("memory is limited per process only (RLIMIT_AS): a kernel's "
                    "processes together may hold the memory limit times the process limit")


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def cgroups_for_launch(config: WallConfig, warnings: list[str]) -> dict[str, str]:
    """Make this launch's cgroup(s), set their limits and move this process in; {controller
    or "unified": folder}. Everything the kernel starts inherits them."""
    version, bases = cgroup_bases()
    name = f"{os.getpid()}-{secrets.token_hex(4)}"
    made: dict[str, str] = {}
    errors: list[str] = []
    if version == 2:
        base = bases["unified"]
        group = os.path.join(base, CGROUP_PARENT)
        child = os.path.join(group, name)
        wanted = " ".join(f"+{c}" for c in ("pids", "memory") if c in bases)
        try:
            os.makedirs(group, exist_ok=True)
            for folder in (base, group):     # best effort: a busy parent refuses (EBUSY)
                with contextlib.suppress(OSError):
                    _write(os.path.join(folder, "cgroup.subtree_control"), wanted)
            _clean_cgroups(group)
            os.mkdir(child)
            with open(os.path.join(child, "cgroup.controllers")) as f:
                have = f.read().split()
            made["unified"] = child
            if config.processes and "pids" in have:
                _write(os.path.join(child, "pids.max"), str(own_threads() + 2 +
                                                            config.processes))
                made["pids"] = child
            if config.memory and "memory" in have:
                _write(os.path.join(child, "memory.max"), str(config.memory))
                with contextlib.suppress(OSError):
                    _write(os.path.join(child, "memory.swap.max"), "0")
                made["memory"] = child
            _write(os.path.join(child, "cgroup.procs"), str(os.getpid()))
        except OSError as exc:
            errors.append(f"{child}: {exc}")
            with contextlib.suppress(OSError):
                os.rmdir(child)
            made = {}
    elif version == 1:
        for controller in ("freezer", "pids", "memory"):
            if controller not in bases or (controller == "pids" and not config.processes) \
                    or (controller == "memory" and not config.memory):
                continue
            group = os.path.join(bases[controller], CGROUP_PARENT)
            child = os.path.join(group, name)
            try:
                os.makedirs(group, exist_ok=True)
                _clean_cgroups(group)
                os.mkdir(child)
                if controller == "pids":
                    _write(os.path.join(child, "pids.max"),
                           str(own_threads() + 2 + config.processes))
                if controller == "memory":
                    _write(os.path.join(child, "memory.limit_in_bytes"), str(config.memory))
                    with contextlib.suppress(OSError):   # swap too, where it is accounted
                        _write(os.path.join(child, "memory.memsw.limit_in_bytes"),
                               str(config.memory))
                _write(os.path.join(child, "cgroup.procs"), str(os.getpid()))
                made[controller] = child
            except OSError as exc:
                errors.append(f"{child}: {exc}")
                with contextlib.suppress(OSError):
                    os.rmdir(child)
    why = "; ".join(errors) or "none writable"
    if config.processes and "pids" not in made and os.getuid() == 0:
        warnings.append(f"processes: not limited (running as root, and no writable pids "
                        f"cgroup: {why})")
    if config.memory and "memory" not in made:
        warnings.append(f"memory: no memory cgroup ({why}): {NO_MEMORY_CGROUP}")
    if not made:
        warnings.append("no cgroup for this kernel: processes it leaves behind are ended "
                        "only by its pid namespace")
    return made


def _clean_cgroups(group: str, age: float = 60.0) -> None:
    """Best effort: remove old per-launch cgroups (rmdir fails while one has tasks)."""
    now = time.time()
    try:
        names = os.listdir(group)
    except OSError:
        return
    for name in names:
        path = os.path.join(group, name)
        try:
            if os.path.isdir(path) and now - os.stat(path).st_mtime > age:
                os.rmdir(path)
        except OSError:
            pass


_GROUP_NAME = re.compile(r"(\d+)-[0-9a-f]{8}")


def launch_cgroups(report: Any, launcher_pid: int) -> dict[str, str]:
    """The cgroups a launcher reported, each checked: a group of this wall's own (in this
    process's own groups' ``puzzlekit-wall`` folder), named after ``launcher_pid``, and a
    real folder. Anything else is dropped: a report is data, never trusted blindly."""
    claimed = report.get("cgroups") if isinstance(report, dict) else None
    if not isinstance(claimed, dict):
        return {}
    _, bases = cgroup_bases()
    out: dict[str, str] = {}
    for key, path in claimed.items():
        if key not in bases or not isinstance(path, str):
            continue
        parent = os.path.join(bases[key], CGROUP_PARENT)
        match = _GROUP_NAME.fullmatch(os.path.basename(path))
        if os.path.normpath(path) != path or os.path.dirname(path) != parent \
                or match is None or int(match.group(1)) != launcher_pid:
            continue
        with contextlib.suppress(OSError):
            if stat.S_ISDIR(os.lstat(path).st_mode):
                out[key] = path
    return out


def _group_pids(groups: dict[str, str]) -> set[int]:
    pids: set[int] = set()
    for path in set(groups.values()):
        with contextlib.suppress(OSError, ValueError):
            with open(os.path.join(path, "cgroup.procs")) as f:
                pids.update(int(line) for line in f if line.strip())
    return pids


def end_launch(groups: dict[str, str], timeout: float = 5.0) -> int:
    """Kill everything left in a launch's cgroups (validated by `launch_cgroups`), then
    remove the groups; the number of processes that were still there. Version 2 writes
    ``cgroup.kill``; version 1 freezes the group, SIGKILLs every process and thaws it."""
    if not groups:
        return 0
    found = _group_pids(groups)
    unified = groups.get("unified")
    freezer = groups.get("freezer")
    deadline = time.monotonic() + timeout
    if found and unified and os.path.exists(os.path.join(unified, "cgroup.kill")):
        with contextlib.suppress(OSError):
            _write(os.path.join(unified, "cgroup.kill"), "1")
    else:
        state = (os.path.join(freezer, "freezer.state"), "FROZEN", "THAWED") if freezer \
            else (os.path.join(unified, "cgroup.freeze"), "1", "0") if unified else None
        while time.monotonic() < deadline:
            pids = _group_pids(groups)
            if not pids:
                break
            frozen = False
            if state is not None:
                with contextlib.suppress(OSError):
                    _write(state[0], state[1])   # no fork can race the kill below
                    frozen = True
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            if frozen and state is not None:
                with contextlib.suppress(OSError):
                    _write(state[0], state[2])   # frozen tasks die once thawed
            time.sleep(0.01)
    while _group_pids(groups) and time.monotonic() < deadline:
        time.sleep(0.01)
    for path in sorted(set(groups.values())):
        while True:     # a group empties a moment after its last process is reaped
            try:
                os.rmdir(path)
                break
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() > deadline + 1.0:
                    break
                time.sleep(0.01)
    return len(found)
