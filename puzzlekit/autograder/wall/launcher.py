"""The launcher's steps: namespaces, the private root, Landlock, limits, then the command.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import json
import os
import resource
import select
import shutil
import signal
import stat
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from ...errors import PuzzleError
from .cgroups import cgroups_for_launch
from .config import DEVICES, ENV_KEEP, ENV_KEEP_PREFIXES
from .linux import (
    CLONE_NEWNET,
    CLONE_NEWNS,
    CLONE_NEWPID,
    CLONE_NEWUSER,
    FS_DEVICE,
    FS_FILE_ONLY,
    FS_READ,
    FS_SOCKETS,
    LL_RULE_PATH_BENEATH,
    MAX_LINKS,
    MOUNT_ATTR_NODEV,
    MOUNT_ATTR_NOSUID,
    MOUNT_ATTR_RDONLY,
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_REC,
    NET_BIND_TCP,
    NET_CONNECT_TCP,
    PR_CAP_AMBIENT,
    PR_CAP_AMBIENT_CLEAR_ALL,
    PR_CAPBSET_DROP,
    PR_SET_DUMPABLE,
    PR_SET_NO_NEW_PRIVS,
    PR_SET_PDEATHSIG,
    SCOPE_ABSTRACT_UNIX_SOCKET,
    SCOPE_SIGNAL,
    count_tasks,
    handled_fs,
    mount,
    own_threads,
    PathBeneathAttr,
    prctl,
    RulesetAttr,
    set_mount_attr,
    raw_syscall,
    sys_umount,
    unshare,
    write_id_maps,
    landlock_abi,
)
from .paths import is_inside, readable_paths
from .scratch import DIR_FLAGS, disk_home, fill_home, open_dir, open_report, prepare_scratch

if TYPE_CHECKING:
    from .config import WallConfig
    from .scratch import ScratchLayout




def _namespaces(network: bool, warnings: list[str]) -> tuple[bool, bool, bool, bool]:
    """Enter new user (+ net unless ``network``) + mount + pid namespaces: (userns, netns,
    mntns, pidns). The pid namespace takes effect for the next child (the init)."""
    net = 0 if network else CLONE_NEWNET
    uid, gid = os.geteuid(), os.getegid()
    try:
        unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | net)
    except OSError as exc:
        threads = own_threads()
        hint = f"; the launcher runs {threads} threads and needs 1" if threads > 1 else ""
        warnings.append(f"no user namespace ({exc}{hint})")
        for flags in (CLONE_NEWNS | CLONE_NEWPID | net, CLONE_NEWNS | net, net,
                      CLONE_NEWNS):  # root can still do these
            if flags == 0:
                continue
            try:
                unshare(flags)
                return (False, bool(flags & CLONE_NEWNET), bool(flags & CLONE_NEWNS),
                        bool(flags & CLONE_NEWPID))
            except OSError:
                continue
        if net:
            warnings.append("no network namespace: the network is open (Landlock still "
                            "blocks TCP where its ABI >= 4)")
        return False, False, False, False
    try:
        write_id_maps(uid, gid)
    except OSError as exc:  # unusable: files could not even be created; stop here
        raise SystemExit("puzzlekit.autograder.wall: in a user namespace but cannot map "
                         f"ids: {exc}") from exc
    return True, bool(net), True, True


def _symlinks_on(path: str) -> list[tuple[str, str]]:
    """The symlinks met while resolving ``path``, as (real location, link text) pairs."""
    links: list[tuple[str, str]] = []
    todo, seen = [path], set[str]()
    while todo:
        current = todo.pop()
        if current in seen or len(seen) > MAX_LINKS:
            continue
        seen.add(current)
        walked = "/"
        for part in current.strip("/").split("/"):
            step = os.path.join(walked, part)
            if os.path.islink(step):
                text = os.readlink(step)
                links.append((step, text))
                todo.append(os.path.normpath(os.path.join(walked, text)))
                walked = os.path.realpath(step)
            else:
                walked = step
    return links


def _bind_plan(layout: ScratchLayout, reads: list[str], fresh_proc: bool
               ) -> tuple[list[tuple[str, bool]], dict[str, str]]:
    """Bind mounts (real path, read-only) and symlinks (location -> text) of the new root.
    The home is mounted separately; /proc is mounted fresh for a new pid namespace."""
    binds: list[tuple[str, bool]] = []
    for real in sorted({os.path.realpath(p) for p in reads}):
        if fresh_proc and is_inside(real, "/proc"):   # /etc/mtab -> /proc/<pid>/mounts
            continue
        if not any(is_inside(real, done) for done, _ in binds):  # nested: already inside
            binds.append((real, True))
    devices = [d for d in DEVICES if os.path.exists(d)]
    binds += [(os.path.realpath(d), False) for d in devices] + [(layout.ipc, False)]
    links = {loc: text for p in [*reads, *devices] for loc, text in _symlinks_on(p)
             if not any(is_inside(loc, real) for real, _ in binds)}
    if "/proc" in reads:
        links.update({"/dev/fd": "/proc/self/fd", "/dev/stdin": "/proc/self/fd/0",
                      "/dev/stdout": "/proc/self/fd/1", "/dev/stderr": "/proc/self/fd/2"})
    return binds, links


def _mount_proc(target: str, warnings: list[str]) -> bool:
    """A /proc of the new pid namespace on ``target``: the kernel's own processes only."""
    try:
        mount("proc", target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        return True
    except OSError as exc:
        warnings.append(f"no /proc of its own ({exc}): the kernel sees the machine's "
                        "processes")
        return False


def _mount_home(target: str, size: int) -> None:
    mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=0700")


def _build_stage(stage: str, layout: ScratchLayout, binds: list[tuple[str, bool]],
                 links: dict[str, str], home: dict[str, Any], dir_fd: int,
                 workdir: str | None, warnings: list[str]) -> None:
    """Mount a tmpfs on ``stage``, bind (or link) every allowed path into it, mount the
    home (a size-limited tmpfs, or the fresh folder on disk) and a fresh /proc."""
    mount("tmpfs", stage, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4m")
    for real, _ in binds:
        target = stage + real
        if os.path.isdir(real):
            os.makedirs(target, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            open(target, "a").close()
        recursive = MS_REC if real != layout.ipc else 0
        mount(real, target, None, MS_BIND | recursive)
    for loc, text in sorted(links.items()):
        os.makedirs(os.path.dirname(stage + loc), exist_ok=True)
        if not os.path.lexists(stage + loc):
            os.symlink(text, stage + loc)
    os.makedirs(stage + layout.home)
    if home["limit"]:
        _mount_home(stage + layout.home, home["limit"])
    else:
        os.close(disk_home(dir_fd))
        mount(layout.home, stage + layout.home, None, MS_BIND)
    fd = open_dir(stage + layout.home)
    try:
        home["work"] = fill_home(fd, workdir, warnings)
    finally:
        os.close(fd)
    if home["fresh_proc"]:
        os.makedirs(stage + "/proc", exist_ok=True)
        if not _mount_proc(stage + "/proc", warnings):
            home["fresh_proc"] = False
            mount("/proc", stage + "/proc", None, MS_BIND | MS_REC)
            binds.append(("/proc", True))
    os.mkdir(stage + "/.oldroot")


def _private_root(layout: ScratchLayout, dir_fd: int, reads: list[str],
                  home: dict[str, Any], workdir: str | None, warnings: list[str]) -> bool:
    """Pivot into a tmpfs root holding only ``reads`` (read-only), the devices, the ipc
    folder and the home; False (nothing changed) if that cannot be done."""
    binds, links = _bind_plan(layout, reads, home["fresh_proc"])
    stage = layout.root
    try:
        mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing propagates to the grader
        try:
            _build_stage(stage, layout, binds, links, home, dir_fd, workdir, warnings)
            raw_syscall("pivot_root", ctypes.c_char_p(os.fsencode(stage)),
                     ctypes.c_char_p(os.fsencode(stage + "/.oldroot")))
        except OSError:
            with contextlib.suppress(OSError):
                sys_umount(stage)
            raise
    except OSError as exc:
        warnings.append(f"no private root ({exc}): Unix sockets outside scratch are reachable")
        return False
    os.chdir("/")
    try:
        sys_umount("/.oldroot")
        os.rmdir("/.oldroot")
    except OSError as exc:
        warnings.append(f"private root: the old root is still mounted at /.oldroot ({exc})")
    try:
        guard = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV
        for real, read_only in binds:
            if read_only:
                set_mount_attr(real, MOUNT_ATTR_RDONLY | guard, recursive=True)
        set_mount_attr(layout.ipc, guard, recursive=False)
        if home["fresh_proc"]:
            set_mount_attr("/proc", MOUNT_ATTR_RDONLY | guard, recursive=False)
        set_mount_attr("/", MOUNT_ATTR_RDONLY | guard, recursive=False)
    except OSError as exc:
        warnings.append(f"private root: could not make the bind mounts read-only ({exc})")
    return True


def _shared_home(layout: ScratchLayout, dir_fd: int, home: dict[str, Any], mntns: bool,
                 workdir: str | None, warnings: list[str]) -> None:
    """The home without a private root: a tmpfs over DIR/home in this mount namespace
    where one can be mounted, else the fresh folder on disk (its size then unbounded)."""
    if mntns:
        with contextlib.suppress(OSError):
            mount(None, "/", None, MS_REC | MS_PRIVATE)
        if home["fresh_proc"] and not _mount_proc("/proc", warnings):
            home["fresh_proc"] = False
    os.close(disk_home(dir_fd))
    if home["limit"]:
        try:
            if not mntns:
                raise OSError("no mount namespace")
            _mount_home(layout.home, home["limit"])
        except OSError as exc:
            home["limit"] = 0
            warnings.append(f"scratch: not size-limited ({exc}); files are bounded one "
                            "by one (RLIMIT_FSIZE), not in sum")
    fd = open_dir(layout.home)
    try:
        home["work"] = fill_home(fd, workdir, warnings)
    finally:
        os.close(fd)


def _drop_capabilities() -> None:
    """Empty the bounding and ambient sets: the exec'd command starts with no capability."""
    try:
        with open("/proc/sys/kernel/cap_last_cap") as f:
            last = int(f.read())
    except (OSError, ValueError):
        last = 40
    with contextlib.suppress(OSError):
        prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    for cap in range(last + 1):
        try:
            prctl(PR_CAPBSET_DROP, cap)
        except OSError:
            return  # not permitted (no CAP_SETPCAP): a plain user has no capability anyway


def _set_limit(which: int, value: int) -> int:
    """Set soft = hard = ``value`` (never above the current hard limit); the value set."""
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))
    return value


def _limits(config: WallConfig, tasks: int, userns: bool, root: bool,
            cgroups: dict[str, str], warnings: list[str], helpers: int = 0
            ) -> dict[str, Any]:
    """rlimits of the kernel process; ``helpers``: the launcher's own processes that count
    towards RLIMIT_NPROC in its user namespace (the waiting launcher and the init)."""
    limits: dict[str, Any] = {"memory": None, "file_size": None, "core": None,
                              "nproc": None, "pids_cgroup": cgroups.get("pids"),
                              "memory_cgroup": cgroups.get("memory"), "processes": None}
    steps: list[tuple[str, int, int]] = [("core", resource.RLIMIT_CORE, 0)]
    # the grader's own ceiling (puzzlekit.autograder.judge.own_memory, a soft
    # RLIMIT_DATA) is not the kernel's: its memory is limited below (RLIMIT_AS, cgroup)
    with contextlib.suppress(OSError, ValueError, AttributeError):
        data_hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
        resource.setrlimit(resource.RLIMIT_DATA, (data_hard, data_hard))
    if config.memory:
        steps.append(("memory", resource.RLIMIT_AS, config.memory))
    if config.file_size:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a too-big write raises, not kills
        steps.append(("file_size", resource.RLIMIT_FSIZE, config.file_size))
    if config.processes and not root and hasattr(resource, "RLIMIT_NPROC"):
        # a new user namespace counts only its own tasks; otherwise all of this uid's count
        base = own_threads() + helpers if userns else tasks
        steps.append(("nproc", resource.RLIMIT_NPROC, base + config.processes))
    for name, which, value in steps:
        try:
            limits[name] = _set_limit(which, value)
        except (OSError, ValueError) as exc:
            warnings.append(f"{name}: limit not set ({exc})")
    if config.processes:
        if limits["nproc"] is not None or "pids" in cgroups:
            limits["processes"] = config.processes
        elif root and not any(w.startswith("processes:") for w in warnings):
            warnings.append("processes: not limited (running as root)")
    return limits


def _landlock(layout: ScratchLayout, reads: list[str], network: bool,
              warnings: list[str]) -> int | None:
    """Restrict this process with Landlock; the ABI used, or None."""
    abi = landlock_abi()
    if abi is None:
        warnings.append("Landlock unavailable: students' code runs with the grader's rights")
        return None
    fs = handled_fs(abi)
    net = NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 and not network else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0
    attr = RulesetAttr(fs, net, scoped)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    try:
        ruleset = raw_syscall("landlock_create_ruleset", ctypes.byref(attr), size, 0)
    except OSError as exc:
        warnings.append(f"Landlock ruleset not created ({exc}): no file wall")
        return None
    try:
        rules = [(p, FS_READ) for p in reads] + [(d, FS_DEVICE) for d in DEVICES]
        for path, rights in [*rules, (layout.ipc, FS_SOCKETS), (layout.home, fs)]:
            _allow(ruleset, path, rights & fs, warnings)
        raw_syscall("landlock_restrict_self", ruleset, 0)
    except OSError as exc:
        warnings.append(f"Landlock not applied ({exc}): no file wall")
        return None
    finally:
        os.close(ruleset)
    return abi


def _allow(ruleset: int, path: str, rights: int, warnings: list[str]) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # missing (or a dangling link): nothing to allow
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= FS_FILE_ONLY
        rule = PathBeneathAttr(rights, fd)
        raw_syscall("landlock_add_rule", ruleset, LL_RULE_PATH_BENEATH, ctypes.byref(rule), 0)
    except OSError as exc:
        warnings.append(f"Landlock: {path} not allowed ({exc})")
    finally:
        os.close(fd)


def _child_env(home: str, cwd: str | None = None,
               source: dict[str, str] | None = None) -> dict[str, str]:
    """The kernel's environment: the allow-listed variables of ``source`` (the grader's
    environment by default) and the wall's own, which point into the kernel's home."""
    source = dict(os.environ) if source is None else source
    env = {k: v for k, v in source.items()
           if k in ENV_KEEP or k.startswith(ENV_KEEP_PREFIXES)}
    env.setdefault("PATH", os.defpath)
    share = os.path.join(home, ".local", "share")
    env.update({
        "HOME": home, "PWD": cwd or home, "TMPDIR": os.path.join(home, "tmp"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"), "XDG_DATA_HOME": share,
        "MPLCONFIGDIR": os.path.join(home, ".matplotlib"),
        "IPYTHONDIR": os.path.join(home, ".ipython"),
        "JUPYTER_CONFIG_DIR": os.path.join(home, ".jupyter"),
        "JUPYTER_DATA_DIR": os.path.join(share, "jupyter"),
        "JUPYTER_RUNTIME_DIR": os.path.join(share, "jupyter", "runtime"),
        "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1",
        "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
        "PUZZLEKIT_WALL": "1",
        # ipykernel's pipe for output of forked subprocesses needs TCP on 127.0.0.1, which
        # the wall forbids: that output is lost, as expected; its warning is noise
        "PYTHONWARNINGS": "ignore:Couldn't bind IOPub Pipe:UserWarning",
    })
    return env


_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


def _die_with_parent() -> None:
    """SIGKILL this process when the process that started it dies (the grader)."""
    with contextlib.suppress(OSError, AttributeError):
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    expected = os.environ.get("JPY_PARENT_PID", "")
    if expected.isdigit() and int(expected) != os.getppid():
        os._exit(1)   # the grader died before the line above


def _exit_like(status: int) -> NoReturn:
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)


def _fork_init(fds: list[int]) -> None:
    """Fork the pid namespace's init. The launcher (the process jupyter_client knows, in
    the grader's process group) waits for it and exits with its status; it ignores
    SIGINT, which the grader sends to the whole group to interrupt the kernel. Returns in
    the init only, which dies with the launcher (PR_SET_PDEATHSIG)."""
    alive_r, alive_w = os.pipe()
    pid = os.fork()
    if pid:   # the launcher
        os.close(alive_r)
        for fd in fds:
            os.close(fd)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORWARDED)
        while True:
            _, status = os.waitpid(pid, 0)
            _exit_like(status)
    os.close(alive_w)
    hide_command_line()     # before /proc is the namespace's own, mounted read-only
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if select.select([alive_r], [], [], 0)[0]:   # the launcher died before the line above
        os._exit(1)
    os.close(alive_r)
    with contextlib.suppress(OSError):
        prctl(PR_SET_DUMPABLE, 0)     # the kernel, same uid, cannot ptrace its init
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: what the init's command line reads, in /proc/1/cmdline, for the student's code
INIT_NAME = b"puzzlekit-wall-init"


def hide_command_line(name: bytes = INIT_NAME) -> bool:
    """Overwrite this process's command line and environment as /proc shows them (the
    memory Linux reads /proc/PID/cmdline and environ from, through /proc/self/mem) with
    `name` and zeros: the init's are the launcher's, whose argv names the grader's
    scratch, the notebook's folder, the limits and the grader's Python. True when done."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        # fields 48-51 of proc(5) (1-based, counted from the pid): arg_start, arg_end,
        # env_start, env_end; `fields` starts at field 3 (state)
        arg_start, arg_end, env_start, env_end = (int(x) for x in fields[45:49])
        with open("/proc/self/mem", "r+b", buffering=0) as mem:
            for start, end, text in ((arg_start, arg_end, name), (env_start, env_end, b"")):
                if end > start:
                    mem.seek(start)
                    mem.write(text[:end - start - 1].ljust(end - start, b"\0"))
        return True
    except (OSError, ValueError, IndexError):
        return False


def _fork_kernel() -> None:
    """Fork the kernel's process from the init; the init stays pid 1, reaps every orphan,
    and exits with the kernel's status, upon which Linux kills everything left in the
    namespace (double-forked, setsid, SIGTERM-ignoring children included)."""
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        return
    for fd in range(3, 1024):   # the init holds nothing of the launcher's
        with contextlib.suppress(OSError):
            os.close(fd)
    while True:
        try:
            done, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(1)
        if done == pid:
            _exit_like(status)


def launch(scratch: str, config: WallConfig, cmd: Sequence[str], verbose: bool = False,
           workdir: str | None = None) -> NoReturn:
    """Wall this process in (its home in scratch = its only writable folder) and exec
    ``cmd`` there, or in the copy of ``workdir`` inside the home."""
    if not cmd:
        raise PuzzleError("give the command to run after '--'")
    linux = sys.platform.startswith("linux")
    if linux:
        _die_with_parent()
    reads = readable_paths(config)
    if workdir is not None:
        workdir = os.path.realpath(workdir)
        if not os.path.isdir(workdir):
            raise PuzzleError(f"--workdir {workdir} is not a folder")
    layout, dir_fd = prepare_scratch(scratch, reads)
    env = _child_env(layout.home)
    program = cmd[0] if os.sep in cmd[0] else shutil.which(cmd[0], path=env.get("PATH"))
    warnings: list[str] = []
    if program is None:
        raise PuzzleError(f"command not found: {cmd[0]}")
    program = os.path.abspath(program)  # before chdir
    if not any(is_inside(os.path.realpath(program), os.path.realpath(p)) for p in reads):
        warnings.append(f"{program} is outside the readable paths: it cannot be executed")
    report_fd = open_report(dir_fd)
    root = os.getuid() == 0
    report: dict[str, Any] = {"landlock_abi": None, "userns": False, "netns": False,
                              "pidns": False, "private_root": False, "root": root,
                              "network": config.network, "cgroups": {}, "limits": {},
                              "scratch_limit": None, "home": layout.home, "cwd": layout.home,
                              "warnings": warnings, "command": list(cmd), "readable": reads}
    home: dict[str, Any] = {"limit": config.scratch_limit, "fresh_proc": False, "work": None}
    if linux:  # Landlock and pivot_root also need _SYSCALLS
        try:
            prctl(PR_SET_NO_NEW_PRIVS, 1)
        except OSError as exc:
            warnings.append(f"no_new_privs not set ({exc})")
        tasks = count_tasks(os.getuid())
        report["cgroups"] = cgroups = cgroups_for_launch(config, warnings)
        signal.pthread_sigmask(signal.SIG_BLOCK, _FORWARDED)
        userns, netns, mntns, pidns = _namespaces(config.network, warnings)
        report.update(userns=userns, netns=netns, pidns=pidns)
        if pidns:
            _fork_init([dir_fd, report_fd])
        else:
            warnings.append("no pid namespace: processes the kernel starts can outlive it "
                            "until its cgroup is emptied")
        home["fresh_proc"] = pidns and mntns
        if not (config.private_root and mntns and _private_root(layout, dir_fd, reads, home,
                                                                workdir, warnings)):
            if home["limit"] and not mntns:
                warnings.append("scratch: no mount namespace, so not size-limited")
                home["limit"] = 0
            _shared_home(layout, dir_fd, home, mntns, workdir, warnings)
        else:
            report["private_root"] = True
        os.close(dir_fd)
        _drop_capabilities()
        if pidns:
            _fork_kernel()
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _FORWARDED)
        report["limits"] = _limits(config, tasks, userns, root, cgroups, warnings,
                                   helpers=2 if pidns else 0)
        report["landlock_abi"] = _landlock(layout, reads, config.network, warnings)
        if pidns and not home["fresh_proc"]:
            warnings.append("the kernel sees the machine's processes in /proc")
    else:
        warnings.append(f"no wall on {sys.platform}: Landlock and namespaces are "
                        "Linux-only; students' code runs with the grader's rights")
        os.close(dir_fd)
        fd = os.open(_disk_home_path(layout), DIR_FLAGS)
        home["limit"] = 0
        home["work"] = fill_home(fd, workdir, warnings)
        os.close(fd)
        report["limits"] = _limits(config, 0, False, root, {}, warnings)
    report["scratch_limit"] = home["limit"] or None
    cwd = os.path.join(layout.home, home["work"]) if home["work"] else layout.home
    report["cwd"] = cwd
    env = _child_env(layout.home, cwd)
    os.chdir(cwd)
    with os.fdopen(report_fd, "w") as f:
        json.dump(report, f, indent=1)
    if verbose:
        print(f"puzzlekit.autograder.wall: {json.dumps({**report, 'readable': len(reads)})}",
              file=sys.stderr)
    try:
        # a relative argv[0] would no longer resolve after chdir
        os.execve(program, [program if os.sep in cmd[0] else cmd[0], *cmd[1:]], env)
    except OSError as exc:
        print(f"puzzlekit.autograder.wall: cannot run {cmd[0]}: {exc}", file=sys.stderr)
        os._exit(127)


def _disk_home_path(layout: ScratchLayout) -> str:
    """A fresh DIR/home on disk, made through the scratch folder's fd; its path."""
    fd = open_dir(layout.path)
    try:
        os.close(disk_home(fd))
    finally:
        os.close(fd)
    return layout.home
