"""The class server's set-up on one machine: roster, Unix users, exchange, courses, config.

`make hub` runs this (as root) before it starts JupyterHub, and `jupyterhub_config.py`
reads what it wrote. Standard library only: it also runs under the Python that builds the
class environment (`check-python`).

    python deploy/hub/classroom.py check-python             # can every user run this Python?
    python deploy/hub/classroom.py check-env --env ENV      # ... and the class environment?
    python deploy/hub/classroom.py setup --env ENV --state STATE --roster roster.csv ...
    python deploy/hub/classroom.py exchange --exchange DIR --course-id ID --instructor NAME

What `setup` does for the course it names (`--course-id`, default `puzzlekit`), idempotently;
the hub's other courses, set up by earlier runs with other ids, are kept:

- every roster user (`username,role,first_name,last_name,email`; role `instructor` or
  `student`, exactly one instructor) becomes a Unix user with a private home (mode 0700);
  a user it creates gets a random password, written to STATE/initial-passwords.csv
  (mode 0600) for the instructor to hand out (the hub logs in with PAM). A student may be
  on the rosters of several courses; an instructor teaches one course and studies none;
- the exchange folder, mode 1777 (everyone may add, nobody may remove another's entry),
  one for all the hub's courses (nbgrader keeps each course under `<exchange>/<id>/`),
  and in it every course's folders, made before any student can make them and owned by
  the course's instructor (`make_course_exchange`: `<id>` and `<id>/outbound` 755,
  `<id>/inbound` 2733, `<id>/feedback` 711); a folder a student made there first is moved
  aside, into a folder only root can open, and named;
- the course root, `~INSTRUCTOR/COURSE_ID`, owned by the instructor, mode 0700: a copy
  of the course's `source/` and `nbgrader_config.py`, made once (never overwritten), and
  of its `demos/` (the demos it lacks);
- the lecture demos of each of a student's courses (the course root's `demos/`) in the
  student's home, where the assignments' links (`../demos/NAME.ipynb`) point from the
  folder a fetch makes: `~/demos` for a student of one course (assignments in
  `~/ASSIGNMENT`), `~/COURSE/demos` for a student of several; a demo already there
  (perhaps changed) is kept;
- the Jupyter config of each person in STATE/jupyter (the spawner points
  JUPYTER_CONFIG_PATH there): students get the exchange, no formgrader and no Create
  Assignment panel, and the course id of their one course; a student of several courses
  gets no course id but nbgrader's set-up for several courses (each course's assignments
  in `~/COURSE/ASSIGNMENT`, and only the courses of their JupyterHub groups listed);
  every student's fetch and submit use only folders of the course's instructor; each
  instructor's nbgrader loads their course's config and refuses, at collect, a submission
  filed under another student's name or under a name that is not the course's student;
- each person's share of the machine (`Limits`, hub.json's `limits`): the spawner starts
  every server through `serverwall.py` (cgroups, a PID namespace with its own /proc,
  private /dev/shm and /tmp); and every roster user's home on a volume of its own of
  `--disk` bytes (STATE/volumes/USER.ext4, a loop-mounted ext4 file: a disk quota that
  needs no quota support from the kernel), mounted again by each `make hub`;
- STATE/hub.json, the settings `jupyterhub_config.py` reads (everyone's names and
  e-mails: root only, mode 0600); STATE/hub (mode 0700) holds the hub's database and
  cookie secret; STATE itself is mode 0711 (the students' Jupyter config in STATE/jupyter
  is theirs to read, nothing else of it to list).
"""

from __future__ import annotations

import argparse
import csv
import grp
import json
import os
import pwd
import re
import secrets
import shutil
import stat
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROLES = ("instructor", "student")
USERNAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
SETTINGS_FILE = "hub.json"
VOLUMES = "volumes"             #: STATE's folder of the homes' volumes (root only)
PASSWORDS_FILE = "initial-passwords.csv"
#: lab extensions of nbgrader that students do not get (the instructor's tools)
STUDENT_DISABLED_LAB = ("@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment")
STUDENT_DISABLED_SERVER = ("nbgrader.server_extensions.formgrader",)


class SetupError(Exception):
    """A problem with the roster, the machine or the environment, said in one message."""


@dataclass(frozen=True)
class Person:
    username: str
    role: str
    first_name: str = ""
    last_name: str = ""
    email: str = ""


def read_roster(path: str | os.PathLike[str]) -> list[Person]:
    """The class from a CSV roster; refuses bad names, unknown roles, not one instructor."""
    path = Path(path)
    if not path.is_file():
        raise SetupError(f"no roster at {path}: copy deploy/hub/roster.example.csv and edit it")
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    people: list[Person] = []
    for n, row in enumerate(rows, start=2):
        name = (row.get("username") or "").strip()
        role = (row.get("role") or "").strip().lower()
        if not USERNAME.match(name):
            raise SetupError(f"{path}:{n}: {name!r} is not a usable Unix user name "
                             "(lower-case letters, digits, '_' or '-', at most 32, no '+')")
        if role not in ROLES:
            raise SetupError(f"{path}:{n}: role {role!r} of {name} is not one of {ROLES}")
        people.append(Person(name, role, *((row.get(k) or "").strip()
                                           for k in ("first_name", "last_name", "email"))))
    names = [p.username for p in people]
    if len(set(names)) != len(names):
        raise SetupError(f"{path}: a user name appears twice")
    instructors = [p for p in people if p.role == "instructor"]
    if len(instructors) != 1:
        raise SetupError(f"{path}: the roster must name exactly one instructor (the owner of "
                         f"the course), not {len(instructors)}")
    return people


#: what nbgrader takes as a course id (a folder of the exchange, a JupyterHub group's suffix)
COURSE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
#: JupyterHub's default scopes of a server's API token, and what nbgrader's JupyterHub
#: plugin needs besides: the user's own name and groups (a student's courses)
SERVER_TOKEN_SCOPES = ("users:activity!user", "access:servers!server", "read:users:name!user",
                       "read:users:groups!user")
#: the Content-Security-Policy of every user server: no page of it in a frame (JupyterHub's
#: own default, kept), no plugins, no <base> pointing elsewhere; JupyterLab runs under it
SERVER_CSP = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'"


#: the jupyter_server_config.py of every role's config folder (first on JUPYTER_CONFIG_PATH,
#: which no student can write): JupyterHub refuses a cookie-only websocket only when the
#: browser says `Sec-Fetch-Mode: websocket`, which Chromium does not send on a websocket's
#: handshake (seen: a page of another user typed into a terminal with the option on); this
#: refuses the cookie on every request that asks for a websocket (`Upgrade: websocket`)
SERVER_WALLS_CONFIG = '''"""The hub's same-origin wall (written by deploy/hub/classroom.py): a websocket
to this server (a kernel, a terminal) needs the server's token, never the hub's cookie
alone, which a page of another user at the hub's origin would send."""
from jupyterhub.services.auth import HubOAuth

_token_cookie, _token_url = HubOAuth._get_token_cookie, HubOAuth._get_token_url


def _websocket(handler):
    return handler.request.headers.get("Upgrade", "").lower() == "websocket"


def _no_cookie_on_websockets(self, handler):
    return None if _websocket(handler) else _token_cookie(self, handler)


def _token_on_websockets(self, handler):
    return handler.get_argument("token", "") if _websocket(handler) else _token_url(
        self, handler)


HubOAuth._get_token_cookie = _no_cookie_on_websockets
HubOAuth._get_token_url = _token_on_websockets
'''


#: JupyterLab's page config: its websockets carry the server's token (which the page has),
#: else it sends them with the cookie alone, as it does by default on the page's own host
LAB_TOKEN = {"appendToken": "true"}


def server_args() -> list[str]:
    """The command-line options the spawner gives every user server. The command line
    wins over every config file, a student's own ~/.jupyter one included: her server
    accepts websockets (kernels, terminals) only with its token (which JupyterLab sends),
    never on the hub's cookie alone, so a page of another user at the hub's origin opens
    none of hers; and every page it serves carries SERVER_CSP and nosniff."""
    settings = {"headers": {"Content-Security-Policy": SERVER_CSP,
                            "X-Content-Type-Options": "nosniff"}}
    return ["--HubOAuth.allow_websocket_cookie_auth=False",
            f"--ServerApp.tornado_settings={json.dumps(settings)}"]


def subdomain_host(domain: str, port: int, *, tls: bool) -> str:
    """JupyterHub's `subdomain_host` for `make hub HUB_DOMAIN=domain` ('' for none): a
    full URL as given (`https://hub.example.edu`, behind your HTTPS proxy), else the hub's
    own scheme and port (`localhost` -> `http://localhost:8000`, users at
    `http://alice.localhost:8000`, which Chromium resolves to this machine)."""
    domain = domain.strip().rstrip("/")
    if not domain or "://" in domain:
        return domain
    if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?", domain):
        raise SetupError(f"HUB_DOMAIN={domain!r} is not a domain name (like example.edu)")
    scheme = "https" if tls else "http"
    default = 443 if tls else 80
    return f"{scheme}://{domain}" + ("" if port == default else f":{port}")


#: nbgrader's plugin that asks JupyterHub which courses a student is in (their groups)
HUB_AUTH_PLUGIN = "nbgrader.auth.JupyterHubAuthPlugin"
#: a course's folders in the exchange ('' the course's own) and their modes, all owned by
#: its instructor: puzzlekit.course.exchange_owners.COURSE_FOLDERS, which every release,
#: fetch, submit and collect checks (tests/test_classroom.py keeps the two equal)
EXCHANGE_FOLDERS = {"": 0o755, "outbound": 0o755, "inbound": 0o2733, "feedback": 0o711}
#: the students' exchange steps that check those folders' owner (and refresh their marks)
STUDENT_EXCHANGE = {
    "fetch_assignment": "puzzlekit.course.term_view.FetchAssignment",
    "fetch_feedback": "puzzlekit.course.term_view.FetchFeedback",
    "submit": "puzzlekit.course.exchange_owners.CheckedSubmit",
}


@dataclass
class Course:
    """One course on the hub: its id, its root (the instructor's), its people."""
    course_id: str
    course_root: str
    instructor: str
    students: list[str]
    people: list[dict[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Limits:
    """Each person's share of the class server (hub.json's `limits`; 0: not limited)."""
    memory: int = 2 << 30       #: bytes of memory (and swap) of all their processes
    processes: int = 512        #: tasks (processes and threads) at once
    shm: int = 256 << 20        #: bytes of their private /dev/shm
    tmp: int = 512 << 20        #: bytes of their private /tmp (and /var/tmp)
    cpus: float = 1.0           #: cores' worth of CPU time at most
    disk: int = 2 << 30         #: bytes of their home's volume

    def launcher_args(self) -> list[str]:
        """serverwall.py's options for these limits (the disk is the home's volume)."""
        return [f"--memory={self.memory}", f"--processes={self.processes}",
                f"--shm={self.shm}", f"--tmp={self.tmp}", f"--cpus={self.cpus}"]


@dataclass
class Settings:
    """What `jupyterhub_config.py` needs, written by `setup` into STATE/hub.json."""
    env: str
    state: str
    exchange: str
    courses: list[Course]
    ip: str = "0.0.0.0"
    port: int = 8000
    hub_port: int = 8081
    proxy_api_port: int = 8001
    authenticator: str = "pam"
    limits: Limits = field(default_factory=Limits)

    def course(self, course_id: str) -> Course:
        for c in self.courses:
            if c.course_id == course_id:
                return c
        raise SetupError(f"the hub has no course {course_id!r} (it has "
                         f"{', '.join(c.course_id for c in self.courses)})")

    @property
    def usernames(self) -> list[str]:
        """Everyone who may log in: the instructors and students of every course."""
        return sorted({u for c in self.courses for u in (c.instructor, *c.students)})

    @property
    def admins(self) -> list[str]:
        """The hub's admins: the instructor of a hub with one course. An admin may open
        everyone's server, so on a hub with several courses no instructor is one (each
        would reach the other courses' roots through their instructors' servers)."""
        return [self.courses[0].instructor] if len(self.courses) == 1 else []

    def instructor_of(self, username: str) -> Course | None:
        return next((c for c in self.courses if c.instructor == username), None)

    def courses_of(self, username: str) -> list[Course]:
        """The courses `username` is a student of."""
        return [c for c in self.courses if username in c.students]

    def role(self, username: str) -> str:
        return "instructor" if self.instructor_of(username) else "student"

    def groups(self) -> dict[str, dict[str, list[str]]]:
        """JupyterHub's groups as nbgrader names them: `formgrade-<id>` (the instructor)
        and `nbgrader-<id>` (the students) of each course."""
        out: dict[str, dict[str, list[str]]] = {}
        for c in self.courses:
            out[f"formgrade-{c.course_id}"] = {"users": [c.instructor]}
            out[f"nbgrader-{c.course_id}"] = {"users": list(c.students)}
        return out

    def config_dirs(self, username: str) -> list[str]:
        """The Jupyter config folders of `username`, the first one winning."""
        jupyter = Path(self.state) / "jupyter"
        course = self.instructor_of(username)
        if course:
            return [str(jupyter / "instructor-of" / course.course_id)]
        mine = self.courses_of(username)
        first = (jupyter / "student-of" / mine[0].course_id if len(mine) == 1
                 else jupyter / "student-of-several")
        return [str(first), str(jupyter / "student")]

    def server_env(self, username: str) -> dict[str, str]:
        """What the spawner adds to the environment of `username`'s server (and so of
        their JupyterLab's terminals): their config, the exchange, and the course id of
        an instructor or of a student of one course."""
        env = {"JUPYTER_CONFIG_PATH": os.pathsep.join(self.config_dirs(username)),
               "PUZZLEKIT_EXCHANGE": self.exchange}
        course = self.instructor_of(username)
        mine = [course] if course else self.courses_of(username)
        if len(mine) == 1:
            # the course's nbgrader_config.py takes its id from here (course_settings)
            env["PUZZLEKIT_COURSE_ID"] = mine[0].course_id
        return env


def load_settings(state: str | os.PathLike[str]) -> Settings:
    path = Path(state) / SETTINGS_FILE
    if not path.is_file():
        raise SetupError(f"{path} is missing: run `make hub` (or classroom.py setup) first")
    data = json.loads(path.read_text())
    if "courses" not in data:       # written before the hub held several courses
        data["courses"] = [{k: data.pop(k) for k in
                            ("course_id", "course_root", "instructor", "students", "people")}]
    data["courses"] = [Course(**c) for c in data["courses"]]
    data["limits"] = Limits(**data.get("limits", {}))
    return Settings(**data)


# ---------------------------------------------------------------------------- checks

def _unreadable_component(path: Path, need_read: bool) -> str | None:
    """The first ancestor of `path` (or itself) that other users cannot traverse/read."""
    parts = [path, *path.parents]
    for p in reversed(parts):
        try:
            mode = p.stat().st_mode
        except OSError as e:
            return f"{p} cannot be read ({e.strerror})"
        if stat.S_ISDIR(mode) and not mode & stat.S_IXOTH:
            return f"{p} is not traversable by other users (mode {stat.S_IMODE(mode):o})"
    mode = path.stat().st_mode
    if need_read and not mode & stat.S_IROTH:
        return f"{path} is not readable by other users (mode {stat.S_IMODE(mode):o})"
    return None


def python_problem(python: str | os.PathLike[str]) -> str | None:
    """Why users other than root could not run this Python (its binary or library), if so."""
    exe = Path(python).resolve()
    lib = Path(subprocess.run([str(exe), "-c", "import os, sysconfig; "
                               "print(os.path.dirname(sysconfig.get_path('stdlib')))"],
                              capture_output=True, text=True, check=True).stdout.strip())
    for p in (exe, lib):
        problem = _unreadable_component(p, need_read=True)
        if problem:
            return (f"every user's server runs this Python as that user, but {problem}. "
                    "Build the class environment with a Python that all users can run, "
                    "e.g. `make hub HUB_PYTHON=/usr/bin/python3` (Debian: apt-get install "
                    "python3-venv)")
    return None


def env_problems(env: str | os.PathLike[str]) -> list[str]:
    """What keeps the class environment from serving every user (empty when all is well)."""
    env = Path(env)
    problems = []
    needed = [env / "bin" / "jupyterhub", env / "bin" / "jupyterhub-singleuser",
              env / "bin" / "nbgrader", env / "node_modules" / ".bin" / "configurable-http-proxy"]
    for exe in needed:
        if not exe.exists():
            problems.append(f"{exe} is missing: run `make hub-env HUB_ENV={env}`")
    if problems:
        return problems
    python = env / "bin" / "python"
    p = python_problem(python)
    if p:
        problems.append(p)
    for path in (env / "bin" / "jupyterhub-singleuser", env / "pyvenv.cfg"):
        p = _unreadable_component(path, need_read=True)
        if p:
            problems.append(f"students could not start their servers: {p}")
    code = ("import puzzlekit, nbgrader, jupyterlab, os; "
            "print(os.path.dirname(puzzlekit.__file__))")
    done = subprocess.run([str(python), "-I", "-c", code], capture_output=True, text=True,
                          cwd="/")
    if done.returncode:
        problems.append(f"the kit does not import in {env}: {done.stderr.strip()[-300:]}")
    else:
        kit = Path(done.stdout.strip())
        p = _unreadable_component(kit / "__init__.py", need_read=True)
        if p:
            problems.append(f"the notebooks import puzzlekit, but {p}")
        elif not str(kit).startswith(str(env)):
            problems.append(f"puzzlekit is imported from {kit}, outside the class "
                            "environment (an editable install?): students would read the "
                            "checkout; run `make hub-env`")
    return problems


# ---------------------------------------------------------------------------- users

def system_tool(name: str) -> str:
    """The path of a system program (useradd, chpasswd, runuser ...), also in the sbin
    folders a plain PATH lacks."""
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
    found = shutil.which(name, path=path)
    if not found:
        raise SetupError(f"`{name}` is not on this machine: the class server needs it to make "
                         "users (Debian: the passwd and util-linux packages)")
    return found


def user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def create_user(person: Person, home_base: str | None, comment: str) -> bool:
    """Make the Unix user if missing (True if made); its home is private either way."""
    made = False
    if not user_exists(person.username):
        cmd = [system_tool("useradd"), "--create-home", "--user-group", "--shell", "/bin/bash",
               "--comment", comment or f"{person.first_name} {person.last_name}".strip()]
        if home_base:
            cmd += ["--base-dir", home_base]
        done = subprocess.run([*cmd, person.username], capture_output=True, text=True)
        if done.returncode:
            raise SetupError(f"useradd {person.username} failed: {done.stderr.strip()}")
        made = True
    os.chmod(pwd.getpwnam(person.username).pw_dir, 0o700)
    return made


def set_password(name: str, password: str) -> None:
    done = subprocess.run([system_tool("chpasswd")], input=f"{name}:{password}\n", capture_output=True,
                          text=True)
    if done.returncode:
        raise SetupError(f"chpasswd for {name} failed: {done.stderr.strip()}")


def chown_tree(root: Path, user: str) -> None:
    pw = pwd.getpwnam(user)
    for folder, dirs, files in os.walk(root):
        os.chown(folder, pw.pw_uid, pw.pw_gid)
        for f in files:
            os.chown(os.path.join(folder, f), pw.pw_uid, pw.pw_gid)


# ---------------------------------------------------------------------------- config files

def student_nbgrader_config(exchange: str, instructors: dict[str, str] | None = None) -> str:
    """Every student's nbgrader config: the exchange, and each course's instructor, whose
    folders alone their fetch and submit use."""
    return ('"""nbgrader for every student of the class (written by '
            'deploy/hub/classroom.py)"""\nc = get_config()  # noqa: F821\n'
            f"c.Exchange.root = {exchange!r}\n"
            "c.Validator.width = 110  # the Validate button: the kit's lines uncut\n"
            "# Fetch and Fetch Feedback also refresh marks-<course>.html: due dates, marks;\n"
            "# fetch and submit use only the folders of the course's instructor (below)\n"
            + "".join(f"c.ExchangeFactory.{k} = {v!r}\n" for k, v in STUDENT_EXCHANGE.items())
            + f"c.ExchangeOwners.instructors = {dict(sorted((instructors or {}).items()))!r}\n")


def one_course_nbgrader_config(course_id: str) -> str:
    return (f'"""nbgrader for the students of {course_id} only (written by '
            'deploy/hub/classroom.py)"""\nc = get_config()  # noqa: F821\n'
            f"c.CourseDirectory.course_id = {course_id!r}\n")


def several_courses_nbgrader_config() -> str:
    return f'''"""nbgrader for students of several courses (written by deploy/hub/classroom.py).

nbgrader's set-up for several courses on one JupyterHub: no course id of its own, each
course's assignments in their own folder (~/COURSE/ASSIGNMENT: two courses may both have
an assignment of one name), and JupyterHub's groups (nbgrader-COURSE) say which courses
are this student's: the Assignments tab and `nbgrader list` show only those.
"""
c = get_config()  # noqa: F821
c.Exchange.path_includes_course = True
c.Authenticator.plugin_class = {HUB_AUTH_PLUGIN!r}
'''


def instructor_nbgrader_config(course_id: str, course_root: str, exchange: str) -> str:
    return f'''"""nbgrader for the instructor of {course_id} (written by deploy/hub/classroom.py).

The course's own settings (stubs, timeouts, the wall, hidden-test stripping) come from its
nbgrader_config.py, so the formgrader and `nbgrader` find the course from any folder.
"""
c = get_config()  # noqa: F821
load_subconfig({str(Path(course_root) / "nbgrader_config.py")!r})  # noqa: F821
c.CourseDirectory.course_id = {course_id!r}
c.Exchange.root = {exchange!r}
# collect takes only the course's students (its gradebook, filled from the roster): the
# hub's courses share the exchange, and anyone may file work under any course's name
c.OwnerCheckedCollect.students_only = True
'''


def write_role_configs(state: Path, settings: Settings) -> None:
    """Every folder of STATE/jupyter (see Settings.config_dirs), written anew, then put in
    place of the old ones."""
    new = state / "jupyter.new"
    shutil.rmtree(new, ignore_errors=True)
    student = new / "student"
    (student / "labconfig").mkdir(parents=True)
    (student / "nbgrader_config.py").write_text(student_nbgrader_config(
        settings.exchange, {c.course_id: c.instructor for c in settings.courses}))
    (student / "jupyter_server_config.py").write_text(SERVER_WALLS_CONFIG)
    (student / "jupyter_server_config.json").write_text(json.dumps(
        {"ServerApp": {"jpserver_extensions": {e: False for e in STUDENT_DISABLED_SERVER}}},
        indent=1))
    (student / "labconfig" / "page_config.json").write_text(json.dumps(
        {"disabledExtensions": {e: True for e in STUDENT_DISABLED_LAB}, **LAB_TOKEN},
        indent=1))
    (new / "student-of-several").mkdir()
    (new / "student-of-several" / "nbgrader_config.py").write_text(
        several_courses_nbgrader_config())
    for c in settings.courses:
        one = new / "student-of" / c.course_id
        one.mkdir(parents=True)
        (one / "nbgrader_config.py").write_text(one_course_nbgrader_config(c.course_id))
        teacher = new / "instructor-of" / c.course_id
        teacher.mkdir(parents=True)
        (teacher / "jupyter_server_config.py").write_text(SERVER_WALLS_CONFIG)
        (teacher / "labconfig").mkdir()
        (teacher / "labconfig" / "page_config.json").write_text(json.dumps(LAB_TOKEN))
        (teacher / "nbgrader_config.py").write_text(
            instructor_nbgrader_config(c.course_id, c.course_root, settings.exchange))
    for folder, dirs, files in os.walk(new):
        os.chmod(folder, 0o755)
        for f in files:
            os.chmod(os.path.join(folder, f), 0o644)
    current, old = state / "jupyter", state / "jupyter.old"
    shutil.rmtree(old, ignore_errors=True)
    if current.exists():
        current.rename(old)
    new.rename(current)
    shutil.rmtree(old, ignore_errors=True)


# ---------------------------------------------------------------------------- the exchange

def make_exchange_root(exchange: Path) -> list[str]:
    """The exchange folder, mode 1777 (everyone may add, nobody may remove another's
    entry); as root, owned by root. Returns what to tell the person setting up."""
    if exchange.is_symlink():
        raise SetupError(f"the exchange {exchange} is a symbolic link: make it a folder "
                         f"(EXCHANGE= names another place)")
    exchange.mkdir(parents=True, exist_ok=True)
    notes = []
    st = os.lstat(exchange)
    if os.geteuid() == 0 and st.st_uid != 0:
        notes.append(f"the exchange {exchange} belonged to {user_name(st.st_uid)}: it is "
                     f"root's now (its owner may remove anyone's entries)")
        os.chown(exchange, 0, 0)
    os.chmod(exchange, 0o1777)
    return notes


def user_name(uid: int) -> str:
    """The name of the user `uid` ('uid N' when it has none)."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def _give(path: Path, owner: pwd.struct_passwd, mode: int) -> None:
    """`path`, a folder (never a link followed), to `owner` with `mode`."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        if os.geteuid() == 0:
            os.fchown(fd, owner.pw_uid, owner.pw_gid)
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def move_aside(exchange: Path, path: Path, course_id: str, instructor: str,
               st: os.stat_result) -> str:
    """Move what someone else made at `path` into a new folder of the exchange that only
    root can open; returns the sentence that says so."""
    owner = user_name(st.st_uid)
    what = "a symbolic link" if stat.S_ISLNK(st.st_mode) else (
        "a folder" if stat.S_ISDIR(st.st_mode) else "a file")
    if os.geteuid() != 0:
        raise SetupError(f"{path} is {what} of {owner}, not of {course_id}'s instructor "
                         f"{instructor}: as root, run this again (it moves it aside)")
    aside = Path(tempfile.mkdtemp(prefix=f".moved-aside-{course_id}-", dir=exchange))
    os.rename(path, aside / path.name)
    return (f"{path} was {what} of {owner}, not of {course_id}'s instructor {instructor}: "
            f"someone may have tried to take the course's releases and submissions over. "
            f"It is moved aside into {aside} (only root can open it): look at it, then "
            f"delete it. The course's folders are made anew, {instructor}'s.")


def make_course_exchange(exchange: Path, course_id: str, instructor: str) -> list[str]:
    """Make the course's folders in the exchange (`EXCHANGE_FOLDERS`), owned by its
    instructor, before a student can make them; what a student made there before is moved
    aside (`move_aside`). Idempotent: the instructor's folders and what is in them are
    kept, with their modes set. Returns what to tell the person setting up."""
    if not COURSE_ID.match(course_id):
        raise SetupError(f"{course_id!r} is not a course id")
    try:
        owner = pwd.getpwnam(instructor)
    except KeyError:
        raise SetupError(f"{instructor} is no user of this machine (INSTRUCTOR=)") from None
    if os.geteuid() not in (0, owner.pw_uid):
        raise SetupError(f"only root or {instructor} can make {course_id}'s folders in the "
                         f"exchange for {instructor}: run it as root")
    notes: list[str] = []
    ours = (owner.pw_uid, 0)          # the instructor's, or made by root: given to them
    for name, mode in EXCHANGE_FOLDERS.items():
        path = exchange / course_id / name if name else exchange / course_id
        # the course's folder is in the exchange, where anyone adds entries: a student may
        # make it again between a look and a mkdir, so look, move aside, make, until ours
        for _ in range(5):
            st = _lstat(path)
            if st is not None and stat.S_ISDIR(st.st_mode) and st.st_uid in ours:
                break
            if st is not None:
                notes.append(move_aside(exchange, path, course_id, instructor, st))
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                continue
            break
        else:
            raise SetupError(f"{path} keeps being made by someone else: stop them, then run "
                             f"this again")
        # the course's folder first: once it is the instructor's (755), only they and root
        # can add the others
        _give(path, owner, mode)
    return notes


# ---------------------------------------------------------------------------- setup

def in_private_tmp(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is in /tmp or /var/tmp, which every server has of its own."""
    real = Path(path).resolve()
    return any(real == Path(t).resolve() or Path(t).resolve() in real.parents
               for t in ("/tmp", "/var/tmp"))


def check_course_people(course: Course, others: list[Course]) -> None:
    """Refuse what would mix two courses' roles: an instructor of two courses, or an
    instructor who is a student of another course (a person's server has one config)."""
    for other in others:
        if course.instructor == other.instructor:
            raise SetupError(
                f"{course.instructor} already teaches {other.course_id} on this hub: each "
                f"course needs an instructor account of its own (their formgrader serves one "
                f"course), e.g. {course.instructor}-{course.course_id}")
        for teacher, students, cid in ((course.instructor, other.students, other.course_id),
                                       (other.instructor, course.students, course.course_id)):
            if teacher in students:
                raise SetupError(f"{teacher} teaches a course of this hub and is on the roster "
                                 f"of {cid} as a student: use another account for one of the two")


def home_of(username: str) -> Path:
    return Path(pwd.getpwnam(username).pw_dir)


#: the demos' folder beside a student's fetched assignments (puzzlekit.course.demos)
DEMOS = "demos"


def demos_folder(settings: Settings, username: str, course_id: str, home: Path) -> Path:
    """Where the links `../demos/` of `course_id`'s assignments point in `username`'s
    home: beside the folders nbgrader's fetch makes (~/ASSIGNMENT for a student of one
    course, ~/COURSE/ASSIGNMENT for a student of several)."""
    several = len(settings.courses_of(username)) > 1
    return home / course_id / DEMOS if several else home / DEMOS


def hand_out_demos(demos: Path, dest: Path, owner: str | None = None) -> list[Path]:
    """Copy the notebooks of `demos` that `dest` lacks into it (a copy already there,
    which its student may have changed, is kept), owned by `owner` when given; the files
    copied."""
    missing = [p for p in sorted(demos.glob("*.ipynb")) if not (dest / p.name).exists()]
    if not missing:
        return []
    made = [d for d in (dest.parent, dest) if not d.exists()]
    dest.mkdir(parents=True, exist_ok=True)
    out = [Path(shutil.copyfile(p, dest / p.name)) for p in missing]
    if owner is not None:
        pw = pwd.getpwnam(owner)
        for path in [*made, *out]:
            os.chown(path, pw.pw_uid, pw.pw_gid)
    return out


def moved_work(settings: Settings, before: Settings | None,
               home: Callable[[str], Path] = home_of) -> list[str]:
    """What to tell students who are now in several courses and have work fetched where a
    student of one course has it (~/ASSIGNMENT): nbgrader now looks in ~/COURSE/ASSIGNMENT."""
    if before is None:
        return []
    notes = []
    for name in settings.usernames:
        now, then = settings.courses_of(name), before.courses_of(name)
        if settings.role(name) != "student" or len(now) < 2 or len(then) != 1:
            continue
        old = then[0].course_id
        outbound = Path(settings.exchange) / old / "outbound"
        released = sorted(p.name for p in outbound.iterdir()) if outbound.is_dir() else []
        fetched = [a for a in released if (home(name) / a).is_dir()]
        if fetched:
            notes.append(f"{name} is now in {len(now)} courses, so their assignments are "
                         f"fetched into ~/COURSE/ASSIGNMENT from the hub's next start; what "
                         f"they fetched of {old} ({', '.join(fetched)}) is in their home: "
                         f"they move it into ~/{old}/ before they submit it again")
    return notes


def setup(*, env: str, state: str, roster: str, course_source: str, exchange: str,
          course_id: str = "puzzlekit", ip: str = "0.0.0.0", port: int = 8000,
          hub_port: int = 8081, proxy_api_port: int = 8001, authenticator: str = "pam",
          home_base: str | None = None, comment: str = "",
          passwords: dict[str, str] | None = None, check_env: bool = True,
          limits: Limits = Limits()) -> Settings:
    """Make the course `course_id` on the hub (see the module's docstring), keeping the
    hub's other courses; returns the settings it wrote.

    passwords: user -> password to set (tests); otherwise a user made now gets a random one.
    check_env: False when the caller has just checked the class environment (`make`).
    """
    if os.geteuid() != 0:
        raise SetupError("the class set-up makes users and runs the hub as root: run it as root")
    if not COURSE_ID.match(course_id):
        raise SetupError(f"{course_id!r} is not a course id: use letters, digits, '-', '_' "
                         "and '.' (at most 64, starting with a letter or digit), e.g. 'ai-202'")
    problems = env_problems(env) if check_env else []
    if problems:
        raise SetupError("the class environment is not ready:\n- " + "\n- ".join(problems))
    if limits.tmp:
        hidden = [f"{what} {where}" for what, where in (("the state", state), ("the exchange",
                  exchange), ("the class environment", env), ("the homes", home_base or ""))
                  if where and in_private_tmp(where)]
        if hidden:
            raise SetupError(f"each person's server gets a /tmp of its own, which hides "
                             f"{', '.join(hidden)}: put them elsewhere (or --tmp 0)")
    people = read_roster(roster)
    instructor = next(p.username for p in people if p.role == "instructor")
    students = [p.username for p in people if p.role == "student"]
    state_dir = Path(state)
    before = load_settings(state_dir) if (state_dir / SETTINGS_FILE).is_file() else None
    ex = Path(exchange)
    if before and Path(before.exchange).resolve() != ex.resolve():
        raise SetupError(f"the courses of this hub share the exchange {before.exchange}: "
                         f"{course_id} cannot use {ex} (EXCHANGE=)")
    others = [c for c in before.courses if c.course_id != course_id] if before else []
    check_course_people(Course(course_id, "", instructor, students), others)
    state_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(state_dir, 0o711)          # STATE/jupyter is everyone's; nothing else to list
    for private in ("hub", VOLUMES):
        (state_dir / private).mkdir(exist_ok=True)
        os.chmod(state_dir / private, 0o700)
    if (state_dir / SETTINGS_FILE).exists():    # (a hub.json of earlier versions: 0644)
        os.chmod(state_dir / SETTINGS_FILE, 0o600)

    new_passwords: list[tuple[str, str]] = []
    for person in people:
        made = create_user(person, home_base, comment)
        if passwords and person.username in passwords:
            set_password(person.username, passwords[person.username])
        elif made and authenticator == "pam":
            pw = secrets.token_urlsafe(9)
            set_password(person.username, pw)
            new_passwords.append((person.username, pw))
    if new_passwords:
        path = state_dir / PASSWORDS_FILE
        fresh = not path.exists()
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "w") as f:
            if fresh:
                f.write("username,initial_password\n")
            f.writelines(f"{u},{p}\n" for u, p in new_passwords)
        print(f"classroom: {len(new_passwords)} new user(s); their first passwords are in "
              f"{path} (root only): hand them out, users change them with `passwd`")
    if limits.disk:     # this roster's people, and (after a reboot) the other courses'
        for name in sorted({p.username for p in people} | set(before.usernames if before
                                                               else ())):
            note = mount_home_volume(name, state_dir / VOLUMES, limits.disk)
            if note:
                print(f"classroom: {note}")

    course_root = Path(pwd.getpwnam(instructor).pw_dir) / course_id
    if not course_root.exists():
        src = Path(course_source)
        if not (src / "nbgrader_config.py").is_file() or not (src / "source").is_dir():
            raise SetupError(f"{src} is not a course (no nbgrader_config.py and source/)")
        course_root.mkdir()
        shutil.copytree(src / "source", course_root / "source")
        shutil.copy(src / "nbgrader_config.py", course_root / "nbgrader_config.py")
        chown_tree(course_root, instructor)
        print(f"classroom: the course is in {course_root} (owner {instructor}, mode 0700)")
    os.chmod(course_root, 0o700)
    # the demos beside the course: generate puts them beside its releases (release/demos)
    hand_out_demos(Path(course_source) / DEMOS, course_root / DEMOS, owner=instructor)

    course = Course(course_id=course_id, course_root=str(course_root), instructor=instructor,
                    students=students, people=[asdict(p) for p in people])
    ids = [c.course_id for c in before.courses] if before else []
    courses = ([course if c.course_id == course_id else c for c in before.courses]
               if before and course_id in ids else [*others, course])
    settings = Settings(
        env=str(Path(env).resolve()), state=str(state_dir.resolve()), exchange=str(ex),
        courses=courses, ip=ip, port=port, hub_port=hub_port, proxy_api_port=proxy_api_port,
        authenticator=authenticator, limits=limits)
    # each student's copy of the demos of each of their courses (a student now in several
    # courses gets them beside ~/COURSE/ASSIGNMENT, from each course root's demos/)
    for student in students:
        for c in settings.courses_of(student):
            hand_out_demos(Path(c.course_root) / DEMOS,
                           demos_folder(settings, student, c.course_id, home_of(student)),
                           owner=student)
    # the exchange, and every course's folders in it, the instructor's: a student of one
    # course must not make another's first (nor this course's before its first release)
    notes = make_exchange_root(ex)
    for c in courses:
        notes += make_course_exchange(ex, c.course_id, c.instructor)
    for note in notes:
        print(f"classroom: {note}")
    write_role_configs(state_dir, settings)
    import_students(env, instructor, course_root, str(ex),
                    [p for p in people if p.role == "student"], course_id=course_id)
    with open(os.open(state_dir / SETTINGS_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
              "w") as f:
        f.write(json.dumps(asdict(settings), indent=1))
    for note in moved_work(settings, before):
        print(f"classroom: {note}")
    return settings


def mount_home_volume(username: str, volumes: Path, size: int) -> str | None:
    """Put `username`'s home on a volume of its own of `size` bytes (their disk quota): an
    ext4 file in `volumes`, made once (sparse: it takes on the disk what they write), with
    what their home held copied in, then loop-mounted on the home (nosuid, nodev). Again
    after a reboot (`make hub`): mounted again. What to tell the instructor, if anything."""
    pw = pwd.getpwnam(username)
    home = Path(pw.pw_dir)
    if os.path.ismount(home):
        return None
    image = volumes / f"{username}.ext4"
    note = None
    if not image.exists():
        with open(os.open(image, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as f:
            f.truncate(size)
        _run([system_tool("mkfs.ext4"), "-q", "-F", "-m", "0", "-E",
              f"root_owner={pw.pw_uid}:{pw.pw_gid}", str(image)], f"mkfs.ext4 {image}")
        staging = Path(tempfile.mkdtemp(dir=volumes))
        try:
            _run([system_tool("mount"), "-o", "loop,nosuid,nodev", str(image), str(staging)],
                 f"mount {image}")
            try:
                (staging / "lost+found").rmdir()
                _run(["cp", "-a", f"{home}/.", str(staging)], f"copying {home} to its volume")
            finally:
                _run([system_tool("umount"), str(staging)], f"umount {staging}")
        finally:
            staging.rmdir()
        note = f"{username}'s home is on a volume of its own: {image} ({size >> 20} MiB)"
    elif image.stat().st_size != size:
        note = (f"{username}'s volume {image} keeps its size ({image.stat().st_size >> 20} "
                f"MiB): to change it, resize2fs it while the hub is stopped")
    _run([system_tool("mount"), "-o", "loop,nosuid,nodev", str(image), str(home)],
         f"mount {image} on {home}")
    os.chown(home, pw.pw_uid, pw.pw_gid)
    os.chmod(home, 0o700)
    return note


def _run(argv: list[str], what: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode:
        raise SetupError(f"{what} failed: {(done.stdout + done.stderr).strip()[-500:]} (the "
                         "homes' volumes need loop devices: --disk 0 goes without them)")


def import_students(env: str, instructor: str, course_root: Path, exchange: str,
                    students: list[Person], course_id: str = "puzzlekit") -> None:
    """Put the roster's students, with their names, into the course's gradebook (run as
    the instructor, as `nbgrader db student import` from the course root)."""
    if not students:
        return
    pw = pwd.getpwnam(instructor)
    roster = course_root / ".roster-students.csv"
    with open(roster, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "first_name", "last_name", "email"])
        w.writerows([p.username, p.first_name, p.last_name, p.email] for p in students)
    os.chown(roster, pw.pw_uid, pw.pw_gid)
    envvars = {"HOME": pw.pw_dir, "USER": instructor, "LANG": "C.UTF-8",
               "PATH": f"{env}/bin:/usr/bin:/bin", "PUZZLEKIT_EXCHANGE": exchange,
               "PUZZLEKIT_COURSE_ID": course_id}
    try:
        done = subprocess.run([system_tool("runuser"), "-u", instructor, "--", "env", "-i",
                               *(f"{k}={v}" for k, v in envvars.items()),
                               f"{env}/bin/nbgrader", "db", "student", "import", roster.name],
                              cwd=course_root, capture_output=True, text=True)
    finally:
        roster.unlink()
    if done.returncode:
        raise SetupError(f"nbgrader db student import failed as {instructor}:\n"
                         + (done.stdout + done.stderr)[-2000:])


def user_processes(uids: set[int]) -> list[int]:
    """The ids of the running processes owned by these uids."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid in uids:
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def remove_marked_users(comment: str) -> list[str]:
    """Delete the users whose GECOS field is exactly `comment` (their processes first)."""
    if not comment:
        raise SetupError("refusing to remove users without a marker comment")
    victims = [p for p in pwd.getpwall() if p.pw_gecos == comment]
    uids = {p.pw_uid for p in victims}
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = user_processes(uids)
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 5
        while pids and time.monotonic() < deadline:
            time.sleep(0.1)
            pids = user_processes(uids)
    removed = []
    for p in victims:
        while os.path.ismount(p.pw_dir):      # their home's volume (the file stays)
            if subprocess.run([system_tool("umount"), p.pw_dir]).returncode:
                subprocess.run([system_tool("umount"), "--lazy", p.pw_dir])
                break
        subprocess.run([system_tool("userdel"), "--remove", p.pw_name], capture_output=True)
        shutil.rmtree(p.pw_dir, ignore_errors=True)
        try:
            grp.getgrnam(p.pw_name)
            subprocess.run([system_tool("groupdel"), p.pw_name], capture_output=True)
        except KeyError:
            pass
        removed.append(p.pw_name)
    return removed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check-python", help="can every user run the Python running this?")
    p = sub.add_parser("check-env", help="is the class environment usable by every user?")
    p.add_argument("--env", required=True)
    p = sub.add_parser("setup", help="users, exchange, course root, config (as root)")
    p.add_argument("--env", required=True)
    p.add_argument("--state", required=True)
    p.add_argument("--roster", required=True)
    p.add_argument("--course-source", required=True)
    p.add_argument("--exchange", required=True)
    p.add_argument("--course-id", default="puzzlekit",
                   help="the course this run adds or updates; the hub's others are kept")
    p.add_argument("--ip", default="0.0.0.0")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--hub-port", type=int, default=8081)
    p.add_argument("--proxy-api-port", type=int, default=8001)
    p.add_argument("--home-base", default=None, help="where new users' homes go (useradd -b)")
    p.add_argument("--comment", default="", help="GECOS field of new users (tests mark theirs)")
    p.add_argument("--env-checked", action="store_true",
                   help="the class environment was just checked (make hub-env): skip that")
    share = Limits()
    p.add_argument("--memory", default=str(share.memory),
                   help="each person's memory (with swap), e.g. 2G; 0: not limited")
    p.add_argument("--processes", type=int, default=share.processes,
                   help="each person's processes and threads at once; 0: not limited")
    p.add_argument("--shm", default=str(share.shm), help="each person's private /dev/shm")
    p.add_argument("--tmp", default=str(share.tmp), help="each person's private /tmp")
    p.add_argument("--cpus", type=float, default=share.cpus,
                   help="each person's CPU time at most, in cores; 0: not limited")
    p.add_argument("--disk", default=str(share.disk),
                   help="each person's home volume, e.g. 2G; 0: homes stay where they are")
    p = sub.add_parser("exchange", help="the exchange and one course's folders in it, owned by "
                       "its instructor (make exchange: a course on one machine)")
    p.add_argument("--exchange", required=True)
    p.add_argument("--course-id", required=True)
    p.add_argument("--instructor", required=True)
    args = parser.parse_args(argv)
    try:
        if args.command == "check-python":
            problem = python_problem(sys.executable)
            if problem:
                raise SetupError(problem)
            print(f"classroom: {sys.executable} can be run by every user")
        elif args.command == "check-env":
            problems = env_problems(args.env)
            if problems:
                raise SetupError("the class environment is not ready:\n- "
                                 + "\n- ".join(problems))
            print(f"classroom: {args.env} is ready for every user")
        elif args.command == "exchange":
            ex = Path(args.exchange)
            notes = make_exchange_root(ex) if os.geteuid() == 0 or not ex.exists() \
                else []
            notes += make_course_exchange(ex, args.course_id, args.instructor)
            for note in notes:
                print(f"classroom: {note}")
            print(f"classroom: exchange ready: {ex} (mode 1777); {args.course_id}'s folders "
                  f"in it are {args.instructor}'s (outbound 755, inbound 2733, feedback 711)."
                  f"\nYour students' nbgrader config (/etc/jupyter/nbgrader_config.py) names "
                  f"the exchange and you, so that they fetch and submit only there:\n"
                  + student_nbgrader_config(str(ex), {args.course_id: args.instructor}))
        elif args.command == "setup":
            from puzzlekit.autograder.wall.config import parse_size   # the class env's kit
            limits = Limits(memory=parse_size(args.memory), processes=args.processes,
                            shm=parse_size(args.shm), tmp=parse_size(args.tmp),
                            cpus=args.cpus, disk=parse_size(args.disk))
            s = setup(env=args.env, state=args.state, roster=args.roster,
                      course_source=args.course_source, exchange=args.exchange,
                      course_id=args.course_id, ip=args.ip, port=args.port,
                      hub_port=args.hub_port, proxy_api_port=args.proxy_api_port,
                      home_base=args.home_base, comment=args.comment,
                      check_env=not args.env_checked, limits=limits)
            course = s.course(args.course_id)
            print(f"classroom: {course.course_id}: {len(course.students)} student(s), "
                  f"instructor {course.instructor}; the hub will listen on "
                  f"http://{s.ip}:{s.port}")
            if len(s.courses) > 1:
                print(f"classroom: the hub holds {len(s.courses)} courses "
                      f"({', '.join(c.course_id for c in s.courses)}); a running hub "
                      "takes in a course when it starts again (`make hub`)")
    except (SetupError, ValueError) as e:
        print(f"classroom: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
