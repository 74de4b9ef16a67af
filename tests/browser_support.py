"""Shared helpers for tests that look at the kit in a real browser.

- `jupyter_lab(root, tmp)`: a JupyterLab server on 127.0.0.1 (free port, random token, its
  own config/runtime dirs, no browser), stopped with all its kernels when the block exits;
  `jupyter_notebook(root, tmp)` the same for Notebook 7;
- `chromium()`: Debian's headless Chromium driven by Playwright's Python package (never
  Playwright's own browser download);
- `offline(page)`: refuse every request that leaves the machine;
- `ARTIFACTS`: where screenshots go (git-ignored ``test-artifacts/``).

Every wait is time-boxed, so a broken front end fails a test instead of hanging it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SERVER_START_TIMEOUT = 90.0     #: seconds for JupyterLab to answer (2 busy cores)


def require_chromium() -> None:
    """Skip the calling test, with the reason, where the browser cannot run."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api", reason="the playwright Python package is missing")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LabServer:
    url: str          #: http://127.0.0.1:PORT
    token: str
    root: Path
    process: subprocess.Popen
    log: Path

    def lab_url(self, path: str) -> str:
        """The JupyterLab URL that opens `path` (relative to the root)."""
        return f"{self.url}/lab/tree/{path}?token={self.token}&reset"

    def notebook_url(self, path: str) -> str:
        """The Notebook 7 URL that opens the notebook `path` (relative to the root)."""
        return f"{self.url}/notebooks/{path}?token={self.token}"

    def log_tail(self, n: int = 40) -> str:
        lines = self.log.read_text(errors="replace").splitlines()
        return "\n".join(lines[-n:])


def answers(url: str, timeout: float = 2) -> bool:
    """True when `url` answers HTTP 200."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status == 200
    except OSError:
        return False


def stop_group(process: subprocess.Popen, gently: float = 15, firmly: float = 5) -> None:
    """Stop a server's whole process group (server and kernels), gently then firmly."""
    if process.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, gently), (signal.SIGKILL, firmly)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    try:                       # kernels left in the group after the server went
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


#: JupyterLab user settings for tests: render every cell (no windowing, so every output
#: can be found in the page) and no news or update pop-ups over the notebook.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false",
                                                    "checkForUpdates": False},
}


def _write_settings(folder: Path) -> None:
    for plugin, values in LAB_SETTINGS.items():
        path = folder / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


@contextmanager
def jupyter_lab(root: Path, tmp: Path, *, user_defaults: bool = False) -> Iterator[LabServer]:
    """A JupyterLab server over `root`, with its state kept under `tmp`.

    user_defaults: JupyterLab as a new user finds it (news pop-up, update check, windowed
    notebooks) instead of the tests' quiet settings."""
    with jupyter_server("lab", root, tmp, user_defaults=user_defaults) as server:
        yield server


@contextmanager
def jupyter_notebook(root: Path, tmp: Path) -> Iterator[LabServer]:
    """A Notebook 7 server (`jupyter notebook`) over `root`, its state kept under `tmp`."""
    with jupyter_server("notebook", root, tmp) as server:
        yield server


@contextmanager
def jupyter_server(app: str, root: Path, tmp: Path, *,
                   user_defaults: bool = False) -> Iterator[LabServer]:
    """`jupyter lab` or `jupyter notebook` (Notebook 7, the same lab settings) over `root`."""
    port, token = free_port(), secrets.token_hex(16)
    home = tmp / "jupyter-home"
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "lab-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "lab-workspaces"),
               PYTHONUNBUFFERED="1")
    env.pop("NBGRADER_EXECUTION", None)
    if not user_defaults:
        _write_settings(home / "lab-settings")
    log = tmp / f"jupyter-{app}.log"
    cmd = [sys.executable, "-m", "jupyter", app, "--no-browser",
           "--ServerApp.open_browser=False", "--ServerApp.ip=127.0.0.1", "--allow-root",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           *(["--LabApp.news_url=None",
              "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
             if app == "lab" and not user_defaults else [])]
    with open(log, "wb") as out:
        process = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   cwd=root, start_new_session=True)
    server = LabServer(f"http://127.0.0.1:{port}", token, root, process, log)
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while not answers(f"{server.url}/api/status?token={token}"):
            if process.poll() is not None:
                raise RuntimeError(f"jupyter {app} exited with {process.returncode}:\n"
                                   + server.log_tail())
            if time.monotonic() > deadline:
                raise RuntimeError(f"jupyter {app} did not answer within {SERVER_START_TIMEOUT} "
                                   "s:\n" + server.log_tail())
            time.sleep(0.5)
        yield server
    finally:
        stop_group(process)


@contextmanager
def chromium(width: int = 1400, height: int = 1000) -> Iterator[object]:
    """A fresh Playwright page in headless Debian Chromium; closed on exit."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                    args=CHROMIUM_ARGS, timeout=60_000)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(60_000)
            yield page
        finally:
            browser.close()


def offline(page: object, allow: tuple[str, ...] = ("file:", "data:", "blob:")) -> list[str]:
    """Abort every request of `page` except to `allow`ed schemes; returns the list of
    URLs that were refused (so a test can report what tried to reach the network)."""
    refused: list[str] = []

    def route(r: object) -> None:
        url = r.request.url  # type: ignore[attr-defined]
        if url.startswith(allow):
            r.continue_()  # type: ignore[attr-defined]
        else:
            refused.append(url)
            r.abort()  # type: ignore[attr-defined]
    page.route("**/*", route)  # type: ignore[attr-defined]
    return refused


def artifact(name: str) -> Path:
    """The path test-artifacts/NAME.png (the folder is made if needed)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def screenshot(page_or_element: object, name: str, **kw: object) -> Path:
    """Save a screenshot of a page (or of one element) as test-artifacts/NAME.png."""
    path = artifact(name)
    page_or_element.screenshot(path=str(path), **kw)  # type: ignore[attr-defined]
    return path


def execute(cells: list[str], **client_options: object) -> object:
    """A new notebook of these code cells, executed as `jupyter nbconvert --execute` does
    (nbclient; not under nbgrader's autograder)."""
    import nbformat
    from nbclient import NotebookClient
    mp = pytest.MonkeyPatch()
    mp.delenv("NBGRADER_EXECUTION", raising=False)      # the kernel inherits the environment
    try:
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
        NotebookClient(nb, timeout=120, kernel_name="python3", **client_options).execute()
    finally:
        mp.undo()
    return nb


def copy_notebook(src: Path, dest_dir: Path) -> Path:
    """A private copy of a notebook to run (the repo's copy stays without outputs)."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(src, dest_dir / src.name))


# ----------------------------------------------------------------------------- notebook pages
# (the same in JupyterLab and Notebook 7: both draw notebooks with JupyterLab's widgets)

#: JS predicate: every code cell of the open notebook shows an execution count ("[3]:")
ALL_CELLS_RAN = """() => {
  const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
  return prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim()));
}"""

#: JS: the index of the notebook's active cell
ACTIVE_CELL = """() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].findIndex(
    c => c.classList.contains('jp-mod-active'))"""

BLANK_AT = """([b, i]) =>
  b.querySelectorAll('.puzzlekit-playable button')[i].textContent.trim() === ''"""


def tiles(board: object) -> list[str]:
    """The labels of a playable board's tile buttons, row by row ("" for the blank)."""
    return [t.strip() for t in board.locator(  # type: ignore[attr-defined]
        ".puzzlekit-playable button").all_inner_texts()]


def _slid(before: list[str], after: list[str], blank: int, mover: int) -> None:
    assert len(before) == 9 and before.count("") == 1, before
    assert after[blank] == before[mover] and after[mover] == "", (before, after)


def slide_by_click(page: object, board: object, timeout: int) -> None:
    """Click the tile beside the blank of a 3×3 playable board; check that it slid."""
    before = tiles(board)
    blank = before.index("")
    mover = blank + 1 if blank % 3 < 2 else blank - 1
    board.locator(".puzzlekit-playable button").nth(mover).click()  # type: ignore[attr-defined]
    page.wait_for_function(BLANK_AT, arg=[board.element_handle(), mover],  # type: ignore
                           timeout=timeout)
    _slid(before, tiles(board), blank, mover)


def slide_by_arrow_key(page: object, board: object, timeout: int) -> None:
    """Focus a 3×3 playable board and press ↑ (↓ when the blank is on the bottom row),
    which slides the tile below (above) the blank into it; check that it slid and that the
    notebook's active cell stayed where it was."""
    board.locator(".puzzlekit-playable").focus()  # type: ignore[attr-defined]
    cell = page.evaluate(ACTIVE_CELL)  # type: ignore[attr-defined]
    before = tiles(board)
    blank = before.index("")
    key, mover = ("ArrowUp", blank + 3) if blank < 6 else ("ArrowDown", blank - 3)
    page.keyboard.press(key)  # type: ignore[attr-defined]
    page.wait_for_function(BLANK_AT, arg=[board.element_handle(), mover],  # type: ignore
                           timeout=timeout)
    _slid(before, tiles(board), blank, mover)
    moved_to = page.evaluate(ACTIVE_CELL)  # type: ignore[attr-defined]
    assert moved_to == cell, f"the arrow key also moved the active cell ({cell} → {moved_to})"


@contextmanager
def static_site(folder: Path) -> Iterator[str]:
    """`folder` served as plain static files on http://127.0.0.1:PORT (that URL), as any
    web server would (the JupyterLite site of `make lite`); stopped on exit."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
