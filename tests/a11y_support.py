"""Accessibility checks in headless Chromium: axe-core and Chromium's accessibility tree.

- `axe_script()`: the text of axe-core's ``axe.min.js``, installed from npm the first time
  into a cache under the test environment (``<venv>/share/puzzlekit-tests/``), reused
  afterwards (a lock keeps parallel workers from installing it twice);
- `axe(page, include)`: axe-core's violations of WCAG 2.0/2.1 A and AA on the page, or
  only inside the elements `include` selects;
- `ax_names(page, selector)`: the names Chromium's accessibility tree (what a screen
  reader gets) gives every node inside the first element `selector` matches.
"""

from __future__ import annotations

import fcntl
import itertools
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

AXE_VERSION = "4.14.1"
_calls = itertools.count()
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
CACHE = Path(sys.prefix) / "share" / "puzzlekit-tests" / f"axe-core-{AXE_VERSION}"


def axe_script() -> str:
    """axe-core's script, from the cache (installed with npm when missing)."""
    script = CACHE / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is missing (apt-get install npm): axe-core comes from npm")
        CACHE.mkdir(parents=True, exist_ok=True)
        with open(CACHE / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not script.exists():
                done = subprocess.run(
                    [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund",
                     "--no-save", "--loglevel=error", f"axe-core@{AXE_VERSION}"],
                    capture_output=True, text=True, timeout=300)
                assert done.returncode == 0 and script.exists(), \
                    f"npm could not install axe-core@{AXE_VERSION}: {done.stderr[-2000:]}"
    return script.read_text(encoding="utf-8")


def axe(page: Any, include: str | list[str] | None = None) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.x A/AA violations on `page` (or inside the elements `include`
    selects), each with its rule id, impact, help and the HTML of the nodes at fault."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_script())
    context: Any = "document" if include is None else {
        "include": [[s] for s in ([include] if isinstance(include, str) else include)]}
    result = page.evaluate(
        """async ([context, tags]) => {
             const ctx = context === 'document' ? document : context;
             const r = await axe.run(ctx, {runOnly: {type: 'tag', values: tags},
                                           resultTypes: ['violations']});
             return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                            nodes: v.nodes.map(n => n.html.slice(0, 300)),
                                            summary: v.nodes.map(n => n.failureSummary)}));
           }""", [context, AXE_TAGS])
    return list(result)


def describe(violations: list[dict[str, Any]]) -> str:
    """The violations, one line per rule, for an assertion message."""
    return "\n".join(f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}: "
                     f"{v['nodes'][0]} — {v['summary'][0]}" for v in violations)


def count(violations: list[dict[str, Any]]) -> int:
    """How many elements fail, over all rules (axe's usual count)."""
    return sum(len(v["nodes"]) for v in violations)


def ax_subtrees(page: Any, selector: str) -> list[list[dict[str, str]]]:
    """What a screen reader gets from each element `selector` matches: Chromium's
    accessibility tree under it (CDP ``Accessibility.getFullAXTree``), depth first, as
    {role, name, description} for every node the tree does not ignore."""
    n = page.locator(selector).count()
    tag = f"{next(_calls)}-"           # each call marks its own elements
    page.evaluate("""([s, tag]) => document.querySelectorAll(s).forEach(
                       (e, i) => e.setAttribute('data-ax-root', tag + i))""", [selector, tag])
    cdp = page.context.new_cdp_session(page)
    try:
        doc = cdp.send("DOM.getDocument", {"depth": 0})
        backends = []
        for i in range(n):
            found = cdp.send("DOM.querySelector", {"nodeId": doc["root"]["nodeId"],
                                                   "selector": f'[data-ax-root="{tag}{i}"]'})
            backends.append(cdp.send("DOM.describeNode", {"nodeId": found["nodeId"]})[
                "node"]["backendNodeId"])
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    by_id = {x["nodeId"]: x for x in nodes}
    by_backend = {x.get("backendDOMNodeId"): x for x in nodes}

    def visit(x: dict[str, Any], out: list[dict[str, str]]) -> list[dict[str, str]]:
        if not x.get("ignored"):
            out.append({"role": x.get("role", {}).get("value", ""),
                        "name": str(x.get("name", {}).get("value", "")),
                        "description": str(x.get("description", {}).get("value", ""))})
        for c in x.get("childIds", []):
            if c in by_id:
                visit(by_id[c], out)
        return out
    return [visit(by_backend[b], []) if b in by_backend else [] for b in backends]
