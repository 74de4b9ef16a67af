"""The kinds of finding, and a finding."""

from __future__ import annotations

from dataclasses import dataclass

#: every kind of finding, with what it means
KINDS: dict[str, str] = {
    "rebinds-helper": "binds a name the tests rely on (check_path, assert_equal, start, ...)",
    "reference-call": "reaches puzzlekit's ready-made answer to the exercise",
    "patches-grader": "changes (or reaches inside) puzzlekit's grading modules",
    "patches-puzzlekit": "changes puzzlekit, whose references the hidden tests compare with",
    "builtins": "changes or shadows Python's builtins",
    "sys-hooks": "sys.modules, sys.excepthook, sys.settrace/setprofile and other hooks",
    "ipython-shell": "drives the IPython shell (get_ipython, transformers, magics)",
    "dynamic-code": "exec, eval, compile, __import__, importlib, %run",
    "module-attributes": "globals(), setattr, vars(), __dict__, __code__, stack frames",
    "interrupt-handler": "installs signal handlers (ignoring interrupts and timeouts)",
    "kernel-exit": "kills or exits the kernel (os._exit, os.kill, ctypes, exit())",
    "shell-command": "runs shell commands (!cmd, %%bash, subprocess, os.system)",
    "rigged-dunder": "__eq__/__hash__/__len__ that ignore their operands, mock.ANY",
    "file-access": "names the course's, the grader's or Python's own files (gradebook.db, "
                   "source/, site-packages, IPython startup)",
    "edited-locked-cell": "a locked cell differs from the instructor's source, or is gone",
    "unreadable-notebook": "the submitted notebook is not valid JSON",
    "grader-tampering": "while graded, the notebook reached into the grader's machinery "
                        "(the grader saw it: a refused attempt, or puzzlekit's names rebound)",
}

CSV_HEADER = ("student", "assignment", "notebook", "grade_id", "finding", "line")

LINE_WIDTH = 120


@dataclass(frozen=True)
class Finding:
    """One trick in one cell of one submitted notebook."""

    student: str
    assignment: str
    notebook: str
    grade_id: str
    finding: str
    line: str

    @property
    def kind(self) -> str:
        """The kind of the finding (a key of `KINDS`)."""
        return self.finding.split(":", 1)[0]
