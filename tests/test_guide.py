"""The instructor's guide, run as written.

Every shell block of the guide (docs/, any page) that follows a ``<!-- guide-test: NAME -->`` line
runs here, verbatim, in a fresh copy of the repository's course (``sudo`` dropped, since
the test runs as root), from a plain system PATH. Between the blocks the test does what
the guide leaves to people: the students' CSV file, a returned notebook, a student who
fetches and submits through the exchange.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from guide_pages import marked_blocks

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
BARE_PATH = "/usr/local/bin:/usr/bin:/bin"
ASSIGNMENT = "01-states-and-moves"
GENERATED = ("release", "submitted", "autograded", "feedback", "gradebook.db*", "grades.csv",
             "downloaded", ".ipynb_checkpoints", "__pycache__")

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]


def guide_blocks() -> dict[str, str]:
    return marked_blocks("guide-test")


def test_the_guide_marks_its_commands():
    blocks = guide_blocks()
    assert set(blocks) >= {"students", "generate", "grade", "grade-class", "exchange", "release",
                           "collect", "handin-browser"}
    for name, block in blocks.items():
        assert block.strip(), name


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A copy of the repository as a fresh clone has it: the course, the Makefile, the venv."""
    pytest.importorskip("nbgrader")
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copytree(REPO / "notebooks", root / "notebooks",
                    ignore=shutil.ignore_patterns(*GENERATED))
    shutil.copy2(REPO / "Makefile", root / "Makefile")
    (root / "deploy").mkdir()
    shutil.copytree(REPO / "deploy" / "hub", root / "deploy" / "hub",
                    ignore=shutil.ignore_patterns("roster.csv", "roster-*.csv", "__pycache__"))
    (root / ".venv").symlink_to(VENV_BIN.parent)
    return root


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {"PATH": BARE_PATH, "HOME": str(home), "LANG": "C.UTF-8",
           "PUZZLEKIT_EXCHANGE": str(tmp_path / "exchange")}
    env.update(extra)
    return env


def run_block(name: str, cwd: Path, env: dict[str, str], *, check: bool = True) -> str:
    """Run the guide's block `name` in bash, as written (without `sudo` when root)."""
    block = guide_blocks()[name]
    if os.geteuid() == 0:
        block = re.sub(r"^sudo ", "", block, flags=re.M)
    elif re.search(r"^sudo ", block, re.M):
        pytest.skip("the guide's block needs root")
    if "source " not in block:
        # the guide's reader activated the venv in the first block, and still has it
        root = cwd.parent if cwd.name == "notebooks" else cwd
        block = f"source {root}/.venv/bin/activate\n" + block
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)
    output = done.stdout + done.stderr
    if check:
        assert done.returncode == 0, f"the guide's block {name!r} failed:\n{block}\n{output}"
    return output


def gradebook_tables(db: Path) -> set[str]:
    with sqlite3.connect(db) as con:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def test_the_one_machine_routine_runs_as_written(repo, tmp_path):
    course = repo / "notebooks"
    env = environment(tmp_path)
    # the example roster the guide offers, as an instructor starts from it
    shutil.copy(REPO / "docs" / "students.example.csv", course / "students.csv")
    run_block("students", repo, env)
    assert "alembic_version" in gradebook_tables(course / "gradebook.db")
    with sqlite3.connect(course / "gradebook.db") as con:
        assert dict(con.execute("SELECT id, lms_user_id FROM student")) == {
            "alice": "100231", "bob": "100232", "chen": "100233"}

    out = run_block("generate", course, env)
    assert (course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").is_file()
    assert "`findZero` is not written yet" in out and "not defined yet" in out
    assert "Traceback" not in out, "the release's validation shows tracebacks"

    submitted = course / "submitted" / "alice" / ASSIGNMENT
    submitted.mkdir(parents=True)
    shutil.copy(course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", submitted)
    run_block("grade", course, env)
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id="puzzlekit") as gb:
        graded = gb.find_submission(ASSIGNMENT, "alice")
        score, max_score = graded.code_score, graded.max_code_score
    assert score == max_score > 0
    assert list((course / "feedback" / "alice" / ASSIGNMENT).glob("*.html"))
    assert "alice" in (course / "grades.csv").read_text()

    # the same again in parallel (--force): the same score, said in one line
    out = run_block("grade-class", repo, env)
    assert f"{ASSIGNMENT}: 1 graded" in out, out
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id="puzzlekit") as gb:
        assert gb.find_submission(ASSIGNMENT, "alice").code_score == score


def browser_download(course: Path, share: float) -> str:
    """The student version (release/) as a student downloads it from the browser, with
    the first `share` of its code exercises answered by the model solution (source/)."""
    import json
    name = f"{ASSIGNMENT}.ipynb"
    model = json.loads((course / "source" / ASSIGNMENT / name).read_text(encoding="utf-8"))
    answers = {c["metadata"]["nbgrader"]["grade_id"]: c["source"] for c in model["cells"]
               if c.get("metadata", {}).get("nbgrader", {}).get("solution")}
    nb = json.loads((course / "release" / ASSIGNMENT / name).read_text(encoding="utf-8"))
    stubs = [c for c in nb["cells"] if c["cell_type"] == "code"
             and c.get("metadata", {}).get("nbgrader", {}).get("solution")]
    assert len(stubs) >= 10
    for cell in stubs[:round(len(stubs) * share)]:
        cell["source"] = answers[cell["metadata"]["nbgrader"]["grade_id"]]
    return json.dumps(nb)


def test_uploads_from_the_browser_are_collected_and_graded_as_written(repo, tmp_path):
    """Three students hand in from the browser through Canvas (a model answer, half the
    exercises, nothing): the how-to's block takes Canvas's zip in with nbgrader's
    zip_collect and grades it; the marks are read from the gradebook."""
    import zipfile

    from nbgrader.api import Gradebook
    course = repo / "notebooks"
    env = environment(tmp_path)
    shutil.copy(REPO / "docs" / "students.example.csv", course / "students.csv")
    run_block("students", repo, env)       # the roster, with each student's lms_user_id
    done = subprocess.run([str(VENV_BIN / "nbgrader"), "generate_assignment", ASSIGNMENT],
                          cwd=course, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    downloads = Path(env["HOME"]) / "Downloads"
    downloads.mkdir()
    with zipfile.ZipFile(downloads / "submissions.zip", "w") as z:  # as Canvas names them
        z.writestr(f"liddellalice_100231_5001_{ASSIGNMENT}.ipynb", browser_download(course, 1))
        z.writestr(f"builderbob_100232_5002_{ASSIGNMENT} (1).ipynb",
                   browser_download(course, 0.5))
        z.writestr(f"chenwei_LATE_100233_5003_{ASSIGNMENT}.ipynb", browser_download(course, 0))
    out = run_block("handin-browser", repo, env)
    assert "marked LATE by Canvas" in out, out
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id="puzzlekit") as gb:
        marks = {s: gb.find_submission(ASSIGNMENT, s).code_score for s in ("alice", "bob", "chen")}
        top = gb.find_submission(ASSIGNMENT, "alice").max_code_score
    assert top > 0 and marks["alice"] == top, marks
    assert 0 < marks["bob"] < top, marks
    assert marks["chen"] == 0, marks


def test_the_exchange_is_made_once_and_checked(repo, tmp_path):
    course = repo / "notebooks"
    env = environment(tmp_path)
    exchange = Path(env["PUZZLEKIT_EXCHANGE"])
    run_block("generate", course, env)

    # nbgrader would make a missing exchange itself, world-writable: here it is refused
    out = run_block("release", repo, env, check=False)
    assert "does not exist" in out and "sudo make exchange" in out, out
    assert not exchange.exists()

    run_block("exchange", repo, env)
    assert stat.S_IMODE(exchange.stat().st_mode) == 0o1777
    # and the course's folders in it, yours (here: root's, who ran it), before any release
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (exchange / "puzzlekit").iterdir()}
    assert modes == {"outbound": 0o755, "inbound": 0o2733, "feedback": 0o711}, modes
    assert (exchange / "puzzlekit").stat().st_uid == os.getuid()
    out = run_block("release", repo, env)
    assert (exchange / "puzzlekit" / "outbound" / ASSIGNMENT).is_dir()
    assert ASSIGNMENT in out

    student = tmp_path / "student"
    student.mkdir()
    senv = {**env, "PATH": f"{VENV_BIN}:{BARE_PATH}"}
    for step in (["fetch_assignment", ASSIGNMENT], ["submit", ASSIGNMENT]):
        # a student's nbgrader finds the exchange in the machine's nbgrader config
        # (/etc/jupyter/nbgrader_config.py, see the guide): here on its command line
        done = subprocess.run([str(VENV_BIN / "nbgrader"), *step, "--course", "puzzlekit",
                               f"--Exchange.root={exchange}"],
                              cwd=student, env=senv, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    run_block("collect", course, env)
    me = os.environ.get("USER") or __import__("pwd").getpwuid(os.getuid()).pw_name
    assert (course / "submitted" / me / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").is_file()


def test_a_half_made_gradebook_is_repaired(repo, tmp_path):
    """An older run without nbgrader's programs on PATH left the tables but no version."""
    pytest.importorskip("nbgrader")
    from nbgrader.api import Base
    from sqlalchemy import create_engine

    course = repo / "notebooks"
    engine = create_engine(f"sqlite:///{course / 'gradebook.db'}")
    Base.metadata.create_all(bind=engine)
    engine.dispose()
    assert "alembic_version" not in gradebook_tables(course / "gradebook.db")

    env = environment(tmp_path)
    nbgrader = str(VENV_BIN / "nbgrader")
    done = subprocess.run([nbgrader, "db", "upgrade"], cwd=course, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "left half made by an earlier run" in done.stderr
    assert "alembic_version" in gradebook_tables(course / "gradebook.db")
    done = subprocess.run([nbgrader, "db", "student", "list"], cwd=course, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "half made" not in done.stderr, done.stderr


def test_make_lab_serves_the_formgrader_from_a_bare_path(repo, tmp_path):
    """`make lab` as a new instructor types it, with a plain system PATH: the formgrader
    answers HTTP 200 with every assignment, the gradebook is fully made (alembic ran),
    JupyterLab asks nobody about Jupyter news, and Notebook 7's one-column pages (a phone)
    are served too and named."""
    import json
    import signal
    import socket
    import time
    import urllib.error
    import urllib.request

    if not (VENV_BIN.parent / ".installed").exists():
        pytest.skip("make lab needs the venv that make test made (.venv/.installed)")
    shutil.copy2(REPO / "pyproject.toml", repo / "pyproject.toml")
    os.utime(repo / "pyproject.toml", (0, 0))       # older than the venv's stamp: no reinstall
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    token = "guide-test-token"
    env = environment(tmp_path, JUPYTER_TOKEN=token,
                      JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
                      JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"))
    log = tmp_path / "make-lab.log"
    with open(log, "wb") as out:
        lab = subprocess.Popen(["make", "lab", f"PORT={port}", "IP=127.0.0.1", "BROWSER=0"],
                               cwd=repo, env=env, stdout=out, stderr=subprocess.STDOUT,
                               start_new_session=True)

    def get(path: str) -> tuple[int, bytes]:
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                         headers={"Authorization": f"token {token}"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if get("/api/status")[0] == 200:
                    break
            except OSError:
                pass
            assert lab.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.5)
        status, body = get("/formgrader/api/assignments")
        assert status == 200, body[:2000]
        listed = {a["name"] for a in json.loads(body)}
        sources = {p.name for p in (repo / "notebooks" / "source").iterdir() if p.is_dir()}
        assert listed == sources, listed
        assert "alembic_version" in gradebook_tables(repo / "notebooks" / "gradebook.db")
        status, body = get("/lab/api/settings/@jupyterlab/apputils-extension:notification")
        assert status == 200, body[:2000]
        defaults = json.loads(body)["schema"]["properties"]
        assert defaults["fetchNews"]["default"] == "false", defaults["fetchNews"]
        assert defaults["checkForUpdates"]["default"] is False
        printed = log.read_text(errors="replace")
        assert f"http://127.0.0.1:{port}/lab" in printed, printed
        # a phone's way in: the same server's Notebook 7 pages, named in what make lab says
        assert f"http://127.0.0.1:{port}/tree" in printed, printed
        for page in ("/tree", "/notebooks/demos/01-see-search.ipynb"):
            status, body = get(page)
            assert status == 200 and b"Notebook" in body, (page, status, body[:500])
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        try:
            lab.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, signal.SIGKILL)
            lab.wait()
