"""The guide as a site (`make docs`): it builds with warnings as errors (no page left out of
the contents, no broken link between pages), its start page takes an instructor to grading
and to adding an exercise in one click each, and its reference lists every configurable
trait of the kit's classes and every `python -m puzzlekit` verb, as the code has them."""

from __future__ import annotations

import ast
import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                           "html", str(DOCS), str(out)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"the guide does not build cleanly:\n{done.stderr}"
    return out


def text_of(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def test_the_start_page_leads_to_grading_and_to_a_new_exercise_first(site: Path):
    start = (site / "index.html").read_text(encoding="utf-8")
    body = start[start.index('<div class="body"'):]
    first_links = re.findall(r'href="([^"#]+)', body)[:3]
    assert "how-to/grade-a-class.html" in first_links
    assert "how-to/add-an-exercise.html" in first_links


def test_every_kind_of_page_is_in_the_contents(site: Path):
    start = text_of(site / "index.html")
    for caption in ("Tutorial", "How-to", "Reference", "Explanation"):
        assert caption in start
    for page in ("tutorial/first-hour", "how-to/class-server", "reference/config",
                 "reference/cli", "reference/messages", "explanation/wall"):
        assert (site / f"{page}.html").exists(), page


def configurable_traits() -> set[tuple[str, str]]:
    """(class, trait) for every `Trait(...).tag(config=True)` in a class of the package's
    source, read with `ast` (so nothing the docs' own generator does is trusted here)."""
    found = set()
    for path in (REPO / "puzzlekit").rglob("*.py"):
        for cls in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(cls, ast.ClassDef):
                continue
            for stmt in cls.body:
                if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Name)
                        and "config=True" in ast.unparse(stmt.value)):
                    found.add((cls.name, stmt.targets[0].id))
    return found


def test_the_reference_lists_every_configurable_trait(site: Path):
    page = text_of(site / "reference" / "config.html")
    traits = configurable_traits()
    assert len(traits) >= 30
    for cls, name in sorted(traits):
        if cls.startswith("_"):   # a private base: its options appear under its subclasses
            assert re.search(rf"c\.\w+\.{name}\b", page), (cls, name)
        else:
            assert f"c.{cls}.{name}" in page, f"c.{cls}.{name} is not in the reference"


def test_the_reference_lists_every_verb_with_its_options(site: Path):
    from puzzlekit.cli import build_parser

    page = text_of(site / "reference" / "cli.html")
    verbs = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert len(verbs) >= 8
    for verb, sub in verbs.items():
        assert f"usage: python -m puzzlekit {verb}" in page, verb
        for action in sub._actions:
            for flag in action.option_strings:
                assert flag in page, (verb, flag)


def test_the_reference_shows_every_message_once_under_its_module(site: Path):
    from puzzlekit.testcells import catalogue

    page = (site / "reference" / "messages.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h3><code[^>]*><span class="pre">(\w+)</span>', page)
    assert sorted(headings) == sorted(catalogue.MESSAGES)
    sections = re.findall(r"<h2>(.*?)<a", page)
    modules = {p.stem for p in Path(catalogue.__file__).parent.glob("*.py")} - {
        "__init__", "message"}
    assert len(sections) == len(modules), sections


def test_the_readme_links_the_guide():
    assert "(docs/index.md)" in (REPO / "README.md").read_text(encoding="utf-8")


@pytest.mark.browser
def test_every_page_meets_wcag_aa_and_fits_a_phone(site: Path):
    """axe-core finds no WCAG 2.1 A/AA violation on any page at 1280 px, and at 390 px no
    page scrolls sideways (a wide table or code block scrolls in its own box)."""
    from a11y_support import axe, describe
    from browser_support import chromium, require_chromium
    require_chromium()
    pages = sorted(site.rglob("*.html"))
    pages = [p for p in pages if p.parent.name not in ("_modules", "_sources")
             and p.name not in ("genindex.html", "search.html")]
    assert len(pages) >= 15
    with chromium(width=1280, height=900) as page:
        for html_page in pages:
            page.goto(html_page.as_uri())
            found = axe(page)
            assert not found, f"{html_page.relative_to(site)}: {describe(found)}"
        page.set_viewport_size({"width": 390, "height": 800})
        for html_page in pages:
            page.goto(html_page.as_uri())
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 392, f"{html_page.relative_to(site)} is {width} px wide at 390 px"
