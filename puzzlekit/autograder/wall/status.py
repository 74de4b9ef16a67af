"""What this machine offers the wall (`status`, `WallStatus`).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from .linux import (
    CLONE_NEWNET,
    CLONE_NEWNS,
    CLONE_NEWPID,
    CLONE_NEWUSER,
    unshare,
    write_id_maps,
)


@dataclass(frozen=True)
class WallStatus:
    """What the wall can use on this machine (probed without restricting this process)."""

    landlock_abi: int | None
    userns: bool
    root: bool
    pids_cgroup: str | None
    platform: str
    problems: tuple[str, ...] = field(default=())
    memory_cgroup: str | None = None
    cgroup_version: int | None = None

    @property
    def full(self) -> bool:
        """True when Landlock and the namespaces are both available."""
        return self.landlock_abi is not None and self.userns


def probe_userns() -> str | None:
    """Try a user+net+mount+pid namespace in a forked child; None if it works, else why."""
    if not sys.platform.startswith("linux"):
        return f"not Linux ({sys.platform})"
    uid, gid = os.geteuid(), os.getegid()  # inside the new namespace they read 65534
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns
        code, message = 0, b""
        try:
            unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID)
            write_id_maps(uid, gid)
        except OSError as exc:
            code, message = 1, str(exc).encode()
        os.write(write_end, message)
        os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        why = pipe.read().decode(errors="replace")
    _, code = os.waitpid(pid, 0)
    return None if code == 0 else (why or f"probe exited with {code}")
