"""Benchmarks of the big searches: pattern databases, the fast IDA*, heuristics side by side,
big boards.

Run alone with ``python -m benchmarks.bench_pdb`` (add ``--quick`` to skip puzzle4x4-80
and most of the A* table), or with everything else by ``make bench``. Every optimal
length is checked against ../shared/data. Times are wall-clock seconds with CPU seconds
beside them: the machine is shared, so CPU time is the fairer figure of the code itself.

- PDB build: the 6-6-3 tables (column cut) built from scratch into a temporary cache
  folder, then (not with --quick) the 7-7-1 tables (about 2.5 min of CPU, 1.6 GB).
- Korf's 100 (goal blank first): all solved by IDA* + PDB, lengths checked, with each
  table set ("6-6-3", the default; "7-7-1": two 7-tile patterns and one tile).
- Princeton puzzle4x4-78 / -80 (goal blank last, served by symmetry), with each table set.
- Princeton's 8-puzzle assignment's table, extended: A* with Hamming, Manhattan, linear
  conflict and PDB on puzzle28..puzzle42 and on all 3×3 Princeton files; plus the fast
  IDA* engines.
- BFS vs bidirectional BFS vs A* on the lecture's 31-move 8-puzzle; Manhattan IDA* speed.
- Big boards: the reduction solver on random 10×10, 15×15 and 20×20 boards.
"""

from __future__ import annotations

import csv
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import puzzlekit as pk
from puzzlekit.engine import fast_idastar, pdb
from puzzlekit.puzzle.board import flatten, unflatten
from puzzlekit.engine.large import solve_large

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
KORF_GOAL = tuple(range(16))
A_STAR_LIMIT = 20.0        #: seconds per A* run in the heuristics table ("–" beyond)


def timed(run: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds, result) of one call."""
    w, c = time.perf_counter(), time.process_time()
    out = run()
    return time.perf_counter() - w, time.process_time() - c, out


def answers() -> dict[str, int]:
    with (DATA / "princeton" / "answers.tsv").open() as f:
        return {r["filename"]: int(r["min_moves"]) for r in csv.DictReader(f, delimiter="\t")}


def korf100() -> list[tuple[int, tuple[int, ...], int]]:
    with (DATA / "korf100.tsv").open() as f:
        return [(int(r["id"]), tuple(map(int, r["tiles"].split())), int(r["optimal_length"]))
                for r in csv.DictReader(f, delimiter="\t")]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ------------------------------------------------------------------------- measurements

def build_rows(partition: str = "main") -> tuple[list[dict], float]:
    """Build one partition's tables from scratch (a private cache folder); a row per table."""
    rows = []
    name = {"main": "6-6-3 (column cut)", "big": "7-7-1"}[partition]
    with tempfile.TemporaryDirectory() as tmp:
        old = os.environ.get("PUZZLEKIT_CACHE")
        os.environ["PUZZLEKIT_CACHE"] = tmp
        pdb._DATABASES.pop((4, 4, 0, partition), None)
        try:
            wall, cpu, db = timed(lambda: pdb.databases(4, 4, 0, partition=partition))
        finally:
            if old is None:
                os.environ.pop("PUZZLEKIT_CACHE", None)
            else:
                os.environ["PUZZLEKIT_CACHE"] = old
    for rep in pdb.BUILD_LOG[-len(db.patterns):]:
        rows.append({"case": f"PDB build: tiles on squares {rep.cells}", "seconds": rep.seconds,
                     "nodes": rep.states, "result": f"max value {rep.max_value}; BFS array "
                     f"{rep.work_bytes / 2**20:.0f} MB, table {rep.table_bytes / 2**20:.2f} MB"})
    rows.append({"case": f"PDB build: {name} total", "seconds": wall, "cpu s": cpu,
                 "result": f"tables {db.nbytes / 2**20:.1f} MB in memory; "
                           f"peak RSS so far {peak_rss_mb():.0f} MB"})
    return rows, wall


def korf_rows(build_seconds: float, tables: str = "6-6-3") -> list[dict]:
    times, cpus, nodes, expanded, bad = [], [], 0, 0, []
    for i, tiles, optimal in korf100():
        wall, cpu, (moves, stats) = timed(lambda: fast_idastar.idastar_pdb(
            tiles, KORF_GOAL, 4, 4, tables=tables))
        times.append(wall)
        cpus.append(cpu)
        nodes += stats.nodes_generated
        expanded += stats.nodes_expanded
        if len(moves) != optimal or not pk.check_solution(
                unflatten(tiles, 4, 4), unflatten(KORF_GOAL, 4, 4), moves).ok:
            bad.append(i)
    total = sum(times)
    verdict = "all 100 optimal (lengths sum to {})".format(
        sum(o for _, _, o in korf100())) if not bad else f"WRONG on {bad}"
    return [
        {"case": f"Korf 100: IDA* + {tables} PDB (+ reflection)", "seconds": total,
         "cpu s": sum(cpus), "nodes": nodes, "expanded": expanded,
         "median s": statistics.median(times),
         "max s": max(times), "nodes/s": nodes / sum(cpus), "result": verdict},
        {"case": f"Korf 100 including the {tables} build", "seconds": total + build_seconds,
         "result": "target < 120 s" if tables == "6-6-3" else "a one-off build: later runs "
                   "load the tables from the cache"},
    ]


def princeton_rows(names: list[str], time_limit: float, tables: str = "6-6-3") -> list[dict]:
    ans, rows = answers(), []
    for name in names:
        S = pk.read_board(DATA / "princeton" / name)
        goal = pk.goal_state(*pk.shape(S))
        try:
            wall, cpu, (moves, st) = timed(lambda: fast_idastar.idastar_pdb(
                flatten(S), flatten(goal), 4, 4, time_limit=time_limit, tables=tables))
        except pk.SearchLimitReached as e:
            rows.append({"case": f"{name}: IDA* + {tables} PDB", "seconds": None,
                         "nodes": e.stats.nodes_generated,
                         "result": f"not within {time_limit:g} s (bound {e.stats.depth})"})
            continue
        ok = len(moves) == ans[name] and pk.check_solution(S, goal, moves).ok
        rows.append({"case": f"{name}: IDA* + {tables} PDB", "seconds": wall, "cpu s": cpu,
                     "nodes": st.nodes_generated, "expanded": st.nodes_expanded,
                     "nodes/s": st.nodes_generated / cpu,
                     "result": f"{len(moves)} moves, " + ("optimal" if ok else "WRONG")})
    return rows


def heuristic_rows(names: list[str], summary_3x3: bool) -> list[dict]:
    """Princeton's 8-puzzle assignment's table extended: A* with each heuristic, and the fast
    IDA* engines."""
    ans, rows = answers(), []
    for name in names:
        S = pk.read_board(DATA / "princeton" / name)
        n = pk.shape(S)[0]
        runs: list[tuple[str, Callable[[], Any]]] = [
            (f"A* {h}", lambda h=h: pk.solve(S, algorithm="astar", heuristic=h,
                                             time_limit=A_STAR_LIMIT))
            for h in ("hamming", "manhattan", "linear_conflict", "pdb")]
        if n == 4:
            runs += [(f"IDA* {h} (fast engine)", lambda h=h: pk.solve(
                S, algorithm="idastar", heuristic=h, time_limit=A_STAR_LIMIT,
                max_nodes=float("inf"))) for h in ("manhattan", "pdb")]
        for label, run in runs:
            try:
                wall, cpu, r = timed(run)
            except pk.SearchLimitReached as e:
                rows.append({"case": f"{name} ({n}×{n}): {label}", "seconds": None,
                             "nodes": e.stats.nodes_generated, "result": e.reason})
                continue
            verdict = "optimal" if r.length == ans[name] else f"WRONG ({r.length})"
            rows.append({"case": f"{name} ({n}×{n}): {label}", "seconds": wall, "cpu s": cpu,
                         "nodes": r.nodes_generated, "result": f"{r.length} moves, {verdict}"})
    if summary_3x3:
        rows += summary_rows("puzzle3x3-", [("astar", h) for h in (
            "hamming", "manhattan", "linear_conflict", "pdb")])
        rows += summary_rows("puzzle4x4-", [("idastar", "manhattan"), ("idastar", "pdb")])
    return rows


def summary_rows(prefix: str, runs: list[tuple[str, str]]) -> list[dict]:
    """One row per (algorithm, heuristic): totals over the solvable files of one size (the
    78- and 80-move boards have rows of their own)."""
    ans, rows = answers(), []
    files = sorted(f for f in ans if f.startswith(prefix) and 0 <= ans[f] <= 50)
    for algo, h in runs:
        total = cpu_total = nodes = 0.0
        wrong = missed = 0
        for name in files:
            S = pk.read_board(DATA / "princeton" / name)
            try:
                wall, cpu, r = timed(lambda: pk.solve(S, algorithm=algo, heuristic=h,
                                                      time_limit=A_STAR_LIMIT))
            except pk.SearchLimitReached:
                missed += 1
                continue
            total, cpu_total, nodes = total + wall, cpu_total + cpu, nodes + r.nodes_generated
            wrong += r.length != ans[name]
        verdict = "all optimal" if not (wrong or missed) else f"{wrong} wrong, {missed} over limit"
        rows.append({"case": f"all {len(files)} solvable {prefix[6:9]} files: {algo} {h}",
                     "seconds": total, "cpu s": cpu_total, "nodes": int(nodes),
                     "result": verdict})
    return rows


def eight_puzzle_rows() -> list[dict]:
    start, goal = ((8, 0, 6), (5, 4, 7), (2, 3, 1)), ((0, 1, 2), (3, 4, 5), (6, 7, 8))
    rows = []
    for algo, h in (("bfs", None), ("bidirectional", None), ("astar", "manhattan"),
                    ("astar", "pdb"), ("idastar", "pdb")):
        wall, cpu, r = timed(lambda: pk.solve(start, goal, algorithm=algo, heuristic=h or "zero"))
        rows.append({"case": f"8-puzzle, lecture example: {algo}" + (f" + {h}" if h else ""),
                     "seconds": wall, "cpu s": cpu, "nodes": r.nodes_generated,
                     "result": f"{r.length} moves"})
    return rows


def manhattan_speed_rows() -> list[dict]:
    """The target set when the fast IDA* was written: ≥ 2 M generated nodes/s with Manhattan
    IDA* on the 15-puzzle."""
    picks = {79, 12, 42, 55, 97, 19, 94}
    nodes = expanded = cpu_total = wall_total = 0.0
    for i, tiles, optimal in korf100():
        if i in picks:
            wall, cpu, (moves, st) = timed(
                lambda: fast_idastar.idastar_manhattan(tiles, KORF_GOAL, 4, 4))
            assert len(moves) == optimal
            nodes, expanded = nodes + st.nodes_generated, expanded + st.nodes_expanded
            cpu_total, wall_total = cpu_total + cpu, wall_total + wall
    return [{"case": f"IDA* + Manhattan, Korf #{', #'.join(map(str, sorted(picks)))}",
             "seconds": wall_total, "cpu s": cpu_total, "nodes": int(nodes),
             "expanded": int(expanded), "nodes/s": nodes / cpu_total,
             "result": f"target ≥ 2 M generated nodes/s; {expanded / cpu_total / 1e6:.1f} M "
                       f"expanded/s (CPU), {nodes / wall_total / 1e6:.1f} M generated/s (wall)"}]


def large_rows() -> list[dict]:
    rows = []
    for n in (10, 15, 20):
        S = pk.random_state(n, seed=n)
        wall, cpu, moves = timed(lambda: solve_large(S, pk.goal_state(n)))
        ok = pk.check_solution(S, None, moves).ok
        rows.append({"case": f"reduction solver, random {n}×{n}", "seconds": wall, "cpu s": cpu,
                     "result": f"{len(moves):,} moves, " + ("legal" if ok else "ILLEGAL")})
    return rows


def main(quick: bool = False) -> dict:
    if not (DATA / "korf100.tsv").exists():
        return {"title": "Pattern databases", "rows": [],
                "notes": [f"skipped: {DATA} not present"]}
    rows, build_seconds = build_rows()
    rows += korf_rows(build_seconds)
    hard = ["puzzle4x4-78.txt"] + ([] if quick else ["puzzle4x4-80.txt"])
    rows += princeton_rows(hard, time_limit=900)
    if not quick:
        big_rows, big_seconds = build_rows("big")
        rows += big_rows
        rows += korf_rows(big_seconds, tables="7-7-1")
        rows += princeton_rows(hard, time_limit=900, tables="7-7-1")
        pdb._DATABASES.pop((4, 4, 0, "big"))      # the rows below: the default 6-6-3
    rows += manhattan_speed_rows()
    princeton_table = ["puzzle28.txt", "puzzle30.txt", "puzzle32.txt", "puzzle34.txt",
               "puzzle36.txt", "puzzle38.txt", "puzzle40.txt", "puzzle42.txt"]
    rows += heuristic_rows(princeton_table[:3] if quick else princeton_table, summary_3x3=not quick)
    rows += eight_puzzle_rows()
    rows += large_rows()
    notes = [f"{os.cpu_count()} cores shared with other users; load average "
             f"{os.getloadavg()[0]:.1f} at the end. 'seconds' is wall time, 'cpu s' CPU time.",
             f"A* runs stop after {A_STAR_LIMIT:g} s or 2 M nodes (shown as –).",
             "nodes = generated nodes (every child looked at, pruned or not, except the "
             "parent); expanded = nodes whose children were generated; nodes/s = generated "
             "per CPU second."]
    return {"title": "Pattern databases, fast IDA*, heuristics and big boards",
            "rows": rows, "notes": notes}


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.__main__ import markdown
    report = main(quick="--quick" in sys.argv)
    print(markdown(report["title"], report["rows"], report["notes"]))
