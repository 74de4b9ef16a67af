"""The wall's self-check, run behind the wall: ``python -m puzzlekit.autograder.wall --check``
starts this file by its path with a JSON object of parameters (the paths, ports and limits
to try), and it prints ``{check: [outcome, errno name, detail]}`` as JSON.

Each check is one thing a student's code might try (read a course file, write into the
package, connect to the grader, outlive the kernel, exceed a limit); `check` in
`puzzlekit.autograder.wall` compares the outcomes with what the wall promises. The file
imports only the standard library: importing puzzlekit is itself one of the checks.
"""

import errno
import json
import os
import signal
import socket
import subprocess
import sys
import threading

p: dict = {}
out: dict = {}


def run(name, fn):
    try:
        out[name] = ["ok", str(fn())[:80]]
    except BaseException as exc:
        code = errno.errorcode.get(getattr(exc, "errno", None) or 0, "")
        out[name] = [type(exc).__name__, code, str(exc)[:160]]


def write(path):
    with open(path, "x") as f:
        f.write("walled code was here\n")
    return "written"


def connect(family, address):
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(3)
        s.connect(address)
    return "connected"


def big_file():
    fd = os.open(os.path.join(p["scratch"], "big.bin"), os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        data, done = b"\0" * (p["file_size"] + 4096), 0
        while done < len(data):
            done += os.write(fd, data[done:])
    finally:
        os.close(fd)
    return f"wrote {done} bytes"


def threads():
    threading.stack_size(256 * 1024)
    stop, started = threading.Event(), []
    try:
        for _ in range(p["processes"] + 8):
            t = threading.Thread(target=stop.wait)
            t.start()
            started.append(t)
    finally:
        stop.set()
        for t in started:
            t.join()
    return f"started {len(started)} threads"


def plot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig = plt.figure()
    plt.plot([1, 2, 3])
    fig.savefig(os.path.join(p["scratch"], "plot.png"))
    return matplotlib.__version__


def numpy():
    import numpy as np
    return int(np.arange(10).sum())


def widgets():
    import ipywidgets
    return ipywidgets.IntSlider(3).value


def puzzle():
    puzzlekit = __import__("puzzlekit")     # by name: whether it imports is the check
    return puzzlekit.goal_state(3)


def strangers():
    seen = [int(e) for e in os.listdir("/proc") if e.isdigit()]
    others = [pid for pid in seen if pid not in (1, os.getpid())]
    if not others:
        raise ProcessLookupError(errno.ESRCH, f"sees {len(seen)} processes: its own")
    return f"sees {len(others)} other processes"


def secrets_in_env():
    return [os.environ[name] for name in p["secret_env"]]


def fill_scratch():
    chunk, total, i = min(p["file_size"] - 1 if p["file_size"] else 1 << 26, 1 << 25), 0, 0
    data = b"\0" * chunk
    try:
        while total <= p["scratch_limit"] + (1 << 20):
            with open(os.path.join(p["scratch"], f"fill-{i}.bin"), "wb") as f:
                f.write(data)
            total, i = total + chunk, i + 1
    finally:
        for j in range(i + 1):
            try:
                os.remove(os.path.join(p["scratch"], f"fill-{j}.bin"))
            except OSError:
                pass
    return f"wrote {total} bytes"


def memory_whole():
    share = p["memory"] // 2 + (64 << 20)
    code = (f"import sys, time; b = bytearray({share}); print('held', flush=True); "
            "time.sleep(20)")
    kids = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
            for _ in range(3)]
    try:
        held = sum(k.stdout.readline().startswith(b"held") for k in kids)
    finally:
        for k in kids:
            k.kill()
            k.wait()
    if held == 3:
        return f"3 processes held {3 * share} bytes"
    raise OSError(errno.ENOMEM, f"{3 - held} of 3 were stopped")


def orphan():
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)",
                                      p["token"]])
        os._exit(0)
    os.waitpid(pid, 0)
    return "started"


def main() -> None:
    """Run every check that the parameters ask for; print the outcomes."""
    p.update(json.loads(sys.argv[1]))
    run("read a course file", lambda: open(p["course_file"]).read(10))
    run("list the course folder", lambda: os.listdir(p["course_dir"]))
    if p.get("shadow"):
        run("read /etc/shadow", lambda: open(p["shadow"]).read(10))
    run("read the grader's environment", lambda: open(f"/proc/{p['parent']}/environ").read(10))
    run("write into site-packages", lambda: write(p["site_file"]))
    run("write into the puzzlekit package", lambda: write(p["package_file"]))
    run("write into the grader's home", lambda: write(p["home_file"]))
    run("write into scratch", lambda: write(os.path.join(p["scratch"], "note.txt")))
    run("connect TCP to 127.0.0.1", lambda: connect(socket.AF_INET, ("127.0.0.1", p["tcp_port"])))
    run("connect a Unix socket outside scratch", lambda: connect(socket.AF_UNIX, p["unix"]))
    run("connect an abstract Unix socket", lambda: connect(socket.AF_UNIX, "\0" + p["abstract"]))
    run("signal the grader", lambda: os.kill(p["parent"], 0))
    run("see processes outside the wall", strangers)
    run("read a secret-looking variable", secrets_in_env)
    run("import puzzlekit", puzzle)
    run("import numpy", numpy)
    run("import matplotlib (Agg)", plot)
    run("import ipywidgets", widgets)
    if p["scratch_limit"]:
        run("fill the scratch beyond its limit", fill_scratch)
    if p["memory_cgroup"] and p["memory"]:
        run("hold 1.5x the memory limit in 3 processes", memory_whole)
    run("start a process that outlives the kernel", orphan)
    # last: these exhaust limits (threads leave malloc arenas that count against RLIMIT_AS)
    if p["memory"]:
        run("allocate above the memory limit", lambda: len(bytearray(p["memory"] + (256 << 20))))
    if p["file_size"]:
        run("write a file above the size limit", big_file)
    if p["processes"]:
        run("start threads above the process limit", threads)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
