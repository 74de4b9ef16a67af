"""What one notebook may cost the grader (WalledExecute on small notebooks, real kernels).

Its time in all (relative to the model solution's, `model_cost`: computing time, and on
the clock, at most `notebook_timeout`: cells, sleeps, replays after a kernel died, the
judge's checks), its output (`max_cell_output`, `max_notebook_output`, every kind counted
as it arrives), the size of one reply from the kernel (`max_reply_bytes`). The attack
corpus in tests/simulated_class sends the same attacks through the whole nbgrader pipeline.
"""

import pytest

pytest.importorskip("nbgrader")

from walled_notebooks import errors, notebook, run, text  # noqa: E402,F401

from puzzlekit.testcells.catalogue import (  # noqa: E402
    CPU_BUDGET,
    NOT_RUN_CPU,
    NOT_RUN_TIME,
    OUT_OF_CPU,
    OUT_OF_TIME,
)

pytestmark = pytest.mark.nbgrader


def test_sleeping_cells_stop_at_the_notebook_time_and_the_rest_is_not_run(run):
    cells = run(notebook("x = 1", *["import time\ntime.sleep(1.5)"] * 8, "print(x)",
                         "assert x == 1", tests=(10,)), notebook_timeout=4)
    names = [[e[0] for e in errors(c)] for c in cells]
    assert names[0] == [] and names[1] == []
    stopped = next(i for i, n in enumerate(names) if "NotebookTimeout" in n)
    assert 2 <= stopped <= 5
    assert ("NotebookTimeout", OUT_OF_TIME.format(seconds=4)) in errors(cells[stopped])
    for later in cells[stopped + 1:]:
        assert errors(later)[0] == ("NotebookTimeout", NOT_RUN_TIME.format(seconds=4))


def test_replays_after_kernel_deaths_count_towards_the_notebook_time(run):
    slow = "import time\ntime.sleep(1)\ny = 2"
    cells = run(notebook(slow, slow, *["import os\nos._exit(1)"] * 6, "print(y)"),
                notebook_timeout=6, max_restarts=10)
    assert errors(cells[-1])[0][0] in ("NotebookTimeout", "KernelDied")
    assert any(e[0] == "NotebookTimeout" for c in cells for e in errors(c))


def test_outputs_are_cut_as_they_arrive_every_kind(run):
    cells = run(notebook(
        "print('x' * 3000)",
        "from IPython.display import HTML, display\ndisplay(HTML('<b>' + 'y' * 5000))",
        "from IPython.display import display\nh = display('a', display_id=True)\n"
        "for i in range(50):\n    h.update('z' * 1000)",
        "'w' * 5000",
        "raise ValueError('v' * 5000)",
        "print('small')",
    ), max_cell_output=4000, max_notebook_output=20_000)
    assert text(cells[0]).startswith("x" * 3000)
    for outputs in cells[1:5]:
        assert "[output cut: this cell displayed more than 3.91 KB" in text(outputs), outputs
        assert len(str(outputs)) < 4000
    assert "small" in text(cells[5])


def test_the_notebook_output_is_capped_in_all(run):
    cells = run(notebook(*["print('x' * 3000)"] * 10), max_cell_output=10_000,
                max_notebook_output=10_000)
    assert [text(c).startswith("x") for c in cells[:3]] == [True] * 3
    assert all("the most one notebook may show" in text(c) for c in cells[3:])


def test_a_reply_too_big_fails_its_test_with_a_clear_message(run):
    cells = run(notebook("def big():\n    return 'x' * 3_000_000", "big()\nassert True",
                         "assert big() is not None", tests=(2,)),
                max_reply_bytes=1_000_000)
    (name, value), = errors(cells[2])
    assert "too large or odd for the grader" in value and "2.86 MB" in value


HOG = '''
def hog():
    """A "breadth-first" search of the 15-puzzle that takes the newest board (a stack):
    it keeps every board it made, all still referenced when the memory runs out."""
    board = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15]
    parent, fringe = {tuple(board): None}, [board]
    while fringe:
        current = fringe.pop()
        z = current.index(0)
        for step in (-4, 4, -1, 1):
            t = z + step
            if 0 <= t < 16 and (step in (-4, 4) or t // 4 == z // 4):
                new = list(current)
                new[z], new[t] = new[t], 0
                if tuple(new) not in parent:
                    parent[tuple(new)] = tuple(current)
                    fringe.append(new)
'''


def test_a_call_that_fills_the_memory_is_named_and_the_next_test_gets_a_fresh_kernel(run):
    # The report of the MemoryError is written while the failed call's frames still hold
    # the memory: the agent frees them first. Before it did, writing the report ran out
    # of memory too and the kernel stopped (2 runs in 2): the test lost its diagnosis.
    test = "from puzzlekit.testcells import run_with_timeout\nrun_with_timeout(60, hog)"
    honest = ("from puzzlekit.testcells import run_with_timeout\n"
              "assert run_with_timeout(60, lambda: len([[i] * 9 for i in range(1_500_000)]))"
              " == 1_500_000")
    cells = run(notebook(HOG, test, test, test, honest, tests=(1, 2, 3, 4)),
                memory_limit="700M", timeout=120)
    for outputs in cells[1:4]:
        (name, value), = errors(outputs)
        assert name == "MemoryError", (name, value)
        assert "more memory than a graded notebook may (700M)" in value
    assert errors(cells[4]) == []


# --- the notebook's budget, relative to the model solution's cost -----------------------

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}:\n    pass\n"


def _course(tmp_path, model_cells=None, cost=None):
    """A course root with source/a/n.ipynb (the model solution) or a kept cost."""
    import json

    import nbformat
    from walled_notebooks import notebook as make
    root = tmp_path / "course"
    (root / "source" / "a").mkdir(parents=True)
    (root / "submitted" / "s" / "a").mkdir(parents=True)
    if model_cells is not None:
        nbformat.write(make(*model_cells), root / "source" / "a" / "n.ipynb")
    if cost is not None:
        (root / ".puzzlekit").mkdir()
        (root / ".puzzlekit" / "model-costs.json").write_text(json.dumps({"a/n": cost}))
    return root


@pytest.fixture
def graded(monkeypatch):
    """graded(nb, course root, **options): each cell's outputs, graded as nbgrader
    autograde grades a student's notebook n of assignment a."""
    import os
    import sys
    from pathlib import Path

    from puzzlekit.autograder.judge.autograde import WalledExecute
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep
                       + os.environ["PATH"])

    def graded(nb, root, **options):
        options.setdefault("timeout", 20)
        resources = {"metadata": {"path": str(root / "submitted" / "s" / "a")},
                     "nbgrader": {"assignment": "a", "notebook": "n", "student": "s",
                                  "db_url": f"sqlite:///{root}/gradebook.db"}}
        nb, _ = WalledExecute(**options).preprocess(nb, resources)
        return [c.outputs for c in nb.cells]
    return graded


def test_the_model_solutions_cost_is_measured_once_and_kept(graded, tmp_path):
    import json
    root = _course(tmp_path, model_cells=("x = 1", BURN.format(s=0.5), "assert x == 1"))
    cells = graded(notebook("x = 1", "assert x == 1", tests=(1,)), root)
    assert [errors(c) for c in cells] == [[], []]
    kept = json.loads((root / ".puzzlekit" / "model-costs.json").read_text())["a/n"]
    assert 0.4 <= kept["cpu"] < 5 and kept["wall"] >= kept["cpu"] * 0.5
    graded(notebook("x = 1"), root)     # the next submission: measured no more
    again = json.loads((root / ".puzzlekit" / "model-costs.json").read_text())["a/n"]
    assert again == kept


def test_a_model_cut_short_by_the_notebook_timeout_is_not_kept(graded, tmp_path):
    root = _course(tmp_path, model_cells=("import time\ntime.sleep(1.5)",) * 3)
    graded(notebook("x = 1"), root, notebook_timeout=3)
    assert not (root / ".puzzlekit" / "model-costs.json").exists()


def test_cells_past_the_models_computing_time_are_not_run(graded, tmp_path):
    root = _course(tmp_path, cost={"cpu": 0.5, "wall": 30})
    burn = BURN.format(s=0.4)
    cells = graded(notebook("x = 1", *[burn] * 6, "assert x == 1", tests=(7,)), root,
                   notebook_cpu_factor=2.0, notebook_cpu_floor=0.5)     # 1 s of CPU
    names = [[e[0] for e in errors(c)] for c in cells]
    stopped = next(i for i, n in enumerate(names) if "NotebookTimeout" in n)
    assert 2 <= stopped <= 4, names
    said = [e[1] for c in cells[stopped:] for e in errors(c) if e[0] == "NotebookTimeout"]
    words = CPU_BUDGET.format(seconds=1, factor=2, model=0.5, floor=0.5)
    assert said[0] == OUT_OF_CPU.format(budget=words), said
    assert all(s == NOT_RUN_CPU.format(budget=words) for s in said[1:]), said
    assert names[-1] == ["NotebookTimeout"]


def test_honest_slow_cells_within_the_factor_keep_their_marks(graded, tmp_path):
    root = _course(tmp_path, cost={"cpu": 0.5, "wall": 30})
    burn = BURN.format(s=0.3)           # 0.6 s of the notebook's 1 s
    cells = graded(notebook("x = 1", burn, burn, "assert x == 1", tests=(3,)), root,
                   notebook_cpu_factor=2.0, notebook_cpu_floor=0.5)
    assert [errors(c) for c in cells] == [[], [], [], []]


def test_sleeping_cells_stop_at_the_models_time_on_the_clock(graded, tmp_path):
    """Cells that wait compute nothing: the clock's backstop, relative too, stops them
    (before: 300 s for any notebook, whatever its model took)."""
    root = _course(tmp_path, cost={"cpu": 0.1, "wall": 2})
    cells = graded(notebook("x = 1", *["import time\ntime.sleep(1.5)"] * 8, "assert x == 1",
                            tests=(9,)), root, notebook_wall_factor=2.0,
                   notebook_wall_floor=4.0)         # 4 s on the clock
    names = [[e[0] for e in errors(c)] for c in cells]
    assert names[0] == []
    stopped = next(i for i, n in enumerate(names) if "NotebookTimeout" in n)
    assert 1 <= stopped <= 5, names
    assert "the time the grader gives one notebook (4 s)" in errors(cells[-1])[0][1]
