"""A test's time limit counts the computing time of the student's kernel, not the clock:
a right answer keeps its points when the kernel gets a fraction of a core (`throttled`
lets it run 15% of the time), a runaway still fails, with words that name no cause the
grader did not see, and code that only waits is stopped by the clock's backstop."""

import time

import pytest

pytest.importorskip("nbgrader")

from throttle import crowded, throttled  # noqa: E402
from walled_notebooks import errors, notebook, run, text  # noqa: E402,F401

pytestmark = pytest.mark.nbgrader

WORK = """
def work(n):
    total = 0
    for i in range(n):
        total += i
    return total

def spin():
    while True:
        pass

def nap():
    import time
    time.sleep(120)
"""


def loops_for(seconds: float) -> int:
    """How many of `work`'s loops take about `seconds` of CPU here."""
    space: dict = {}
    exec(WORK, space)
    n = 200_000
    started = time.process_time()
    space["work"](n)
    return max(int(n * seconds / max(time.process_time() - started, 1e-4)), 1000)


def test_a_right_answer_keeps_its_points_on_a_busy_machine(run):
    n = loops_for(0.5)
    test = (f"from puzzlekit.testcells import run_with_timeout\n"
            f"assert run_with_timeout(1.5, work, {n}) == {n * (n - 1) // 2}\n")
    started = time.monotonic()
    with throttled(share=0.15):
        cells = run(notebook(WORK, test, test, tests=(1, 2)), timeout=60)
    took = time.monotonic() - started
    assert errors(cells[1]) == [] and errors(cells[2]) == [], cells
    # the kernel really was slowed down: the two calls took longer than their budget
    assert took > 3.0


def test_a_runaway_fails_by_its_computing_time_and_no_cause_is_guessed(run):
    test = "from puzzlekit.testcells import run_with_timeout\nrun_with_timeout(1, spin)\n"
    with throttled(share=0.3):
        cells = run(notebook(WORK, test, "x = 1", "assert x == 1", tests=(1, 3)),
                    timeout=60)
    (name, said), = errors(cells[1])
    assert "spin did not finish within 1 second of computing time" in said, said
    assert "visited set" not in said and "infinite loop" not in said
    assert errors(cells[3]) == []       # the kernel was interrupted, grading went on


def test_code_that_waits_is_stopped_by_the_backstop_and_told_so(run, monkeypatch):
    from puzzlekit.testcells import budget
    monkeypatch.setattr(budget, "BACKSTOP_FACTOR", 2.0)
    monkeypatch.setattr(budget, "BACKSTOP_EXTRA", 0.0)
    test = "from puzzlekit.testcells import run_with_timeout\nrun_with_timeout(1, nap)\n"
    cells = run(notebook(WORK, test, tests=(1,)), timeout=60)
    (name, said), = errors(cells[1])
    assert "nap was stopped after 2 seconds on the clock" in said, said
    assert "waiting for something" in said


def test_a_right_answer_past_the_backstop_on_a_very_busy_machine_keeps_its_points(
        run, monkeypatch):
    """The clock's backstop stops only code seen waiting: a search that still computes
    when it comes (here a tenth of a core, past a backstop as long as its budget) goes on
    until its computing time is used up, and passes."""
    from puzzlekit.testcells import budget
    monkeypatch.setattr(budget, "BACKSTOP_FACTOR", 1.0)
    monkeypatch.setattr(budget, "BACKSTOP_EXTRA", 0.0)
    n = loops_for(0.5)
    test = (f"from puzzlekit.testcells import run_with_timeout\n"
            f"assert run_with_timeout(1.5, work, {n}) == {n * (n - 1) // 2}\n")
    started = time.monotonic()
    with throttled(share=0.1):
        cells = run(notebook(WORK, test, tests=(1,)), timeout=60)
    took = time.monotonic() - started
    assert errors(cells[1]) == [], cells[1]
    assert took > 3.0       # well past the backstop (1.5 s) on the clock


# ---------------------------------------------------------------------------
# A student's own cell: its seconds are computing time too (`CellBudget`)

def test_a_cell_that_computes_its_seconds_on_a_busy_machine_is_not_stopped(run):
    n = loops_for(1.0)
    started = time.monotonic()
    with throttled(share=0.15):
        cells = run(notebook(WORK, f"total = work({n})", "print(total)"), timeout=2)
    took = time.monotonic() - started
    assert errors(cells[1]) == [], cells[1]
    assert text(cells[2]) == f"{n * (n - 1) // 2}\n"
    assert took > 4.0       # the cell took longer on the clock than its 2 seconds


def test_a_runaway_cell_is_stopped_by_its_computing_time_and_the_next_cells_run(run):
    with throttled(share=0.3):
        cells = run(notebook(WORK, "spin()", "print(6 * 7)"), timeout=1)
    (name, said), = errors(cells[1])
    assert name == "CellTimeoutError" and "computed for 1 s and was stopped" in said, said
    assert "KeyboardInterrupt" not in str(cells[1])
    assert text(cells[2]) == "42\n"


def test_on_a_crowded_core_a_cell_past_its_time_on_the_wall_computes_on_and_a_nap_does_not(
        run, monkeypatch):
    """The cell's backstop is on the notebook's clock, which does not count what the
    machine kept the kernel waiting for a core: a cell that computes its second on a core
    shared with five busy processes (about six seconds on the wall, past a backstop of
    two) runs to its end; a cell that sleeps is stopped at its two seconds all the same."""
    from puzzlekit.testcells import budget
    monkeypatch.setattr(budget, "BACKSTOP_FACTOR", 1.0)
    monkeypatch.setattr(budget, "BACKSTOP_EXTRA", 0.0)
    n = loops_for(1.0)
    with crowded(5):
        started = time.monotonic()
        cells = run(notebook(WORK, f"total = work({n})", "nap()", "print(total)"),
                    timeout=2)
        took = time.monotonic() - started
    assert errors(cells[1]) == [], cells[1]
    (name, said), = errors(cells[2])
    assert said.startswith("this cell was stopped after 2 seconds on the clock"), said
    assert text(cells[3]) == f"{n * (n - 1) // 2}\n"
    assert took > 5.0       # the first cell took well past its 2 seconds on the wall


def test_on_a_crowded_core_a_tests_plain_call_computes_on_and_one_that_naps_does_not(run):
    """A test's call outside `run_with_timeout` has the cell's seconds on the notebook's
    clock: one that computes a second on a core shared with five busy processes (about
    six on the wall, past its two) passes; one that sleeps fails at its two seconds."""
    n = loops_for(1.0)
    test = f"assert work({n}) == {n * (n - 1) // 2}\n"
    with crowded(5):
        started = time.monotonic()
        cells = run(notebook(WORK, test, "nap()\n", tests=(1, 2)), timeout=2)
        took = time.monotonic() - started
    assert errors(cells[1]) == [], cells[1]
    (name, said), = errors(cells[2])
    assert "nap did not finish within 2 seconds" in said, said
    assert took > 5.0


def test_on_a_crowded_core_a_notebook_that_computes_is_not_cut_short_by_its_clock(run):
    """The notebook's seconds on the clock do not count what the machine kept its kernel
    waiting for a core: two cells of a second's computing each, on a core shared with
    five busy processes, run in a notebook of five seconds, and the last cell too."""
    n = loops_for(1.0)
    with crowded(5):
        started = time.monotonic()
        cells = run(notebook(WORK, f"a = work({n})", f"b = work({n})", "print(a == b)"),
                    timeout=10, notebook_timeout=5.0)
        took = time.monotonic() - started
    assert [errors(c) for c in cells] == [[]] * 4, cells
    assert text(cells[3]) == "True\n"
    assert took > 10.0      # well past the notebook's five seconds on the wall


def test_a_cell_that_waits_is_stopped_by_the_backstop_and_told_so(run, monkeypatch):
    from puzzlekit.testcells import budget
    monkeypatch.setattr(budget, "BACKSTOP_FACTOR", 2.0)
    monkeypatch.setattr(budget, "BACKSTOP_EXTRA", 0.0)
    cells = run(notebook(WORK, "nap()", "print(6 * 7)"), timeout=1)
    (name, said), = errors(cells[1])
    assert said.startswith("this cell was stopped after 2 seconds on the clock, though it "
                           "computed for only 0."), said
    assert "waiting for something" in said
    assert text(cells[2]) == "42\n"
