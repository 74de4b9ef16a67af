"""Sphinx configuration of puzzlekit's docs (`make docs`: the site in build/docs/html).

The pages are Markdown (MyST). The reference pages of configuration options and of the
`python -m puzzlekit` verbs are written from the code at each build (`_ext/kitref.py`).
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

project = "puzzlekit"
author = "the puzzlekit authors"
copyright = "2026, the puzzlekit authors"

extensions = ["myst_parser", "kitref", "a11y"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "images/**/README.md", "students.example.csv"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
suppress_warnings = ["myst.header"]   # a few pages start at ## inside a page's sections

html_theme = "alabaster"
pygments_style = "vs"            # code colours with AA contrast on the page
html_title = "puzzlekit: the guide"
html_static_path = ["_static"]
html_css_files = ["guide.css"]
html_theme_options = {
    "description": "A course kit on state-space search with the sliding-tile puzzle",
    "fixed_sidebar": False,
    "show_relbars": True,
}
