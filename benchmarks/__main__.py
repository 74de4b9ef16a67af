"""Run every benchmark: ``python -m benchmarks`` (or ``make bench``).

Each ``benchmarks/bench_*.py`` module has a ``main()`` that measures once and returns
either a list of rows (dicts: column -> value) or a dict with ``title``, ``rows`` and
optionally ``notes`` (list of str). For every module this writes
``benchmarks/results/<module>.md`` (a markdown table) and, when a column named
``seconds`` exists and matplotlib is installed, ``benchmarks/results/<module>.png``.
``python -m benchmarks core`` runs only the modules whose names contain "core".
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def cell(value: object) -> str:
    """A table cell: floats to 3 significant digits, None as a dash, pipes escaped."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value).replace("|", "\\|")


def markdown(title: str, rows: list[dict], notes: list[str]) -> str:
    """The report of one module as markdown: a heading, a table, notes."""
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    lines = [f"## {title}", "", "| " + " | ".join(columns) + " |",
             "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(cell(row.get(c)) for c in columns) + " |" for row in rows]
    if notes:
        lines += [""] + [f"- {note}" for note in notes]
    return "\n".join(lines) + "\n"


def plot(title: str, rows: list[dict], path: Path) -> bool:
    """A horizontal bar chart of the `seconds` column; False if it cannot be drawn."""
    timed = [r for r in rows if isinstance(r.get("seconds"), (int, float))]
    if not timed:
        return False
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    labels = [str(next(iter(r.values())))[:60] for r in timed]
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(timed) + 1.2))
    ax.barh(labels[::-1], [r["seconds"] for r in timed][::-1], color="#4c78a8")
    ax.set_xlabel("seconds")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def normalise(name: str, report: object) -> tuple[str, list[dict], list[str]]:
    if isinstance(report, dict):
        return (str(report.get("title", name)), list(report.get("rows", [])),
                list(report.get("notes", [])))
    return name, list(report or []), []  # type: ignore[call-overload]


def run(name: str) -> str:
    """Run one benchmark module; write its table (and plot); return the markdown."""
    module = importlib.import_module(f"benchmarks.{name}")
    t0 = time.perf_counter()
    title, rows, notes = normalise(name, module.main())
    notes.append(f"`{name}` ran in {time.perf_counter() - t0:.1f} s of wall time.")
    text = markdown(title, rows, notes)
    (RESULTS / f"{name}.md").write_text(text, encoding="utf-8")
    plot(title, rows, RESULTS / f"{name}.png")
    return text


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE.parent))
    RESULTS.mkdir(exist_ok=True)
    names = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    failed = 0
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            print(run(name))
        except Exception:
            failed += 1
            traceback.print_exc()
            print(f"## {name}\n\nfailed; see the traceback above.\n")
    print(f"tables and plots in {RESULTS}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
