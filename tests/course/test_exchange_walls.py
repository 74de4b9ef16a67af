"""The exchange with real Unix users, without a hub: no student can squat a course or set
a submission's time, and no one student stops the class's collect or feedback.

One instructor per course and five students, made with `useradd` (marked, removed after),
an exchange in a fresh /tmp folder; every step runs as the person who would run it
(`runuser`), with the class environment's nbgrader (the one `make hub` builds) and this
checkout's kit; the instructors use the course's own `nbgrader_config.py`, the students
the config the class server writes for them (deploy/hub/classroom.py). Each attack is
run first against plain nbgrader where that is cheap, to show it is real.
"""

from __future__ import annotations

import datetime
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_handed_in import wait_past

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "deploy" / "hub"))
import classroom  # noqa: E402

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]

MARKER = "puzzlekit-exchange-test"      #: the GECOS field of every user made here
A, B = "xa-101", "xb-202"               #: two courses
TA, TB = "pkx-ta", "pkx-tb"             #: their instructors
S1, S2, S3, S4, S5, S6 = (f"pkx-s{i}" for i in range(1, 7))
OF_A, OF_B = (S1, S3, S4, S5, S6), (S2,)    #: the students of each (S2: of B only)
PLAIN = {"collect": "nbgrader.exchange.default.collect.ExchangeCollect",
         "release_feedback": "nbgrader.exchange.default.release_feedback."
                             "ExchangeReleaseFeedback"}
TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"
EPOCH = datetime.datetime(1970, 1, 1)


def notebook(text: str) -> str:
    return json.dumps({"cells": [{"cell_type": "markdown", "metadata": {}, "source": text}],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@dataclass
class Machine:
    base: Path
    env: Path                   #: the class environment (its nbgrader)

    @property
    def exchange(self) -> Path:
        return self.base / "exchange"

    def home(self, user: str) -> Path:
        return Path(pwd.getpwnam(user).pw_dir)

    def root_of(self, course: str) -> Path:
        return self.home(TA if course == A else TB) / course

    def run(self, user: str, argv: list[str], *, cwd: Path | None = None,
            extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        env = {"HOME": str(self.home(user)), "USER": user, "LANG": "C.UTF-8",
               "PATH": f"{self.env}/bin:/usr/bin:/bin", "PYTHONPATH": str(REPO),
               **(extra or {})}
        return subprocess.run(["runuser", "-u", user, "--", "env", "-i",
                               *(f"{k}={v}" for k, v in env.items()), *argv],
                              cwd=cwd or self.home(user), capture_output=True, text=True,
                              timeout=300)

    def nbgrader(self, user: str, *args: str, course: str | None = None,
                 ok: bool = True) -> str:
        """nbgrader as `user`: an instructor from their course folder, with its config; a
        student with the class server's student config. Its output (asserted to exit 0
        unless `ok` is False)."""
        if user in (TA, TB):
            mine = A if user == TA else B
            done = self.run(user, [f"{self.env}/bin/nbgrader", *args],
                            cwd=self.root_of(mine),
                            extra={"PUZZLEKIT_COURSE_ID": mine,
                                   "PUZZLEKIT_EXCHANGE": str(self.exchange)})
        else:
            course = course or (B if user in OF_B else A)
            config = f"{self.base}/jupyter/student-of/{course}:{self.base}/jupyter/student"
            done = self.run(user, [f"{self.env}/bin/nbgrader", *args],
                            extra={"JUPYTER_CONFIG_PATH": config})
        out = done.stdout + done.stderr
        if ok:
            assert done.returncode == 0, f"nbgrader {args} as {user}:\n{out}"
        return out

    def release(self, course: str, assignment: str, text: str) -> Path:
        """`assignment` in the instructor's release/ (as generate would leave it)."""
        folder = self.root_of(course) / "release" / assignment
        folder.mkdir(parents=True)
        (folder / f"{assignment}.ipynb").write_text(notebook(text))
        classroom.chown_tree(folder.parent, TA if course == A else TB)
        return folder

    def gradebook(self, course: str) -> str:
        return f"sqlite:///{self.root_of(course) / 'gradebook.db'}"

    def add_assignment(self, course: str, assignment: str) -> None:
        from nbgrader.api import Gradebook
        with Gradebook(self.gradebook(course), course_id=course) as gb:
            gb.add_assignment(assignment)
        classroom.chown_tree(self.root_of(course), TA if course == A else TB)


def require_exchange_machine() -> Path:
    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("the exchange's walls are tested with real Unix users: run as root")
    for tool in ("useradd", "userdel", "runuser"):
        if not shutil.which(tool):
            pytest.skip(f"`{tool}` is missing: this machine cannot make users")
    pytest.importorskip("nbgrader")
    from hub_support import CLASS_ENV, make_hub_env
    if not (CLASS_ENV / ".installed-hub").exists():
        if not shutil.which("npm"):
            pytest.skip("no class environment, and npm is missing to build one")
        with tempfile.TemporaryFile() as out:
            assert make_hub_env(out) == 0, "make hub-env failed"
    return CLASS_ENV


@pytest.fixture(scope="module")
def machine() -> Iterator[Machine]:
    env = require_exchange_machine()
    from nbgrader.api import Gradebook

    from puzzlekit.course.course_setup import environment_first_on_path
    classroom.remove_marked_users(MARKER)
    base = Path(tempfile.mkdtemp(prefix="puzzlekit-exchange-", dir="/tmp"))
    try:
        os.chmod(base, 0o755)
        (base / "home").mkdir(mode=0o755)
        for user, role in ((TA, "instructor"), (TB, "instructor"),
                           *((s, "student") for s in (*OF_A, *OF_B))):
            classroom.create_user(classroom.Person(user, role), str(base / "home"), MARKER)
        m = Machine(base, env)
        classroom.make_exchange_root(m.exchange)
        # course A is set up as the class server does before its first release; course
        # B's set-up comes later (test_a_course_a_student_made_first_...)
        assert classroom.make_course_exchange(m.exchange, A, TA) == []
        environment_first_on_path()     # nbgrader stamps a new gradebook with alembic
        for course, teacher, students in ((A, TA, OF_A), (B, TB, OF_B)):
            root = m.root_of(course)
            root.mkdir(mode=0o700)
            shutil.copy(REPO / "notebooks" / "nbgrader_config.py", root)
            with Gradebook(m.gradebook(course), course_id=course) as gb:
                for s in students:
                    gb.add_student(s)
            classroom.chown_tree(root, teacher)
        settings = classroom.Settings(
            env=str(env), state=str(base), exchange=str(m.exchange),
            courses=[classroom.Course(A, str(m.root_of(A)), TA, list(OF_A)),
                     classroom.Course(B, str(m.root_of(B)), TB, list(OF_B))])
        classroom.write_role_configs(base, settings)
        yield m
    finally:
        classroom.remove_marked_users(MARKER)
        shutil.rmtree(base, ignore_errors=True)


def all_as(m: Machine, jobs: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    """Several students' nbgrader commands side by side (as a class would)."""
    with ThreadPoolExecutor(3) as pool:
        return list(pool.map(lambda job: m.nbgrader(job[0], *job[1]), jobs))


def destination(out: str) -> Path:
    """The inbound folder a submit made (its log says it; nobody but the instructor can
    list inbound)."""
    return Path(re.search(r"Destination: (.+)", out).group(1).strip())


# ------------------------------------------------------------------------ the squat

def test_a_course_a_student_made_first_is_refused_then_moved_aside(machine: Machine):
    m = machine
    exchange = m.exchange
    # a student of course A makes course B's folders before B is set up, with a notebook
    # of her own as B's release
    squat = exchange / B / "outbound" / "b1"
    done = m.run(S1, ["bash", "-c", f"mkdir -p {squat} {exchange / B / 'inbound'} && "
                      f"chmod 733 {exchange / B / 'inbound'} && "
                      f"printf '%s' '{notebook('SQUAT: run me')}' > {squat}/b1.ipynb"])
    assert done.returncode == 0, done.stderr
    m.release(B, "b1", "released by the instructor of B")
    m.add_assignment(B, "b1")

    # B's instructor: the release is refused, naming the folder, its owner and the fix
    out = m.nbgrader(TB, "release_assignment", "b1", ok=False)
    assert f"{exchange / B} belongs to {S1}, not to you ({TB})" in out, out
    assert "nothing was released" in out and "make exchange" in out, out
    # B's student: fetch and submit are refused; nothing of the squatter's is fetched
    out = m.nbgrader(S2, "fetch_assignment", "b1", ok=False)
    assert f"belongs to {S1}, not to {B}'s instructor {TB}" in out, out
    assert not (m.home(S2) / "b1").exists()
    m.run(S2, ["mkdir", "-p", "b1"])
    out = m.nbgrader(S2, "submit", "b1", ok=False)
    assert "nothing was submitted" in out, out
    assert not list((exchange / B / "inbound").iterdir())
    m.run(S2, ["rm", "-rf", "b1"])

    # the set-up of course B (make hub-course, make exchange) moves the squat aside
    notes = classroom.make_course_exchange(exchange, B, TB)
    assert len(notes) == 1 and f"was a folder of {S1}, not of {B}'s instructor {TB}" \
        in notes[0], notes
    aside = [p for p in exchange.iterdir() if p.name.startswith(f".moved-aside-{B}-")]
    assert len(aside) == 1 and (aside[0] / B / "outbound" / "b1" / "b1.ipynb").is_file()
    for name, mode in classroom.EXCHANGE_FOLDERS.items():
        st = (exchange / B / name).lstat()
        assert (pwd.getpwuid(st.st_uid).pw_name, st.st_mode & 0o7777) == (TB, mode), name
    # the squatter reaches neither what she made nor the course's folders now
    assert m.run(S1, ["ls", str(aside[0])]).returncode != 0
    for target in (exchange / B / "outbound" / "b2", exchange / B / "x", exchange / A / "y"):
        assert m.run(S1, ["mkdir", str(target)]).returncode != 0, target
        assert not target.exists()

    # B releases; its student fetches the instructor's notebook and submits it
    m.nbgrader(TB, "release_assignment", "b1")
    m.nbgrader(S2, "fetch_assignment", "b1")
    fetched = (m.home(S2) / "b1" / "b1.ipynb").read_text()
    assert "released by the instructor of B" in fetched and "SQUAT" not in fetched
    m.nbgrader(S2, "submit", "b1")


# ------------------------------------------------------------------------ the times

def last_change(folder: Path) -> datetime.datetime:
    """The latest ctime under `folder` (the test's own measure), naive UTC."""
    ns = max(os.lstat(p).st_ctime_ns for p in [folder, *folder.rglob("*")])
    return EPOCH + datetime.timedelta(microseconds=ns // 1000)


def claim(folder: Path) -> datetime.datetime:
    from nbgrader.utils import parse_utc
    return parse_utc((folder / "timestamp.txt").read_text())


def test_times_come_from_the_exchange_not_from_the_student(machine: Machine):
    """Five students of one assignment: honest on time, honest 139 s late, 143 s late with
    a rewritten timestamp.txt, without timestamp.txt, and a notebook replaced in an
    on-time submission after the due date."""
    from nbgrader.api import Gradebook
    from nbgrader.coursedir import CourseDirectory

    from puzzlekit.course.late import PerDayPenalty, per_day_penalty
    m, a = machine, "a-times"
    m.release(A, a, "the times assignment")
    m.add_assignment(A, a)
    m.nbgrader(TA, "release_assignment", a)
    honest_on_time, honest_late, rewritten, missing, replaced = OF_A
    all_as(m, [(s, ("fetch_assignment", a)) for s in OF_A])
    outs = all_as(m, [(s, ("submit", a)) for s in OF_A])
    inbound = {s: destination(out) for s, out in zip(OF_A, outs)}
    claims = {s: claim(f) for s, f in inbound.items()}
    ends = {s: last_change(f) for s, f in inbound.items()}

    # the attacks, each by the student in their own folder
    forged = (claims[rewritten] - datetime.timedelta(seconds=300)).strftime(TIME_FORMAT)
    assert m.run(rewritten, ["bash", "-c", f"printf '%s' '{forged}' > "
                             f"'{inbound[rewritten]}/timestamp.txt'"]).returncode == 0
    assert m.run(missing, ["rm", f"{inbound[missing]}/timestamp.txt"]).returncode == 0
    # a student replaces the notebook of their submission (on time: due before that)
    wait_past((ends[replaced] - EPOCH) // datetime.timedelta(microseconds=1) * 1000 + 999,
              m.base / "probe")
    assert m.run(replaced, ["bash", "-c", f"printf '%s' '{notebook('replaced late')}' > "
                            f"'{inbound[replaced]}/{a}.ipynb'"]).returncode == 0
    replaced_at = last_change(inbound[replaced])
    assert replaced_at > ends[replaced]

    # due dates (extensions of one due date): on time, 139 s, 143 s and 60 s late by what
    # each did; the replaced notebook's due date between its submit and its replacement
    due = {honest_on_time: ends[honest_on_time] + datetime.timedelta(hours=1),
           honest_late: claims[honest_late] - datetime.timedelta(seconds=139),
           rewritten: claims[rewritten] - datetime.timedelta(seconds=143),
           missing: claims[missing] - datetime.timedelta(seconds=60),
           replaced: ends[replaced] + (replaced_at - ends[replaced]) / 2}
    base_due = min(due.values()) - datetime.timedelta(hours=1)
    with Gradebook(m.gradebook(A), course_id=A) as gb, warnings.catch_warnings():
        # nbgrader's own code makes the rows with SQLAlchemy's autoflush on (as late.py says)
        warnings.filterwarnings("ignore", message=".*not in session")
        gb.update_or_create_assignment(a, duedate=base_due)
        for s, when in due.items():
            gb.update_or_create_submission(a, s)
            gb.grant_extension(a, s, minutes=(when - base_due).total_seconds() / 60)
    classroom.chown_tree(m.root_of(A), TA)

    def lateness(submitted: str) -> dict[str, tuple[datetime.datetime | None, float]]:
        """(time, seconds late) of each student, as autograde records them (nbgrader's
        CourseDirectory and Gradebook), from `submitted`/ of course A; the gradebook is
        left as it was."""
        cd = CourseDirectory(root=str(m.root_of(A)))
        out = {}
        with Gradebook(m.gradebook(A), course_id=A) as gb:
            for s in due:
                ts = cd.get_existing_timestamp(str(m.root_of(A) / submitted / s / a))
                sub = gb.find_submission(a, s)
                sub.timestamp = ts
                out[s] = (ts, sub.total_seconds_late)
            gb.db.rollback()
        return out

    # before: plain nbgrader's collect takes the students' word
    m.nbgrader(TA, "collect", a, f"--ExchangeFactory.collect={PLAIN['collect']}",
               "--CourseDirectory.submitted_directory=plain-submitted")
    plain = lateness("plain-submitted")
    assert plain[rewritten][1] == 0 and plain[missing] == (None, 0), plain
    assert plain[replaced][1] == 0 and plain[honest_late][1] == pytest.approx(139, abs=1e-3)

    # after: the course's collect
    log = m.nbgrader(TA, "collect", a)
    after = lateness("submitted")
    # each time is the exchange's: exactly the last change the test measured itself
    assert after[honest_on_time] == (ends[honest_on_time], 0)
    assert after[honest_late][0] == ends[honest_late]
    assert after[rewritten][0] >= ends[rewritten] and after[missing][0] >= ends[missing]
    assert after[replaced][0] == replaced_at
    # ... and the late policy applies to it: an honest late submission keeps its penalty
    policy = PerDayPenalty(penalty_method="per_day", points_per_day=1.0, max_points=5.0)
    assert after[honest_late][1] >= 139
    assert policy.late_submission_penalty(honest_late, 10.0, after[honest_late][1]) == \
        per_day_penalty(139, 1.0, 5.0, 10.0) == 1.0
    assert after[rewritten][1] >= 143
    assert after[missing][1] >= 60
    assert after[replaced][1] > 0
    for s in (rewritten, missing, replaced):
        assert policy.late_submission_penalty(s, 10.0, after[s][1]) == 1.0

    # the late report and the log flag the three, and only them
    import csv
    with open(m.root_of(A) / "late-reports" / f"{a}.csv", newline="") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    assert set(rows) == set(due), rows
    assert rows[honest_on_time]["flags"] == rows[honest_late]["flags"] == ""
    assert rows[honest_on_time]["late_by_s"] == "0.0"
    assert "timestamp.txt was written" in rows[rewritten]["flags"]
    assert "late by the exchange's time" in rows[rewritten]["flags"]
    assert rows[rewritten]["timestamp_txt_utc"] == forged
    assert "no timestamp.txt" in rows[missing]["flags"]
    assert f"{a}.ipynb was changed" in rows[replaced]["flags"]
    assert float(rows[rewritten]["late_by_s"]) >= 143
    flagged = re.findall(r"(pkx-s\d)'s submission of a-times: ", log)
    assert sorted(flagged) == sorted([rewritten, missing, replaced]), log
    assert "graded from the exchange's time" in log
    collected = (m.root_of(A) / "submitted" / replaced / a / f"{a}.ipynb").read_text()
    assert "replaced late" in collected


# ------------------------------------------------------------------------ one student

ESCAPES = "\x1b[2J\x1b[1;31mPWNED\x07"


def test_one_student_cannot_stop_the_class_collect_or_feedback(machine: Machine):
    """A malformed folder, an unreadable one, a name with a terminal's escape codes and an
    emptied feedback secret: each costs only its own student."""
    m, a = machine, "a-class"
    honest = (S3, S4)
    m.release(A, a, "the class assignment")
    m.add_assignment(A, a)
    m.nbgrader(TA, "release_assignment", a)
    all_as(m, [(s, ("fetch_assignment", a)) for s in (S1, S3, S4)])
    # S4 hands in a file whose name clears the instructor's screen
    assert m.run(S4, ["bash", "-c", f"echo x > '{a}/{ESCAPES}.txt'"]).returncode == 0
    outs = all_as(m, [(s, ("submit", a)) for s in (S1, S3, S4)])
    mine = destination(outs[0])
    inbound = mine.parent
    attacks = [
        f"mkdir '{inbound}/{S1}+{a}+not-a-time+x'",
        f"mkdir $'{inbound}/{S1}\\x1b]0;owned\\x07+{a}+2026-01-01 00:00:00.000000 UTC+abc'",
        f"mkdir -m 000 '{inbound}/{S1}+{a}+2020-01-01 00:00:00.000000 UTC+zzz'",
        f"truncate -s 0 '{mine}/submission_secret.txt'",
    ]
    for attack in attacks:
        done = m.run(S1, ["bash", "-c", attack])
        assert done.returncode == 0, (attack, done.stderr)

    # before: plain nbgrader's collect dies at the first malformed name, for everyone
    out = m.nbgrader(TA, "collect", a, f"--ExchangeFactory.collect={PLAIN['collect']}",
                     "--CourseDirectory.submitted_directory=plain-submitted", ok=False)
    assert "not-a-time" in out and not list((m.root_of(A) / "plain-submitted").glob(
        f"*/{a}")), out

    # after: everyone is collected, each bad folder is one clean line
    log = m.nbgrader(TA, "collect", a)
    assert sorted(p.name for p in (m.root_of(A) / "submitted").iterdir()
                  if (p / a).is_dir()) == sorted([S1, *honest])
    assert "\x1b" not in log and "\x07" not in log, repr(log)
    assert f"{S1}+{a}+not-a-time+x: 'not-a-time' in its name is not a time" in log, log
    assert "\\x1b]0;owned\\x07" in log and "its name holds control characters" in log, log
    assert "\\x1b[2J\\x1b[1;31mPWNED\\x07.txt (control characters in its name)" in log, log
    assert "2020-01-01" in log and "Permission denied" in log, log
    assert f"{S1}'s submission of {a}: its submission_secret.txt is empty" in log, log
    assert not [p for p in (m.root_of(A) / "submitted" / S4 / a).iterdir()
                if "PWNED" in p.name]

    # feedback as generate_feedback leaves it: the html, the time and the secret
    for s in (S1, *honest):
        folder = m.root_of(A) / "feedback" / s / a
        folder.mkdir(parents=True)
        (folder / f"{a}.html").write_text(f"<p>feedback for {s}</p>")
        for name in ("timestamp.txt", "submission_secret.txt"):
            shutil.copy(m.root_of(A) / "submitted" / s / a / name, folder / name)
    classroom.chown_tree(m.root_of(A) / "feedback", TA)
    released = m.exchange / A / "feedback"

    # before: plain nbgrader's release stops at the emptied secret (the students after
    # it, in the order of the folder's listing, get nothing)
    out = m.nbgrader(TA, "release_feedback", a,
                     f"--ExchangeFactory.release_feedback={PLAIN['release_feedback']}",
                     ok=False)
    assert "AssertionError" in out, out
    for p in released.iterdir():
        m.run(TA, ["rm", str(p)])
    # after: the others' feedback is released, and they fetch it
    log = m.nbgrader(TA, "release_feedback", a)
    assert f"feedback of {S1} on {a}/{a} not released: its submission_secret.txt is " \
        "empty" in log, log
    assert len(list(released.iterdir())) == len(honest)
    assert all(p.stat().st_mode & 0o777 == 0o644 for p in released.iterdir())
    for s in honest:
        m.nbgrader(s, "fetch_feedback", a)
        got = list((m.home(s) / a / "feedback").glob(f"*/{a}.html"))
        assert len(got) == 1 and f"feedback for {s}" in got[0].read_text()
    m.nbgrader(S1, "fetch_feedback", a)
    assert not list((m.home(S1) / a).glob("feedback/*/*.html"))
