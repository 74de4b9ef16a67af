"""The class report as one self-contained HTML page: no request leaves it (pictures are
data URIs, styles inline), it fits a 320 px screen without sideways scrolling (tables
scroll in labelled regions the keyboard reaches, each picture comes in a narrow drawing),
and every picture has its text alternative and a table of its numbers.

All text from a graded notebook (sentences, mistake names) is escaped; boards are drawn by
the kit's own `board_html`/`diff_html` from states already validated. Without ``names``
the page names no student: counts, and examples with any word that names a student of
the roster (an id, a name, an e-mail address) blanked out.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Sequence

from ...errors import PuzzleError
from ...testcells.mistakes import CATALOGUE, title_of
from ...puzzle.board import State, validate_state
from ...visuals.display import board_html, diff_html
from . import tally
from .charts import FULL, NONE, ONE, SOME, UNNAMED, Chart, Row, Segment, rows_chart, term_chart
from .data import ClassData, Exercise, MistakeSeen

MAX_CARDS = 20          #: mistakes shown with their example (the table has them all)
MAX_CHART_ROWS = 12     #: bars in a ranked chart (the table has them all)

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a;
       background: #fff; margin: 0; line-height: 1.45; }
main { max-width: 50rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 .25rem; line-height: 1.2; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 .4rem; padding-top: .6rem; border-top: 2px solid #1a1a1a; }
h3 { font-size: 1.1rem; margin: 0 0 .3rem; }
a { color: #0b4f8a; text-decoration: underline; }
a:focus, summary:focus, .scroll:focus, input:focus { outline: 3px solid #1a1a1a; outline-offset: 2px; }
.lead { color: #3d3d3d; margin-top: 0; }
.note { color: #3d3d3d; font-size: .95rem; }
.privacy { border-left: 4px solid #1a1a1a; padding: .2rem .7rem; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr));
         gap: .6rem; list-style: none; padding: 0; margin: 1rem 0; }
.tiles li { border: 1px solid #767676; border-radius: 6px; padding: .5rem .7rem; }
.tiles .big { display: block; font-size: 1.9rem; font-weight: 700; line-height: 1.1; }
nav ul { padding-left: 1.2rem; margin: .3rem 0; }
figure.chart { margin: .8rem 0; }
figure.chart img { max-width: 100%; height: auto; display: block; }
figure.chart figcaption { color: #3d3d3d; font-size: .95rem; }
details { margin: .5rem 0 1rem; }
summary { cursor: pointer; color: #0b4f8a; text-decoration: underline; }
.scroll { overflow-x: auto; max-width: 100%; }
table.numbers { border-collapse: collapse; margin: .4rem 0; font-size: .95rem; }
table.numbers caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
table.numbers th, table.numbers td { border: 1px solid #767676; padding: .3rem .55rem;
                                     text-align: left; vertical-align: top; }
table.numbers td.n { text-align: right; font-variant-numeric: tabular-nums; }
table.numbers thead th { background: #e8e8e8; }
.card { border: 1px solid #767676; border-radius: 8px; padding: .8rem 1rem; margin: 1rem 0; }
.card p { margin: .4rem 0; }
.card .count { font-weight: 700; }
.card blockquote { margin: .5rem 0; padding: .4rem .7rem; background: #f3f3f3;
                   border-left: 4px solid #595959; overflow-wrap: anywhere; }
.boards { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-start; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .95em;
       overflow-wrap: anywhere; }
.live { background: #fff4ce; border: 1px solid #8a6d00; border-radius: 6px; padding: .4rem .7rem; }
@media (max-width: 480px) { main { padding: .75rem .75rem 2rem; } h1 { font-size: 1.35rem; }
  table.numbers th, table.numbers td { padding: .25rem .35rem; }
  .card { padding: .6rem .6rem; } }
"""

# a reload every so often, only when the reader asks for it (WCAG 2.2.1): the choice is
# kept in the address (#live) so it lasts across the reloads
_LIVE_SCRIPT = """
(function () {
  var box = document.getElementById('autoreload');
  var p = document.getElementById('autoreload-p');
  if (!box || !p) return;
  p.hidden = false;
  var secs = Number(box.getAttribute('data-seconds')) || 30, timer = null;
  function arm() { if (timer) clearTimeout(timer);
    timer = box.checked ? setTimeout(function () { location.reload(); }, secs * 1000) : null; }
  box.checked = location.hash === '#live';
  box.addEventListener('change', function () {
    try { history.replaceState(null, '', box.checked ? '#live'
                                         : location.pathname + location.search); }
    catch (e) { location.hash = box.checked ? 'live' : ''; }
    arm(); });
  arm();
})();
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _n(x: float) -> str:
    return tally.number(x)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.0f}%"


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


class _Redactor:
    """Blanks out the words that name a student (ids, names, e-mail addresses): a word of
    letters and digits by a set lookup, the others (an address, "O'Neil, Jr") by a pattern."""

    BLANK = "[a student]"

    def __init__(self, identities: Sequence[str], active: bool) -> None:
        words = {w.strip() for w in identities if len(w.strip()) >= 2} if active else set()
        self.simple = {w.casefold() for w in words if re.fullmatch(r"\w+", w)}
        other = sorted((w for w in words if not re.fullmatch(r"\w+", w)), key=len,
                       reverse=True)
        self.pattern = (re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in other),
                                   re.IGNORECASE) if other else None)

    def __call__(self, text: str) -> str:
        if self.pattern is not None:
            text = self.pattern.sub("\0", text)          # a mark no word can hold
        if self.simple:
            text = re.sub(r"\w+", lambda m: "\0" if m[0].casefold() in self.simple
                          else m[0], text)
        return text.replace("\0", self.BLANK)


class _Names:
    """How the page says a mistake's name: the catalogue's title, or a name not in the
    catalogue (an instructor's own, or forged) with any word naming a student blanked."""

    def __init__(self, redact: _Redactor) -> None:
        self.redact = redact

    def title(self, name: str) -> str:
        return title_of(name) if name in CATALOGUE else self.redact(title_of(name))

    def code(self, name: str) -> str:
        return name if name in CATALOGUE else self.redact(name)


def _chart(chart: Chart, caption: str) -> str:
    return (f'<figure class="chart"><picture>'
            f'<source media="(max-width: 600px)" srcset="{chart.narrow}">'
            f'<img src="{chart.wide}" alt="{_e(chart.alt)}"></picture>'
            f"<figcaption>{caption}</figcaption></figure>")


def _table(label: str, caption: str, head: Sequence[str], rows: Sequence[Sequence[str]],
           numeric: Sequence[int] = ()) -> str:
    """A named table of numbers in a region that scrolls by itself on a narrow screen.
    Cells are HTML already escaped; the first cell of each row is its header."""
    th = "".join(f'<th scope="col">{h}</th>' for h in head)
    body = []
    for row in rows:
        cells = [f'<th scope="row">{row[0]}</th>']
        cells += [f'<td class="n">{c}</td>' if i in numeric else f"<td>{c}</td>"
                  for i, c in enumerate(row[1:], 1)]
        body.append("<tr>" + "".join(cells) + "</tr>")
    # the words above the region, where a phone's width wraps them (a caption is as wide
    # as its table); the table is named by the region's label
    return (f'<p class="note">{caption}</p>'
            f'<div class="scroll" role="region" aria-label="{_e(label)}" tabindex="0">'
            f'<table class="numbers"><caption>{_e(label)}</caption><thead><tr>{th}</tr>'
            f"</thead><tbody>{''.join(body)}</tbody></table></div>")


def _details(summary: str, inner: str) -> str:
    return f"<details><summary>{summary}</summary>{inner}</details>"


def _cell_size(S: State) -> int:
    return min(36, max(16, 216 // max(len(S), len(S[0]))))


def _boards_html(m: MistakeSeen) -> str:
    """The example's boards as the kit draws them; a board that will not draw is left out."""
    parts = []
    start, expected, got = (m.boards.get(k) for k in ("start", "expected", "got"))
    try:
        if start is not None:
            parts.append(board_html(start, cell_size=_cell_size(start), title="start"))
        if expected is not None and got is not None and \
                (len(got), len(got[0])) == (len(expected), len(expected[0])):
            parts.append(diff_html(expected, got, cell_size=_cell_size(expected)))
        else:
            if expected is not None:
                parts.append(board_html(expected, cell_size=_cell_size(expected),
                                        title="expected"))
            if got is not None:
                legal = validate_state(got, name="got")
                parts.append(board_html(legal, cell_size=_cell_size(legal), title="got"))
    except PuzzleError:
        pass
    return f'<div class="boards">{"".join(parts)}</div>' if parts else ""


def _where(data: ClassData, count: tally.MistakeCount) -> str:
    by_key = {e.key: e for e in data.exercises}
    order = {e.key: i for i, e in enumerate(data.exercises)}
    keys = sorted(count.by_exercise, key=lambda k: (-len(count.by_exercise[k]), order[k]))
    return ", ".join(f"<code>{_e(tally.grade_label(data, by_key[k]))}</code> "
                     f"({len(count.by_exercise[k])})" for k in keys)


def _card(data: ClassData, count: tally.MistakeCount, rank: int, judged: int,
          redact: _Redactor) -> str:
    said = _Names(redact)
    known = CATALOGUE.get(count.name)
    teach = (f"<p><strong>Teach again:</strong> {_e(known.teach)}.</p>" if known else
             "<p class=\"note\">A mistake named by your own tests (not in the kit's "
             "catalogue).</p>")
    example = ""
    if count.example is not None and count.example_exercise is not None:
        e = next(x for x in data.exercises if x.key == count.example_exercise)
        same = (f" ({count.example_students} students were shown this same message)"
                if count.example_students > 1 else "")
        example = (f"<p>What one student was shown at <code>{_e(tally.grade_label(data, e))}"
                   f"</code>{same}:</p><blockquote>{_e(redact(count.example.sentence))}"
                   f"</blockquote>{_boards_html(count.example)}")
    n = len(count.students)
    return (f'<section class="card" aria-labelledby="m{rank}">'
            f'<h3 id="m{rank}">{rank}. {_e(said.title(count.name))}</h3>'
            f'<p><span class="count">{n} of {judged} students</span> · '
            f"{_n(count.points_lost)} point{'' if count.points_lost == 1 else 's'} lost · "
            f"at {_where(data, count)} · <code>{_e(said.code(count.name))}</code></p>"
            f"{teach}{example}</section>")


def _mistakes_section(data: ClassData, ranked: list[tally.MistakeCount],
                      redact: _Redactor) -> str:
    judged = len(data.judged)
    said = _Names(redact)
    out = ['<section aria-labelledby="mistakes"><h2 id="mistakes">The mistakes, most '
           'common first</h2>']
    if not ranked:
        out.append("<p>No named mistake was found" + (
            " in the submissions the kit's judge graded.</p>" if judged else
            ": no submission was graded by the kit's judge yet.</p>"))
        out.append("</section>")
        return "\n".join(out)
    shown = ranked[:MAX_CHART_ROWS]
    rows = [Row(said.title(c.name), (Segment(len(c.students), ONE),),
                f"{len(c.students)} of {judged}") for c in shown]
    alt = (f"Bar chart of the named mistakes by the number of students who made them, of "
           f"{judged} whose work the kit's judge graded: " + "; ".join(
               f"{said.title(c.name)}, {len(c.students)}" for c in shown) + ".")
    out.append(_chart(rows_chart(rows, alt, xmax=max(judged, 1)),
                      f"Students who made each mistake, of the {judged} whose mistakes "
                      f"could be read" + (f" (the first {len(shown)} of {len(ranked)})"
                                          if len(ranked) > len(shown) else "") + "."))
    table = _table("Named mistakes, as a table",
                   "Each named mistake: students who made it, the points lost at the "
                   "exercises where it was named, and where.",
                   ("Mistake", "Students", "Points lost", "Exercises (students)"),
                   [(_e(said.title(c.name)) + f"<br><code>{_e(said.code(c.name))}</code>",
                     str(len(c.students)), _n(c.points_lost), _where(data, c))
                    for c in ranked], numeric=(1, 2))
    out.append(_details("The numbers as a table", table))
    for rank, count in enumerate(ranked[:MAX_CARDS], 1):
        out.append(_card(data, count, rank, judged, redact))
    if len(ranked) > MAX_CARDS:
        out.append(f"<p class=\"note\">{len(ranked) - MAX_CARDS} more in the table above "
                   f"and in the CSV.</p>")
    out.append("</section>")
    return "\n".join(out)


def _spread_note(s: tally.ScoreSpread) -> str:
    said = [f"mean {_n(s.mean)}"] if s.total else []
    said += [f"{s.ungraded} not graded yet"] if s.ungraded else []
    return " · ".join(said)


def _scores_section(data: ClassData, spreads: list[tally.ScoreSpread]) -> str:
    out = ['<section aria-labelledby="scores"><h2 id="scores">Scores per exercise</h2>']
    handed = len(data.submissions)
    if not handed or not spreads:
        out.append("<p>No submission has been graded yet.</p></section>")
        return "\n".join(out)
    rows = [Row(f"{tally.grade_label(data, s.exercise)} ({_n(s.exercise.max_score)} "
                f"point{'s' if s.exercise.max_score != 1 else ''})",
                (Segment(s.full, FULL, str(s.full)), Segment(s.some, SOME, str(s.some)),
                 Segment(s.none, NONE, str(s.none))),
                _spread_note(s)) for s in spreads]
    alt = (f"Stacked bar chart, one bar per exercise, of the {handed} students who handed "
           f"in: how many got full points, some points, no points. " + "; ".join(
               f"{tally.grade_label(data, s.exercise)}: {s.full} full, {s.some} some, "
               f"{s.none} none" + (f", {s.ungraded} not graded yet" if s.ungraded else "")
               for s in spreads) + ".")
    out.append(_chart(rows_chart(rows, alt, xmax=handed,
                                 legend=(("full points", FULL), ("some", SOME),
                                         ("none", NONE))),
                      f"Of the {handed} students who handed in, how many got full, some "
                      f"or no points at each exercise (points from the gradebook, before "
                      f"late penalties)." + (
                          " A written answer not graded by hand yet is left out of its bar "
                          "(the gradebook counts it 0 in the totals)."
                          if any(s.ungraded for s in spreads) else "")))
    table = _table("Scores per exercise, as a table",
                   "Each exercise in the assignment's order: its points, how many got full, "
                   "some or no points, and the mean.",
                   ("Exercise", "Points", "Full", "Some", "None", "Not graded yet",
                    "Mean"),
                   [(f"<code>{_e(tally.grade_label(data, s.exercise))}</code>",
                     _n(s.exercise.max_score), str(s.full), str(s.some), str(s.none),
                     str(s.ungraded), _n(s.mean) if s.total else "—") for s in spreads], numeric=(1, 2, 3, 4, 5, 6))
    out.append(_details("The numbers as a table", table))
    out.append("</section>")
    return "\n".join(out)


def _unnamed_section(data: ClassData, losses: list[tuple[Exercise, int, float]]) -> str:
    judged = len(data.judged)
    out = ['<section aria-labelledby="unnamed"><h2 id="unnamed">Points lost with no named '
           'mistake</h2>',
           "<p>Students who tried an exercise (the judge marked it failed or partly right) "
           "and lost points there, but no test named their mistake: where a new diagnosis "
           "would help most.</p>"]
    found = sorted([x for x in losses if x[1]], key=lambda x: (-x[1], -x[2]))
    if not found:
        out.append("<p>None: every point lost at a tried exercise came with a named "
                   "mistake" + ("" if judged else " (no submission was graded by the kit's "
                                "judge yet)") + ".</p></section>")
        return "\n".join(out)
    shown = found[:MAX_CHART_ROWS]
    rows = [Row(tally.grade_label(data, e), (Segment(n, UNNAMED),),
                f"{n} of {judged} · {_n(lost)} points") for e, n, lost in shown]
    alt = ("Bar chart of the exercises where students lost points with no named mistake, "
           f"most students first, of {judged}: " + "; ".join(
               f"{tally.grade_label(data, e)}, {n} students, {_n(lost)} points"
               for e, n, lost in shown) + ".")
    out.append(_chart(rows_chart(rows, alt, xmax=max(judged, 1)),
                      f"Students who lost points with no named mistake, by exercise, of the "
                      f"{judged} whose mistakes could be read."))
    out.append(_details("The numbers as a table", _table(
        "Points lost with no named mistake, as a table",
        "Each exercise where students lost points with no named mistake.",
        ("Exercise", "Students", "Points lost"),
        [(f"<code>{_e(tally.grade_label(data, e))}</code>", str(n), _n(lost))
         for e, n, lost in found], numeric=(1, 2))))
    out.append("</section>")
    return "\n".join(out)


def _people_section(data: ClassData, stuck: list[tally.Stuck], names: bool) -> str:
    missing = data.not_submitted
    n_ex = len(data.exercises)
    out = ['<section aria-labelledby="people"><h2 id="people">Who may need a word</h2>']
    out.append(f"<p><strong>{_plural(len(missing), 'student')} of {len(data.roster)} did "
               f"not hand in</strong> (on the roster, no graded submission).")
    if names and missing:
        out.append(" " + ", ".join(f"<code>{_e(s)}</code>" for s in missing) + ".")
    out.append("</p>")
    half = (n_ex + 1) // 2
    out.append(f"<p><strong>{_plural(len(stuck), 'student')} got stuck early</strong>: "
               f"handed in, but wrote nothing from one of the first {half} of the "
               f"{n_ex} exercises on (every exercise from it to the last is “not "
               f"written”; only work the kit's judge graded counts).</p>")
    if stuck:
        by_place = Counter((s.position, s.first_unwritten.key) for s in stuck)
        exercises = {e.key: e for e in data.exercises}
        items = []
        for (pos, key), n in sorted(by_place.items()):
            who = ""
            if names:
                who = ": " + ", ".join(f"<code>{_e(s.student)}</code>" for s in stuck
                                       if s.first_unwritten.key == key)
            items.append(f"<li>{_plural(n, 'student')} wrote nothing from "
                         f"<code>{_e(tally.grade_label(data, exercises[key]))}</code> "
                         f"(exercise {pos} of {n_ex}) on{who}</li>")
        out.append("<ul>" + "".join(items) + "</ul>")
    if not names and (missing or stuck):
        out.append('<p class="note">Names are hidden; <code>--names</code> lists them.</p>')
    out.append("</section>")
    return "\n".join(out)


def _term_section(data: ClassData) -> str:
    out = ['<section aria-labelledby="term"><h2 id="term">The term so far</h2>']
    points = data.term
    if not points:
        out.append("<p>No assignment in the gradebook has a graded submission yet.</p>"
                   "</section>")
        return "\n".join(out)
    current = next((i for i, p in enumerate(points) if p.assignment == data.assignment), -1)
    roster = len(data.roster)
    notes = [f"{p.submissions} of {roster} handed in" for p in points]
    alt = ("Chart of each assignment in due-date order, its mean and median score and how "
           "many handed it in: " + "; ".join(
               f"{p.assignment}: mean {_pct(p.mean)}, median {_pct(p.median)}, "
               f"{p.submissions} of {roster} handed in" for p in points) + ".")
    out.append(_chart(term_chart([p.assignment for p in points], [p.mean for p in points],
                                 [p.median for p in points], notes, current, alt),
                      "Each assignment in due-date order: the mean (circles) and median "
                      "(diamonds) score of those who handed it in, in percent of its "
                      "points before late penalties."))
    out.append(_details("The numbers as a table", _table(
        "The term, as a table", "Each assignment in due-date order.",
        ("Assignment", "Due", "Handed in", "Mean", "Median"),
        [(_e(p.assignment), _e(f"{p.duedate:%a %d %b %Y}") if p.duedate else "no due date",
          f"{p.submissions} of {roster}", _pct(p.mean), _pct(p.median)) for p in points],
        numeric=(3, 4))))
    out.append("</section>")
    return "\n".join(out)


def _summary(data: ClassData, stuck: list[tally.Stuck], names: bool) -> str:
    handed = len(data.submissions)
    judged = len(data.judged)
    scores = [100 * s.score / s.max_score for s in data.submissions.values() if s.max_score]
    mean = f"{sum(scores) / len(scores):.0f}%" if scores else "—"
    tiles = [(str(handed), f"of {len(data.roster)} handed in"),
             (str(judged), "read by the kit's judge"),
             (str(len(data.not_submitted)), "did not hand in"),
             (str(len(stuck)), "stuck early"),
             (mean, "mean score")]
    out = ['<ul class="tiles" aria-label="In short">' + "".join(
        f'<li><span class="big">{_e(big)}</span> {_e(small)}</li>' for big, small in tiles)
        + "</ul>"]
    unread = data.unread
    if unread:
        reasons = Counter(unread.values())
        said = "; ".join(f"{n} {_e(reason)}" for reason, n in sorted(reasons.items()))
        who = (" (" + ", ".join(f"<code>{_e(s)}</code>" for s in sorted(unread)) + ")"
               if names else "")
        out.append(f"<p><strong>Mistakes could not be read from "
                   f"{_plural(len(unread), 'submission')}</strong>{who}: {said}. Their "
                   f"scores count above; their mistakes are not in the counts, which are of "
                   f"the {judged} the kit's judge graded.</p>")
    if data.malformed:
        out.append(f"<p class=\"note\">{_plural(data.malformed, 'diagnosis record')} in "
                   f"the graded notebooks did not have the kit's form and "
                   f"{'was' if data.malformed == 1 else 'were'} left out.</p>")
    return "\n".join(out)


def render(data: ClassData, *, names: bool = False, csv_name: str | None = None,
           live_seconds: float | None = None) -> str:
    """The report's page. `names`: list the students not handed in, stuck or unread (by
    default none is named); `csv_name`: the CSV beside the page, linked; `live_seconds`:
    the page is kept up to date (``--watch``) and offers to reload itself that often."""
    ranked = tally.mistakes(data)
    stuck = tally.stuck_early(data)
    redact = _Redactor(data.identities, active=not names)
    when = data.read_at
    title = f"What the class got wrong: {data.assignment}"
    due = f", due {data.duedate:%a %d %b %Y, %H:%M} UTC" if data.duedate else ""
    privacy = ("This page names students (<code>--names</code>): keep it to yourself."
               if names else "This page names no student: counts and anonymous examples, "
               "so it can be shown to the class.")
    live = ""
    script = ""
    if live_seconds is not None:
        secs = max(5, round(live_seconds))
        live = (f'<p class="live" role="status">Live: rewritten as submissions are graded; '
                f"this copy was written at {when:%H:%M:%S} UTC. Reload it for the newest "
                f"(in JupyterLab: ↻, Rerender HTML Document, above the page).</p>"
                f'<p id="autoreload-p" hidden><label><input type="checkbox" id="autoreload" '
                f'data-seconds="{secs}"> Reload this page by itself every {secs} s</label></p>')
        script = f"<script>{_LIVE_SCRIPT}</script>"
    csv_link = (f' The counts per exercise and mistake are also in <a href="{_e(csv_name)}">'
                f"{_e(csv_name)}</a> (CSV).") if csv_name else ""
    body = [
        f"<h1>{_e(title)}</h1>",
        f'<p class="lead">{_e(data.course_id)}{_e(due)} · read {when:%a %d %b %Y, %H:%M} '
        f"UTC · points as the tests gave them, before late penalties.</p>",
        live,
        f'<p class="privacy">{privacy}</p>',
        _summary(data, stuck, names),
        '<nav aria-label="On this page"><ul>'
        '<li><a href="#mistakes">The mistakes, most common first</a></li>'
        '<li><a href="#scores">Scores per exercise</a></li>'
        '<li><a href="#unnamed">Points lost with no named mistake</a></li>'
        '<li><a href="#people">Who may need a word</a></li>'
        '<li><a href="#term">The term so far</a></li></ul></nav>',
        _mistakes_section(data, ranked, redact),
        _scores_section(data, tally.spreads(data)),
        _unnamed_section(data, tally.unnamed_losses(data)),
        _people_section(data, stuck, names),
        _term_section(data),
        f'<footer><p class="note">Made by puzzlekit\'s class report from the gradebook and '
        f"the graded notebooks.{csv_link}</p></footer>",
    ]
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{_STYLE}</style></head>
<body><main>
{chr(10).join(x for x in body if x)}
</main>{script}</body></html>
"""

