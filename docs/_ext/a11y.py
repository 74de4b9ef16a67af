"""Make the built pages meet WCAG 2.1 AA where Sphinx's own HTML does not (a Sphinx
extension; `docs/conf.py` loads it; tests/test_docs.py runs axe-core on the pages).

- the contents' captions carry ``role="heading"`` without the ``aria-level`` a heading
  needs: level 2 is added;
- a code block or a table that scrolls sideways at phone width (the guide's CSS) can be
  reached and scrolled from the keyboard: ``tabindex="0"``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

FIXES = [
    (re.compile(r'<p class="caption" role="heading">'),
     '<p class="caption" role="heading" aria-level="2">'),
    (re.compile(r"<pre>"), '<pre tabindex="0">'),
    (re.compile(r'<table class="docutils'), '<table tabindex="0" class="docutils'),
]


def fix_page(text: str) -> str:
    for pattern, replacement in FIXES:
        text = pattern.sub(replacement, text)
    return text


def fix_site(outdir: Path) -> None:
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        fixed = fix_page(text)
        if fixed != text:
            page.write_text(fixed, encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    def finished(app: Any, error: Exception | None) -> None:
        if error is None and app.builder.format == "html":
            fix_site(Path(app.outdir))
    app.connect("build-finished", finished)
    return {"parallel_read_safe": True, "version": "1"}
