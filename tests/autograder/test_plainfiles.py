"""Only plain files cross into grading (puzzlekit.autograder.judge.plainfiles), and a process tree is
stopped whole (puzzlekit.course.workers.proctree). The real pipeline is in test_submission_links.py."""

from __future__ import annotations

import hashlib
import inspect
import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlekit.autograder.judge.plainfiles import (
    Dropped,
    Refused,
    copy_plain_tree,
    guard_autograde_copies,
    ignore_names,
    plain_name,
    report_line,
    shown,
    walk_plain,
)
from puzzlekit.course.workers.proctree import alive, descendants, kill_tree
from puzzlekit.errors import PuzzleError

SECRET = b"the instructor's secret\n"


def _socket(path: Path) -> None:
    cwd = os.getcwd()
    sock = socket.socket(socket.AF_UNIX)
    try:
        os.chdir(path.parent)           # a socket's path is limited to 107 bytes
        sock.bind(path.name)
    finally:
        os.chdir(cwd)
        sock.close()


@pytest.fixture()
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """A submission with plain files and every kind of entry to leave out; the secret
    outside it."""
    secret = tmp_path / "secret.txt"
    secret.write_bytes(SECRET)
    sub = tmp_path / "sub"
    (sub / "data" / "deep").mkdir(parents=True)
    (sub / "answer.ipynb").write_text("{}")
    (sub / "data" / "board.txt").write_text("1 2 3\n")
    (sub / "data" / "deep" / "run.sh").write_text("echo\n")
    (sub / "data" / "deep" / "run.sh").chmod(0o751)
    (sub / "link.ipynb").symlink_to(secret)
    (sub / "inner").symlink_to("answer.ipynb")            # inside: harmless, dropped too
    (sub / "data" / "up").symlink_to(tmp_path, target_is_directory=True)
    (sub / "zero").symlink_to("/dev/zero")
    os.link(secret, sub / "hard.txt")
    os.mkfifo(sub / "fifo")
    _socket(sub / "sock")
    return sub, secret


def test_only_plain_files_and_folders_are_copied(tree, tmp_path):
    sub, _ = tree
    dest = tmp_path / "copy"
    dropped = copy_plain_tree(sub, dest, skip=ignore_names("__pycache__"))
    got = sorted(str(p.relative_to(dest)) for p in dest.rglob("*"))
    assert got == ["answer.ipynb", "data", "data/board.txt", "data/deep", "data/deep/run.sh"]
    assert (dest / "data" / "board.txt").read_text() == "1 2 3\n"
    assert stat.S_IMODE((dest / "data" / "deep" / "run.sh").stat().st_mode) == 0o751
    kinds = {d.path: d.kind for d in dropped}
    assert kinds == {"data/up": "symbolic link", "fifo": "FIFO", "hard.txt": "hard link",
                     "inner": "symbolic link", "link.ipynb": "symbolic link",
                     "sock": "socket", "zero": "symbolic link"}
    assert not any(p.read_bytes() == SECRET for p in dest.rglob("*") if p.is_file())
    assert "to /dev/zero" in str(next(d for d in dropped if d.path == "zero"))


def test_copying_again_replaces_the_earlier_copy(tree, tmp_path):
    sub, _ = tree
    dest = tmp_path / "copy"
    copy_plain_tree(sub, dest)
    (sub / "data" / "board.txt").write_text("4 5 6\n")
    copy_plain_tree(sub, dest)
    assert (dest / "data" / "board.txt").read_text() == "4 5 6\n"


def test_a_copy_is_never_setuid(tmp_path):
    """The grader (root, maybe) makes the copy: a student's setuid bit must not become
    the grader's."""
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "tool").write_text("#!/bin/sh\n")
    (sub / "tool").chmod(0o6755)
    (sub / "shared").mkdir()
    (sub / "shared").chmod(0o3777)
    copy_plain_tree(sub, tmp_path / "copy")
    assert stat.S_IMODE((tmp_path / "copy" / "tool").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "copy" / "shared").stat().st_mode) == 0o777


def test_a_hard_link_the_student_owns_is_theirs(tree, tmp_path):
    sub, secret = tree
    dropped = copy_plain_tree(sub, tmp_path / "copy", owner_uid=secret.stat().st_uid)
    assert "hard.txt" not in {d.path for d in dropped}
    assert (tmp_path / "copy" / "hard.txt").read_bytes() == SECRET


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_a_device_is_left_out(tmp_path):
    sub = tmp_path / "sub"
    sub.mkdir()
    os.mknod(sub / "zero", 0o666 | stat.S_IFCHR, os.makedev(1, 5))
    assert copy_plain_tree(sub, tmp_path / "copy") == [Dropped("zero", "device")]


def test_a_name_with_control_characters_is_left_out_and_shown_escaped(tmp_path):
    """A terminal's escape codes, a bidi override, a bell or a byte that is not UTF-8 in
    a file's name: left out, and every line that names it shows the escapes."""
    sub = tmp_path / "sub"
    sub.mkdir()
    names = ["\x1b[2J\x1b[1;31mPWNED.txt", "evil\u202eblyat.ipynb", "bell\x07",
             os.fsdecode(b"latin-\xe9.txt"), "line\nbreak.txt"]
    for name in [*names, "ok-ünïcode.txt"]:
        (sub / name).write_text("x")
    dropped = copy_plain_tree(sub, tmp_path / "copy")
    assert sorted(d.path for d in dropped) == sorted(names)
    assert [p.name for p in (tmp_path / "copy").iterdir()] == ["ok-ünïcode.txt"]
    lines = [report_line("mallory", "01, collect from mallory+01+t+\x1b[0m", d)
             for d in dropped]
    assert all(plain_name(line) for line in lines), lines
    said = "\n".join(lines)
    for escaped in ("\\x1b[2J\\x1b[1;31mPWNED.txt", "evil\\u202eblyat.ipynb", "bell\\x07",
                    "latin-\\xe9.txt", "line\\x0abreak.txt", "mallory+01+t+\\x1b[0m"):
        assert escaped in said, said
    assert shown("plain name.ipynb") == "plain name.ipynb"
    assert not plain_name("a\x9bb") and shown("a\x9bb") == "a\\x9bb"   # C1's CSI too


def test_a_folder_that_is_a_link_is_refused(tree, tmp_path):
    sub, _ = tree
    (tmp_path / "alias").symlink_to(sub, target_is_directory=True)
    with pytest.raises(Refused, match="symbolic link"):
        copy_plain_tree(tmp_path / "alias", tmp_path / "copy")
    with pytest.raises(Refused, match="not a folder"):
        list(walk_plain(sub / "answer.ipynb"))
    assert issubclass(Refused, PuzzleError)


@pytest.mark.parametrize("swap", ["symlink", "fifo"])
def test_a_file_swapped_while_it_is_copied_is_left_out(tmp_path, swap):
    """The student replaces a checked file by a link (or a FIFO) between the look and the
    copy: what is read is the descriptor that was checked, never the new entry."""
    secret = tmp_path / "secret.txt"
    secret.write_bytes(SECRET)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "a.txt").write_text("mine")

    def swap_now(rel: str, st: os.stat_result) -> bool:     # runs after the lstat
        if rel == "a.txt":
            os.unlink(sub / "a.txt")
            if swap == "symlink":
                (sub / "a.txt").symlink_to(secret)
            else:
                os.mkfifo(sub / "a.txt")
        return False

    dropped = copy_plain_tree(sub, tmp_path / "copy", skip=swap_now)
    assert [d.path for d in dropped] == ["a.txt"]
    assert not (tmp_path / "copy" / "a.txt").exists()


names = st.text(alphabet="abcxyz_.-", min_size=1, max_size=6).filter(
    lambda n: n not in (".", ".."))


@given(st.dictionaries(st.tuples(names, names), st.binary(max_size=300), max_size=8))
def test_plain_trees_are_copied_exactly(tmp_path_factory, files):
    """Any tree of plain files comes out byte for byte (a name used as both a file and a
    folder is left as the first)."""
    root = tmp_path_factory.mktemp("plain")
    src, dest = root / "src", root / "dest"
    src.mkdir()
    want = {}
    for (folder, name), data in files.items():
        d = src / folder
        if d.exists() and not d.is_dir():
            continue
        d.mkdir(exist_ok=True)
        if (d / name).exists():
            continue
        (d / name).write_bytes(data)
        want[f"{folder}/{name}"] = data
    assert copy_plain_tree(src, dest) == []
    got = {str(p.relative_to(dest)): p.read_bytes() for p in dest.rglob("*") if p.is_file()}
    assert got == want


# ------------------------------------------------------------ nbgrader's autograde hook

#: sha256 of the source of the nbgrader methods guard_autograde_copies wraps (nbgrader
#: 0.9.6): if nbgrader changes them, look again at what the wrappers assume (the copy of
#: a submission's other files is BaseConverter.init_assignment, called first by
#: Autograde.init_assignment, which then grades self.notebooks)
WRAPPED = {
    "BaseConverter.init_assignment":
        "bcfda8a38bd242811155417345b96d16e35245612781b3f6706187aa8943df59",
    "Autograde.init_assignment":
        "a7c144dc746ec205e6739e3071a69356ed3c2cb96fa566449e712cdb91417efa",
}


def test_the_nbgrader_methods_the_guard_wraps_are_the_ones_it_was_written_for():
    pytest.importorskip("nbgrader")
    from nbgrader.converters.autograde import Autograde
    from nbgrader.converters.base import BaseConverter
    guard_autograde_copies()
    guard_autograde_copies()                          # idempotent: wrapped once
    for method in (BaseConverter.init_assignment, Autograde.init_assignment):
        original = method.__wrapped__
        assert not hasattr(original, "__wrapped__")
        digest = hashlib.sha256(inspect.getsource(original).encode()).hexdigest()
        assert WRAPPED[original.__qualname__] == digest, (
            f"nbgrader's {original.__qualname__} changed: check puzzlekit.autograder.judge.plainfiles."
            f"guard_autograde_copies against it, then update WRAPPED")
    source = inspect.getsource(Autograde.init_assignment.__wrapped__)
    assert "super(Autograde, self).init_assignment(" in source


def test_the_course_config_installs_the_guard():
    config = (Path(__file__).parents[2] / "notebooks" / "nbgrader_config.py").read_text()
    assert "guard_autograde_copies()" in config


# --------------------------------------------------------------------- process trees

ESCAPE = """
import os, subprocess, sys, time
from puzzlekit.course.workers.proctree import become_subreaper
assert become_subreaper()
child = subprocess.Popen([sys.executable, "-c", '''
import os, subprocess, sys
p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                     start_new_session=True)
print(p.pid, flush=True)
os._exit(0)
'''], stdout=subprocess.PIPE, text=True)
print(child.stdout.readline().strip(), flush=True)
child.wait()
time.sleep(600)
"""



def test_kill_tree_finds_a_double_forked_process_in_its_own_session():
    proc = subprocess.Popen([sys.executable, "-c", ESCAPE], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        escaped = int(proc.stdout.readline())
        deadline = time.monotonic() + 30
        while escaped not in descendants(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)            # its parent has exited: adopted by the worker
        assert escaped in descendants(proc.pid)
        assert kill_tree(proc.pid) >= 2
        proc.wait(timeout=30)
        deadline = time.monotonic() + 30
        while alive(escaped) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(escaped)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_folders_nested_thousands_deep_are_left_out_below_the_limit(tmp_path):
    """A submission of 2,000 folders, each in the one before (the grading of the whole
    class once stopped at it: a RecursionError): the copy keeps `MAX_DEPTH` of them and
    says the next one was left out, with what it holds."""
    from puzzlekit.autograder.judge.plainfiles import MAX_DEPTH
    from puzzlekit.testcells.catalogue import FOLDER_TOO_DEEP
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "answer.ipynb").write_text("{}")
    fd = os.open(sub, os.O_RDONLY)
    for level in range(2000):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
        if level == 2:
            with open(os.open("kept.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd),
                      "w") as f:
                f.write("three folders down\n")
    os.close(fd)
    dest = tmp_path / "copy"
    try:
        dropped = copy_plain_tree(sub, dest)
    finally:        # pytest's own clean-up of old temporary folders recurses, as Python's
        subprocess.run(["rm", "-rf", str(sub)], check=True)    # rmtree does
    assert (dest / "d" / "d" / "d" / "kept.txt").read_text() == "three folders down\n"
    deepest = "/".join(["d"] * MAX_DEPTH)
    assert (dest / deepest).is_dir() and not (dest / deepest / "d").exists()
    assert [(d.path, d.kind, d.detail) for d in dropped] == [
        (deepest + "/d", "folder", FOLDER_TOO_DEEP.format(most=MAX_DEPTH))]
