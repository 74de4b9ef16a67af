"""The jobs that cross to class-grading workers carry a version: a worker of another
layout of the kit refuses them by name instead of failing on an import."""

from __future__ import annotations

import json

import nbformat
import pytest

from puzzlekit.course.workers import remote


def test_a_packed_job_carries_the_version_and_the_new_execute_path(tmp_path):
    nb = nbformat.v4.new_notebook()
    job = json.loads(remote.pack_job(
        nb, {"metadata": {"path": str(tmp_path)}},
        "puzzlekit.autograder.judge.autograde.WalledExecute", {}))
    assert job["version"] == remote.JOB_VERSION == 2
    assert remote._import(job["execute"]).__name__ == "WalledExecute"


def test_a_job_of_the_flat_package_is_refused_with_a_reason():
    old = {"version": 1, "key": "alice", "execute": "puzzlekit.autograde.WalledExecute",
           "config": {}, "notebook": nbformat.writes(nbformat.v4.new_notebook()),
           "resources": {}, "files": {}}
    with pytest.raises(ValueError, match="different versions of puzzlekit"):
        remote.execute_job(json.dumps(old).encode())
