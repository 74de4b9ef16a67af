"""A Ctrl-C that lands in a finaliser is not lost while a class is graded
(`puzzlekit.course.workers.interrupts_not_lost`): Python reports an exception
raised in a weakref callback or ``__del__`` as unraisable and goes on, so a class
grading run once graded on to the end after Ctrl-C (exit 0, not 130)."""

import time
import weakref

from puzzlekit.course.workers import interrupts_not_lost


class _Key:
    pass


def _interrupt_inside_a_finaliser() -> None:
    def callback(_):
        raise KeyboardInterrupt     # as a Ctrl-C that lands while the callback runs
    key = _Key()
    ref = weakref.ref(key, callback)
    del key
    assert ref() is None


def test_a_ctrl_c_lost_in_a_finaliser_comes_again():
    caught = False
    with interrupts_not_lost():
        try:
            _interrupt_inside_a_finaliser()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                time.sleep(0.01)
        except KeyboardInterrupt:
            caught = True
    assert caught


def test_other_unraisable_errors_are_reported_as_before(capsys):
    import sys
    seen = []
    old = sys.unraisablehook
    sys.unraisablehook = seen.append
    try:
        with interrupts_not_lost():
            def callback(_):
                raise ValueError("a finaliser's own error")
            key = _Key()
            ref = weakref.ref(key, callback)
            del key
    finally:
        sys.unraisablehook = old
    assert ref() is None and [type(u.exc_value) for u in seen] == [ValueError]
