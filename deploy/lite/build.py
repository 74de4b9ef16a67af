"""Build the course as a JupyterLite site: JupyterLab in the browser, nothing installed.

    python deploy/lite/build.py [--out build/lite] [--cache ~/.cache/puzzlekit-lite]

(`make lite` runs it with the checkout's .venv, which has nbgrader.) Everything comes from
the package registries and this checkout, and everything the site needs is in it, so it
works offline from any static web server:

* the student versions of the four assignments (nbgrader generate_assignment, in a copy
  of the course, as `make`'s other targets make them) and the lecture demos;
* JupyterLite (jupyterlite-core, jupyterlite-pyodide-kernel from PyPI) with the
  ipywidgets front end (jupyterlab_widgets) in a build environment of its own;
* Pyodide from npm (Python compiled to WebAssembly, without its packages), and the
  pure-Python wheels the kernel and the kit need, from PyPI: the ones Pyodide's own
  lock file names (IPython and its dependencies, micropip) at the lock's versions, and
  ipywidgets, jupyterlab_widgets and the kit's own wheel built from this checkout. The
  site's lock file lists exactly the wheels it ships, and the kernel loads the kit and
  ipywidgets when it starts, so `import puzzlekit` works in the first cell.

numpy and matplotlib have no WebAssembly wheel in the registries: in the browser a call
that needs one says so (puzzlekit/optional.py). The registries' downloads are kept in the
cache folder, so a second build needs no network and takes seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JUPYTERLITE = "0.8.6"
#: the Pyodide that jupyterlite-pyodide-kernel 0.8.6 is made for (its constants.py)
PYODIDE = "314.0.6"
#: the widgets: the same jupyterlab_widgets in the build (front end) and in the kernel
IPYWIDGETS = "8.1.9"
JUPYTERLAB_WIDGETS = "3.0.17"
#: what the kernel needs beyond Pyodide's lock, at these versions from PyPI
FROM_PYPI = {"ipywidgets": IPYWIDGETS, "jupyterlab-widgets": JUPYTERLAB_WIDGETS,
             "comm": "0.2.3"}
#: what the kernel loads from the site's lock when it starts (the kernel itself installs
#: ipykernel's and pyodide-kernel's wheels from jupyterlite-pyodide-kernel's folder)
PRELOAD = ["micropip", "ipython", "jedi", "comm", "ipywidgets", "puzzlekit"]
#: the kit's own demos; the assignments are every folder of notebooks/source
DEMOS = ROOT / "notebooks" / "demos"
#: the site's folders: the assignments' links to the demos say ../demos/NAME.ipynb, so the
#: demos' folder sits beside the assignments' (puzzlekit.course.demos)
ASSIGNMENTS_FOLDER = "assignments"
DEMOS_FOLDER = "demos"
#: the Pyodide files the site needs (the npm package also has consoles, maps and types)
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide.js", "package.json"]
#: a browser's Python: what the wheels' environment markers are evaluated against
BROWSER = {"sys_platform": "emscripten", "platform_system": "Emscripten",
           "python_version": "3.14", "python_full_version": "3.14.2",
           "implementation_name": "cpython", "platform_machine": "wasm32",
           "os_name": "posix", "extra": ""}


class BuildError(RuntimeError):
    """A step of the build failed; the message names the step and what it printed."""


def run(cmd: list[str], step: str, cwd: Path | None = None,
        env: dict[str, str] | None = None) -> str:
    """Run `cmd` with this environment (the certificates' variables included: the network
    may inspect TLS); its output, or BuildError naming `step` with the end of its output."""
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr)[-3000:]
        raise BuildError(f"{step} failed ({' '.join(cmd[:4])} ...):\n{tail}")
    return proc.stdout


def say(message: str, started: float) -> None:
    print(f"[lite {time.perf_counter() - started:6.1f} s] {message}", flush=True)


def normal(name: str) -> str:
    """A project name as package indexes compare them (PEP 503)."""
    return name.lower().replace("_", "-").replace(".", "-")


# ------------------------------------------------------------------ the registries' parts

def tools(cache: Path) -> Path:
    """The build environment (JupyterLite and the widgets' front end); its python."""
    venv = cache / f"tools-{JUPYTERLITE}-{JUPYTERLAB_WIDGETS}"
    python = venv / "bin" / "python"
    if not (venv / ".ready").exists():
        shutil.rmtree(venv, ignore_errors=True)
        run([sys.executable, "-m", "venv", str(venv)], "the build environment")
        run([str(python), "-m", "pip", "install", "--quiet",
             f"jupyterlite-core[contents]=={JUPYTERLITE}",
             f"jupyterlite-pyodide-kernel=={JUPYTERLITE}",
             f"jupyterlab_widgets=={JUPYTERLAB_WIDGETS}"], "pip install jupyterlite")
        (venv / ".ready").touch()
    return python


def pyodide(cache: Path) -> Path:
    """Pyodide's runtime from npm, in the cache: the folder with pyodide.mjs."""
    folder = cache / f"pyodide-{PYODIDE}"
    if not (folder / "pyodide-lock.json").exists():
        with tempfile.TemporaryDirectory() as tmp:
            run(["npm", "pack", f"pyodide@{PYODIDE}", "--silent"], "npm pack pyodide",
                cwd=Path(tmp))
            with tarfile.open(Path(tmp) / f"pyodide-{PYODIDE}.tgz") as tar:
                tar.extractall(tmp, filter="data")
            folder.mkdir(parents=True, exist_ok=True)
            for name in PYODIDE_FILES + ["pyodide-lock.json"]:
                shutil.copy2(Path(tmp) / "package" / name, folder / name)
    return folder


def download(cache: Path, name: str, version: str) -> Path:
    """The pure-Python wheel of `name`==`version` from PyPI, kept in the cache."""
    folder = cache / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    found = [w for w in folder.glob("*.whl") if wheel_name(w) == (normal(name), version)]
    if found:
        return found[0]
    with tempfile.TemporaryDirectory() as tmp:
        # for the browser's Python, whichever Python runs the build
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--python-version", BROWSER["python_version"],
             "--dest", tmp, f"{name}=={version}"],
            f"pip download {name}=={version}")
        wheels = list(Path(tmp).glob("*.whl"))
        if len(wheels) != 1 or not wheels[0].name.endswith("-none-any.whl"):
            raise BuildError(f"{name}=={version}: PyPI has no pure-Python wheel "
                             f"({[w.name for w in wheels]})")
        return Path(shutil.copy2(wheels[0], folder / wheels[0].name))


def wheel_name(wheel: Path) -> tuple[str, str]:
    """(normalised name, version) from a wheel's file name."""
    name, version = wheel.name.split("-")[:2]
    return normal(name), version


def kit_wheel(dest: Path) -> Path:
    """The kit's own wheel, built from this checkout (no dependencies fetched)."""
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(dest), str(ROOT)], "pip wheel . (the kit)")
    (wheel,) = dest.glob("puzzlekit-*.whl")
    return wheel


# ------------------------------------------------------------------------ the lock file

def metadata(wheel: Path) -> tuple[list[str], list[str]]:
    """(Requires-Dist lines, top-level import names) of a wheel."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
        requires = [line.split(":", 1)[1].strip() for line in
                    z.read(meta).decode().splitlines() if line.startswith("Requires-Dist:")]
    tops = sorted({n.split("/")[0].removesuffix(".py") for n in names
                   if not n.split("/")[0].endswith((".dist-info", ".data"))
                   and (n.endswith("/__init__.py") or "/" not in n and n.endswith(".py"))})
    return requires, tops


def needed(requires: list[str]) -> list[str]:
    """The normalised names a browser's Python must have for these requirements."""
    from packaging.requirements import Requirement
    out = []
    for line in requires:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(BROWSER):
            out.append(normal(req.name))
    return out


def entry(wheel: Path, depends: list[str]) -> dict[str, object]:
    """A lock-file entry for a pure-Python wheel the site ships."""
    name, version = wheel_name(wheel)
    return {"name": name, "version": version, "file_name": wheel.name,
            "install_dir": "site", "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package", "imports": metadata(wheel)[1], "depends": depends,
            "unvendored_tests": False}


def site_lock(cache: Path, lock: dict, out: Path, extra: list[Path]) -> dict:
    """The site's lock file: the packages `PRELOAD` needs, each with its wheel in `out`,
    from Pyodide's lock (at its versions) or `FROM_PYPI`, wheels from PyPI, or from
    `extra` (the kit's own wheel); a BuildError
    naming any requirement that nothing here provides."""
    packages = {normal(k): v for k, v in lock["packages"].items()}
    ours = {wheel_name(w)[0]: w for w in extra}
    # ipywidgets names widgetsnbextension (the classic Notebook's front end), which the
    # browser does not need: the kernel's own folder has a stand-in for micropip
    provided_elsewhere = {"widgetsnbextension"}
    chosen: dict[str, dict[str, object]] = {}
    todo = list(PRELOAD)
    while todo:
        name = normal(todo.pop())
        if name in chosen or name in provided_elsewhere:
            continue
        if name in ours:
            wheel = shutil.copy2(ours[name], out / ours[name].name)
            depends = needed(metadata(Path(wheel))[0])
        elif name in FROM_PYPI:
            wheel = shutil.copy2(download(cache, name, FROM_PYPI[name]), out)
            depends = needed(metadata(Path(wheel))[0])
        elif name in packages and packages[name]["file_name"].endswith("-none-any.whl"):
            spec = packages[name]
            wheel = shutil.copy2(download(cache, spec["name"], spec["version"]), out)
            depends = [normal(d) for d in spec["depends"]]
        else:
            why = ("a compiled package: the registries have no WebAssembly wheel"
                   if name in packages else "not in Pyodide's lock nor built here")
            raise BuildError(f"the site cannot provide {name!r} ({why})")
        depends = [d for d in depends if d not in provided_elsewhere]
        chosen[name] = entry(Path(wheel), depends)
        todo += depends
    return {"info": lock["info"], "packages": dict(sorted(chosen.items()))}


# --------------------------------------------------------------------------- the content

def student_notebooks(dest: Path) -> list[Path]:
    """The student version of every assignment (nbgrader generate_assignment in a copy of
    the course; the model solutions were checked by the course's own targets)."""
    assignments = sorted(p.name for p in (ROOT / "notebooks" / "source").iterdir()
                         if p.is_dir() and not p.name.startswith("."))
    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp)
        shutil.copytree(ROOT / "notebooks" / "source", course / "source",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        shutil.copy2(ROOT / "notebooks" / "nbgrader_config.py", course)
        run([sys.executable, str(Path(__file__).with_name("release.py")), *assignments],
            "nbgrader generate_assignment", cwd=course,
            env={"PUZZLEKIT_COURSE_ROOT": str(course)})
        out = []
        for a in assignments:
            for nb in sorted((course / "release" / a).glob("*.ipynb")):
                out.append(Path(shutil.copy2(nb, dest / nb.name)))
    return out


def lay_out(contents: Path,
            student_versions: Callable[[Path], list[Path]] = student_notebooks) -> list[Path]:
    """The site's files in `contents`: the student versions in assignments/ and the demos
    in demos/ beside it; the assignments' notebooks."""
    (contents / ASSIGNMENTS_FOLDER).mkdir(parents=True)
    notebooks = student_versions(contents / ASSIGNMENTS_FOLDER)
    shutil.copytree(DEMOS, contents / DEMOS_FOLDER,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return notebooks


def lite_config(dest: Path) -> None:
    """jupyter-lite.json and overrides.json of the site: the kernel offline (no PyPI, the
    kit preloaded), no news pop-up, the file browser on the course."""
    settings = {"@jupyterlite/pyodide-kernel-extension:kernel": {
        "disablePyPIFallback": True,
        "loadPyodideOptions": {"packages": PRELOAD}}}
    (dest / "jupyter-lite.json").write_text(json.dumps({
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {"appName": "puzzlekit", "litePluginSettings": settings}},
        indent=2))
    # every cell drawn, not only those on screen: a search's output stays in the page (and
    # in a screen reader's reach) when it scrolls out of sight
    (dest / "overrides.json").write_text(json.dumps({
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                         "checkForUpdates": False},
        "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}, indent=2))


def build(out: Path, cache: Path) -> dict[str, object]:
    """Build the site into `out` (replaced); a summary of what it holds."""
    started = time.perf_counter()
    cache.mkdir(parents=True, exist_ok=True)
    python = tools(cache)
    say("build environment ready", started)
    runtime = pyodide(cache)
    say(f"Pyodide {PYODIDE} ready", started)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "lite"
        (work / "static" / "pyodide").mkdir(parents=True)
        for name in PYODIDE_FILES:
            shutil.copy2(runtime / name, work / "static" / "pyodide" / name)
        extra = [kit_wheel(Path(tmp) / "kit")]
        lock = site_lock(cache, json.loads((runtime / "pyodide-lock.json").read_text()),
                         work / "static" / "pyodide", extra)
        (work / "static" / "pyodide" / "pyodide-lock.json").write_text(json.dumps(lock))
        say(f"{len(lock['packages'])} wheels: {', '.join(lock['packages'])}", started)
        contents = Path(tmp) / "contents"
        notebooks = lay_out(contents)
        say(f"student versions of {len(notebooks)} assignments", started)
        lite_config(work)
        staging = Path(tmp) / "site"
        run([str(python), "-m", "jupyter", "lite", "build", "--lite-dir", str(work),
             "--contents", str(contents), "--output-dir", str(staging), "--no-sourcemaps"],
            "jupyter lite build", cwd=work)
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(staging, out)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    summary = {"site": str(out), "bytes": size, "seconds": round(time.perf_counter() - started, 1),
               "wheels": sorted(lock["packages"]),
               "notebooks": [f"{ASSIGNMENTS_FOLDER}/{n.name}" for n in notebooks]
               + [f"{DEMOS_FOLDER}/{p.name}"
                  for p in sorted((out / "files" / DEMOS_FOLDER).glob("*.ipynb"))]}
    (out / "puzzlekit-lite.json").write_text(json.dumps(summary, indent=2))
    say(f"the site: {out} ({size / 1e6:.1f} MB)", started)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lite",
                        help="where the site goes (replaced; default build/lite)")
    parser.add_argument("--cache", type=Path,
                        default=Path(os.environ.get("PUZZLEKIT_LITE_CACHE",
                                                    Path.home() / ".cache" / "puzzlekit-lite")),
                        help="the registries' downloads and the build environment")
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve(), args.cache.resolve())
    except BuildError as e:
        print(f"make lite: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
