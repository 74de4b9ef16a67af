"""A test cell in cases, each worth its share of the cell's points.

A search that is right but for one edge case (the start is already the goal, the goal
cannot be reached, a 2×2 or 4×4 board) should lose that case's share, not the whole
cell. A test cell says so in prose:

    cases = Cases(3)                                   # the cell's points
    with cases.case(1, "bfs of a board already solved"):
        assert_equal(run_with_timeout(5, bfs, [1, 2, 3, 4, 5, 6, 7, 8, 0]), "", ...)
    with cases.case(1, "bfs of a 2×2 board"):
        ...
    passed("bfs")

A failing case does not stop the cell: its share is lost (`partly`, which the grader
reads as the cell's points) and the next case runs, so the student reads every case that
failed, each with its own words. When the lost shares add up to the cell's points the
cell fails, with the first case's words first. What runs outside any case still costs
the whole cell, as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .catalogue import ASSUMES_SIZE, SEEN_AFTER_3X3, SEEN_FAILED
from .messages import explain, partly, withdraw
from .mistakes import made, mistake, shown


class Cases:
    """The cases of one test cell worth `points` in all (see the module)."""

    def __init__(self, points: float) -> None:
        self.points = float(points)
        self.lost = 0.0
        self.failed: list[str] = []
        self.award: tuple[float, str] | None = None     # what `partly` holds for them

    @contextlib.contextmanager
    def case(self, worth: float, what: str, *, size: tuple[int, int] | None = None,
             new_size: tuple[int, int] | None = None) -> Iterator[None]:
        """A case worth `worth` of the cell's points, described by `what` (the board or
        the call it tries, as the student will read it). The checks before the cases are
        on 3×3 boards (they passed, or the case would not run): `new_size` (rows,
        columns) says the case tries another size and nothing else new, so any failure
        of it is named as code that assumes 3×3 (or square) boards, as a question with the
        error's own words after; `size`, that its board has that size, so only a crash of
        the student's code there (an IndexError, say) is named so."""
        try:
            yield
        except (NotImplementedError, NameError):
            raise       # not written yet, or not defined: the cell says so, as without cases
        except Exception as e:      # a check's AssertionError, or the student's own error
            crashed = not isinstance(e, AssertionError)
            self.failed.append(self._words(e, what, new_size or (size if crashed else None),
                                           after_3x3=new_size is not None))
            self.lost += worth
            if self.award is not None:
                withdraw(*self.award)
            if self.lost >= self.points:
                raise AssertionError("\n".join(self.failed)) from None
            self.award = (self.points - self.lost, "\n".join(self.failed))
            partly(*self.award)

    @staticmethod
    def _words(e: Exception, what: str, size: tuple[int, int] | None,
               after_3x3: bool = False) -> str:
        named = shown(made(), str(e))       # a diagnosis the check made says more
        if size is not None and size != (3, 3) and not named:
            # the evidence: the checks before the cases (3×3 boards) passed, this failed
            rows, cols = size
            # a board that is not square fails code that assumes either; say both
            shape = "a square or a 3×3" if rows != cols else "a 3×3"
            fixed = "rows == columns, or a fixed 3" if rows != cols else "a fixed 3, or range(3)"
            own = str(e).strip() or type(e).__name__
            if type(e).__name__ != "AssertionError":
                own = f"{type(e).__name__}: {own}"
            seen = SEEN_AFTER_3X3 if after_3x3 else SEEN_FAILED
            return mistake("assumes-3x3", ASSUMES_SIZE.format(
                what=what, seen=seen, rows=rows, cols=cols, shape=shape, fixed=fixed, own=own))
        words = (explain(e) or str(e) or type(e).__name__).strip()
        return words if words.startswith(what) else f"{what}: {words}"

    @property
    def earned(self) -> float:
        """The points the cases earned so far."""
        return max(self.points - self.lost, 0.0)
