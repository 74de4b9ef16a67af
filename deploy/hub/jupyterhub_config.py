"""JupyterHub for puzzlekit classes on one machine (started by `make hub`, as root).

Everything machine-specific comes from STATE/hub.json, written by `classroom.py setup`
(STATE is $PUZZLEKIT_HUB_STATE, default /srv/puzzlekit-hub), one run per course:

- PAM logs people in with their Unix passwords; only the rosters may log in; the
  instructor of a hub with one course is the hub's admin (with several, nobody is);
- each person's JupyterLab runs as their own Unix user (LocalProcessSpawner), from the
  class environment, in their home folder; the spawner points JUPYTER_CONFIG_PATH at
  their config (students: the exchange, no formgrader, their course; an instructor: their
  course's own nbgrader config, so their formgrader finds it);
- nbgrader's groups: `formgrade-<course>` (the instructor) and `nbgrader-<course>` (the
  students) of each course; a student of several courses sees the assignments of the
  courses whose groups they are in (nbgrader's JupyterHubAuthPlugin asks the hub with
  their server's token, which may read their own groups);
- JupyterHub's proxy is configurable-http-proxy from the class environment (npm);
- each server behind a fair share and privacy (serverwall.py, hub.json's `limits`).
"""

import os
import sys
from pathlib import Path

from jupyterhub.spawner import LocalProcessSpawner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from classroom import SERVER_TOKEN_SCOPES, load_settings, server_args, subdomain_host  # noqa: E402

c = get_config()  # noqa: F821  (JupyterHub provides it)
s = load_settings(os.environ.get("PUZZLEKIT_HUB_STATE", "/srv/puzzlekit-hub"))
env, state = Path(s.env), Path(s.state)

# where it listens; the hub's own API and the proxy's API stay on the loopback
c.JupyterHub.bind_url = f"http://{s.ip}:{s.port}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = s.hub_port
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{s.proxy_api_port}"
c.ConfigurableHTTPProxy.command = [str(env / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(state / "hub" / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{state / 'hub' / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "hub" / "jupyterhub_cookie_secret")
c.JupyterHub.cleanup_servers = True       # stopping the hub stops everyone's server
if os.environ.get("PUZZLEKIT_HUB_SSL_CERT"):  # or TLS in a reverse proxy in front
    c.JupyterHub.ssl_cert = os.environ["PUZZLEKIT_HUB_SSL_CERT"]
    c.JupyterHub.ssl_key = os.environ["PUZZLEKIT_HUB_SSL_KEY"]
# a per-user origin (`make hub HUB_DOMAIN=...`): each person's server at
# <name>.<domain>, so that no page of one user's server runs at another's origin
c.JupyterHub.subdomain_host = subdomain_host(
    os.environ.get("PUZZLEKIT_HUB_DOMAIN", ""), s.port,
    tls=bool(os.environ.get("PUZZLEKIT_HUB_SSL_CERT")))
# `__Host-` cookies (bound to the host that set them) need HTTPS
c.JupyterHub.cookie_host_prefix_enabled = c.JupyterHub.subdomain_host.startswith("https://")

# who may log in
c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.open_sessions = False
c.Authenticator.allowed_users = set(s.usernames)
# the admin role's members exactly (a list, so that a hub given a second course takes the
# admin role back from the first course's instructor when it starts again)
c.JupyterHub.load_roles = [{"name": "admin", "users": s.admins}]
c.JupyterHub.load_groups = s.groups()


class ClassSpawner(LocalProcessSpawner):
    """LocalProcessSpawner with the class environment and the Jupyter config of the role,
    each server behind the walls of a fair share: started, as root, through serverwall.py
    (the person's cgroups, a PID namespace with its own /proc, private /dev/shm and /tmp),
    which drops to the person's uid itself. The hub watches and signals the launcher."""

    def make_preexec_fn(self, name: str) -> None:
        return None                 # serverwall.py becomes the person (after its walls)

    async def start(self) -> tuple[str, int]:
        self.cmd = [str(env / "bin" / "python"), "-I", str(HERE / "serverwall.py"),
                    f"--user={self.user.name}", *s.limits.launcher_args(), "--", *SERVER_CMD]
        return await super().start()

    def get_env(self) -> dict:
        e = super().get_env()
        e.update({
            "PATH": f"{env / 'bin'}:/usr/local/bin:/usr/bin:/bin",
            **s.server_env(self.user.name),
        })
        return e


c.JupyterHub.spawner_class = ClassSpawner
SERVER_CMD = [str(env / "bin" / "jupyterhub-singleuser")]
c.Spawner.cmd = SERVER_CMD
c.Spawner.default_url = "/lab"
# the same-origin walls every user server keeps (classroom.server_args: no websocket on the
# cookie alone, a content-security policy), given on the command line, which no config wins
c.Spawner.args = server_args()
c.Spawner.server_token_scopes = list(SERVER_TOKEN_SCOPES)
c.Spawner.env_keep = ["LANG", "LC_ALL", "TZ"]
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
