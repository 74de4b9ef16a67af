"""A wall around a student's Jupyter kernel while nbgrader autogrades it, without Docker.

Usage::

    python -m puzzlekit.wall --scratch DIR [--memory 2G] [--processes 64] [--file-size 64M]
                             [--network] [--read PATH]... [--shared-root] -- CMD ARG...
    python -m puzzlekit.wall --check [--course-root DIR]     # what holds on this machine
    python -m puzzlekit.wall --status                        # what the machine offers

The launcher walls *itself* in and then ``execv``s CMD, so the kernel and everything it
starts inherit the wall; nothing needs root, a daemon or an image. It stacks independent
Linux mechanisms, because each closes a different door and each may be missing on some
machine (every step is best effort and what held is written to ``DIR/.wall.json``):

* **no_new_privs** - nothing exec'd later gains privileges from setuid bits or file
  capabilities; Landlock requires it.
* **User namespace** (``unshare(CLONE_NEWUSER)``, identity uid/gid map) - the kernel keeps
  its uid but holds no capability in the grader's namespace, so a grader running as root
  does not hand root powers (mount, raw sockets, ptrace, module loading ...) to students.
  The capability bounding set is emptied too, so the exec'd command starts with none.
* **Network namespace** (``CLONE_NEWNET``, unless ``--network``) - no interfaces but a
  loopback that is down: no TCP/UDP anywhere, and the grader's abstract Unix sockets are
  out of reach. The kernel talks to the grader over ZeroMQ ``ipc`` sockets, which are
  files in the scratch folder, so it does not need a network.
* **Private root** (``CLONE_NEWNS`` + ``pivot_root``) - the kernel sees a tmpfs root that
  holds only the allowed paths (bind mounts, read-only) and the scratch folder. This closes
  the door Landlock leaves open up to ABI 7: connecting to *pathname* Unix sockets, which
  for a root grader (systemd, Docker, tmux, databases) is a way out of any file wall.
* **Landlock** (ABI 1..7, via ``ctypes``) - the kernel-enforced allow-list, which works
  even where namespaces are not allowed: read/execute the interpreter, the standard
  library, site-packages, the puzzlekit package, system libraries, ``/etc`` (minus its
  secrets), ``/proc``, ``/sys``; write only the scratch folder and four ``/dev`` files;
  with ABI >= 4 no TCP bind/connect; with ABI >= 6 no signals to, and no abstract Unix
  sockets of, processes outside the wall (the grader, other kernels).
* **rlimits** - ``RLIMIT_AS`` (too much memory -> ``MemoryError``), ``RLIMIT_FSIZE`` (a
  too-big file -> ``OSError``; SIGXFSZ is ignored), ``RLIMIT_CORE = 0`` and
  ``RLIMIT_NPROC`` (fork bombs). Linux never applies ``RLIMIT_NPROC`` to uid 0, so when a
  ``pids`` cgroup is writable each launch also gets its own with ``pids.max``.

Broad trees are never allowed whole (``/usr/local``, ``/usr/share``, ``/home``, ``/root``,
``/tmp``, ``/opt``, a prefix's parent ...): nbgrader's exchange and the course may live
anywhere. :func:`leaks` tells whether a given folder is inside what the wall lets through.

The steps run in this order: no_new_privs, pids cgroup (needs the grader's view of
``/sys``), namespaces, private root, dropping capabilities, rlimits, Landlock (last: it
forbids mounting), then the environment (HOME, TMPDIR, caches, IPython and Jupyter folders
all inside scratch; variables that point into the grader's world or look like secrets
removed), ``chdir(scratch)``, ``DIR/.wall.json`` and ``execve``.

A kernel behind the wall, started by jupyter_client over ``ipc`` (the connection file and
the sockets live in scratch, which the kernel can reach)::

    class WalledKernelManager(KernelManager):
        wall_prefix = traitlets.List(traitlets.Unicode())
        def format_kernel_cmd(self, extra_arguments=None):
            return [*self.wall_prefix, *super().format_kernel_cmd(extra_arguments)]

    km = WalledKernelManager(transport="ipc", ip=f"{scratch}/k",
                             connection_file=f"{scratch}/kernel.json",
                             wall_prefix=wall_argv(scratch, WallConfig()))
    km.start_kernel(cwd=scratch)

Not covered: disk use inside scratch (RLIMIT_FSIZE bounds each file, not their sum); CPU
time (the grader's cell timeout interrupts); signals to the grader where Landlock ABI < 6.
Where Landlock is unavailable (old kernel, macOS) the launcher still runs the command and
``--check`` says loudly that students' code runs with the grader's rights.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import ctypes.util
import json
import os
import platform
import re
import resource
import secrets
import shutil
import signal
import site
import socket
import stat
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TextIO

from .errors import PuzzleError

__all__ = ["WallConfig", "WallStatus", "check", "launch", "leaks", "main", "parse_size",
           "readable_paths", "status", "wall_argv"]

KiB, MiB, GiB, TiB = 1 << 10, 1 << 20, 1 << 30, 1 << 40
REPORT_NAME = ".wall.json"

# --- Linux constants ------------------------------------------------------------------

_PR_SET_NO_NEW_PRIVS, _PR_CAPBSET_DROP, _PR_CAP_AMBIENT = 38, 24, 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_CLONE_NEWNS, _CLONE_NEWUSER, _CLONE_NEWNET = 0x00020000, 0x10000000, 0x40000000
_MS_NOSUID, _MS_NODEV, _MS_BIND, _MS_REC, _MS_PRIVATE = 2, 4, 4096, 16384, 1 << 18
_MNT_DETACH = 2
_MAX_LINKS = 64
_MOUNT_ATTR_RDONLY, _MOUNT_ATTR_NOSUID, _MOUNT_ATTR_NODEV = 1, 2, 4
_AT_FDCWD, _AT_RECURSIVE = -100, 0x8000

# syscall numbers; Landlock and mount_setattr share the "new" numbers on both
_SYSCALLS = {
    "x86_64": {"landlock_create_ruleset": 444, "landlock_add_rule": 445,
               "landlock_restrict_self": 446, "pivot_root": 155, "mount_setattr": 442},
    "aarch64": {"landlock_create_ruleset": 444, "landlock_add_rule": 445,
                "landlock_restrict_self": 446, "pivot_root": 41, "mount_setattr": 442},
}

_LL_CREATE_RULESET_VERSION = 1
_LL_RULE_PATH_BENEATH = 1
# filesystem rights (ABI 1: bits 0-12, ABI 2: REFER, ABI 3: TRUNCATE, ABI 5: IOCTL_DEV)
_FS_EXECUTE, _FS_WRITE_FILE, _FS_READ_FILE, _FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FS_FILE_ONLY = _FS_EXECUTE | _FS_WRITE_FILE | _FS_READ_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
_FS_READ = _FS_EXECUTE | _FS_READ_FILE | _FS_READ_DIR
_FS_DEVICE = _FS_READ_FILE | _FS_WRITE_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6

# --- what the wall lets through -------------------------------------------------------

_SYSTEM_READ = ("/usr/lib", "/usr/lib64", "/usr/local/lib", "/lib", "/lib64",
                "/usr/share/zoneinfo", "/proc", "/sys")
_DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
# entries of /etc that the kernel never needs and that hold secrets or the grader's set-up
_ETC_HIDDEN = frozenset({
    "shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d", "ssh", "ssl/private",
    "pki/tls/private", "letsencrypt", "security/opasswd", "krb5.keytab", "credstore",
    "credstore.encrypted", "wireguard", "NetworkManager/system-connections", "jupyter",
    "jupyterhub",
})
# never allowed whole as an interpreter-derived path: courses and exchanges live there
_BROAD = frozenset({
    "/", "/usr", "/usr/local", "/usr/share", "/usr/local/share", "/home", "/root", "/tmp",
    "/var", "/var/tmp", "/var/lib", "/srv", "/opt", "/mnt", "/media", "/run", "/work",
})
# environment variables that point into the grader's world or may carry its secrets
_ENV_DROP = frozenset({
    "PYTHONPATH", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONPYCACHEPREFIX", "JUPYTER_PATH",
    "JUPYTER_CONFIG_PATH", "OLDPWD", "SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_CONNECTION",
    "SSH_CLIENT", "SSH_TTY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "XDG_STATE_HOME",
    "XDG_DATA_DIRS", "XDG_CONFIG_DIRS", "KRB5CCNAME", "DOCKER_HOST", "TMUX", "TMUX_PANE",
    "DISPLAY", "WAYLAND_DISPLAY", "MAIL",
})
_ENV_DROP_PREFIXES = ("JUPYTERHUB_", "NBGRADER_")
_ENV_SECRET_WORDS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "API_KEY",
                     "ACCESS_KEY", "PRIVATE_KEY")


# --- configuration ----------------------------------------------------------------------

@dataclass(frozen=True)
class WallConfig:
    """Limits and openings of the wall. Sizes are bytes; 0 means no limit."""

    memory: int = 2 * GiB
    processes: int = 64
    file_size: int = 64 * MiB
    network: bool = False
    read: tuple[str, ...] = ()
    private_root: bool = True

    def __post_init__(self) -> None:
        for name in ("memory", "processes", "file_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise PuzzleError(f"WallConfig.{name} must be an integer >= 0 (0 = no limit), "
                                  f"not {value!r}")
        if isinstance(self.read, str) or not all(isinstance(p, str) and p for p in self.read):
            raise PuzzleError(f"WallConfig.read must be a tuple of paths, not {self.read!r}")
        object.__setattr__(self, "read", tuple(os.path.abspath(p) for p in self.read))


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


def parse_size(text: str | int) -> int:
    """Bytes in ``"2G"``, ``"512M"``, ``"2GiB"``, ``"100k"`` or ``"12345"`` (powers of 1024)."""
    if isinstance(text, int) and not isinstance(text, bool) and text >= 0:
        return text
    match = _SIZE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise PuzzleError(f"cannot read {text!r} as a size: use a number of bytes or a number "
                          "with K, M, G or T (e.g. 512M, 2G, 2GiB)")
    unit = {"": 1, "k": KiB, "m": MiB, "g": GiB, "t": TiB}[match.group(2).lower()]
    return int(float(match.group(1)) * unit)


def wall_argv(scratch: str, config: WallConfig = WallConfig()) -> list[str]:
    """The launcher prefix to put before a command: ``[python, -m, puzzlekit.wall, ..., --]``."""
    if not isinstance(scratch, (str, os.PathLike)) or not str(scratch):
        raise PuzzleError(f"wall_argv needs a scratch folder, not {scratch!r}")
    argv = [sys.executable, "-m", "puzzlekit.wall", "--scratch", os.path.abspath(scratch),
            "--memory", str(config.memory), "--processes", str(config.processes),
            "--file-size", str(config.file_size)]
    if config.network:
        argv.append("--network")
    if not config.private_root:
        argv.append("--shared-root")
    for path in config.read:
        argv += ["--read", path]
    return [*argv, "--"]


# --- paths ------------------------------------------------------------------------------

def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _too_broad(path: str) -> bool:
    home = os.path.realpath(os.path.expanduser("~"))
    real = os.path.realpath(path)
    return real in _BROAD or path in _BROAD or _inside(home, real)


def _python_paths() -> list[str]:
    """The interpreter, its prefixes, stdlib and site-packages (never a broad tree)."""
    keys = ("stdlib", "platstdlib", "purelib", "platlib")
    base_vars = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix,
                 "installed_base": sys.base_prefix, "installed_platbase": sys.base_exec_prefix}
    found = [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix]
    for paths in (sysconfig.get_paths(), sysconfig.get_paths(vars=base_vars)):
        found += [paths[k] for k in keys if k in paths]
    found += site.getsitepackages()
    libdir = sysconfig.get_config_var("LIBDIR")
    if isinstance(libdir, str):
        found.append(libdir)
    return [p for p in found if p and not _too_broad(p)]


def _etc_entries(root: str = "/etc", hidden: frozenset[str] = _ETC_HIDDEN,
                 rel: str = "") -> list[str]:
    """Every entry of /etc except the hidden ones (descending only where needed)."""
    try:
        names = sorted(os.listdir(os.path.join(root, rel)))
    except OSError:
        return []
    out: list[str] = []
    for name in names:
        sub = f"{rel}/{name}" if rel else name
        path = os.path.join(root, sub)
        if sub in hidden:
            continue
        if any(h.startswith(sub + "/") for h in hidden) and os.path.isdir(path) \
                and not os.path.islink(path):
            out += _etc_entries(root, hidden, sub)
        else:
            out.append(path)
    return out


def _link_chain(path: str, hops: int = 40) -> list[str]:
    """`path` and every link it passes through to its real file (a venv's ``bin/python``
    -> ``python3`` -> ``/usr/bin/python3`` -> ``python3.11``): the kernel starts through
    each of them, so each must be readable behind the wall."""
    chain = [os.path.abspath(path)]
    while os.path.islink(chain[-1]) and len(chain) < hops:
        target = os.readlink(chain[-1])
        chain.append(os.path.normpath(os.path.join(os.path.dirname(chain[-1]), target)))
    return [*chain, os.path.realpath(path)]


def readable_paths(config: WallConfig = WallConfig()) -> list[str]:
    """The paths the walled process may read (and execute), existing ones only, in order."""
    package = os.path.dirname(os.path.abspath(__file__))
    candidates = [*_link_chain(sys.executable), *_python_paths(), package,
                  *_SYSTEM_READ, *config.read]
    out: list[str] = []
    for candidate in candidates:
        path = os.path.abspath(candidate)
        if path not in out and os.path.exists(path):
            out.append(path)
    # a link in /etc counts only if it lands in /etc (not on a hidden entry) or in what is
    # allowed already
    roots = [os.path.realpath(p) for p in ["/etc", *out]]
    hidden = [os.path.realpath(os.path.join("/etc", h)) for h in _ETC_HIDDEN]
    for path in _etc_entries():
        real = os.path.realpath(path)
        if os.path.exists(path) and any(_inside(real, root) for root in roots) \
                and not any(_inside(real, h) for h in hidden):
            out.append(path)
    return out


def leaks(path: str, config: WallConfig = WallConfig()) -> list[str]:
    """Allowed read paths that contain ``path`` or lie inside it (empty: the wall hides it)."""
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise PuzzleError(f"leaks needs a path, not {path!r}")
    target = os.path.realpath(path)
    found = []
    for allowed in readable_paths(config):
        real = os.path.realpath(allowed)
        if _inside(target, real) or _inside(real, target):
            found.append(allowed)
    return found


# --- ctypes plumbing --------------------------------------------------------------------

_libc_cache: list[ctypes.CDLL] = []


def _libc() -> ctypes.CDLL:
    if not _libc_cache:
        lib = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        lib.syscall.restype = ctypes.c_long
        lib.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                              ctypes.c_ulong, ctypes.c_char_p]
        lib.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
        lib.unshare.argtypes = [ctypes.c_int]
        _libc_cache.append(lib)
    return _libc_cache[0]


def _oserror(what: str) -> OSError:
    err = ctypes.get_errno()
    return OSError(err, f"{what}: {os.strerror(err)}")


def _arch() -> dict[str, int] | None:
    if not sys.platform.startswith("linux"):
        return None
    return _SYSCALLS.get(platform.machine().lower().replace("arm64", "aarch64"))


def _syscall(name: str, *args: Any) -> int:
    numbers = _arch()
    if numbers is None:
        raise OSError(38, f"{name}: not available on {sys.platform}/{platform.machine()}")
    wrapped = [ctypes.c_long(a) if isinstance(a, int) else a for a in args]
    ret = int(_libc().syscall(ctypes.c_long(numbers[name]), *wrapped))
    if ret < 0:
        raise _oserror(name)
    return ret


def _prctl(option: int, arg: int) -> None:
    ret = _libc().prctl(ctypes.c_int(option), ctypes.c_ulong(arg), ctypes.c_ulong(0),
                        ctypes.c_ulong(0), ctypes.c_ulong(0))
    if ret != 0:
        raise _oserror(f"prctl({option})")


def _unshare(flags: int) -> None:
    if _libc().unshare(flags) != 0:
        raise _oserror("unshare")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    enc = [None if s is None else os.fsencode(s) for s in (source, target, fstype, data)]
    if _libc().mount(enc[0], enc[1], enc[2], flags, enc[3]) != 0:
        raise _oserror(f"mount {source or ''} on {target}")


def _umount(target: str) -> None:
    if _libc().umount2(os.fsencode(target), _MNT_DETACH) != 0:
        raise _oserror(f"umount {target}")


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def _set_mount_attr(path: str, attrs: int, recursive: bool) -> None:
    attr = _MountAttr(attrs, 0, 0, 0)
    _syscall("mount_setattr", _AT_FDCWD, ctypes.c_char_p(os.fsencode(path)),
             _AT_RECURSIVE if recursive else 0, ctypes.byref(attr), ctypes.sizeof(attr))


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int | None:
    """The Landlock ABI version of the running kernel, or None where there is no Landlock."""
    try:
        return _syscall("landlock_create_ruleset", None, 0, _LL_CREATE_RULESET_VERSION)
    except OSError:
        return None


def _handled_fs(abi: int) -> int:
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= _FS_REFER
    if abi >= 3:
        rights |= _FS_TRUNCATE
    if abi >= 5:
        rights |= _FS_IOCTL_DEV
    return rights


# --- status -----------------------------------------------------------------------------

@dataclass(frozen=True)
class WallStatus:
    """What the wall can use on this machine (probed without restricting this process)."""

    landlock_abi: int | None
    userns: bool
    root: bool
    pids_cgroup: str | None
    platform: str
    problems: tuple[str, ...] = field(default=())

    @property
    def full(self) -> bool:
        """True when Landlock and the namespaces are both available."""
        return self.landlock_abi is not None and self.userns


def _probe_userns() -> str | None:
    """Try a user+net+mount namespace in a forked child; None if it works, else why not."""
    if not sys.platform.startswith("linux"):
        return f"not Linux ({sys.platform})"
    uid, gid = os.geteuid(), os.getegid()  # inside the new namespace they read 65534
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns
        code, message = 0, b""
        try:
            _unshare(_CLONE_NEWUSER | _CLONE_NEWNET | _CLONE_NEWNS)
            _write_id_maps(uid, gid)
        except OSError as exc:
            code, message = 1, str(exc).encode()
        os.write(write_end, message)
        os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        why = pipe.read().decode(errors="replace")
    _, code = os.waitpid(pid, 0)
    return None if code == 0 else (why or f"probe exited with {code}")


def _pids_bases() -> list[str]:
    """Folders of this process's pids cgroup (v1 'pids' controller or v2 with pids)."""
    try:
        with open("/proc/self/mountinfo") as f:
            mounts = [line.split() for line in f]
        with open("/proc/self/cgroup") as f:
            groups = [line.rstrip("\n").split(":", 2) for line in f]
    except OSError:
        return []
    bases = []
    for parts in mounts:
        if "-" not in parts:
            continue
        sep = parts.index("-")
        fstype, options = parts[sep + 1], parts[sep + 3] if len(parts) > sep + 3 else ""
        mount_root, point = parts[3], parts[4]
        if fstype == "cgroup" and "pids" in options.split(","):
            wanted = [g[2] for g in groups if len(g) == 3 and "pids" in g[1].split(",")]
        elif fstype == "cgroup2" and os.path.exists(os.path.join(point, "cgroup.controllers")):
            wanted = [g[2] for g in groups if len(g) == 3 and g[0] == "0" and g[1] == ""]
        else:
            continue
        for own in wanted:
            if _inside(own, mount_root):
                rel = os.path.relpath(own, mount_root)
                bases.append(os.path.normpath(os.path.join(point, rel)))
    return bases


def status() -> WallStatus:
    """Probe Landlock, user namespaces and a writable pids cgroup; restricts nothing here."""
    problems = []
    abi = landlock_abi()
    if abi is None:
        problems.append("no Landlock: students' code can read and write what the grader can")
    why = _probe_userns()
    if why is not None:
        problems.append(f"no user/network namespaces: {why}")
    root = os.getuid() == 0
    pids = next((b for b in _pids_bases() if os.access(b, os.W_OK)), None)
    if root and pids is None:
        problems.append("running as root without a writable pids cgroup: "
                        "the number of processes is not limited")
    return WallStatus(abi, why is None, root, pids, f"{sys.platform}/{platform.machine()}",
                      tuple(problems))


# --- the launcher's steps ---------------------------------------------------------------

def _write_id_maps(uid: int, gid: int) -> None:
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                       ("gid_map", f"{gid} {gid} 1")):
        try:
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
        except FileNotFoundError:
            if name != "setgroups":  # kernels before 3.19 have no setgroups file
                raise


def _count_tasks(uid: int) -> int:
    """Tasks (threads) whose real uid is ``uid``: what RLIMIT_NPROC counts."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                real = next((int(line.split()[1]) for line in f if line.startswith("Uid:")), -1)
            if real == uid:
                count += len(os.listdir(f"/proc/{entry}/task"))
        except (OSError, ValueError, IndexError):
            continue
    return count


def _own_threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def _pids_cgroup(processes: int, warnings: list[str]) -> str | None:
    """Move this process into a fresh pids cgroup with pids.max = threads + processes."""
    errors = []
    for base in _pids_bases():
        group = os.path.join(base, "puzzlekit-wall")
        child = os.path.join(group, f"{os.getpid()}-{secrets.token_hex(4)}")
        try:
            if os.path.exists(os.path.join(base, "cgroup.subtree_control")):  # cgroup v2
                for folder in (base, group):
                    os.makedirs(folder, exist_ok=True)
                    with contextlib.suppress(OSError):
                        _write(os.path.join(folder, "cgroup.subtree_control"), "+pids")
            os.makedirs(group, exist_ok=True)
            _clean_cgroups(group)
            os.mkdir(child)
            _write(os.path.join(child, "pids.max"), str(_own_threads() + processes))
            _write(os.path.join(child, "cgroup.procs"), str(os.getpid()))
            return child
        except OSError as exc:
            errors.append(f"{base}: {exc}")
            with contextlib.suppress(OSError):
                os.rmdir(child)
    if os.getuid() == 0:
        warnings.append("processes: not limited (running as root, and no writable pids "
                        f"cgroup: {'; '.join(errors) or 'none found'})")
    return None


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


def _namespaces(network: bool, warnings: list[str]) -> tuple[bool, bool, bool]:
    """Enter new user (+ net unless ``network``) + mount namespaces: (userns, netns, mntns)."""
    net = 0 if network else _CLONE_NEWNET
    uid, gid = os.geteuid(), os.getegid()
    try:
        _unshare(_CLONE_NEWUSER | _CLONE_NEWNS | net)
    except OSError as exc:
        threads = _own_threads()
        hint = f"; the launcher runs {threads} threads and needs 1" if threads > 1 else ""
        warnings.append(f"no user namespace ({exc}{hint})")
        for flags in (_CLONE_NEWNS | net, net, _CLONE_NEWNS):  # root can still do these
            if flags == 0:
                continue
            try:
                _unshare(flags)
                return False, bool(flags & _CLONE_NEWNET), bool(flags & _CLONE_NEWNS)
            except OSError:
                continue
        if net:
            warnings.append("no network namespace: the network is open (Landlock still "
                            "blocks TCP where its ABI >= 4)")
        return False, False, False
    try:
        _write_id_maps(uid, gid)
    except OSError as exc:  # unusable: files could not even be created; stop here
        raise SystemExit(f"puzzlekit.wall: in a user namespace but cannot map ids: {exc}") \
            from exc
    return True, bool(net), True


def _symlinks_on(path: str) -> list[tuple[str, str]]:
    """The symlinks met while resolving ``path``, as (real location, link text) pairs."""
    links: list[tuple[str, str]] = []
    todo, seen = [path], set[str]()
    while todo:
        current = todo.pop()
        if current in seen or len(seen) > _MAX_LINKS:
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


def _bind_plan(scratch: str, reads: list[str]) -> tuple[list[tuple[str, bool]], dict[str, str]]:
    """Bind mounts (real path, read-only) and symlinks (location -> text) of the new root."""
    binds: list[tuple[str, bool]] = []
    for real in sorted({os.path.realpath(p) for p in reads}):
        if not any(_inside(real, done) for done, _ in binds):  # nested: already inside
            binds.append((real, True))
    devices = [d for d in _DEVICES if os.path.exists(d)]
    binds += [(os.path.realpath(d), False) for d in devices] + [(scratch, False)]
    links = {loc: text for p in [*reads, *devices] for loc, text in _symlinks_on(p)
             if not any(_inside(loc, real) for real, _ in binds)}
    if "/proc" in reads:
        links.update({"/dev/fd": "/proc/self/fd", "/dev/stdin": "/proc/self/fd/0",
                      "/dev/stdout": "/proc/self/fd/1", "/dev/stderr": "/proc/self/fd/2"})
    return binds, links


def _build_stage(stage: str, scratch: str, binds: list[tuple[str, bool]],
                 links: dict[str, str]) -> None:
    """Mount a tmpfs on ``stage`` and bind (or link) every allowed path into it."""
    _mount("tmpfs", stage, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=0755,size=4m")
    for real, _ in binds:
        target = stage + real
        if os.path.isdir(real):
            os.makedirs(target, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            open(target, "a").close()
        recursive = _MS_REC if real != scratch else 0  # scratch holds the stage itself
        _mount(real, target, None, _MS_BIND | recursive)
    for loc, text in sorted(links.items()):
        os.makedirs(os.path.dirname(stage + loc), exist_ok=True)
        if not os.path.lexists(stage + loc):
            os.symlink(text, stage + loc)
    os.mkdir(stage + "/.oldroot")


def _private_root(scratch: str, reads: list[str], warnings: list[str]) -> bool:
    """Pivot into a tmpfs root holding only ``reads`` (read-only), the devices and scratch."""
    binds, links = _bind_plan(scratch, reads)
    stage = os.path.join(scratch, f".wall-root-{secrets.token_hex(4)}")
    try:
        os.mkdir(stage, 0o700)
        _mount(None, "/", None, _MS_REC | _MS_PRIVATE)  # nothing propagates to the grader
        try:
            _build_stage(stage, scratch, binds, links)
            _syscall("pivot_root", ctypes.c_char_p(os.fsencode(stage)),
                     ctypes.c_char_p(os.fsencode(stage + "/.oldroot")))
        except OSError:
            with contextlib.suppress(OSError):
                _umount(stage)
            raise
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.rmdir(stage)
        warnings.append(f"no private root ({exc}): Unix sockets outside scratch are reachable")
        return False
    os.chdir("/")
    try:
        _umount("/.oldroot")
        os.rmdir("/.oldroot")
    except OSError as exc:
        warnings.append(f"private root: the old root is still mounted at /.oldroot ({exc})")
    with contextlib.suppress(OSError):
        os.rmdir(stage)  # scratch is bound without submounts: here it is an empty folder
    try:
        guard = _MOUNT_ATTR_NOSUID | _MOUNT_ATTR_NODEV
        for real, read_only in binds:
            if read_only:
                _set_mount_attr(real, _MOUNT_ATTR_RDONLY | guard, recursive=True)
        _set_mount_attr(scratch, guard, recursive=False)
        _set_mount_attr("/", _MOUNT_ATTR_RDONLY | guard, recursive=False)
    except OSError as exc:
        warnings.append(f"private root: could not make the bind mounts read-only ({exc})")
    return True


def _drop_capabilities() -> None:
    """Empty the bounding and ambient sets: the exec'd command starts with no capability."""
    try:
        with open("/proc/sys/kernel/cap_last_cap") as f:
            last = int(f.read())
    except (OSError, ValueError):
        last = 40
    with contextlib.suppress(OSError):
        _prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL)
    for cap in range(last + 1):
        try:
            _prctl(_PR_CAPBSET_DROP, cap)
        except OSError:
            return  # not permitted (no CAP_SETPCAP): a plain user has no capability anyway


def _set_limit(which: int, value: int) -> int:
    """Set soft = hard = ``value`` (never above the current hard limit); the value set."""
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))
    return value


def _limits(config: WallConfig, tasks: int, userns: bool, root: bool, cgroup: str | None,
            warnings: list[str]) -> dict[str, Any]:
    limits: dict[str, Any] = {"memory": None, "file_size": None, "core": None,
                              "nproc": None, "pids_cgroup": cgroup, "processes": None}
    steps: list[tuple[str, int, int]] = [("core", resource.RLIMIT_CORE, 0)]
    if config.memory:
        steps.append(("memory", resource.RLIMIT_AS, config.memory))
    if config.file_size:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a too-big write raises, not kills
        steps.append(("file_size", resource.RLIMIT_FSIZE, config.file_size))
    if config.processes and not root and hasattr(resource, "RLIMIT_NPROC"):
        # a new user namespace counts only its own tasks; otherwise all of this uid's count
        base = _own_threads() if userns else tasks
        steps.append(("nproc", resource.RLIMIT_NPROC, base + config.processes))
    for name, which, value in steps:
        try:
            limits[name] = _set_limit(which, value)
        except (OSError, ValueError) as exc:
            warnings.append(f"{name}: limit not set ({exc})")
    if config.processes:
        if limits["nproc"] is not None or cgroup is not None:
            limits["processes"] = config.processes
        elif root and not any(w.startswith("processes:") for w in warnings):
            warnings.append("processes: not limited (running as root)")
    return limits


def _landlock(scratch: str, reads: list[str], network: bool,
              warnings: list[str]) -> int | None:
    """Restrict this process with Landlock; the ABI used, or None."""
    abi = landlock_abi()
    if abi is None:
        warnings.append("Landlock unavailable: students' code runs with the grader's rights")
        return None
    fs = _handled_fs(abi)
    net = _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 and not network else 0
    scoped = _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 else 0
    attr = _RulesetAttr(fs, net, scoped)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    try:
        ruleset = _syscall("landlock_create_ruleset", ctypes.byref(attr), size, 0)
    except OSError as exc:
        warnings.append(f"Landlock ruleset not created ({exc}): no file wall")
        return None
    try:
        rules = [(p, _FS_READ) for p in reads] + [(d, _FS_DEVICE) for d in _DEVICES]
        for path, rights in [*rules, (scratch, fs)]:
            _allow(ruleset, path, rights & fs, warnings)
        _syscall("landlock_restrict_self", ruleset, 0)
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
            rights &= _FS_FILE_ONLY
        rule = _PathBeneathAttr(rights, fd)
        _syscall("landlock_add_rule", ruleset, _LL_RULE_PATH_BENEATH, ctypes.byref(rule), 0)
    except OSError as exc:
        warnings.append(f"Landlock: {path} not allowed ({exc})")
    finally:
        os.close(fd)


def _child_env(scratch: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in _ENV_DROP and not k.startswith(_ENV_DROP_PREFIXES)
           and not any(word in k.upper() for word in _ENV_SECRET_WORDS)}
    share = os.path.join(scratch, ".local", "share")
    env.update({
        "HOME": scratch, "PWD": scratch, "TMPDIR": os.path.join(scratch, "tmp"),
        "XDG_CACHE_HOME": os.path.join(scratch, ".cache"),
        "XDG_CONFIG_HOME": os.path.join(scratch, ".config"), "XDG_DATA_HOME": share,
        "MPLCONFIGDIR": os.path.join(scratch, ".matplotlib"),
        "IPYTHONDIR": os.path.join(scratch, ".ipython"),
        "JUPYTER_CONFIG_DIR": os.path.join(scratch, ".jupyter"),
        "JUPYTER_DATA_DIR": os.path.join(share, "jupyter"),
        "JUPYTER_RUNTIME_DIR": os.path.join(share, "jupyter", "runtime"),
        "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1",
        "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
        "PUZZLEKIT_WALL": os.path.join(scratch, REPORT_NAME),
    })
    # ipykernel's pipe for output of forked subprocesses needs TCP on 127.0.0.1, which the
    # wall forbids: that output is lost, as expected, so its warning is noise in the logs
    quiet = "ignore:Couldn't bind IOPub Pipe:UserWarning"
    env["PYTHONWARNINGS"] = ",".join(filter(None, [env.get("PYTHONWARNINGS"), quiet]))
    return env


def _prepare_scratch(scratch: str, reads: list[str]) -> str:
    if not scratch:
        raise PuzzleError("the wall needs a scratch folder (--scratch DIR)")
    path = os.path.realpath(os.path.abspath(scratch))
    if path in _BROAD or path == os.path.realpath(os.path.expanduser("~")):
        raise PuzzleError(f"scratch folder {path} is too broad: give a folder of its own")
    for allowed in reads:
        real = os.path.realpath(allowed)
        if _inside(path, real) or _inside(real, path):
            raise PuzzleError(f"scratch folder {path} overlaps {allowed}, which must stay "
                              "read-only: give a folder of its own")
    os.makedirs(path, mode=0o700, exist_ok=True)
    env = _child_env(path)
    for key in ("TMPDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "MPLCONFIGDIR", "IPYTHONDIR",
                "JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR"):
        os.makedirs(env[key], exist_ok=True)
    return path


def launch(scratch: str, config: WallConfig, cmd: Sequence[str],
           verbose: bool = False) -> NoReturn:
    """Wall this process in (scratch = its only writable folder) and exec ``cmd``."""
    if not cmd:
        raise PuzzleError("give the command to run after '--'")
    reads = readable_paths(config)
    scratch = _prepare_scratch(scratch, reads)
    env = _child_env(scratch)
    program = cmd[0] if os.sep in cmd[0] else shutil.which(cmd[0], path=env.get("PATH"))
    warnings: list[str] = []
    if program is None:
        raise PuzzleError(f"command not found: {cmd[0]}")
    program = os.path.abspath(program)  # before chdir(scratch)
    if not any(_inside(os.path.realpath(program), os.path.realpath(p)) for p in reads):
        warnings.append(f"{program} is outside the readable paths: it cannot be executed")
    root = os.getuid() == 0
    report: dict[str, Any] = {"landlock_abi": None, "userns": False, "netns": False,
                              "private_root": False, "root": root, "network": config.network,
                              "limits": {}, "warnings": warnings, "command": list(cmd),
                              "readable": reads}
    if sys.platform.startswith("linux"):  # Landlock and pivot_root also need _SYSCALLS
        try:
            _prctl(_PR_SET_NO_NEW_PRIVS, 1)
        except OSError as exc:
            warnings.append(f"no_new_privs not set ({exc})")
        tasks = _count_tasks(os.getuid())
        cgroup = _pids_cgroup(config.processes, warnings) if config.processes else None
        userns, netns, mntns = _namespaces(config.network, warnings)
        report.update(userns=userns, netns=netns)
        if config.private_root and mntns:
            report["private_root"] = _private_root(scratch, reads, warnings)
        _drop_capabilities()
        report["limits"] = _limits(config, tasks, userns, root, cgroup, warnings)
        report["landlock_abi"] = _landlock(scratch, reads, config.network, warnings)
    else:
        warnings.append(f"no wall on {sys.platform}: Landlock and namespaces are "
                        "Linux-only; students' code runs with the grader's rights")
        report["limits"] = _limits(config, 0, False, root, None, warnings)
    os.chdir(scratch)
    with open(os.path.join(scratch, REPORT_NAME), "w") as f:
        json.dump(report, f, indent=1)
    if verbose:
        print(f"puzzlekit.wall: {json.dumps({**report, 'readable': len(reads)})}",
              file=sys.stderr)
    try:
        # a relative argv[0] would no longer resolve after chdir(scratch)
        os.execve(program, [program if os.sep in cmd[0] else cmd[0], *cmd[1:]], env)
    except OSError as exc:
        print(f"puzzlekit.wall: cannot run {cmd[0]}: {exc}", file=sys.stderr)
        os._exit(127)


# --- the self-check -----------------------------------------------------------------------

_PROBE = r'''
import errno, json, os, socket, sys, threading
p = json.loads(sys.argv[1])
out = {}

def run(name, fn):
    try:
        out[name] = ["ok", str(fn())[:80]]
    except BaseException as exc:
        code = errno.errorcode.get(getattr(exc, "errno", None) or 0, "")
        out[name] = [type(exc).__name__, code, str(exc)[:160]]

def write(path):
    with open(path, "x") as f:
        f.write("walled code was here\n")
    return "written"

def connect(family, address):
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(3)
        s.connect(address)
    return "connected"

def big_file():
    fd = os.open(os.path.join(p["scratch"], "big.bin"), os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        data, done = b"\0" * (p["file_size"] + 4096), 0
        while done < len(data):
            done += os.write(fd, data[done:])
    finally:
        os.close(fd)
    return f"wrote {done} bytes"

def threads():
    threading.stack_size(256 * 1024)
    stop, started = threading.Event(), []
    try:
        for _ in range(p["processes"] + 8):
            t = threading.Thread(target=stop.wait)
            t.start()
            started.append(t)
    finally:
        stop.set()
        for t in started:
            t.join()
    return f"started {len(started)} threads"

def plot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig = plt.figure()
    plt.plot([1, 2, 3])
    fig.savefig(os.path.join(p["scratch"], "plot.png"))
    return matplotlib.__version__

def numpy():
    import numpy as np
    return int(np.arange(10).sum())

def widgets():
    import ipywidgets
    return ipywidgets.IntSlider(3).value

def puzzle():
    import puzzlekit
    return puzzlekit.goal_state(3)

run("read a course file", lambda: open(p["course_file"]).read(10))
run("list the course folder", lambda: os.listdir(p["course_dir"]))
if p.get("shadow"):
    run("read /etc/shadow", lambda: open(p["shadow"]).read(10))
run("read the grader's environment", lambda: open(f"/proc/{p['parent']}/environ").read(10))
run("write into site-packages", lambda: write(p["site_file"]))
run("write into the puzzlekit package", lambda: write(p["package_file"]))
run("write into the grader's home", lambda: write(p["home_file"]))
run("write into scratch", lambda: write(os.path.join(p["scratch"], "note.txt")))
run("connect TCP to 127.0.0.1", lambda: connect(socket.AF_INET, ("127.0.0.1", p["tcp_port"])))
run("connect a Unix socket outside scratch", lambda: connect(socket.AF_UNIX, p["unix"]))
run("connect an abstract Unix socket", lambda: connect(socket.AF_UNIX, "\0" + p["abstract"]))
run("signal the grader", lambda: os.kill(p["parent"], 0))
run("import puzzlekit", puzzle)
run("import numpy", numpy)
run("import matplotlib (Agg)", plot)
run("import ipywidgets", widgets)
# last: these exhaust limits (threads leave malloc arenas that count against RLIMIT_AS)
if p["memory"]:
    run("allocate above the memory limit", lambda: len(bytearray(p["memory"] + (256 << 20))))
if p["file_size"]:
    run("write a file above the size limit", big_file)
if p["processes"]:
    run("start threads above the process limit", threads)
print(json.dumps(out))
'''

# expected outcome of each probe row: "denied" (an OSError), an exception name, or "ok"
_EXPECTED = {
    "write into scratch": "ok", "import puzzlekit": "ok", "import numpy": "ok",
    "import matplotlib (Agg)": "ok", "import ipywidgets": "ok",
    "allocate above the memory limit": "MemoryError",
    "write a file above the size limit": "OSError",
    "start threads above the process limit": "RuntimeError",
}
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
    package = os.path.dirname(os.path.abspath(__file__))
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
        params = {
            "course_file": course_file, "course_dir": course_dir, "scratch": scratch,
            "shadow": "/etc/shadow" if os.path.exists("/etc/shadow") else None,
            "parent": os.getpid(), "site_file": planted[0], "package_file": planted[1],
            "home_file": planted[2], "tcp_port": tcp.getsockname()[1], "unix": unix_path,
            "abstract": abstract_name, "memory": config.memory,
            "file_size": config.file_size, "processes": config.processes,
        }
        argv = [*wall_argv(scratch, config), sys.executable, "-c", _PROBE, json.dumps(params)]
        env = {**os.environ, "MPLBACKEND": "Agg"}
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env,
                                  check=False)
        finally:
            for sock in (tcp, unix, abstract):
                sock.close()
        for path in planted:  # a probe that got through must not leave anything behind
            if os.path.lexists(path):
                os.remove(path)
        try:
            results: dict[str, list[str]] = json.loads(proc.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            print(f"the probe failed (exit {proc.returncode}):\n{proc.stderr}", file=out)
            return 1
        try:
            with open(os.path.join(scratch, REPORT_NAME)) as f:
                report = json.load(f)
        except (OSError, ValueError):
            report = {}
    return _print_check(st, report, results, out)


def _print_check(st: WallStatus, report: dict[str, Any], results: dict[str, list[str]],
                 out: TextIO) -> int:
    abi = report.get("landlock_abi")
    layers = [f"Landlock ABI {abi}" if abi else "NO Landlock",
              "user namespace" if report.get("userns") else "NO user namespace",
              "network namespace" if report.get("netns") else "no network namespace",
              "private root" if report.get("private_root") else "NO private root",
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
    if failed or not report.get("userns"):
        print(f"\nThe wall is NOT fully up ({len(failed)} check(s) failed).", file=out)
        return 1
    print("\nThe wall is up.", file=out)
    return 0


# --- command line -----------------------------------------------------------------------

def _size_arg(text: str) -> int:
    try:
        return parse_size(text)
    except PuzzleError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m puzzlekit.wall",
        description="Run a command (a student's kernel) behind a wall: it reads only what "
                    "Python needs, writes only its scratch folder, has no network and is "
                    "held to resource limits.",
        epilog="usage: python -m puzzlekit.wall --scratch DIR [options] -- CMD ARG...")
    parser.add_argument("--scratch", help="the only folder the command may write")
    parser.add_argument("--memory", type=_size_arg, default=WallConfig.memory,
                        help="address-space limit, e.g. 2G (0 = none; default 2G)")
    parser.add_argument("--processes", type=int, default=WallConfig.processes,
                        help="how many more tasks/threads it may create (0 = no limit)")
    parser.add_argument("--file-size", type=_size_arg, default=WallConfig.file_size,
                        help="largest file it may write, e.g. 64M (0 = none)")
    parser.add_argument("--network", action="store_true", help="leave the network open")
    parser.add_argument("--read", action="append", default=[], metavar="PATH",
                        help="another path it may read (repeatable)")
    parser.add_argument("--shared-root", action="store_true",
                        help="skip the private root (mount namespace); Landlock alone")
    parser.add_argument("--verbose", action="store_true", help="print what was applied")
    parser.add_argument("--check", action="store_true",
                        help="probe the wall on this machine and print a table")
    parser.add_argument("--course-root", help="with --check: a folder that must stay hidden")
    parser.add_argument("--status", action="store_true",
                        help="print what this machine supports, as JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m puzzlekit.wall``: launch a command behind the wall, or --check/--status."""
    args = list(sys.argv[1:] if argv is None else argv)
    split = args.index("--") if "--" in args else len(args)
    parser = _parser()
    ns = parser.parse_args(args[:split])
    cmd = args[split + 1:]
    if ns.processes < 0:
        parser.error("--processes must be >= 0")
    try:
        config = WallConfig(memory=ns.memory, processes=ns.processes, file_size=ns.file_size,
                            network=ns.network, read=tuple(ns.read),
                            private_root=not ns.shared_root)
        if ns.status:
            print(json.dumps(status().__dict__, indent=1))
            return 0
        if ns.check:
            return check(config, ns.course_root)
        if not ns.scratch:
            parser.error("--scratch DIR is required (or use --check / --status)")
        if not cmd:
            parser.error("give the command to run after '--'")
        launch(ns.scratch, config, cmd, verbose=ns.verbose)
    except PuzzleError as exc:
        print(f"puzzlekit.wall: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
