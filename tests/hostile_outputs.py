"""A hostile student's submission of assignment 01, for the tests of outputs as data.

`make_course(tmp)` builds a course of its own (assignment 01, the course's
nbgrader_config.py) with one submission, by "mallory", whose cells display what a hostile
student would (see HOSTILE_CELL: a script that calls the formgrader's grade API with the
instructor's ``_xsrf`` cookie, a Javascript output, SVG scripts and handlers, a
``javascript:`` link, an iframe ``srcdoc``, a forged kit bundle, an HTML widget whose value
carries a script) and whose markdown answer is an ``<img onerror>``; one honest cell shows
a kit board. Every script logs ``MARK`` to the console and sets the page's title to it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from active_content import active_content

import puzzlekit

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
  var base = location.origin + location.pathname.split("/formgrader/")[0];
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

#: no script, yet it would take over the page: a refresh away (in 30 s, so that the old
#: pages' scripts finish first; the test looks for the element), a new base for every
#: link, a fake overlay over the grading buttons, a form that posts to the grade API
TAKEOVER = ('<meta http-equiv="refresh" content="30;url=about:blank#' + MARK + '">'
            '<base href="https://evil.example/">'
            '<div style="position: fixed; top: 0; left: 0; width: 100%; height: 100%; '
            'background: white; z-index: 9999">FAKE-OVERLAY: all tests passed</div>'
            '<form action="/formgrader/api/grade/1" method="post"><button>ok</button></form>')

HOSTILE_CELL = "\n".join([
    "from IPython.display import HTML, Javascript, SVG, display",
    f"display(HTML({SCRIPT_HTML!r}))",
    f"display(Javascript({attack('javascript')!r}))",
    f"display(SVG({SVG_SCRIPT!r}))",
    f"display(HTML({SVG_ONLOAD!r}))",
    f"display(HTML({LINK_IFRAME!r}))",
    f"display({FORGED_KIT!r}, raw=True)",
    f"display(HTML({TAKEOVER!r}))",
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


def make_course(tmp: Path, grade: bool = True) -> tuple[Path, dict[str, str]]:
    """The course with mallory's submission; `grade`: autograded with `nbgrader
    autograde` and its feedback generated (else only submitted)."""
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
    if grade:
        nbgrader(course, env, "autograde", A1)
        nbgrader(course, env, "generate_feedback", A1)
    return course, env


def assert_data_only(nb: object) -> None:
    """The graded notebook `nb` keeps only data: no widget state, no scripts, no active
    HTML or SVG."""
    assert "widgets" not in nb.metadata  # type: ignore[attr-defined]
    for cell in nb.cells:  # type: ignore[attr-defined]
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            assert not {"application/javascript", "text/javascript",
                        "application/vnd.jupyter.widget-view+json"} & set(data), data
            for mime in ("text/html", "image/svg+xml"):
                if mime in data:
                    assert not active_content(data[mime], svg=mime == "image/svg+xml"), \
                        (mime, data[mime][:300])
    assert MARK not in json.dumps(nb.metadata)  # type: ignore[attr-defined]
