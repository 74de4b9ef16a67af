"""The integrity report: name the tricks a submitted notebook uses to game the autograder.

    python -m puzzlekit integrity 02-uninformed-search --course-root notebooks

Design
------
*Static only.* Every cell a student could have written (nbgrader solution cells, and code
cells without locked nbgrader metadata: students add cells) is parsed with :mod:`ast`;
student code is never run. A locked cell is only compared with the instructor's source
(hidden tests left out on both sides): a difference is ``edited-locked-cell``.

*The rules come from the source notebook*, nothing is configured per assignment:

- the names the tests rely on: names a locked cell binds that a test cell reads (directly
  or through a locked helper such as ``check_path``) and the grader's helpers a locked cell
  imports, minus the names the exercise asks for (those bound in the source's solution
  cells). Rebinding one is ``rebinds-helper``; a locked cell's variable no test reads
  (``listOfLists``, ``neighbors``, a test's ``got``) is the student's to reuse;
- the forbidden references: the names in a test cell's ``forbid_reference(...)`` calls
  apply to the student names that test cell reads, and flow on to every student-bound name
  those read in turn (a helper of ``search`` may not call ``puzzlekit.search`` either).
  Answer names whose tests forbid nothing get the union of the notebook's forbidden names.
  ``solve``/``search`` cover the whole search engine (``solver``, ``layered``, ...).

*Names are resolved as Python would*: module aliases, ``from`` imports, submodules,
``getattr`` with constant-folded names, ``vars()``/``__dict__``, ``importlib``,
``sys.modules``. A reference is "reached" where student code takes it out of puzzlekit (an
attribute, an import, a ``getattr``); names a locked cell hands out (``nextStates`` in
assignment 2, ``manhattan`` in 4) are fine. A reference called or looked at (``help``) at
top level, whose result feeds no answer (``print(puzzlekit.nextStates(start))``), is not
named: it cannot change what a test sees. Lines of the instructor's unmarked demo cells
(their ``except NotImplementedError`` fallbacks call puzzlekit) are never named, even in an
edited cell.

*Findings*: one :class:`Finding` per cell, kind and line. Its ``finding`` field is
``"<kind>: <explanation>"`` (split on the first ``": "``); the kinds are :data:`KINDS`.
``submitted/`` shows what students handed in; ``autograded/`` what nbgrader graded (its
locked cells are already restored, so edits to them no longer show, deletions still do).

*Comments* (``--comment``): each finding becomes a line of the auto comment of its solution
cell (findings of other cells go to the nearest solution cell above). The formgrader shows
an auto comment in the cell's comment box until a grader types a manual one; manual
comments are never touched. nbgrader also puts the comment (manual, else auto) into the
feedback it generates, and ``nbgrader autograde`` resets auto comments: run this after
autograding, and before generating feedback only if students may read the findings.

The analyser is in rooms of one idea each, in the order they build on one another:
`kinds` (the findings), `rules` (what is flagged by the dotted name reached: the layout's
own rules, `puzzlekit.registry`), `values` (what an expression stands for, constant
folding), `scopes`, `cells` (source text, magics, metadata), `exercise` (what the source
notebook says), `scan` (the visitor of one notebook), `forbidden` (which answer may not
reach which reference), `report` (the public API) and `comments` (``--comment``).
"""

from __future__ import annotations

from .comments import add_comments
from .kinds import CSV_HEADER, KINDS, Finding
from .report import report, scan_notebook, write_csv
from .seen import grader_saw

__all__ = ["Finding", "KINDS", "scan_notebook", "report", "write_csv", "add_comments",
           "CSV_HEADER", "grader_saw"]
