"""Whose each global name of a graded notebook is, and what the kernel has of it.

The judge runs the test cells in a namespace of its own (`puzzlekit.autograder.judge.judge`);
the student's names live in the kernel. `NotebookGlobals` keeps the two in step, as
plain nbgrader would have them in one namespace:

* a name a given or test cell binds is *trusted*: the judge's own for good, never fetched
  from the kernel again (a student's code that fails one test cannot supply the next
  one's ``expected``);
* any other name a test reads is *fetched* from the kernel, in that cell only (a student's
  cell that ran makes every fetched value stale: `kernel_changed`);
* what a test cell binds, or changes in place of a fetched list, dict, set or array
  (``COSTS["U"] = 5``), goes back to the kernel after the cell and before each call of
  the student's code (`to_push`, then `pushed`), but only names the notebook's functions
  read (the kernel is asked once per name, `to_push`'s `ask`), never a name with a
  leading underscore (a hidden test's own), and never anything that is not plain data.

It holds names and encoded values only; the judge does the asking and the sending.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

from .. import wire
from .crossing import is_mutable
from .handles import handle_only


class NotebookGlobals:
    """The bookkeeping of one notebook's global names, over the judge's namespace `ns`."""

    def __init__(self, ns: dict[str, Any]) -> None:
        self.ns = ns
        #: names bound by given or test cells: the judge's own
        self.trusted: set[str] = set()
        #: names copied from the kernel, until a student's cell runs
        self.fetched: set[str] = set()
        self._objects: dict[str, Any] = {}      # the object each fetch gave
        self._synced: dict[str, Any] = {}       # name -> its value as the kernel has it
        self._test_bound: set[str] = set()      # names some test cell bound
        self._not_in_kernel: set[str] = set()   # ... that no function of the kernel reads
        self._in_kernel: set[str] = set()       # ... that one reads
        self._cell: set[str] = set()            # names the running test cell uses

    def _has(self, name: str) -> bool:
        return dict.__contains__(self.ns, name)

    def _get(self, name: str) -> Any:
        return dict.__getitem__(self.ns, name)

    # -- the cells -----------------------------------------------------------------

    def may_fetch(self, name: str) -> bool:
        """Whether a name the judge's namespace lacks is the student's, to fetch."""
        return name not in self.trusted and not hasattr(builtins, name) \
            and not name.startswith("__")

    def fetched_value(self, name: str, value: Any) -> None:
        """`name` was fetched from the kernel as `value`: it is in the namespace now, with
        how it looked (to see whether a test changes it in place) and which object it is
        (whether a test rebinds it)."""
        dict.__setitem__(self.ns, name, value)
        self.fetched.add(name)
        self._objects[name] = value
        if is_mutable(value):
            try:
                self._synced[name] = wire.encode(value)
            except wire.WireError:
                pass

    def given_cell(self, bound: set[str]) -> None:
        """A given cell binds `bound`: the judge's own."""
        self.trusted |= bound

    def test_cell(self, bound: set[str], used: set[str]) -> None:
        """A test cell starts that binds `bound` and uses `used` besides."""
        self._test_bound |= bound
        self._cell = bound | used

    def test_cell_ran(self, bound: set[str]) -> None:
        """After a test cell: the names it binds are the judge's from now on, also those
        it did not get to bind (it failed first). Only a name the cell read from the
        kernel and then left as it was stays the student's."""
        for name in bound:
            if name in self.fetched and self._has(name) and \
                    self._objects.get(name) is self._get(name):
                continue        # only read, never bound: still the kernel's
            self.trusted.add(name)
            self.fetched.discard(name)
            self._objects.pop(name, None)

    def cell_over(self) -> None:
        """No test cell runs now: nothing is pushed."""
        self._cell = set()

    def kernel_changed(self) -> None:
        """A student's cell ran: every fetched value may be stale, and what the kernel
        has of a test's values is unknown."""
        for name in self.fetched:
            self.ns.pop(name, None)
        self.fetched.clear()
        self._objects.clear()
        self._synced.clear()
        self._not_in_kernel.clear()
        self._in_kernel.clear()

    # -- the kernel's copy ------------------------------------------------------------

    def to_push(self, ask: Callable[[list[str]], list[Any]]) -> dict[str, Any]:
        """The student's names the running test cell bound (or, fetched, changed in
        place), encoded as they are now, where they differ from what the kernel has.
        `ask(names)`: which of `names` the notebook's functions read (asked once each)."""
        if not self._cell:
            return {}
        candidates = []
        for name in self._cell:
            if name.startswith("_") or not self._has(name) or name in self._not_in_kernel:
                continue
            if name in self._test_bound or (name in self.fetched and name in self._synced):
                candidates.append(name)
        unknown = [n for n in candidates if n not in self._in_kernel]
        if unknown:
            has = ask(unknown)
            for name in unknown:
                (self._in_kernel if name in has else self._not_in_kernel).add(name)
        out: dict[str, Any] = {}
        for name in candidates:
            if name in self._not_in_kernel:
                continue
            try:
                encoded = wire.encode(self._get(name), handle_only)
            except wire.WireError:
                continue    # not plain data: stays the judge's own
            if self._synced.get(name) != encoded:
                out[name] = encoded
        return out

    def pushed(self, values: dict[str, Any], done: list[Any]) -> None:
        """`values` were sent; the kernel set the names in `done` (the rest it lacks)."""
        for name, encoded in values.items():
            if name in done:
                self._synced[name] = encoded
            else:
                self._not_in_kernel.add(name)
