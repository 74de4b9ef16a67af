"""Submissions cross into grading as plain files only: no links, no special files.

nbgrader's own copy steps (collect: ``inbound/`` -> ``submitted/``; autograde:
``submitted/`` -> ``autograded/``, then the scratch copy) run as the instructor, before
the wall, and they follow links: a student who leaves a symbolic link to the source
notebook in their folder is graded from the model solutions (and its hidden tests are
printed into the feedback), a link to ``gradebook.db`` gets a copy of the gradebook into
``autograded/``, a link to ``/dev/zero`` fills the disk. Here every entry of a
submission is looked at with ``lstat`` and opened with ``O_NOFOLLOW`` (never followed), and
only plain files and folders are copied, read from the very file descriptor that was
checked (a student who swaps a file for a link while it is being copied gets nothing).

What is left out, and why (`Dropped` says which and names it; the log and the class
grader's report carry one line per entry):

- a **symbolic link**, whatever it points to: a link carries nothing the student wrote;
  one that points inside the submission duplicates what is copied anyway, one that points
  outside reaches someone else's file. A notebook that is a link is not graded from its
  target: it counts as not handed in (0 points for it, as nbgrader does for a missing one).
- a **hard link** (a file with more than one name) that the student does not own: it is
  someone else's file under a second name (the student can make one to any file on the
  same file system they can read). Files the student owns are kept.
- a **FIFO, socket or device**: no content of their own; reading one blocks or never ends.
- an entry whose **name holds control characters** (a terminal's escape codes, a bidi
  override, a byte that is not UTF-8): no honest file is named so, and every log line
  and report that would name it is read on the instructor's screen. Names in the lines
  that say what was left out are shown with `shown` (``\\x1b[2J`` for the escape code).
- a **folder more than `MAX_DEPTH` folders deep**, with what it holds: no exercise needs
  it, and a copy holds one open folder per level (a thousand nested folders would stop
  the copy, and the grading of the whole class with it).

A submission whose folder itself is a link (or not a folder) is **refused** as a whole:
nothing in it is the student's (`Refused`).

`guard_autograde_copies` makes nbgrader's ``Autograde`` converter (``nbgrader
autograde``, the formgrader's Autograde button, ``python -m puzzlekit grade``) do its
copies this way; the course's ``nbgrader_config.py`` calls it. nbgrader has no
configurable hook before those copies (its ``pre_convert_hook`` cannot refuse: its errors
are logged and ignored), so two of its methods are wrapped, in that one function, and
``tests/autograder/test_plainfiles.py`` fails if nbgrader changes them.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import pwd
import stat
import unicodedata
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ...errors import PuzzleError
from ...testcells.catalogue import (
    CONTROL_CHARACTERS,
    LEFT_OUT,
    LINK_MADE_WHILE_COPIED,
    NO_PLAIN_NOTEBOOK,
    NOT_A_FOLDER,
    SECOND_NAME,
    FOLDER_TOO_DEEP,
    SWAPPED_WHILE_COPIED,
)

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
#: O_NONBLOCK: opening a FIFO that slipped in does not wait for a writer
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
CHUNK = 1 << 20
#: Unicode categories a name shown to the instructor must not hold: controls (C0, C1:
#: the terminal's escape codes), format characters (bidi overrides, zero widths),
#: surrogates (bytes that are not UTF-8, as Python decodes them) and line separators
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _unsafe(ch: str) -> bool:
    return unicodedata.category(ch) in UNSAFE_CATEGORIES


def plain_name(text: str) -> bool:
    """True for a name with no control character (see `UNSAFE_CATEGORIES`)."""
    return not any(_unsafe(ch) for ch in text)


def shown(text: object) -> str:
    """`text` safe to print on a terminal or into a log: each control character as its
    escape (``\\x1b``, ``\\u202e``; a byte that is not UTF-8 as ``\\xff``)."""
    text = str(text)
    if plain_name(text):
        return text
    out = []
    for ch in text:
        if not _unsafe(ch):
            out.append(ch)
        elif 0xDC80 <= ord(ch) <= 0xDCFF:          # a byte os.fsdecode could not decode
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
    return "".join(out)


class Refused(PuzzleError):
    """A submission whose folder is a link, or not a folder: nothing in it is taken."""


@dataclass(frozen=True)
class Dropped:
    """One entry of a submission that was left out: its path inside the submission, its
    kind ('symbolic link', 'hard link', 'FIFO', 'socket', 'device') and a detail."""

    path: str
    kind: str
    detail: str = ""

    def __str__(self) -> str:
        detail = f": {shown(self.detail)}" if self.detail else ""
        return f"{shown(self.path)} ({self.kind}{detail})"


def kind_of(mode: int) -> str:
    """The kind of a file, in words, from its ``st_mode``."""
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    return "special file"


def hashed_uid(name: str) -> int:
    """The uid of `name`'s pod on Kubernetes (the same formula as values.yaml's hook)."""
    return 200000 + zlib.crc32(name.encode()) % 800000


def user_uid(name: str) -> int | None:
    """The uid the student `name` makes files with (None: no such user here): the Unix
    user's, or on Kubernetes (PUZZLEKIT_UID_SCHEME=hashed) the pod's hashed uid."""
    if os.environ.get("PUZZLEKIT_UID_SCHEME") == "hashed":
        return hashed_uid(name)
    try:
        return pwd.getpwnam(name).pw_uid
    except KeyError:
        return None


def user_name(uid: int) -> str:
    """The name of the user `uid` ('uid N' when it has none)."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def open_folder(path: str | os.PathLike[str]) -> int:
    """A descriptor of the folder `path`, refusing it (`Refused`) if it is a link or not a
    folder. Only its last component is checked: the ones above are the course's."""
    try:
        return os.open(path, _DIR_FLAGS)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            try:
                what = kind_of(os.lstat(path).st_mode)
            except OSError:
                what = "not a folder"
            raise Refused(NOT_A_FOLDER.format(path=os.fspath(path), kind=what)) from None
        raise


def check_folder(path: str | os.PathLike[str]) -> None:
    """`Refused` unless `path` is a real folder (not a link to one)."""
    os.close(open_folder(path))


#: skip(relative path, lstat result) -> True to leave the entry out silently (ignore globs)
Skip = Callable[[str, os.stat_result], bool]


#: folders below a submission's own, at most (deeper ones are left out, `FOLDER_TOO_DEEP`)
MAX_DEPTH = 32


def walk_plain(root: str | os.PathLike[str], *, owner_uid: int | None = None,
               skip: Skip | None = None, on_drop: Callable[[Dropped], None] | None = None,
               ) -> Iterator[tuple[str, int, os.stat_result]]:
    """The plain files and folders under `root`, never following a link: yields
    (relative path, open descriptor, fstat) for each folder (before its contents) and
    file; the descriptor is closed when the next one is asked for. Everything else is
    passed to `on_drop` (see the module docstring); a hard link is kept only if
    `owner_uid` owns it. `Refused` if `root` itself is a link or not a folder."""
    top = open_folder(root)
    try:
        yield "", top, os.fstat(top)
        yield from _walk(top, "", owner_uid, skip, on_drop or (lambda d: None), 1)
    finally:
        os.close(top)


def _walk(dirfd: int, prefix: str, owner_uid: int | None, skip: Skip | None,
          on_drop: Callable[[Dropped], None],
          depth: int) -> Iterator[tuple[str, int, os.stat_result]]:
    """The entries of the open folder `dirfd`, `depth` folders below the root."""
    with os.scandir(dirfd) as entries:
        names = sorted(e.name for e in entries)
    for name in names:
        rel = f"{prefix}{name}"
        if not plain_name(name):
            on_drop(Dropped(rel, str(CONTROL_CHARACTERS)))
            continue
        try:
            st = os.stat(name, dir_fd=dirfd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        if skip is not None and skip(rel, st):
            continue
        mode = st.st_mode
        if stat.S_ISLNK(mode):
            try:
                target = os.readlink(name, dir_fd=dirfd)
            except OSError:
                target = "?"
            on_drop(Dropped(rel, "symbolic link", f"to {target}"))
            continue
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
            on_drop(Dropped(rel, kind_of(mode)))
            continue
        if stat.S_ISDIR(mode) and depth > MAX_DEPTH:
            on_drop(Dropped(rel, "folder", FOLDER_TOO_DEEP.format(most=MAX_DEPTH)))
            continue
        try:
            fd = os.open(name, _DIR_FLAGS if stat.S_ISDIR(mode) else _FILE_FLAGS,
                         dir_fd=dirfd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):     # swapped for a link
                on_drop(Dropped(rel, "symbolic link", str(LINK_MADE_WHILE_COPIED)))
                continue
            if exc.errno == errno.ENOENT:
                continue
            raise
        try:
            fst = os.fstat(fd)
            if (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino) or \
                    stat.S_IFMT(fst.st_mode) != stat.S_IFMT(mode):
                on_drop(Dropped(rel, kind_of(fst.st_mode), str(SWAPPED_WHILE_COPIED)))
                continue
            if stat.S_ISREG(fst.st_mode) and fst.st_nlink > 1 and fst.st_uid != owner_uid:
                on_drop(Dropped(rel, "hard link",
                                SECOND_NAME.format(owner=user_name(fst.st_uid))))
                continue
            if stat.S_ISDIR(fst.st_mode):
                yield rel, fd, fst
                yield from _walk(fd, rel + "/", owner_uid, skip, on_drop, depth + 1)
            else:
                yield rel, fd, fst
        finally:
            os.close(fd)


def read_all(fd: int, limit: int | None = None) -> bytes:
    """The contents of the open file `fd` (ValueError beyond `limit` bytes)."""
    parts: list[bytes] = []
    size = 0
    while True:
        chunk = os.read(fd, CHUNK)
        if not chunk:
            return b"".join(parts)
        size += len(chunk)
        if limit is not None and size > limit:
            raise ValueError(f"more than {limit} bytes")
        parts.append(chunk)


def _copy_fd(src: int, dest: int) -> None:
    while True:
        chunk = os.read(src, CHUNK)
        if not chunk:
            return
        view = memoryview(chunk)
        while view:
            view = view[os.write(dest, view):]


def copy_plain_tree(src: str | os.PathLike[str], dest: str | os.PathLike[str], *,
                    owner_uid: int | None = None, skip: Skip | None = None,
                    on_drop: Callable[[Dropped], None] | None = None) -> list[Dropped]:
    """Copy the folder `src` to `dest` (made here if need be; files already there are
    replaced) as `shutil.copytree`
    would (times and permission bits kept; never setuid, setgid or sticky: the copy is the
    grader's), but only its plain files and folders, never following a link; what was
    left out is returned (and passed to `on_drop`)."""
    dropped: list[Dropped] = []

    def drop(d: Dropped) -> None:
        dropped.append(d)
        if on_drop is not None:
            on_drop(d)

    os.makedirs(dest, exist_ok=True)
    out = os.open(dest, _DIR_FLAGS)
    stack: list[tuple[str, int]] = [("", out)]     # (relative folder, its descriptor)
    dir_times: list[tuple[str, os.stat_result]] = []     # folders made here, to finish
    try:
        for rel, fd, st in walk_plain(src, owner_uid=owner_uid, skip=skip, on_drop=drop):
            if rel == "":
                dir_times.append(("", st))
                continue
            parent, _, name = rel.rpartition("/")
            while stack[-1][0] != parent:
                os.close(stack.pop()[1])
            pfd = stack[-1][1]
            if stat.S_ISDIR(st.st_mode):
                try:
                    os.mkdir(name, 0o700, dir_fd=pfd)
                except FileExistsError:          # copying over an earlier copy
                    pass
                sub = os.open(name, _DIR_FLAGS, dir_fd=pfd)
                stack.append((rel, sub))
                dir_times.append((rel, st))
                continue
            try:
                os.unlink(name, dir_fd=pfd)              # as nbgrader: replaced
            except FileNotFoundError:
                pass
            wfd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                          os.O_CLOEXEC, 0o600, dir_fd=pfd)
            try:
                _copy_fd(fd, wfd)
                os.fchmod(wfd, st.st_mode & 0o777)      # never setuid, setgid or sticky
                os.utime(wfd, ns=(st.st_atime_ns, st.st_mtime_ns))
            finally:
                os.close(wfd)
        # folders' modes and times last (as copytree), the deepest first; they were all
        # made here, so their paths hold no link
        for rel, st in reversed(dir_times):
            path = os.path.join(dest, rel) if rel else os.fspath(dest)
            mode = (st.st_mode & 0o777) | (0 if rel else 0o700)
            os.chmod(path, mode)
            if rel:
                os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    finally:
        for _, fd in stack:
            os.close(fd)
    return dropped


def ignore_names(*patterns: str) -> Skip:
    """A `Skip` leaving out every entry whose name matches one of `patterns` (globs)."""
    def skip(rel: str, st: os.stat_result) -> bool:
        name = rel.rpartition("/")[2]
        return any(fnmatch.fnmatch(name, p) for p in patterns)
    return skip


def report_line(student: str, where: str, dropped: Dropped) -> str:
    """The log line for one dropped entry (every name in it shown safely)."""
    return LEFT_OUT.format(student=shown(student), where=shown(where), dropped=dropped)


# ---------------------------------------------------------------- nbgrader's autograde

_GUARD = "_puzzlekit_plain_files"


def guard_autograde_copies() -> None:
    """Make nbgrader's ``Autograde`` converter take only plain files from ``submitted/``
    (idempotent; see the module docstring). Two methods are wrapped:

    - ``BaseConverter.init_assignment``, the copy of a submission's other files into
      ``autograded/``, for ``Autograde`` converters only: the submission is checked first
      (`Refused` if its folder is a link: nbgrader reports that submission as failed and
      goes on), the notebooks that are not plain files are taken out of the list to grade,
      and the other files are copied with `copy_plain_tree`;
    - ``Autograde.init_assignment``: after it, the notebooks taken out get 0 points, as
      nbgrader gives a notebook that was not handed in.
    """
    from nbgrader.converters.autograde import Autograde
    from nbgrader.converters.base import BaseConverter

    if getattr(BaseConverter.init_assignment, _GUARD, False):
        return
    base_init = BaseConverter.init_assignment
    autograde_init = Autograde.init_assignment

    def init_assignment(self: Any, assignment_id: str, student_id: str) -> None:
        if not isinstance(self, Autograde):
            return base_init(self, assignment_id, student_id)
        _plain_copy_for_autograde(self, assignment_id, student_id)

    def autograde_init_assignment(self: Any, assignment_id: str, student_id: str) -> None:
        self._puzzlekit_dropped_notebooks = []
        autograde_init(self, assignment_id, student_id)
        _zero_dropped_notebooks(self, assignment_id, student_id)

    setattr(init_assignment, _GUARD, True)
    setattr(autograde_init_assignment, _GUARD, True)
    init_assignment.__wrapped__ = base_init                       # type: ignore[attr-defined]
    autograde_init_assignment.__wrapped__ = autograde_init        # type: ignore[attr-defined]
    BaseConverter.init_assignment = init_assignment
    Autograde.init_assignment = autograde_init_assignment


def _plain_copy_for_autograde(conv: Any, assignment_id: str, student_id: str) -> None:
    """In place of BaseConverter.init_assignment for Autograde (see the guard)."""
    from nbgrader.converters.base import NbGraderException
    source = os.path.normpath(conv._format_source(assignment_id, student_id))
    dest = os.path.normpath(conv._format_dest(assignment_id, student_id))
    where = f"{assignment_id}, autograde"
    try:
        check_folder(os.path.dirname(source))       # submitted/<student>
        check_folder(source)                        # submitted/<student>/<assignment>
    except Refused as exc:
        conv.log.error("%s's submission of %s refused: %s", student_id, assignment_id, exc)
        conv._puzzlekit_refused = f"refused: {exc}"
        raise NbGraderException(conv._puzzlekit_refused) from None
    dropped: list[Dropped] = []
    ignore = list(conv.coursedir.ignore)

    def skip(rel: str, st: os.stat_result) -> bool:
        name = rel.rpartition("/")[2]
        return any(fnmatch.fnmatch(name, p) for p in ignore)

    def drop(d: Dropped) -> None:
        dropped.append(d)
        conv.log.warning("%s", report_line(student_id, where, d))

    conv._puzzlekit_dropped = dropped         # for the class grader's report
    owner = user_uid(student_id)
    plain = {rel for rel, _, st in walk_plain(source, owner_uid=owner, skip=skip,
                                              on_drop=drop) if stat.S_ISREG(st.st_mode)}
    # the notebooks nbgrader found by name: only those that are plain files are graded
    kept: list[str] = []
    gone: list[str] = []
    for nb in conv.notebooks:
        rel = os.path.relpath(os.path.normpath(nb), source).replace(os.sep, "/")
        (kept if rel in plain else gone).append(nb)
    if gone:
        conv.notebooks[:] = kept
        conv._puzzlekit_dropped_notebooks = [
            os.path.splitext(os.path.basename(nb))[0] for nb in gone]
        for nb in gone:
            conv.log.warning("%s's %s is not a plain file: it is not graded (a notebook "
                             "of the assignment counts as not handed in: 0 points)",
                             student_id, os.path.basename(nb))
    if not kept:          # nothing to grade: 0 points for all of it, and said so
        _zero_all(conv, assignment_id, student_id, source)
        conv._puzzlekit_refused = NO_PLAIN_NOTEBOOK.format(
            student=student_id, dropped=", ".join(str(d) for d in dropped))
        raise NbGraderException(conv._puzzlekit_refused)
    # the other files, as nbgrader copies them (notebooks are converted, not copied)
    copy_plain_tree(source, dest, owner_uid=owner,
                    skip=lambda rel, st: skip(rel, st) or (
                        stat.S_ISREG(st.st_mode) and rel.endswith(".ipynb")))
    for rel in sorted(plain):
        if not rel.endswith(".ipynb"):
            conv.log.info("Copying %s -> %s", os.path.join(source, rel),
                          os.path.join(dest, rel))


def _zero_dropped_notebooks(conv: Any, assignment_id: str, student_id: str) -> None:
    """0 points for the notebooks taken out (nbgrader's own rule for a missing one)."""
    from nbgrader.api import Gradebook, MissingEntry
    names = getattr(conv, "_puzzlekit_dropped_notebooks", [])
    if not names:
        return
    with Gradebook(conv.coursedir.db_url, conv.coursedir.course_id) as gb:
        for name in names:
            try:
                nb = gb.find_submission_notebook(name, assignment_id, student_id)
            except MissingEntry:
                continue
            for grade in nb.grades:
                grade.auto_score = 0
                grade.needs_manual_grade = False
        gb.db.commit()


def _zero_all(conv: Any, assignment_id: str, student_id: str, source: str) -> None:
    """The submission in the gradebook with 0 points for every notebook."""
    from nbgrader.api import Gradebook
    timestamp = conv.coursedir.get_existing_timestamp(source)
    with Gradebook(conv.coursedir.db_url, conv.coursedir.course_id) as gb:
        gb.update_or_create_student(student_id)
        sub = (gb.update_or_create_submission(assignment_id, student_id, timestamp=timestamp)
               if timestamp else gb.update_or_create_submission(assignment_id, student_id))
        for nb in sub.notebooks:
            for grade in nb.grades:
                grade.auto_score = 0
                grade.needs_manual_grade = False
        gb.db.commit()
