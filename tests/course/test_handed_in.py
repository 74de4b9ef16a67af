"""Submission times from the exchange, the late report, and the exchange folders' owners,
as plain functions (puzzlekit.course.handed_in, puzzlekit.course.exchange_owners,
puzzlekit.course.collect.submission_name). With real users: test_exchange_walls.py."""

from __future__ import annotations

import csv
import datetime
import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("nbgrader")
from traitlets.config import Config  # noqa: E402

from puzzlekit.course.collect import submission_name  # noqa: E402
from puzzlekit.course.exchange_owners import (  # noqa: E402
    COURSE_FOLDERS,
    folder_problem,
    read_secret,
    refuse_unless_instructors,
    refuse_unless_mine,
)
from puzzlekit.course.handed_in import (  # noqa: E402
    HandedIn,
    LateRow,
    format_time,
    from_ns,
    handed_in,
    inert,
    last_change,
    read_claim,
    time_flags,
    write_late_report,
)

T0 = datetime.datetime(2026, 3, 2, 10, 0, 0)
SECOND = datetime.timedelta(seconds=1)


def submission(tmp_path: Path, claimed: str | None = format_time(T0)) -> Path:
    folder = tmp_path / "alice+01+2026-03-02 10:00:00.000000 UTC+abc"
    (folder / "data").mkdir(parents=True)
    (folder / "01.ipynb").write_text("{}")
    (folder / "data" / "board.txt").write_text("1 2 3")
    if claimed is not None:
        (folder / "timestamp.txt").write_text(claimed)
    return folder


def wait_past(ns: int, probe: Path) -> None:
    """Until the file system's clock is past `ns` (order, not a measure: a change made
    after this has a later ctime, however coarse the clock)."""
    for _ in range(10_000):
        probe.write_text("tick")
        if probe.stat().st_ctime_ns > ns:
            return
        time.sleep(0.001)
    raise AssertionError("the file system's clock did not move")


def test_the_last_change_moves_forward_with_any_change_never_back(tmp_path):
    folder = submission(tmp_path)
    probe = tmp_path / "probe"
    before, _ = last_change(folder)
    wait_past(before, probe)
    deep = folder / "data" / "board.txt"
    deep.write_text("4 5 6")
    after, latest = last_change(folder)
    assert after > before and latest == "data/board.txt"
    # setting the file's times back (as `touch -d` does) moves its ctime forward again
    wait_past(after, probe)
    os.utime(deep, (0, 0))
    again, latest = last_change(folder)
    assert again > after and latest == "data/board.txt"
    # a link is looked at, not followed; a removed entry moves its folder's ctime
    (folder / "peek").symlink_to("/etc")
    wait_past(last_change(folder)[0], probe)
    (folder / "01.ipynb").unlink()
    last, latest = last_change(folder)
    assert last > again and latest == ""
    assert from_ns(last) == datetime.datetime(1970, 1, 1) + datetime.timedelta(
        microseconds=last // 1000)


def test_the_students_own_time_is_read_and_judged(tmp_path):
    assert read_claim(submission(tmp_path / "a")) == (T0, "")
    assert read_claim(submission(tmp_path / "b", None)) == (None, "no timestamp.txt")
    assert read_claim(submission(tmp_path / "c", "")) == (None, "timestamp.txt is empty")
    assert read_claim(submission(tmp_path / "d", "not-a-time")) == \
        (None, "timestamp.txt is not a time")
    link = submission(tmp_path / "e", None)
    (link / "timestamp.txt").symlink_to("/etc/hostname")
    assert read_claim(link)[0] is None
    folder = submission(tmp_path / "f")
    h = handed_in(folder)
    assert h.claimed == T0 and h.at == from_ns(last_change(folder)[0]) and h.latest


def test_a_time_that_disagrees_is_flagged_with_what_changed():
    due = T0 + 10 * SECOND
    honest = HandedIn(T0 + datetime.timedelta(milliseconds=300), "", T0)
    assert time_flags(honest, due) == []
    # a last-second Submit whose copy ends after the due date: graded late, and said so
    crossed = HandedIn(due + datetime.timedelta(milliseconds=300), "", due - SECOND)
    flag, = time_flags(crossed, due)
    assert flag.startswith("the folder changed (an entry added, removed or renamed, or its "
                           "mode) 1.3 s after") and flag.endswith("late by the exchange's time")
    rewritten = HandedIn(due + 143 * SECOND, "timestamp.txt", T0 - 300 * SECOND)
    flag, = time_flags(rewritten, due)
    assert flag.startswith("timestamp.txt was written 8 min after the time its "
                           "timestamp.txt gives (2026-03-02 09:55:00.000000 UTC)"), flag
    replaced = HandedIn(due + 3600 * SECOND, "\x1b[2J01.ipynb", T0)
    assert "\\x1b[2J01.ipynb was changed 60 min after" in time_flags(replaced, due)[0]
    missing = HandedIn(due + SECOND, "", None, "no timestamp.txt")
    assert time_flags(missing, due) == ["no timestamp.txt: graded from the exchange's time, "
                                        "which is late"]
    assert time_flags(HandedIn(T0, "", None, "no timestamp.txt"), None) == [
        "no timestamp.txt: graded from the exchange's time"]
    future = HandedIn(T0, "", T0 + 3600 * SECOND)
    assert "after the submission last changed" in time_flags(future, due)[0]


def test_the_late_report_is_updated_and_inert(tmp_path):
    due = T0 + 10 * SECOND
    path = write_late_report(tmp_path, "01", [
        LateRow("alice", T0, T0, due), LateRow("=bob", due + 143 * SECOND, T0, due,
                                               ("timestamp.txt was written",))])
    write_late_report(tmp_path, "01", [LateRow("alice", due + SECOND, T0, due, ("+1",))])
    with open(path, newline="") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    assert path == tmp_path / "late-reports" / "01.csv"
    assert rows["alice"]["late_by_s"] == "1.0" and rows["alice"]["flags"] == "'+1"
    assert rows["'=bob"]["late_by_s"] == "143.0"
    assert rows["'=bob"]["handed_in_utc"] == format_time(due + 143 * SECOND)
    assert inert("-2+3") == "'-2+3" and inert("@x\x07") == "'@x\\x07" and inert("ok") == "ok"


@pytest.mark.parametrize("name, said", [
    ("alice+01+2026-03-02 10:00:00.000000 UTC+abcdef", ("alice", "2026-03-02 10:00:00.000000 UTC")),
    ("alice+01+2026-03-02 10:00:00.000000 UTC", ("alice", "2026-03-02 10:00:00.000000 UTC")),
    ("alice+01+not-a-time+x", "'not-a-time' in its name is not a time"),
    ("alice\x1b[2J+01+2026-03-02 10:00:00 UTC+x", "its name holds control characters"),
    ("alice+01+2026-03-02 10:00:00 UTC+x+y", "it is not a submission's name"),
    ("..+01+2026-03-02 10:00:00 UTC+x", "'..' in its name is not a student"),
    ("+01+2026-03-02 10:00:00 UTC+x", "'' in its name is not a student"),
])
def test_an_inbound_folders_name_is_read_strictly(name, said):
    got = submission_name(name, "01")
    assert got == said if isinstance(said, tuple) else got.startswith(said), got


def test_a_feedback_secret_must_be_one_printable_word(tmp_path):
    def secret(data: bytes | None) -> tuple[str | None, str]:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        if data is not None:
            (folder / "submission_secret.txt").write_bytes(data)
        return read_secret(str(folder))
    assert secret(b"ab" * 64) == ("ab" * 64, "")
    assert secret(b"") == (None, "its submission_secret.txt is empty")
    assert secret(None) == (None, "it has no submission_secret.txt")
    assert secret(b"a b")[1].endswith("spaces or control characters")
    assert secret("é".encode())[1].endswith("not ASCII")
    assert secret(b"a" * 5000)[1].endswith("longer than 4096 bytes")


def test_the_course_folders_must_be_the_owners(tmp_path):
    me = os.getuid()
    course = tmp_path / "ai-101"
    for name, mode in COURSE_FOLDERS.items():
        (course / name).mkdir(exist_ok=True)
        os.chmod(course / name, mode)
    for name in COURSE_FOLDERS:
        assert folder_problem(str(course / name), me, "me", inbound=name == "inbound",
                              others_may_read_inbound=False) is None
    assert "belongs to" in folder_problem(str(course), me + 1, "bob")
    os.chmod(course / "outbound", 0o777)
    assert "may be written by others (mode 777" in folder_problem(str(course / "outbound"),
                                                                   me, "me")
    os.chmod(course / "inbound", 0o2777)
    assert "may be listed by everyone" in folder_problem(
        str(course / "inbound"), me, "me", inbound=True, others_may_read_inbound=False)
    (tmp_path / "link").symlink_to(course)
    assert "is a symbolic link" in folder_problem(str(tmp_path / "link"), me, "me")
    assert folder_problem(str(tmp_path / "missing"), me, "me") is None


def exchange_step(root: Path, course: str, instructors: dict[str, str]) -> SimpleNamespace:
    """What the checks read of an nbgrader exchange step; `fail` raises as nbgrader's."""
    config = Config()
    config.ExchangeOwners.instructors = instructors

    def fail(msg: str) -> None:
        raise RuntimeError(msg)
    return SimpleNamespace(root=str(root), config=config, fail=fail,
                           coursedir=SimpleNamespace(course_id=course, groupshared=False))


def test_release_and_fetch_refuse_folders_that_are_not_the_instructors(tmp_path):
    import pwd
    me = pwd.getpwuid(os.getuid()).pw_name
    (tmp_path / "ai-101" / "outbound").mkdir(parents=True, mode=0o755)
    os.chmod(tmp_path / "ai-101", 0o755)
    refuse_unless_mine(exchange_step(tmp_path, "ai-101", {}), ("", "outbound"), "released")
    refuse_unless_instructors(exchange_step(tmp_path, "ai-101", {"ai-101": me}),
                              ("outbound",), "fetched")
    # with no instructor named, the course's folders must be one person's, closed to others
    refuse_unless_instructors(exchange_step(tmp_path, "ai-101", {}), ("outbound",), "fetched")
    os.chmod(tmp_path / "ai-101", 0o777)
    with pytest.raises(RuntimeError, match="may be written by others.*nothing was released"
                       ".*sudo make exchange COURSE_ID=ai-101"):
        refuse_unless_mine(exchange_step(tmp_path, "ai-101", {}), ("",), "released")
    with pytest.raises(RuntimeError, match="nothing was fetched. Tell your instructor"):
        refuse_unless_instructors(exchange_step(tmp_path, "ai-101", {}), (), "fetched")
    os.chmod(tmp_path / "ai-101", 0o755)
    other = "nobody" if me != "nobody" else "root"
    with pytest.raises(RuntimeError, match=f"belongs to {me}, not to ai-101's instructor "
                       f"{other}: nothing was fetched"):
        refuse_unless_instructors(exchange_step(tmp_path, "ai-101", {"ai-101": other}),
                                  ("outbound",), "fetched")
    with pytest.raises(RuntimeError, match="no user of this machine"):
        refuse_unless_instructors(exchange_step(tmp_path, "ai-101", {"ai-101": "no-such-x"}),
                                  ("outbound",), "fetched")
