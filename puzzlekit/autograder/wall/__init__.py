"""A wall around a student's Jupyter kernel while nbgrader autogrades it, without Docker.

Usage::

    python -m puzzlekit.autograder.wall --scratch DIR [--workdir SRC] [--memory 2G] [--processes 64]
                             [--file-size 64M] [--scratch-limit 256M] [--network]
                             [--read PATH]... [--shared-root] -- CMD ARG...
    python -m puzzlekit.autograder.wall --check [--course-root DIR]     # what holds on this machine
    python -m puzzlekit.autograder.wall --status                        # what the machine offers

The launcher walls *itself* in and then runs CMD, so the kernel and everything it starts
inherit the wall; nothing needs root, a daemon or an image. It stacks independent Linux
mechanisms, because each closes a different door and each may be missing on some machine
(every step is best effort and what held is written to ``DIR/.wall.json``):

* **no_new_privs** - nothing exec'd later gains privileges from setuid bits or file
  capabilities; Landlock requires it.
* **A cgroup per launch** (v1: one group in each of ``pids``, ``memory``, ``freezer``; v2:
  one unified group), made under this process's own groups in a ``puzzlekit-wall``
  folder and named ``<launcher pid>-<random>``: ``pids.max`` (``RLIMIT_NPROC`` does not
  bind uid 0), the memory of the kernel *as a whole* (``memory.limit_in_bytes`` and
  ``memory.memsw.limit_in_bytes`` / ``memory.max`` and ``memory.swap.max = 0``; tmpfs
  pages count), and the handle by which :func:`end_launch` kills whatever is left
  (v2 ``cgroup.kill``; v1 freeze, SIGKILL every process, thaw) and removes the group.
  The grader takes the groups from the report of the launch, read before any student
  code ran, and keeps only those :func:`launch_cgroups` accepts.
* **User namespace** (``unshare(CLONE_NEWUSER)``, identity uid/gid map) - the kernel keeps
  its uid but holds no capability in the grader's namespace, so a grader running as root
  does not hand root powers (mount, raw sockets, ptrace, module loading ...) to students.
  The capability bounding set is emptied too, so the exec'd command starts with none.
* **Network namespace** (``CLONE_NEWNET``, unless ``--network``) - no interfaces but a
  loopback that is down: no TCP/UDP anywhere, and the grader's abstract Unix sockets are
  out of reach. The kernel talks to the grader over ZeroMQ ``ipc`` sockets, which are
  files in ``DIR/ipc``, so it does not need a network.
* **PID namespace** (``CLONE_NEWPID``) with a small init - the launcher forks an init
  (pid 1 of the namespace, with its own ``/proc``: the kernel sees only its own
  processes) which forks the kernel. The init reaps orphans and exits with the kernel,
  and Linux then kills everything left in the namespace: double-forked, ``setsid``,
  SIGTERM-ignoring children die with their kernel. The init dies with the launcher and
  the launcher with the grader (``PR_SET_PDEATHSIG``). The launcher stays the process
  jupyter_client started, in its process group, so ``killpg(SIGINT)`` still interrupts
  the kernel (the launcher and the init ignore SIGINT) and ``killpg(SIGKILL)`` ends it all.
  The init overwrites its command line and environment as /proc shows them (it is a fork
  of the launcher, whose argv names the scratch, the notebook's folder and the limits):
  ``/proc/1/cmdline`` reads ``puzzlekit-wall-init``.
* **Private root** (``CLONE_NEWNS`` + ``pivot_root``) - the kernel sees a tmpfs root that
  holds only the allowed paths (bind mounts, read-only), the ``ipc`` folder and its home.
  This closes the door Landlock leaves open up to ABI 7: connecting to *pathname* Unix
  sockets, which for a root grader (systemd, Docker, tmux, databases) is a way out of any
  file wall.
* **A size-limited home** - ``DIR/home``, the kernel's only writable folder, is a tmpfs of
  ``--scratch-limit`` bytes in the kernel's mount namespace (nothing of it on the disk),
  made fresh at every launch with a copy of ``--workdir`` (the notebook's folder) in it,
  where the command starts, so a notebook opens its data files by relative paths.
* **Landlock** (ABI 1..7, via ``ctypes``) - the kernel-enforced allow-list, which works
  even where namespaces are not allowed: read/execute the interpreter, the standard
  library, site-packages, the puzzlekit package, system libraries, ``/etc`` (minus its
  secrets), ``/proc``, ``/sys``; write only the home and four ``/dev`` files; in
  ``DIR/ipc`` read files and make sockets, nothing else; with ABI >= 4 no TCP
  bind/connect; with ABI >= 6 no signals to, and no abstract Unix sockets of, processes
  outside the wall (the grader, other kernels, the init).
* **rlimits** - ``RLIMIT_AS`` (too much memory in one process -> ``MemoryError``, the
  second line behind the memory cgroup), ``RLIMIT_FSIZE`` (a too-big file ->
  ``OSError``; SIGXFSZ is ignored), ``RLIMIT_CORE = 0`` and ``RLIMIT_NPROC``.

Broad trees are never allowed whole (``/usr/local``, ``/usr/share``, ``/home``, ``/root``,
``/tmp``, ``/opt``, a prefix's parent ...): nbgrader's exchange and the course may live
anywhere. :func:`leaks` tells whether a given folder is inside what the wall lets through.

The steps run in this order, as the grader until the namespaces: PR_SET_PDEATHSIG,
the scratch's fixed parts (``ipc``, ``.root``) and the report file (opened now, written
last), all through folder fds with ``O_NOFOLLOW``, never through a link; no_new_privs;
the cgroups (they need the grader's view of ``/sys``); the namespaces; the init (fork);
the private root with the home and a fresh ``/proc``; dropping capabilities; the kernel
(fork); rlimits; Landlock (last: it forbids mounting); then the environment, the working
directory, the report and ``execve``. The environment is an allow-list: ``PATH``, the
locale (``LANG``, ``LANGUAGE``, ``LC_*``), ``TZ``, ``TERM``, ``PYTHONIOENCODING``,
``PYTHONUTF8``, ``MPLBACKEND`` and ``NBGRADER_EXECUTION`` of the grader's, plus the
wall's own (``HOME``, ``TMPDIR``, caches, IPython and Jupyter folders in the home).

A kernel behind the wall, started by jupyter_client over ``ipc`` (the connection file and
the sockets live in ``DIR/ipc``, which both sides reach)::

    class WalledKernelManager(KernelManager):
        wall_prefix = traitlets.List(traitlets.Unicode())
        def format_kernel_cmd(self, extra_arguments=None):
            return [*self.wall_prefix, *super().format_kernel_cmd(extra_arguments)]

    os.makedirs(f"{scratch}/ipc", mode=0o700)
    km = WalledKernelManager(transport="ipc", ip=f"{scratch}/ipc/k",
                             connection_file=f"{scratch}/ipc/kernel.json",
                             wall_prefix=wall_argv(scratch, WallConfig(), workdir=folder))
    km.start_kernel()
    ...
    end_launch(launch_cgroups(report_read_at_start, km.provisioner.process.pid))

Not covered: CPU time (the grader's cell timeout interrupts; a process of the kernel
competes for the CPU while the kernel lives); signals to the grader where Landlock
ABI < 6 and there is no pid namespace; memory as a whole where no memory cgroup can be
made (a non-root grader without delegation, or a cgroup v2 grader whose own group holds
processes and so cannot hand the memory controller down): there each process is held to
``--memory`` (RLIMIT_AS) and the kernel may hold ``--memory`` times ``--processes``;
processes that outlive the kernel where neither a pid namespace nor a cgroup can be made;
the size of the home where no mount namespace can be made (files are bounded one by one
by RLIMIT_FSIZE, not in sum). Where Landlock is unavailable (old kernel, macOS) the
launcher still runs the command and ``--check`` says loudly that students' code runs with
the grader's rights.

The wall is in rooms of one idea each: `linux` (constants and ctypes plumbing), `config`
(what it lets through, `WallConfig`), `paths` (what may be read), `status` (what this
machine offers), `cgroups`, `scratch`, `launcher` (the steps), `check` (the self-check,
which runs `probe.py` behind the wall) and `cli`.
"""

from __future__ import annotations

from .cgroups import NO_MEMORY_CGROUP, end_launch, launch_cgroups, status
from .check import check
from .cli import main
from .config import HOME_NAME, WallConfig, parse_size, wall_argv
from .launcher import launch
from .linux import REPORT_NAME, GiB, KiB, MiB, TiB
from .paths import leaks, readable_paths
from .scratch import ScratchLayout, make_scratch, remove_stale_scratch, scratch_layout
from .status import WallStatus

__all__ = ["ScratchLayout", "WallConfig", "WallStatus", "check", "end_launch", "launch",
           "launch_cgroups", "leaks", "main", "make_scratch", "parse_size", "readable_paths",
           "remove_stale_scratch", "scratch_layout", "status", "wall_argv", "HOME_NAME",
           "REPORT_NAME", "NO_MEMORY_CGROUP", "KiB", "MiB", "GiB", "TiB"]
