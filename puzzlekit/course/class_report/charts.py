"""The class report's pictures, drawn with matplotlib (no pyplot: a `Figure` of its own,
so an instructor's notebook keeps its backend), as SVG data URIs.

Each chart comes twice, wide (about 690 px) and narrow (about 290 px, for a phone), with
the same text size: the page picks one by the screen's width. A chart's bars are labelled
above them, so long exercise names and mistake titles never shrink or overlap. Every
colour stands 3:1 or more from the white around it, white lines part the segments of a
bar, and the segments are told apart by hatching as well as colour. What a chart shows is
also in its text alternative (`Chart.alt`) and in a table on the page.
"""

from __future__ import annotations

import base64
import io
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: (colour, hatch) of each kind of bar segment; each at least 4.5:1 against white, so the
#: white numbers written on them read too
FULL = ("#2166ac", "")
SOME = ("#b35806", "/")
NONE = ("#4d4d4d", "x")
ONE = ("#1f5f99", "")
UNNAMED = ("#8c510a", "")
MEAN_COLOUR, MEDIAN_COLOUR = "#2166ac", "#b35806"
TEXT = "#1a1a1a"

WIDE, NARROW = 7.2, 3.0        #: inches (SVG: 72 pt each, 96 CSS px)
ROW = 0.52                     #: inches per bar with its label above it
FONT = 9.5


@dataclass(frozen=True)
class Segment:
    """A part of a bar: its length, colour and hatch, and the words written on it."""
    value: float
    style: tuple[str, str]
    text: str = ""


@dataclass(frozen=True)
class Row:
    """A bar with its label above it and a note at its end."""
    label: str
    segments: tuple[Segment, ...]
    note: str = ""


@dataclass(frozen=True)
class Chart:
    """A picture in two widths (data URIs of SVGs) and its text alternative."""
    alt: str
    wide: str
    narrow: str


def _rc() -> Any:
    return {"svg.fonttype": "none", "svg.hashsalt": "puzzlekit", "font.size": FONT,
            "font.family": "DejaVu Sans", "text.color": TEXT, "axes.labelcolor": TEXT,
            "xtick.color": TEXT, "ytick.color": TEXT, "axes.edgecolor": "#595959",
            "hatch.color": "#ffffff", "hatch.linewidth": 0.7}


def _svg_uri(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None},
                facecolor="#ffffff")
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _chars(width_in: float) -> int:
    """About how many characters of the charts' text fit in `width_in` inches."""
    return max(16, int(width_in * 72 / (FONT * 0.62)))


def _wrap(text: str, width_in: float) -> str:
    return "\n".join(textwrap.wrap(text, _chars(width_in), break_long_words=True)) or " "


def _label_and_note(label: str, note: str, width_in: float) -> tuple[str, str]:
    """The label (wrapped) and the note to write at the right end of its last line; a
    note that would not fit beside the label goes after it."""
    wrapped = _wrap(label, width_in)
    last = wrapped.rsplit("\n", 1)[-1]
    if not note or len(last) + len(note) + 4 <= _chars(width_in):
        return wrapped, note
    return _wrap(f"{label} · {note}", width_in), ""


def _rows_figure(rows: Sequence[Row], width_in: float, legend: Sequence[tuple[str, tuple[str, str]]],
                 xmax: float) -> Any:
    """Horizontal bars, each with its label on the line above it."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    pairs = [_label_and_note(r.label, r.note, width_in - 0.2) for r in rows]
    labels = [lab for lab, _ in pairs]
    extra = [lab.count("\n") for lab in labels]
    unit = FONT * 1.25 / 72          # inches of one more line of a label
    heights = [ROW + e * unit for e in extra]
    top = 0.55 if legend else 0.12
    height = sum(heights) + top + 0.15
    fig = Figure(figsize=(width_in, height))
    ax = fig.add_axes((0.02, 0.15 / height, 0.96, (height - top - 0.15) / height))
    ax.set_xlim(0, xmax * 1.0001 or 1)
    ax.set_ylim(sum(heights), 0)
    ax.axis("off")
    y = 0.0
    bar_h = 0.2
    for row, (label, note), h in zip(rows, pairs, heights):
        bar_y = y + h - bar_h / 2 - 0.06
        ax.text(0, bar_y - bar_h / 2 - 0.04, label, va="bottom", ha="left")
        ax.barh(bar_y, xmax, height=bar_h, left=0, color="#f2f2f2", edgecolor="none")
        left = 0.0
        for seg in row.segments:
            if seg.value <= 0:
                continue
            colour, hatch = seg.style
            ax.barh(bar_y, seg.value, height=bar_h, left=left, color=colour, hatch=hatch,
                    edgecolor="#ffffff", linewidth=1.5)
            if seg.text and seg.value / xmax * width_in >= 0.09 * (len(seg.text) + 1):
                ax.text(left + seg.value / 2, bar_y, seg.text, ha="center", va="center",
                        color="#ffffff", fontsize=FONT - 0.5, fontweight="bold",
                        bbox={"boxstyle": "square,pad=0.15", "facecolor": colour,
                              "edgecolor": "none"})
            left += seg.value
        if note:
            ax.text(xmax, bar_y - bar_h / 2 - 0.04, note, va="bottom", ha="right",
                    fontsize=FONT - 0.5)
        y += h
    if legend:
        handles = [Patch(facecolor=c, hatch=hh, edgecolor="#ffffff", label=lab)
                   for lab, (c, hh) in legend]
        fig.legend(handles=handles, loc="upper left", ncols=len(handles), frameon=False,
                   bbox_to_anchor=(0.01, 1.0), handlelength=1.6, columnspacing=1.0,
                   handletextpad=0.4, fontsize=FONT - 0.5)
    return fig


def rows_chart(rows: Sequence[Row], alt: str, *, xmax: float,
               legend: Sequence[tuple[str, tuple[str, str]]] = ()) -> Chart:
    """Bars labelled above, in two widths, with their text alternative."""
    import matplotlib
    with matplotlib.rc_context(_rc()):
        wide = _svg_uri(_rows_figure(rows, WIDE, legend, xmax))
        narrow = _svg_uri(_rows_figure(rows, NARROW, legend, xmax))
    return Chart(alt, wide, narrow)


def _term_figure(names: Sequence[str], means: Sequence[float | None],
                 medians: Sequence[float | None], notes: Sequence[str], current: int,
                 width_in: float) -> Any:
    """One row per assignment (due-date order, top to bottom): its mean (circle) and
    median (diamond) on a 0-100% scale, the number handed in at the end."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    pairs = [_label_and_note(n + (" (this report)" if i == current else ""), notes[i],
                             width_in - 0.4) for i, n in enumerate(names)]
    labels = [lab for lab, _ in pairs]
    unit = FONT * 1.25 / 72
    heights = [0.62 + lab.count("\n") * unit for lab in labels]
    top, bottom = 0.5, 0.45
    height = sum(heights) + top + bottom
    fig = Figure(figsize=(width_in, height))
    margin = 0.25 / width_in             # room for the "0%" and "100%" under the ends
    ax = fig.add_axes((margin, bottom / height, 1 - 2 * margin,
                       (height - top - bottom) / height))
    ax.set_xlim(0, 100)
    ax.set_ylim(sum(heights), 0)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    ax.set_yticks([])
    ax.set_xticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
    ax.grid(axis="x", color="#d0d0d0", linewidth=0.8)
    ax.set_axisbelow(True)
    y = 0.0
    ys_mean: list[float] = []
    xs_mean: list[float] = []
    ys_median: list[float] = []
    xs_median: list[float] = []
    for i, (lab, h) in enumerate(zip(labels, heights)):
        line_y = y + h - 0.17
        # the words stand on a white ground above the lines between the assignments
        ground = {"boxstyle": "square,pad=0.1", "facecolor": "#ffffff", "edgecolor": "none",
                  "alpha": 0.9}
        ax.text(0, line_y - 0.14, lab, va="bottom", ha="left", zorder=4, bbox=ground,
                fontweight="bold" if i == current else "normal")
        if pairs[i][1]:
            ax.text(100, line_y - 0.14, pairs[i][1], va="bottom", ha="right", zorder=4,
                    fontsize=FONT - 0.5, bbox=ground)
        ax.plot([0, 100], [line_y, line_y], color="#e6e6e6", linewidth=6, zorder=1,
                solid_capstyle="butt")
        mean, median = means[i], medians[i]
        if mean is not None:
            ys_mean.append(line_y)
            xs_mean.append(mean)
        if median is not None:
            ys_median.append(line_y)
            xs_median.append(median)
        y += h
    ax.plot(xs_mean, ys_mean, color=MEAN_COLOUR, marker="o", markersize=8, linewidth=1.5,
            zorder=3)
    ax.plot(xs_median, ys_median, color=MEDIAN_COLOUR, marker="D", markersize=7,
            linewidth=1.5, linestyle="--", zorder=3)
    fig.legend(handles=[Line2D([], [], color=MEAN_COLOUR, marker="o", label="mean"),
                        Line2D([], [], color=MEDIAN_COLOUR, marker="D", linestyle="--",
                               label="median")],
               loc="upper left", ncols=2, frameon=False, bbox_to_anchor=(0.01, 1.0),
               fontsize=FONT - 0.5)
    return fig


def term_chart(names: Sequence[str], means: Sequence[float | None],
               medians: Sequence[float | None], notes: Sequence[str], current: int,
               alt: str) -> Chart:
    """The term's assignments in due-date order: mean and median score, handed in."""
    import matplotlib
    with matplotlib.rc_context(_rc()):
        wide = _svg_uri(_term_figure(names, means, medians, notes, current, WIDE))
        narrow = _svg_uri(_term_figure(names, means, medians, notes, current, NARROW))
    return Chart(alt, wide, narrow)
