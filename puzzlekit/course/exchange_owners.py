"""A course's folders in the exchange are its instructor's: their modes, and the checks
that release, fetch, submit and feedback make before they use them.

nbgrader's exchange is one folder every user may add to (mode 1777), and nbgrader makes a
course's folders at its first release, as whoever runs it. A student who makes
``<exchange>/<course>`` first owns the course: the instructor's release fails ("You don't
own the directory"), and the students fetch her notebook and submit into her inbound,
where she reads their work and their feedback secrets.

The kit's set-up (``make hub``, ``make hub-course``, ``sudo make exchange``:
``deploy/hub/classroom.py``) makes every course's folders before anyone can, owned by the
course's instructor (`COURSE_FOLDERS`):

    <exchange>/<course>            755   only the instructor adds to it
    <exchange>/<course>/outbound   755   the releases, readable by all
    <exchange>/<course>/inbound    2733  students add submissions; only the instructor lists them
    <exchange>/<course>/feedback   711   feedback files, found only by the names their students know

and every step checks the folders it uses, with a message that names the folder, its
owner and what to do:

- the instructor's release, collect and release of feedback (`refuse_unless_mine`):
  each folder is theirs (not a link, not writable by others, inbound aside);
- a student's fetch, fetch of feedback and submit (`refuse_unless_instructors`,
  `CheckedFetchAssignment`, `CheckedFetchFeedback`, `CheckedSubmit`): each folder is the
  instructor's named in ``c.ExchangeOwners.instructors`` (the class server writes it
  into its students' config); where no instructor is named, the folders must be one
  person's and closed to everyone else (a student who made the whole course still
  passes that: name the instructor to refuse it).

With nbgrader's ``groupshared`` (several instructors sharing a course through a Unix
group) the owner is not checked, only that no folder is a link.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import stat
from typing import Any

from traitlets import Dict, Unicode
from traitlets.config import Configurable

from ..autograder.judge.plainfiles import read_all, shown, user_name, user_uid

#: the course's folders in the exchange (relative to ``<exchange>/<course>``) and their modes
COURSE_FOLDERS: dict[str, int] = {"": 0o755, "outbound": 0o755, "inbound": 0o2733,
                                  "feedback": 0o711}
#: a feedback secret nbgrader's submit writes is 128 hex digits; anything printable is kept
SECRET = re.compile(r"[!-~]{1,4096}")


class ExchangeOwners(Configurable):  # type: ignore[misc]
    """Who each course's instructor is, for the students' checks of the exchange."""

    instructors = Dict(
        key_trait=Unicode(), value_trait=Unicode(),
        help="course id -> the user name of its instructor, who owns the course's folders "
             "in the exchange (the class server writes it into its students' config)",
    ).tag(config=True)


def folder_problem(path: str, owner_uid: int | None, owner: str, *, inbound: bool = False,
                   others_may_read_inbound: bool = True) -> str | None:
    """What is wrong with the exchange folder `path` for a course whose folders are
    `owner`'s (uid `owner_uid`; None: anyone's), or None; a missing folder is no problem
    here (nbgrader says so itself). Only the inbound folder may be written by others."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return f"{path} is a symbolic link (made by {user_name(st.st_uid)}), not a folder"
    if not stat.S_ISDIR(st.st_mode):
        return f"{path} is not a folder"
    if owner_uid is not None and st.st_uid != owner_uid:
        return f"{path} belongs to {user_name(st.st_uid)}, not to {owner}"
    mode = stat.S_IMODE(st.st_mode)
    if not inbound and mode & 0o022:
        return f"{path} may be written by others (mode {mode:o}, not 755)"
    if inbound and not others_may_read_inbound and mode & 0o004:
        return (f"{path} may be listed by everyone (mode {mode:o}, not 2733): each "
                f"student's submission would be theirs to read")
    return None


def _folders(exchange: Any, parts: tuple[str, ...]) -> list[tuple[str, bool]]:
    course = os.path.join(exchange.root, exchange.coursedir.course_id)
    return [(os.path.join(course, p) if p else course, p == "inbound") for p in parts]


def refuse_unless_mine(exchange: Any, parts: tuple[str, ...], verb: str) -> None:
    """For the instructor's steps: ``exchange.fail`` unless each of the course's folders
    `parts` ('' for the course's own, 'outbound', …) is the user's running it."""
    me = os.getuid()
    for path, inbound in _folders(exchange, parts):
        owner_uid = None if exchange.coursedir.groupshared else me
        problem = folder_problem(path, owner_uid, f"you ({user_name(me)})", inbound=inbound)
        if problem:
            course = exchange.coursedir.course_id
            exchange.fail(
                f"{problem}. A student may have made it before the course's folders were "
                f"set up, to take its releases and submissions over: nothing was {verb}. "
                f"As root, set the course up again (on the class server `make hub-course "
                f"COURSE_ID={course} ROSTER=...`, on one machine `sudo make exchange "
                f"COURSE_ID={course} INSTRUCTOR={user_name(me)}`): it moves aside what is "
                f"not yours and makes the course's folders yours.")


def refuse_unless_instructors(exchange: Any, parts: tuple[str, ...], verb: str) -> None:
    """For a student's steps: ``exchange.fail`` unless each of the course's folders
    `parts` is its instructor's (`ExchangeOwners`; with none named, the owner of the
    course's folder, which must then be closed to everyone else)."""
    course = exchange.coursedir.course_id
    folders = _folders(exchange, ("", *parts))
    name = ExchangeOwners(config=exchange.config).instructors.get(course)
    if exchange.coursedir.groupshared:
        uid, who = None, "the course's instructors"
    elif name:
        uid, who = user_uid(name), f"{course}'s instructor {name}"
        if uid is None:
            exchange.fail(f"{course}'s instructor {name} (c.ExchangeOwners.instructors) is "
                          f"no user of this machine: nothing was {verb}. Tell your instructor.")
    else:
        try:
            uid = os.lstat(folders[0][0]).st_uid
        except FileNotFoundError:
            return
        who = f"{user_name(uid)}, who made {folders[0][0]}"
    for path, inbound in folders:
        problem = folder_problem(path, uid, who, inbound=inbound,
                                 others_may_read_inbound=False)
        if problem:
            exchange.fail(f"{problem}: nothing was {verb}. Tell your instructor: the "
                          f"course's folders in the exchange are not as its set-up makes "
                          f"them (a student may have made them).")


def read_secret(folder: str) -> tuple[str | None, str]:
    """(the feedback secret of a submission's folder, or None; what is wrong with it)."""
    path = os.path.join(folder, "submission_secret.txt")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, "it has no submission_secret.txt"
    except OSError as exc:
        return None, f"its submission_secret.txt cannot be read ({exc.strerror})"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "its submission_secret.txt is not a file"
        try:
            data = read_all(fd, limit=4096)
        except ValueError:
            return None, "its submission_secret.txt is longer than 4096 bytes"
    finally:
        os.close(fd)
    try:
        secret = data.decode("ascii")
    except UnicodeDecodeError:
        return None, "its submission_secret.txt holds characters that are not ASCII"
    if not secret:
        return None, "its submission_secret.txt is empty"
    if not SECRET.fullmatch(secret):
        return None, "its submission_secret.txt holds spaces or control characters"
    return secret, ""


@functools.cache
def _classes() -> dict[str, type]:
    from nbgrader.exchange.default.fetch_assignment import ExchangeFetchAssignment
    from nbgrader.exchange.default.fetch_feedback import ExchangeFetchFeedback
    from nbgrader.exchange.default.release_feedback import ExchangeReleaseFeedback
    from nbgrader.exchange.default.submit import ExchangeSubmit
    from nbgrader.utils import notebook_hash

    class CheckedFetchAssignment(ExchangeFetchAssignment):  # type: ignore[misc]
        """nbgrader's fetch, from the course instructor's release only."""

        def init_src(self) -> None:
            super().init_src()
            refuse_unless_instructors(
                self, ("outbound", f"outbound/{self.coursedir.assignment_id}"), "fetched")

    class CheckedFetchFeedback(ExchangeFetchFeedback):  # type: ignore[misc]
        """nbgrader's fetch of feedback, from the course instructor's folder only."""

        def init_src(self) -> None:
            super().init_src()
            refuse_unless_instructors(self, ("feedback",), "fetched")

    class CheckedSubmit(ExchangeSubmit):  # type: ignore[misc]
        """nbgrader's submit, into the course instructor's inbound only."""

        def init_dest(self) -> None:
            super().init_dest()
            refuse_unless_instructors(self, ("inbound",), "submitted")

    class CheckedReleaseFeedback(ExchangeReleaseFeedback):  # type: ignore[misc]
        """nbgrader's release of feedback into the instructor's own folder, student by
        student: a submission whose secret is missing, empty or malformed is skipped with
        a warning naming the student (nbgrader stops at it, and the students after it get
        nothing); every name in the log is shown safely."""

        def init_dest(self) -> None:
            refuse_unless_mine(self, ("", "feedback"), "released")
            super().init_dest()
            refuse_unless_mine(self, ("", "feedback"), "released")

        def copy_files(self) -> None:
            cd = self.coursedir
            exclude = set(cd.student_id_exclude.split(",")) if cd.student_id_exclude else set()
            pattern = re.escape(os.path.sep).join([
                cd.format_path(cd.feedback_directory, "(?P<student_id>.*)", cd.assignment_id,
                               escape=True), "(?P<notebook_id>.*).html"])
            for html_file in sorted(glob.glob(os.path.join(self.src_path, "*.html"))):
                m = re.match(pattern, html_file)
                if m is None:
                    self.log.error("Could not match '%s' with regexp '%s'", shown(html_file),
                                   pattern)
                    continue
                student, notebook = m.group("student_id"), m.group("notebook_id")
                if student in exclude:
                    continue
                folder = os.path.dirname(html_file)
                secret, why = read_secret(folder)
                if secret is None:
                    self.log.warning(
                        "feedback of %s on %s/%s not released: %s, so %s could not fetch "
                        "it; hand them %s yourself (the other students' feedback is "
                        "released)", shown(student), cd.assignment_id, shown(notebook), why,
                        shown(student), shown(html_file))
                    continue
                checksum = notebook_hash(secret=secret, notebook_id=notebook)
                tmp = os.path.join(self.dest_path, f"{checksum}-tmp.html")
                shutil.copy(html_file, tmp)
                os.chmod(tmp, 0o644)             # their student reads it, whatever the umask
                os.replace(tmp, os.path.join(self.dest_path, f"{checksum}.html"))
                self.log.info("Released feedback for student '%s' on assignment '%s/%s/%s'",
                              shown(student), cd.course_id, cd.assignment_id, shown(notebook))

    return {c.__name__: c for c in (CheckedFetchAssignment, CheckedFetchFeedback,
                                    CheckedSubmit, CheckedReleaseFeedback)}


def __getattr__(name: str) -> Any:
    # nbgrader imports these by their dotted names; nbgrader is imported only then
    if name in ("CheckedFetchAssignment", "CheckedFetchFeedback", "CheckedSubmit",
                "CheckedReleaseFeedback"):
        return _classes()[name]
    raise AttributeError(name)


__all__ = ["COURSE_FOLDERS", "CheckedFetchAssignment", "CheckedFetchFeedback",
           "CheckedReleaseFeedback", "CheckedSubmit", "ExchangeOwners", "folder_problem",
           "read_secret", "refuse_unless_instructors", "refuse_unless_mine"]
