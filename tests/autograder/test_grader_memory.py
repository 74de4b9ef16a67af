"""The grader's memory (issue 33): what a student's kernel sends cannot fill it.

Through the real grading pipeline (`WalledExecute`, real walled kernels, the judge): a
per-notebook budget of the bytes and items the grader takes from the kernel (an endless
generator of big strings; a ``len()`` that says 2**28 under a test's ``tuple(...)``,
refused before anything is built), items built to share one hash refused in linear
work wherever they are in a reply (``set(path)`` in a test), and the grader's own
process under a memory limit of its own while it grades (a test that builds
``[0] * n`` for the student's ``n``). Each checks the grader's peak memory in bytes
(VmHWM, reset first through /proc/self/clear_refs where Linux allows it), never a time.
"""

from __future__ import annotations

import json
import resource

import pytest

pytest.importorskip("nbgrader")

from walled_notebooks import errors, notebook, run  # noqa: E402,F401

from puzzlekit.autograder import wire  # noqa: E402

pytestmark = pytest.mark.nbgrader

MiB = 2 ** 20


def peak() -> int:
    """This process's peak resident memory so far (bytes)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def fresh_peak() -> int:
    """The peak, reset to what the process holds now where Linux allows it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    return peak()


ENDLESS = "def endless():\n    while True:\n        yield 'x' * (4 * 2 ** 20)\n"


def test_an_endless_generator_of_big_strings_stops_at_the_notebooks_bytes(run):
    before = fresh_peak()
    cells = run(notebook(ENDLESS, "got = list(endless())\n", "assert 1 + 1 == 2\n",
                         "assert next(endless()) == 'x' * (4 * 2 ** 20)\n",
                         tests=(1, 2, 3)), max_notebook_bytes=48 * MiB)
    grown = peak() - before
    (name, message), = errors(cells[1])
    assert name == "AssertionError"
    assert "your code gave the grader more than 48 MB in this notebook" in message
    assert errors(cells[2]) == []              # a test that takes nothing still passes
    assert "more than 48 MB in this notebook" in errors(cells[3])[0][1]
    # 48 MB kept by the test's list, and a reply being read: nothing like the gigabytes
    # an endless generator reached before (2,869 MiB in 30 s; 5,696 MiB in 189 s)
    assert grown < 200 * MiB, grown / MiB


BIG_LEN = ("class Big:\n    def __len__(self):\n        return 2 ** 28\n"
           "    def __iter__(self):\n        return iter([1, 2])\n"
           "def make():\n    return Big()\n")


def test_a_length_over_the_notebooks_items_is_refused_before_anything_is_built(run):
    before = fresh_peak()
    cells = run(notebook(BIG_LEN, "assert tuple(make()) == (1, 2)\n",
                         "assert list(iter(make())) == [1, 2]\n", tests=(1, 2)))
    grown = peak() - before
    (name, message), = errors(cells[1])
    assert "len() of your Big says 268,435,456: more items than the grader takes" in message
    assert errors(cells[2]) == []       # its items, stepped one by one: fine
    assert grown < 100 * MiB, grown / MiB       # was 2,049 MiB: tuple() made room at once


def test_the_notebooks_items_are_counted_over_every_value(run):
    cells = run(notebook("def rows(n):\n    return [(1, 2, 3)] * n\n",
                         "assert len(rows(400)) == 400\n",
                         "assert len(rows(400)) == 400\n", tests=(1, 2)),
                max_notebook_items=2500)
    assert errors(cells[1]) == []       # 400 rows of 3: 2,001 items, then 2,001 more
    assert "more than 2,500 items in this notebook" in errors(cells[2])[0][1]


#: 32,768 different tuples of one hash: -1 and -2 hash alike, and so do tuples of them
ALIKE = "tuple(-1 if (i >> b) & 1 else -2 for b in range(15))"


@pytest.mark.parametrize("student", [
    f"def path():\n    return [{ALIKE} for i in range(20000)]\n",
    # spread over many lists of one reply, each under the bound: a test may chain them
    f"def path():\n    return [[{ALIKE} for i in range(k, k + 50)] for k in range(0, 20000, 50)]\n",
    # big ints that hash alike, as a row of ints
    "def path():\n    return tuple(k * (2 ** 61 - 1) for k in range(1, 20001))\n",
    # in a dict's values, which a test may put in a set too
    f"def path():\n    return {{i: {ALIKE} for i in range(20000)}}\n",
])
def test_items_built_to_share_one_hash_are_refused_in_linear_work(run, student):
    before = fresh_peak()
    cells = run(notebook(student, "p = path()\nassert len(set(p)) > 0\n",
                         "assert 1 + 1 == 2\n", tests=(1, 2)))
    (name, message), = errors(cells[1])
    assert "more than 64 of its items have the same hash" in message
    assert errors(cells[2]) == []
    assert peak() - before < 100 * MiB


def test_honest_values_with_a_few_alike_items_pass():
    honest = [(-1, 0), (-2, 0), (0, -1), (0, -2), (1, 2, 3)] * 1000 + \
        [tuple(-1 if (i >> b) & 1 else -2 for b in range(6)) for i in range(64)]
    assert wire.decode(json.loads(wire.dumps(honest))) == honest
    assert wire.decode(json.loads(wire.dumps([honest, honest]))) == [honest, honest]


def test_an_allowance_is_taken_by_each_value_and_refuses_past_it():
    allowance = wire.Allowance(100)
    assert wire.decode(wire.encode([(1, 2)] * 10), allowance=allowance) == [(1, 2)] * 10
    assert allowance.left == 100 - 41      # each container: itself and its items
    with pytest.raises(wire.NotebookSpent, match="more than 100 items"):
        wire.decode(wire.encode([(1, 2)] * 30), allowance=allowance)


def test_a_handle_in_a_reply_is_never_asked_while_it_is_decoded(run):
    cells = run(notebook("class Odd:\n    def __hash__(self):\n        raise SystemExit\n"
                         "    def __eq__(self, other):\n        raise SystemExit\n"
                         "def boxed():\n    return [(Odd(), 1)] * 100 + [(1, Odd())] * 100\n",
                         "b = boxed()\nassert len(b) == 200\n", tests=(1,)))
    assert errors(cells[1]) == []


#: the student's n makes a test build a list of n items in the grader's own process
HUGE = "def size():\n    return 2 ** 29\n"


def test_the_graders_own_memory_has_a_limit_of_its_own(run):
    before = fresh_peak()
    cells = run(notebook(HUGE, "n = size()\nxs = [0] * n\nassert len(xs) == n\n",
                         "import resource\nprint(resource.getrlimit(resource.RLIMIT_DATA))\n",
                         "assert size() == 2 ** 29\n", tests=(1, 3)),
                grader_memory_limit="1G")
    grown = peak() - before
    (name, message), = errors(cells[1])
    assert "the grader ran out of the memory it allows itself (1 GB)" in message
    assert errors(cells[3]) == []       # grading goes on
    assert grown < 100 * MiB, grown / MiB       # [0] * 2**29 is 4 GiB
    # the kernel's memory is the wall's business: the grader's ceiling is not its own
    soft, hard = eval("".join(o.get("text", "") for o in cells[2]))
    assert soft == hard
    assert resource.getrlimit(resource.RLIMIT_DATA)[0] != 2 ** 30      # put back


def test_items_of_one_hash_are_counted_over_the_notebooks_values_too():
    """Each value under the bound of one reply, but many of them: a notebook keeps
    at most 256 different items of one hash over all its values."""
    allowance = wire.Allowance(10_000_000)
    alike = [tuple(-1 if (i >> b) & 1 else -2 for b in range(15)) for i in range(1000)]
    for k in range(4):                  # 4 values of 64 different items: 256
        wire.decode(wire.encode(alike[64 * k:64 * (k + 1)]), allowance=allowance)
    with pytest.raises(wire.TooBig, match="over this notebook's values, more than 256"):
        wire.decode(wire.encode(alike[256:320]), allowance=allowance)
    honest = wire.Allowance(10_000_000)     # the same items again and again: no more
    for _ in range(100):
        wire.decode(wire.encode(alike[:64]), allowance=honest)
    assert honest.alike_items == 64


def test_a_test_that_gathers_many_calls_alike_items_is_stopped(run):
    student = (f"def path(k):\n    return [{ALIKE} for i in range(50 * k, 50 * k + 50)]\n")
    cells = run(notebook(student, "everything = []\nfor k in range(300):\n"
                                  "    everything += path(k)\n"
                                  "assert len(set(everything)) == 15000\n",
                         "assert path(0) == path(0)\n", tests=(1, 2)))
    (name, message), = errors(cells[1])
    assert "over this notebook's values, more than 256 of their items have the same " \
        "hash" in message
    assert errors(cells[2]) == []       # the same items again: nothing new
