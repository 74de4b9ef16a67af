"""nbgrader's collect, refusing submissions filed under another student's name.

In the exchange's `inbound/` anyone may write, and a submission's folder is named
`STUDENT+ASSIGNMENT+TIME+RANDOM`: `nbgrader submit --student=alice` run by bob files bob's
work as alice's. nbgrader's own collect only *warns* ("cheating attempt?") and then takes
it, so the newest of such folders would replace alice's real submission. Here a folder
whose owner (the Unix user who made it) is neither the student it names nor the one who
collects (an instructor may hand work in for a student on one machine) is left out, with a
warning naming both, before the newest submission of each student is chosen.

The course's nbgrader_config.py sets `c.ExchangeFactory.collect` to this class, so the
formgrader's Collect, `nbgrader collect` and `python -m puzzlekit grade --watch` all use it.
The owner is the user name of the folder's uid; on Kubernetes
(PUZZLEKIT_UID_SCHEME=hashed, deploy/kubernetes/values.yaml), where a pod knows only its
own user, the folder's uid must be `hashed_uid(name)`.
"""

from __future__ import annotations

import glob
import os
import pwd
import zlib
from typing import Any

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.exchange.default.collect import ExchangeCollect, groupby
from nbgrader.utils import check_mode


def owner_of(path: str) -> str:
    """The user name owning `path` ('uid N' when the uid has no name)."""
    uid = os.stat(path).st_uid
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def hashed_uid(name: str) -> int:
    """The uid of `name`'s pod on Kubernetes (the same formula as values.yaml's hook)."""
    return 200000 + zlib.crc32(name.encode()) % 800000


def made_by(path: str, name: str) -> tuple[bool, str]:
    """(whether `name`, or the user collecting, made `path`; who made it)."""
    uid = os.stat(path).st_uid
    if uid == os.getuid():
        return True, owner_of(path)
    if os.environ.get("PUZZLEKIT_UID_SCHEME") == "hashed":
        return uid == hashed_uid(name), f"uid {uid}"
    owner = owner_of(path)
    return owner == name, owner


class OwnerCheckedCollect(ExchangeCollect):  # type: ignore[misc]
    """`nbgrader collect` that skips submissions not made by the student they name."""

    refused: list[dict[str, Any]]

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
        records, self.refused = [], []
        for path in glob.glob(pattern):
            record = self._path_to_record(path)
            ok, owner = made_by(path, record["username"])
            if not ok:
                self.log.warning("refused %s: it is filed as %s's submission but was made by "
                                 "%s", path, record["username"], owner)
                self.refused.append({**record, "owner": owner})
                continue
            records.append(record)
        usergroups = groupby(records, lambda item: item["username"])
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            try:
                self.duedate = gb.find_assignment(self.coursedir.assignment_id).duedate
            except MissingEntry:
                self.duedate = None
        if self.duedate is None or not self.before_duedate:
            self.src_records = [self._sort_by_timestamp(v)[0] for v in usergroups.values()]
        else:
            self.src_records = []
            for v in usergroups.values():
                ordered = self._sort_by_timestamp(v)
                early = [r for r in ordered if r["timestamp"] <= self.duedate]
                self.src_records.append(early[0] if early else ordered[0])
