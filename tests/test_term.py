"""A whole term: two courses side by side on one exchange, due dates, extensions, late work
(graded alike by ``nbgrader autograde`` and ``python -m puzzlekit grade``).

Everything runs through nbgrader's own command line, in copies of the repository's course,
with a temporary exchange (no root needed): the course's id and exchange come from the
environment, as an instructor sets them (``PUZZLEKIT_COURSE_ID``, ``PUZZLEKIT_EXCHANGE``).
Students are told apart by ``USER``, which is how nbgrader names a submission's owner.
"""

from __future__ import annotations

import datetime
import getpass
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
BARE_PATH = "/usr/local/bin:/usr/bin:/bin"
ASSIGNMENT = "01-states-and-moves"
GENERATED = ("release", "submitted", "autograded", "feedback", "gradebook.db*", "grades.csv",
             ".ipynb_checkpoints", "__pycache__", ".nbgrader.log")

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]


def copy_course(dest: Path, assignments: tuple[str, ...] = (ASSIGNMENT,)) -> Path:
    """A copy of the repository's course with only `assignments` in source/."""
    shutil.copytree(REPO / "notebooks", dest, ignore=shutil.ignore_patterns(*GENERATED))
    for folder in (dest / "source").iterdir():
        if folder.name not in assignments:
            shutil.rmtree(folder)
    return dest


def make_exchange(path: Path) -> Path:
    path.mkdir(parents=True)
    path.chmod(0o1777)
    return path


def env_of(tmp_path: Path, exchange: Path, course_id: str | None, user: str) -> dict[str, str]:
    home = tmp_path / "home" / user
    home.mkdir(parents=True, exist_ok=True)
    env = {"PATH": f"{VENV_BIN}:{BARE_PATH}", "HOME": str(home), "LANG": "C.UTF-8",
           "USER": user, "LOGNAME": user, "PUZZLEKIT_EXCHANGE": str(exchange)}
    if course_id:
        env["PUZZLEKIT_COURSE_ID"] = course_id
    return env


def nbgrader(*args: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run([str(VENV_BIN / "nbgrader"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{out}"
    return out


def gradebook(course: Path, course_id: str):  # type: ignore[no-untyped-def]
    from nbgrader.api import Gradebook
    return Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id=course_id)


# ---------------------------------------------------------------------------
# 1. Courses side by side


def test_course_settings_come_from_the_environment(monkeypatch, tmp_path):
    from puzzlekit.course_setup import course_settings
    from puzzlekit.errors import PuzzleError
    for name in ("PUZZLEKIT_COURSE_ID", "PUZZLEKIT_COURSE_ROOT", "PUZZLEKIT_EXCHANGE"):
        monkeypatch.delenv(name, raising=False)
    s = course_settings(tmp_path)
    assert (s.course_id, s.root, s.exchange) == ("puzzlekit", str(tmp_path),
                                                 "/srv/nbgrader/exchange")
    monkeypatch.setenv("PUZZLEKIT_COURSE_ID", "ai-101")
    monkeypatch.setenv("PUZZLEKIT_COURSE_ROOT", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("PUZZLEKIT_EXCHANGE", str(tmp_path / "ex"))
    s = course_settings(tmp_path)
    assert (s.course_id, s.root, s.exchange) == ("ai-101", str(tmp_path / "elsewhere"),
                                                 str(tmp_path / "ex"))
    for bad in ("../other", "a b", "x/y", "-x"):
        monkeypatch.setenv("PUZZLEKIT_COURSE_ID", bad)
        with pytest.raises(PuzzleError, match="PUZZLEKIT_COURSE_ID"):
            course_settings(tmp_path)


def test_two_courses_on_one_exchange_never_see_each_other(tmp_path):
    """Two copies of the course, ids ai-101 and ai-202, one exchange, the same assignment
    name in both, and a student taking both courses (nbgrader names a submission after its
    Unix owner, and the course's collect refuses any other name): release, list, fetch,
    submit, collect, autograde. In ai-101 the student hands in the finished notebook, in
    ai-202 the blank release: a submission that crossed over would show in the scores."""
    me = getpass.getuser()
    exchange = make_exchange(tmp_path / "exchange")
    courses = {"ai-101": copy_course(tmp_path / "ai-101"),
               "ai-202": copy_course(tmp_path / "ai-202")}
    for course_id, course in courses.items():
        env = env_of(tmp_path, exchange, course_id, "teacher")
        nbgrader("db", "student", "add", me, cwd=course, env=env)
        nbgrader("generate_assignment", ASSIGNMENT, cwd=course, env=env)
        nbgrader("release_assignment", ASSIGNMENT, cwd=course, env=env)
    assert {p.name for p in exchange.iterdir()} == set(courses)

    senv = env_of(tmp_path, exchange, None, me)
    for course_id, course in courses.items():
        other = next(c for c in courses if c != course_id)
        # the instructor's list: this course's release only
        out = nbgrader("list", cwd=course, env=env_of(tmp_path, exchange, course_id,
                                                      "teacher"))
        assert f"{course_id} {ASSIGNMENT}" in out and other not in out, out
        # the student fetches and submits in each course, from a folder per course
        work = Path(senv["HOME"]) / course_id
        work.mkdir()
        out = nbgrader("list", f"--course={course_id}", f"--Exchange.root={exchange}",
                       cwd=work, env=senv)
        assert course_id in out and other not in out, out
        nbgrader("fetch_assignment", ASSIGNMENT, f"--course={course_id}",
                 f"--Exchange.root={exchange}", cwd=work, env=senv)
        if course_id == "ai-101":   # finished: the model solution
            shutil.copy(course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
                        work / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
        nbgrader("submit", ASSIGNMENT, f"--course={course_id}", f"--Exchange.root={exchange}",
                 cwd=work, env=senv)

    scores = {}
    for course_id, course in courses.items():
        other = next(c for c in courses if c != course_id)
        env = env_of(tmp_path, exchange, course_id, "teacher")
        inbound = nbgrader("list", "--inbound", cwd=course, env=env)
        assert inbound.count(f"{course_id} {me} {ASSIGNMENT}") == 1, inbound
        assert other not in inbound, inbound
        nbgrader("collect", ASSIGNMENT, cwd=course, env=env)
        assert [p.name for p in (course / "submitted").iterdir()] == [me]
        nbgrader("autograde", ASSIGNMENT, cwd=course, env=env)
        with gradebook(course, course_id) as gb:
            subs = gb.assignment_submissions(ASSIGNMENT)
            assert [s.student.id for s in subs] == [me]
            scores[course_id] = (subs[0].code_score, subs[0].max_code_score)
            assert {a.name for a in gb.assignments} == {ASSIGNMENT}
    assert scores["ai-101"][0] == scores["ai-101"][1] > 0      # the finished notebook (its tests)
    assert scores["ai-202"][0] == 0                             # the blank one
