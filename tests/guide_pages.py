"""The guide's pages (the Sphinx site in docs/), as the tests that run them read them.

A shell block marked ``<!-- guide-test: NAME -->`` (or an exercise block marked
``<!-- author-test: NAME -->``) may sit on any page of docs/; names are unique across the
site, so a page can be split or moved without touching the tests that run its blocks.
"""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def pages() -> list[Path]:
    """Every Markdown page of the site (the generated reference pages included)."""
    return sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)


def marked_blocks(marker: str, languages: str = "bash") -> dict[str, str]:
    """`{name: block}` of every fenced block after a ``<!-- MARKER: name -->`` line."""
    found: dict[str, str] = {}
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for name, block in re.findall(rf"<!-- {re.escape(marker)}: (\S+) -->\n```(?:{languages})"
                                      rf"\n(.*?)```", text, re.S):
            assert name not in found, f"two blocks named {name!r} in the guide ({page.name})"
            found[name] = block
    return found


def guide_block(name: str) -> str:
    """The shell block marked ``<!-- guide-test: NAME -->``, wherever it is."""
    blocks = marked_blocks("guide-test")
    assert name in blocks, f"the guide has no block {name!r}"
    return blocks[name]
