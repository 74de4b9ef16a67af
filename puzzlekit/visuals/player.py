"""The player both stepped drawings share: an animation (`animation`) and the drawing of
a recorded search (`search_view`).

Its controls are plain-text buttons (start, back, play/pause, forward, end), a slider, a
counter and, for an animation, a speed; a live region says what each step shows. They are
hidden until the script runs, so that where scripts are stripped the drawing shows as it
is. The script (a few lines of inline JavaScript) finds its drawing, steps it on the
buttons, the slider and the arrow keys (JupyterLab leaves keys inside a drawing to it:
``data-lm-suppress-shortcuts``) and plays it; what a step shows is the drawing's own
*stepper*, a JavaScript function ``(root, D, still) -> {first, last, draw, said, dwell}``:

- ``first``, ``last``: the step shown first, and the last step;
- ``draw(k, follow)``: show step k (``follow``: scroll it into view when it is a step the
  reader went to) and return what the counter says;
- ``said(k)``: step k in words (announced when the reader steps, or when play stops);
- ``dwell(k)``: milliseconds on step k at 1× speed when playing.

``still()`` says whether the reader asked for reduced motion (asked at each step, so a
change of the setting counts at once).
"""

from __future__ import annotations

import html as _html
import json
from typing import Any

from .display import style, tag

#: (data-act, visible glyph, what the button does in words: its accessible name)
BUTTONS = [("first", "|\u25C0", "go to the start"), ("prev", "\u25C0", "step back"),
           ("play", "\u25B6", "play"), ("next", "\u25B6", "step forward"),
           ("last", "\u25B6|", "go to the end")]

#: the speeds offered (an animation's), 1× chosen
SPEEDS = ("0.25", "0.5", "1", "2", "4")

_SCRIPT = """
(function () {
  var me = document.currentScript, root = me && me.parentNode;
  if (!root || !root.classList || !root.classList.contains(__CLASS__)) {
    // a copy of this script runs elsewhere (VS Code re-creates output scripts at the end of
    // the output): start the first drawing with this id that has not started yet
    root = null;
    document.querySelectorAll("." + __CLASS__ + '[id="' + __ID__ + '"]').forEach(function (p) {
      if (!root && !p.getAttribute("data-ready")) root = p;
    });
  }
  if (!root || root.getAttribute("data-ready")) return;
  root.setAttribute("data-ready", "1");
  root.querySelector(".pk-controls").style.display = "flex";
  var slider = root.querySelector(".pk-slider"), counter = root.querySelector(".pk-counter");
  var live = root.querySelector(".pk-live"), play = root.querySelector("[data-act=play]");
  var speed = root.querySelector(".pk-speed"), timer = null;
  var motion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  function still() { return !!(motion && motion.matches); }
  var D = __DATA__;
  var S = (__STEPPER__)(root, D, still), k = S.first;
  slider.max = S.last;
  function show(j, say, follow) {
    k = Math.max(0, Math.min(S.last, j));
    var label = S.draw(k, follow);
    slider.value = k; counter.textContent = label;
    slider.setAttribute("aria-valuetext", label);
    if (say) live.textContent = S.said(k);
  }
  function stop() {
    if (timer) { clearTimeout(timer); timer = null; live.textContent = S.said(k); }
    play.innerHTML = '<span aria-hidden="true">\\u25B6</span> play';
  }
  function later() { return S.dwell(k) / (speed ? parseFloat(speed.value) : 1); }
  function tick() {
    show(k + 1, false, true);
    if (k >= S.last) { stop(); return; }
    timer = setTimeout(tick, later());
  }
  function start() {
    if (k >= S.last) show(0, false, true);
    play.innerHTML = '<span aria-hidden="true">\\u275A\\u275A</span> pause';
    timer = setTimeout(tick, later());
  }
  var acts = {first: function () { stop(); show(0, 1, 1); },
              prev: function () { stop(); show(k - 1, 1, 1); },
              next: function () { stop(); show(k + 1, 1, 1); },
              last: function () { stop(); show(S.last, 1, 1); },
              play: function () { if (timer) stop(); else start(); }};
  root.querySelectorAll("[data-act]").forEach(function (b) {
    b.addEventListener("click", acts[b.getAttribute("data-act")]);
  });
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10), 1, 1); });
  if (speed) speed.addEventListener("change", function () { if (timer) { stop(); start(); } });
  root.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || (speed && e.target === speed)) return;
    var act = {ArrowLeft: "prev", ArrowDown: "prev", ArrowRight: "next", ArrowUp: "next",
               Home: "first", End: "last"}[e.key];
    if (!act) return;
    e.preventDefault(); e.stopPropagation(); acts[act]();
  });
  show(k, false, false);
})();
"""


def script(pid: str, root_class: str, data: dict[str, Any], stepper: str) -> str:
    """The player's ``<script>`` for the drawing with id `pid` and class `root_class`:
    `data` (JSON-ready) handed to `stepper` (see the module's words)."""
    # "</" in a string of the data (a title) must not end the script
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    code = (_SCRIPT.replace("__STEPPER__", stepper).replace("__CLASS__", json.dumps(root_class))
            .replace("__ID__", json.dumps(pid)).replace("__DATA__", blob))
    return f"<script>{code}</script>"


def controls(last: int, value: int, unit: str, counter: str = "", *,
             speed: bool = False) -> str:
    """The controls (hidden until the script runs) and the live region: the buttons, a
    slider from 0 to `last` at `value` named `unit` ("move", "depth", "step"), the
    counter saying `counter`, and with `speed` the speed choice."""
    buttons = "".join(tag("button", ["pk-button"], f'<span aria-hidden="true">{glyph}</span>'
                          + (" play" if act == "play" else ""),
                          attrs=f' type="button" data-act="{act}" title="{words}"'
                                + ("" if act == "play" else f' aria-label="{words}"'))
                      for act, glyph, words in BUTTONS)
    slider = tag("input", ["pk-slider"], "",
                 attrs=f' type="range" min="0" max="{last}" value="{value}" '
                       f'aria-label="{_html.escape(unit)}"').replace("></input>", ">")
    shown = tag("span", ["pk-counter"], _html.escape(counter), attrs=' aria-hidden="true"')
    choice = ""
    if speed:
        options = "".join(f'<option value="{v}"{" selected" if v == "1" else ""}>{v}×</option>'
                          for v in SPEEDS)
        choice = tag("select", ["pk-speed", "pk-button"], options, attrs=' aria-label="speed"')
    # hidden until the script runs: where scripts are stripped the drawing shows as it is
    hidden = _html.escape(style("pk-controls")) + "; display: none"
    return (f'<div class="pk-controls" style="{hidden}">{buttons}{slider}{shown}{choice}</div>'
            + tag("span", ["pk-sr", "pk-live"], "", attrs=' role="status" aria-live="polite"'))


__all__ = ["BUTTONS", "SPEEDS", "controls", "script"]
