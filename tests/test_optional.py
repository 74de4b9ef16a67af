"""The student kit without numpy and matplotlib (`pip install puzzlekit`, and the browser's
JupyterLite site): everything a student runs works, and a call that needs a missing
package says which package and which pip extra (puzzlekit/optional.py).

Absence is simulated in a fresh interpreter: every finder on sys.meta_path is wrapped so
that it does not find numpy, matplotlib or PIL, as in an environment without them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlekit.errors import PuzzleError
from puzzlekit.optional import EXTRAS, MissingExtra, message, require

ROOT = Path(__file__).parents[1]

HIDE = '''
import sys
class Hide:
    def __init__(self, inner): self.inner = inner
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in ("numpy", "matplotlib", "PIL"):
            return None
        return self.inner.find_spec(fullname, path, target)
sys.meta_path[:] = [Hide(f) for f in sys.meta_path]
'''


def without_extras(code: str) -> dict:
    """Run `code` (which sets `out`, a dict) with numpy, matplotlib and PIL not installed."""
    script = HIDE + code + "\nimport json\nout['loaded'] = [m for m in ('numpy', " \
        "'matplotlib', 'PIL') if m in sys.modules]\nprint(json.dumps(out))\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_a_student_s_work_runs_without_numpy_and_matplotlib():
    out = without_extras('''
import io, contextlib
import puzzlekit as pk
from puzzlekit.testcells import assert_equal, passed, see_search
out = {}
start = pk.apply_moves(pk.goal_state(3), "ULDR")
out["moves"] = len(pk.search(pk.nextStates, start, pk.goal_state(3)))
out["board"] = pk.show(start)._repr_html_()[:40]
view = see_search(pk.search, pk.nextStates, start, pk.goal_state(3))
out["see"] = type(view).__name__
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    assert_equal(1 + 1, 2, "sum")
    passed("the visible test")
out["tests"] = buf.getvalue()
from puzzlekit.visuals.widgets import play
out["game"] = type(play(state=start)).__name__
''')
    assert out["loaded"] == []
    assert out["moves"] >= 1 and out["board"].startswith("<figure")
    assert out["see"] == "SearchView" and "✔" in out["tests"] and out["game"]


def test_a_call_that_needs_a_missing_package_names_it_and_its_extra():
    out = without_extras('''
import puzzlekit as pk
from puzzlekit.errors import PuzzleError
from puzzlekit.visuals.animation import animate_path
from puzzlekit.engine.pdb import build_pattern
out = {}
for name, call in [("animate", lambda: animate_path(pk.goal_state(3), "UL")),
                   ("pdb", lambda: build_pattern(3, 3, 8, (0, 1, 2), use_cache=False))]:
    try:
        call()
        out[name] = None
    except PuzzleError as e:
        out[name] = [type(e).__name__, str(e), isinstance(e, ModuleNotFoundError), e.name]
try:
    import numpy
except ImportError as e:
    out["own"] = [type(e).__name__, str(e)]
try:
    import matplotlib.pyplot
except ImportError as e:
    out["own_chart"] = [type(e).__name__, str(e), e.name]
''')
    assert out["animate"] is None       # the animations are the kit's own HTML: no matplotlib
    kind, text, name = out["own_chart"]
    assert kind == "MissingExtra" and name == "matplotlib"
    assert 'pip install "puzzlekit[charts]"' in text
    kind, text, is_import_error, name = out["pdb"]
    assert kind == "MissingExtra" and name == "numpy"
    assert "build_pattern() needs numpy" in text and 'pip install "puzzlekit[pdb]"' in text
    assert out["own"][0] == "MissingExtra" and out["own"][1].startswith("numpy is not installed")


def test_require_gives_the_package_or_names_what_is_wrong():
    assert require("numpy").__name__ == "numpy"           # the course's environment has it
    with pytest.raises(PuzzleError, match="not one of the kit's optional packages"):
        require("pandas")
    assert set(EXTRAS) == {"numpy", "matplotlib", "PIL"}
    assert "pillow" in message("PIL") and issubclass(MissingExtra, ModuleNotFoundError)
