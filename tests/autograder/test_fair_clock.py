"""The notebook's clock does not count what a busy machine kept the kernel waiting for a
core (`FairClock`, `KernelClock.waited`): first with a clock and readings made up, then
with real processes on a crowded core."""

import subprocess
import sys
import time

import pytest

from puzzlekit.autograder.judge.fair_clock import FairClock
from puzzlekit.autograder.judge.kernel_clock import KernelClock
from puzzlekit.autograder.judge.processes import run_delay
from throttle import crowded


class Made:
    """A clock and a kernel's seconds waited, both set by the test."""

    def __init__(self) -> None:
        self.now, self.kernel, self.waited = 100.0, 1, 0.0
        self.readable = True

    def clock(self) -> float:
        return self.now

    def reading(self):
        return (self.kernel, self.waited) if self.readable else None


def made_clock() -> tuple[Made, FairClock]:
    made = Made()
    return made, FairClock(made.reading, made.clock)


def test_without_waiting_it_is_the_clock_on_the_wall():
    made, clock = made_clock()
    made.now += 7.5
    assert clock.seconds() == 7.5


def test_the_seconds_the_kernel_waited_for_a_core_are_not_counted():
    made, clock = made_clock()
    made.now += 10
    made.waited += 9            # a tenth of a core: it waited the rest
    assert clock.seconds() == pytest.approx(1.0)
    made.now += 5               # then it sleeps: counted in full
    assert clock.seconds() == pytest.approx(6.0)


def test_threads_that_wait_together_take_away_no_more_than_the_stretch():
    made, clock = made_clock()
    made.now += 2
    made.waited += 6            # three threads waited all along
    assert clock.seconds() == 0.0
    made.now += 3
    assert clock.seconds() == 3.0


def test_a_restarted_kernel_or_an_unreadable_one_takes_nothing_away():
    made, clock = made_clock()
    made.now += 4
    made.kernel, made.waited = 2, 50.0      # a fresh kernel: its own count
    assert clock.seconds() == 4.0
    made.readable = False
    made.now += 4
    assert clock.seconds() == 8.0
    made.readable, made.waited = True, 54.0  # what it waited unseen is not taken
    assert clock.seconds() == 8.0
    made.now, made.waited = made.now + 1, 55.0
    assert clock.seconds() == pytest.approx(8.0)


def test_restart_starts_from_zero():
    made, clock = made_clock()
    made.now += 30
    clock.restart()
    made.now += 1
    assert clock.seconds() == 1.0


def test_a_process_on_a_crowded_core_waits_for_it_and_a_sleeping_one_does_not():
    with crowded(3):
        spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        nap = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        try:
            time.sleep(0.5)         # both started (and pinned)
            clocks = {"spin": KernelClock(spin.pid), "nap": KernelClock(nap.pid)}
            before = {name: c.waited() for name, c in clocks.items()}
            started = time.monotonic()
            time.sleep(2.0)
            took = time.monotonic() - started
            waited = {name: c.waited() - before[name] for name, c in clocks.items()}
        finally:
            spin.kill()
            nap.kill()
            spin.wait()
            nap.wait()
    # one core among four busy processes: it waited about three quarters of the time
    assert 0.5 * took < waited["spin"] <= took + 0.1, (waited, took)
    assert waited["nap"] < 0.05, waited
    assert run_delay(spin.pid) is None      # ended: nothing to read
