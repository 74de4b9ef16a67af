"""The grading helpers fail with messages a student can act on, and only when they should."""

import functools

import pytest

import puzzlekit as pk
from puzzlekit.testcells import (
    as_board,
    assert_board_equal,
    assert_equal,
    assert_solution,
    boards_in_a_row,
    forbid_reference,
    forbidding,
    run_with_timeout,
    side_by_side,
)

start = ((8, 0, 6), (5, 4, 7), (2, 3, 1))
goal = ((0, 1, 2), (3, 4, 5), (6, 7, 8))


def test_boards_are_read_in_every_seed_format():
    S = ((1, 2, 3), (8, 0, 4), (7, 6, 5))
    for fmt in (S, [list(r) for r in S], [1, 2, 3, 8, 0, 4, 7, 6, 5], "1238_4765",
                [1, 2, 3, 8, " ", 4, 7, 6, 5]):
        assert as_board(fmt) == S
    assert as_board(None) is None and as_board("hello") is None


def test_assert_board_equal_shows_both_boards():
    assert_board_equal(pk.moveUp(start, 0, 1), "846507231")
    with pytest.raises(AssertionError) as e:
        assert_board_equal(start, pk.moveUp(start, 0, 1), what="moveUp(start, 0, 1)")
    text = str(e.value)
    assert "moveUp(start, 0, 1)" in text and "expected" in text and "got" in text
    assert side_by_side(start, start).count("8 0 6".replace("0", " ")) == 2
    with pytest.raises(AssertionError, match="not a board"):
        assert_board_equal([1, 2], start)
    with pytest.raises(AssertionError, match="it is None, nothing.$"):
        assert_board_equal(None, start)     # nothing seen of the code: no cause named


def test_assert_equal_names_both_values():
    assert_equal(3, 3, "same")
    with pytest.raises(AssertionError, match=r"(?s)findZero.*\(0, 1\).*\(1, 0\)"):
        assert_equal((1, 0), (0, 1), "findZero(start)")


def test_assert_equal_on_sets_of_boards_names_the_missing_and_the_unexpected_boards():
    want = pk.nextStates(start)
    wrong = pk.apply_moves(start, "DD")            # two moves away, not one
    got = set(list(want)[1:]) | {wrong}
    with pytest.raises(AssertionError) as e:
        assert_equal(got, want, "nextStates(start)")
    text = str(e.value)
    missing, unexpected = text.split("not expected")
    assert "missing (1 of the 3 expected states)" in missing
    assert boards_in_a_row([min(want - got)]) in missing
    assert boards_in_a_row([wrong]) in unexpected


def test_assert_equal_wraps_long_values():
    with pytest.raises(AssertionError) as e:
        assert_equal(list(range(1000)), [], "a long list")
    lines = str(e.value).splitlines()
    assert len(lines) > 3 and max(len(line) for line in lines) <= 90
    assert "999" not in str(e.value)               # cut, not the whole value


def test_assert_solution_accepts_any_optimal_path_and_names_the_problem():
    path = list(pk.search(pk.nextStates, start, goal))
    assert_solution(start, goal, path, optimal_length=len(path) - 1)
    assert_solution(start, goal, pk.path_to_moves(path), optimal_length=len(path) - 1)
    with pytest.raises(AssertionError, match="longer"):
        assert_solution(start, goal, path, optimal_length=len(path) - 2)
    with pytest.raises(AssertionError, match="illegal"):
        assert_solution(start, goal, "U")
    with pytest.raises(AssertionError, match="None"):
        assert_solution(start, goal, None)


# Cheats as a student would write them in a notebook: at top level, so they use globals.
from puzzlekit import nextStates  # noqa: E402


def direct(S):
    return nextStates(S)


def swallowing(S):
    try:
        return pk.nextStates(S)
    except Exception:
        return set()


def via_module(S):
    return pk.lecture.nextStates(S)


def own(S):
    return {pk.apply_moves(S, m) for m in "UDLR" if pk.check_solution(S, None, m).legal}


@pytest.mark.parametrize("cheat", [direct, swallowing, via_module])
def test_forbid_reference_catches_every_way_of_calling_the_reference(cheat):
    with pytest.raises(AssertionError, match="yourself"):
        with forbid_reference("nextStates"):
            cheat(start)


def engine_best_first(S):
    """A* from the engine's own module, not the front: forbidding "search" alone must
    catch it (it returned the optimal path with no violation recorded)."""
    from puzzlekit.engine.informed import best_first
    from puzzlekit.engine.problem import Budget, GenericProblem
    h = functools.partial(pk.manhattan, goal=goal)
    return best_first(GenericProblem(S, goal, pk.nextStates, h), Budget("astar", 10**6, None))


@pytest.mark.parametrize("name", sorted(pk.ENGINE_NAMES))
def test_forbidding_a_search_reference_forbids_the_whole_engine(name):
    assert engine_best_first(start)[-1] == goal
    with forbidding(name) as calls:
        with pytest.raises(AssertionError, match="yourself"):
            engine_best_first(start)
    assert calls
    assert engine_best_first(start)[-1] == goal


def test_the_engine_is_its_folder_for_the_grader_and_the_integrity_report_alike():
    """The layout is the rule: every module under puzzlekit/engine/ (found by Python's own
    walk, not the registry's) is the engine, for `forbidding` and the integrity report."""
    import importlib
    import pkgutil
    import types

    import puzzlekit.engine
    from puzzlekit import registry
    from puzzlekit.course.integrity import forbidden
    walked = {"engine"} | {m.name.removeprefix("puzzlekit.") for m in pkgutil.walk_packages(
        puzzlekit.engine.__path__, "puzzlekit.engine.")}
    assert set(registry.engine_modules()) == walked
    functions = [f for m in sorted(walked)
                 for f in vars(importlib.import_module(f"puzzlekit.{m}")).values()
                 if isinstance(f, types.FunctionType) and f.__module__ == f"puzzlekit.{m}"]
    assert len(functions) > 40
    for name in pk.ENGINE_NAMES:
        codes = {f: f.__code__ for f in functions}
        with forbidding(name):
            switched = [f for f in functions if f.__code__ is not codes[f]]
        assert switched == functions, f"{name}: not forbidden: {set(functions) - set(switched)}"
        for module in walked:
            assert forbidden._covers({name}, (module, "_helper")) == name
            assert forbidden._covers({name}, (module, "some_function")) == name
        assert forbidden._covers({name}, ("puzzle.lecture", "_helper")) is None


def test_forbid_reference_lets_own_code_run_and_restores_the_reference():
    expected = pk.nextStates(start)
    with forbid_reference("nextStates", "findZero"):
        got = own(start)
    assert got == expected
    assert pk.nextStates(start) == nextStates(start) == direct(start) == expected
    assert pk.findZero(start) == (0, 1)


def test_forbid_reference_refuses_unknown_names():
    with pytest.raises(pk.PuzzleError):
        with forbid_reference("no_such_function"):
            pass


def test_run_with_timeout_stops_endless_code_and_passes_results_through():
    assert run_with_timeout(5, sum, [1, 2, 3]) == 6
    with pytest.raises(AssertionError, match="did not finish"):
        run_with_timeout(0.2, lambda: [0 for _ in iter(int, 1)])
    with pytest.raises(ZeroDivisionError):
        run_with_timeout(5, lambda: 1 / 0)


def test_assert_prints_path_reads_numbers_and_letters_in_any_layout():
    def printer(board, moves, blank="0", letters=None):
        for i, S in enumerate(pk.moves_to_path(pk.from_flat(board), moves)):
            if i:
                print("  ", (letters or moves)[i - 1])
            print("\n".join(" ".join(str(x) if x else blank for x in row) for row in S))

    from puzzlekit.testcells import assert_prints_path
    assert_prints_path(printer, [1, 0, 3, 4, 2, 5, 7, 8, 6], "DRD")
    assert_prints_path(lambda b, m: printer(b, m, blank=" "), [1, 0, 3, 4, 2, 5, 7, 8, 6], "DRD")
    with pytest.raises(AssertionError, match="letters"):
        assert_prints_path(lambda b, m: printer(b, m, letters="UUU"), [1, 0, 3, 4, 2, 5, 7, 8, 6],
                           "DRD")
    with pytest.raises(AssertionError, match="should print 4 boards"):
        assert_prints_path(lambda b, m: printer(b, m[:2]), [1, 0, 3, 4, 2, 5, 7, 8, 6], "DRD")


def test_forbid_reference_leaves_no_stand_in_behind_in_modules_imported_meanwhile():
    import subprocess
    import sys
    code = (
        "import puzzlekit as pk\n"
        "from puzzlekit.testcells import forbid_reference\n"
        "with forbid_reference('is_solvable', 'explain_solvability', 'solve'):\n"
        "    pass\n"
        "import puzzlekit.engine.solver, puzzlekit.puzzle.solvability\n"
        "assert pk.solve(((1, 2), (0, 3))).length == 1\n"
        "assert pk.is_solvable(((1, 2), (0, 3)))\n"
        "with forbid_reference('explain_solvability'):\n"
        "    import puzzlekit.visuals.widgets\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


def test_a_failure_shows_at_most_a_dozen_boards_of_a_kind():
    boards = {pk.random_state(3, seed=i) for i in range(200)}
    want = pk.nextStates(start)
    with pytest.raises(AssertionError) as e:
        assert_equal(boards, want, "nextStates(start)")
    text = str(e.value)
    assert f"not expected ({len(boards - want)} of the {len(boards)} states returned): " \
           "the first 12" in text
    shown = text.split("not expected")[1]
    assert len(shown.splitlines()) <= 1 + 3          # one row of 12 boards, 3 lines high


def test_a_huge_value_is_cut_before_it_is_formatted():
    """A million items cost no more to report than a few: the first items only."""
    huge = [list(range(10))] * 1_000_000
    with pytest.raises(AssertionError) as e:
        assert_equal(huge, [], "the path")
    text = str(e.value)
    assert len(text) < 1000 and "…" in text
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 90
    # a set of more boards than can be compared one by one is reported as a value
    many: set = set()
    seed = 0
    while len(many) <= 10_000:
        many.add(pk.random_state(3, seed=seed))
        seed += 1
    with pytest.raises(AssertionError, match="expected: "):
        assert_equal(many, pk.nextStates(start), "nextStates(start)")
