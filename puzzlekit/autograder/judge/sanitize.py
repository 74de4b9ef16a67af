"""Outputs are data, never code: what a student's notebook displays is made inert.

A graded notebook is opened by the instructor (the formgrader's Manual grading page, in
the instructor's own Jupyter origin) and by the student (the feedback page). Whatever a
student's cell displayed reaches those pages, so before the graded notebook is written
`SanitizeOutputs` (an autograde step after the execute step) keeps of every output only
what is data:

- ``text/html`` (and SVG, and markdown) goes through an allow-list sanitiser (bleach,
  html5lib's parser): a short list of tags and attributes, CSS declarations whose
  property is listed and whose value is plain words, numbers, colours and lengths (no
  ``url()``, no ``position: fixed``), links only to ``http(s):``, ``mailto:`` or ``#``,
  images only as ``data:image/png|jpeg|gif|webp``; everything else is removed or escaped
  into visible text (a ``<script>`` shows as the text ``<script>``). ``id``, ``name``,
  ``data-*`` and class names outside the kit's (``pk-…``) and the code highlighter's are
  dropped, so that an output cannot clobber or impersonate the page's own elements; each
  output is boxed (``position: relative; overflow: auto``) so that it stays in its cell;
- scripts (``application/javascript``), widget views, unknown MIME types and the
  notebook's widget state (``metadata.widgets``, which nbconvert's templates render,
  HTML widgets' values included) are dropped;
- the kit's own outputs carry their drawing as plain data (``application/vnd.puzzlekit.
  board+json``: boards, paths, diffs, frames, searches): that bundle is validated and redrawn here
  with the kit's own renderer, so a kit board looks as it did, and a forged bundle can
  only draw a board. HTML that merely looks like the kit's (``class="pk-board"``) is
  sanitised like any other.

The pages sanitise again (defence in depth): ``c.HTMLExporter.sanitize_html = True`` with
this module's `clean_html` as nbconvert's ``clean_html`` filter, and `SanitizePage` as an
``HTMLExporter`` preprocessor (nbgrader's formgrade and feedback templates render markdown
cells without nbconvert's filter: raw HTML in a markdown answer is cleaned here, and shown
as text where it is not allowed).
"""

from __future__ import annotations

import base64
import binascii
import html as _html
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

from ...errors import PuzzleError
from ...testcells.catalogue import OUTPUT_NOT_DATA, OUTPUT_TOO_LARGE, WIDGET_NOT_KEPT
from ...visuals.display import KIT_MIME

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

# ----------------------------------------------------------------------------- the allow-lists

TAGS = frozenset("""a abbr b blockquote br caption cite code col colgroup dd del details div
    dl dt em figcaption figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp
    small span strong sub summary sup table tbody td tfoot th thead tr tt u ul var""".split())
GLOBAL_ATTRIBUTES = frozenset({"class", "style", "title", "role", "aria-label", "aria-hidden",
                               "lang", "dir"})
TAG_ATTRIBUTES = {"a": {"href"}, "img": {"src", "alt", "width", "height"},
                  "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan", "scope"},
                  "ol": {"start"}, "col": {"span"}, "colgroup": {"span"}}

#: CSS properties an output may set (the kit's boards need those of style.css)
CSS_PROPERTIES = frozenset("""background-color border border-bottom border-collapse
    border-color border-left border-radius border-right border-spacing border-style
    border-top border-width box-shadow caption-side clear color cursor direction display
    flex flex-direction flex-wrap float font font-family font-size font-style font-variant
    font-weight gap align-items justify-content height letter-spacing line-height margin
    margin-bottom margin-left margin-right margin-top max-height max-width min-height
    min-width outline outline-offset overflow padding padding-bottom padding-left
    padding-right padding-top text-align text-decoration text-indent vertical-align
    white-space width word-break position top right bottom left opacity
    list-style-type box-sizing overflow-wrap""".split())
#: values some properties may not take (an output may not leave its own box)
CSS_FORBIDDEN_VALUES = {"position": {"fixed", "sticky"}, "display": {"contents"}}
CSS_FUNCTIONS = frozenset({"rgb", "rgba", "hsl", "hsla", "calc"})
MAX_OFFSET_PX = 400.0   #: top/right/bottom/left beyond this are dropped

_CLASS = re.compile(r"^(?:(?:pk|puzzlekit)-[\w-]{1,60}|highlight|hl-[\w+-]{1,30}"
                    r"|language-[\w+-]{1,30}|[a-z]{1,2}[0-9]?)$")
_IMAGE = re.compile(r"^data:image/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*$")
_LINK = re.compile(r"^(?:https?://|mailto:|#)", re.I)
_NUMBER = re.compile(r"^\d{1,5}(?:\.\d{1,3})?(?:px|%)?$")
_CONTROL = re.compile(r"[\x00-\x20\x7f-\x9f]+")
BOX_STYLE = "position: relative; overflow: auto"

SVG_TAGS = frozenset("""svg g path rect circle ellipse line polyline polygon text tspan
    defs clippath lineargradient radialgradient stop title desc symbol marker""".split())
SVG_ATTRIBUTES = frozenset("""width height viewbox x y x1 y1 x2 y2 cx cy r rx ry d points
    transform fill fill-opacity fill-rule stroke stroke-width stroke-linecap
    stroke-linejoin stroke-opacity stroke-dasharray stroke-miterlimit opacity font-size
    font-family font-weight text-anchor dominant-baseline clip-path offset stop-color
    stop-opacity gradientunits gradienttransform preserveaspectratio version xmlns
    class style markerwidth markerheight orient refx refy id""".split())


def _url(value: str) -> str:
    """`value` as a browser reads a URL: entities decoded, whitespace and controls gone."""
    return _CONTROL.sub("", _html.unescape(value))


def _allowed_attribute(tag: str, name: str, value: str) -> bool:
    if name in GLOBAL_ATTRIBUTES or name in TAG_ATTRIBUTES.get(tag, ()):
        if name in ("href",):
            return bool(_LINK.match(_url(value)))
        if name == "src":
            return bool(_IMAGE.match(_url(value)))
        if name in ("width", "height", "colspan", "rowspan", "start", "span"):
            return bool(_NUMBER.match(_html.unescape(value).strip()))
        return True
    return False


def _css_value_ok(tokens: list[Any]) -> bool:
    """Plain words, numbers, lengths, colours, strings and rgb()/calc(): no URL, no
    escapes, nothing that loads or runs."""
    for t in tokens:
        kind = t.type
        if kind in ("whitespace", "ident", "number", "percentage", "dimension", "hash",
                    "comment"):
            if kind == "ident" and ("\\" in t.value or t.lower_value.startswith("expression")):
                return False
            continue
        if kind == "literal" and t.value in (",", "/", "-", "+", "*", "!"):
            continue
        if kind == "string" and "\\" not in t.value and len(t.value) < 100 \
                and not re.search(r"[:()<>]", t.value):
            continue
        if kind == "function" and t.lower_name in CSS_FUNCTIONS and _css_value_ok(t.arguments):
            continue
        return False
    return True


def _offset_ok(tokens: list[Any]) -> bool:
    values = [t for t in tokens if t.type not in ("whitespace", "comment")]
    if len(values) != 1:
        return False
    t = values[0]
    if t.type == "ident":
        return bool(t.lower_value == "auto")
    if t.type in ("number", "dimension", "percentage"):
        unit = getattr(t, "lower_unit", "px") if t.type == "dimension" else "px"
        return unit in ("px", "em") and abs(float(t.value)) <= MAX_OFFSET_PX
    return False


@lru_cache(maxsize=4096)
def clean_css(style: str) -> str:
    """The declarations of an inline `style` that are allowed (see the module docstring).
    Cached: the kit's boards repeat a few dozen styles hundreds of times."""
    import tinycss2  # type: ignore[import-untyped]
    kept = []
    for decl in tinycss2.parse_blocks_contents(style, skip_comments=True,
                                               skip_whitespace=True):
        if decl.type != "declaration" or decl.lower_name not in CSS_PROPERTIES:
            continue
        if not _css_value_ok(decl.value):
            continue
        text = tinycss2.serialize(decl.value).strip()
        words = set(text.lower().replace(",", " ").split())
        if words & CSS_FORBIDDEN_VALUES.get(decl.lower_name, set()):
            continue
        if decl.lower_name in ("top", "right", "bottom", "left") and not _offset_ok(decl.value):
            continue
        kept.append(f"{decl.lower_name}: {text}{' !important' if decl.important else ''}")
    return "; ".join(kept)


class _CSS:
    """bleach's css_sanitizer interface over `clean_css`."""

    def sanitize_css(self, style: str) -> str:
        # bleach hands over attribute values with their character references unresolved
        return clean_css(_html.unescape(style))


def _class_filter() -> Any:
    from bleach.html5lib_shim import Filter  # type: ignore[import-untyped]

    class KeepClasses(Filter):  # type: ignore[misc]
        """Keep only class names of the kit and of the code highlighter."""

        def __iter__(self) -> Any:
            for token in Filter.__iter__(self):
                attrs = token.get("data") if token.get("type") in ("StartTag",
                                                                    "EmptyTag") else None
                if isinstance(attrs, dict):
                    for key in list(attrs):
                        if key[1] == "class":
                            names = [c for c in attrs[key].split() if _CLASS.match(c)]
                            if names:
                                attrs[key] = " ".join(names)
                            else:
                                del attrs[key]
                yield token
    return KeepClasses


@lru_cache(maxsize=4)
def _cleaner(strip: bool) -> Any:
    import bleach  # type: ignore[import-untyped]
    return bleach.Cleaner(tags=TAGS, attributes=_allowed_attribute,
                          protocols={"http", "https", "mailto", "data"}, strip=strip,
                          strip_comments=True, css_sanitizer=_CSS(),
                          filters=[_class_filter()])


def clean_html(html: object, strip: bool = False) -> str:
    """`html` with only allowed tags, attributes, CSS and URLs; anything else escaped
    into visible text (`strip`: removed instead). Idempotent: clean HTML stays as it is."""
    text = html.decode("utf-8", "replace") if isinstance(html, bytes) else str(html)
    return str(_cleaner(strip).clean(text))


def _allowed_svg_attribute(tag: str, name: str, value: str) -> bool:
    if name not in SVG_ATTRIBUTES:
        return False
    if "url(" in value.replace(" ", "").lower():
        return all(u.startswith("#") for u in re.findall(r"url\(\s*['\"]?([^)'\"]*)",
                                                          value, re.I))
    return True


@lru_cache(maxsize=1)
def _svg_cleaner() -> Any:
    import bleach  # type: ignore[import-untyped]
    return bleach.Cleaner(tags=SVG_TAGS, attributes=_allowed_svg_attribute, protocols=set(),
                          strip=True, strip_comments=True, css_sanitizer=_CSS())


def clean_svg(svg: str) -> str:
    """An SVG image without scripts, foreignObject, event handlers, links or external
    references (shapes, text, gradients and clip paths stay)."""
    text = re.sub(r"<\?xml[^>]*>|<!DOCTYPE[^>[]*(\[[^]]*\])?>", "", str(svg), flags=re.I)
    text = re.sub(r"<(script|style|foreignObject)\b.*?</\1\s*>", "", text, flags=re.I | re.S)
    return str(_svg_cleaner().clean(text))


# ----------------------------------------------------------------------------- markdown

_BLOCK_OPEN = '<div class="pk-markdown">'


def _markdown_html(source: str, raw_html: bool,
                   attachments: Mapping[str, Any] | None = None) -> str:
    """nbconvert's rendering of markdown, pasted images (`attachments`) included; with
    `raw_html` False, HTML written in it is text."""
    try:
        from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
    except ImportError:   # another nbconvert: HTML stays HTML, the allow-list still holds
        from nbconvert.filters import markdown2html
        return str(markdown2html(source))
    renderer = IPythonRenderer(escape=not raw_html, attachments=dict(attachments or {}))
    return str(MarkdownWithMath(renderer=renderer).render(source))


def _as_text(source: str) -> str:
    return ("<pre>" + _html.escape(str(source)).replace("\r", "").replace("\n", "&#10;")
            + "</pre>")


def clean_markdown(source: str, raw_html: bool = True,
                   attachments: Mapping[str, Any] | None = None) -> str:
    """Markdown whose rendering (nbconvert's markdown2html) is the clean rendering of
    `source`: rendered and sanitised here, then handed over as one raw HTML block that
    markdown passes through unchanged (newlines as ``&#10;``, so no blank line ends it).
    `raw_html` False: HTML written in `source` is shown as text (a student's answer).
    Markdown that cannot be rendered (an image pasted, then deleted) shows as its text."""
    from nbconvert.filters import markdown2html
    try:
        html = clean_html(_markdown_html(str(source), raw_html, attachments))
    except Exception:
        return _as_text(source)
    block = _BLOCK_OPEN + html.strip().replace("\r", "").replace("\n", "&#10;") + "</div>"
    if markdown2html(block).strip() == block:
        return block
    return _as_text(source)


def _written_by_the_student(cell: Any) -> bool:
    """A cell the student may have written: not one the notebook locks as given."""
    meta = cell.get("metadata", {}).get("nbgrader", {}) or {}
    return bool(meta.get("solution")) or not meta.get("locked")


# ----------------------------------------------------------------------------- the kit's bundles

def _state(x: object, name: str) -> Any:
    from ...puzzle.board import validate_state
    if not isinstance(x, list) or not all(isinstance(r, list) for r in x):
        raise PuzzleError(f"{name} must be a list of rows")
    return validate_state(tuple(tuple(r) for r in x), name=name)


def _opt_state(x: object, name: str) -> Any:
    return None if x is None else _state(x, name)


def _text(x: object, name: str, most: int = 300) -> str | None:
    if x is None:
        return None
    if not isinstance(x, str) or len(x) > most:
        raise PuzzleError(f"{name} must be a string of at most {most} characters")
    return x


def _int(x: object, name: str, lo: int, hi: int) -> int | None:
    if x is None:
        return None
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
        raise PuzzleError(f"{name} must be an int from {lo} to {hi}")
    return x


def _cell(v: object) -> object:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise PuzzleError("a drawn cell is an int or a short string")
    if isinstance(v, str) and len(v) > 40:
        raise PuzzleError("a drawn cell's text is at most 40 characters")
    return v


def _grid(x: object, name: str) -> list[list[object]]:
    from ...visuals.display import MAX_DISPLAY_SIDE
    if (not isinstance(x, list) or not x or len(x) > MAX_DISPLAY_SIDE
            or not all(isinstance(r, list) and r and len(r) == len(x[0]) for r in x)
            or len(x[0]) > MAX_DISPLAY_SIDE):
        raise PuzzleError(f"{name} must be a rectangular grid of at most "
                          f"{MAX_DISPLAY_SIDE}×{MAX_DISPLAY_SIDE} cells")
    return [[_cell(v) for v in row] for row in x]


def _render_board(b: Mapping[str, Any]) -> str:
    from ...visuals.display import board_html
    highlight = b.get("highlight")
    if highlight is not None:
        if not isinstance(highlight, list) or len(highlight) > 144:
            raise PuzzleError("highlight must be a list")
        highlight = [tuple(h) if isinstance(h, list) else h for h in highlight]
    return board_html(_state(b.get("state"), "state"), _opt_state(b.get("goal"), "goal"),
                      cell_size=_int(b.get("cell_size"), "cell_size", 8, 200),
                      highlight=highlight, overlay=_text(b.get("overlay"), "overlay", 20),
                      title=_text(b.get("title"), "title"))


def _render_path(b: Mapping[str, Any]) -> str:
    from ...visuals.display import path_html
    states = b.get("states")
    if not isinstance(states, list) or not 1 <= len(states) <= 1001:
        raise PuzzleError("states must be a list of 1 to 1001 boards")
    return path_html([_state(s, f"states[{i}]") for i, s in enumerate(states)],
                     _text(b.get("moves"), "moves", 1000),
                     _int(b.get("per_row"), "per_row", 1, 1000),
                     goal=_opt_state(b.get("goal"), "goal"),
                     cell_size=_int(b.get("cell_size"), "cell_size", 8, 200))


def _render_diff(b: Mapping[str, Any]) -> str:
    from ...visuals.display import diff_from
    labels = b.get("labels", ["expected", "got"])
    if not (isinstance(labels, list) and len(labels) == 2):
        raise PuzzleError("labels must be two strings")
    got = b.get("got")
    grid = _grid(got, "got") if got is not None else None
    differ = b.get("differ")
    if differ is not None and not (isinstance(differ, list) and len(differ) <= 144 and all(
            isinstance(d, list) and len(d) == 2 and all(isinstance(v, int) for v in d)
            for d in differ)):
        raise PuzzleError("differ must be a list of [row, col] cells")
    return diff_from(_state(b.get("expected"), "expected"), grid, differ=differ,
                     got_text=_text(b.get("got_text"), "got_text", 400),
                     got_kind=_text(b.get("got_kind"), "got_kind", 100),
                     problem=_text(b.get("problem"), "problem", 400),
                     labels=(_text(labels[0], "label", 60) or "",
                             _text(labels[1], "label", 60) or ""),
                     cell_size=_int(b.get("cell_size"), "cell_size", 8, 200))


def _render_pattern(b: Mapping[str, Any]) -> str:
    from ...visuals.display import show_pattern
    pattern = b.get("pattern")
    if not isinstance(pattern, dict) or len(pattern) > 144:
        raise PuzzleError("pattern must be a dict")
    try:
        tiles = {int(k): v for k, v in pattern.items()}
    except (TypeError, ValueError):
        raise PuzzleError("pattern keys must be tile numbers") from None
    return show_pattern(tiles, _state(b.get("goal"), "goal"),
                        title=_text(b.get("title"), "title"),
                        cell_size=_int(b.get("cell_size"), "cell_size", 8, 200)).data


def _png_b64(x: object) -> str:
    if not isinstance(x, str) or len(x) > 4_000_000:
        raise PuzzleError("a frame must be a base64 PNG")
    try:
        raw = base64.b64decode(x, validate=True)
    except (binascii.Error, ValueError):
        raise PuzzleError("a frame must be a base64 PNG") from None
    if not raw.startswith(b"\x89PNG\r\n\x1a\n"):
        raise PuzzleError("a frame must be a PNG")
    return x


def _render_frames(b: Mapping[str, Any]) -> str:
    from ...visuals.display import tag
    frames = b.get("frames")
    if not isinstance(frames, list) or not frames:
        raise PuzzleError("frames must be a non-empty list")
    first = _png_b64(frames[0])
    title = _text(b.get("title"), "title") or ""
    size = b.get("size") or [0, 0]
    if not (isinstance(size, list) and len(size) == 2):
        raise PuzzleError("size must be [width, height]")
    w, h = (_int(round(v) if isinstance(v, float) else v, "size", 0, 10_000)
            for v in size)
    dims = f' width="{w}" height="{h}"' if w and h else ""
    from ...visuals.animation import as_text
    alt = _text(b.get("alt"), "alt", 20_000) or title or "animation"
    description = _text(b.get("description"), "description", 200_000) or ""
    img = tag("img", ["pk-frame"], "", attrs=f' src="data:image/png;base64,{first}"{dims} '
                                             f'alt="{_html.escape(alt)}"')
    caption = tag("div", ["pk-caption"], _html.escape(title), margin="0 auto 2px auto") \
        if title else ""
    return tag("div", ["pk-player"], caption + img + as_text(title or "animation", description))


def _render_layers(b: Mapping[str, Any]) -> str:
    from ...visuals.animation import layers_strip
    sizes = b.get("sizes")
    boards = b.get("boards")
    if not (isinstance(sizes, list) and len(sizes) <= 1000
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in sizes)):
        raise PuzzleError("sizes must be a list of counts")
    if not isinstance(boards, list) or len(boards) > 12:
        raise PuzzleError("boards must be a list of at most 12 boards")
    return layers_strip(sizes, [_state(x, "board") for x in boards],
                        _state(b.get("goal"), "goal"))


def _render_search(b: Mapping[str, Any]) -> str:
    """A search's drawing, every step at once (no script): from its checked trace."""
    from ...visuals.search_view import search_html, trace_from_data
    return search_html(trace_from_data(dict(b)), interactive=False)


RENDERERS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "board": _render_board, "path": _render_path, "diff": _render_diff,
    "pattern": _render_pattern, "frames": _render_frames, "layers": _render_layers,
    "search": _render_search,
}


def render_kit(bundle: object) -> str:
    """The kit's HTML for one of its own bundles, drawn from validated data; a
    `PuzzleError` naming the problem for anything else."""
    if not isinstance(bundle, dict) or bundle.get("kind") not in RENDERERS:
        raise PuzzleError(f"a {KIT_MIME} bundle is a dict whose 'kind' is one of "
                          f"{', '.join(RENDERERS)}")
    html = RENDERERS[bundle["kind"]](bundle)
    note, bold = _text(bundle.get("note"), "note"), _text(bundle.get("note_bold"), "note", 20)
    if note is not None:     # the line a widget's picture has under its board
        html += f"<p>{_html.escape(note)}" + (f"<b>{_html.escape(bold)}</b>" if bold else "") \
            + "</p>"
    return html


# ----------------------------------------------------------------------------- outputs

#: MIME types an output keeps as they are (the pages escape or encode them)
PLAIN_TYPES = frozenset({"text/plain", "text/latex", "application/json"})
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif"})
_B64 = re.compile(r"^[A-Za-z0-9+/=\s]*$")
#: HTML, SVG or markdown longer than this is not parsed (about a second of the grader's
#: time per MB): the output keeps its text instead
MAX_MARKUP_CHARS = 1_000_000


def boxed(html: str) -> str:
    """Sanitised HTML in a box it cannot leave."""
    return f'<div class="pk-output" style="{BOX_STYLE}">{html}</div>'


def _clean_metadata(meta: object) -> dict[str, Any]:
    """Only the sizes of images."""
    kept: dict[str, Any] = {}
    if isinstance(meta, Mapping):
        for mime in IMAGE_TYPES:
            sizes = meta.get(mime)
            if isinstance(sizes, Mapping):
                ok = {k: v for k, v in sizes.items() if k in ("width", "height")
                      and isinstance(v, (int, float)) and not isinstance(v, bool)}
                if ok:
                    kept[mime] = ok
    return kept


def clean_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """One output's MIME bundle with only data (see the module docstring)."""
    out: dict[str, Any] = {}
    html: str | None = None
    bundle = data.get(KIT_MIME)
    if bundle is not None:
        try:
            html = boxed(clean_html(render_kit(bundle)))
            out[KIT_MIME] = bundle
        except (PuzzleError, ValueError, TypeError, KeyError, IndexError, AttributeError,
                RecursionError):
            html = None              # a forged or broken bundle: the rest is sanitised
    notes: list[str] = []
    for mime, value in data.items():
        text = "".join(value) if isinstance(value, list) else value
        if not isinstance(text, str):
            if mime == "application/json":
                out[mime] = value
            continue
        if mime in ("text/html", "image/svg+xml", "text/markdown") \
                and len(text) > MAX_MARKUP_CHARS:
            if not (mime == "text/html" and html is not None):
                notes.append(OUTPUT_TOO_LARGE.format(size=len(text), mime=mime))
            continue
        if mime in PLAIN_TYPES:
            out[mime] = value
        elif mime in IMAGE_TYPES and _B64.match(text):
            out[mime] = value
        elif mime == "text/html" and html is None:
            html = boxed(clean_html(text))
        elif mime == "image/svg+xml":
            out[mime] = clean_svg(text)
        elif mime == "text/markdown":
            out[mime] = clean_markdown(text)
    if html is not None:
        out["text/html"] = html
    if notes and "text/plain" not in out:
        out["text/plain"] = "\n".join(notes)
    elif notes:
        out["text/plain"] = "".join(out["text/plain"]) + "\n" + "\n".join(notes)
    if not out:
        out["text/plain"] = str(WIDGET_NOT_KEPT) if WIDGET_VIEW in data else \
            OUTPUT_NOT_DATA.format(types=", ".join(sorted(map(str, data)))[:200])
    return out


def clean_output(output: Any) -> Any:
    """One cell output with only data; streams and errors are text already."""
    if output.get("output_type") in ("display_data", "execute_result", "update_display_data"):
        output["data"] = clean_data(output.get("data", {}) or {})
        output["metadata"] = _clean_metadata(output.get("metadata"))
    return output


def clean_notebook(nb: Any) -> Any:
    """Every output of `nb` made inert, and the widget state dropped (in place)."""
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.get("cell_type") == "code":
            cell.outputs = [clean_output(o) for o in cell.get("outputs", [])]
        if "attachments" in cell:
            cell.attachments = {name: {m: v for m, v in files.items() if m in IMAGE_TYPES}
                                for name, files in (cell.attachments or {}).items()
                                if isinstance(files, Mapping)}
    return nb


class SanitizeOutputs(Preprocessor):
    """Autograde step (after the execute step): every output of the graded notebook made
    inert, the kit's own re-drawn from their data, the widget state dropped."""

    enabled = Bool(True, help="Sanitise the outputs (on unless switched off)").tag(config=True)

    def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
        return clean_notebook(nb), resources


class SanitizePage(Preprocessor):
    """``HTMLExporter`` step for the formgrader's and the feedback's pages: the outputs
    again, and markdown cells rendered through the allow-list (nbgrader's templates
    render them without nbconvert's ``clean_html``); in a cell the student may have
    written (an answer, an added cell) HTML shows as the text it is."""

    enabled = Bool(True, help="Sanitise the page (on unless switched off)").tag(config=True)

    def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
        clean_notebook(nb)
        for cell in nb.cells:
            if cell.get("cell_type") == "markdown":
                cell.source = clean_markdown(cell.source,
                                             raw_html=not _written_by_the_student(cell),
                                             attachments=cell.get("attachments"))
        return nb, resources


def with_sanitized_outputs(preprocessors: list[Any]) -> list[Any]:
    """`preprocessors` with `SanitizeOutputs` right after the execute step (a subclass of
    nbconvert's ``ExecutePreprocessor``), or first if there is none; once."""
    from nbconvert.preprocessors import ExecutePreprocessor
    steps = [p for p in preprocessors if p is not SanitizeOutputs]
    at = next((i + 1 for i, p in enumerate(steps)
               if isinstance(p, type) and issubclass(p, ExecutePreprocessor)), 0)
    return steps[:at] + [SanitizeOutputs] + steps[at:]
