"""A wall around a student's Jupyter kernel while nbgrader autogrades it, without Docker.

Usage::

    python -m puzzlekit.autograder.wall --scratch DIR [--workdir SRC] [--memory 2G] [--processes 64]
                             [--file-size 64M] [--scratch-limit 256M] [--network]
                             [--read PATH]... [--shared-root] -- CMD ARG...
    python -m puzzlekit.autograder.wall --check [--course-root DIR]     # what holds on this machine
    python -m puzzlekit.autograder.wall --status                        # what the machine offers

The launcher walls *itself* in and then runs CMD, so the kernel and everything it starts
inherit the wall; nothing needs root, a daemon or an image. It stacks independent Linux
mechanisms, because each closes a different door and each may be missing on some machine
(every step is best effort and what held is written to ``DIR/.wall.json``):

* **no_new_privs** - nothing exec'd later gains privileges from setuid bits or file
  capabilities; Landlock requires it.
* **A cgroup per launch** (v1: one group in each of ``pids``, ``memory``, ``freezer``; v2:
  one unified group), made under this process's own groups in a ``puzzlekit-wall``
  folder and named ``<launcher pid>-<random>``: ``pids.max`` (``RLIMIT_NPROC`` does not
  bind uid 0), the memory of the kernel *as a whole* (``memory.limit_in_bytes`` and
  ``memory.memsw.limit_in_bytes`` / ``memory.max`` and ``memory.swap.max = 0``; tmpfs
  pages count), and the handle by which :func:`end_launch` kills whatever is left
  (v2 ``cgroup.kill``; v1 freeze, SIGKILL every process, thaw) and removes the group.
  The grader takes the groups from the report of the launch, read before any student
  code ran, and keeps only those :func:`launch_cgroups` accepts.
* **User namespace** (``unshare(CLONE_NEWUSER)``, identity uid/gid map) - the kernel keeps
  its uid but holds no capability in the grader's namespace, so a grader running as root
  does not hand root powers (mount, raw sockets, ptrace, module loading ...) to students.
  The capability bounding set is emptied too, so the exec'd command starts with none.
* **Network namespace** (``CLONE_NEWNET``, unless ``--network``) - no interfaces but a
  loopback that is down: no TCP/UDP anywhere, and the grader's abstract Unix sockets are
  out of reach. The kernel talks to the grader over ZeroMQ ``ipc`` sockets, which are
  files in ``DIR/ipc``, so it does not need a network.
* **PID namespace** (``CLONE_NEWPID``) with a small init - the launcher forks an init
  (pid 1 of the namespace, with its own ``/proc``: the kernel sees only its own
  processes) which forks the kernel. The init reaps orphans and exits with the kernel,
  and Linux then kills everything left in the namespace: double-forked, ``setsid``,
  SIGTERM-ignoring children die with their kernel. The init dies with the launcher and
  the launcher with the grader (``PR_SET_PDEATHSIG``). The launcher stays the process
  jupyter_client started, in its process group, so ``killpg(SIGINT)`` still interrupts
  the kernel (the launcher and the init ignore SIGINT) and ``killpg(SIGKILL)`` ends it all.
* **Private root** (``CLONE_NEWNS`` + ``pivot_root``) - the kernel sees a tmpfs root that
  holds only the allowed paths (bind mounts, read-only), the ``ipc`` folder and its home.
  This closes the door Landlock leaves open up to ABI 7: connecting to *pathname* Unix
  sockets, which for a root grader (systemd, Docker, tmux, databases) is a way out of any
  file wall.
* **A size-limited home** - ``DIR/home``, the kernel's only writable folder, is a tmpfs of
  ``--scratch-limit`` bytes in the kernel's mount namespace (nothing of it on the disk),
  made fresh at every launch with a copy of ``--workdir`` (the notebook's folder) in it,
  where the command starts, so a notebook opens its data files by relative paths.
* **Landlock** (ABI 1..7, via ``ctypes``) - the kernel-enforced allow-list, which works
  even where namespaces are not allowed: read/execute the interpreter, the standard
  library, site-packages, the puzzlekit package, system libraries, ``/etc`` (minus its
  secrets), ``/proc``, ``/sys``; write only the home and four ``/dev`` files; in
  ``DIR/ipc`` read files and make sockets, nothing else; with ABI >= 4 no TCP
  bind/connect; with ABI >= 6 no signals to, and no abstract Unix sockets of, processes
  outside the wall (the grader, other kernels, the init).
* **rlimits** - ``RLIMIT_AS`` (too much memory in one process -> ``MemoryError``, the
  second line behind the memory cgroup), ``RLIMIT_FSIZE`` (a too-big file ->
  ``OSError``; SIGXFSZ is ignored), ``RLIMIT_CORE = 0`` and ``RLIMIT_NPROC``.

Broad trees are never allowed whole (``/usr/local``, ``/usr/share``, ``/home``, ``/root``,
``/tmp``, ``/opt``, a prefix's parent ...): nbgrader's exchange and the course may live
anywhere. :func:`leaks` tells whether a given folder is inside what the wall lets through.

The steps run in this order, as the grader until the namespaces: PR_SET_PDEATHSIG,
the scratch's fixed parts (``ipc``, ``.root``) and the report file (opened now, written
last), all through folder fds with ``O_NOFOLLOW``, never through a link; no_new_privs;
the cgroups (they need the grader's view of ``/sys``); the namespaces; the init (fork);
the private root with the home and a fresh ``/proc``; dropping capabilities; the kernel
(fork); rlimits; Landlock (last: it forbids mounting); then the environment, the working
directory, the report and ``execve``. The environment is an allow-list: ``PATH``, the
locale (``LANG``, ``LANGUAGE``, ``LC_*``), ``TZ``, ``TERM``, ``PYTHONIOENCODING``,
``PYTHONUTF8``, ``MPLBACKEND`` and ``NBGRADER_EXECUTION`` of the grader's, plus the
wall's own (``HOME``, ``TMPDIR``, caches, IPython and Jupyter folders in the home).

A kernel behind the wall, started by jupyter_client over ``ipc`` (the connection file and
the sockets live in ``DIR/ipc``, which both sides reach)::

    class WalledKernelManager(KernelManager):
        wall_prefix = traitlets.List(traitlets.Unicode())
        def format_kernel_cmd(self, extra_arguments=None):
            return [*self.wall_prefix, *super().format_kernel_cmd(extra_arguments)]

    os.makedirs(f"{scratch}/ipc", mode=0o700)
    km = WalledKernelManager(transport="ipc", ip=f"{scratch}/ipc/k",
                             connection_file=f"{scratch}/ipc/kernel.json",
                             wall_prefix=wall_argv(scratch, WallConfig(), workdir=folder))
    km.start_kernel()
    ...
    end_launch(launch_cgroups(report_read_at_start, km.provisioner.process.pid))

Not covered: CPU time (the grader's cell timeout interrupts; a process of the kernel
competes for the CPU while the kernel lives); signals to the grader where Landlock
ABI < 6 and there is no pid namespace; memory as a whole where no memory cgroup can be
made (a non-root grader without delegation, or a cgroup v2 grader whose own group holds
processes and so cannot hand the memory controller down): there each process is held to
``--memory`` (RLIMIT_AS) and the kernel may hold ``--memory`` times ``--processes``;
processes that outlive the kernel where neither a pid namespace nor a cgroup can be made;
the size of the home where no mount namespace can be made (files are bounded one by one
by RLIMIT_FSIZE, not in sum). Where Landlock is unavailable (old kernel, macOS) the
launcher still runs the command and ``--check`` says loudly that students' code runs with
the grader's rights.
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
import select
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

from ...errors import PuzzleError

__all__ = ["ScratchLayout", "WallConfig", "WallStatus", "check", "end_launch", "launch",
           "launch_cgroups", "leaks", "main", "make_scratch", "parse_size", "readable_paths",
           "remove_stale_scratch", "scratch_layout", "status", "wall_argv"]

KiB, MiB, GiB, TiB = 1 << 10, 1 << 20, 1 << 30, 1 << 40
REPORT_NAME = ".wall.json"

# --- Linux constants ------------------------------------------------------------------

_PR_SET_NO_NEW_PRIVS, _PR_CAPBSET_DROP, _PR_CAP_AMBIENT = 38, 24, 47
_PR_CAP_AMBIENT_CLEAR_ALL, _PR_SET_PDEATHSIG, _PR_SET_DUMPABLE = 4, 1, 4
_CLONE_NEWNS, _CLONE_NEWUSER, _CLONE_NEWNET = 0x00020000, 0x10000000, 0x40000000
_CLONE_NEWPID = 0x20000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 16384, 1 << 18
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
_FS_MAKE_SOCK = 1 << 9
_FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FS_FILE_ONLY = _FS_EXECUTE | _FS_WRITE_FILE | _FS_READ_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
_FS_READ = _FS_EXECUTE | _FS_READ_FILE | _FS_READ_DIR
_FS_DEVICE = _FS_READ_FILE | _FS_WRITE_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
_FS_SOCKETS = _FS_READ_FILE | _FS_READ_DIR | _FS_MAKE_SOCK  # the ipc folder: sockets only
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
# the only variables of the grader's environment that reach the kernel (an allow-list:
# database URLs, mail passwords and cloud keys have names no deny-list can guess); the
# wall's own variables (HOME, TMPDIR, caches, ...) are set on top
_ENV_KEEP = frozenset({"PATH", "LANG", "LANGUAGE", "TZ", "TERM", "PYTHONIOENCODING",
                       "PYTHONUTF8", "MPLBACKEND", "NBGRADER_EXECUTION"})
_ENV_KEEP_PREFIXES = ("LC_",)

# the scratch folder's layout: DIR/ipc (connection files and sockets, shared with the
# grader), DIR/home (the kernel's only writable folder: a size-limited tmpfs in its own
# mount namespace where it can be), DIR/.wall.json (the launcher's report) and DIR/.root
# (where the private root is assembled); the kernel can write neither DIR nor the report
HOME_NAME, IPC_NAME, ROOT_NAME = "home", "ipc", ".root"
_HOME_DIRS = ("tmp", ".cache", ".config", ".matplotlib", ".ipython", ".jupyter",
              ".local/share/jupyter/runtime")
_CGROUP_PARENT = "puzzlekit-wall"
_SCRATCH_PREFIX = "pkgrade-"


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
    scratch_limit: int = 256 * MiB

    def __post_init__(self) -> None:
        for name in ("memory", "processes", "file_size", "scratch_limit"):
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


def wall_argv(scratch: str, config: WallConfig = WallConfig(),
              workdir: str | None = None) -> list[str]:
    """The launcher prefix to put before a command: ``[python, -m, puzzlekit.autograder.wall, ..., --]``.
    ``workdir``: a folder copied into the kernel's home, where the command starts."""
    if not isinstance(scratch, (str, os.PathLike)) or not str(scratch):
        raise PuzzleError(f"wall_argv needs a scratch folder, not {scratch!r}")
    argv = [sys.executable, "-m", "puzzlekit.autograder.wall", "--scratch", os.path.abspath(scratch),
            "--memory", str(config.memory), "--processes", str(config.processes),
            "--file-size", str(config.file_size),
            "--scratch-limit", str(config.scratch_limit)]
    if workdir is not None:
        argv += ["--workdir", os.path.abspath(workdir)]
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


#: the puzzlekit package's folder (this module lives three folders below it)
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def readable_paths(config: WallConfig = WallConfig()) -> list[str]:
    """The paths the walled process may read (and execute), existing ones only, in order."""
    package = _PACKAGE_DIR
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
    memory_cgroup: str | None = None
    cgroup_version: int | None = None

    @property
    def full(self) -> bool:
        """True when Landlock and the namespaces are both available."""
        return self.landlock_abi is not None and self.userns


def _probe_userns() -> str | None:
    """Try a user+net+mount+pid namespace in a forked child; None if it works, else why."""
    if not sys.platform.startswith("linux"):
        return f"not Linux ({sys.platform})"
    uid, gid = os.geteuid(), os.getegid()  # inside the new namespace they read 65534
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns
        code, message = 0, b""
        try:
            _unshare(_CLONE_NEWUSER | _CLONE_NEWNET | _CLONE_NEWNS | _CLONE_NEWPID)
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


# --- cgroups: one group per launch, killed whole when grading ends ----------------------

def _cgroup_bases() -> tuple[int | None, dict[str, str]]:
    """Where this process's launches make their groups: (cgroup version, {controller:
    this process's own group folder}). Version 1 has a hierarchy per controller (pids,
    memory, freezer); version 2 one unified group, listed under each controller it offers
    and under "unified". Version 1 wins where both are mounted (hybrid systems)."""
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
            for controller in ("pids", "memory", "freezer"):
                if controller not in options.split(",") or controller in v1:
                    continue
                own = [g[2] for g in groups if len(g) == 3 and controller in g[1].split(",")]
                if own and _inside(own[0], mount_root):
                    rel = os.path.relpath(own[0], mount_root)
                    v1[controller] = os.path.normpath(os.path.join(point, rel))
        elif fstype == "cgroup2" and not v2:
            own = [g[2] for g in groups if len(g) == 3 and g[0] == "0" and g[1] == ""]
            if own and _inside(own[0], mount_root):
                base = os.path.normpath(os.path.join(point, os.path.relpath(own[0], mount_root)))
                try:
                    with open(os.path.join(point, "cgroup.controllers")) as f:
                        offered = f.read().split()
                except OSError:
                    continue
                v2 = {"unified": base, **{c: base for c in ("pids", "memory")
                                            if c in offered}}
    if "pids" in v1 or "memory" in v1:
        return 1, v1
    if v2:
        return 2, v2
    return (1, v1) if v1 else (None, {})


def _pids_bases() -> list[str]:
    """Folders of this process's pids cgroup (kept for callers of earlier versions)."""
    _, bases = _cgroup_bases()
    return [bases["pids"]] if "pids" in bases else []


def status() -> WallStatus:
    """Probe Landlock, the namespaces and writable cgroups; restricts nothing here."""
    problems = []
    abi = landlock_abi()
    if abi is None:
        problems.append("no Landlock: students' code can read and write what the grader can")
    why = _probe_userns()
    if why is not None:
        problems.append(f"no user/network/pid namespaces: {why}")
    root = os.getuid() == 0
    version, bases = _cgroup_bases()
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


def _launch_cgroups(config: WallConfig, warnings: list[str]) -> dict[str, str]:
    """Make this launch's cgroup(s), set their limits and move this process in; {controller
    or "unified": folder}. Everything the kernel starts inherits them."""
    version, bases = _cgroup_bases()
    name = f"{os.getpid()}-{secrets.token_hex(4)}"
    made: dict[str, str] = {}
    errors: list[str] = []
    if version == 2:
        base = bases["unified"]
        group = os.path.join(base, _CGROUP_PARENT)
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
                _write(os.path.join(child, "pids.max"), str(_own_threads() + 2 +
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
            group = os.path.join(bases[controller], _CGROUP_PARENT)
            child = os.path.join(group, name)
            try:
                os.makedirs(group, exist_ok=True)
                _clean_cgroups(group)
                os.mkdir(child)
                if controller == "pids":
                    _write(os.path.join(child, "pids.max"),
                           str(_own_threads() + 2 + config.processes))
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
    _, bases = _cgroup_bases()
    out: dict[str, str] = {}
    for key, path in claimed.items():
        if key not in bases or not isinstance(path, str):
            continue
        parent = os.path.join(bases[key], _CGROUP_PARENT)
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


# --- the scratch folder: made as the grader, never through a link -----------------------

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class ScratchLayout:
    """Where things are in a scratch folder (see ``HOME_NAME`` and its neighbours)."""

    path: str
    home: str
    ipc: str
    report: str
    root: str


def scratch_layout(scratch: str) -> ScratchLayout:
    """The layout of the scratch folder ``scratch`` (an absolute, real path)."""
    path = os.path.realpath(os.path.abspath(scratch))
    return ScratchLayout(path, os.path.join(path, HOME_NAME), os.path.join(path, IPC_NAME),
                         os.path.join(path, REPORT_NAME), os.path.join(path, ROOT_NAME))


def _open_dir(name: str, dir_fd: int | None = None, create: bool = False) -> int:
    """Open a folder (made first if asked, mode 0700), never through a link: a link, or
    anything but a folder, where one is expected raises PuzzleError."""
    if create:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o700, dir_fd=dir_fd)
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        raise PuzzleError(f"the wall will not use {name}: it is not a plain folder "
                          f"(a link?) ({exc.strerror})") from None


def _make_dirs(base_fd: int, rel: str) -> None:
    fd = os.dup(base_fd)
    try:
        for part in rel.split("/"):
            inner = _open_dir(part, fd, create=True)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)


def _copy_tree(src_fd: int, dst_fd: int, skipped: list[str], rel: str = "") -> None:
    """Copy folders and regular files from ``src_fd`` into ``dst_fd``, through folder fds
    and ``O_NOFOLLOW`` only; links, FIFOs, sockets and devices are left out (``skipped``)."""
    for entry in os.scandir(src_fd):
        name, where = entry.name, f"{rel}{entry.name}"
        mode = entry.stat(follow_symlinks=False).st_mode
        if stat.S_ISDIR(mode):
            inner_src = _open_dir(name, src_fd)
            try:
                inner_dst = _open_dir(name, dst_fd, create=True)
                try:
                    _copy_tree(inner_src, inner_dst, skipped, where + "/")
                finally:
                    os.close(inner_dst)
            finally:
                os.close(inner_src)
        elif stat.S_ISREG(mode):
            src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                          dir_fd=src_fd)
            try:
                if not stat.S_ISREG(os.fstat(src).st_mode):
                    skipped.append(where)
                    continue
                dst = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                              os.O_CLOEXEC, (mode & 0o777) | 0o600, dir_fd=dst_fd)
                try:
                    while os.sendfile(dst, src, None, 1 << 24) > 0:
                        pass
                finally:
                    os.close(dst)
            finally:
                os.close(src)
        else:
            skipped.append(where)


def _fill_home(home_fd: int, workdir: str | None, warnings: list[str]) -> str | None:
    """Make the home's fixed folders and copy ``workdir`` in; the copy's name, or None."""
    for rel in _HOME_DIRS:
        _make_dirs(home_fd, rel)
    if workdir is None:
        return None
    name = os.path.basename(workdir.rstrip("/")) or "work"
    skipped: list[str] = []
    try:
        src = os.open(workdir, _DIR_FLAGS)
    except OSError as exc:
        raise PuzzleError(f"the working folder {workdir} cannot be opened as a plain "
                          f"folder ({exc.strerror})") from None
    try:
        dst = _open_dir(name, home_fd, create=True)
        try:
            _copy_tree(src, dst, skipped)
        except OSError as exc:      # ENOSPC: bigger than the scratch limit
            warnings.append(f"the working folder was not copied in full ({exc})")
        finally:
            os.close(dst)
    finally:
        os.close(src)
    if skipped:
        warnings.append(f"not copied into the kernel's folder (links or special files): "
                        f"{', '.join(sorted(skipped)[:10])}")
    return name


def _disk_home(dir_fd: int) -> int:
    """A fresh DIR/home on disk (where no tmpfs could be mounted): the old one, which a
    kernel could write, is removed first without following anything inside it."""
    with contextlib.suppress(FileNotFoundError):
        shutil.rmtree(HOME_NAME, dir_fd=dir_fd)
    os.mkdir(HOME_NAME, 0o700, dir_fd=dir_fd)
    return _open_dir(HOME_NAME, dir_fd)


def _grader_start(pid: int) -> str | None:
    """The start time (clock ticks after boot) of process ``pid``, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
        return data[data.rindex(b")") + 2:].split()[19].decode()
    except (OSError, ValueError, IndexError):
        return None


def make_scratch(base: str | None = None) -> str:
    """A fresh scratch folder ``pkgrade-<pid>-<start>-XXXX`` (mode 0700) in ``base`` (the
    temporary folder by default); the name says which grader process owns it."""
    start = _grader_start(os.getpid()) or "0"
    return tempfile.mkdtemp(prefix=f"{_SCRATCH_PREFIX}{os.getpid()}-{start}-", dir=base)


_SCRATCH_NAME = re.compile(re.escape(_SCRATCH_PREFIX) + r"(\d+)-(\d+)-[A-Za-z0-9_]+")


def remove_stale_scratch(base: str | None = None) -> list[str]:
    """Remove the scratch folders in ``base`` whose grader process is gone (killed before
    it could clean up); the paths removed. Only folders named by `make_scratch`, owned
    by this user and not links are touched; a grader still running keeps its folders."""
    base = base or tempfile.gettempdir()
    removed: list[str] = []
    try:
        names = os.listdir(base)
    except OSError:
        return removed
    for name in names:
        match = _SCRATCH_NAME.fullmatch(name)
        if match is None:
            continue
        path = os.path.join(base, name)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        if _grader_start(int(match.group(1))) == match.group(2):
            continue  # its grader is still running
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.lexists(path):
            removed.append(path)
    return removed


def _prepare_scratch(scratch: str, reads: list[str]) -> tuple[ScratchLayout, int]:
    """Check the scratch folder and make its fixed parts as the grader: (layout, an fd of
    the folder). Nothing is created through a link."""
    if not scratch:
        raise PuzzleError("the wall needs a scratch folder (--scratch DIR)")
    layout = scratch_layout(scratch)
    path = layout.path
    if path in _BROAD or path == os.path.realpath(os.path.expanduser("~")):
        raise PuzzleError(f"scratch folder {path} is too broad: give a folder of its own")
    for allowed in reads:
        real = os.path.realpath(allowed)
        if _inside(path, real) or _inside(real, path):
            raise PuzzleError(f"scratch folder {path} overlaps {allowed}, which must stay "
                              "read-only: give a folder of its own")
    os.makedirs(path, mode=0o700, exist_ok=True)
    fd = _open_dir(path)
    os.close(_open_dir(IPC_NAME, fd, create=True))
    os.close(_open_dir(ROOT_NAME, fd, create=True))
    return layout, fd


def _open_report(dir_fd: int) -> int:
    """The report file, opened before any wall (the kernel cannot write the scratch root)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(REPORT_NAME, dir_fd=dir_fd)
    return os.open(REPORT_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                   os.O_CLOEXEC, 0o600, dir_fd=dir_fd)


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


def _namespaces(network: bool, warnings: list[str]) -> tuple[bool, bool, bool, bool]:
    """Enter new user (+ net unless ``network``) + mount + pid namespaces: (userns, netns,
    mntns, pidns). The pid namespace takes effect for the next child (the init)."""
    net = 0 if network else _CLONE_NEWNET
    uid, gid = os.geteuid(), os.getegid()
    try:
        _unshare(_CLONE_NEWUSER | _CLONE_NEWNS | _CLONE_NEWPID | net)
    except OSError as exc:
        threads = _own_threads()
        hint = f"; the launcher runs {threads} threads and needs 1" if threads > 1 else ""
        warnings.append(f"no user namespace ({exc}{hint})")
        for flags in (_CLONE_NEWNS | _CLONE_NEWPID | net, _CLONE_NEWNS | net, net,
                      _CLONE_NEWNS):  # root can still do these
            if flags == 0:
                continue
            try:
                _unshare(flags)
                return (False, bool(flags & _CLONE_NEWNET), bool(flags & _CLONE_NEWNS),
                        bool(flags & _CLONE_NEWPID))
            except OSError:
                continue
        if net:
            warnings.append("no network namespace: the network is open (Landlock still "
                            "blocks TCP where its ABI >= 4)")
        return False, False, False, False
    try:
        _write_id_maps(uid, gid)
    except OSError as exc:  # unusable: files could not even be created; stop here
        raise SystemExit(f"puzzlekit.autograder.wall: in a user namespace but cannot map ids: {exc}") \
            from exc
    return True, bool(net), True, True


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


def _bind_plan(layout: ScratchLayout, reads: list[str], fresh_proc: bool
               ) -> tuple[list[tuple[str, bool]], dict[str, str]]:
    """Bind mounts (real path, read-only) and symlinks (location -> text) of the new root.
    The home is mounted separately; /proc is mounted fresh for a new pid namespace."""
    binds: list[tuple[str, bool]] = []
    for real in sorted({os.path.realpath(p) for p in reads}):
        if fresh_proc and _inside(real, "/proc"):   # /etc/mtab -> /proc/<pid>/mounts
            continue
        if not any(_inside(real, done) for done, _ in binds):  # nested: already inside
            binds.append((real, True))
    devices = [d for d in _DEVICES if os.path.exists(d)]
    binds += [(os.path.realpath(d), False) for d in devices] + [(layout.ipc, False)]
    links = {loc: text for p in [*reads, *devices] for loc, text in _symlinks_on(p)
             if not any(_inside(loc, real) for real, _ in binds)}
    if "/proc" in reads:
        links.update({"/dev/fd": "/proc/self/fd", "/dev/stdin": "/proc/self/fd/0",
                      "/dev/stdout": "/proc/self/fd/1", "/dev/stderr": "/proc/self/fd/2"})
    return binds, links


def _mount_proc(target: str, warnings: list[str]) -> bool:
    """A /proc of the new pid namespace on ``target``: the kernel's own processes only."""
    try:
        _mount("proc", target, "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
        return True
    except OSError as exc:
        warnings.append(f"no /proc of its own ({exc}): the kernel sees the machine's "
                        "processes")
        return False


def _mount_home(target: str, size: int) -> None:
    _mount("tmpfs", target, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={size},mode=0700")


def _build_stage(stage: str, layout: ScratchLayout, binds: list[tuple[str, bool]],
                 links: dict[str, str], home: dict[str, Any], dir_fd: int,
                 workdir: str | None, warnings: list[str]) -> None:
    """Mount a tmpfs on ``stage``, bind (or link) every allowed path into it, mount the
    home (a size-limited tmpfs, or the fresh folder on disk) and a fresh /proc."""
    _mount("tmpfs", stage, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=0755,size=4m")
    for real, _ in binds:
        target = stage + real
        if os.path.isdir(real):
            os.makedirs(target, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            open(target, "a").close()
        recursive = _MS_REC if real != layout.ipc else 0
        _mount(real, target, None, _MS_BIND | recursive)
    for loc, text in sorted(links.items()):
        os.makedirs(os.path.dirname(stage + loc), exist_ok=True)
        if not os.path.lexists(stage + loc):
            os.symlink(text, stage + loc)
    os.makedirs(stage + layout.home)
    if home["limit"]:
        _mount_home(stage + layout.home, home["limit"])
    else:
        os.close(_disk_home(dir_fd))
        _mount(layout.home, stage + layout.home, None, _MS_BIND)
    fd = _open_dir(stage + layout.home)
    try:
        home["work"] = _fill_home(fd, workdir, warnings)
    finally:
        os.close(fd)
    if home["fresh_proc"]:
        os.makedirs(stage + "/proc", exist_ok=True)
        if not _mount_proc(stage + "/proc", warnings):
            home["fresh_proc"] = False
            _mount("/proc", stage + "/proc", None, _MS_BIND | _MS_REC)
            binds.append(("/proc", True))
    os.mkdir(stage + "/.oldroot")


def _private_root(layout: ScratchLayout, dir_fd: int, reads: list[str],
                  home: dict[str, Any], workdir: str | None, warnings: list[str]) -> bool:
    """Pivot into a tmpfs root holding only ``reads`` (read-only), the devices, the ipc
    folder and the home; False (nothing changed) if that cannot be done."""
    binds, links = _bind_plan(layout, reads, home["fresh_proc"])
    stage = layout.root
    try:
        _mount(None, "/", None, _MS_REC | _MS_PRIVATE)  # nothing propagates to the grader
        try:
            _build_stage(stage, layout, binds, links, home, dir_fd, workdir, warnings)
            _syscall("pivot_root", ctypes.c_char_p(os.fsencode(stage)),
                     ctypes.c_char_p(os.fsencode(stage + "/.oldroot")))
        except OSError:
            with contextlib.suppress(OSError):
                _umount(stage)
            raise
    except OSError as exc:
        warnings.append(f"no private root ({exc}): Unix sockets outside scratch are reachable")
        return False
    os.chdir("/")
    try:
        _umount("/.oldroot")
        os.rmdir("/.oldroot")
    except OSError as exc:
        warnings.append(f"private root: the old root is still mounted at /.oldroot ({exc})")
    try:
        guard = _MOUNT_ATTR_NOSUID | _MOUNT_ATTR_NODEV
        for real, read_only in binds:
            if read_only:
                _set_mount_attr(real, _MOUNT_ATTR_RDONLY | guard, recursive=True)
        _set_mount_attr(layout.ipc, guard, recursive=False)
        if home["fresh_proc"]:
            _set_mount_attr("/proc", _MOUNT_ATTR_RDONLY | guard, recursive=False)
        _set_mount_attr("/", _MOUNT_ATTR_RDONLY | guard, recursive=False)
    except OSError as exc:
        warnings.append(f"private root: could not make the bind mounts read-only ({exc})")
    return True


def _shared_home(layout: ScratchLayout, dir_fd: int, home: dict[str, Any], mntns: bool,
                 workdir: str | None, warnings: list[str]) -> None:
    """The home without a private root: a tmpfs over DIR/home in this mount namespace
    where one can be mounted, else the fresh folder on disk (its size then unbounded)."""
    if mntns:
        with contextlib.suppress(OSError):
            _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
        if home["fresh_proc"] and not _mount_proc("/proc", warnings):
            home["fresh_proc"] = False
    os.close(_disk_home(dir_fd))
    if home["limit"]:
        try:
            if not mntns:
                raise OSError("no mount namespace")
            _mount_home(layout.home, home["limit"])
        except OSError as exc:
            home["limit"] = 0
            warnings.append(f"scratch: not size-limited ({exc}); files are bounded one "
                            "by one (RLIMIT_FSIZE), not in sum")
    fd = _open_dir(layout.home)
    try:
        home["work"] = _fill_home(fd, workdir, warnings)
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


def _limits(config: WallConfig, tasks: int, userns: bool, root: bool,
            cgroups: dict[str, str], warnings: list[str], helpers: int = 0
            ) -> dict[str, Any]:
    """rlimits of the kernel process; ``helpers``: the launcher's own processes that count
    towards RLIMIT_NPROC in its user namespace (the waiting launcher and the init)."""
    limits: dict[str, Any] = {"memory": None, "file_size": None, "core": None,
                              "nproc": None, "pids_cgroup": cgroups.get("pids"),
                              "memory_cgroup": cgroups.get("memory"), "processes": None}
    steps: list[tuple[str, int, int]] = [("core", resource.RLIMIT_CORE, 0)]
    if config.memory:
        steps.append(("memory", resource.RLIMIT_AS, config.memory))
    if config.file_size:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a too-big write raises, not kills
        steps.append(("file_size", resource.RLIMIT_FSIZE, config.file_size))
    if config.processes and not root and hasattr(resource, "RLIMIT_NPROC"):
        # a new user namespace counts only its own tasks; otherwise all of this uid's count
        base = _own_threads() + helpers if userns else tasks
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
        for path, rights in [*rules, (layout.ipc, _FS_SOCKETS), (layout.home, fs)]:
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


def _child_env(home: str, cwd: str | None = None,
               source: dict[str, str] | None = None) -> dict[str, str]:
    """The kernel's environment: the allow-listed variables of ``source`` (the grader's
    environment by default) and the wall's own, which point into the kernel's home."""
    source = dict(os.environ) if source is None else source
    env = {k: v for k, v in source.items()
           if k in _ENV_KEEP or k.startswith(_ENV_KEEP_PREFIXES)}
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
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
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
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if select.select([alive_r], [], [], 0)[0]:   # the launcher died before the line above
        os._exit(1)
    os.close(alive_r)
    with contextlib.suppress(OSError):
        _prctl(_PR_SET_DUMPABLE, 0)     # the kernel, same uid, cannot ptrace its init
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    layout, dir_fd = _prepare_scratch(scratch, reads)
    env = _child_env(layout.home)
    program = cmd[0] if os.sep in cmd[0] else shutil.which(cmd[0], path=env.get("PATH"))
    warnings: list[str] = []
    if program is None:
        raise PuzzleError(f"command not found: {cmd[0]}")
    program = os.path.abspath(program)  # before chdir
    if not any(_inside(os.path.realpath(program), os.path.realpath(p)) for p in reads):
        warnings.append(f"{program} is outside the readable paths: it cannot be executed")
    report_fd = _open_report(dir_fd)
    root = os.getuid() == 0
    report: dict[str, Any] = {"landlock_abi": None, "userns": False, "netns": False,
                              "pidns": False, "private_root": False, "root": root,
                              "network": config.network, "cgroups": {}, "limits": {},
                              "scratch_limit": None, "home": layout.home, "cwd": layout.home,
                              "warnings": warnings, "command": list(cmd), "readable": reads}
    home: dict[str, Any] = {"limit": config.scratch_limit, "fresh_proc": False, "work": None}
    if linux:  # Landlock and pivot_root also need _SYSCALLS
        try:
            _prctl(_PR_SET_NO_NEW_PRIVS, 1)
        except OSError as exc:
            warnings.append(f"no_new_privs not set ({exc})")
        tasks = _count_tasks(os.getuid())
        report["cgroups"] = cgroups = _launch_cgroups(config, warnings)
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
        fd = os.open(_disk_home_path(layout), _DIR_FLAGS)
        home["limit"] = 0
        home["work"] = _fill_home(fd, workdir, warnings)
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
    fd = _open_dir(layout.path)
    try:
        os.close(_disk_home(fd))
    finally:
        os.close(fd)
    return layout.home


# --- the self-check -----------------------------------------------------------------------

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
    package = _PACKAGE_DIR
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
              "(see docs/instructors.md).\n" + "!" * 78, file=out)
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
        prog="python -m puzzlekit.autograder.wall",
        description="Run a command (a student's kernel) behind a wall: it reads only what "
                    "Python needs, writes only its scratch folder, has no network and is "
                    "held to resource limits.",
        epilog="usage: python -m puzzlekit.autograder.wall --scratch DIR [options] -- CMD ARG...")
    parser.add_argument("--scratch", help="the only folder the command may write")
    parser.add_argument("--memory", type=_size_arg, default=WallConfig.memory,
                        help="address-space limit, e.g. 2G (0 = none; default 2G)")
    parser.add_argument("--processes", type=int, default=WallConfig.processes,
                        help="how many more tasks/threads it may create (0 = no limit)")
    parser.add_argument("--file-size", type=_size_arg, default=WallConfig.file_size,
                        help="largest file it may write, e.g. 64M (0 = none)")
    parser.add_argument("--scratch-limit", type=_size_arg, default=WallConfig.scratch_limit,
                        help="size of the kernel's writable folder (a tmpfs), e.g. 256M "
                             "(0 = a folder on disk, not size-limited; default 256M)")
    parser.add_argument("--workdir", help="a folder copied into the kernel's home, where "
                                          "the command starts")
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
    """``python -m puzzlekit.autograder.wall``: launch a command behind the wall, or --check/--status."""
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
                            private_root=not ns.shared_root, scratch_limit=ns.scratch_limit)
        if ns.status:
            print(json.dumps(status().__dict__, indent=1))
            return 0
        if ns.check:
            return check(config, ns.course_root)
        if not ns.scratch:
            parser.error("--scratch DIR is required (or use --check / --status)")
        if not cmd:
            parser.error("give the command to run after '--'")
        launch(ns.scratch, config, cmd, verbose=ns.verbose, workdir=ns.workdir)
    except PuzzleError as exc:
        print(f"puzzlekit.autograder.wall: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
