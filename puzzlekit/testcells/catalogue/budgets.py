"""A call that used up its time, or asked about boards again (`puzzlekit.testcells.budget`,
the judge)."""

from __future__ import annotations

from .message import Message, TEST_CELL

#: the one sentence for a call stopped after its time: {seconds} says how long and, where
#: it was counted so, "of computing time" ("6 seconds of computing time")
TOO_SLOW = Message("{name} did not finish within {seconds} and was stopped.", shown=TEST_CELL,
                   example={"name": "bfs", "seconds": "6 seconds of computing time"})
#: how long a call had in JupyterLab (the `seconds` of `TOO_SLOW` there)
OF_COMPUTING_TIME = Message("{seconds} of computing time", shown=TEST_CELL,
                            example={"seconds": "6 seconds"})
#: how long a call in the browser had (the `seconds` of `TOO_SLOW` there)
ON_THE_PAGES_CLOCK = Message("{seconds} on the page's clock", shown=TEST_CELL,
                             example={"seconds": "24 seconds"})
#: after `TOO_SLOW` in the browser, which gives no computing time: what was counted there
BROWSER_CLOCK = Message(" A browser gives no computing time: its clock counts, {slack:g} times "
                        "the {computing} of computing time in JupyterLab.", shown=TEST_CELL,
                        example={"slack": 4, "computing": "6 seconds"})
#: ", though it computed for only 0.2 s" when the computing time was seen
COMPUTED_ONLY = Message(", though it computed for only {cpu:.1f} s", shown=TEST_CELL,
                        example={"cpu": 0.2})
WAITED = Message("{name} was stopped after {seconds} on the clock{used}:\nis it waiting "
                 "for something (input(), time.sleep, a lock)?", shown=TEST_CELL,
                 example={"name": "bfs", "seconds": "30 seconds",
                          "used": ", though it computed for only 0.2 s"})
#: the evidence for a missing visited set: one board asked about again and again
ASKED_AGAIN = Message("It asked for the next states of one board {most:,} times ({calls:,} "
                      "calls for {distinct:,} different boards): a missing visited set?",
                      shown=TEST_CELL, example={"most": 40, "calls": 5000, "distinct": 900})
#: a search (not uniform-cost) seen expanding boards again: {shown} names the board
EXPANDED_AGAIN = Message("it expanded some boards more than once{shown}: {calls:,} calls for "
                         "{distinct:,} different boards. {advice}", shown=TEST_CELL,
                         example={"shown": " (one board, 1 2 3 4 0 5 6 7 8, 3 times)",
                                  "calls": 5000, "distinct": 900,
                                  "advice": "Keep a set of the boards already seen and skip "
                                            "a next state that is in it"})
#: the advice for a uniform-cost search that expands a board again at a higher cost
STALE_ENTRY = Message("A board can wait in the queue several times, at several costs: when "
                      "one comes out at a higher cost than its best, skip it (a stale entry)",
                      shown=TEST_CELL)
#: the advice that goes with a search seen expanding boards again
KEEP_VISITED = Message("Keep a set of the boards already seen and skip a next state that "
                       "is in it", shown=TEST_CELL)
#: a recorder stopped a search that asked about more boards than a search needs
TOO_MANY_CALLS = Message("the search called {name} {calls:,} times, more than a search "
                         "needs on this board", shown=TEST_CELL,
                         example={"name": "nextStates", "calls": 200000})
#: a recorder stopped a search that asked about the same boards again and again
CALLED_AGAIN = Message("the search called {name} {calls:,} times but there were only "
                       "{distinct:,} different boards among them{again}: it expands boards "
                       "it has already expanded. " + KEEP_VISITED, shown=TEST_CELL,
                       example={"name": "nextStates", "calls": 200000, "distinct": 900,
                                "again": "; the board it asked about most, 400 times, was "
                                         "((1, 2, 3), (4, 0, 5), (6, 7, 8))"})
ASKED_MOST = Message("; the board it asked about most, {most:,} times, was {board}",
                     shown=TEST_CELL, example={"most": 400,
                                               "board": "((1, 2, 3), (4, 0, 5), (6, 7, 8))"})
#: a case of another size failed (`puzzlekit.testcells.cases`)
ASSUMES_SIZE = Message("{what}: {seen} {rows}×{cols} board: does your code assume {shape} "
                       "board ({fixed})?\n{own}", shown=TEST_CELL,
                       example={"what": "nextStates(S)", "seen": "right on the 3×3 boards "
                                "before, but not on this", "rows": 4, "cols": 4,
                                "shape": "a 3×3", "fixed": "a fixed 3, or range(3)",
                                "own": "IndexError: tuple index out of range"})
SEEN_AFTER_3X3 = Message("right on the 3×3 boards before, but not on this", shown=TEST_CELL)
SEEN_FAILED = Message("your code failed on this", shown=TEST_CELL)
