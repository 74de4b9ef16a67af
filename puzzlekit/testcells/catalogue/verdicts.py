"""A test cell's verdict and the notebook's summary (`puzzlekit.testcells.messages`)."""

from __future__ import annotations

from .message import Message, VERDICT

PARTLY_GRADED = Message("◐ {label}: partly right, {points}: {why}", shown=VERDICT,
                        example={"label": "bfs", "points": "2 points",
                                 "why": "bfs's path is right, but it expanded some boards "
                                        "more than once"})
PARTLY = Message("partly right, worth {points} when graded: {why}", shown=VERDICT,
                 example={"points": "2 points", "why": "bfs's path is right, but it "
                                                       "expanded some boards more than once"})
#: the reasons of a partial credit after the first, counted
MORE_CASES = Message(" (and {more} more case{s} like it)", shown=VERDICT,
                     example={"more": 2, "s": "s"})
PASSED_GRADED = Message("✔ {label}: all tests passed", shown=VERDICT,
                        example={"label": "findZero"})
PASSED_HIDDEN = Message("· {label}: its tests are hidden; they run when your notebook is "
                        "graded", shown=VERDICT, example={"label": "astar"})
#: a partly right cell's value in the notebook (HTML around it)
CREDIT = Message("partial credit: {points:g} point{s}", shown=VERDICT,
                 example={"points": 2, "s": "s"})
PASSED = Message("✔ {label}: the tests above pass (more run when your notebook is graded)",
                 shown=VERDICT, example={"label": "findZero"})
BEING_GRADED = Message("Your notebook is being graded: the score of each exercise is shown "
                       "at its test cell\nand in the feedback.", shown=VERDICT)
#: the summary's first line (without points: the instructor's source notebook)
SUMMARY_PASS = Message("{exercises} pass", shown=VERDICT,
                       example={"exercises": "3 of 5 exercises"})
SUMMARY_POINTS = Message("{done:g} of {total:g} points' worth of tests pass ({exercises})",
                         shown=VERDICT, example={"done": 6, "total": 10,
                                                 "exercises": "3 of 5 exercises"})
#: each status of an exercise in the summary
STATUS_PASSED = Message("✔ passed", shown=VERDICT)
STATUS_FAILED = Message("✘ failed", shown=VERDICT)
STATUS_NOT_WRITTEN = Message("✎ not written yet", shown=VERDICT)
STATUS_PARTLY = Message("◐ partly right", shown=VERDICT)
STATUS_NOT_RUN = Message("· not run yet", shown=VERDICT)
STATUS_HIDDEN = Message("· tested when graded (hidden tests)", shown=VERDICT)
