"""Linux constants and the ctypes plumbing the wall calls: Landlock, unshare, mount, prctl.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform
import sys
from typing import Any

KiB, MiB, GiB, TiB = 1 << 10, 1 << 20, 1 << 30, 1 << 40
REPORT_NAME = ".wall.json"


PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_CAP_AMBIENT = 38, 24, 47
PR_CAP_AMBIENT_CLEAR_ALL, PR_SET_PDEATHSIG, PR_SET_DUMPABLE = 4, 1, 4
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWNET = 0x00020000, 0x10000000, 0x40000000
CLONE_NEWPID = 0x20000000
_MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
_MNT_DETACH = 2
MAX_LINKS = 64
MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID, MOUNT_ATTR_NODEV = 1, 2, 4
_AT_FDCWD, _AT_RECURSIVE = -100, 0x8000

# syscall numbers; Landlock and mount_setattr share the "new" numbers on both
_SYSCALLS = {
    "x86_64": {"landlock_create_ruleset": 444, "landlock_add_rule": 445,
               "landlock_restrict_self": 446, "pivot_root": 155, "mount_setattr": 442},
    "aarch64": {"landlock_create_ruleset": 444, "landlock_add_rule": 445,
                "landlock_restrict_self": 446, "pivot_root": 41, "mount_setattr": 442},
}

_LL_CREATE_RULESET_VERSION = 1
LL_RULE_PATH_BENEATH = 1
# filesystem rights (ABI 1: bits 0-12, ABI 2: REFER, ABI 3: TRUNCATE, ABI 5: IOCTL_DEV)
_FS_EXECUTE, _FS_WRITE_FILE, _FS_READ_FILE, _FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_MAKE_SOCK = 1 << 9
_FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
FS_FILE_ONLY = _FS_EXECUTE | _FS_WRITE_FILE | _FS_READ_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
FS_READ = _FS_EXECUTE | _FS_READ_FILE | _FS_READ_DIR
FS_DEVICE = _FS_READ_FILE | _FS_WRITE_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
FS_SOCKETS = _FS_READ_FILE | _FS_READ_DIR | _FS_MAKE_SOCK  # the ipc folder: sockets only
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6


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


def raw_syscall(name: str, *args: Any) -> int:
    numbers = _arch()
    if numbers is None:
        raise OSError(38, f"{name}: not available on {sys.platform}/{platform.machine()}")
    wrapped = [ctypes.c_long(a) if isinstance(a, int) else a for a in args]
    ret = int(_libc().syscall(ctypes.c_long(numbers[name]), *wrapped))
    if ret < 0:
        raise _oserror(name)
    return ret


def prctl(option: int, arg: int) -> None:
    ret = _libc().prctl(ctypes.c_int(option), ctypes.c_ulong(arg), ctypes.c_ulong(0),
                        ctypes.c_ulong(0), ctypes.c_ulong(0))
    if ret != 0:
        raise _oserror(f"prctl({option})")


def unshare(flags: int) -> None:
    if _libc().unshare(flags) != 0:
        raise _oserror("unshare")


def mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    enc = [None if s is None else os.fsencode(s) for s in (source, target, fstype, data)]
    if _libc().mount(enc[0], enc[1], enc[2], flags, enc[3]) != 0:
        raise _oserror(f"mount {source or ''} on {target}")


def sys_umount(target: str) -> None:
    if _libc().umount2(os.fsencode(target), _MNT_DETACH) != 0:
        raise _oserror(f"umount {target}")


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def set_mount_attr(path: str, attrs: int, recursive: bool) -> None:
    attr = _MountAttr(attrs, 0, 0, 0)
    raw_syscall("mount_setattr", _AT_FDCWD, ctypes.c_char_p(os.fsencode(path)),
             _AT_RECURSIVE if recursive else 0, ctypes.byref(attr), ctypes.sizeof(attr))


class RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int | None:
    """The Landlock ABI version of the running kernel, or None where there is no Landlock."""
    try:
        return raw_syscall("landlock_create_ruleset", None, 0, _LL_CREATE_RULESET_VERSION)
    except OSError:
        return None


def handled_fs(abi: int) -> int:
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= _FS_REFER
    if abi >= 3:
        rights |= _FS_TRUNCATE
    if abi >= 5:
        rights |= _FS_IOCTL_DEV
    return rights


def write_id_maps(uid: int, gid: int) -> None:
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                       ("gid_map", f"{gid} {gid} 1")):
        try:
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
        except FileNotFoundError:
            if name != "setgroups":  # kernels before 3.19 have no setgroups file
                raise


def count_tasks(uid: int) -> int:
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


def own_threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1
