"""When a submission was handed in, from what no student can set: the exchange's change
times.

nbgrader's submit writes the time of a submission from the student's own process, into
the name of its folder in ``inbound/`` and into its ``timestamp.txt``; collect takes the
name's time to choose each student's newest submission, and autograde takes
``timestamp.txt``'s as the time handed in. The folder is the student's: 143 s late with a
rewritten ``timestamp.txt`` was graded on time, a submission without one was never late,
and a notebook replaced in an on-time submission after the due date was graded on time.

Here the time is the latest **change time** (ctime) of the folder and of everything in it
(`last_change`). The kernel sets an inode's ctime from its own clock at every change of
its content, name, links, owner or mode, and no call lets a user set it (``utime`` sets
the other two times and moves ctime to now): a student can move it forward, never back.
nbgrader's submit ends with a ``chmod`` of the folder, so an honest submission's time is
the end of its Submit, a moment after the time its ``timestamp.txt`` gives (copying a
notebook takes well under a second). The course's collect (`puzzlekit.course.collect`)
measures it before its copy, to choose each student's newest submission, and again after
it (a change made while it copies counts too), and writes it into the collected copy's
``timestamp.txt``, where autograde, and so the late policy (`puzzlekit.course.late`),
reads it.

The student's own ``timestamp.txt`` is only compared (`time_flags`): missing,
unreadable, more than `TOLERANCE` seconds before the last change, or on time where the
last change is late (rewritten, or a file changed after Submit: the entry that changed
last is named) is flagged in the collect's log and in the late report, ``late-reports/<assignment>.csv`` in the course folder
(`write_late_report`), with the time graded and the due date.

What it cannot see: a change of the machine's clock (only root can make one), and times
reset when the exchange is copied elsewhere (a restore makes every file new: collect
before moving an exchange). On NFS the times are the file server's clock.
"""

from __future__ import annotations

import csv
import datetime
import errno
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..autograder.judge.plainfiles import read_all, shown

#: seconds a timestamp.txt may give before the submission's last change without a flag
TOLERANCE = 60.0
#: nbgrader's format of a time in timestamp.txt (UTC)
TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"
#: more entries than this in one submission: it is not measured (nor collected)
MAX_ENTRIES = 100_000
#: the late reports' folder, in the course folder
REPORT_FOLDER = "late-reports"
REPORT_COLUMNS = ("student", "handed_in_utc", "timestamp_txt_utc", "due_utc", "late_by_s",
                  "flags")
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_EPOCH = datetime.datetime(1970, 1, 1)


@dataclass(frozen=True)
class HandedIn:
    """When a submission's folder last changed (naive UTC, as nbgrader's times), which
    entry changed last ('' for the folder itself: an entry added, removed or renamed, or
    its mode), and what its timestamp.txt says (None, and why, if it says nothing)."""

    at: datetime.datetime
    latest: str
    claimed: datetime.datetime | None
    claim_problem: str = ""


def from_ns(ns: int) -> datetime.datetime:
    """A time in nanoseconds since the epoch, as a naive UTC datetime (microseconds)."""
    return _EPOCH + datetime.timedelta(microseconds=ns // 1000)


def last_change(folder: str | os.PathLike[str]) -> tuple[int, str]:
    """(the latest ctime, in ns, of `folder` and everything in it; the entry it belongs
    to, relative, '' for the folder). Links are looked at, never followed; more than
    `MAX_ENTRIES` entries is a ValueError."""
    top = os.open(folder, _DIR_FLAGS)
    try:
        best = (os.fstat(top).st_ctime_ns, "")
        pending = [""]
        count = 0
        while pending:
            rel = pending.pop()
            try:
                fd = os.open(rel, _DIR_FLAGS, dir_fd=top) if rel else os.dup(top)
            except OSError as exc:          # gone, or swapped for a link: its folder's
                if exc.errno in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):   # ctime moved
                    continue
                raise
            try:
                with os.scandir(fd) as entries:
                    for entry in entries:
                        count += 1
                        if count > MAX_ENTRIES:
                            raise ValueError(f"more than {MAX_ENTRIES} entries")
                        try:
                            st = entry.stat(follow_symlinks=False)
                        except FileNotFoundError:     # gone: its folder's ctime moved
                            continue
                        path = f"{rel}/{entry.name}" if rel else entry.name
                        if st.st_ctime_ns > best[0]:
                            best = (st.st_ctime_ns, path)
                        if stat.S_ISDIR(st.st_mode):
                            pending.append(path)
            finally:
                os.close(fd)
        return best
    finally:
        os.close(top)


def read_claim(folder: str | os.PathLike[str]) -> tuple[datetime.datetime | None, str]:
    """(the time the submission's own timestamp.txt gives, naive UTC; or None and why)."""
    from nbgrader.utils import parse_utc
    try:
        fd = os.open(os.path.join(folder, "timestamp.txt"),
                     os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, "no timestamp.txt"
    except OSError:
        return None, "timestamp.txt cannot be read (a link, or not the student's)"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "timestamp.txt is not a file"
        try:
            text = read_all(fd, limit=256).decode("ascii").strip()
        except (ValueError, UnicodeDecodeError):
            return None, "timestamp.txt is not a time"
    finally:
        os.close(fd)
    if not text:
        return None, "timestamp.txt is empty"
    try:
        claimed = parse_utc(text)
    except (ValueError, OverflowError, TypeError):
        return None, "timestamp.txt is not a time"
    return claimed, ""


def handed_in(folder: str | os.PathLike[str]) -> HandedIn:
    """When the submission in `folder` was handed in, and what it says itself."""
    claimed, problem = read_claim(folder)
    ns, latest = last_change(folder)
    return HandedIn(from_ns(ns), latest, claimed, problem)


def later(first: HandedIn, second: HandedIn) -> HandedIn:
    """The later of two measures of one submission."""
    return second if second.at > first.at else first


def seconds_text(seconds: float) -> str:
    """A duration for people: "0.3 s", "143 s", "8 min", "2.5 h", "3.1 days"."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def format_time(when: datetime.datetime) -> str:
    """A naive UTC time as nbgrader writes it into timestamp.txt."""
    return when.strftime(TIME_FORMAT)


def time_flags(h: HandedIn, due: datetime.datetime | None,
               tolerance: float = TOLERANCE) -> list[str]:
    """What the instructor should know about a submission's own time: nothing when its
    timestamp.txt agrees with the exchange's time, within `tolerance` seconds and on the
    same side of the due date."""
    late = due is not None and h.at > due
    if h.claimed is None:
        return [f"{h.claim_problem}: graded from the exchange's time" +
                (", which is late" if late else "")]
    gap = (h.at - h.claimed).total_seconds()
    crossed = late and due is not None and h.claimed <= due
    if gap > tolerance or crossed:
        if h.latest == "timestamp.txt":
            what = "timestamp.txt was written"
        elif h.latest:
            what = f"{shown(h.latest)} was changed"
        else:
            what = "the folder changed (an entry added, removed or renamed, or its mode)"
        flag = (f"{what} {seconds_text(gap)} after the time its timestamp.txt gives "
                f"({format_time(h.claimed)})")
        if crossed:
            flag += "; on time by its timestamp.txt, late by the exchange's time"
        return [flag]
    if -gap > tolerance:
        return [f"its timestamp.txt gives a time {seconds_text(-gap)} after the "
                f"submission last changed (a wrong clock where it was submitted?)"]
    return []


@dataclass(frozen=True)
class LateRow:
    """One line of the late report: a collected submission's times."""

    student: str
    handed_in: datetime.datetime
    claimed: datetime.datetime | None
    due: datetime.datetime | None
    flags: tuple[str, ...] = ()

    def cells(self) -> dict[str, str]:
        late = max(0.0, (self.handed_in - self.due).total_seconds()) if self.due else None
        return {"student": self.student, "handed_in_utc": format_time(self.handed_in),
                "timestamp_txt_utc": format_time(self.claimed) if self.claimed else "",
                "due_utc": format_time(self.due) if self.due else "",
                "late_by_s": "" if late is None else f"{late:.1f}",
                "flags": " | ".join(self.flags)}


def inert(cell: str) -> str:
    """A CSV cell that a spreadsheet shows as text: control characters escaped, and a
    leading = + - @ (a formula) behind an apostrophe."""
    cell = shown(cell)
    return "'" + cell if cell[:1] in ("=", "+", "-", "@") else cell


def write_late_report(course_root: str | os.PathLike[str], assignment: str,
                      rows: Iterable[LateRow]) -> Path:
    """Write (or update: the students of `rows` replace their earlier lines) the late
    report ``late-reports/<assignment>.csv`` of the course folder; returns its path."""
    path = Path(course_root) / REPORT_FOLDER / f"{assignment}.csv"
    lines = {r.student: {k: inert(v) for k, v in r.cells().items()} for r in rows}
    if path.is_file():
        with open(path, newline="", encoding="utf-8") as f:
            for old in csv.DictReader(f):
                lines.setdefault(old.get("student", ""), {k: old.get(k, "") or ""
                                                          for k in REPORT_COLUMNS})
    path.parent.mkdir(exist_ok=True)
    tmp = path.with_suffix(".csv.tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        out = csv.DictWriter(f, fieldnames=REPORT_COLUMNS)
        out.writeheader()
        out.writerows(lines[k] for k in sorted(lines))
    os.replace(tmp, path)
    return path


__all__ = ["MAX_ENTRIES", "REPORT_FOLDER", "TIME_FORMAT", "TOLERANCE", "HandedIn", "LateRow",
           "format_time", "from_ns", "handed_in", "inert", "last_change", "later",
           "read_claim", "seconds_text", "time_flags", "write_late_report"]
