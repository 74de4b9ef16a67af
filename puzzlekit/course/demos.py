"""The lecture demos beside the assignments, so that an assignment's links to them work.

The graded notebooks link to the ungraded lecture demos (`notebooks/demos/`) with links
relative to the notebook's own folder: ``../demos/01-see-search.ipynb``. That is where
the demos are wherever a student opens an assignment:

- the class server: a student's assignment is fetched into ``~/ASSIGNMENT/`` (or
  ``~/COURSE/ASSIGNMENT/`` for a student of several courses), and the hub's set-up puts
  the demos into ``~/demos/`` (``~/COURSE/demos/``): `deploy/hub/classroom.py`;
- the JupyterLite site: ``assignments/ASSIGNMENT.ipynb`` beside ``demos/``
  (`deploy/lite/build.py`);
- the course folder (`make lab`, or a release handed out by hand): generate writes
  ``release/ASSIGNMENT/`` and, by `ReleaseDemos`, ``release/demos/`` beside it.

`demo_links` lists a notebook's links (tests/course/test_demo_links.py checks that each
one resolves in each of these places).
"""

from __future__ import annotations

import filecmp
import re
import shutil
from pathlib import Path
from typing import Any

__all__ = ["DEMOS_FOLDER", "ReleaseDemos", "copy_demos", "demo_links"]

#: the demos' folder, beside each assignment's folder (the links say ``../demos/...``)
DEMOS_FOLDER = "demos"
#: a markdown link or image: [text](target) or ![alt](target)
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def demo_links(nb: Any) -> list[str]:
    """The relative link targets in the markdown cells of `nb` (an nbformat notebook or its
    dict): every link that is not to a web address, a mail address or an anchor."""
    out = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        for target in _LINK.findall(source):
            if not re.match(r"[a-z][a-z0-9+.-]*:|#", target, re.I):
                out.append(target)
    return out


def copy_demos(demos: Path, dest: Path) -> list[Path]:
    """Copy the notebooks of `demos` into `dest` (made if need be) where missing or changed;
    the files copied. Nothing to copy when `demos` is not a folder."""
    if not demos.is_dir():
        return []
    copied = []
    for src in sorted(demos.glob("*.ipynb")):
        target = dest / src.name
        if target.is_file() and filecmp.cmp(src, target, shallow=False):
            continue
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
        copied.append(target)
    return copied


def _make_release_demos() -> type:
    from nbgrader.preprocessors import NbGraderPreprocessor   # (enabled by default)

    class ReleaseDemos(NbGraderPreprocessor):  # type: ignore[misc]
        """Generate's step that puts the course's demos (``demos/`` of the course root)
        beside its releases (``release/demos/``), so that a release's links to
        ``../demos/`` work in the course folder and in a release handed out by hand."""

        def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
            converter = getattr(self.parent, "parent", None)
            coursedir = getattr(converter, "coursedir", None)
            if coursedir is not None:
                root = Path(coursedir.root)
                release = Path(coursedir.format_path(coursedir.release_directory, ".", "."))
                copy_demos(root / DEMOS_FOLDER, release / DEMOS_FOLDER)
            return nb, resources

    ReleaseDemos.__module__, ReleaseDemos.__qualname__ = __name__, "ReleaseDemos"
    return ReleaseDemos


def __getattr__(name: str) -> Any:
    if name == "ReleaseDemos":          # nbconvert only when nbgrader asks for it
        cls = _make_release_demos()
        globals()[name] = cls
        return cls
    raise AttributeError(name)
