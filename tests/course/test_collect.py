"""The course's collect refuses a submission filed under another student's name."""

from __future__ import annotations

import os
from pathlib import Path

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
