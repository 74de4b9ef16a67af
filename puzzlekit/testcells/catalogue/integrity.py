"""What the integrity report says of a submitted notebook (`puzzlekit.course.integrity`).

A finding reads ``kind: why`` (the kinds are in `puzzlekit.course.integrity.kinds`); the
messages here are the whys, whole findings where the kind is part of the sentence. The
instructor reads them in the report; ``--comment`` also writes them as the gradebook's
comment on the student's cell, which the student's feedback shows.
"""

from __future__ import annotations

from .message import INSTRUCTOR, INTEGRITY_FINDING, Message

# ---------------------------------------------------------------------------
# What a cell runs that is not Python (`cells`: magics and shell escapes)

SHELL_COMMAND = Message("runs a shell command from the notebook", shown=INTEGRITY_FINDING)
#: {magic}: %run, %load, %load_ext, ...
CODE_FROM_ELSEWHERE = Message("%{magic} runs code that is not in the notebook",
                              shown=INTEGRITY_FINDING, example={"magic": "run"})

# ---------------------------------------------------------------------------
# What the code does (`scan`)

#: {names}: the helpers of the tests a student's cell binds again (check_path, start, ...)
REBINDS_HELPER = Message("rebinds {names}, which the tests use", shown=INTEGRITY_FINDING,
                         example={"names": "check_path"})
SHADOWS_BUILTIN = Message("shadows the builtin {names}, which the tests use",
                          shown=INTEGRITY_FINDING, example={"names": "len"})
#: {module}.{name}: a private name of one of puzzlekit's grading modules
REACHES_INTERNALS = Message("reaches the grader's internals ({module}.{name})",
                            shown=INTEGRITY_FINDING,
                            example={"module": "testcells", "name": "_forbidden"})
#: {path}: a sensitive path named in the code (gradebook.db, source/, site-packages, ...)
USES_PATH = Message("uses the path {path!r}", shown=INTEGRITY_FINDING,
                    example={"path": "../../gradebook.db"})
LOCATES_GRADER = Message("locates the grader's source files", shown=INTEGRITY_FINDING)
#: {module}: the module whose ``__setattr__``/``__delattr__`` the code calls
SETS_ATTRIBUTES = Message("sets attributes of {module}", shown=INTEGRITY_FINDING,
                          example={"module": "puzzlekit"})
HANDS_NAMESPACE = Message("hands the notebook's namespace to other code",
                          shown=INTEGRITY_FINDING)
#: a class of the student's that defines or assigns ``__class__``
FAKES_CLASS = Message("fakes the class of its objects", shown=INTEGRITY_FINDING)
#: {name}: a dunder of two objects (``__eq__``, ``__contains__``, ...) that ignores the other
RIGGED_IGNORES_OTHER = Message("{name} answers without looking at the other object",
                               shown=INTEGRITY_FINDING, example={"name": "__eq__"})
#: {name}: a dunder (``__hash__``, ``__len__``) that returns a constant
RIGGED_SAME_ANSWER = Message("{name} answers the same for every object",
                             shown=INTEGRITY_FINDING, example={"name": "__hash__"})

# ---------------------------------------------------------------------------
# puzzlekit's ready-made answers the exercise forbids (`forbidden`)

#: {label}: the forbidden name (``puzzlekit.bfs``), handed to other code
HANDS_ON_FORBIDDEN = Message("hands {label} on (this assignment forbids it)",
                             shown=INTEGRITY_FINDING, example={"label": "puzzlekit.bfs"})
#: {names}: the student's names a ``from puzzlekit... import *`` binds to forbidden ones
STAR_IMPORT_BINDS = Message("a * import binds puzzlekit's {names}", shown=INTEGRITY_FINDING,
                            example={"names": "bfs, dfs"})
#: ``from puzzlekit.engine.X import *`` where X holds a forbidden {name}: its every
#: public name is bound, the helpers that implement {name} among them
STAR_IMPORT_EVERYTHING = Message("a * import binds everything of puzzlekit.{module}, which "
                                 "holds {name} (this assignment forbids it)",
                                 shown=INTEGRITY_FINDING,
                                 example={"module": "engine.uninformed", "name": "bfs"})

# ---------------------------------------------------------------------------
# Locked cells (`report`): nbgrader restores them; the edit is reported

LOCKED_CELL_UNKNOWN = Message("a locked cell the source does not have",
                              shown=INTEGRITY_FINDING)
LOCKED_CELL_DELETED = Message("edited-locked-cell: the locked cell was deleted (nbgrader "
                              "adds it back)", shown=INTEGRITY_FINDING)
#: {why}: LOCKED_LINE_REMOVED or LOCKED_CELL_DIFFERS
LOCKED_CELL_EDITED = Message("edited-locked-cell: {why} (nbgrader restores it)",
                             shown=INTEGRITY_FINDING,
                             example={"why": "the cell differs from the instructor's"})
LOCKED_LINE_REMOVED = Message("a line of the instructor's cell was removed",
                              shown=INTEGRITY_FINDING)
LOCKED_CELL_DIFFERS = Message("the cell differs from the instructor's",
                              shown=INTEGRITY_FINDING)

# ---------------------------------------------------------------------------
# What the grader saw while it graded (`seen`: the graded notebook's metadata)

#: {what}: the first few things the grader's guard saw in one cell (and how many in all)
GRADER_SAW = Message("grader-tampering: the grader saw {what} while it graded",
                     shown=INTEGRITY_FINDING,
                     example={"what": "puzzlekit's module puzzlekit.testcells run again"})

# ---------------------------------------------------------------------------
# The report's own notes (`comments`: the instructor's terminal)

NO_GRADEBOOK_ENTRY = Message("integrity: no {assignment}/{notebook} of {student} in the "
                             "gradebook; comments skipped", shown=INSTRUCTOR,
                             example={"assignment": "ps1", "notebook": "search",
                                      "student": "alice"})
