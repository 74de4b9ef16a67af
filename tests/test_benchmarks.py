"""The benchmark runner (`python -m benchmarks`): tables, and every module has a main()."""

from __future__ import annotations

import ast
from pathlib import Path

from benchmarks.__main__ import cell, markdown, normalise

BENCH = Path(__file__).parents[1] / "benchmarks"


def test_markdown_table_has_every_column_once():
    text = markdown("T", [{"a": 1.23456, "b": None}, {"b": "x|y", "c": 12345}], ["n"])
    assert text.splitlines() == ["## T", "", "| a | b | c |", "|---|---|---|",
                                 "| 1.23 | – | – |", "| – | x\\|y | 12,345 |", "", "- n"]


def test_cells_and_reports():
    assert [cell(v) for v in (0.5, 2, True, None, "s")] == ["0.5", "2", "True", "–", "s"]
    assert normalise("m", [{"a": 1}]) == ("m", [{"a": 1}], [])
    assert normalise("m", {"title": "T", "rows": []}) == ("T", [], [])


def test_every_benchmark_module_defines_main():
    modules = sorted(BENCH.glob("bench_*.py"))
    assert modules
    for path in modules:
        tree = ast.parse(path.read_text())
        assert any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body), path
