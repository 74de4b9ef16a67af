"""Every lecture demo notebook runs top to bottom without an error.

The two demos that the JupyterLab browser test runs (and inspects) are executed here only
when that test cannot run (no Chromium), so each notebook runs once per suite.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

DEMOS = Path(__file__).resolve().parents[1] / "notebooks" / "demos"
RUN_IN_BROWSER_TEST = {"01-see-search.ipynb", "02-see-heuristics.ipynb"}
HAVE_CHROMIUM = Path("/usr/bin/chromium").exists()


def demos() -> list[Path]:
    return sorted(p for p in DEMOS.glob("*.ipynb")
                  if not (HAVE_CHROMIUM and p.name in RUN_IN_BROWSER_TEST))


@pytest.mark.slow
@pytest.mark.parametrize("path", demos(), ids=lambda p: p.stem)
def test_demo_runs_clean(path: Path, tmp_path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    assert not any(c.get("outputs") or c.get("execution_count")
                   for c in nb.cells if c.cell_type == "code"), "commit demos without outputs"
    work = tmp_path / path.name
    shutil.copy(path, work)
    bin_dir = str(Path(sys.executable).parent)
    os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    client = NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
    # every chart says what it shows in words (puzzlekit.visuals.display.show_chart), since a bare
    # image output has no text alternative (nbconvert writes "No description ...")
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    bare = [o for o in outputs if "image/png" in o.get("data", {})]
    assert not bare, f"{path.name}: {len(bare)} chart(s) without a text alternative"
    for o in outputs:
        html = o.get("data", {}).get("text/html", "")
        for img in re.findall(r"<img\b[^>]*>", "".join(html)):
            assert re.search(r'\balt="[^"]+', img), f"{path.name}: an image without alt text"
