"""The course's set-up, made safe for a first run: programs, gradebook and exchange.

`notebooks/nbgrader_config.py` calls these when nbgrader (or the formgrader in JupyterLab)
loads it, so that every nbgrader command started from the course works whoever starts it:

- nbgrader runs some of its own programs by name (`alembic`, when it makes a new gradebook).
  Started from JupyterLab or a shell whose `PATH` lacks the environment's `bin/`, it fails
  half way and leaves a gradebook without its version table. `environment_first_on_path`
  puts the running Python's `bin/` first, and `repair_gradebook` finishes a gradebook that
  an older run left half made.
- The course's id, its folder and the exchange (where *Release* puts assignments and
  students' *Submit* puts their work) come from one place, `course_settings`: the
  environment variables `PUZZLEKIT_COURSE_ID` (default ``puzzlekit``),
  `PUZZLEKIT_COURSE_ROOT` (default: the folder of the course's ``nbgrader_config.py``) and
  `PUZZLEKIT_EXCHANGE` (default ``/srv/nbgrader/exchange``). Two courses on one machine
  differ in their id (nbgrader keeps each course's assignments and submissions under
  ``<exchange>/<course id>/``) or in their exchange; nothing else is hard-coded.
  nbgrader would create a missing one silently, world-writable, as whoever released first;
  `CheckedReleaseAssignment` refuses instead and names the one command that makes it, and
  it refuses course folders in it that are not the instructor's (a student may have made
  them first: `puzzlekit.course.exchange_owners`).
"""

from __future__ import annotations

import functools
import os
import re
import sqlite3
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import PuzzleError

#: Where the course's exchange lives unless PUZZLEKIT_EXCHANGE names another place.
DEFAULT_EXCHANGE = "/srv/nbgrader/exchange"
#: The course's id unless PUZZLEKIT_COURSE_ID names another.
DEFAULT_COURSE_ID = "puzzlekit"
#: What nbgrader accepts as a course id (a folder name in the exchange, a JupyterHub group).
COURSE_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
#: Everyone may create entries, nobody may delete another's (the sticky bit, as /tmp).
EXCHANGE_MODE = 0o1777
MAKE_EXCHANGE = "sudo make exchange"


def environment_bin() -> Path:
    """The `bin/` folder of the Python environment that is running (a venv's or conda's)."""
    return Path(sys.executable).parent


def environment_first_on_path() -> None:
    """Put the running environment's `bin/` first on PATH (for nbgrader's own programs)."""
    here = str(environment_bin())
    parts = os.environ.get("PATH", "").split(os.pathsep)
    if not parts or parts[0] != here:
        os.environ["PATH"] = os.pathsep.join([here] + [p for p in parts if p and p != here])


def _tables(db: Path) -> set[str]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def gradebook_is_half_made(db: Path) -> bool:
    """True for a gradebook whose tables exist but whose version table was never written."""
    if not db.is_file() or db.stat().st_size == 0:
        return False
    tables = _tables(db)
    return "assignment" in tables and "alembic_version" not in tables


def alembic_head() -> str:
    """The schema version of the installed nbgrader (what a new gradebook is stamped with)."""
    from nbgrader.api import get_alembic_version
    environment_first_on_path()
    return get_alembic_version()


def repair_gradebook(db: Path) -> bool:
    """Stamp a half-made gradebook with nbgrader's schema version; True if it was repaired.

    nbgrader makes every table first and stamps the version afterwards; when the stamping
    failed (its `alembic` program not on PATH) the tables are complete and only the stamp
    is missing, which is what this writes. Later `nbgrader db upgrade`s then work.
    """
    if not gradebook_is_half_made(db):
        return False
    head = alembic_head()
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
        con.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (head,))
    print(f"puzzlekit: {db} was left half made by an earlier run (no schema version); "
          f"stamped it with nbgrader's version {head}.", file=sys.stderr)
    return True


def exchange_root() -> str:
    """The exchange folder of this course: PUZZLEKIT_EXCHANGE, or /srv/nbgrader/exchange."""
    return os.environ.get("PUZZLEKIT_EXCHANGE") or DEFAULT_EXCHANGE


@dataclass(frozen=True)
class CourseSettings:
    """Where a course lives: its id, its folder (the nbgrader course root), its exchange."""
    course_id: str
    root: str
    exchange: str


def course_settings(config_folder: str | os.PathLike[str]) -> CourseSettings:
    """The course's id, folder and exchange, from the environment (the one place an
    instructor sets them), with the defaults ``puzzlekit``, `config_folder` (the folder
    of the course's ``nbgrader_config.py``) and ``/srv/nbgrader/exchange``.

    A course id nbgrader cannot use as a folder name is refused with a PuzzleError.
    """
    course_id = os.environ.get("PUZZLEKIT_COURSE_ID") or DEFAULT_COURSE_ID
    if not COURSE_ID_PATTERN.fullmatch(course_id):
        raise PuzzleError(f"PUZZLEKIT_COURSE_ID={course_id!r} is not a course id: use letters, "
                          f"digits, '-', '_' and '.' (at most 64, starting with a letter or "
                          f"digit), e.g. 'ai-101'")
    root = os.environ.get("PUZZLEKIT_COURSE_ROOT") or os.fspath(config_folder)
    root = os.path.abspath(os.path.expanduser(root))
    return CourseSettings(course_id=course_id, root=root, exchange=exchange_root())


def exchange_problem(root: str | os.PathLike[str]) -> str | None:
    """What is wrong with an exchange folder (missing, not a folder, wrong mode), or None."""
    path = Path(root)
    how = (f"Create it once, as root, from the repository: `{MAKE_EXCHANGE}` "
           f"(or `sudo mkdir -p {path} && sudo chmod 1777 {path}`).")
    if not path.exists():
        return f"The exchange folder {path} does not exist. {how}"
    if not path.is_dir():
        return f"The exchange {path} is not a folder. {how}"
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o777 != 0o777:
        return (f"The exchange folder {path} has mode {mode:o}; every user must be able to "
                f"write to it (1777). {how}")
    return None


@functools.cache
def _checked_release() -> type:
    from nbgrader.exchange.default.release_assignment import ExchangeReleaseAssignment

    class CheckedReleaseAssignment(ExchangeReleaseAssignment):  # type: ignore[misc]
        """nbgrader's release, which stops with a clear message if the exchange is not made
        or the course's folders in it are not the instructor's, and writes the due date
        into the released notebooks."""

        def ensure_root(self) -> None:
            problem = exchange_problem(self.root)
            if problem:
                self.fail(problem)
            super().ensure_root()

        def init_dest(self) -> None:
            # the course's folders that exist are the instructor's (a student may have
            # made them first: puzzlekit.course.exchange_owners); nbgrader makes the others
            from .exchange_owners import refuse_unless_mine
            refuse_unless_mine(self, ("", "outbound", "inbound"), "released")
            super().init_dest()
            refuse_unless_mine(self, ("", "outbound", "inbound"), "released")

        def copy_files(self) -> None:
            super().copy_files()
            # the due date where students work: the first cell of each released notebook
            # says it and what lateness costs (puzzlekit.course.term_view)
            from nbgrader.api import Gradebook, MissingEntry

            from .term_view import add_due_notes, late_policy_of
            with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
                try:
                    duedate = gb.find_assignment(self.coursedir.assignment_id).duedate
                except MissingEntry:
                    duedate = None
            add_due_notes(self.dest_path, duedate, late_policy_of(self.config))
            if duedate is not None:
                self.log.info("Due %s UTC (the first cell of each notebook says so)",
                              f"{duedate:%Y-%m-%d %H:%M}")

    return CheckedReleaseAssignment


def __getattr__(name: str) -> Any:
    # nbgrader imports the release class by its dotted name; build it only then, so that
    # importing this module (from nbgrader_config.py) does not import nbgrader's exchange.
    if name == "CheckedReleaseAssignment":
        return _checked_release()
    raise AttributeError(name)
