"""The command line: solve a board file the way Princeton's 8-puzzle assignment (its
`Solver` program) does; taught in assignment 3, exercise 4 (the solver program).

    python -m puzzlekit solve puzzle04.txt
    python -m puzzlekit solve puzzle4x4-30.txt --algorithm idastar --heuristic linear_conflict
    python -m puzzlekit check puzzle04.txt RDDR
    python -m puzzlekit scramble 20 --size 4 --seed 1
    python -m puzzlekit integrity 02-uninformed-search --course-root notebooks
    python -m puzzlekit grade 02-uninformed-search --course-root notebooks --workers 4
    python -m puzzlekit check-tests 03-informed-search --course-root notebooks
    python -m puzzlekit grade 01-states-and-moves --LateSubmissionPlugin.penalty_method=zero
    python -m puzzlekit extend 01-states-and-moves alice --days 2
    python -m puzzlekit extend --list
    python -m puzzlekit class-report 01-states-and-moves --course-root notebooks

`solve` prints every board of a minimum solution, a blank line between boards, then
``Minimum number of moves = N``; an unsolvable board prints ``No solution possible``.

`integrity` prints a CSV of the tricks submissions use to game the autograder
(see `puzzlekit.course.integrity`).

`grade` autogrades every collected submission not graded yet, in parallel (local worker
processes or a Dask scheduler; a class of at most three in this process), into nbgrader's
gradebook (see `puzzlekit.course.workers`); exit 1 if a submission could not be
graded, 130 when interrupted (run it again to go on).
It takes nbgrader's own options (``--Class.trait=value``, as ``nbgrader autograde`` does)
and grades with them on top of the course's config.

`extend` gives a student more time for one assignment, recorded in the gradebook with
nbgrader's ``Gradebook.grant_extension`` (see `puzzlekit.course.late`); `--list` lists them.

`class-report` writes what the class got wrong in an assignment, an HTML page and a CSV,
into ``DIR/class-reports/`` (see `puzzlekit.course.class_report`); ``--watch`` writes them
again as graded work arrives (until Ctrl-C), ``--names`` names the students.

`check-tests` grades the model solution of an assignment's source as a submission is
graded and lists each test cell's points (see `puzzlekit.course.author_check`); exit 1 when a
test cell does not give the model solution its full points.

Exit codes: 0 done (also for an unsolvable board), 1 `check` found the moves wrong or
`integrity` found something, 2 bad input (missing or malformed file, bad arguments, missing
course folders), 3 a search budget ran out.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from .engine.heuristic_choice import HEURISTIC_NAMES
from .engine.solver import ALGORITHMS, solve
from .errors import PuzzleError, SearchLimitReached, Unsolvable
from .puzzle.formats import board_text, read_board
from .puzzle.moves import check_solution
from .puzzle.scrambles import scramble
from .puzzle.text import board_str

EXIT_OK, EXIT_WRONG, EXIT_BAD_INPUT, EXIT_BUDGET = 0, 1, 2, 3

ALGORITHM_NAMES = tuple(ALGORITHMS)
#: nbgrader's (traitlets') command-line config: --Class.trait=value
NBGRADER_OPTION = re.compile(r"--[A-Za-z_]\w*(\.[A-Za-z_]\w*)+=.*", re.S)


class _Parser(argparse.ArgumentParser):
    """argparse that exits with code 2 and a one-line message (its default is 2 as well)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return n


def _positive_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not x > 0:
        raise argparse.ArgumentTypeError(f"{text} is not positive")
    return x


def _non_negative_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not x >= 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return x


def _course_root(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--course-root", default=".", metavar="DIR",
                        help="the nbgrader course root (default: the current directory)")


def build_parser() -> argparse.ArgumentParser:
    """The `python -m puzzlekit` argument parser."""
    p = _Parser(prog="python -m puzzlekit",
                description="Solve, check and scramble sliding-tile puzzles.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("solve", help="print a minimum solution of a board file")
    s.add_argument("file", help="board file: first line N, then N rows (0 = blank)")
    s.add_argument("--algorithm", "-a", default="astar", choices=ALGORITHM_NAMES)
    s.add_argument("--heuristic", default="manhattan", choices=HEURISTIC_NAMES)
    s.add_argument("--max-nodes", type=_positive_int, default=None,
                   help="give up after expanding this many nodes (exit 3)")
    s.add_argument("--time-limit", type=_positive_float, default=None,
                   help="give up after this many seconds (exit 3)")

    c = sub.add_parser("check", help="check a move string (U/D/L/R: where the blank goes)")
    c.add_argument("file", help="board file")
    c.add_argument("moves", help="e.g. RDDR; '' or - for no moves")

    r = sub.add_parser("scramble", help="print a board N random moves from the goal")
    r.add_argument("n", type=_positive_int, help="number of random moves")
    r.add_argument("--size", type=int, default=3, help="board side (default 3)")
    r.add_argument("--cols", type=int, default=None, help="columns, if not square")
    r.add_argument("--seed", type=int, default=None, help="random seed (reproducible)")

    i = sub.add_parser("integrity", help="name the tricks submissions use to game the "
                       "autograder (CSV on stdout)")
    i.add_argument("assignment", help="an assignment of DIR/source/")
    _course_root(i)
    i.add_argument("--autograded", action="store_true",
                   help="read DIR/autograded/ instead of DIR/submitted/")
    i.add_argument("--student", action="append", default=None, metavar="ID",
                   help="only this student (repeatable)")
    i.add_argument("--comment", action="store_true",
                   help="also put the findings into DIR/gradebook.db as auto comments")

    g = sub.add_parser("grade", help="autograde every collected submission of an "
                       "assignment in parallel, into nbgrader's gradebook")
    g.add_argument("assignment", help="an assignment of DIR/source/")
    _course_root(g)
    where = g.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_positive_int, default=None, metavar="N",
                       help="local worker processes (default: one per core; at most 3 "
                       "submissions to grade and no --job-timeout: none, graded in this "
                       "process as nbgrader autograde does)")
    where.add_argument("--dask", default=None, metavar="ADDRESS",
                       help="run the work on this Dask scheduler (tcp://host:8786)")
    g.add_argument("--force", action="store_true",
                   help="grade again the submissions that are already graded")
    g.add_argument("--job-timeout", type=_positive_float, default=None, metavar="SECONDS",
                   help="stop a submission's grading after this long and report it as "
                   "failed (default: the course's per-notebook budget and a quarter more)")
    g.add_argument("--student", action="append", default=None, metavar="ID",
                   help="only this student (repeatable)")
    g.add_argument("--progress", default="auto", choices=("auto", "bar", "log", "quiet"),
                   help="bar (terminal), log (a line per 10%%), quiet; auto picks")
    g.add_argument("--watch", action="store_true",
                   help="collect and grade new submissions as they arrive (until Ctrl-C)")
    g.add_argument("--interval", type=_positive_float, default=30.0, metavar="SECONDS",
                   help="with --watch: seconds between two collects (default 30)")
    g.add_argument("--feedback", action="store_true",
                   help="with --watch: also generate and release the feedback")
    e = sub.add_parser("extend", help="give a student more time for an assignment (in the "
                       "gradebook); --list shows every extension")
    e.add_argument("assignment", nargs="?", help="an assignment in the gradebook")
    e.add_argument("student", nargs="?", help="a student id in the gradebook")
    e.add_argument("--hours", type=_non_negative_float, default=0.0,
                   help="hours more (with --days: added)")
    e.add_argument("--days", type=_non_negative_float, default=0.0, help="days more")
    e.add_argument("--list", action="store_true", help="list every extension")
    _course_root(e)
    t = sub.add_parser("check-tests", help="grade the model solution of an assignment's "
                       "source, as generate_assignment does before it releases")
    t.add_argument("assignment", help="an assignment of DIR/source/")
    _course_root(t)
    cr = sub.add_parser("class-report", help="what the class got wrong in an assignment: an "
                        "HTML page and a CSV beside the course")
    cr.add_argument("assignment", help="an assignment in the gradebook")
    cr.add_argument("--course-root", "--course", dest="course_root", default=".",
                    metavar="DIR", help="the nbgrader course root (default: the current "
                    "directory)")
    cr.add_argument("--out", default=None, metavar="DIR",
                    help="write the page and the CSV here (default: DIR/class-reports)")
    cr.add_argument("--names", action="store_true",
                    help="name the students (who did not hand in, got stuck, could not be "
                    "read); by default the page names none and can be shown to the class")
    cr.add_argument("--watch", nargs="?", const=30.0, default=None, type=_positive_float,
                    metavar="SECONDS", help="write it again whenever graded work changes, "
                    "looking every SECONDS (default 30), until Ctrl-C")
    return p


def solution_text(path: Sequence[object], minimum: bool = True) -> str:
    """Every board of `path` (blank as spaces), a blank line between them, and the count."""
    boards = "\n\n".join(board_str(S) for S in path)  # type: ignore[arg-type]
    count = "Minimum number of moves" if minimum else "Number of moves (not proved minimal)"
    return f"{boards}\n\n{count} = {len(path) - 1}"


def _solve(args: argparse.Namespace) -> int:
    try:
        result = solve(read_board(args.file), algorithm=args.algorithm,
                       heuristic=args.heuristic, max_nodes=args.max_nodes,
                       time_limit=args.time_limit)
    except Unsolvable:             # decided by parity before any search
        print("No solution possible")
        return EXIT_OK
    print(solution_text(result.path, minimum=result.optimal))
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    start = read_board(args.file)
    moves = "" if args.moves.strip() in ("", "-") else args.moves
    verdict = check_solution(start, None, moves)
    print(verdict.message)
    return EXIT_OK if verdict.ok else EXIT_WRONG


def _scramble(args: argparse.Namespace) -> int:
    S = scramble(args.size, args.cols, moves=args.n, seed=args.seed)
    print(board_text(S), end="")
    return EXIT_OK


def _integrity(args: argparse.Namespace) -> int:
    # integrity and classgrade load in about 0.2 s each: only their own commands pay it
    from .course.integrity import add_comments, report, write_csv
    root = Path(args.course_root)
    if args.comment and not (root / "gradebook.db").exists():
        raise PuzzleError(f"no gradebook.db in {root}: run nbgrader autograde first")
    findings = report(root, args.assignment, students=args.student,
                      autograded=args.autograded)
    write_csv(findings, sys.stdout)
    if args.comment:
        add_comments(root, args.assignment, findings, students=args.student,
                     autograded=args.autograded)
    return EXIT_WRONG if findings else EXIT_OK


def _grade(args: argparse.Namespace) -> int:
    from .course.workers import (course_config, grade_class, interrupts_not_lost,
                                       print_report, watch)
    if args.workers == 0:
        raise PuzzleError("--workers must be at least 1")
    if args.feedback and not args.watch:
        raise PuzzleError("--feedback goes with --watch (or run nbgrader generate_feedback)")
    log = logging.getLogger("puzzlekit.course.workers")
    handler = logging.StreamHandler(sys.stderr)
    # in a terminal, clear the progress bar's line first (the bar redraws itself)
    clear = "\r\x1b[2K" if sys.stderr.isatty() else ""
    handler.setFormatter(logging.Formatter(clear + "%(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.WARNING)     # nbgrader's converters log every file at INFO
    log.propagate = False
    config = course_config(args.course_root, args.nbgrader_options)
    with interrupts_not_lost():      # a Ctrl-C lost in a finaliser comes again
        try:
            if args.watch:
                watch(args.assignment, args.course_root, interval=args.interval,
                      feedback=args.feedback, workers=args.workers, dask=args.dask,
                      config=config, log=log, job_timeout=args.job_timeout,
                      progress="log" if args.progress == "auto" else args.progress)
                return EXIT_OK
            report = grade_class(args.assignment, args.course_root, force=args.force,
                                 workers=args.workers, dask=args.dask, students=args.student,
                                 progress=args.progress, config=config, log=log,
                                 job_timeout=args.job_timeout)
        finally:
            log.removeHandler(handler)
        print_report(report)
        if report.interrupted:
            return 130
        return EXIT_OK if report.ok else EXIT_WRONG


def _extend(args: argparse.Namespace) -> int:
    from .course.workers import course_config
    from .course.late import extensions, grant_extension
    config = course_config(args.course_root)
    if args.list:
        if args.assignment or args.student:
            raise PuzzleError("--list lists every extension: give no assignment or student")
        found = extensions(config)
        for ext in found:
            print(ext.line())
        if not found:
            print("no extensions")
        return EXIT_OK
    if not (args.assignment and args.student):
        raise PuzzleError("give an assignment and a student (or --list), e.g. "
                          "extend 01-states-and-moves alice --days 2")
    ext = grant_extension(config, args.assignment, args.student, hours=args.hours,
                          days=args.days)
    if ext.extension:
        print(f"extension granted: {ext.line()}")
    else:
        print(f"no extension for {args.student} on {args.assignment} any more")
    return EXIT_OK


def _check_tests(args: argparse.Namespace) -> int:
    import nbformat

    from .course.author_check import answer_warnings, check_model_solution
    from .course.authoring import with_kit_lines
    from .course.workers import course_config
    config = course_config(args.course_root)
    folder = Path(config.CourseDirectory.root) / "source" / args.assignment
    notebooks = sorted(folder.glob("*.ipynb"))
    if not notebooks:
        raise PuzzleError(f"no notebook in {folder}: is {args.assignment} an assignment of "
                          f"{Path(args.course_root).resolve()}/source?")
    ok = True
    for path in notebooks:
        nb = with_kit_lines(nbformat.read(path, as_version=4))
        for warning in answer_warnings(nb, path.stem):
            print(f"warning: {warning}", file=sys.stderr)
        result = check_model_solution(nb, str(folder), config, path.stem)
        print(result.report())
        for problem in result.problems():
            print(problem, file=sys.stderr)
        ok = ok and result.ok
    return EXIT_OK if ok else EXIT_WRONG


def _class_report(args: argparse.Namespace) -> int:
    from .course.workers import course_config
    from .course.class_report import class_report, watch
    config = course_config(args.course_root)
    if args.watch is None:
        report = class_report(args.assignment, names=args.names, config=config)
        files = report.write(args.out)
        d = report.data
        print(f"{d.assignment}: {len(d.submissions)} of {len(d.roster)} handed in, "
              f"mistakes read from {len(d.judged)}")
        print(files.html)
        print(files.csv)
        return EXIT_OK
    log = logging.getLogger("puzzlekit.course.class_report")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    print(f"watching {args.assignment} every {args.watch:g} s (Ctrl-C stops)", file=sys.stderr)
    try:
        watch(args.assignment, names=args.names, out=args.out, interval=args.watch,
              config=config, log=log)
    except KeyboardInterrupt:
        pass
    finally:
        log.removeHandler(handler)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (see the module docstring)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # `grade` takes nbgrader's own options, as nbgrader autograde does
    wrong = [a for a in extra if args.command != "grade" or not NBGRADER_OPTION.fullmatch(a)]
    if wrong:
        hint = (" (nbgrader's options are written --Class.trait=value)"
                if args.command == "grade" else "")
        parser.error(f"unrecognized arguments: {' '.join(wrong)}{hint}")
    args.nbgrader_options = extra
    command = {"solve": _solve, "check": _check, "scramble": _scramble,
               "integrity": _integrity, "grade": _grade, "extend": _extend,
               "check-tests": _check_tests, "class-report": _class_report}[args.command]
    try:
        return command(args)
    except SearchLimitReached as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BUDGET
    except PuzzleError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
