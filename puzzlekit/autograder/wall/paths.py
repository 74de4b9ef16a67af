"""The paths a walled process may read and write, and what would leak (`readable_paths`,
`leaks`).
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig

from ... import registry
from ...errors import PuzzleError
from .config import BROAD, ETC_HIDDEN, SYSTEM_READ, WallConfig


def is_inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _too_broad(path: str) -> bool:
    home = os.path.realpath(os.path.expanduser("~"))
    real = os.path.realpath(path)
    return real in BROAD or path in BROAD or is_inside(home, real)


def _python_paths() -> list[str]:
    """The interpreter, its prefixes, stdlib and site-packages (never a broad tree)."""
    keys = ("stdlib", "platstdlib", "purelib", "platlib")
    base_vars = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix,
                 "installed_base": sys.base_prefix, "installed_platbase": sys.base_exec_prefix}
    found = [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix]
    for paths in (sysconfig.get_paths(), sysconfig.get_paths(vars=base_vars)):
        found += [paths[k] for k in keys if k in paths]
    found += site.getsitepackages()
    libdir = sysconfig.get_config_var("LIBDIR")
    if isinstance(libdir, str):
        found.append(libdir)
    return [p for p in found if p and not _too_broad(p)]


def _etc_entries(root: str = "/etc", hidden: frozenset[str] = ETC_HIDDEN,
                 rel: str = "") -> list[str]:
    """Every entry of /etc except the hidden ones (descending only where needed)."""
    try:
        names = sorted(os.listdir(os.path.join(root, rel)))
    except OSError:
        return []
    out: list[str] = []
    for name in names:
        sub = f"{rel}/{name}" if rel else name
        path = os.path.join(root, sub)
        if sub in hidden:
            continue
        if any(h.startswith(sub + "/") for h in hidden) and os.path.isdir(path) \
                and not os.path.islink(path):
            out += _etc_entries(root, hidden, sub)
        else:
            out.append(path)
    return out


def _link_chain(path: str, hops: int = 40) -> list[str]:
    """`path` and every link it passes through to its real file (a venv's ``bin/python``
    -> ``python3`` -> ``/usr/bin/python3`` -> ``python3.11``): the kernel starts through
    each of them, so each must be readable behind the wall."""
    chain = [os.path.abspath(path)]
    while os.path.islink(chain[-1]) and len(chain) < hops:
        target = os.readlink(chain[-1])
        chain.append(os.path.normpath(os.path.join(os.path.dirname(chain[-1]), target)))
    return [*chain, os.path.realpath(path)]


def readable_paths(config: WallConfig = WallConfig()) -> list[str]:
    """The paths the walled process may read (and execute), existing ones only, in order."""
    package = registry.PACKAGE_DIR
    candidates = [*_link_chain(sys.executable), *_python_paths(), package,
                  *SYSTEM_READ, *config.read]
    out: list[str] = []
    for candidate in candidates:
        path = os.path.abspath(candidate)
        if path not in out and os.path.exists(path):
            out.append(path)
    # a link in /etc counts only if it lands in /etc (not on a hidden entry) or in what is
    # allowed already
    roots = [os.path.realpath(p) for p in ["/etc", *out]]
    hidden = [os.path.realpath(os.path.join("/etc", h)) for h in ETC_HIDDEN]
    for path in _etc_entries():
        real = os.path.realpath(path)
        if os.path.exists(path) and any(is_inside(real, root) for root in roots) \
                and not any(is_inside(real, h) for h in hidden):
            out.append(path)
    return out


def leaks(path: str, config: WallConfig = WallConfig()) -> list[str]:
    """Allowed read paths that contain ``path`` or lie inside it (empty: the wall hides it)."""
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise PuzzleError(f"leaks needs a path, not {path!r}")
    target = os.path.realpath(path)
    found = []
    for allowed in readable_paths(config):
        real = os.path.realpath(allowed)
        if is_inside(target, real) or is_inside(real, target):
            found.append(allowed)
    return found
