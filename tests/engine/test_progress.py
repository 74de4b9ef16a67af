"""Progress displays for long searches: widget bar, text line, or quiet under nbgrader."""

from __future__ import annotations

import io
import os

import pytest

from puzzlekit.engine.progress import ProgressEvent, make_reporter
from puzzlekit.engine.progress.display import (
    WidgetReporter,
    auto_reporter,
    describe,
    in_notebook,
    quiet,
)


def event(kind: str, value: float, nodes: int = 100) -> ProgressEvent:
    return ProgressEvent("bfs", kind, value, nodes, 0.25)


def test_an_event_reads_as_one_line_of_words():
    assert describe(event("layer", 12, 4213)) == "bfs: depth 12 · 4,213 nodes expanded · 0.2 s"
    assert "bound 30" in describe(ProgressEvent("idastar", "bound", 30, 7, 1.0))
    assert "finished" in describe(event("done", 31))


def test_under_the_autograder_progress_is_quiet(monkeypatch, capsys):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert auto_reporter() is quiet
    assert make_reporter(True) is None
    quiet(event("layer", 3))
    assert capsys.readouterr() == ("", "")


def test_in_a_terminal_progress_is_one_updating_text_line(monkeypatch, capsys):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    assert not in_notebook()
    report = auto_reporter()
    assert not isinstance(report, WidgetReporter)
    for depth in range(1, 4):
        report(event("layer", depth, 10 * depth))
    report(event("done", 3, 30))
    err = capsys.readouterr().err
    assert err.count("\r") == 4 and err.endswith("\n") and err.count("\n") == 1
    assert "depth 3" in err and "30 nodes" in err


class FakeHandle:
    """Stands in for IPython's display handle: records what was displayed."""

    def __init__(self, shown: list) -> None:
        self.shown = shown

    def update(self, obj: object) -> None:
        self.shown.append(("update", obj._repr_mimebundle_()["text/html"]))


def fake_display(shown: list):
    def display(obj, display_id=False):
        shown.append(("display", obj))
        return FakeHandle(shown)
    return display


def test_the_widget_bar_grows_with_the_depth_and_fills_when_done(monkeypatch):
    shown: list = []
    monkeypatch.setattr("IPython.display.display", fake_display(shown))
    report = WidgetReporter(min_interval=0)
    for depth in range(1, 20):
        report(event("layer", depth))
        assert report.bar.value == depth < report.bar.max
    assert shown == [("display", report)]          # displayed once, at the first event
    assert "depth 19" in report.label.value
    report(event("done", 19))
    assert report.bar.value == report.bar.max and report.bar.bar_style == "success"
    # the final line is left behind as static HTML for saved notebooks and exports
    assert shown[-1][0] == "update" and "finished" in shown[-1][1]
    assert "application/vnd.jupyter.widget-view+json" in report._repr_mimebundle_()


def test_the_widget_bar_skips_updates_that_come_too_fast(monkeypatch):
    monkeypatch.setattr("IPython.display.display", fake_display([]))
    report = WidgetReporter(min_interval=3600)
    report(event("nodes", 1000))
    report(event("nodes", 2000))
    assert "1,000" in report.label.value
    report(event("done", 2000))
    assert "finished" in report.label.value


def test_solve_reports_through_the_auto_display(monkeypatch):
    solver = pytest.importorskip("puzzlekit.engine.solver")
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    solver.solve(((1, 2, 3), (4, 5, 6), (0, 7, 8)), algorithm="bfs", progress=True)
    assert "bfs" in stream.getvalue()


def test_the_last_event_says_the_time_the_result_says():
    """The bar's 'finished · … s' and the printed result.elapsed are one number, also for
    the fast 4×4 engines (whose tables may have been built first)."""
    import puzzlekit as pk
    S = pk.random_walk(pk.goal_state(4), 30, seed=5)[0]
    for heuristic in ("manhattan", "linear_conflict"):
        events = []
        result = pk.solve(S, algorithm="idastar", heuristic=heuristic, progress=events.append)
        done = [e for e in events if e.kind == "done" and e.algorithm == "idastar"]
        assert done and done[-1].elapsed == result.elapsed, (heuristic, done, result.elapsed)


@pytest.mark.parametrize("before", [None, "validate"])
@pytest.mark.parametrize("what", [None, "autograde"])
def test_nbgrader_execution_as_puts_back_what_was_there(monkeypatch, before, what):
    from puzzlekit.context import nbgrader_execution, nbgrader_execution_as
    if before is None:
        monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    else:
        monkeypatch.setenv("NBGRADER_EXECUTION", before)
    with pytest.raises(KeyError), nbgrader_execution_as(what):
        assert nbgrader_execution() == (what or before or "")
        os.environ["NBGRADER_EXECUTION"] = "set by a converter inside"
        raise KeyError("the block fails: still put back")
    assert os.environ.get("NBGRADER_EXECUTION") == before
