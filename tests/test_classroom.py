"""The class server's settings and Jupyter config for one course and for several
(deploy/hub/classroom.py), without root: what each person's nbgrader ends up with.

tests/test_hub.py runs the whole hub with two courses; here a hub of one course is checked
to give exactly the configuration it always gave (a student's course id, no plugin, one
folder per assignment), which the two-course hub of that test no longer shows.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from traitlets.config import Config

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "deploy" / "hub"))
import classroom  # noqa: E402

EXCHANGE = "/srv/nbgrader/exchange"


def course(cid: str, instructor: str, *students: str) -> Any:
    return classroom.Course(course_id=cid, course_root=f"/home/{instructor}/{cid}",
                            instructor=instructor, students=list(students))


def settings(tmp_path: Path, *courses: Any) -> Any:
    return classroom.Settings(env="/opt/puzzlekit-hub", state=str(tmp_path), exchange=EXCHANGE,
                              courses=list(courses))


def nbgrader_config(s: Any, user: str) -> Config:
    """The nbgrader config of `user`'s server: their config folders' files, the first
    folder winning (as Jupyter loads JUPYTER_CONFIG_PATH)."""
    merged = Config()
    for folder in reversed(s.config_dirs(user)):
        c = Config()
        code = (Path(folder) / "nbgrader_config.py").read_text()
        exec(compile(code, folder, "exec"), {"get_config": lambda: c,
                                             "load_subconfig": lambda path: None})
        merged.merge(c)
    return merged


def test_a_hub_of_one_course_configures_everyone_as_before(tmp_path):
    s = settings(tmp_path, course("puzzlekit", "teacher", "alice", "bob"))
    classroom.write_role_configs(tmp_path, s)
    assert s.admins == ["teacher"] and s.usernames == ["alice", "bob", "teacher"]
    assert s.groups() == {"formgrade-puzzlekit": {"users": ["teacher"]},
                          "nbgrader-puzzlekit": {"users": ["alice", "bob"]}}
    env = s.server_env("alice")
    assert env["PUZZLEKIT_COURSE_ID"] == "puzzlekit" and env["PUZZLEKIT_EXCHANGE"] == EXCHANGE
    c = nbgrader_config(s, "alice")
    assert c.CourseDirectory.course_id == "puzzlekit" and c.Exchange.root == EXCHANGE
    assert c.Validator.width == 110
    assert c.ExchangeFactory.fetch_feedback == "puzzlekit.course.term_view.FetchFeedback"
    # fetch and submit use the course instructor's folders only (the same modes as the
    # kit checks: puzzlekit.course.exchange_owners)
    assert c.ExchangeFactory.submit == "puzzlekit.course.exchange_owners.CheckedSubmit"
    assert c.ExchangeOwners.instructors == {"puzzlekit": "teacher"}
    from puzzlekit.course.exchange_owners import COURSE_FOLDERS
    assert classroom.EXCHANGE_FOLDERS == COURSE_FOLDERS
    assert "plugin_class" not in c.Authenticator and "path_includes_course" not in c.Exchange
    page = json.loads((Path(s.config_dirs("alice")[-1]) / "labconfig" / "page_config.json")
                      .read_text())
    assert page["disabledExtensions"]["@jupyter/nbgrader:formgrader"] is True
    teacher = nbgrader_config(s, "teacher")
    assert teacher.CourseDirectory.course_id == "puzzlekit"
    assert teacher.OwnerCheckedCollect.students_only is True
    assert s.server_env("teacher")["PUZZLEKIT_COURSE_ID"] == "puzzlekit"
    assert s.role("teacher") == "instructor" and s.role("alice") == "student"


def test_a_student_of_two_courses_gets_nbgraders_set_up_for_several(tmp_path):
    s = settings(tmp_path, course("puzzlekit", "teacher", "alice", "bob"),
                 course("ai-202", "colleague", "bob", "carol"))
    classroom.write_role_configs(tmp_path, s)
    assert s.admins == []           # an admin could open the other instructor's server
    assert s.groups()["nbgrader-ai-202"] == {"users": ["bob", "carol"]}
    assert s.groups()["formgrade-ai-202"] == {"users": ["colleague"]}
    both = nbgrader_config(s, "bob")
    assert both.ExchangeOwners.instructors == {"puzzlekit": "teacher", "ai-202": "colleague"}
    assert "course_id" not in both.CourseDirectory
    assert both.Exchange.path_includes_course is True
    assert both.Authenticator.plugin_class == classroom.HUB_AUTH_PLUGIN
    assert both.Exchange.root == EXCHANGE
    assert "PUZZLEKIT_COURSE_ID" not in s.server_env("bob")
    assert nbgrader_config(s, "carol").CourseDirectory.course_id == "ai-202"
    assert nbgrader_config(s, "alice").CourseDirectory.course_id == "puzzlekit"
    assert nbgrader_config(s, "colleague").CourseDirectory.course_id == "ai-202"
    assert s.server_env("colleague")["PUZZLEKIT_COURSE_ID"] == "ai-202"
    # the groups nbgrader's plugin reads are exactly the student's courses
    mine = {g.split("-", 1)[1] for g, v in s.groups().items() if "bob" in v["users"]}
    assert mine == {"puzzlekit", "ai-202"}


def test_a_course_keeps_its_instructor_to_itself(tmp_path):
    first = course("puzzlekit", "teacher", "alice")
    with pytest.raises(classroom.SetupError, match="already teaches puzzlekit"):
        classroom.check_course_people(course("ai-202", "teacher", "bob"), [first])
    with pytest.raises(classroom.SetupError, match="teaches a course of this hub"):
        classroom.check_course_people(course("ai-202", "alice", "bob"), [first])
    with pytest.raises(classroom.SetupError, match="teaches a course of this hub"):
        classroom.check_course_people(course("ai-202", "colleague", "teacher"), [first])
    classroom.check_course_people(course("ai-202", "colleague", "alice"), [first])


def test_a_hub_set_up_before_it_held_several_courses_still_loads(tmp_path):
    (tmp_path / classroom.SETTINGS_FILE).write_text(json.dumps({
        "env": "/opt/puzzlekit-hub", "state": str(tmp_path), "exchange": EXCHANGE,
        "course_id": "puzzlekit", "course_root": "/home/teacher/puzzlekit",
        "instructor": "teacher", "students": ["alice"], "ip": "0.0.0.0", "port": 8000,
        "hub_port": 8081, "proxy_api_port": 8001, "authenticator": "pam",
        "people": [{"username": "teacher", "role": "instructor"}]}))
    s = classroom.load_settings(tmp_path)
    assert [(c.course_id, c.instructor, c.students) for c in s.courses] == \
        [("puzzlekit", "teacher", ["alice"])]
    assert s.admins == ["teacher"] and s.course("puzzlekit").people[0]["role"] == "instructor"
    with pytest.raises(classroom.SetupError, match="no course 'ai-202'"):
        s.course("ai-202")


def test_each_persons_share_is_kept_in_hub_json_and_given_to_the_launcher(tmp_path):
    """The limits `make hub` sets reach hub.json and, from it, serverwall.py's options; a
    hub.json written before there were limits loads with the defaults."""
    import dataclasses
    share = classroom.Limits(memory=1 << 30, processes=64, shm=1 << 20, tmp=2 << 20,
                             cpus=0.5, disk=3 << 30)
    s = dataclasses.replace(settings(tmp_path, course("puzzlekit", "teacher", "alice")),
                            limits=share)
    (tmp_path / classroom.SETTINGS_FILE).write_text(json.dumps(dataclasses.asdict(s)))
    assert classroom.load_settings(tmp_path).limits == share
    assert share.launcher_args() == ["--memory=1073741824", "--processes=64",
                                     "--shm=1048576", "--tmp=2097152", "--cpus=0.5"]
    old = dataclasses.asdict(s)
    del old["limits"]
    (tmp_path / classroom.SETTINGS_FILE).write_text(json.dumps(old))
    assert classroom.load_settings(tmp_path).limits == classroom.Limits()


def test_the_class_folders_cannot_live_in_the_servers_private_tmp(tmp_path):
    """Every server has a /tmp of its own: a home, exchange or state there would vanish."""
    assert classroom.in_private_tmp("/tmp") and classroom.in_private_tmp("/var/tmp/x/y")
    assert not classroom.in_private_tmp("/srv/puzzlekit-hub")
    assert not classroom.in_private_tmp("/tmpfoo")


def test_a_student_who_joins_a_second_course_is_told_where_their_work_went(tmp_path):
    """From the hub's next start nbgrader looks for their assignments in ~/COURSE/…: the
    set-up names the folders they fetched into ~/ as a student of one course."""
    exchange = tmp_path / "exchange"
    (exchange / "puzzlekit" / "outbound" / "01-states-and-moves").mkdir(parents=True)
    (exchange / "puzzlekit" / "outbound" / "02-uninformed-search").mkdir(parents=True)
    homes = tmp_path / "home"
    (homes / "bob" / "01-states-and-moves").mkdir(parents=True)
    (homes / "alice" / "01-states-and-moves").mkdir(parents=True)
    first = course("puzzlekit", "teacher", "alice", "bob")
    before = classroom.Settings(env="", state=str(tmp_path), exchange=str(exchange),
                                courses=[first])
    after = classroom.Settings(env="", state=str(tmp_path), exchange=str(exchange),
                               courses=[first, course("ai-202", "colleague", "bob")])
    notes = classroom.moved_work(after, before, home=lambda name: homes / name)
    assert len(notes) == 1 and notes[0].startswith("bob is now in 2 courses"), notes
    assert "(01-states-and-moves)" in notes[0] and "~/puzzlekit/" in notes[0], notes
    assert classroom.moved_work(after, after, home=lambda name: homes / name) == []
    assert classroom.moved_work(after, None) == []


#: what a student's own ~/.jupyter/jupyter_server_config.py may try: her server with
#: cookie-authenticated websockets and no content-security policy
LAX_CONFIG = """c.HubOAuth.allow_websocket_cookie_auth = True
c.ServerApp.tornado_settings = {"headers": {"Content-Security-Policy": ""}}
"""


def test_the_hubs_server_options_win_over_a_students_own_config(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from jupyter_server.serverapp import ServerApp
    (tmp_path / "jupyter_server_config.py").write_text(LAX_CONFIG)
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "")
    app = ServerApp()
    app.parse_command_line(classroom.server_args())
    app.load_config_file()
    assert app.config.HubOAuth.allow_websocket_cookie_auth in (False, "False"), app.config
    headers = app.tornado_settings["headers"]
    assert headers["Content-Security-Policy"] == classroom.SERVER_CSP
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    try:
        from jupyterhub.services.auth import HubOAuth
    except ImportError:         # the class environment has it; the kit's own .venv not
        return
    assert HubOAuth(config=app.config).allow_websocket_cookie_auth is False


@pytest.mark.parametrize("domain, port, tls, want", [
    ("", 8000, False, ""),
    ("localhost", 8000, False, "http://localhost:8000"),
    ("hub.example.edu", 443, True, "https://hub.example.edu"),
    ("hub.example.edu", 8443, True, "https://hub.example.edu:8443"),
    ("https://hub.example.edu/", 8000, False, "https://hub.example.edu"),
])
def test_subdomain_host(domain: str, port: int, tls: bool, want: str) -> None:
    assert classroom.subdomain_host(domain, port, tls=tls) == want


def test_subdomain_host_refuses_what_is_not_a_domain() -> None:
    with pytest.raises(classroom.SetupError, match="not a domain name"):
        classroom.subdomain_host("exa mple.edu; rm", 8000, tls=False)


def test_every_server_refuses_a_websocket_on_the_cookie_alone(tmp_path: Path) -> None:
    """Each person's config folders (which no student can write) hold the hub's wall, and
    the wall refuses the cookie on a websocket's handshake, also with no Sec-Fetch-Mode."""
    s = settings(tmp_path, course("puzzlekit", "teacher", "alice"),
                 course("ai-202", "tb", "alice", "dee"))
    classroom.write_role_configs(tmp_path, s)
    for user in ("teacher", "tb", "alice", "dee"):
        assert any((Path(f) / "jupyter_server_config.py").is_file()
                   and (Path(f) / "jupyter_server_config.py").read_text()
                   == classroom.SERVER_WALLS_CONFIG for f in s.config_dirs(user)), user
        # and their JupyterLab sends the token on its websockets
        pages = [Path(f) / "labconfig" / "page_config.json" for f in s.config_dirs(user)]
        assert any(p.is_file() and json.loads(p.read_text()).get("appendToken") == "true"
                   for p in pages), user
    auth = pytest.importorskip("jupyterhub.services.auth")
    before = auth.HubOAuth._get_token_cookie, auth.HubOAuth._get_token_url

    class Request:
        def __init__(self, headers: dict[str, str]) -> None:
            self.headers = headers

    class Handler:
        def __init__(self, headers: dict[str, str]) -> None:
            self.request = Request(headers)

        def get_secure_cookie(self, name: str) -> bytes:
            return b"the-hub-cookie"

        def get_argument(self, name: str, default: str) -> str:
            return "the-servers-token" if name == "token" else default

    try:
        exec(compile(classroom.SERVER_WALLS_CONFIG, "walls", "exec"), {})
        hub_auth = auth.HubOAuth()
        assert hub_auth._get_token_cookie(Handler({"Upgrade": "websocket"})) is None
        assert hub_auth._get_token_cookie(Handler({})) == "the-hub-cookie"
        # the token in a websocket's URL counts, in a page's URL not (JupyterHub's rule)
        assert hub_auth._get_token_url(Handler({"Upgrade": "websocket"})) == \
            "the-servers-token"
        assert hub_auth._get_token_url(Handler({})) == ""
    finally:
        auth.HubOAuth._get_token_cookie, auth.HubOAuth._get_token_url = before
