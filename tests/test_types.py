"""The package's types are checked: `py.typed` ships, so users are promised them.

mypy reads its settings from pyproject.toml (``[tool.mypy]``); the run fails on any error.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_mypy_finds_no_error_in_the_package():
    cache = Path(tempfile.gettempdir()) / "puzzlekit-mypy-cache"   # not in the checkout
    proc = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), "puzzlekit"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
