"""The scratch folder: made as the grader, never through a link.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass

from ...errors import PuzzleError
from .config import BROAD, HOME_DIRS, SCRATCH_PREFIX, HOME_NAME, IPC_NAME, ROOT_NAME
from .linux import REPORT_NAME
from .paths import is_inside

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


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


def open_dir(name: str, dir_fd: int | None = None, create: bool = False) -> int:
    """Open a folder (made first if asked, mode 0700), never through a link: a link, or
    anything but a folder, where one is expected raises PuzzleError."""
    if create:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o700, dir_fd=dir_fd)
    try:
        return os.open(name, DIR_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        raise PuzzleError(f"the wall will not use {name}: it is not a plain folder "
                          f"(a link?) ({exc.strerror})") from None


def _make_dirs(base_fd: int, rel: str) -> None:
    fd = os.dup(base_fd)
    try:
        for part in rel.split("/"):
            inner = open_dir(part, fd, create=True)
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
            inner_src = open_dir(name, src_fd)
            try:
                inner_dst = open_dir(name, dst_fd, create=True)
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


def fill_home(home_fd: int, workdir: str | None, warnings: list[str]) -> str | None:
    """Make the home's fixed folders and copy ``workdir`` in; the copy's name, or None."""
    for rel in HOME_DIRS:
        _make_dirs(home_fd, rel)
    if workdir is None:
        return None
    name = os.path.basename(workdir.rstrip("/")) or "work"
    skipped: list[str] = []
    try:
        src = os.open(workdir, DIR_FLAGS)
    except OSError as exc:
        raise PuzzleError(f"the working folder {workdir} cannot be opened as a plain "
                          f"folder ({exc.strerror})") from None
    try:
        dst = open_dir(name, home_fd, create=True)
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


def disk_home(dir_fd: int) -> int:
    """A fresh DIR/home on disk (where no tmpfs could be mounted): the old one, which a
    kernel could write, is removed first without following anything inside it."""
    with contextlib.suppress(FileNotFoundError):
        shutil.rmtree(HOME_NAME, dir_fd=dir_fd)
    os.mkdir(HOME_NAME, 0o700, dir_fd=dir_fd)
    return open_dir(HOME_NAME, dir_fd)


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
    return tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-{start}-", dir=base)


_SCRATCH_NAME = re.compile(re.escape(SCRATCH_PREFIX) + r"(\d+)-(\d+)-[A-Za-z0-9_]+")


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
        remove_tree(path)
        if not os.path.lexists(path):
            removed.append(path)
    return removed


def remove_tree(path: str) -> None:
    """Remove the folder `path` and everything in it, however deep (a kernel may leave a
    folder 1,000 levels deep, where `shutil.rmtree`'s recursion fails), never following a
    link; what cannot be removed is left."""
    stack, tried = [path], set()
    while stack:
        top = stack[-1]
        try:
            entries = list(os.scandir(top))
        except OSError:
            entries = []
        folders = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.path not in tried:
                        folders.append(entry.path)
                else:
                    os.unlink(entry.path)
            except OSError:
                pass
        if folders:
            stack.extend(folders)
            continue
        stack.pop()
        tried.add(top)          # emptied as far as it goes: never again
        with contextlib.suppress(OSError):
            os.rmdir(top)


def prepare_scratch(scratch: str, reads: list[str]) -> tuple[ScratchLayout, int]:
    """Check the scratch folder and make its fixed parts as the grader: (layout, an fd of
    the folder). Nothing is created through a link."""
    if not scratch:
        raise PuzzleError("the wall needs a scratch folder (--scratch DIR)")
    layout = scratch_layout(scratch)
    path = layout.path
    if path in BROAD or path == os.path.realpath(os.path.expanduser("~")):
        raise PuzzleError(f"scratch folder {path} is too broad: give a folder of its own")
    for allowed in reads:
        real = os.path.realpath(allowed)
        if is_inside(path, real) or is_inside(real, path):
            raise PuzzleError(f"scratch folder {path} overlaps {allowed}, which must stay "
                              "read-only: give a folder of its own")
    os.makedirs(path, mode=0o700, exist_ok=True)
    fd = open_dir(path)
    os.close(open_dir(IPC_NAME, fd, create=True))
    os.close(open_dir(ROOT_NAME, fd, create=True))
    return layout, fd


def open_report(dir_fd: int) -> int:
    """The report file, opened before any wall (the kernel cannot write the scratch root)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(REPORT_NAME, dir_fd=dir_fd)
    return os.open(REPORT_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                   os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
