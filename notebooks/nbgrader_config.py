"""nbgrader configuration of the puzzlekit course (this folder is the course root).

Run nbgrader from this folder (`cd notebooks`), since the command line takes the current
directory as the course root. See the guide (docs/index.md) for the whole routine.
"""

import os
from pathlib import Path

from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
from nbgrader.converters.autograde import Autograde
from nbgrader.converters.generate_assignment import GenerateAssignment
from nbgrader.preprocessors import GetGrades, LockCells

from puzzlekit.course.author_check import ModelSolutionCheck
from puzzlekit.course.authoring import KitAuthoring, RefuseStaleTests
from puzzlekit.autograder.judge.autograde import timeout_error, with_walled_execute
from puzzlekit.course.course_setup import course_settings, environment_first_on_path, repair_gradebook
from puzzlekit.course.demos import ReleaseDemos
from puzzlekit.errors import PuzzleError
from puzzlekit.course.feedback import StripHiddenTests
from puzzlekit.course.feedback_page import configure as configure_feedback_page
from puzzlekit.course.late import LateNote
from puzzlekit.autograder.judge.plainfiles import guard_autograde_copies
from puzzlekit.course.quiet import filter_nbgraders_warnings, with_quiet_overwrite

c = get_config()  # noqa: F821  (provided by nbgrader when it loads this file)

# The course's id, folder and exchange come from one place, the environment (see
# docs/how-to/run-a-term.md): PUZZLEKIT_COURSE_ID (default "puzzlekit"),
# PUZZLEKIT_COURSE_ROOT (default: this folder, wherever nbgrader or JupyterLab was started
# from) and PUZZLEKIT_EXCHANGE (default /srv/nbgrader/exchange). A second course on the
# same machine needs only another id: nbgrader keeps each course apart in the exchange.
# A wrong value stops nbgrader (SystemExit): traitlets would log any other error and go on
# without this file, that is without the wall.
try:
    _course = course_settings(os.path.dirname(os.path.abspath(__file__)))
except PuzzleError as _error:
    raise SystemExit(f"puzzlekit: {_error}") from None
c.CourseDirectory.course_id = _course.course_id
c.CourseDirectory.root = _course.root

# nbgrader runs its own programs (alembic) by name: find this environment's, whatever PATH
# the caller has, and finish a gradebook that an earlier run without them left half made.
environment_first_on_path()
repair_gradebook(Path(c.CourseDirectory.root) / "gradebook.db")

# The exchange (Release, Fetch, Submit, Collect) has one stated place, made once by
# `sudo make exchange` with mode 1777, with the course's folders in it, yours (a student
# who made them first would own the course: puzzlekit.course.exchange_owners); a release
# refuses, naming that command, if they are not.
c.Exchange.root = _course.exchange
c.ExchangeFactory.release_assignment = "puzzlekit.course.course_setup.CheckedReleaseAssignment"
# collect refuses a submission filed under another student's name (nbgrader only warns),
# copies plain files only (links, FIFOs, devices and names with control characters are
# left out, never followed), takes each submission's time from the exchange's change
# times, not from the student's timestamp.txt (which is only compared: a late report in
# late-reports/, puzzlekit.course.handed_in), and goes on past any one student's folder
c.ExchangeFactory.collect = "puzzlekit.course.collect.OwnerCheckedCollect"
# releasing feedback skips a student whose submission secret is missing or malformed,
# with a warning, instead of stopping there (nbgrader stops: the others get nothing)
c.ExchangeFactory.release_feedback = "puzzlekit.course.exchange_owners.CheckedReleaseFeedback"
# Notebooks handed in through an LMS (docs/how-to/hand-in-from-the-browser.md): `nbgrader
# zip_collect ASSIGNMENT` reads the names Canvas and Moodle give the downloads in
# downloaded/ASSIGNMENT/archive/ (no regular expression to write), finds each student in
# the gradebook (lms_user_id, or Moodle's full name), and takes only plain files holding a
# notebook of the assignment; a student's second upload is the later one on Canvas, else
# skipped with a warning (plain nbgrader stops everyone's collect there). Archives a
# student uploaded stay packed (puzzlekit.course.lms_uploads).
c.ZipCollectApp.collector_plugin = "puzzlekit.course.lms_uploads.LmsUploadCollector"
c.ZipCollectApp.extractor_plugin = "puzzlekit.course.lms_uploads.LmsUploadExtractor"
# autograde (the command, the formgrader's button, `python -m puzzlekit grade`) likewise
# takes only plain files from submitted/: a notebook that is a link counts as not handed
# in (nbgrader has no setting for its copy steps: see puzzlekit/autograder/judge/plainfiles.py)
guard_autograde_copies()

# `nbgrader validate` (and the Validate button) cuts each line at its width: wide enough
# for the kit's messages (wrapped at 90) and the course's code lines (at most 100), once
# validate has indented them.
c.Validator.width = 110

# What students see in place of a solution: the stub must fail loudly when run.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# One place for a point: an exercise's points live in its test cell's nbgrader metadata.
# Generating an assignment derives the rest for the students' copy: the score table at
# the end, the "(N points)" notes in the text, the line each test cell reports with, and
# the raises-exception tags that let Run All reach the score table (puzzlekit.course.authoring).
# Before it writes a release, generate also grades your model solution exactly as a
# submission is graded (the wall, the judge, nbgrader's scoring) and refuses, naming the
# cell and the line, any test that does not give it full points (puzzlekit.course.author_check;
# the same check alone: `python -m puzzlekit check-tests ASSIGNMENT`).
_generate = list(GenerateAssignment.class_traits()["preprocessors"].default())
_at = _generate.index(LockCells)
c.GenerateAssignment.preprocessors = [*_generate[:_at], KitAuthoring, ModelSolutionCheck,
                                      *_generate[_at:], ReleaseDemos]
# The assignments link to the lecture demos as ../demos/NAME.ipynb: generate also puts the
# course's demos/ beside the releases, in release/demos/ (puzzlekit.course.demos).
# Regrading after a fix: nbgrader grades with the tests the gradebook kept at generate
# time; a test changed in source/ since then is refused, naming the command to run first.
# Logs that say only what you can act on (puzzlekit.course.quiet): no "checksum has changed" line
# for a test cell that is exactly as released (its hidden tests stripped; a student's
# change to a locked cell is still reported), no SAWarning of nbgrader's gradebook code.
c.Autograde.sanitize_preprocessors = [
    RefuseStaleTests,
    *with_quiet_overwrite(Autograde.class_traits()["sanitize_preprocessors"].default())]
filter_nbgraders_warnings()

# Each cell gets 30 seconds of computing time (the kernel's CPU time: a busy grading
# machine costs no cell; the clock is only a backstop, 5 times as long); an endless loop
# is interrupted and grading goes on. The tests' own limits on a student's search count
# computing time too (docs/explanation/wall.md). The words (`timeout_error`:
# CELL_RAN_TOO_LONG in docs/reference/messages.md) name no cause: the grader saw none.
# (A cell stopped by the backstop is told it waited rather than computed.)
CELL_SECONDS = 30
c.Execute.timeout = CELL_SECONDS
c.Execute.interrupt_on_timeout = True
c.Execute.error_on_timeout = timeout_error(CELL_SECONDS)

# The wall (docs/explanation/wall.md): each student's kernel runs in a scratch copy
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
c.WalledExecute.scratch_limit = "256M"   # the kernel's writable folder (a tmpfs), in all
# What one notebook may cost the grader (docs/explanation/wall.md, point 4): its
# time relative to the model solution's (measured once by grading the source notebook,
# kept in .puzzlekit/model-costs.json), the grader's own checks per test cell, the output
# it may show.
c.WalledExecute.notebook_cpu_factor = 4    # times the model's computing time (CPU s) ...
c.WalledExecute.notebook_cpu_floor = 120   # ... and at least this many seconds
c.WalledExecute.notebook_wall_factor = 3   # on the clock, a backstop: times the model's
c.WalledExecute.notebook_wall_floor = 90   # ... and at least this many seconds
c.WalledExecute.notebook_timeout = 300   # seconds at most (times time_scale); then "not run"
c.WalledExecute.judge_timeout = 30       # seconds of the grader's checks per test cell
c.WalledExecute.max_cell_output = 16 * 2**20
c.WalledExecute.max_notebook_output = 64 * 2**20
# The tests give a student's search a few seconds of computing time (run_with_timeout:
# the CPU time of the kernel's processes, so a busy grading machine costs no marks; the
# clock is only a backstop, 5 times as long). On a machine whose cores are slower than a
# 2020 laptop's, raise this factor (say to 2), so that a right but slowish answer does
# not run out of time; the messages keep the exercise's own seconds.
c.WalledExecute.time_scale = 1.0

# A student who deleted a graded cell gets it back (and its tests run).
c.OverwriteCells.add_missing_cells = True

# Late work (docs/how-to/run-a-term.md). Due dates: `nbgrader db assignment add
# NAME --duedate=...`; extensions: `python -m puzzlekit extend ASSIGNMENT STUDENT --days N`.
# The policy, applied alike by nbgrader autograde, the formgrader and puzzlekit grade:
# "none" (no penalty), "zero" (a late notebook scores 0) or "per_day" (points_per_day for
# each started day late, at most max_points; per notebook, never below 0).
c.AssignLatePenalties.plugin_class = "puzzlekit.course.late.PerDayPenalty"
c.LateSubmissionPlugin.penalty_method = "none"
c.PerDayPenalty.points_per_day = 1.0
c.PerDayPenalty.max_points = 5.0

# Feedback never shows the hidden tests: neither their code nor tracebacks quoting them.
# A late submission's feedback starts with how late it was and what that cost.
c.GenerateFeedback.preprocessors = [GetGrades, StripHiddenTests, LateNote,
                                    CSSHTMLHeaderPreprocessor]
# The feedback page meets WCAG 2.1 AA (docs/visuals.md, "Accessibility"): nbgrader's
# feedback template extended by the course's (puzzlekit/templates/puzzlekit_feedback: the
# page's language, links that read and are underlined, code and traceback colours of 4.5:1
# and more, lines wrapped instead of scrolled sideways), for the command and the
# formgrader's button alike (puzzlekit.course.feedback_page).
configure_feedback_page(c)

# Outputs are data, never code (docs/explanation/wall.md): the autograde steps above
# sanitise what the student's cells displayed (puzzlekit.autograder.judge.sanitize.SanitizeOutputs, after
# the execute step); the pages the formgrader (Manual grading) and the feedback render
# sanitise again: outputs through the same allow-list (nbconvert's clean_html filter
# replaced by the kit's, which keeps the boards' inline styles), markdown answers too.
c.HTMLExporter.sanitize_html = True
c.HTMLExporter.filters = {"clean_html": "puzzlekit.autograder.judge.sanitize.clean_html"}
c.HTMLExporter.preprocessors = ["puzzlekit.autograder.judge.sanitize.SanitizePage"]
