"""The guide's "Run a term" and LMS pages, run as written.

Every shell block of the guide's term pages (docs/how-to/run-a-term.md, then lms.md) marked ``<!-- guide-test: term-... -->`` runs
here, verbatim and in the guide's order, in a fresh copy of the repository's course, from
a plain system PATH and a home of its own (no root needed: the exchange is in that home).
Between the blocks the test does what the guide leaves to people: two students fetch and
submit through the exchange, alice 26 hours after the due date, bob as late but within his
extension. A submission's time is the exchange's (the clock's, when its files changed:
puzzlekit.course.handed_in), which nobody sets back, not even this test: the due date is
moved instead, to 26 hours before they submit.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TERM_PAGES = [REPO / "docs" / "how-to" / "run-a-term.md", REPO / "docs" / "how-to" / "lms.md"]
VENV_BIN = Path(sys.executable).parent
BARE_PATH = "/usr/local/bin:/usr/bin:/bin"
ASSIGNMENT = "01-states-and-moves"
GENERATED = ("release", "submitted", "autograded", "feedback", "gradebook.db*", "*.csv",
             ".ipynb_checkpoints", "__pycache__", ".nbgrader.log")
TERM_BLOCKS = ("term-setup", "term-second-course", "term-release", "term-extend",
               "term-late", "term-export")

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]


def term_text() -> str:
    return "\n".join(page.read_text() for page in TERM_PAGES)


def term_blocks() -> dict[str, str]:
    found = re.findall(r"<!-- guide-test: (term-\S+) -->\n```bash\n(.*?)```", term_text(), re.S)
    return dict(found)


def test_the_term_pages_mark_their_commands_in_order():
    assert list(term_blocks()) == list(TERM_BLOCKS)
    assert "LTI 1.3" in term_text()


def run_block(name: str, repo: Path, env: dict[str, str]) -> str:
    """Run the guide's block `name` in bash from the repository copy, as written (the
    reader activated the venv in the first block, and still has it)."""
    block = f"source {repo}/.venv/bin/activate\n" + term_blocks()[name]
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=900)
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"the guide's block {name!r} failed:\n{block}\n{out}"
    return out


def submit(student: str, work: Path, exchange: Path, env: dict[str, str]) -> Path:
    """A student fetches the release, hands in the finished notebook; its inbound folder."""
    work.mkdir(parents=True)
    senv = {**env, "PATH": f"{VENV_BIN}:{BARE_PATH}"}
    base = [str(VENV_BIN / "nbgrader")]
    course = ["--course=ai-101", f"--Exchange.root={exchange}"]
    for step in (["fetch_assignment", ASSIGNMENT], ["submit", ASSIGNMENT, f"--student={student}"]):
        if step[0] == "submit":
            shutil.copy(REPO / "notebooks" / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
                        work / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
        done = subprocess.run([*base, *step, *course], cwd=work, env=senv,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    [handed_in] = (exchange / "ai-101" / "inbound").glob(f"{student}+{ASSIGNMENT}+*")
    return handed_in


def rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def test_running_a_term_as_written(tmp_path):
    pytest.importorskip("nbgrader")
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copytree(REPO / "notebooks", repo / "notebooks",
                    ignore=shutil.ignore_patterns(*GENERATED))
    (repo / ".venv").symlink_to(VENV_BIN.parent)
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": BARE_PATH, "HOME": str(home), "LANG": "C.UTF-8"}
    course = repo / "notebooks"
    exchange = home / "exchange"

    run_block("term-setup", repo, env)
    assert oct(exchange.stat().st_mode & 0o7777) == "0o1777"

    out = run_block("term-second-course", repo, env)
    assert "ai-101" not in out and "ai-202" in (home / "ai-202.env").read_text()

    out = run_block("term-release", repo, env)
    assert f"ai-101 {ASSIGNMENT}" in out, out
    assert (exchange / "ai-101" / "outbound" / ASSIGNMENT).is_dir()

    out = run_block("term-extend", repo, env)
    assert "extension granted" in out
    assert f"{ASSIGNMENT}\tbob\t+3 days\tdue 2026-11-05 17:00 UTC" in out, out

    alice = submit("alice", home / "alice", exchange, env)
    submit("bob", home / "bob", exchange, env)
    from nbgrader.api import Gradebook

    from puzzlekit.course.handed_in import from_ns, last_change
    # alice 26 h late (a day and a part of one: 2 points), bob within his 3 days
    due = from_ns(last_change(alice)[0]) - datetime.timedelta(hours=25, minutes=30)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id="ai-101") as gb:
        gb.update_or_create_assignment(ASSIGNMENT, duedate=due)
    out = run_block("term-late", repo, env)
    assert f"{ASSIGNMENT}: 2 graded" in out, out
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id="ai-101") as gb:
        got = {s.student.id: (s.score, s.late_submission_penalty)
               for s in gb.assignment_submissions(ASSIGNMENT)}
    full = got["bob"][0]
    assert full > 0 and got == {"alice": (full, 2.0), "bob": (full, 0.0)}, got
    feedback = course / "feedback" / "alice" / ASSIGNMENT / f"{ASSIGNMENT}.html"
    assert "Submitted 26 h late" in feedback.read_text()
    assert "−2 points" in feedback.read_text()
    bobs = (course / "feedback" / "bob" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "Submitted" not in bobs

    run_block("term-export", repo, env)
    canvas = rows(course / "canvas-grades.csv")
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", ASSIGNMENT]
    marks = {r[3]: r[5] for r in canvas[2:]}
    mark = f"{full:g}"
    assert marks == {"alice": f"{full - 2:g}", "bob": mark}, canvas
    moodle = rows(course / "moodle-grades.csv")
    assert {r[0]: (r[2], r[5]) for r in moodle[1:]} == {
        "alice": ("alice@uni.example", f"{full - 2:g}"), "bob": ("bob@uni.example", mark)}
    blackboard = rows(course / "blackboard-grades.csv")
    assert {r[2]: r[4] for r in blackboard[1:]} == {"alice": f"{full - 2:g}", "bob": mark}
    wide = rows(course / "grades-wide.csv")
    assert [r[0] for r in wide[1:]] == ["alice", "bob"] and wide[0][4:] == [ASSIGNMENT]

    # the second course saw nothing of the first: no submission, no grades, no release
    with Gradebook(f"sqlite:///{home / 'ai-202' / 'gradebook.db'}", course_id="ai-202") as gb:
        assert [s.id for s in gb.students] == ["carol"] and not gb.assignments
    assert sorted(p.name for p in exchange.iterdir()) == ["ai-101"]
