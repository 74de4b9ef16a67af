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

REPO = Path(__file__).resolve().parents[2]
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
    from puzzlekit.course.course_setup import course_settings
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


def test_a_wrong_course_id_stops_nbgrader(tmp_path):
    """traitlets logs an error in a config file and goes on without it (without the wall):
    a course id nbgrader cannot use stops the command instead, naming the variable."""
    course = copy_course(tmp_path / "course")
    env = env_of(tmp_path, tmp_path / "exchange", "ai 101/x", "teacher")
    done = subprocess.run([str(VENV_BIN / "nbgrader"), "db", "student", "list"], cwd=course,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "PUZZLEKIT_COURSE_ID='ai 101/x' is not a course id" in done.stderr, done.stderr
    assert not (course / "gradebook.db").exists()


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


# ---------------------------------------------------------------------------
# 2. Due dates, extensions, late work

DUE = datetime.datetime(2026, 11, 2, 17, 0, tzinfo=datetime.timezone.utc)
#: when each student handed in: on time, 26 h late, 26 h late with a 2-day extension
HANDED_IN = {"ontime": DUE - datetime.timedelta(hours=1),
             "late": DUE + datetime.timedelta(hours=26),
             "extended": DUE + datetime.timedelta(hours=26)}
PER_DAY = "--LateSubmissionPlugin.penalty_method=per_day"


def puzzlekit(*args: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "puzzlekit", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"python -m puzzlekit {' '.join(args)} failed:\n{out}"
    return out


def scores_and_penalties(course: Path, course_id: str) -> dict[str, tuple[float, float]]:
    with gradebook(course, course_id) as gb:
        return {s.student.id: (s.code_score, s.late_submission_penalty)
                for s in gb.assignment_submissions(ASSIGNMENT) if s.timestamp}


@pytest.fixture(scope="module")
def late_course(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A course with a due date for assignment 01, three students who handed in the model
    solution on time, 26 h late, and 26 h late with a 2-day extension."""
    tmp = tmp_path_factory.mktemp("term")
    course = copy_course(tmp / "term-101")
    env = env_of(tmp, make_exchange(tmp / "exchange"), "term-101", "teacher")
    for student in HANDED_IN:
        nbgrader("db", "student", "add", student, cwd=course, env=env)
    nbgrader("generate_assignment", ASSIGNMENT, cwd=course, env=env)
    nbgrader("db", "assignment", "add", ASSIGNMENT, f"--duedate={DUE:%Y-%m-%d %H:%M:%S} UTC",
             cwd=course, env=env)
    for student, when in HANDED_IN.items():
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        shutil.copy(course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", folder)
        # what nbgrader collect writes: the time the student submitted
        (folder / "timestamp.txt").write_text(f"{when:%Y-%m-%d %H:%M:%S.%f} UTC")
    out = puzzlekit("extend", ASSIGNMENT, "extended", "--days", "2", cwd=course, env=env)
    assert "extension granted" in out and "+2 days" in out, out
    return course, env


def test_an_extension_is_recorded_in_the_gradebook(late_course):
    course, env = late_course
    out = puzzlekit("extend", "--list", cwd=course, env=env)
    assert out.splitlines() == [f"{ASSIGNMENT}\textended\t+2 days\tdue 2026-11-04 17:00 UTC"]
    with gradebook(course, "term-101") as gb:
        sub = gb.find_submission(ASSIGNMENT, "extended")
        assert sub.extension == datetime.timedelta(days=2)
        assert sub.duedate == (DUE + datetime.timedelta(days=2)).replace(tzinfo=None)
    done = subprocess.run([sys.executable, "-m", "puzzlekit", "extend", ASSIGNMENT, "nobody",
                           "--days", "1"], cwd=course, env=env, capture_output=True, text=True)
    assert done.returncode == 2 and "no student 'nobody'" in done.stderr, done.stderr
    done = subprocess.run([sys.executable, "-m", "puzzlekit", "extend", "no-such", "late",
                           "--days", "1"], cwd=course, env=env, capture_output=True, text=True)
    assert done.returncode == 2 and "no assignment 'no-such'" in done.stderr, done.stderr


def test_late_work_is_graded_alike_by_nbgrader_and_puzzlekit(late_course):
    """The per-day policy (1 point per started day, at most 5): nbgrader autograde and
    python -m puzzlekit grade, both given it as nbgrader's command-line option, leave the
    same scores and penalties; the late student's feedback says what lateness cost."""
    course, env = late_course
    nbgrader("autograde", ASSIGNMENT, PER_DAY, cwd=course, env=env)
    by_nbgrader = scores_and_penalties(course, "term-101")
    full = by_nbgrader["ontime"][0]
    assert full > 0
    # on time: none; 26 h late: 2 started days, 2 points; extended past 26 h: none
    assert by_nbgrader == {"ontime": (full, 0.0), "late": (full, 2.0),
                           "extended": (full, 0.0)}, by_nbgrader

    out = puzzlekit("grade", ASSIGNMENT, "--force", "--workers", "2", PER_DAY,
                    cwd=course, env=env)
    assert f"{ASSIGNMENT}: 3 graded" in out, out
    assert scores_and_penalties(course, "term-101") == by_nbgrader

    nbgrader("generate_feedback", ASSIGNMENT, cwd=course, env=env)
    late = (course / "feedback" / "late" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "Submitted 26 h late" in late and "−2 points" in late
    assert "due Mon 02 Nov 2026 17:00 UTC" in late
    assert "Late submission penalty (Score: -2.0)" in late        # nbgrader's own line
    for student in ("ontime", "extended"):
        html = (course / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
        assert " late**" not in html and "Submitted" not in html and "penalty (Score" not in html


def test_puzzlekit_grade_takes_nbgrader_options(late_course):
    """--LateSubmissionPlugin.penalty_method=zero reaches the grading: the late notebook
    scores 0 (its penalty is its whole score), the others keep theirs."""
    course, env = late_course
    puzzlekit("grade", ASSIGNMENT, "--force", "--student", "late", "--student", "ontime",
              "--LateSubmissionPlugin.penalty_method=zero", cwd=course, env=env)
    got = scores_and_penalties(course, "term-101")
    full = got["ontime"][0]
    assert got["late"] == (full, full) and got["ontime"] == (full, 0.0)
    done = subprocess.run([sys.executable, "-m", "puzzlekit", "grade", ASSIGNMENT, "--frobnicate"],
                          cwd=course, env=env, capture_output=True, text=True)
    assert done.returncode == 2 and "unrecognized arguments: --frobnicate" in done.stderr
    assert "--Class.trait=value" in done.stderr


def test_the_formgraders_autograde_applies_the_course_policy(late_course, monkeypatch):
    """The formgrader's Autograde button calls NbGraderAPI.autograde with the course's
    config: a policy set in the config (here per_day, as the guide's line sets it)
    applies there as in the two commands (after the run with zero above, the late
    notebook is back to its 2-point penalty)."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader
    course, env = late_course
    for name in ("PUZZLEKIT_COURSE_ID", "PUZZLEKIT_EXCHANGE", "PATH"):
        monkeypatch.setenv(name, env[name])
    monkeypatch.chdir(course)
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.LateSubmissionPlugin.penalty_method = "per_day"
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    result = api.autograde(ASSIGNMENT, "late", force=True, create=True)
    assert result["success"], result
    got = scores_and_penalties(course, "term-101")
    assert got["late"] == (got["ontime"][0], 2.0), got


def test_per_day_penalty_rule():
    from puzzlekit.course.late import late_text, per_day_penalty
    H = 3600.0
    assert per_day_penalty(0, 1, 5, 10) == 0
    assert per_day_penalty(1, 1, 5, 10) == 1            # a second late is a started day
    assert per_day_penalty(24 * H, 1, 5, 10) == 1
    assert per_day_penalty(26 * H, 1, 5, 10) == 2
    assert per_day_penalty(30 * 24 * H, 1, 5, 10) == 5  # the cap
    assert per_day_penalty(30 * 24 * H, 1, None, 3) == 3  # never more than the score
    assert per_day_penalty(26 * H, 0.5, None, 10) == 1
    assert [late_text(s) for s in (59, 26 * H, 50 * H, 72 * H)] == \
        ["1 min", "26 h", "2 days 2 h", "3 days"]
    assert late_text(86400) == "1 day"


def test_only_grade_takes_nbgrader_options(capsys):
    from puzzlekit.cli import main
    with pytest.raises(SystemExit) as e:
        main(["solve", "board.txt", "--LateSubmissionPlugin.penalty_method=zero"])
    assert e.value.code == 2
    assert "unrecognized arguments: --LateSubmissionPlugin" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["grade", "01", "--LateSubmissionPlugin.penalty_method"])   # no value
    assert e.value.code == 2 and "--Class.trait=value" in capsys.readouterr().err
    assert main(["extend", "--course-root", "/nonexistent-course"]) == 2
    assert "no course folder" in capsys.readouterr().err


def test_validate_shows_the_kits_messages_uncut(late_course):
    """`nbgrader validate` cuts each line at `Validator.width`: the course's config makes
    it wide enough for the kit's messages (before, "... is not defined yet: the exercise
    that defines `goal` is abov...")."""
    course, env = late_course
    out = nbgrader("validate", f"release/{ASSIGNMENT}/{ASSIGNMENT}.ipynb", cwd=course, env=env)
    assert "VALIDATION FAILED" in out and "not written yet" in out, out
    cut = [line for line in out.splitlines() if line.rstrip().endswith("...")]
    assert cut == [], "\n".join(cut)


def test_the_late_note_takes_the_feedbacks_display_options_quietly(caplog):
    """nbgrader's feedback configures `display_data_priority` for its preprocessors:
    traitlets warned, once per notebook, that the late note took no such option."""
    from traitlets.config import Config

    from puzzlekit.course.late import LateNote
    config = Config()
    config.NbConvertBase.display_data_priority = ["text/html", "text/plain"]
    with caplog.at_level("WARNING"):
        note = LateNote(config=config)
    assert note.display_data_priority == ["text/html", "text/plain"]
    assert not [r for r in caplog.records if "not recognized" in r.getMessage()]


def test_autograde_logs_only_what_the_instructor_can_act_on(late_course):
    """`nbgrader autograde` with the course's config: a notebook handed in as released
    gives no "checksum has changed" line (before: one per test cell with hidden tests,
    9 for assignment 01) and no SQLAlchemy SAWarning (before: 3, six lines); a locked
    test cell the student changed is still reported. (No timestamp: these submissions
    stay out of the other tests' scores.)"""
    course, env = late_course
    released = course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    for student in ("q-plain", "q-edited"):
        nbgrader("db", "student", "add", student, cwd=course, env=env)
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nb = json.loads(released.read_text())
        if student == "q-edited":
            cell = next(c for c in nb["cells"]
                        if c["metadata"].get("nbgrader", {}).get("grade_id") == "goal_tests")
            cell["source"] = "".join(cell["source"]) + "\nassert True"
        (folder / released.name).write_text(json.dumps(nb))
    out = nbgrader("autograde", ASSIGNMENT, "--student=q-*", cwd=course, env=env)
    checksum = [line for line in out.splitlines() if "checksum" in line]
    assert len(checksum) == 1 and "goal_tests" in checksum[0], out
    assert "SAWarning" not in out and "not in session" not in out, out
    assert [line for line in out.splitlines() if "WARNING" in line] == checksum, out
