"""A hostile submission's outputs reach the instructor's browser as data, never as code.

A course of its own (assignment 01 and the course's nbgrader_config.py); a submission
whose cells display what a hostile student would: an HTML output whose script calls the
formgrader's grade API with the instructor's ``_xsrf`` cookie (full marks for itself), a
``Javascript`` output, an SVG with a script, an inline SVG with ``onload``, an HTML
widget whose value carries a script (nbclient keeps it in the notebook's widget state), and
a markdown answer with ``<img src=x onerror=...>``; one honest cell shows a kit board.
It is autograded through the course's config, then a logged-in instructor (JupyterLab on
127.0.0.1 with a token, headless Chromium) opens the submission in the formgrader's
Manual grading page, and the student's feedback page is opened too. No script of the
student's may run (no dialog, no request to the grade API, no changed title, no console
marker), the grades in gradebook.db stay as the autograder left them, and the honest
board still renders (screenshots in test-artifacts/).

Before the outputs were sanitised this test failed: every grade went to full marks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import puzzlekit
from active_content import active_content, runnable
from browser_support import chromium, jupyter_lab, offline, require_chromium

pytest.importorskip("nbgrader")
pytestmark = [pytest.mark.nbgrader, pytest.mark.browser, pytest.mark.slow]

#: the kit under test (so that the same file can be run against an older checkout)
REPO = Path(puzzlekit.__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("PK_ARTIFACTS", REPO / "test-artifacts"))
A1 = "01-states-and-moves"
MARK = "PKXSS"

#: run in the instructor's page, it gives every grade of this submission full marks
ATTACK = """
(async function () {
  console.log("%(mark)s:%(vector)s");
  document.title = "%(mark)s";
  var m = document.cookie.match(/_xsrf=([^;]+)/);
  var xsrf = m ? decodeURIComponent(m[1]) : "";
  var sid = location.pathname.split("/").filter(Boolean).pop();
  var base = location.pathname.split("/formgrader/")[0];
  var r = await fetch(base + "/formgrader/api/grades?submission_id=" + sid,
                      {headers: {"X-XSRFToken": xsrf}});
  var grades = await r.json();
  for (var g of grades) {
    await fetch(base + "/formgrader/api/grade/" + g.id, {method: "PUT",
      headers: {"X-XSRFToken": xsrf, "Content-Type": "application/json"},
      body: JSON.stringify({manual_score: g.max_score, extra_credit: 0})});
  }
  console.log("%(mark)s:done");
})();
"""


def attack(vector: str) -> str:
    return ATTACK % {"mark": MARK, "vector": vector}


def one_line(js: str) -> str:
    return " ".join(js.split())


def _img(vector: str) -> str:
    """An <img> whose onerror runs the attack."""
    return '<img src="x" onerror="' + _attr(vector) + '">'


def _attr(vector: str) -> str:
    return one_line(attack(vector)).replace('"', "&quot;")


FORGED_KIT = {"application/vnd.puzzlekit.board+json": {"kind": "board", "state": "<script>"},
              "text/html": _img("forged-kit").replace("<img", '<img class="pk-board"')}

SCRIPT_HTML = "<b>hello</b><script>" + attack("script") + "</script>"
SVG_SCRIPT = ('<svg xmlns="http://www.w3.org/2000/svg"><script>' + attack("svg-script")
              + '</script><circle cx="20" cy="20" r="15"/></svg>')
SVG_ONLOAD = '<svg onload="' + _attr("svg-onload") + '"><rect/></svg>'
LINK_IFRAME = ('<a href="jav&#x61;script:' + _attr("href") + '">a link</a><iframe srcdoc="'
               '&lt;script&gt;parent.console.log(&quot;' + MARK + ':iframe&quot;)'
               '&lt;/script&gt;"></iframe>')

HOSTILE_CELL = "\n".join([
    "from IPython.display import HTML, Javascript, SVG, display",
    f"display(HTML({SCRIPT_HTML!r}))",
    f"display(Javascript({attack('javascript')!r}))",
    f"display(SVG({SVG_SCRIPT!r}))",
    f"display(HTML({SVG_ONLOAD!r}))",
    f"display(HTML({LINK_IFRAME!r}))",
    f"display({FORGED_KIT!r}, raw=True)",
    "import ipywidgets",
    f"w = ipywidgets.HTML(value={_img('widget')!r})",
    "display(w)",
    "raise NotImplementedError()",
])

HONEST_CELL = """import puzzlekit as pk
pk.show(((8, 0, 6), (5, 4, 7), (2, 3, 1)), title="an honest board")
"""

MARKDOWN_ANSWER = "My answer: " + _img("markdown") + " and [a link](javascript:alert(1))."


def nbgrader(course: Path, env: dict[str, str], *args: str) -> None:
    bin_dir = Path(sys.executable).parent
    proc = subprocess.run([str(bin_dir / "nbgrader"), *args], cwd=course, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


def grades(course: Path) -> dict[str, tuple[object, object, object]]:
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        nb = gb.find_submission_notebook(A1, A1, "mallory")
        return {g.name: (g.auto_score, g.manual_score, g.extra_credit) for g in nb.grades}


def submission_id(course: Path) -> str:
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        return str(gb.find_submission_notebook(A1, A1, "mallory").id)


def make_course(tmp: Path) -> tuple[Path, dict[str, str]]:
    import nbformat
    course = tmp / "course"
    course.mkdir()
    shutil.copytree(REPO / "notebooks" / "source" / A1, course / "source" / A1)
    shutil.copy(REPO / "notebooks" / "nbgrader_config.py", course)
    bin_dir = str(Path(sys.executable).parent)
    env = dict(os.environ, HOME=str(tmp), PATH=f"{bin_dir}:/usr/bin:/bin",
               JUPYTER_CONFIG_DIR=str(tmp / "jupyter-config"))
    env.pop("NBGRADER_EXECUTION", None)
    nbgrader(course, env, "generate_assignment", A1)
    nb = nbformat.read(course / "release" / A1 / f"{A1}.ipynb", as_version=4)
    cells = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in nb.cells}
    cells["goal_solution"].source = HOSTILE_CELL
    cells["letters_answer"].source = MARKDOWN_ANSWER
    nb.cells.insert(nb.cells.index(cells["goal_solution"]),
                    nbformat.v4.new_code_cell(HONEST_CELL))
    folder = course / "submitted" / "mallory" / A1
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{A1}.ipynb")
    nbgrader(course, env, "autograde", A1)
    nbgrader(course, env, "generate_feedback", A1)
    return course, env


class Watch:
    """Everything a student's script could do in the page, recorded."""

    def __init__(self, page: object) -> None:
        self.console: list[str] = []
        self.dialogs: list[str] = []
        self.grade_requests: list[str] = []
        page.on("console", lambda m: self.console.append(m.text))  # type: ignore
        page.on("dialog", self._dialog)  # type: ignore[attr-defined]
        page.on("request", self._request)  # type: ignore[attr-defined]

    def _dialog(self, dialog: object) -> None:
        self.dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    def _request(self, request: object) -> None:
        url = request.url  # type: ignore[attr-defined]
        if "/formgrader/api/grade" in url and request.method != "GET":  # type: ignore
            self.grade_requests.append(f"{request.method} {url}")  # type: ignore

    def marks(self) -> list[str]:
        return [m for m in self.console if MARK in m]


def settle(page: object, seconds: float = 4.0) -> None:
    """Let the page load, run what it runs and send what it sends."""
    page.wait_for_load_state("load")  # type: ignore[attr-defined]
    try:
        page.wait_for_load_state("networkidle", timeout=15_000)  # type: ignore
    except Exception:
        pass
    time.sleep(seconds)


def test_a_hostile_submission_runs_no_script_in_the_instructors_or_students_page(tmp_path):
    require_chromium()
    import nbformat
    course, _ = make_course(tmp_path)
    before = grades(course)
    assert before and all(m is None for _, m, _ in before.values()), before
    graded = nbformat.read(course / "autograded" / "mallory" / A1 / f"{A1}.ipynb",
                           as_version=4)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    sid = submission_id(course)
    found: dict[str, object] = {}
    with jupyter_lab(course, tmp_path) as lab, chromium() as page:
        watch = Watch(page)
        page.goto(f"{lab.url}/formgrader?token={lab.token}")          # log in
        settle(page, 1)
        page.goto(f"{lab.url}/formgrader/submissions/{sid}/")           # Manual grading
        settle(page)
        page.screenshot(path=str(ARTIFACTS / "hostile-formgrader.png"), full_page=True)
        found["formgrader title"] = page.title()
        board = page.locator("table.pk-board")
        found["formgrader boards"] = board.count()
        if board.count():
            board.first.screenshot(path=str(ARTIFACTS / "hostile-formgrader-board.png"))
        markdown_text = page.locator("text=My answer").count()
        found["formgrader console"] = watch.marks()
        found["formgrader dialogs"] = list(watch.dialogs)
        found["formgrader grade requests"] = list(watch.grade_requests)

        feedback = course / "feedback" / "mallory" / A1 / f"{A1}.html"
        fb = Watch(page)
        refused = offline(page)
        page.goto(feedback.as_uri())
        settle(page)
        page.screenshot(path=str(ARTIFACTS / "hostile-feedback.png"), full_page=True)
        found["feedback title"] = page.title()
        found["feedback boards"] = page.locator("table.pk-board").count()
        found["feedback console"] = fb.marks()
        found["feedback dialogs"] = list(fb.dialogs)
    after = grades(course)
    print(json.dumps({k: v for k, v in found.items()}, indent=1, default=str))
    print("refused requests of the feedback page:", refused)

    assert after == before, f"the page changed grades: {before} -> {after}"
    for where in ("formgrader", "feedback"):
        assert not found[f"{where} console"], found
        assert not found[f"{where} dialogs"], found
        assert MARK not in str(found[f"{where} title"]), found
        assert found[f"{where} boards"], f"the honest board is not drawn in the {where} page"
    assert not found["formgrader grade requests"], found
    assert markdown_text, "the markdown answer's text is not shown in the formgrader"
    # what the graded notebook keeps: data only
    assert "widgets" not in graded.metadata
    for cell in graded.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            assert not {"application/javascript", "text/javascript",
                        "application/vnd.jupyter.widget-view+json"} & set(data), data
            for mime in ("text/html", "image/svg+xml"):
                if mime in data:
                    assert not active_content(data[mime], svg=mime == "image/svg+xml"), \
                        (mime, data[mime][:300])
    page_html = feedback.read_text(encoding="utf-8")
    assert not [code for code in runnable(page_html) if MARK in code]
    assert "application/vnd.jupyter.widget-state" not in page_html
