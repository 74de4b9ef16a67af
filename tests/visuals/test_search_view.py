"""A search drawn from its record (puzzlekit.visuals.search_view): layout, words, data,
the static drawing the grader redraws, offline and small."""

from __future__ import annotations

import json
import re

import pytest

import puzzlekit as pk
from puzzlekit.autograder.judge.sanitize import clean_data, render_kit
from puzzlekit.visuals.display import KIT_MIME, board_words
from puzzlekit.visuals.search_view import (
    MAX_DRAWN,
    SearchView,
    Trace,
    lay_out,
    search_html,
    trace_data,
    trace_from_data,
)

GOAL = ((1, 2, 3), (4, 5, 0))


def bfs_trace(start=((1, 2, 3), (0, 4, 5)), goal=GOAL) -> Trace:
    """What a right BFS expands on a 2×3 board, recorded as see_search records it."""
    parent, queue, expansions = {start: None}, [start], []
    while queue:
        S = queue.pop(0)
        if S == goal:
            break
        kids = sorted(pk.nextStates(S))
        expansions.append((S, kids))
        for T in kids:
            if T not in parent:
                parent[T] = S
                queue.append(T)
    path = [goal]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    return Trace(start, goal, expansions, len(expansions), len(expansions), path[::-1],
                 "your bfs")


def test_depths_repeats_path_and_the_goal_found():
    start = ((1, 2, 3), (0, 4, 5))
    trace = bfs_trace(start)
    layout = lay_out(trace)
    depth = {n.board: n.depth for n in layout.nodes}
    for n in layout.nodes:        # a right BFS: depth = moves from the start
        assert n.depth == pk.solve(start, pk.unflatten(n.board, 2, 3), algorithm="bfs").length
    found = [n for n in layout.nodes if n.found]
    assert len(found) == 1 and found[0].board == pk.flatten(GOAL) and found[0].on_path
    assert sum(n.on_path for n in layout.nodes) == len(trace.path)
    assert depth[pk.flatten(start)] == 0 and not any(n.again for n in layout.nodes)
    again = Trace(start, GOAL, trace.expansions + trace.expansions[:2])
    marks = [n.again for n in lay_out(again).nodes]
    assert marks[-2:] == [1, 2] and marks.count(None) == len(trace.expansions)


def test_every_board_is_named_with_every_cell_and_its_marks():
    trace = bfs_trace()
    html = search_html(trace)
    labels = re.findall(r'role="img" aria-label="([^"]*)"', html)
    boards = [S for S, _ in trace.expansions]
    assert len(labels) == len(boards) + 1 + len(trace.path)     # nodes, goal, path strip
    for k, S in enumerate(boards, 1):
        assert labels[[i for i, x in enumerate(labels) if x.startswith(f"expansion {k},")][0]] \
            .endswith(board_words(S))
    assert any("the goal, found" in x for x in labels)
    assert not any(re.search(r"(^|\D)0(\D|$)", x.split(":", 1)[1]) for x in labels)
    # marks are shown as symbols and said in words, never by colour alone
    assert "★" in html and "on the returned path" in html
    assert 'role="status" aria-live="polite"' in html
    for name in ("go to the start", "step back", "step forward", "go to the end"):
        assert f'aria-label="{name}"' in html
    assert "prefers-reduced-motion" in html


def test_offline_and_small():
    html = search_html(bfs_trace())
    assert "http" not in html and "url(" not in html and "<script src" not in html
    assert "@import" not in html and "<style" not in html
    assert len(html.encode()) < 40_000


def test_without_scripts_every_step_shows_and_the_controls_are_hidden():
    trace = bfs_trace()
    static = search_html(trace, interactive=False)
    assert "<script" not in static and "pk-controls" not in static
    assert static.count("pk-sv-node") == len(trace.expansions) + 1
    live = search_html(trace)
    assert re.search(r'class="pk-controls" style="[^"]*display: none"', live)


def test_data_round_trip_and_the_graders_static_redraw():
    trace = bfs_trace()
    view = SearchView(trace)
    data = view._repr_mimebundle_()
    assert data[KIT_MIME]["kind"] == "search"
    again = trace_from_data(json.loads(json.dumps(data[KIT_MIME])))
    assert (again.start, again.goal, again.path, again.expansions) == \
        (trace.start, trace.goal, trace.path, trace.expansions)
    clean = clean_data(data)["text/html"]
    assert "<script" not in clean and "&lt;script" not in clean
    assert clean.count('role="img"') == search_html(trace, interactive=False).count('role="img"')
    assert "background-color: #add8e6" in clean or "background-color:#add8e6" in clean


@pytest.mark.parametrize("forge", [
    {"boards": [[1, 1, 2, 3, 4, 5]]},                    # not a board
    {"expanded": [[99, []]]},                             # an index out of range
    {"expanded": [[0, []]] * (MAX_DRAWN + 1)},            # more than is ever drawn
    {"who": "x" * 1000},
    {"path": "not a list"},
])
def test_a_forged_trace_draws_nothing_but_the_sanitised_html(forge):
    data = trace_data(bfs_trace())
    data.update(forge)
    with pytest.raises(pk.PuzzleError):
        render_kit(data)
    out = clean_data({"text/html": "<p>hi</p><script>alert(1)</script>", KIT_MIME: data})
    assert "<script>" not in out["text/html"]


def test_a_trace_is_checked():
    with pytest.raises(pk.PuzzleError, match="the start is 2×3"):
        Trace(((1, 2, 3), (4, 5, 0)), pk.goal_state(3))
    with pytest.raises(pk.PuzzleError, match="up to 5×5"):
        Trace(pk.goal_state(6), pk.goal_state(6))
    with pytest.raises(pk.PuzzleError, match="expansion 1"):
        Trace(GOAL, GOAL, [(pk.goal_state(3), [])])
    long = Trace(GOAL, GOAL, [(GOAL, [])] * (MAX_DRAWN + 50), total=MAX_DRAWN + 50)
    assert len(long.expansions) == MAX_DRAWN
    assert f"The first {MAX_DRAWN} are drawn." in SearchView(long).text
