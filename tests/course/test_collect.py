"""The course's collect refuses a submission filed under another student's name."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from puzzlekit.course.collect import hashed_uid, made_by

NOBODY = 65534
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")


def folder(tmp_path: Path, name: str, uid: int | None = None) -> str:
    path = tmp_path / f"{name}+01-states-and-moves+2026-01-15 10:00:00.000000 UTC+abcdef123456"
    path.mkdir()
    if uid is not None:
        os.chown(path, uid, -1)
    return str(path)


def test_the_collector_may_hand_in_for_any_student(tmp_path):
    """On one machine the instructor submits for students: those folders are theirs."""
    assert made_by(folder(tmp_path, "alice"), "alice")[0]


@root_only
def test_a_folder_made_by_someone_else_is_refused_and_names_its_maker(tmp_path):
    ok, owner = made_by(folder(tmp_path, "alice", NOBODY), "alice")
    assert not ok and owner == "nobody"


@root_only
def test_on_kubernetes_the_owner_is_the_hashed_uid(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEKIT_UID_SCHEME", "hashed")
    assert made_by(folder(tmp_path, "alice", hashed_uid("alice")), "alice")[0]
    assert not made_by(folder(tmp_path, "bob", hashed_uid("alice")), "bob")[0]


def test_the_hashed_uid_is_a_stable_unprivileged_number():
    assert hashed_uid("alice") == hashed_uid("alice") != hashed_uid("bob")
    assert all(200000 <= hashed_uid(n) < 1000000 for n in ("alice", "bob", "grader-puzzlekit"))


def inbound_of(tmp_path: Path, names: list[str]) -> tuple[Path, Path]:
    """A course root whose gradebook has alice, and an exchange where `names` submitted."""
    from nbgrader.api import Gradebook

    from puzzlekit.course.course_setup import environment_first_on_path
    root, exchange = tmp_path / "course", tmp_path / "exchange"
    inbound = exchange / "ai-101" / "inbound"
    inbound.mkdir(parents=True)
    root.mkdir()
    environment_first_on_path()     # nbgrader stamps a new gradebook with its alembic
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id="ai-101") as gb:
        gb.add_student("alice")
    for name in names:
        folder(inbound, name)
    return root, exchange


def collector(root: Path, exchange: Path, students_only: bool) -> Any:
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    from puzzlekit.course.collect import OwnerCheckedCollect
    config = Config()
    config.CourseDirectory.root = str(root)
    config.CourseDirectory.course_id = "ai-101"
    config.CourseDirectory.assignment_id = "01-states-and-moves"
    config.Exchange.root = str(exchange)
    config.OwnerCheckedCollect.students_only = students_only
    return OwnerCheckedCollect(coursedir=CourseDirectory(config=config), config=config)


@pytest.mark.nbgrader
def test_a_course_on_a_shared_exchange_collects_only_its_students(tmp_path):
    """On the class server every course's collect refuses names outside its gradebook:
    carol, a student of another course, filed work under this course."""
    pytest.importorskip("nbgrader")
    root, exchange = inbound_of(tmp_path, ["alice", "carol"])
    both = collector(root, exchange, students_only=False)
    both.init_src()
    assert sorted(r["username"] for r in both.src_records) == ["alice", "carol"]
    only = collector(root, exchange, students_only=True)
    only.init_src()
    assert [r["username"] for r in only.src_records] == ["alice"]
    assert [(r["username"], r["why"]) for r in only.refused] == [("carol", "not a student")]
