"""Notebooks handed in through an LMS (Canvas, Moodle), brought in by nbgrader's own
``nbgrader zip_collect``.

A student who works in the browser (`make lite`) downloads the notebook and uploads it
to the course's LMS; the instructor downloads every upload of an assignment (one zip, or
the files) into ``downloaded/<assignment>/archive/`` and runs ``nbgrader zip_collect
<assignment>``. nbgrader asks the instructor for a regular expression; the course's
``nbgrader_config.py`` sets `LmsUploadCollector` instead, which knows the two names the
LMSs give (`CANVAS`, `MOODLE`) and which student each is:

- Canvas: ``<lastfirst>_<user id>_<file id>_<name>`` (``_LATE_`` before the user id when
  late). The student is the one whose ``lms_user_id`` in the gradebook is the Canvas
  user id, and without one, the Canvas user id itself (the same in every assignment).
- Moodle: ``<Full Name>_<participant number>_assignsubmission_file_<name>`` (or a folder
  ``<Full Name>_<number>_assignsubmission_file_/`` holding ``<name>``). Moodle's number
  is the student's in this assignment only, so the student is the one whose
  ``lms_user_id`` is that number, or else the one student of the gradebook with that
  full name (first last, or last first); no such student, or two, and the upload is
  skipped, saying so.

The names and the files come from students, so each is looked at before it is taken:
a file that is not a plain ``.ipynb`` file holding a notebook, one larger than
``CourseDirectory.max_file_size``, or named for no notebook of the assignment is skipped
with a warning naming it (a control character in a name is shown escaped). What lands in
``submitted/`` is always ``submitted/<student>/<assignment>/<released name>``: no part of
an upload's name becomes a path. Two uploads of one notebook by one student: on Canvas,
whose file ids count up as files are uploaded, the later one is taken and the log says
so; elsewhere nothing tells which is newer, so that student is skipped with a warning
naming both files (keep one, run again with ``--force``). Plain nbgrader instead stops
the whole class's collect there ("Duplicate submission file. No timestamps for
comparison"). Every skip is a warning; everyone else is collected.

`LmsUploadExtractor` unpacks only the archives the instructor put into ``archive/`` (the
LMS's zip): an archive a student uploaded stays as it is (and is skipped as not a
notebook), where nbgrader's own extractor unpacks archives inside archives too. An
archive with an entry that would land outside its folder is left out whole, naming it,
and so is a file or folder whose name holds control characters (nbgrader prints each
name it reads as it is).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbgrader.api import Gradebook
from nbgrader.plugins import ExtractorPlugin, FileNameCollectorPlugin
from nbgrader.utils import find_all_notebooks, unzip

from ..autograder.judge.plainfiles import plain_name, shown

#: Canvas: lastfirst (letters and digits, lower case), LATE when late, the user's Canvas
#: id, the file's id (counting up as files are uploaded), the name the student uploaded
CANVAS = re.compile(r"(?P<name>.*?)_(?:(?P<late>LATE)_)?(?P<number>\d+)_(?P<file_id>\d+)_"
                    r"(?P<file>.+)", re.S)
#: Canvas writes the name without spaces or punctuation
CANVAS_NAME = re.compile(r"[^\W_]*")
#: Moodle: the full name, the participant number (this assignment's), the plugin's name
MOODLE = re.compile(r"(?P<name>.+?)_(?P<number>\d+)_assignsubmission_file_(?P<file>.*)", re.S)
#: what a second copy of a name becomes: a browser's "name (1).ipynb", Canvas's "name-1.ipynb"
COPY_SUFFIX = re.compile(r"(?: \(\d+\)|-\d+)$")


@dataclass(frozen=True)
class Upload:
    """One file of the downloads, as its name reads."""
    path: Path
    lms: str                    # "Canvas" or "Moodle"
    name: str                   # the student's name as the LMS wrote it
    number: str                 # Canvas's user id, Moodle's participant number
    file: str                   # the file's name as the student uploaded it
    order: int | None = None    # Canvas's file id: a later upload has a larger one
    late: bool = False          # Canvas marked it LATE


@dataclass(frozen=True)
class Student:
    """What the gradebook knows of a student that an LMS's file name may carry."""
    id: str
    first_name: str = ""
    last_name: str = ""
    lms_user_id: str = ""


@dataclass(frozen=True)
class Taken:
    """An upload to collect: whose it is and which notebook of the assignment."""
    upload: Upload
    student: str
    notebook: str


def read_name(path: Path) -> Upload | None:
    """The LMS's name of `path` (Canvas's or Moodle's), or None when it is neither's.
    Moodle's folders (``<name>_<number>_assignsubmission_file_/<file>``) are read too."""
    found = CANVAS.fullmatch(path.name)
    if found and CANVAS_NAME.fullmatch(found["name"]):
        return Upload(path, "Canvas", found["name"], found["number"], found["file"],
                      order=int(found["file_id"]), late=bool(found["late"]))
    for text in (path.name, path.parent.name + path.name):
        found = MOODLE.fullmatch(text)
        if found and found["file"]:
            return Upload(path, "Moodle", found["name"], found["number"], found["file"])
    return None


def folded(name: str) -> str:
    """A name as two spellings of it compare: NFKC, case and spaces folded."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def notebook_of(file: str, notebooks: list[str]) -> str | None:
    """The assignment's notebook an uploaded file's name is, allowing a second copy's
    suffix ("… (1).ipynb" from a browser, "…-1.ipynb" from Canvas); None for any other."""
    if file in notebooks:
        return file
    stem, ext = os.path.splitext(file)
    plain = COPY_SUFFIX.sub("", stem) + ext
    return plain if plain in notebooks else None


def whose(upload: Upload, roster: list[Student]) -> tuple[str | None, str]:
    """(the student id of an upload, or None; the reason, for the log)."""
    by_number = [s.id for s in roster if s.lms_user_id and s.lms_user_id == upload.number]
    if len(by_number) == 1:
        return by_number[0], f"lms_user_id {upload.number}"
    if len(by_number) > 1:
        return None, (f"{len(by_number)} students of the gradebook have lms_user_id "
                      f"{upload.number} ({', '.join(sorted(by_number))})")
    if upload.lms == "Canvas":
        return upload.number, "the Canvas user id (no student has it as lms_user_id)"
    wanted = folded(upload.name)
    by_name = sorted(s.id for s in roster if wanted in (
        folded(f"{s.first_name} {s.last_name}"), folded(f"{s.last_name} {s.first_name}")))
    if len(by_name) == 1:
        return by_name[0], "the full name"
    if by_name:
        return None, f"{len(by_name)} students of the gradebook are named {shown(upload.name)!r}"
    return None, (f"no student of the gradebook has lms_user_id {upload.number} or is named "
                  f"{shown(upload.name)!r} (Moodle's number {upload.number} is the student's "
                  f"in this assignment only): add them, with their name or lms_user_id, and "
                  f"run again with --force")


def is_notebook_file(path: Path, max_bytes: int) -> str:
    """Empty when `path` is a plain file of at most `max_bytes` holding a notebook (JSON
    with cells); else what it is instead."""
    try:
        info = os.lstat(path)
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    if not stat.S_ISREG(info.st_mode):
        return "not a plain file"
    if info.st_size > max_bytes:
        return f"{info.st_size:,} bytes, more than the {max_bytes:,} a file may have"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as f:
            data = json.loads(f.read(max_bytes + 1))
    except (OSError, ValueError):
        return "not a notebook (not JSON)"
    if not (isinstance(data, dict) and isinstance(data.get("cells"), list)
            and isinstance(data.get("nbformat"), int)):
        return "not a notebook (JSON without cells)"
    return ""


def plan(files: list[Path], notebooks: list[str], roster: list[Student],
         max_bytes: int) -> tuple[dict[Path, Taken], list[str], list[str]]:
    """Which downloaded `files` to collect, as whose notebook: ({file: Taken}, warnings,
    notes). Every file not taken is named in a warning with the reason."""
    warnings: list[str] = []
    notes: list[str] = []
    found: dict[tuple[str, str], list[Taken]] = {}
    for path in sorted(files):
        upload = read_name(path)
        if upload is None:
            warnings.append(f"skipped {shown(path.name)}: not named as Canvas or Moodle name "
                            f"an uploaded file (<lastfirst>_<user id>_<file id>_<file>, or "
                            f"<Full Name>_<number>_assignsubmission_file_<file>)")
            continue
        notebook = notebook_of(upload.file, notebooks)
        if notebook is None:
            warnings.append(f"skipped {shown(path.name)}: {shown(upload.file)!r} is not a "
                            f"notebook of this assignment ({', '.join(notebooks) or 'none'})")
            continue
        bad = is_notebook_file(path, max_bytes)
        if bad:
            warnings.append(f"skipped {shown(path.name)}: {bad}")
            continue
        student, why = whose(upload, roster)
        if student is None:
            warnings.append(f"skipped {shown(path.name)}: {why}")
            continue
        notes.append(f"{shown(path.name)}: {student}'s {notebook} (student by {why})"
                     + (", marked LATE by Canvas" if upload.late else ""))
        found.setdefault((student, notebook), []).append(Taken(upload, student, notebook))
    chosen: dict[Path, Taken] = {}
    for (student, notebook), takes in found.items():
        if len(takes) == 1:
            chosen[takes[0].upload.path] = takes[0]
            continue
        names = ", ".join(shown(t.upload.path.name) for t in takes)
        orders = [t.upload.order for t in takes]
        if all(o is not None for o in orders) and len(set(orders)) == len(orders):
            newest = max(takes, key=lambda t: t.upload.order or 0)
            chosen[newest.upload.path] = newest
            warnings.append(f"{student} uploaded {notebook} {len(takes)} times ({names}): "
                            f"took {shown(newest.upload.path.name)}, the last uploaded "
                            f"(Canvas numbers files in the order they come)")
        else:
            warnings.append(f"skipped {student}: {len(takes)} uploads of {notebook} ({names}) "
                            f"and nothing in their names says which is newer; keep the one "
                            f"to grade in the downloads and run again with --force")
    return chosen, warnings, notes


def gradebook_roster(db_url: str, course_id: str) -> list[Student]:
    """The gradebook's students, as `whose` reads them."""
    with Gradebook(db_url, course_id=course_id) as gb:
        return [Student(s.id, s.first_name or "", s.last_name or "", s.lms_user_id or "")
                for s in gb.students]


class LmsUploadCollector(FileNameCollectorPlugin):  # type: ignore[misc]
    """nbgrader zip_collect's collector for the names Canvas and Moodle give (see the
    module): decides over the whole downloads folder at its first file, then answers
    nbgrader file by file."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chosen: dict[Path, Taken] | None = None

    def _decide(self) -> dict[Path, Taken]:
        app: Any = self.parent
        coursedir = app.coursedir
        extracted = Path(coursedir.root, app.collect_directory_structure.format(
            downloaded=app.downloaded_directory, assignment_id=coursedir.assignment_id,
            collect_step=app.extracted_directory))
        files = [Path(root) / name for root, _, names in os.walk(extracted) for name in names]
        notebooks = []
        for folder in (coursedir.release_directory, coursedir.source_directory):
            notebooks = find_all_notebooks(coursedir.format_path(folder, ".",
                                                                 coursedir.assignment_id))
            if notebooks:
                break
        roster = gradebook_roster(coursedir.db_url, coursedir.course_id)
        chosen, warnings, notes = plan(files, notebooks, roster,
                                       coursedir.max_file_size * 1000)
        for line in notes:
            self.log.info(line)
        for line in warnings:
            self.log.warning(line)
        self.log.info("%d of %d downloaded files to collect", len(chosen), len(files))
        return chosen

    def collect(self, submitted_file: str) -> dict[str, str] | None:
        """nbgrader's question for each file: whose, which notebook (None: skip it)."""
        if self._chosen is None:
            self._chosen = self._decide()
        taken = self._chosen.get(Path(submitted_file))
        if taken is None:
            return None
        return {"student_id": taken.student, "file_id": taken.notebook}


class LmsUploadExtractor(ExtractorPlugin):  # type: ignore[misc]
    """nbgrader zip_collect's extractor, unpacking only the archives in ``archive/``
    itself (not one a student uploaded inside them), and copying only plain files."""

    def extract(self, archive_path: str, extracted_path: str) -> None:
        """nbgrader's step: `unpack`, then take out every name with control characters."""
        self.unpack(archive_path, extracted_path)
        # nbgrader prints each name it collects as it is: a name with a terminal's escape
        # codes or a bidi override goes now, shown escaped (no honest upload is so named)
        for root, folders, names in os.walk(extracted_path):
            for name in [*names, *folders]:
                if not plain_name(name):
                    path = os.path.join(root, name)
                    self.log.warning("left out %s: control characters in its name", shown(path))
                    if name in folders:
                        folders.remove(name)
                        shutil.rmtree(path)
                    else:
                        os.unlink(path)

    def unpack(self, archive_path: str, extracted_path: str) -> None:
        """Unpack each archive of `archive_path` into its own folder of `extracted_path`;
        copy each other plain file."""
        for root, _, names in os.walk(archive_path):
            into = os.path.join(extracted_path, os.path.relpath(root, archive_path))
            os.makedirs(into, exist_ok=True)
            for name in sorted(names):
                path = os.path.join(root, name)
                if not stat.S_ISREG(os.lstat(path).st_mode):
                    self.log.warning("left out %s: not a plain file", shown(path))
                elif os.path.splitext(name)[1] in self.zip_ext:
                    self.log.info("Extracting from: %s", shown(path))
                    try:
                        unzip(path, into, zip_ext=self.zip_ext, create_own_folder=True,
                              tree=False)
                    except Exception as e:  # setuptools' UnsafeMember, UnrecognizedFormat
                        stem = os.path.splitext(name)[0]
                        stem = stem[:-4] if stem.endswith(".tar") else stem
                        folder = os.path.join(into, stem)
                        shutil.rmtree(folder, ignore_errors=True)
                        self.log.error("left out the archive %s whole: %s", shown(path),
                                       shown(e))
                else:
                    shutil.copyfile(path, os.path.join(into, name), follow_symlinks=False)
