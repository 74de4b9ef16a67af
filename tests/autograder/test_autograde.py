"""WalledExecute on small notebooks: a hostile cell costs only itself.

A kernel that dies or ignores interrupts is replaced by a fresh one, the cells before
are replayed, and the rest of the notebook runs; graded test cells are run by the judge.
The whole course, the wall and the attack corpus are tested in tests/simulated_class.
"""

import re

import pytest

pytest.importorskip("nbgrader")

from walled_notebooks import errors, notebook, run  # noqa: E402,F401

from puzzlekit.autograder.judge.autograde import (  # noqa: E402
    KERNEL_DIED,
    KERNEL_HUNG,
    RESTARTED_AND_REPLAYED,
    WalledExecute,
    with_walled_execute,
)

pytestmark = pytest.mark.nbgrader


def test_a_dead_kernel_costs_only_its_cell(run):
    first, killer, after = run(notebook("x = 6 * 7\nprint(x)", "import os\nos._exit(1)",
                                        "print(x)"))
    assert first[0].text == "42\n"
    assert killer[-1].ename == "KernelDied"
    assert killer[-1].evalue == KERNEL_DIED.format(
        what="this cell", how=": it ended with exit status 1, as a call of os._exit(1) would",
        restarted=RESTARTED_AND_REPLAYED)
    assert after[0].text == "42\n"       # replayed, then run in the fresh kernel


def test_a_kernel_killed_by_a_signal_is_told_the_signal_and_no_guess(run):
    killed, crashed = run(notebook(
        "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)",
        "import faulthandler\nfaulthandler._sigsegv()"))   # ctypes: refused while graded
    assert killed[-1].evalue.startswith("the Python kernel stopped while running this cell: "
                                        "it was stopped by signal 9 (SIGKILL).\n")
    assert crashed[-1].evalue.startswith("the Python kernel stopped while running this "
                                         "cell: it crashed inside Python (signal 11, SIGSEGV)")
    for said in (killed[-1].evalue, crashed[-1].evalue):
        assert "memory" not in said and "os._exit" not in said


def test_a_cell_that_ignores_interrupts_costs_only_its_cell(run):
    outputs = run(notebook("x = 1", "import signal\nsignal.signal(signal.SIGINT, "
                                    "signal.SIG_IGN)\nwhile True:\n    pass",
                           "print(x + 1)"), timeout=3)
    assert ("KernelStopped", KERNEL_HUNG) in errors(outputs[1])
    assert outputs[2][0].text == "2\n"


def test_test_cells_run_in_the_grader_and_ignore_kernel_hooks(run):
    nb = notebook("def f():\n    return 1",
                  # the student's cell swallows every later exception and blanks every cell
                  "get_ipython().set_custom_exc((BaseException,), lambda *a, **k: None)\n"
                  "get_ipython().input_transformers_post.append(lambda lines: ['pass\\n'])",
                  "assert f() == 2, 'f() should be 2'",
                  tests=[2])
    outputs = run(nb)
    assert errors(outputs[2])[-1][0] == "AssertionError"


def test_the_judge_can_be_switched_off(run):
    nb = notebook("def f():\n    return 1", "assert f() == 1", tests=[1])
    assert not errors(run(nb, judge_tests=False)[1])
    assert not errors(run(nb)[1])


def test_the_preprocessor_list_gets_the_walled_executor():
    from nbgrader.preprocessors import Execute

    from puzzlekit.autograder.judge.sanitize import (
        SanitizeOutputs,  # outputs made inert right after it
    )
    assert with_walled_execute([int, Execute, str]) == [int, WalledExecute, SanitizeOutputs,
                                                         str]


def test_a_limit_is_reported_in_plain_words(run):
    from puzzlekit.autograder.wall import status
    if not status().landlock_abi:
        pytest.skip("no Landlock on this machine: no wall, no limits")
    outputs = run(notebook(
        "big = b'x' * (2 * 1024 ** 3)",
        "import threading, time\n"
        "ts = [threading.Thread(target=time.sleep, args=(5,)) for _ in range(200)]\n"
        "for t in ts:\n    t.start()",
        # the threads above end first: while they live, their stacks leave the kernel a
        # few MB of its 1G address space, and writing 2 MB was reported as a MemoryError
        "for t in ts:\n    t.is_alive() and t.join()\n"
        "with open('big.bin', 'wb') as f:\n    f.write(b'x' * (2 * 1024 ** 2))",
        "import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=2)",
        "open('/etc/shadow').read()",
        "print('still here')"),
        memory_limit="1G", process_limit=16, file_size_limit="1M")
    said = [" ".join(" ".join(e[1] for e in errors(cell)).split()) for cell in outputs]
    assert "more memory than a graded notebook may (1G)" in said[0]
    assert "more threads or processes than a graded notebook may (16)" in said[1]
    assert "a file bigger than a graded notebook may (1M)" in said[2]
    assert "its own folder" in said[3] or "no network" in said[3]
    assert said[4]          # hidden by the wall: not found, or not allowed
    assert outputs[5][0].text == "still here\n"


def test_without_a_wall_grading_works_and_says_so_once(run, caplog):
    import puzzlekit.autograder.judge.autograde as autograde
    autograde._warned.clear()
    nb = notebook("def f():\n    return 1", "assert f() == 1", tests=[1])
    with caplog.at_level("WARNING"):
        assert not errors(run(nb, wall=False)[1])
        run(nb, wall=False)
    said = [r.getMessage() for r in caplog.records if "no wall" in r.getMessage()]
    assert len(said) == 1 and "grader's rights" in said[0]


def test_a_students_traceback_shows_the_students_code_not_the_graders(run):
    # the feedback showed "File .../puzzlekit/autograder/kernel/agent.py:147, in _call" before the
    # student's own frames: the grader's path, of no use to a student
    cells = run(notebook("def f(x):\n    return helper(x)\n\ndef helper(x):\n    return 1 / x",
                         "assert f(0) == 1", tests=[1]))
    (error,) = [o for o in cells[1] if o.output_type == "error"]
    shown = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))
    assert error.ename == "ZeroDivisionError"
    assert "return helper(x)" in shown and "return 1 / x" in shown, shown
    assert "agent.py" not in shown and "puzzlekit/" not in shown, shown


def test_an_error_in_an_operation_on_the_students_object_shows_no_grader_frame(run):
    # hash() of an unhashable object of the student's: raised in the agent's own code
    cells = run(notebook("class Puzzle:\n    def __eq__(self, other):\n        return True",
                         "assert len({Puzzle(), Puzzle()}) == 1", tests=[1]))
    (error,) = [o for o in cells[1] if o.output_type == "error"]
    shown = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))
    assert error.ename == "TypeError" and "unhashable" in shown, shown
    assert "agent.py" not in shown and "puzzlekit/" not in shown, shown


def test_a_fresh_kernel_that_dies_before_it_answers_is_started_again(run, monkeypatch):
    from puzzlekit.autograder.judge import autograde
    starts = []
    real = autograde.WalledExecute.start_new_kernel_client

    def flaky(self):
        starts.append(1)
        if len(starts) == 2:        # the first restart's kernel dies before it answers
            raise RuntimeError("Kernel died before replying to kernel_info")
        return real(self)

    monkeypatch.setattr(autograde.WalledExecute, "start_new_kernel_client", flaky)
    first, killer, after = run(notebook("x = 6 * 7", "import os\nos._exit(1)", "print(x)"))
    assert killer[-1].ename == "KernelDied"
    assert after[0].text == "42\n" and len(starts) == 3     # replayed in the third kernel



def test_a_notebook_graded_in_the_temporary_folder_is_not_copied_into_itself(
        run, monkeypatch):
    """The kernel's copy of the notebook's folder leaves out the grader's scratch folder
    when that folder holds it (before: a copy of the copy, down until Python gave up)."""
    import shutil
    import tempfile
    from pathlib import Path
    folder = Path(tempfile.mkdtemp(prefix="pk", dir="/tmp"))    # a socket's path is short
    try:
        monkeypatch.setattr(tempfile, "tempdir", str(folder))
        (folder / "board.txt").write_text("1 2 3\n")
        nb, _ = WalledExecute(timeout=20).preprocess(
            notebook("import os\nprint(sorted(os.listdir('.')))"),
            {"metadata": {"path": str(folder)}})
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert nb.cells[0].outputs[0].text == "['board.txt']\n", nb.cells[0].outputs
