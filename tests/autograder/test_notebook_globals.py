"""The bookkeeping of a graded notebook's globals (`NotebookGlobals`), on its own.

Whose each name is (the tests' or the student's), what is fetched and when it is stale,
and what goes back to the kernel after a test cell: with a dict for the judge's
namespace and a recording stand-in for the kernel's answer to "which of these names do
the notebook's functions read?".
"""

from __future__ import annotations

from typing import Any

from puzzlekit.autograder import wire
from puzzlekit.autograder.judge.notebook_globals import NotebookGlobals


class Kernel:
    """Answers which names the notebook's functions read (`reads`), noting each ask."""

    def __init__(self, reads: set[str]) -> None:
        self.reads, self.asked = reads, []

    def __call__(self, names: list[str]) -> list[Any]:
        self.asked.append(sorted(names))
        return [n for n in names if n in self.reads]


def book() -> tuple[NotebookGlobals, dict[str, Any]]:
    ns: dict[str, Any] = {}
    return NotebookGlobals(ns), ns


def test_a_given_cells_names_and_builtins_and_dunders_are_never_fetched():
    names, _ = book()
    names.given_cell({"start", "check"})
    assert not names.may_fetch("start") and not names.may_fetch("len")
    assert not names.may_fetch("__loader__")
    assert names.may_fetch("search")


def test_a_fetched_value_is_stale_once_a_students_cell_ran():
    names, ns = book()
    names.fetched_value("goal", (1, 2))
    assert ns["goal"] == (1, 2) and names.fetched == {"goal"}
    names.kernel_changed()
    assert "goal" not in ns and names.fetched == set()
    assert names.may_fetch("goal")


def test_a_name_a_test_binds_is_its_own_for_good_even_when_the_cell_failed_first():
    names, ns = book()
    names.test_cell({"expected"}, set())
    names.test_cell_ran({"expected"})        # failed before binding it
    assert not names.may_fetch("expected")
    names.kernel_changed()
    assert "expected" in names.trusted


def test_a_fetched_name_a_test_only_read_stays_the_students():
    names, ns = book()
    names.test_cell({"goal"}, {"search"})
    names.fetched_value("goal", (1, 2))
    names.test_cell_ran({"goal"})          # bound only in a branch that did not run
    assert names.may_fetch("goal") and "goal" in names.fetched
    ns["goal"] = (3, 4)                    # rebound: the judge's now
    names.test_cell_ran({"goal"})
    assert not names.may_fetch("goal") and "goal" not in names.fetched


def test_only_what_the_students_functions_read_is_pushed_and_asked_once():
    names, ns = book()
    kernel = Kernel(reads={"goal"})
    names.test_cell({"goal", "path", "_hidden"}, {"search"})
    ns.update(goal=(1, 2), path=[1, 2, 3], _hidden=5, search=len)
    assert names.to_push(kernel) == {"goal": wire.encode((1, 2))}
    assert kernel.asked == [["goal", "path"]]
    names.pushed({"goal": wire.encode((1, 2))}, ["goal"])
    assert names.to_push(kernel) == {}          # the kernel has it as it is
    assert kernel.asked == [["goal", "path"]]   # nothing asked again
    ns["goal"] = (5, 6)
    assert names.to_push(kernel) == {"goal": wire.encode((5, 6))}


def test_a_fetched_list_a_test_changes_in_place_is_pushed():
    names, ns = book()
    kernel = Kernel(reads={"COSTS"})
    names.test_cell(set(), {"COSTS"})
    names.fetched_value("COSTS", {"U": 1})
    assert names.to_push(kernel) == {}
    ns["COSTS"]["U"] = 5
    assert names.to_push(kernel) == {"COSTS": wire.encode({"U": 5})}


def test_nothing_is_pushed_outside_a_test_cell_nor_what_is_not_plain_data():
    names, ns = book()
    kernel = Kernel(reads={"goal", "helper"})
    names.test_cell({"goal", "helper"}, set())
    ns.update(goal=(1, 2), helper=lambda: 1)
    assert set(names.to_push(kernel)) == {"goal"}
    names.cell_over()
    assert names.to_push(kernel) == {}


def test_a_name_the_kernel_did_not_set_is_not_sent_again():
    names, ns = book()
    kernel = Kernel(reads={"goal"})
    names.test_cell({"goal"}, set())
    ns["goal"] = (1, 2)
    values = names.to_push(kernel)
    names.pushed(values, [])                 # the notebook has no such name after all
    assert names.to_push(kernel) == {}
    names.kernel_changed()                   # a student's cell may define it now
    assert names.to_push(kernel) == values
