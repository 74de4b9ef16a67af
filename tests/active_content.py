"""What in a piece of HTML could run or load something, as a browser parses it.

`active_content(html)` parses with html5lib (the HTML standard's algorithm, as browsers
do; bleach's vendored copy) and lists every element or attribute that could run a script,
navigate, load a resource or leave its box: script/iframe/object/embed/base/meta/form/
style/link/foreignObject elements, ``on*`` attributes, ``javascript:``/``data:`` URLs
outside raster images, ``url(`` or ``position: fixed`` in styles, ``id``/``name``.
"""

from __future__ import annotations

import html as _html
import re

ACTIVE_TAGS = {"script", "iframe", "frame", "frameset", "object", "embed", "applet", "base",
               "meta", "form", "style", "link", "foreignobject", "template", "noscript",
               "portal", "svg", "math", "input", "button", "textarea", "select", "video",
               "audio", "source", "track"}
_RASTER = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,", re.I)


def active_content(html: str, svg: bool = False) -> list[str]:
    """(`svg`: an SVG image, whose own shapes are not active)"""
    from bleach._vendor import html5lib  # type: ignore[import-untyped]
    found: list[str] = []
    tree = html5lib.parseFragment(html, treebuilder="etree", namespaceHTMLElements=False)
    for el in tree.iter():
        if not isinstance(el.tag, str):
            continue
        tag = el.tag.split("}")[-1].lower()
        if tag in ACTIVE_TAGS and not (svg and tag == "svg"):
            found.append(f"<{tag}>")
        for name, value in el.attrib.items():
            name = name.split("}")[-1].lower()
            url = re.sub(r"[\x00-\x20]+", "", _html.unescape(value)).lower()
            if name.startswith("on") or name in ("id", "name", "srcdoc", "formaction",
                                                 "action", "xlink:href"):
                found.append(f"{tag}[{name}]")
            elif name in ("href", "src", "background", "poster", "data", "lowsrc"):
                if name == "src" and _RASTER.match(url):
                    continue
                if not re.match(r"^(https?://|mailto:|#)", url):
                    found.append(f"{tag}[{name}={url[:30]}]")
            elif name == "style" and re.search(r"url\(|expression|position:\s*(fixed|sticky)"
                                               r"|@import|\\", url):
                found.append(f"{tag}[style={url[:40]}]")
    return found


def runnable(html: str) -> list[str]:
    """Every piece of `html` a browser would run: inline scripts' text, ``on*`` handlers,
    ``javascript:`` URLs, ``srcdoc`` documents (for a whole page: then look for a marker)."""
    from bleach._vendor import html5lib
    code: list[str] = []
    tree = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    for el in tree.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag.split("}")[-1].lower() == "script":
            code.append("".join(el.itertext()))
        for name, value in el.attrib.items():
            name = name.split("}")[-1].lower()
            url = re.sub(r"[\x00-\x20]+", "", _html.unescape(value)).lower()
            if name.startswith("on") or name == "srcdoc" or url.startswith("javascript:"):
                code.append(value)
    return code
