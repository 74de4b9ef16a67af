"""Notebooks handed in through an LMS, brought in by nbgrader's zip_collect with the
course's collector (`puzzlekit.course.lms_uploads`): the names Canvas and Moodle give,
whose each upload is, and what is left out of what students sent, with the reason."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from puzzlekit.course.lms_uploads import (  # noqa: E402
    Student,
    notebook_of,
    plan,
    read_name,
    whose,
)

REPO = Path(__file__).resolve().parents[2]
A = "01-states-and-moves"
NB = f"{A}.ipynb"
NOTEBOOK = json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
ROSTER = [Student("alice", "Alice", "Liddell", "100231"),
          Student("bob", "Bob", "Builder", "100232"), Student("chen", "Wei", "Chen", ""),
          Student("wei1", "Wei", "Wang", ""), Student("wei2", "Wei", "Wang", "")]


def test_canvas_names_are_read_late_and_second_copies_too():
    up = read_name(Path(f"/x/liddellalice_100231_5001_{NB}"))
    assert up is not None and (up.lms, up.name, up.number, up.file, up.order, up.late) == (
        "Canvas", "liddellalice", "100231", NB, 5001, False)
    up = read_name(Path(f"/x/chenwei_LATE_100233_5003_{A}-1.ipynb"))
    assert up is not None and up.late and up.number == "100233" and up.file == f"{A}-1.ipynb"


def test_moodle_names_are_read_flat_and_in_folders():
    up = read_name(Path(f"/x/Alice Liddell_1234567_assignsubmission_file_{NB}"))
    assert up is not None and (up.lms, up.name, up.number, up.file) == (
        "Moodle", "Alice Liddell", "1234567", NB)
    up = read_name(Path(f"/x/Wei Chen_88_assignsubmission_file_/{NB}"))
    assert up is not None and (up.lms, up.name, up.number, up.file) == (
        "Moodle", "Wei Chen", "88", NB)


@pytest.mark.parametrize("name", [NB, f"alice_{NB}", f"Alice Liddell_{NB}",
                                  f"alice smith_1_2_{NB}", "submissions.zip"])
def test_other_names_are_no_lms_s(name):
    assert read_name(Path("/x") / name) is None


def test_only_the_assignments_notebook_is_taken_with_a_browsers_or_canvass_copy_suffix():
    notebooks = [NB]
    for file in (NB, f"{A} (1).ipynb", f"{A}-2.ipynb"):
        assert notebook_of(file, notebooks) == NB
    for file in (f"{A}.pdf", "02-uninformed-search.ipynb", f"../{NB}", f"..%2F{NB}",
                 f"{A}.ipynb.html", "solution.ipynb"):
        assert notebook_of(file, notebooks) is None, file


def test_the_student_is_found_by_lms_user_id_then_canvas_id_then_moodles_full_name():
    canvas = read_name(Path(f"/x/liddellalice_100231_1_{NB}"))
    assert canvas is not None and whose(canvas, ROSTER)[0] == "alice"
    stranger = read_name(Path(f"/x/doejane_100999_1_{NB}"))
    assert stranger is not None and whose(stranger, ROSTER) == (
        "100999", "the Canvas user id (no student has it as lms_user_id)")
    for name in ("Wei Chen", "chen  wei", "WEI CHEN"):
        moodle = read_name(Path(f"/x/{name}_77_assignsubmission_file_{NB}"))
        assert moodle is not None and whose(moodle, ROSTER)[0] == "chen", name
    moodle = read_name(Path(f"/x/Bob Builder_100232_assignsubmission_file_{NB}"))
    assert moodle is not None and whose(moodle, ROSTER)[0] == "bob"


def test_a_moodle_upload_of_no_one_or_of_two_namesakes_is_not_guessed():
    nobody = read_name(Path(f"/x/Jane Doe_77_assignsubmission_file_{NB}"))
    assert nobody is not None
    student, why = whose(nobody, ROSTER)
    assert student is None and "no student of the gradebook" in why and "'Jane Doe'" in why
    assert "this assignment only" in why
    twins = read_name(Path(f"/x/Wei Wang_78_assignsubmission_file_{NB}"))
    assert twins is not None and whose(twins, ROSTER) == (
        None, "2 students of the gradebook are named 'Wei Wang'")
    blind = read_name(Path(f"/x/Participant_79_assignsubmission_file_{NB}"))
    assert blind is not None and whose(blind, ROSTER)[0] is None


def downloads(tmp_path: Path, files: dict[str, str | bytes]) -> list[Path]:
    out = []
    for name, data in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        out.append(path)
    return out


def test_what_students_sent_is_looked_at_and_each_skip_says_why(tmp_path):
    files = downloads(tmp_path, {
        f"liddellalice_100231_1_{NB}": NOTEBOOK,
        f"builderbob_100232_2_{NB}": b"%PDF-1.4 a notebook printed, renamed",
        f"chenwei_100233_3_{A}.pdf": b"%PDF-1.4",
        "doejane_100999_4_notes.ipynb": NOTEBOOK,
        f"evil\x1b[2J_100998_5_{NB}": NOTEBOOK,
        f"bigbob_100997_6_{NB}": NOTEBOOK + " " * 2000,
        f"jsonjoe_100996_7_{NB}": "[1, 2]",
    })
    link = tmp_path / f"linkedlinda_100995_8_{NB}"
    link.symlink_to(REPO / "notebooks" / "source" / A / NB)
    chosen, warnings, notes = plan([*files, link], [NB], ROSTER, max_bytes=1000)
    assert {t.student: t.notebook for t in chosen.values()} == {"alice": NB}
    said = "\n".join(warnings)
    assert f"builderbob_100232_2_{NB}: not a notebook (not JSON)" in said
    assert f"'{A}.pdf' is not a notebook of this assignment ({NB})" in said
    assert "'notes.ipynb' is not a notebook of this assignment" in said
    assert "evil\\x1b[2J" in said and "\x1b" not in said        # shown, not obeyed
    assert "bigbob" in said and "more than the 1,000 a file may have" in said
    assert f"jsonjoe_100996_7_{NB}: not a notebook (JSON without cells)" in said
    assert f"linkedlinda_100995_8_{NB}: not a plain file" in said
    assert len(warnings) == 7
    assert notes == [f"liddellalice_100231_1_{NB}: alice's {NB} (student by lms_user_id 100231)"]


def test_two_uploads_on_canvas_the_later_is_taken_elsewhere_the_student_is_skipped(tmp_path):
    files = downloads(tmp_path, {
        f"liddellalice_100231_5009_{A}-1.ipynb": NOTEBOOK,
        f"liddellalice_100231_5001_{NB}": NOTEBOOK,
        f"Wei Chen_77_assignsubmission_file_{NB}": NOTEBOOK,
        f"Wei Chen_77_assignsubmission_file_{A} (1).ipynb": NOTEBOOK,
        f"builderbob_100232_5002_{NB}": NOTEBOOK,
    })
    chosen, warnings, _ = plan(files, [NB], ROSTER, max_bytes=10**6)
    assert sorted((t.student, t.upload.path.name) for t in chosen.values()) == [
        ("alice", f"liddellalice_100231_5009_{A}-1.ipynb"),
        ("bob", f"builderbob_100232_5002_{NB}")]
    said = "\n".join(warnings)
    assert (f"alice uploaded {NB} 2 times (liddellalice_100231_5001_{NB}, "
            f"liddellalice_100231_5009_{A}-1.ipynb): took liddellalice_100231_5009_{A}-1.ipynb, "
            f"the last uploaded") in said
    assert f"skipped chen: 2 uploads of {NB}" in said and "which is newer" in said


# ---- the real `nbgrader zip_collect`, with the course's config ----------------------

@pytest.fixture(scope="module")
def made_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The course's config and source/, a gradebook with the example roster (made once:
    nbgrader makes a gradebook with its alembic, in a few seconds)."""
    from nbgrader.api import Gradebook
    root = tmp_path_factory.mktemp("made") / "course"
    (root / "source").mkdir(parents=True)
    shutil.copytree(REPO / "notebooks" / "source" / A, root / "source" / A)
    shutil.copy2(REPO / "notebooks" / "nbgrader_config.py", root)
    with pytest.MonkeyPatch.context() as mp:        # alembic is found by name
        mp.setenv("PATH", f"{Path(sys.executable).parent}:{os.environ['PATH']}")
        with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id="puzzlekit") as gb:
            for s in ROSTER:
                gb.add_student(s.id, first_name=s.first_name, last_name=s.last_name,
                               lms_user_id=s.lms_user_id or None)
    return root


def course(made: Path, tmp_path: Path) -> Path:
    root = tmp_path / "course"
    shutil.copytree(made, root)
    return root


def zip_collect(root: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(tmp_path), "PUZZLEKIT_EXCHANGE": str(tmp_path / "ex")}
    env.pop("PUZZLEKIT_COURSE_ROOT", None)
    env.pop("PUZZLEKIT_COURSE_ID", None)
    nbgrader = str(Path(sys.executable).parent / "nbgrader")
    return subprocess.run([nbgrader, "zip_collect", A, *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def lms_zip(path: Path, entries: dict[str, str | bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)


def student_zip() -> bytes:
    """An archive a student uploaded, one entry of which climbs out of its folder."""
    import io
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr(f"../../../../../{NB}", NOTEBOOK)
    return out.getvalue()


@pytest.mark.nbgrader
@pytest.mark.slow
def test_zip_collect_takes_the_class_and_leaves_out_what_it_must_saying_so(made_course, tmp_path):
    root = course(made_course, tmp_path)
    archive = root / "downloaded" / A / "archive"
    lms_zip(archive / "submissions.zip", {
        f"liddellalice_100231_5001_{NB}": NOTEBOOK,
        f"liddellalice_100231_5009_{A}-1.ipynb": NOTEBOOK,        # a second upload: taken
        f"builderbob_100232_5002_{NB}": b"%PDF-1.4",               # not a notebook
        "chenwei_100233_5003_work.zip": student_zip(),             # stays packed
        f"x_.._5004_{NB}": NOTEBOOK,                               # no LMS's name
        f"Eve\x1b[2J_100231_assignsubmission_file_{NB}": NOTEBOOK,  # escape codes
    })
    # an archive whose entry would land outside its folder is left out whole
    lms_zip(archive / "crafted.zip", {f"../../../escaped_100231_1_{NB}": NOTEBOOK})
    (archive / f"linkedlinda_100995_8_{NB}").symlink_to(root / "source" / A / NB)
    (archive / f"Wei Chen_77_assignsubmission_file_{NB}").write_text(NOTEBOOK)

    done = zip_collect(root, tmp_path)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    got = sorted(str(p.relative_to(root)) for p in root.rglob("*.ipynb")
                 if "downloaded" not in p.parts and "source" not in p.parts)
    assert got == [f"submitted/alice/{A}/{NB}", f"submitted/chen/{A}/{NB}"], log
    assert not list(tmp_path.rglob("escaped*")) and not (tmp_path / NB).exists()
    assert "left out the archive" in log and "crafted.zip" in log and "outside" in log
    assert "took liddellalice_100231_5009" in log
    assert "builderbob_100232_5002" in log and "not a notebook (not JSON)" in log
    assert "chenwei_100233_5003_work.zip: 'work.zip' is not a notebook" in log
    assert f"left out {archive}/linkedlinda_100995_8_{NB}: not a plain file" in log
    assert "Eve\\x1b[2J_100231" in log and "control characters in its name" in log
    assert "\x1b" not in log and "Traceback" not in log

    # a second run replaces what the first collected only with --force (nbgrader's rule)
    again = zip_collect(root, tmp_path)
    assert again.returncode != 0 and "--force" in again.stdout + again.stderr
    assert zip_collect(root, tmp_path, "--force").returncode == 0


@pytest.mark.nbgrader
def test_plain_nbgraders_collector_stops_the_whole_class_at_a_second_upload(made_course,
                                                                           tmp_path):
    """What the course's collector is for: nbgrader's own, with the regular expression
    an instructor would write, collects nobody when one student uploaded twice (a test
    fails here when nbgrader changes that, and the guide's words must change too)."""
    root = course(made_course, tmp_path)
    lms_zip(root / "downloaded" / A / "archive" / "submissions.zip", {
        f"liddellalice_100231_5001_{NB}": NOTEBOOK,
        f"liddellalice_100231_5009_{NB}": NOTEBOOK,
        f"builderbob_100232_5002_{NB}": NOTEBOOK})
    regex = r".*/[^/_]*_(?P<student_id>\d+)_\d+_(?P<file_id>[^/]+)"
    done = zip_collect(root, tmp_path,
                       "--ZipCollectApp.collector_plugin=nbgrader.plugins.FileNameCollectorPlugin",
                       f"--FileNameCollectorPlugin.named_regexp={regex}")
    assert done.returncode == 1
    assert "Duplicate submission file. No timestamps for comparison" in done.stdout + done.stderr
    assert not (root / "submitted").exists()
