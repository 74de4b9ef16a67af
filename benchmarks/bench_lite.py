"""The course in the browser (`make lite`, deploy/lite/build.py): build time, size, and the
time to the first output.

- the build into a fresh folder with the cache as it is (warm: the registries' parts
  already downloaded; run with PUZZLEKIT_LITE_CACHE pointing at an empty folder for a
  cold build, which needs PyPI and npm);
- the site's size, in all and by part (Pyodide's runtime, the wheels, the app);
- in headless Chromium from a static server on 127.0.0.1 (every other request refused):
  seconds from opening assignment 01 until its kernel is idle, and until a first cell
  (``import puzzlekit``, a board) has drawn its board.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "deploy" / "lite"))
sys.path.insert(0, str(REPO / "tests"))


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _first_output(site: Path) -> tuple[float, float]:
    from browser_support import chromium, offline, static_site
    with static_site(site) as base, chromium() as page:
        offline(page, allow=(base, "data:", "blob:"))
        started = time.perf_counter()
        page.goto(f"{base}/lab/index.html?path=assignments/01-states-and-moves.ipynb")
        page.locator("#jp-main-statusbar").get_by_text(re.compile(r"\bIdle\b")).first \
            .wait_for(timeout=300_000)
        idle = time.perf_counter() - started
        page.locator(".jp-Notebook .jp-CodeCell").first.click()
        page.keyboard.press("Escape")
        page.keyboard.press("a")
        page.keyboard.press("Enter")
        page.keyboard.insert_text("import puzzlekit as pk\npk.show(pk.goal_state(3))")
        page.keyboard.press("Shift+Enter")
        page.locator(".jp-OutputArea-output table.pk-board").first.wait_for(timeout=300_000)
        return idle, time.perf_counter() - started


def main() -> dict:
    import build as lite
    cache = Path(os.environ.get("PUZZLEKIT_LITE_CACHE",
                                Path.home() / ".cache" / "puzzlekit-lite"))
    warm = (cache / f"pyodide-{lite.PYODIDE}").exists()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        started = time.perf_counter()
        lite.build(site, cache)
        seconds = time.perf_counter() - started
        pyodide = site / "static" / "pyodide"
        wheels = sum(p.stat().st_size for p in pyodide.glob("*.whl"))
        idle, first = _first_output(site)
        rows = [
            {"what": f"build ({'warm' if warm else 'cold'} cache)", "seconds": seconds},
            {"what": "site, all (MB)", "value": _size(site) / 1e6},
            {"what": "Pyodide runtime (MB)", "value": (_size(pyodide) - wheels) / 1e6},
            {"what": "wheels (MB)", "value": wheels / 1e6},
            {"what": "opened → kernel idle", "seconds": idle},
            {"what": "opened → first board drawn", "seconds": first},
        ]
    return {"title": "The course in the browser (JupyterLite)", "rows": rows,
            "notes": ["2 busy cores; the first output includes Pyodide's start and the "
                      "kit's 19 wheels, loaded from the site"]}


if __name__ == "__main__":
    for row in main()["rows"]:
        print(row)
