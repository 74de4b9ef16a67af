"""The course's feedback page, made to meet WCAG 2.1 AA.

nbgrader's feedback template (``feedback``) leaves out the page's language, draws links
at 4.17:1 without an underline, and lets long traceback lines scroll sideways. The
course's template (``puzzlekit/templates/puzzlekit_feedback``) extends it and changes only
that: ``<html lang="en">``, links at 8:1 and underlined, code and traceback colours of at
least 4.5:1, wrapped lines, and images that shrink to a narrow screen. A traceback's
256-colour ANSI codes (IPython colours the code lines it quotes: ``try`` in #008700,
4.2:1 on the output's grey) come as inline ``color: rgb(...)`` styles no stylesheet can
reach; `readable_colours` darkens each one that reads below 4.5:1 until it does.

`FeedbackExporter` is nbgrader's HTML exporter that uses the course's template wherever
nbgrader asks for its own (the ``generate_feedback`` command and the formgrader's
button both set ``template_name = "feedback"``); `configure(c)` sets it up from the
course's ``nbgrader_config.py``.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

from nbconvert.exporters import HTMLExporter
from traitlets import Unicode, default, validate

from ..visuals.display import contrast_ratio

TEMPLATE = "puzzlekit_feedback"
#: the lightest background code and outputs sit on in nbgrader's feedback page
CODE_BACKGROUND = "#f5f5f5"
_INLINE_RGB = re.compile(r"color: ?rgb\((\d{1,3}), ?(\d{1,3}), ?(\d{1,3})\)")


def readable(rgb: tuple[int, int, int], background: str = CODE_BACKGROUND,
             ratio: float = 4.5) -> str:
    """The colour `rgb` as #rrggbb, darkened towards black just enough to read
    `ratio`:1 on `background`."""
    for keep in range(100, -1, -5):
        out = "#" + "".join(f"{min(255, v) * keep // 100:02x}" for v in rgb)
        if contrast_ratio(out, background) >= ratio:
            return out
    return "#000000"


def readable_colours(html: str) -> str:
    """Every inline ``color: rgb(r,g,b)`` (ansi2html's 256-colour codes) at 4.5:1 or more."""
    def fix(m: re.Match[str]) -> str:
        r, g, b = (int(v) for v in m.groups())
        if contrast_ratio(readable((r, g, b), ratio=0), CODE_BACKGROUND) >= 4.5:
            return m.group(0)
        return f"color: {readable((r, g, b))}"
    return _INLINE_RGB.sub(fix, html)


def template_dir() -> str:
    """The folder that holds the course's templates (shipped inside the package)."""
    return str(resources.files("puzzlekit").joinpath("templates"))


def nbgrader_template_dir() -> str:
    """nbgrader's own templates (its ``feedback`` template, which the course's extends)."""
    import nbgrader
    return str(Path(nbgrader.__file__).parent / "server_extensions" / "formgrader" / "templates")


class FeedbackExporter(HTMLExporter):
    """nbgrader's feedback page through the course's accessible template."""

    lang = Unicode("en", help="the language of the feedback pages (BCP 47)").tag(config=True)

    @validate("template_name")
    def _template_name_validate(self, proposal: Any) -> str:   # nbconvert's, then ours
        name = super()._template_name_validate(proposal)
        return TEMPLATE if name == "feedback" else str(name)

    @validate("extra_template_basedirs")
    def _course_templates_first(self, proposal: Any) -> list[str]:
        ours = [template_dir(), nbgrader_template_dir()]
        return ours + [str(d) for d in proposal["value"] if str(d) not in ours]

    @validate("extra_template_paths")
    def _nbgrader_templates_found(self, proposal: Any) -> list[str]:
        """nbgrader's templates folder as a root too, where the course's template finds
        the one it extends (``feedback/index.html.j2``)."""
        paths = [str(d) for d in proposal["value"]]
        return paths + [nbgrader_template_dir()] * (nbgrader_template_dir() not in paths)

    @default("extra_template_paths")
    def _nbgrader_templates(self) -> list[str]:
        return [nbgrader_template_dir()]

    @default("extra_template_basedirs")
    def _course_templates(self) -> list[str]:
        return [template_dir(), nbgrader_template_dir()]

    def from_notebook_node(self, nb: Any, resources: dict[str, Any] | None = None,
                           **kw: Any) -> tuple[Any, dict[str, Any]]:
        resources = dict(resources or {})
        resources.setdefault("page_lang", self.lang)
        body, out = super().from_notebook_node(nb, resources=resources, **kw)
        return readable_colours(body), out


def configure(c: Any) -> None:
    """The course's feedback pages through `FeedbackExporter` (for nbgrader_config.py)."""
    c.GenerateFeedback.exporter_class = FeedbackExporter
