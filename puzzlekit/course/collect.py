"""nbgrader's collect, refusing submissions filed under another student's name.

In the exchange's `inbound/` anyone may write, and a submission's folder is named
`STUDENT+ASSIGNMENT+TIME+RANDOM`: `nbgrader submit --student=alice` run by bob files bob's
work as alice's. nbgrader's own collect only *warns* ("cheating attempt?") and then takes
it, so the newest of such folders would replace alice's real submission. Here a folder
whose owner (the Unix user who made it) is neither the student it names nor the one who
collects (an instructor may hand work in for a student on one machine) is left out, with a
warning naming both, before the newest submission of each student is chosen.

Inside a folder, only plain files and folders are copied (`puzzlekit.autograder.judge.plainfiles`): the
exchange is writable by everyone and collect runs as the instructor, so a symbolic link
(to the source notebook, to ``gradebook.db``), a hard link to a file the student does not
own, a FIFO or a device is left out, with a warning naming the student and the entry,
never followed; a folder that is itself a link is refused like one made by someone else.

With ``c.OwnerCheckedCollect.students_only = True`` (the class server sets it for each of
its courses, which share one exchange) a folder filed under a name that is not a student
of the course's gradebook is refused too: a student of another course who submits here,
by mistake or on purpose, gets nothing into this course.

**Times no student can set** (`puzzlekit.course.handed_in`): each submission's time is
the latest change time of its folder and files, measured before the copy (the newest
submission of each student is the one that changed last) and after it; it is written into
the collected copy's ``timestamp.txt``, which autograde and the late policy read. The
student's own ``timestamp.txt`` is only compared: a missing or rewritten one, or a file
changed after Submit, is a warning and a flag in ``late-reports/<assignment>.csv``.

**One student cannot stop the class's collect.** A folder whose name is not a submission's
(``alice+01+not-a-time+x``, control characters), that cannot be read, is too big or holds
too many entries is skipped with one log line naming it; everyone else is collected.
Names from the exchange are shown with their control characters escaped
(`puzzlekit.autograder.judge.plainfiles.shown`), and entries so named are left out.

The course's folder and ``inbound`` in the exchange must be the instructor's
(`puzzlekit.course.exchange_owners`), or nothing is collected.

The course's nbgrader_config.py sets `c.ExchangeFactory.collect` to this class, so the
formgrader's Collect, `nbgrader collect` and `python -m puzzlekit grade --watch` all use it.
The owner is the user name of the folder's uid; on Kubernetes
(PUZZLEKIT_UID_SCHEME=hashed, deploy/kubernetes/values.yaml), where a pod knows only its
own user, the folder's uid must be `hashed_uid(name)`.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import pwd
import shutil
import stat
from typing import Any

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.exchange.default.collect import ExchangeCollect, groupby
from nbgrader.utils import check_mode, parse_utc
from traitlets import Bool, Float

from ..autograder.judge.plainfiles import (
    Dropped,
    copy_plain_tree,
    hashed_uid,
    plain_name,
    report_line,
    shown,
    user_uid,
    walk_plain,
)
from .exchange_owners import read_secret, refuse_unless_mine
from .handed_in import (
    TOLERANCE,
    HandedIn,
    LateRow,
    format_time,
    handed_in,
    later,
    time_flags,
    write_late_report,
)


def owner_of(path: str) -> str:
    """The user name owning `path` ('uid N' when the uid has no name); a link's own."""
    uid = os.lstat(path).st_uid
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def made_by(path: str, name: str) -> tuple[bool, str]:
    """(whether `name`, or the user collecting, made `path`; who made it). A link is
    looked at, not followed: its maker is who made the link."""
    uid = os.lstat(path).st_uid
    if uid == os.getuid():
        return True, owner_of(path)
    if os.environ.get("PUZZLEKIT_UID_SCHEME") == "hashed":
        return uid == hashed_uid(name), f"uid {uid}"
    owner = owner_of(path)
    return owner == name, owner


def submission_name(name: str, assignment: str) -> tuple[str, str] | str:
    """(student, time as written) of an inbound folder's name
    ``STUDENT+ASSIGNMENT+TIME+RANDOM`` (or without ``+RANDOM``), or why it is not one."""
    if not plain_name(name):
        return "its name holds control characters"
    parts = name.rsplit("+", 3)
    if len(parts) < 3 or parts[1] != assignment:
        return f"it is not a submission's name ({'STUDENT+' + assignment + '+TIME+RANDOM'})"
    student, when = parts[0], parts[2]
    if not student or student in (".", "..") or "/" in student:
        return f"{student!r} in its name is not a student"
    try:
        parse_utc(when)
    except Exception:           # dateutil's errors vary: none of them is a time
        return f"{when!r} in its name is not a time"
    return student, when


class OwnerCheckedCollect(ExchangeCollect):  # type: ignore[misc]
    """`nbgrader collect` that skips submissions not made by the student they name, takes
    times no student can set, and goes on past any one student's folder."""

    refused: list[dict[str, Any]]
    #: student -> the entries left out of their submission (see puzzlekit.autograder.judge.plainfiles)
    dropped: dict[str, list[Dropped]]
    #: the late report's lines of this collect (puzzlekit.course.handed_in)
    late_rows: list[LateRow]

    students_only = Bool(False, help="Refuse folders filed under a name that is not a "
                         "student of the course's gradebook.").tag(config=True)
    time_tolerance = Float(TOLERANCE, help="Seconds a submission's own timestamp.txt may "
                           "give before its last change in the exchange without a flag in "
                           "the late report (the time graded is the exchange's "
                           "anyway).").tag(config=True)

    def init_src(self) -> None:
        if self.coursedir.course_id == "":
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        if not os.path.isdir(self.inbound_path):
            self.fail(f"Course not found: {self.inbound_path}")
        refuse_unless_mine(self, ("", "inbound"), "collected")
        if not check_mode(self.inbound_path, read=True, execute=True):
            self.fail(f"You don't have read permissions for the directory: {self.inbound_path}")
        student_id = self.coursedir.student_id if self.coursedir.student_id else "*"
        pattern = os.path.join(self.inbound_path,
                               f"{student_id}+{self.coursedir.assignment_id}+*")
        records, self.refused, self.dropped, self.late_rows = [], [], {}, []
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            try:
                assignment = gb.find_assignment(self.coursedir.assignment_id)
                self.duedate = assignment.duedate
                #: each student's due date, their extension included
                self.due_of = {sub.student.id: sub.duedate for sub in assignment.submissions}
            except MissingEntry:
                self.duedate, self.due_of = None, {}
            students = {s.id for s in gb.students} if self.students_only else set()
        for path in sorted(glob.glob(pattern)):
            try:
                record = self._record(path, students)
            except Exception as exc:    # one student's folder never stops the class's collect
                self.log.error("skipped %s: %s", shown(path), shown(exc))
                self.refused.append({"filename": os.path.basename(path), "username": "",
                                     "owner": "", "why": shown(exc)})
                continue
            if record is not None:
                records.append(record)
        usergroups = groupby(records, lambda item: item["username"])
        if self.duedate is None or not self.before_duedate:
            self.src_records = [self._sort_by_timestamp(v)[0] for v in usergroups.values()]
        else:
            self.src_records = []
            for v in usergroups.values():
                ordered = self._sort_by_timestamp(v)
                early = [r for r in ordered if r["timestamp"] <= self.due_of.get(
                    r["username"], self.duedate)]
                self.src_records.append(early[0] if early else ordered[0])

    def _record(self, path: str, students: set[str]) -> dict[str, Any] | None:
        """The record of one inbound folder, its time the exchange's (None: refused)."""
        name = os.path.basename(path)
        parsed = submission_name(name, self.coursedir.assignment_id)
        if isinstance(parsed, str):
            self.log.warning("skipped %s: %s; nbgrader's submit never makes such a folder",
                             shown(path), parsed)
            self.refused.append({"filename": shown(name), "username": "",
                                 "owner": owner_of(path), "why": parsed})
            return None
        record: dict[str, Any] = {"username": parsed[0], "filename": name}
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            what = "a symbolic link" if os.path.islink(path) else "not a folder"
            self.log.warning("refused %s: it is filed as %s's submission but is %s, "
                             "not a folder", shown(path), record["username"], what)
            self.refused.append({**record, "owner": owner_of(path), "why": what})
            return None
        ok, owner = made_by(path, record["username"])
        if not ok:
            self.log.warning("refused %s: it is filed as %s's submission but was made by "
                             "%s", shown(path), record["username"], owner)
            self.refused.append({**record, "owner": owner})
            return None
        if self.students_only and record["username"] not in students:
            self.log.warning("refused %s: %s is not a student of %s (not in its "
                             "gradebook)", shown(path), record["username"],
                             self.coursedir.course_id)
            self.refused.append({**record, "owner": owner, "why": "not a student"})
            return None
        record["handed_in"] = handed_in(path)
        record["timestamp"] = record["handed_in"].at
        return record

    def _group_may(self, path: str, bits: int, mask: int) -> None:
        st_mode = os.stat(path).st_mode
        if st_mode & bits != bits:
            try:
                os.chmod(path, (st_mode | bits) & mask)
            except PermissionError:
                self.log.warning("Could not update permissions of %s to make it groupshared",
                                 path)

    def copy_files(self) -> None:
        super().copy_files()
        if self.late_rows:
            report = write_late_report(self.coursedir.root, self.coursedir.assignment_id,
                                       self.late_rows)
            self.log.info("Times handed in (the exchange's) and their flags: %s", report)

    def do_copy(self, src: str, dest: str, log: Any = None) -> None:
        """nbgrader's copy (ignore/include globs, file and folder size limits, group
        permissions), of plain files only (see puzzlekit.autograder.judge.plainfiles),
        with the exchange's time in the copy's timestamp.txt; a submission that cannot be
        copied is skipped with one line, and the others are collected."""
        student = os.path.basename(src).rsplit("+", 3)[0]
        try:
            self._copy(src, dest, student)
        except Exception as exc:    # one student's folder never stops the class's collect
            shutil.rmtree(dest, ignore_errors=True)    # no copy with a time not measured
            self.log.error("skipped %s's submission %s: %s", shown(student),
                           shown(os.path.basename(src)), shown(exc))

    def _copy(self, src: str, dest: str, student: str) -> None:
        cd = self.coursedir
        owner = user_uid(student)
        exclude, include = list(cd.ignore or []), list(cd.include or [])
        max_file = 1000 * cd.max_file_size if cd.max_file_size else None

        def skip(rel: str, st: os.stat_result) -> bool:
            name = rel.rpartition("/")[2]
            if any(fnmatch.fnmatch(name, g) for g in exclude):
                return True
            if stat.S_ISREG(st.st_mode):
                if include and not any(fnmatch.fnmatch(name, g) for g in include):
                    return True
                if max_file is not None and st.st_size > max_file:
                    self.log.warning("Ignoring file too large '%s' (see config option "
                                     "CourseDirectory.max_file_size)",
                                     shown(os.path.join(src, rel)))
                    return True
            return False

        size = sum(st.st_size for _, _, st in walk_plain(src, owner_uid=owner, skip=skip)
                   if stat.S_ISREG(st.st_mode))
        if size > 1000 * cd.max_dir_size:
            raise ValueError(f"it holds {size} bytes, more than the course's limit of "
                             f"{1000 * cd.max_dir_size} (CourseDirectory.max_dir_size)")
        where = f"{cd.assignment_id}, collect from {os.path.basename(src)}"
        dropped = copy_plain_tree(
            src, dest, owner_uid=owner, skip=skip,
            on_drop=lambda d: self.log.warning("%s", report_line(student, where, d)))
        if dropped:
            self.dropped.setdefault(student, []).extend(dropped)
        record = next(r for r in self.src_records
                      if r["filename"] == os.path.basename(src))
        self._record_time(src, dest, student, later(record["handed_in"], handed_in(src)))
        if cd.groupshared:      # as nbgrader's own do_copy: the group may read and write
            for dirname, _, filenames in os.walk(dest):
                self._group_may(dirname, 0o2770, 0o2777)
                for filename in filenames:
                    self._group_may(os.path.join(dirname, filename), 0o660, 0o777)

    def _record_time(self, src: str, dest: str, student: str, h: HandedIn) -> None:
        """The exchange's time into the copy's timestamp.txt; the flags into the log and
        the late report."""
        stamp = os.path.join(dest, "timestamp.txt")
        if os.path.isdir(stamp) and not os.path.islink(stamp):
            shutil.rmtree(stamp)
        elif os.path.lexists(stamp):
            os.unlink(stamp)
        fd = os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                     os.O_CLOEXEC, 0o644)
        with open(fd, "w", encoding="ascii") as f:
            f.write(format_time(h.at))
        due = self.due_of.get(student, self.duedate)
        flags = time_flags(h, due, self.time_tolerance)
        self.late_rows.append(LateRow(student, h.at, h.claimed, due, tuple(flags)))
        self.log.info("%s handed %s in at %s (the exchange's time)", student,
                      self.coursedir.assignment_id, format_time(h.at))
        for flag in flags:
            self.log.warning("%s's submission of %s: %s", student,
                             self.coursedir.assignment_id, flag)
        secret, why = read_secret(src)
        if secret is None:
            self.log.warning("%s's submission of %s: %s, so their feedback cannot be "
                             "released for them to fetch", student,
                             self.coursedir.assignment_id, why)
