"""``class-report --watch``: write the report again whenever the class's graded work
changes (a graded notebook of the assignment, or the gradebook), for a live view while a
lab session hands work in and the grader grades it.

Each round looks at the files' sizes and modification times (cheap: no notebook is read
unless one changed) and rebuilds the report only then. A round that fails (the gradebook
busy, a notebook being written) is logged and tried again at the next round.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

LOG = logging.getLogger("puzzlekit.course.class_report")

Fingerprint = tuple[tuple[str, int, int], ...]


def fingerprint(config: Any, assignment: str) -> Fingerprint:
    """The size and modification time of every graded notebook of `assignment` and of the
    gradebook's files (SQLite and its journal)."""
    from nbgrader.coursedir import CourseDirectory
    cd = CourseDirectory(config=config)
    cd.assignment_id = assignment
    pattern = cd.format_path(cd.autograded_directory, "*", assignment)
    files = sorted(Path(p) for p in glob.glob(os.path.join(pattern, "*.ipynb")))
    url = str(cd.db_url)
    if url.startswith("sqlite:///"):
        db = Path(url.removeprefix("sqlite:///"))
        files += [db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-journal")]
    found = []
    for path in files:
        try:
            st = path.stat()
        except OSError:
            continue
        found.append((str(path), st.st_size, st.st_mtime_ns))
    return tuple(found)


def watch(assignment: str, course_root: str | os.PathLike[str] = ".", *,
          out: str | os.PathLike[str] | None = None, names: bool = False,
          interval: float = 30.0, config: Any | None = None,
          stop: threading.Event | None = None, rounds: int | None = None,
          on_write: Callable[[Any], None] | None = None,
          log: logging.Logger | None = None) -> int:
    """Write the report of `assignment` now and again after each change, looking every
    `interval` seconds, until `stop` is set, `rounds` looks were taken, or Ctrl-C.
    `on_write(files)` is called after each write. Returns the number of writes."""
    from sqlalchemy.exc import SQLAlchemyError

    from ...errors import PuzzleError
    from . import report_config, class_report
    log = log or LOG
    stop = stop or threading.Event()
    cfg = report_config(course_root, config)
    seen: Fingerprint | None = None
    writes = 0
    n = 0
    while not stop.is_set() and (rounds is None or n < rounds):
        n += 1
        now = fingerprint(cfg, assignment)
        if now != seen:
            try:
                files = class_report(assignment, names=names, config=cfg).write(
                    out, live_seconds=interval)
            except PuzzleError:
                raise                               # bad input: an unknown assignment
            except (OSError, ValueError, SQLAlchemyError) as error:
                # the gradebook busy ("database is locked"), a file half written
                log.warning("class report of %s not written this round: %s", assignment,
                            error)
            else:
                seen = now
                writes += 1
                log.info("class report written: %s", files.html)
                if on_write is not None:
                    on_write(files)
        if rounds is not None and n >= rounds:
            break
        stop.wait(interval)
    return writes
