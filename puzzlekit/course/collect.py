"""nbgrader's collect, refusing submissions filed under another student's name.

In the exchange's `inbound/` anyone may write, and a submission's folder is named
`STUDENT+ASSIGNMENT+TIME+RANDOM`: `nbgrader submit --student=alice` run by bob files bob's
work as alice's. nbgrader's own collect only *warns* ("cheating attempt?") and then takes
it, so the newest of such folders would replace alice's real submission. Here a folder
whose owner (the Unix user who made it) is neither the student it names nor the one who
collects (an instructor may hand work in for a student on one machine) is left out, with a
warning naming both, before the newest submission of each student is chosen.

Inside a folder, only plain files and folders are copied (`puzzlekit.autograder.grader.plainfiles`): the
exchange is writable by everyone and collect runs as the instructor, so a symbolic link
(to the source notebook, to ``gradebook.db``), a hard link to a file the student does not
own, a FIFO or a device is left out, with a warning naming the student and the entry,
never followed; a folder that is itself a link is refused like one made by someone else.

With ``c.OwnerCheckedCollect.students_only = True`` (the class server sets it for each of
its courses, which share one exchange) a folder filed under a name that is not a student
of the course's gradebook is refused too: a student of another course who submits here,
by mistake or on purpose, gets nothing into this course.

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
import stat
from typing import Any

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.exchange.default.collect import ExchangeCollect, groupby
from nbgrader.utils import check_mode
from traitlets import Bool

from ..autograder.grader.plainfiles import (
    Dropped,
    Refused,
    copy_plain_tree,
    hashed_uid,
    report_line,
    user_uid,
    walk_plain,
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


class OwnerCheckedCollect(ExchangeCollect):  # type: ignore[misc]
    """`nbgrader collect` that skips submissions not made by the student they name."""

    refused: list[dict[str, Any]]
    #: student -> the entries left out of their submission (see puzzlekit.autograder.grader.plainfiles)
    dropped: dict[str, list[Dropped]]

    students_only = Bool(False, help="Refuse folders filed under a name that is not a "
                         "student of the course's gradebook.").tag(config=True)

    def init_src(self) -> None:
        if self.coursedir.course_id == "":
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        if not os.path.isdir(self.inbound_path):
            self.fail(f"Course not found: {self.inbound_path}")
        if not check_mode(self.inbound_path, read=True, execute=True):
            self.fail(f"You don't have read permissions for the directory: {self.inbound_path}")
        student_id = self.coursedir.student_id if self.coursedir.student_id else "*"
        pattern = os.path.join(self.inbound_path,
                               f"{student_id}+{self.coursedir.assignment_id}+*")
        records, self.refused, self.dropped = [], [], {}
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            try:
                self.duedate = gb.find_assignment(self.coursedir.assignment_id).duedate
            except MissingEntry:
                self.duedate = None
            students = {s.id for s in gb.students} if self.students_only else set()
        for path in glob.glob(pattern):
            record = self._path_to_record(path)
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                what = "a symbolic link" if os.path.islink(path) else "not a folder"
                self.log.warning("refused %s: it is filed as %s's submission but is %s, "
                                 "not a folder", path, record["username"], what)
                self.refused.append({**record, "owner": owner_of(path), "why": what})
                continue
            ok, owner = made_by(path, record["username"])
            if not ok:
                self.log.warning("refused %s: it is filed as %s's submission but was made by "
                                 "%s", path, record["username"], owner)
                self.refused.append({**record, "owner": owner})
                continue
            if self.students_only and record["username"] not in students:
                self.log.warning("refused %s: %s is not a student of %s (not in its "
                                 "gradebook)", path, record["username"],
                                 self.coursedir.course_id)
                self.refused.append({**record, "owner": owner, "why": "not a student"})
                continue
            records.append(record)
        usergroups = groupby(records, lambda item: item["username"])
        if self.duedate is None or not self.before_duedate:
            self.src_records = [self._sort_by_timestamp(v)[0] for v in usergroups.values()]
        else:
            self.src_records = []
            for v in usergroups.values():
                ordered = self._sort_by_timestamp(v)
                early = [r for r in ordered if r["timestamp"] <= self.duedate]
                self.src_records.append(early[0] if early else ordered[0])

    def _group_may(self, path: str, bits: int, mask: int) -> None:
        st_mode = os.stat(path).st_mode
        if st_mode & bits != bits:
            try:
                os.chmod(path, (st_mode | bits) & mask)
            except PermissionError:
                self.log.warning("Could not update permissions of %s to make it groupshared",
                                 path)

    def do_copy(self, src: str, dest: str, log: Any = None) -> None:
        """nbgrader's copy (ignore/include globs, file and folder size limits, group
        permissions), of plain files only: see puzzlekit.autograder.grader.plainfiles."""
        cd = self.coursedir
        student = os.path.basename(src).rsplit("+", 3)[0]
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
                                     "CourseDirectory.max_file_size)", os.path.join(src, rel))
                    return True
            return False

        try:
            size = sum(st.st_size for _, _, st in walk_plain(src, owner_uid=owner,
                                                             skip=skip)
                       if stat.S_ISREG(st.st_mode))
        except Refused as exc:      # swapped for a link since init_src looked at it
            self.log.error("refused %s's submission: %s", student, exc)
            return
        if size > 1000 * cd.max_dir_size:
            self.log.error("Directory size is too big")
            raise RuntimeError(f"Directory size is too big. Size is {size}, maximum size "
                               f"is {1000 * cd.max_dir_size}")
        where = f"{cd.assignment_id}, collect from {os.path.basename(src)}"
        try:
            dropped = copy_plain_tree(
                src, dest, owner_uid=owner, skip=skip,
                on_drop=lambda d: self.log.warning("%s", report_line(student, where, d)))
        except Refused as exc:
            self.log.error("refused %s's submission: %s", student, exc)
            return
        if dropped:
            self.dropped.setdefault(student, []).extend(dropped)
        if cd.groupshared:      # as nbgrader's own do_copy: the group may read and write
            for dirname, _, filenames in os.walk(dest):
                self._group_may(dirname, 0o2770, 0o2777)
                for filename in filenames:
                    self._group_may(os.path.join(dirname, filename), 0o660, 0o777)
