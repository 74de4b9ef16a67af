"""``python -m puzzlekit.autograder.wall``: launch a command behind the wall, or ``--check`` /
``--status``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ...errors import PuzzleError
from .cgroups import status
from .check import check
from .config import WallConfig, parse_size
from .launcher import launch


def _size_arg(text: str) -> int:
    try:
        return parse_size(text)
    except PuzzleError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m puzzlekit.autograder.wall",
        description="Run a command (a student's kernel) behind a wall: it reads only what "
                    "Python needs, writes only its scratch folder, has no network and is "
                    "held to resource limits.",
        epilog="usage: python -m puzzlekit.autograder.wall --scratch DIR [options] -- CMD ARG...")
    parser.add_argument("--scratch", help="the only folder the command may write")
    parser.add_argument("--memory", type=_size_arg, default=WallConfig.memory,
                        help="address-space limit, e.g. 2G (0 = none; default 2G)")
    parser.add_argument("--processes", type=int, default=WallConfig.processes,
                        help="how many more tasks/threads it may create (0 = no limit)")
    parser.add_argument("--file-size", type=_size_arg, default=WallConfig.file_size,
                        help="largest file it may write, e.g. 64M (0 = none)")
    parser.add_argument("--scratch-limit", type=_size_arg, default=WallConfig.scratch_limit,
                        help="size of the kernel's writable folder (a tmpfs), e.g. 256M "
                             "(0 = a folder on disk, not size-limited; default 256M)")
    parser.add_argument("--workdir", help="a folder copied into the kernel's home, where "
                                          "the command starts")
    parser.add_argument("--network", action="store_true", help="leave the network open")
    parser.add_argument("--read", action="append", default=[], metavar="PATH",
                        help="another path it may read (repeatable)")
    parser.add_argument("--shared-root", action="store_true",
                        help="skip the private root (mount namespace); Landlock alone")
    parser.add_argument("--verbose", action="store_true", help="print what was applied")
    parser.add_argument("--check", action="store_true",
                        help="probe the wall on this machine and print a table")
    parser.add_argument("--course-root", help="with --check: a folder that must stay hidden")
    parser.add_argument("--status", action="store_true",
                        help="print what this machine supports, as JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m puzzlekit.autograder.wall``: launch a command behind the wall, or --check/--status."""
    args = list(sys.argv[1:] if argv is None else argv)
    split = args.index("--") if "--" in args else len(args)
    parser = _parser()
    ns = parser.parse_args(args[:split])
    cmd = args[split + 1:]
    if ns.processes < 0:
        parser.error("--processes must be >= 0")
    try:
        config = WallConfig(memory=ns.memory, processes=ns.processes, file_size=ns.file_size,
                            network=ns.network, read=tuple(ns.read),
                            private_root=not ns.shared_root, scratch_limit=ns.scratch_limit)
        if ns.status:
            print(json.dumps(status().__dict__, indent=1))
            return 0
        if ns.check:
            return check(config, ns.course_root)
        if not ns.scratch:
            parser.error("--scratch DIR is required (or use --check / --status)")
        if not cmd:
            parser.error("give the command to run after '--'")
        launch(ns.scratch, config, cmd, verbose=ns.verbose, workdir=ns.workdir)
    except PuzzleError as exc:
        print(f"puzzlekit.autograder.wall: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
