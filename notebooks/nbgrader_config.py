"""nbgrader configuration of the puzzlekit course (this folder is the course root).

Run nbgrader from this folder (`cd notebooks`), since the command line takes the current
directory as the course root. See docs/instructors.md for the whole routine.
"""

import os
from pathlib import Path

from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
from nbgrader.converters.autograde import Autograde
from nbgrader.preprocessors import GetGrades

from puzzlekit.autograde import with_walled_execute
from puzzlekit.course_setup import environment_first_on_path, exchange_root, repair_gradebook
from puzzlekit.feedback import StripHiddenTests
from puzzlekit.plainfiles import guard_autograde_copies

c = get_config()  # noqa: F821  (provided by nbgrader when it loads this file)

c.CourseDirectory.course_id = "puzzlekit"
# This folder is the course root, wherever nbgrader or JupyterLab was started from.
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))

# nbgrader runs its own programs (alembic) by name: find this environment's, whatever PATH
# the caller has, and finish a gradebook that an earlier run without them left half made.
environment_first_on_path()
repair_gradebook(Path(c.CourseDirectory.root) / "gradebook.db")

# The exchange (Release, Fetch, Submit, Collect) has one stated place, made once by
# `sudo make exchange` with mode 1777; a release refuses, naming that command, if it is not.
c.Exchange.root = exchange_root()
c.ExchangeFactory.release_assignment = "puzzlekit.course_setup.CheckedReleaseAssignment"
# collect refuses a submission filed under another student's name (nbgrader only warns)
# and copies plain files only: links, FIFOs and devices are left out, never followed
c.ExchangeFactory.collect = "puzzlekit.collect.OwnerCheckedCollect"
# autograde (the command, the formgrader's button, `python -m puzzlekit grade`) likewise
# takes only plain files from submitted/: a notebook that is a link counts as not handed
# in (nbgrader has no setting for its copy steps: see puzzlekit/plainfiles.py)
guard_autograde_copies()

# What students see in place of a solution: the stub must fail loudly when run.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Each cell gets 30 seconds; an endless loop is interrupted and grading goes on.
c.Execute.timeout = 30
c.Execute.interrupt_on_timeout = True
c.Execute.error_on_timeout = {
    "ename": "CellTimeoutError",
    "evalue": "this cell ran too long and was stopped",
    "traceback": ["\x1b[0;31mCellTimeoutError\x1b[0m: this cell ran too long and was stopped.\n"
                  "Is there an endless loop, or a search that visits the same states again and "
                  "again\n(a missing visited set)?"],
}

# The wall (docs/instructors.md, "The wall"): each student's kernel runs in a scratch copy
# of the submission, can read Python and its packages but nothing of the course, can write
# only its scratch folder, has no network, and is limited below; the graded test cells
# run in the grader's own process, so the student's code cannot change their verdicts.
# A cell that kills its kernel, ignores interrupts or hits a limit costs only its tests.
c.Autograde.autograde_preprocessors = with_walled_execute(
    Autograde.class_traits()["autograde_preprocessors"].default())
c.WalledExecute.memory_limit = "2G"      # per kernel; MemoryError beyond it
c.WalledExecute.process_limit = 64       # extra processes and threads per kernel
c.WalledExecute.file_size_limit = "64M"  # largest file a kernel may write
c.WalledExecute.network = False
# The tests give a student's search a few seconds (run_with_timeout). On a grading
# machine busier or slower than a 2-core laptop, raise this factor (say to 2), so that a
# right but slowish answer does not run out of time; the messages keep the exercise's
# own seconds.
c.WalledExecute.time_scale = 1.0

# A student who deleted a graded cell gets it back (and its tests run).
c.OverwriteCells.add_missing_cells = True

# Feedback never shows the hidden tests: neither their code nor tracebacks quoting them.
c.GenerateFeedback.preprocessors = [GetGrades, StripHiddenTests, CSSHTMLHeaderPreprocessor]
