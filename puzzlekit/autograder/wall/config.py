"""What the wall lets through, and its configuration (`WallConfig`, `parse_size`).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass

from ...errors import PuzzleError
from .linux import GiB, KiB, MiB, TiB

SYSTEM_READ = ("/usr/lib", "/usr/lib64", "/usr/local/lib", "/lib", "/lib64",
                "/usr/share/zoneinfo", "/proc", "/sys")
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
# entries of /etc that the kernel never needs and that hold secrets or the grader's set-up
ETC_HIDDEN = frozenset({
    "shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d", "ssh", "ssl/private",
    "pki/tls/private", "letsencrypt", "security/opasswd", "krb5.keytab", "credstore",
    "credstore.encrypted", "wireguard", "NetworkManager/system-connections", "jupyter",
    "jupyterhub",
})
# never allowed whole as an interpreter-derived path: courses and exchanges live there
BROAD = frozenset({
    "/", "/usr", "/usr/local", "/usr/share", "/usr/local/share", "/home", "/root", "/tmp",
    "/var", "/var/tmp", "/var/lib", "/srv", "/opt", "/mnt", "/media", "/run", "/work",
})
# the only variables of the grader's environment that reach the kernel (an allow-list:
# database URLs, mail passwords and cloud keys have names no deny-list can guess); the
# wall's own variables (HOME, TMPDIR, caches, ...) are set on top
ENV_KEEP = frozenset({"PATH", "LANG", "LANGUAGE", "TZ", "TERM", "PYTHONIOENCODING",
                       "PYTHONUTF8", "MPLBACKEND", "NBGRADER_EXECUTION"})
ENV_KEEP_PREFIXES = ("LC_",)

# the scratch folder's layout: DIR/ipc (connection files and sockets, shared with the
# grader), DIR/home (the kernel's only writable folder: a size-limited tmpfs in its own
# mount namespace where it can be), DIR/.wall.json (the launcher's report) and DIR/.root
# (where the private root is assembled); the kernel can write neither DIR nor the report
HOME_NAME, IPC_NAME, ROOT_NAME = "home", "ipc", ".root"
HOME_DIRS = ("tmp", ".cache", ".config", ".matplotlib", ".ipython", ".jupyter",
              ".local/share/jupyter/runtime")
CGROUP_PARENT = "puzzlekit-wall"
SCRATCH_PREFIX = "pkgrade-"



@dataclass(frozen=True)
class WallConfig:
    """Limits and openings of the wall. Sizes are bytes; 0 means no limit."""

    memory: int = 2 * GiB
    processes: int = 64
    file_size: int = 64 * MiB
    network: bool = False
    read: tuple[str, ...] = ()
    private_root: bool = True
    scratch_limit: int = 256 * MiB

    def __post_init__(self) -> None:
        for name in ("memory", "processes", "file_size", "scratch_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise PuzzleError(f"WallConfig.{name} must be an integer >= 0 (0 = no limit), "
                                  f"not {value!r}")
        if isinstance(self.read, str) or not all(isinstance(p, str) and p for p in self.read):
            raise PuzzleError(f"WallConfig.read must be a tuple of paths, not {self.read!r}")
        object.__setattr__(self, "read", tuple(os.path.abspath(p) for p in self.read))


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


def parse_size(text: str | int) -> int:
    """Bytes in ``"2G"``, ``"512M"``, ``"2GiB"``, ``"100k"`` or ``"12345"`` (powers of 1024)."""
    if isinstance(text, int) and not isinstance(text, bool) and text >= 0:
        return text
    match = _SIZE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise PuzzleError(f"cannot read {text!r} as a size: use a number of bytes or a number "
                          "with K, M, G or T (e.g. 512M, 2G, 2GiB)")
    unit = {"": 1, "k": KiB, "m": MiB, "g": GiB, "t": TiB}[match.group(2).lower()]
    return int(float(match.group(1)) * unit)


def wall_argv(scratch: str, config: WallConfig = WallConfig(),
              workdir: str | None = None) -> list[str]:
    """The launcher prefix to put before a command: ``[python, -m, puzzlekit.autograder.wall, ..., --]``.
    ``workdir``: a folder copied into the kernel's home, where the command starts."""
    if not isinstance(scratch, (str, os.PathLike)) or not str(scratch):
        raise PuzzleError(f"wall_argv needs a scratch folder, not {scratch!r}")
    argv = [sys.executable, "-m", "puzzlekit.autograder.wall", "--scratch", os.path.abspath(scratch),
            "--memory", str(config.memory), "--processes", str(config.processes),
            "--file-size", str(config.file_size),
            "--scratch-limit", str(config.scratch_limit)]
    if workdir is not None:
        argv += ["--workdir", os.path.abspath(workdir)]
    if config.network:
        argv.append("--network")
    if not config.private_root:
        argv.append("--shared-root")
    for path in config.read:
        argv += ["--read", path]
    return [*argv, "--"]
