"""The shared course: generated once per test session (see course_harness.py)."""

from __future__ import annotations

import os

import pytest
from course_harness import Course, assignments, build_course


@pytest.fixture(scope="session")
def course(tmp_path_factory: pytest.TempPathFactory) -> Course:
    pytest.importorskip("nbgrader")
    if not assignments():
        pytest.skip("no assignments in notebooks/source")
    old = os.getcwd()
    try:
        return build_course(tmp_path_factory.mktemp("course"))
    finally:
        os.chdir(old)
