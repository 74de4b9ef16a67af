"""`run_with_timeout` in the student's own kernel: seconds of computing time, not of the
clock (`puzzlekit.testcells.budget`); the evidence-only words; a runaway's boards freed."""

import gc
import subprocess
import sys
import textwrap
import time
import weakref

import pytest

import puzzlekit as pk
from puzzlekit.testcells import budget, counted, run_with_timeout
from puzzlekit.testcells.messages import _after_cell
from throttle import throttled


def spin():
    while True:
        pass


def test_a_runaway_is_stopped_after_its_computing_time_with_no_cause_guessed():
    started = time.process_time()       # what it computed, not the busy machine's clock
    with pytest.raises(AssertionError) as e:
        run_with_timeout(0.3, spin)
    assert time.process_time() - started < 3
    said = str(e.value)
    assert said == "spin did not finish within 0.3 seconds of computing time and was stopped."
    assert e.value.args[0].name == "too-slow"          # a Diagnosis, named for the report


def test_a_search_that_expands_boards_again_is_told_so_from_what_it_recorded():
    successors = counted(pk.nextStates)

    def bfs_without_visited_set(S):
        frontier = [S]
        while frontier:
            frontier.extend(successors(frontier.pop(0)))

    with pytest.raises(AssertionError) as e:
        run_with_timeout(0.3, bfs_without_visited_set, pk.goal_state(3))
    said = str(e.value)
    assert said.startswith("bfs_without_visited_set did not finish within 0.3 seconds")
    assert "It asked for the next states of one board" in said and "visited set?" in said


def test_a_search_that_keeps_a_visited_set_is_not_told_to_keep_one():
    successors = counted(pk.nextStates)

    def slow_but_no_repeats(S):
        seen, frontier = {S}, [S]
        while frontier:
            for T in successors(frontier.pop(0)):
                if T not in seen:
                    seen.add(T)
                    frontier.append(T)
            sum(range(20_000))          # slow, on purpose
        spin()

    with pytest.raises(AssertionError) as e:
        run_with_timeout(0.3, slow_but_no_repeats, pk.goal_state(3))
    assert "visited set" not in str(e.value)


def test_code_that_waits_is_stopped_by_the_backstop(monkeypatch):
    monkeypatch.setattr(budget, "BACKSTOP_EXTRA", 0.0)
    monkeypatch.setattr(budget, "BACKSTOP_FACTOR", 3.0)
    with pytest.raises(AssertionError) as e:
        run_with_timeout(0.2, time.sleep, 30)
    said = str(e.value)
    assert said.startswith("sleep was stopped after 0.6 seconds on the clock, though it "
                           "computed for only 0.0 s")


def test_the_limits_hold_in_a_thread_too():
    out = {}

    def in_thread():
        try:
            run_with_timeout(0.3, spin)
        except AssertionError as e:
            out["said"] = str(e)
        out["answer"] = run_with_timeout(1, sum, range(10))

    import threading
    worker = threading.Thread(target=in_thread)
    worker.start()
    worker.join(20)
    assert "computing time" in out["said"] and out["answer"] == 45


def kernel_at_a_share(share: float, cpu: float, budget: float, setup: str = "") -> float:
    """A subprocess stands for the student's kernel, run `share` of the time: its
    run_with_timeout(`budget`) of work that needs about `cpu` seconds of computing passes;
    the seconds it took on the clock. `setup`: code run first (e.g. a shorter backstop)."""
    code = textwrap.dedent(f"""
        import time
        from puzzlekit.testcells import budget, run_with_timeout
        {setup}
        def work(n):
            t = 0
            for i in range(n):
                t += i
            return t
        started = time.process_time(); work(300_000); per = time.process_time() - started
        n = int(300_000 * {cpu} / max(per, 1e-4))
        wall = time.monotonic()
        assert run_with_timeout({budget}, work, n) == n * (n - 1) // 2
        print("ok", round(time.monotonic() - wall, 1))
    """)
    with throttled(share=share):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120)
    assert done.stdout.startswith("ok"), done.stderr
    return float(done.stdout.split()[1])


def test_a_right_answer_in_a_kernel_with_a_fifth_of_a_core_finishes():
    """A subprocess stands for the student's kernel; it runs 20% of the time."""
    assert kernel_at_a_share(0.2, 0.4, 1.0) > 1.0   # it took longer than 1 s on the clock


def test_a_right_answer_past_the_backstop_in_a_kernel_with_a_tenth_of_a_core_finishes():
    """The clock's backstop (here as long as the budget, 1.5 s) stops only code seen
    waiting: this one still computes when it comes, so its computing time decides, and it
    finishes."""
    took = kernel_at_a_share(0.1, 0.5, 1.5,
                             "budget.BACKSTOP_FACTOR, budget.BACKSTOP_EXTRA = 1.0, 0.0")
    assert took > 2.0      # well past the backstop on the clock


class _Result:
    def __init__(self, error):
        self.error_in_exec, self.error_before_exec = error, None
        self.info = type("Info", (), {"raw_cell": "bfs(start)"})()


def test_an_interrupted_runaway_leaves_no_boards_behind():
    """IPython keeps the last error; its frames would keep a runaway search's boards."""
    class Boards(list):
        pass

    def runaway():
        frontier = Boards([pk.goal_state(3)])
        ref.append(weakref.ref(frontier))
        raise KeyboardInterrupt

    ref: list = []
    try:
        runaway()
    except KeyboardInterrupt as e:
        error = e
    assert ref[0]() is not None
    _after_cell(_Result(error))
    gc.collect()
    assert ref[0]() is None


def test_a_runaway_that_makes_garbage_with_finalisers_is_stopped_all_the_same():
    """A signal's exception raised inside a finaliser (__del__) is lost: the limit
    signals again every 50 ms of computing time until the call has ended."""
    code = textwrap.dedent("""
        from puzzlekit.testcells import run_with_timeout
        class Node:
            def __del__(self):
                sum(range(200))
        def churn():
            while True:
                a, b = Node(), Node()
                a.other, b.other = b, a      # a cycle: the collector runs the finalisers
        try:
            run_with_timeout(0.3, churn)
        except AssertionError as e:
            print(e)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert "churn did not finish within 0.3 seconds of computing time" in done.stdout, \
        done.stderr[-2000:]


def test_by_profile_stops_a_runaway_call_where_no_timer_or_thread_can():
    """The browser's Python (Pyodide) has neither setitimer nor threads: the profile hook
    stops a search that keeps calling functions, and lets a quick one return."""
    import sys
    import time

    from puzzlekit.testcells.budget import by_profile

    def runaway() -> None:
        seen = set()
        while True:
            seen.add(len(seen) % 1000)

    before = sys.getprofile()
    stopped, cpu, value = by_profile(0.2, time.process_time(), runaway)
    assert stopped == "cpu" and value is None and cpu >= 0.2
    assert by_profile(5, time.process_time(), sorted, [3, 1, 2])[::2] == (None, [1, 2, 3])
    assert sys.getprofile() is before


def test_in_the_browser_the_message_says_it_counted_the_pages_clock(monkeypatch):
    """In Pyodide `within` counts the page's clock, `BROWSER_SLACK` times as long, with a
    profile hook: the words say so and give those seconds, not "computing time"."""
    def churn() -> None:
        seen: set[int] = set()
        while True:
            seen.add(len(seen) % 1000)

    monkeypatch.setattr(sys, "platform", "emscripten")
    started = time.process_time()
    with pytest.raises(AssertionError) as e:
        run_with_timeout(0.05, churn)
    used = time.process_time() - started
    monkeypatch.undo()
    said = str(e.value)
    slack = budget.BROWSER_SLACK
    assert said.startswith(f"churn did not finish within {0.05 * slack:g} seconds on the "
                           f"page's clock and was stopped"), said
    assert "0.05 seconds of computing time in JupyterLab" in said, said
    assert used >= 0.05 * slack                   # the limit it names is the one it kept
    assert e.value.args[0].name == "too-slow"
    # outside the browser the words are as before
    assert str(budget.too_slow("churn", 0.05)) == \
        "churn did not finish within 0.05 seconds of computing time and was stopped."


# ---------------------------------------------------------------------------
# Past the backstop: waiting or computing on a busy machine (`budget.Pace`)

class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def paced(share: float, seconds: float, step: float = 0.1) -> tuple[bool, float]:
    """Feed a `Pace` a process that computes `share` of each `step` for `seconds`; whether
    it was judged waiting, and when."""
    clock = FakeClock()
    pace = budget.Pace(clock)
    cpu = 0.0
    while clock.now < seconds:
        clock.now += step
        cpu += share * step
        if pace.waiting(cpu):
            return True, clock.now
    return False, clock.now


def test_a_process_that_computes_even_a_little_is_not_waiting():
    assert paced(0.05, 30.0) == (False, pytest.approx(30.0))
    assert paced(1.0, 30.0)[0] is False


def test_a_process_that_computes_nothing_is_waiting_after_the_window():
    waiting, when = paced(0.0, 30.0)
    assert waiting and budget.SHARE_WINDOW - 0.01 <= when <= budget.SHARE_WINDOW + 0.5


def test_a_process_that_stops_computing_is_waiting_a_window_later():
    clock = FakeClock()
    pace = budget.Pace(clock)
    cpu = 0.0
    for _ in range(50):                # 5 s computing at a fifth of a core
        clock.now += 0.1
        cpu += 0.02
        assert not pace.waiting(cpu)
    stopped = clock.now
    while not pace.waiting(cpu):      # then it sleeps
        clock.now += 0.1
    assert budget.SHARE_WINDOW - 0.01 <= clock.now - stopped <= budget.SHARE_WINDOW + 0.5


def test_no_evidence_before_a_window_has_passed_and_a_new_call_starts_afresh():
    clock = FakeClock()
    pace = budget.Pace(clock)
    pace.note(0.0)
    clock.now = 1.0
    assert not pace.waiting(0.0)       # only one second seen: no evidence yet
    clock.now = 5.0
    assert pace.waiting(0.0)
    pace.restart()
    assert not pace.waiting(0.0)       # the new call's own samples only
    assert len(pace.samples) == 1
