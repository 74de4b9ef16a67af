"""The solver command line: `python -m puzzlekit solve FILE` on the boards of
Princeton's 8-puzzle assignment."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlekit as pk
from puzzlekit.cli import EXIT_BAD_INPUT, EXIT_BUDGET, EXIT_OK, EXIT_WRONG, main

PRINCETON = Path(__file__).parents[1].parent / "shared" / "data" / "princeton"
PUZZLE04 = "3\n0 1 3\n4 2 5\n7 8 6\n"        # the example file of Princeton's assignment
#: Boards A*+Manhattan cannot prove within seconds (hundreds of thousands of nodes and more).
NEEDS_PDB = {f"puzzle{k}.txt" for k in (47, 49, 50)} | {
    f"puzzle4x4-{k}.txt" for k in (45, 46, 47, 48, 49, 50, 78, 80)}
#: ... solved here by IDA* with the pattern databases instead, except the 80-mover: that
#: takes minutes with the default 6-6-3 tables and is measured by benchmarks/bench_pdb.py.
PDB_ARGS = ("--algorithm", "idastar", "--heuristic", "pdb")
TOO_SLOW_FOR_TESTS = {"puzzle4x4-80.txt"}
#: Boards A*+Manhattan solves in 0.4..3 s here (100,000..400,000 nodes): marked slow.
SLOW = {f"puzzle{k}.txt" for k in (36, 42, 43, 45, 48)} | {
    f"puzzle4x4-{k}.txt" for k in (36, 38, 40, 43, "hard1", "hard2")}


def solver_available() -> bool:
    try:
        import puzzlekit.engine.solver  # noqa: F401
    except ImportError:
        return False
    return True


needs_solver = pytest.mark.skipif(not solver_available(), reason="puzzlekit.engine.solver not built yet")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def boards_of(out: str) -> list[pk.State]:
    """Parse the CLI's printed boards back into states (blank printed as spaces)."""
    blocks = out.strip("\n").split("\n\n")
    assert blocks[-1].startswith("Minimum number of moves = ")
    states = []
    for block in blocks[:-1]:
        lines = block.split("\n")
        rows = len(lines)
        cols = next(c for c in range(2, 33) if c * (len(str(rows * c - 1)) + 1) == len(lines[0]))
        w = len(lines[0]) // cols
        states.append(pk.validate_state(
            [[int(line[i * w:(i + 1) * w].strip() or 0) for i in range(cols)] for line in lines]))
    return states


def parse_count(out: str) -> int:
    return int(out.strip().rsplit("= ", 1)[1])


@pytest.fixture
def board_file(tmp_path):
    def write(text: str, name: str = "board.txt") -> str:
        p = tmp_path / name
        p.write_text(text)
        return str(p)
    return write


# ------------------------------------------------------ Princeton's assignment's example

@needs_solver
def test_puzzle04_prints_every_board_and_the_count(capsys, board_file):
    code, out, err = run(capsys, "solve", board_file(PUZZLE04))
    assert code == EXIT_OK and err == ""
    assert parse_count(out) == 4
    path = boards_of(out)
    assert len(path) == 5
    assert path[0] == pk.read_board(PUZZLE04)
    assert pk.check_solution(path[0], None, path).ok


@needs_solver
def test_board_layout_is_right_aligned_with_blank_as_spaces(capsys, board_file):
    code, out, _ = run(capsys, "solve", board_file(PUZZLE04))
    first = out.split("\n\n")[0]
    assert first == pk.board_str(((0, 1, 3), (4, 2, 5), (7, 8, 6)))
    assert first.splitlines()[0] == "   1 3"


def test_solution_text_format():
    from puzzlekit.cli import solution_text
    path = pk.moves_to_path(((1, 2), (0, 3)), "R")
    assert solution_text(path) == " 1 2\n   3\n\n 1 2\n 3  \n\nMinimum number of moves = 1"


@needs_solver
@pytest.mark.parametrize("algorithm", ["greedy", "weighted_astar", "dfs"])
def test_non_optimal_algorithms_do_not_claim_a_minimum(capsys, board_file, algorithm):
    code, out, _ = run(capsys, "solve", board_file(PUZZLE04), "--algorithm", algorithm)
    assert code == EXIT_OK and "Minimum" not in out
    assert out.rstrip().endswith("moves (not proved minimal) = " + str(len(out.split("\n\n")) - 2))


def test_unsolvable_board_says_no_solution_and_exits_0(capsys, board_file):
    code, out, err = run(capsys, "solve", board_file("3\n1 2 3\n4 5 6\n8 7 0\n"))
    assert (code, out, err) == (EXIT_OK, "No solution possible\n", "")


# --------------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("3\n1 2 3\n4 5 6\n", "header says 3 rows"),
    ("3\n1 2 3\n4 5\n6 7 0\n", "expected 3 numbers"),
    ("3\n1 2 3\n4 5 6\n7 x 0\n", "non-integer"),
    ("3\n1 2 3\n4 5 6\n7 7 0\n", "duplicate"),
    ("three\n1 2 3\n4 5 6\n7 8 0\n", "board size"),
])
def test_malformed_file_gives_one_line_on_stderr_and_exit_2(capsys, board_file, text, words):
    code, out, err = run(capsys, "solve", board_file(text))
    assert code == EXIT_BAD_INPUT and out == ""
    assert err.count("\n") == 1 and words in err


def test_missing_file_exits_2(capsys, tmp_path):
    code, out, err = run(capsys, "solve", str(tmp_path / "nope.txt"))
    assert code == EXIT_BAD_INPUT and "no such board file" in err and out == ""


@pytest.mark.parametrize("argv", [
    ["solve"], ["solve", "f.txt", "--algorithm", "magic"], ["solve", "f.txt", "--max-nodes", "x"],
    ["solve", "f.txt", "--time-limit", "-1"], ["fly"], [],
])
def test_bad_arguments_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == EXIT_BAD_INPUT
    assert "error" in capsys.readouterr().err


@needs_solver
def test_budget_exhausted_exits_3_with_partial_statistics(capsys, board_file):
    hard = pk.write_board(pk.state_at_depth(31, seed=0))
    code, out, err = run(capsys, "solve", board_file(hard), "--algorithm", "bfs",
                         "--max-nodes", "50")
    assert code == EXIT_BUDGET and out == ""
    assert "expanded" in err and err.count("\n") == 1


# ----------------------------------------------------------------------------- check, scramble

def test_check_accepts_a_solution_and_names_an_illegal_move(capsys, board_file):
    f = board_file(PUZZLE04)
    assert run(capsys, "check", f, "RDRD")[0] == EXIT_OK
    code, out, _ = run(capsys, "check", f, "RDRDD")
    assert code == EXIT_WRONG and "move 5" in out
    code, out, _ = run(capsys, "check", f, "-")
    assert code == EXIT_WRONG and "not the goal" in out


def test_scramble_is_reproducible_and_solvable(capsys):
    code, out, _ = run(capsys, "scramble", "25", "--size", "4", "--seed", "7")
    assert code == EXIT_OK
    S = pk.read_board(out)
    assert pk.shape(S) == (4, 4) and pk.is_solvable(S)
    assert run(capsys, "scramble", "25", "--size", "4", "--seed", "7")[1] == out


def test_scramble_bad_size_exits_2(capsys):
    code, _, err = run(capsys, "scramble", "5", "--size", "1")
    assert code == EXIT_BAD_INPUT and "2" in err


def test_python_dash_m_entry_point(tmp_path):
    f = tmp_path / "u.txt"
    f.write_text("2\n0 1\n2 3\n")    # 2×2 with the wrong parity
    proc = subprocess.run([sys.executable, "-m", "puzzlekit", "solve", str(f)],
                          capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout) == (0, "No solution possible\n")
    proc = subprocess.run([sys.executable, "-m", "puzzlekit", "solve", str(tmp_path / "x")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.startswith("error: no such board file")


# ------------------------------------------------------------------------- Princeton's files

def princeton_cases() -> list:
    answers = PRINCETON / "answers.tsv"
    if not answers.exists():
        return [pytest.param(None, None, None, (), marks=pytest.mark.skip(
            reason=f"{PRINCETON} not present"))]
    cases = []
    with answers.open() as f:
        for row in csv.DictReader(f, delimiter="\t"):
            n, moves = int(row["n"]), int(row["min_moves"])
            marks, extra = [], ()
            if row["filename"] in TOO_SLOW_FOR_TESTS:
                marks.append(pytest.mark.skip(reason="minutes with the default tables; "
                                              "measured by benchmarks/bench_pdb.py"))
            elif row["filename"] in NEEDS_PDB:
                marks.append(pytest.mark.slow)
                extra = PDB_ARGS
            elif row["filename"] in SLOW:
                marks.append(pytest.mark.slow)
            cases.append(pytest.param(row["filename"], n, moves, extra, marks=marks,
                                      id=row["filename"]))
    return cases


@needs_solver
@pytest.mark.parametrize("filename, n, moves, extra", princeton_cases())
def test_princeton_file(capsys, filename, n, moves, extra):
    code, out, err = run(capsys, "solve", str(PRINCETON / filename), *extra)
    assert code == EXIT_OK, err
    if moves < 0:
        assert out == "No solution possible\n"
        return
    assert parse_count(out) == moves
    if n <= 4:   # the printed boards of big boards are checked through the move count alone
        path = boards_of(out)
        assert path[0] == pk.read_board(PRINCETON / filename)
        assert pk.check_solution(path[0], None, path).ok
