"""A cell's limits in a graded notebook (`puzzlekit.autograder.judge.autograde`)."""

from __future__ import annotations

from .judge import RESTARTED_AND_REPLAYED
from .message import GRADED, INSTRUCTOR, Message

CELL_TOO_LONG = Message("this cell computed for {seconds:g} s and was stopped; the cells "
                        "after it were graded as usual.", shown=GRADED,
                        example={"seconds": 30})
#: the course's words for a cell out of its seconds (nbgrader_config.py's
#: ``Execute.error_on_timeout``, `puzzlekit.autograder.judge.autograde.timeout_error`):
#: CELL_STOPPED is the error's value, CELL_RAN_TOO_LONG the line the graded notebook shows
CELL_STOPPED = Message("this cell ran too long and was stopped", shown=GRADED)
CELL_RAN_TOO_LONG = Message(CELL_STOPPED + " (after {seconds} seconds of computing time).\n"
                            "The cells after it were graded as usual; run it in your own "
                            "notebook to see what takes so long.", shown=GRADED,
                            example={"seconds": 30})
CELL_WAITED = Message("this cell was stopped after {seconds:g} seconds on the clock, though "
                      "it computed for only {cpu:.1f} s:\nis it waiting for something "
                      "(input(), time.sleep, a lock)? The cells after it were graded as "
                      "usual.", shown=GRADED, example={"seconds": 150, "cpu": 0.3})
KERNEL_HUNG = Message("this cell ran too long and did not stop when interrupted, so its "
                      "kernel was stopped.\n" + RESTARTED_AND_REPLAYED, shown=GRADED)
NOT_RUN = Message("not run: the kernel stopped too often in earlier cells ({restarts} "
                  "restarts), so grading stopped here.", shown=GRADED,
                  example={"restarts": 3})
#: a notebook's budget of computing time, said in NOT_RUN_CPU and OUT_OF_CPU
CPU_BUDGET = Message("{seconds:g} s of computing time: {factor:g} times what the model "
                     "solution used ({model:.1f} s), and at least {floor:g} s", shown=GRADED,
                     example={"seconds": 120, "factor": 10, "model": 4.2, "floor": 120})
NOT_RUN_CPU = Message("not run: this notebook used up the computing time the grader gives "
                      "it ({budget}) in the cells before, so grading stopped here.",
                      shown=GRADED, example={"budget": "120 s of computing time"})
OUT_OF_CPU = Message("this notebook used up the computing time the grader gives it "
                     "({budget}) while this cell ran: the cells after it are not run.",
                     shown=GRADED, example={"budget": "120 s of computing time"})
NOT_RUN_TIME = Message("not run: this notebook used up the time the grader gives one "
                       "notebook ({seconds:g} s) in the cells before, so grading stopped "
                       "here.", shown=GRADED, example={"seconds": 900})
OUT_OF_TIME = Message("this notebook used up the time the grader gives one notebook "
                      "({seconds:g} s) while this cell ran: it was stopped, and the cells "
                      "after it are not run.", shown=GRADED, example={"seconds": 900})
OUTPUT_CUT = Message("[output cut: this cell displayed more than {limit} (the most one "
                     "{what} may show while it is graded); the rest of its output is left "
                     "out]\n", shown=GRADED, example={"limit": "1.0 MB", "what": "cell"})
NO_WALL = Message("puzzlekit: no wall around the students' code on this machine ({why}): "
                  "their code runs with the grader's rights and can read and change the "
                  "course folder. See the guide: docs/explanation/wall.md.",
                  shown=INSTRUCTOR, example={"why": "this kernel has no Landlock"})
NO_LANDLOCK = Message("this kernel has no Landlock", shown=INSTRUCTOR)
WALL_SWITCHED_OFF = Message("switched off in nbgrader_config.py", shown=INSTRUCTOR)
