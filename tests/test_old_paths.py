"""Old paths keep working for one term (puzzlekit.old_paths), and not longer unnoticed."""

from __future__ import annotations

import datetime
import importlib
import subprocess
import sys

import pytest

import puzzlekit
from puzzlekit import old_paths


@pytest.mark.parametrize("old", sorted(old_paths.ALIASES))
def test_an_old_path_is_the_same_module(old):
    new = importlib.import_module(f"puzzlekit.{old_paths.ALIASES[old]}")
    assert importlib.import_module(f"puzzlekit.{old}") is new
    assert new.__spec__.name == f"puzzlekit.{old_paths.ALIASES[old]}"
    assert getattr(puzzlekit, old) is new


def test_every_alias_points_into_a_wing_and_every_wing_module_is_new():
    from puzzlekit import registry
    modules = set(registry.modules_under())
    assert set(old_paths.ALIASES.values()) <= modules
    assert not set(old_paths.ALIASES) & modules


@pytest.mark.parametrize("old", sorted(old_paths.PACKAGES))
def test_a_renamed_room_and_every_module_in_it_are_the_new_ones(old):
    """``from puzzlekit.grading.checks import …`` in a notebook released before the rooms
    were renamed gets the very module of the new path, never a second copy of it."""
    from puzzlekit import registry
    new = old_paths.PACKAGES[old]
    modules = [m for m in registry.modules_under(new) if not m.endswith("__main__")]
    assert len(modules) > 1
    for module in modules:
        there = importlib.import_module(f"puzzlekit.{module}")
        here = importlib.import_module(f"puzzlekit.{old}{module[len(new):]}")
        assert here is there and here.__name__ == f"puzzlekit.{module}"
    copies = [name for name, m in sys.modules.items()
              if name.startswith("puzzlekit.") and m is not None
              and getattr(m, "__name__", name) != name
              and name.removeprefix("puzzlekit.") not in old_paths.ALIASES
              and old_paths.new_path(name.removeprefix("puzzlekit.")) == name.removeprefix("puzzlekit.")]
    assert copies == []
    assert old_paths.kit_path(f"puzzlekit.{old}.x") == f"puzzlekit.{new}.x"
    assert old_paths.kit_path("puzzlekit.gradingx") == "puzzlekit.gradingx"


def test_the_removal_date_has_not_passed():
    """When this fails, the term is over: remove puzzlekit/old_paths.py and this test."""
    assert datetime.date.today() <= datetime.date.fromisoformat(old_paths.REMOVE_AFTER)


def test_a_course_config_naming_an_old_class_still_loads_it():
    from traitlets.utils.importstring import import_item

    from puzzlekit.autograder.judge.autograde import WalledExecute
    assert import_item("puzzlekit.autograde.WalledExecute") is WalledExecute
    from puzzlekit.diagnose import diagnose_move  # noqa: F401
    from puzzlekit.late import PerDayPenalty  # noqa: F401


def test_an_old_kernel_spec_still_starts_the_wall():
    """``python -m puzzlekit.wall`` (kernel specs written before the wings)."""
    for module in ("puzzlekit.wall", "puzzlekit.autograder.wall"):
        done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "--scratch" in done.stdout



def test_the_kits_own_notebooks_and_configs_use_the_new_paths():
    """The old paths are for what is already out there: the kit's own notebooks, demos and
    configs name each module where it lives now."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    old = "|".join(re.escape(name) for name in old_paths.ALIASES)
    packages = "|".join(re.escape(name) for name in old_paths.PACKAGES)
    pattern = re.compile(rf"from puzzlekit import ({old})\b|puzzlekit\.({old})\b(?!\.)"
                         rf"|puzzlekit\.({packages})\b")
    found = []
    for path in [*root.glob("notebooks/**/*.ipynb"), *root.glob("notebooks/**/*.py"),
                 *root.glob("deploy/**/*.py")]:
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    assert found == []
