"""Links and special files in a submission never reach grading (docs/explanation/wall.md, "The
exchange"), through the real pipeline: ``nbgrader collect`` from the exchange's
``inbound/``, ``nbgrader autograde`` and ``python -m puzzlekit grade`` from
``submitted/``, then ``nbgrader generate_feedback``.

The attacks: a notebook that is a symbolic link to the source notebook (the model
solutions and the hidden tests), links to ``gradebook.db`` and to ``/dev/zero``, a hard
link to ``gradebook.db``, a FIFO, a socket, a device node (as root), a link to a folder,
and a submission folder that is itself a link to ``source/<assignment>``. Every command
runs with a 64 MiB file-size limit, so that a regression cannot fill the disk (it fails
instead); the outcomes are read from the files and the gradebook.

`attack_collect` and `attack_autograde` are also run on the code before the fix (see the
report table in docs/explanation/wall.md); here they must show nothing of the instructor's got
through.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "simulated_class"))

import classgrade_course as cc  # noqa: E402
from course_harness import hidden_lines, secret_snippets  # noqa: E402

A = "01-states-and-moves"
STAMP = "2026-01-15 10:00:00.000000 UTC"
FSIZE = 64 << 20
SQLITE = b"SQLite format 3\x00"
RUN_TIMEOUT = 600

pytestmark = [pytest.mark.nbgrader, pytest.mark.slow]


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (FSIZE, FSIZE))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)     # EFBIG, not a kill


def run(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A command of the course's Python, from the course root, under the size limit."""
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep +
               os.environ.get("PATH", ""))
    return subprocess.run([sys.executable, *argv], cwd=root, env=env, text=True,
                          capture_output=True, timeout=RUN_TIMEOUT, preexec_fn=_limited)


def plant(folder: Path, root: Path, notebook_link: bool) -> list[str]:
    """Every hostile entry in `folder`; their names (the ones that must be left out)."""
    nbname = cc.notebook_name(A)
    names = []
    if notebook_link:
        (folder / nbname).symlink_to(root / "source" / A / nbname)
        names.append(nbname)
    (folder / "grades.db").symlink_to(root / "gradebook.db")
    (folder / "zero.bin").symlink_to("/dev/zero")
    (folder / "course").symlink_to(root / "source", target_is_directory=True)
    os.link(root / "gradebook.db", folder / "hard.db")
    os.mkfifo(folder / "pipe.ipynb")
    sock, cwd = socket.socket(socket.AF_UNIX), os.getcwd()
    try:
        os.chdir(folder)            # a socket's path is limited to 107 bytes
        sock.bind("sock")
    finally:
        os.chdir(cwd)
        sock.close()
    names += ["grades.db", "zero.bin", "course", "hard.db", "pipe.ipynb", "sock"]
    if os.geteuid() == 0:
        os.mknod(folder / "zero.dev", 0o666 | stat.S_IFCHR, os.makedev(1, 5))
        names.append("zero.dev")
    return names


def instructors_bytes(root: Path, folder: Path) -> list[str]:
    """Files under `folder` holding the gradebook or the source notebook (their bytes)."""
    source = (root / "source" / A / cc.notebook_name(A)).read_bytes()
    found = []
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            head = path.read_bytes()[:len(source)]
            if head.startswith(SQLITE) or head == source:
                found.append(str(path.relative_to(folder)))
    return found


def folder_bytes(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and
               not p.is_symlink())


def make_course(root: Path) -> Path:
    pool = cc.simulated(A)
    cc.build_course(root, A, {"honest": pool["reference"]},
                    settings={"Execute.timeout": "10"})
    return root


def attack_collect(root: Path, exchange: Path) -> dict[str, Any]:
    """mallory's inbound folder with every entry; eve's folder a link to source/<A>;
    alice honest. `nbgrader collect`; what reached submitted/."""
    inbound = exchange / "puzzlekit" / "inbound"
    inbound.mkdir(parents=True, exist_ok=True)
    inbound.chmod(0o1777)
    pool = cc.simulated(A)
    alice = inbound / f"alice+{A}+{STAMP}+aaaa"
    alice.mkdir()
    import nbformat
    nbformat.write(pool["reference"], alice / cc.notebook_name(A))
    (alice / "timestamp.txt").write_text(STAMP)
    mallory = inbound / f"mallory+{A}+{STAMP}+bbbb"
    mallory.mkdir()
    (mallory / "timestamp.txt").write_text(STAMP)
    names = plant(mallory, root, notebook_link=True)
    (inbound / f"eve+{A}+{STAMP}+cccc").symlink_to(root / "source" / A,
                                                    target_is_directory=True)
    done = run(root, "-m", "nbgrader", "collect", A)
    submitted = root / "submitted"
    return {"returncode": done.returncode, "log": done.stdout + done.stderr,
            "names": names,
            "collected": sorted(p.name for p in submitted.iterdir()) if submitted.exists()
            else [],
            "mallory": sorted(p.name for p in (submitted / "mallory" / A).iterdir())
            if (submitted / "mallory" / A).exists() else None,
            "instructors": instructors_bytes(root, submitted) if submitted.exists() else [],
            "bytes": folder_bytes(submitted) if submitted.exists() else 0}


def plant_submitted(root: Path) -> list[str]:
    """submitted/mallory: the notebook a link to the source one, and every other entry;
    submitted/trudy: an honest notebook and every other entry."""
    import nbformat
    pool = cc.simulated(A)
    names = []
    for student, link in (("mallory", True), ("trudy", False)):
        folder = root / "submitted" / student / A
        folder.mkdir(parents=True)
        (folder / "timestamp.txt").write_text(STAMP)
        if not link:
            nbformat.write(pool["reference"], folder / cc.notebook_name(A))
        names = plant(folder, root, notebook_link=link)
    return names


def outcome(root: Path, done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """Scores, what autograded/ holds, and the hidden tests in the feedback."""
    from nbgrader.api import Gradebook, MissingEntry
    out: dict[str, Any] = {"returncode": done.returncode, "log": done.stdout + done.stderr}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", "puzzlekit") as gb:
        for student in ("honest", "mallory", "trudy"):
            try:
                sub = gb.find_submission(A, student)
                out[student] = (sub.score, sub.max_score)
            except MissingEntry:
                out[student] = None
    autograded = root / "autograded"
    out["instructors"] = instructors_bytes(root, autograded) if autograded.exists() else []
    out["bytes"] = folder_bytes(autograded) if autograded.exists() else 0
    fb = run(root, "-m", "nbgrader", "generate_feedback", A, "--force")
    import html

    import nbformat
    source_nb = nbformat.read(root / "source" / A / cc.notebook_name(A), as_version=4)
    hidden = secret_snippets(source_nb, hidden_lines)
    out["feedback_hidden"] = {}
    for student in ("mallory", "trudy"):
        pages = list((root / "feedback" / student / A).glob("*.html"))
        text = html.unescape("".join(p.read_text(errors="replace") for p in pages))
        out["feedback_hidden"][student] = sum(1 for h in hidden if h in text)
    out["feedback_log"] = fb.stdout + fb.stderr
    return out


def attack_autograde(root: Path, how: str) -> dict[str, Any]:
    plant_submitted(root)
    if how == "nbgrader":
        done = run(root, "-m", "nbgrader", "autograde", A)
    else:
        done = run(root, "-m", "puzzlekit", "grade", A, "--workers", "2")
    return outcome(root, done)


# --------------------------------------------------------------------------- the tests

@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("nbgrader")
    exchange = tmp_path_factory.mktemp("exchange")
    exchange.chmod(0o1777)
    os.environ["PUZZLEKIT_EXCHANGE"] = str(exchange)
    return make_course(tmp_path_factory.mktemp("links") / "base")


def _clone(built: Path, tmp_path: Path) -> Path:
    return cc.clone(built, tmp_path / "course")


def test_collect_takes_plain_files_only(built, tmp_path):
    root = _clone(built, tmp_path)
    got = attack_collect(root, Path(os.environ["PUZZLEKIT_EXCHANGE"]))
    assert got["returncode"] == 0, got["log"][-3000:]
    # alice (honest) and mallory are collected, eve's folder (a link) is refused
    assert got["collected"] == ["alice", "honest", "mallory"], got["log"][-3000:]
    assert "eve" in got["log"] and "symbolic link" in got["log"]
    # of mallory's folder only her plain file came
    assert got["mallory"] == ["timestamp.txt"]
    assert got["instructors"] == []
    assert got["bytes"] < 1 << 20
    for name in got["names"]:                      # the log names every entry left out
        assert f"left out {name} (" in got["log"], name


@pytest.mark.parametrize("how", ["nbgrader", "puzzlekit"])
def test_autograde_grades_what_the_student_wrote(built, tmp_path, how):
    root = _clone(built, tmp_path)
    got = attack_autograde(root, how)
    log = got["log"]
    honest = got["honest"]
    assert honest is not None and honest[0] > 0, log[-3000:]      # the autograded part
    # a notebook that is a link to the source one: not graded from it, 0 points
    assert got["mallory"] == (0.0, honest[1]), log[-3000:]
    # an honest notebook next to the links: exactly what the notebook earns
    assert got["trudy"] == honest, log[-3000:]
    assert got["instructors"] == []                # no gradebook, no source notebook
    assert got["bytes"] < 4 << 20                  # /dev/zero was not copied
    assert got["feedback_hidden"] == {"mallory": 0, "trudy": 0}, got["feedback_log"][-2000:]
    assert "mallory" in log and f"left out {cc.notebook_name(A)} (symbolic link" in log
    for name in ("grades.db", "zero.bin", "hard.db", "pipe.ipynb", "course"):
        assert f"trudy's submission ({A}, autograde): left out {name} (" in log, name
