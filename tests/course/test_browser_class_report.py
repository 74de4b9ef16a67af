"""The class report of the synthetic class (tests/course/test_class_report.py, read from
its notebooks without a gradebook) in headless Chromium: no WCAG 2.1 A/AA violation
(axe-core) at 1280 and 320 CSS px, with every table opened; no sideways scroll on a
phone, where each picture is its narrow drawing; no request leaves the page; the live
page's reload is the reader's choice. Screenshots go to test-artifacts/class-report-*.png.
"""

from __future__ import annotations

import pytest
from browser_support import chromium, offline, require_chromium, screenshot
from test_class_report import class_data

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_class_report_passes_axe_and_fits_a_phone(tmp_path):
    require_chromium()
    from a11y_support import axe, describe

    from puzzlekit.course.class_report import ClassReport
    report = ClassReport(class_data(tmp_path / "notebooks"))
    anonymous = report.write(tmp_path / "out").html
    # with the students' names and live: the same page and a few more elements, at 320 px
    named = ClassReport(report.data, names=True)
    live = tmp_path / "named-live.html"
    live.write_text(named.html(live_seconds=30), encoding="utf-8")
    with chromium() as page:
        refused = offline(page)
        for name, path, width in (("anonymous", anonymous, 1280), ("anonymous", anonymous, 320),
                                  ("named and live", live, 320)):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(path.as_uri())
            page.evaluate("() => document.querySelectorAll('details').forEach("
                          "d => d.open = true)")
            found = axe(page)
            assert found == [], f"{name} at {width} px:\n{describe(found)}"
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, f"{name} scrolls sideways at {width} px ({wide} px)"
            # each picture: the drawing for the width, loaded, with its words
            pictures = page.evaluate("""() => [...document.querySelectorAll('picture')]
                .map(p => ({src: p.querySelector('img').currentSrc,
                            narrow: p.querySelector('source').srcset,
                            ok: p.querySelector('img').naturalWidth > 0,
                            alt: p.querySelector('img').alt}))""")
            assert len(pictures) == 4
            for pic in pictures:
                assert pic["ok"] and len(pic["alt"]) > 60, pic["alt"]
                assert (pic["src"] == pic["narrow"]) == (width == 320)
            if name == "anonymous":
                screenshot(page, f"class-report-{width}", full_page=True)
                regions = page.get_by_role("region", name="as a table").all()
                assert len(regions) == 4
                assert all(r.get_attribute("tabindex") == "0" for r in regions)
        assert refused == []

        # the live page: a status line, and a reload only when the reader asks for it
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(live.as_uri())
        box = page.get_by_label("Reload this page by itself every 30 s")
        assert box.is_visible() and not box.is_checked()
        assert "Live: rewritten as submissions are graded" in \
            page.get_by_role("status").inner_text()
        box.check()
        assert page.evaluate("() => location.hash") == "#live"
        box.uncheck()
        assert page.evaluate("() => location.hash") == ""
