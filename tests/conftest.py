"""Shared pytest set-up."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# No timed assertions: Hypothesis' per-example deadline would fail examples that merely ran
# while the machine was busy. Performance is measured in benchmarks/ instead.
settings.register_profile("puzzlekit", deadline=None)
settings.load_profile("puzzlekit")

# The tests mirror the package's wings (tests/puzzle/ holds the tests of puzzlekit/puzzle/,
# and so on; tests/ itself the whole kit's). Helper modules live in tests/ and some tests
# reuse another's fixtures by importing it: every folder is importable from every test.
HERE = Path(__file__).resolve().parent
for _folder in sorted(p for p in HERE.iterdir() if p.is_dir() and not p.name.startswith(
        (".", "_"))):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))

# ---------------------------------------------------------------------------
# Running on every core: `make test` runs `pytest -n auto --dist loadscope` (pytest-xdist)

#: The longest groups of tests, longest first (minutes on a 2-core machine): they start
#: first, so that the short ones fill in around them and no worker is left with a long
#: one at the end.
LONGEST_FIRST = ("course", "test_classgrade", "test_hub", "test_fair_marks",
                 "test_references_under_load", "test_exchange_walls", "test_guide",
                 "test_term",
                 "test_term_guide", "test_wall_ring", "test_lite", "test_browser_lab",
                 "test_hostile_outputs_browser", "test_browser_notebook7",
                 "test_browser_student", "test_a11y_browser", "test_browser_term",
                 "test_hostile_outputs_grade",
                 "test_classgrade_timeout",
                 "test_author_page", "test_formgrader_autograde", "test_authoring",
                 "test_autograde", "test_submission_links", "test_budgets", "test_demos",
                 "test_wall")


def group_of(nodeid: str) -> str:
    """The group of a test: one worker runs a whole group. Each module is one (its
    module-scoped servers, browsers and courses are made once), and so are all the tests
    of the generated course in tests/simulated_class/ (the session fixture `course`, made once),
    except test_classgrade, which makes its own courses."""
    path = nodeid.split("::", 1)[0]
    folder, _, name = path.rpartition("/")
    stem = name.removesuffix(".py")
    if folder.endswith("tests/simulated_class") and stem != "test_classgrade":
        return "course"
    return stem


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``--dist loadscope``: xdist's scheduling by scope, our groups as the scopes."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return ByGroup(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker, the longest groups first (xdist takes the order of the groups
    from the collection, with --no-loadscope-reorder)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        rank = {group: i for i, group in enumerate(LONGEST_FIRST)}
        items.sort(key=lambda item: rank.get(group_of(item.nodeid), len(rank)))
