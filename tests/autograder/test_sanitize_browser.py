"""The kit's drawings look the same after the sanitiser, in a real browser.

Each drawing (boards with overlays, paths, diffs, a pattern, the static strips of the
animations, the widgets' pictures) is rendered twice in
headless Chromium: as the kit displays it, and as the graded notebook keeps it (redrawn
from its data, then through the allow-list, boxed). The two screenshots must be the same
pixels, up to anti-aliasing (a channel off by at most 2 of 255); saved to test-artifacts/sanitized-*.png to look at.
"""

from __future__ import annotations

import io
import json

import pytest
from browser_support import chromium, offline, require_chromium, screenshot

import puzzlekit as pk
from puzzlekit.autograder.judge.sanitize import clean_data, clean_html
from puzzlekit.visuals.display import KIT_MIME

pytestmark = [pytest.mark.browser, pytest.mark.slow]

START = ((8, 0, 6), (5, 4, 7), (2, 3, 1))


def drawings(monkeypatch: pytest.MonkeyPatch) -> dict[str, dict]:
    """name -> the MIME bundle the kit displays."""
    path = pk.solve(START, algorithm="astar", heuristic="manhattan").path
    out = {
        "board": pk.show(START, overlay="manhattan", highlight=[1, (0, 0)], title="a board"),
        "conflict-4x4": pk.show(((4, 1, 2, 3), (5, 6, 7, 8), (9, 10, 11, 12),
                                 (13, 14, 15, 0)), overlay="linear_conflict"),
        "path": pk.show_path(path[:9]),
        "diff": pk.show_diff(START, [[8, 6, 0], [5, 4, 7], [2, 3, 1]]),
        "diff-junk": pk.show_diff(START, [[1, 2.0], [3, "x"]]),
        "pattern": pk.show_pattern({1: 1, 2: 0, 3: 2}, ((1, 2, 3), (4, 5, 6), (7, 8, 0))),
    }
    bundles = {name: view._repr_mimebundle_() for name, view in out.items()}
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    from puzzlekit.visuals.widgets import play, play_path
    bundles["strip"] = pk.animate_path(path[:6])._repr_mimebundle_()
    bundles["layers"] = pk.animate_bfs_layers(pk.goal_state(3), max_depth=6)._repr_mimebundle_()
    bundles["playable"] = play(3, seed=2)._repr_mimebundle_()
    bundles["path-player"] = play_path(path[:5])._repr_mimebundle_()
    return json.loads(json.dumps(bundles))


def page(body: str) -> str:
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body style='margin:0;"
            "font-family: DejaVu Sans; background: white'>" + body + "</body></html>")


def test_the_kits_drawings_look_the_same_after_sanitising(monkeypatch, tmp_path):
    require_chromium()
    from PIL import Image, ImageChops
    shots: dict[str, tuple[bytes, bytes]] = {}
    with chromium() as browser:
        offline(browser)
        for name, bundle in drawings(monkeypatch).items():
            assert KIT_MIME in bundle, name
            kept = clean_data(bundle)
            assert KIT_MIME in kept, name
            html = bundle["text/html"]
            pair = []
            for label, body in (("kit", html), ("sanitized", kept["text/html"])):
                # the formgrader's page cleans once more: render that too
                body = clean_html(body) if label == "sanitized" else body
                browser.set_content(page(f"<div id='x' style='display:inline-block'>{body}"
                                         "</div>"))
                pair.append(browser.locator("#x").screenshot())
                screenshot(browser.locator("#x"), f"sanitized-{name}-{label}")
            shots[name] = (pair[0], pair[1])
    for name, (a, b) in shots.items():
        ia, ib = Image.open(io.BytesIO(a)).convert("RGB"), Image.open(io.BytesIO(b)).convert("RGB")
        assert ia.size == ib.size, (name, ia.size, ib.size)
        worst = max(hi for _, hi in ImageChops.difference(ia, ib).getextrema())
        assert worst <= 2, f"{name} looks different (a pixel differs by {worst} levels)"
