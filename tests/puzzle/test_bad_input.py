"""Bad input in every format → `PuzzleError` naming the problem, quickly.

Each case runs under an alarm of its own (no timing assertion: the alarm only turns a
hang into a failure instead of a stuck suite).
"""

from __future__ import annotations

import signal

import pytest

import puzzlekit as pk

HANG_SECONDS = 20


@pytest.fixture(autouse=True)
def no_hang():
    """Fail a test that runs longer than HANG_SECONDS (POSIX main thread only)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def hung(signum, frame):
        raise TimeoutError(f"no answer within {HANG_SECONDS} s: bad input must not hang")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def rows_text(n: int) -> str:
    return "\n".join(" ".join(str(r * n + c) for c in range(n)) for r in range(n))


# (id, the call, words the message must contain)
TUPLES = [
    ("empty", lambda: pk.validate_state(()), "empty"),
    ("none", lambda: pk.validate_state(None), "tuple of rows"),
    ("int", lambda: pk.validate_state(7), "tuple of rows"),
    ("string", lambda: pk.validate_state("1230"), "tuple of rows"),
    ("string rows", lambda: pk.validate_state(("01", "23")), "row 0"),
    ("set rows", lambda: pk.validate_state([{0, 1}, {2, 3}]), "row 0"),
    ("generator", lambda: pk.validate_state(r for r in ((0, 1), (2, 3))), "tuple of rows"),
    ("one row", lambda: pk.validate_state(((1, 2, 0),)), "at least 2 rows"),
    ("one column", lambda: pk.validate_state(((0,), (1,))), "2 columns"),
    ("ragged", lambda: pk.validate_state(((0, 1), (2, 3, 4))), "ragged"),
    ("duplicate", lambda: pk.validate_state(((0, 1), (1, 2))), "duplicate tiles [1]"),
    ("no blank", lambda: pk.validate_state(((1, 2), (3, 4))), "no blank"),
    ("too big", lambda: pk.validate_state(((0, 1), (2, 5))), "[5]"),
    ("bool", lambda: pk.validate_state(((0, 1), (2, True))), "bool"),
    ("float", lambda: pk.validate_state(((0, 1), (2, 3.0))), "float"),
    ("str tile", lambda: pk.validate_state(((0, 1), (2, "3"))), "str"),
    ("none tile", lambda: pk.validate_state(((0, 1), (2, None))), "NoneType"),
    ("nested", lambda: pk.validate_state(((0, 1), (2, (3,)))), "tuple"),
    ("negative", lambda: pk.validate_state(((0, 1), (2, -3))), "negative"),
    ("huge", lambda: pk.validate_state(pk.unflatten(range(1600), 40, 40)), "40×40"),
]

FLAT_LISTS = [
    ("empty", lambda: pk.from_flat([]), "empty"),
    ("not square", lambda: pk.from_flat([0, 1, 2]), "not a square"),
    ("one item", lambda: pk.from_flat([0]), "1×1"),
    ("wrong rows", lambda: pk.from_flat([0, 1, 2, 3], rows=3), "3×"),
    ("str rows", lambda: pk.from_flat([0, 1, 2, 3], rows="2"), "rows"),
    ("float cols", lambda: pk.from_flat([0, 1, 2, 3], cols=2.0), "cols"),
    ("negative rows", lambda: pk.from_flat([0, 1, 2, 3], rows=-2), "rows"),
    ("duplicate", lambda: pk.from_flat([0, 1, 1, 3]), "duplicate"),
    ("no blank", lambda: pk.from_flat([1, 2, 3, 4]), "no blank"),
    ("bool", lambda: pk.from_flat([0, 1, 2, True]), "bool"),
    ("negative", lambda: pk.from_flat([0, 1, 2, -3]), "negative"),
    ("float", lambda: pk.from_flat([0, 1, 2, 3.5]), "float"),
    ("word", lambda: pk.from_flat([0, 1, 2, "x"]), "'x'"),
    ("Thai course node", lambda: pk.from_flat([1, 0, 3, 4, 2, 5, 7, 8, 6, "LR"]), "10 items"),
    ("nested", lambda: pk.from_flat([[0, 1], [2, 3]]), "not a square"),
    ("dict", lambda: pk.from_flat({0: 1}), "list"),
    ("string", lambda: pk.from_flat("0123"), "list"),
    ("huge", lambda: pk.from_flat(list(range(10**6))), "1000×1000"),
    ("two spaces", lambda: pk.from_flat([" ", " ", 1, 2]), "duplicate tiles [0]"),
    ("space, no 3", lambda: pk.from_flat([1, 2, 4, " "]), "[4]"),
    ("superscript", lambda: pk.from_flat(["¹", 2, 3, " "]), "'¹'"),
]

STRINGS = [
    ("empty", lambda: pk.from_string(""), "empty"),
    ("not square", lambda: pk.from_string("1238_476"), "8 items"),
    ("letter", lambda: pk.from_string("1238_476x"), "'x'"),
    ("duplicate", lambda: pk.from_string("1238_4766"), "duplicate"),
    ("two blanks", lambda: pk.from_string("12_3_4567"), "duplicate tiles [0]"),
    ("no blank", lambda: pk.from_string("123456789"), "no blank"),
    ("short rows", lambda: pk.from_string("1 2 3 / 4 5 6 / 7 8"), "8 items"),
    ("negative", lambda: pk.from_string("-1 2 3 0"), "'-1'"),
    ("superscript", lambda: pk.from_string("¹²³_"), "'¹'"),
    ("bytes", lambda: pk.from_string(b"1230"), "bytes"),
    ("wrong shape", lambda: pk.from_string("123_", rows=3), "3×"),
]

PRINCETON = [
    ("empty", "", "empty"),
    ("blank", "   \n\n", "empty"),
    ("header only", "3\n", "header says 3 rows but 0 follow"),
    ("too few rows", "3\n1 2 3\n4 5 6\n", "header says 3 rows but 2 follow"),
    ("too many rows", "2\n0 1\n2 3\n0 1\n", "header says 2 rows but 3 follow"),
    ("header mismatch", "2\n1 2 3\n4 5 6\n", "expected 2 numbers, got 3"),
    ("ragged", "3\n1 2 3\n4 5\n6 7 0\n", "line 3: expected 3 numbers, got 2"),
    ("word header", "three\n1 2 3\n4 5 6\n7 8 0\n", "board size"),
    ("three numbers", "2 2 2\n0 1\n2 3\n", "first line"),
    ("size 1", "1\n0\n", "1×1"),
    ("size 0", "0\n", "0×0"),
    ("negative size", "-3\n1 2 3\n", "too small"),
    ("huge header", "1000000000\n0 1\n", "header says 1000000000 rows"),
    ("too big", "40\n" + rows_text(40), "40×40"),
    ("letter", "3\n1 2 3\n4 5 6\n7 x 0\n", "line 4"),
    ("float", "2\n0 1\n2 3.0\n", "non-integer"),
    ("bool", "2\n0 1\n2 True\n", "non-integer"),
    ("duplicate", "3\n1 2 3\n4 5 6\n7 7 0\n", "duplicate"),
    ("missing blank", "3\n1 2 3\n4 5 6\n7 8 9\n", "no blank"),
    ("negative tile", "3\n1 2 3\n4 -5 6\n7 8 0\n", "negative"),
    ("rows×cols mismatch", "2 3\n0 1\n2 3\n", "expected 3 numbers"),
]

OTHER = [
    ("read_board None", lambda: pk.read_board(None), "path or text"),
    ("read_board int", lambda: pk.read_board(3), "path or text"),
    ("as_state empty list", lambda: pk.as_state([]), "empty"),
    ("as_state empty str", lambda: pk.as_state(""), "empty"),
    ("as_state dict", lambda: pk.as_state({}), "tuple of rows"),
    ("goal with duplicates", lambda: pk.is_solvable(pk.goal_state(3), ((1, 1, 2), (3, 4, 5),
                                                                       (6, 7, 0))), "goal"),
    ("goal of another shape", lambda: pk.is_solvable(pk.goal_state(3), pk.goal_state(2)),
     "3×3 but goal is 2×2"),
    ("heuristic of a bad board", lambda: pk.manhattan(((1, 2), (3, 4))), "no blank"),
    ("nextStates without blank", lambda: pk.nextStates(((1, 2), (3, 4))), "no blank"),
    ("apply_moves None", lambda: pk.apply_moves(pk.goal_state(3), None), "U/D/L/R"),
    ("apply_moves bad letter", lambda: pk.apply_moves(pk.goal_state(3), "UX"), "'X'"),
    ("check_solution int", lambda: pk.check_solution(pk.goal_state(3), None, 5), "move string"),
    ("print_pos short", lambda: pk.print_pos([1, 2, 3]), "3 items"),
    ("search not callable", lambda: pk.search(None, 1, 2), "successor function"),
    ("search across sizes", lambda: pk.search(pk.nextStates, pk.goal_state(4), pk.goal_state(3)),
     "start is 4×4 but goal is 3×3"),
    ("search unsolvable", lambda: pk.search(pk.nextStates, ((1, 2), (0, 3)),
                                            ((2, 1), (3, 0))), "cannot be reached"),
]

SOLVE = [
    ("unknown algorithm", lambda: pk.solve(pk.goal_state(3), algorithm="magic"), "magic"),
    ("unknown heuristic", lambda: pk.solve(pk.goal_state(3), heuristic="magic"), "magic"),
    ("negative max_nodes", lambda: pk.solve(pk.goal_state(3), max_nodes=-1), "max_nodes"),
    ("text time_limit", lambda: pk.solve(pk.goal_state(3), time_limit="x"), "time_limit"),
    ("bad start", lambda: pk.solve(((1, 2), (3, 4))), "no blank"),
    ("goal shape", lambda: pk.solve(pk.goal_state(3), pk.goal_state(2)), "goal is 2×2"),
    ("unsolvable", lambda: pk.solve(((1, 2, 3), (4, 5, 6), (8, 7, 0))), "cannot be reached"),
]


def ids(table):
    return [case[0] for case in table]


CALLS = {"state": TUPLES, "flat list": FLAT_LISTS, "string": STRINGS, "other": OTHER,
         "solve": SOLVE}
CALL_CASES = [pytest.param(call, words, id=f"{kind}: {name}")
              for kind, table in CALLS.items() for name, call, words in table]


def raises_naming(call, words: str) -> str:
    """Run `call`; it must raise PuzzleError whose message contains `words`."""
    with pytest.raises(pk.PuzzleError) as e:
        call()
    assert words in str(e.value)
    return str(e.value)


@pytest.mark.parametrize("call, words", CALL_CASES)
def test_bad_input_raises_puzzle_error_naming_the_problem(call, words):
    raises_naming(call, words)


@pytest.mark.parametrize("name, text, words", PRINCETON, ids=ids(PRINCETON))
def test_bad_princeton_text(name, text, words):
    raises_naming(lambda: pk.read_board(text), words)


@pytest.mark.parametrize("name, text, words", PRINCETON, ids=ids(PRINCETON))
def test_bad_princeton_files(tmp_path, name, text, words):
    f = tmp_path / "board.txt"
    f.write_text(text)
    assert str(f) in raises_naming(lambda: pk.read_board(f), words)


def test_unreadable_files(tmp_path):
    with pytest.raises(pk.PuzzleError, match="no such board file"):
        pk.read_board(tmp_path / "missing.txt")
    with pytest.raises(pk.PuzzleError, match="cannot read"):
        pk.read_board(tmp_path)                                     # a directory
    binary = tmp_path / "board.bin"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(pk.PuzzleError, match="cannot read"):
        pk.read_board(binary)
