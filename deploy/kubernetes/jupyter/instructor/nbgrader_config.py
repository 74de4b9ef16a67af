"""nbgrader for the course's accounts: the course lives on the grader account's home
volume (a copy of the repository's notebooks/: source/ and nbgrader_config.py), and
collect refuses a submission filed under another student's name."""
import importlib.util as _ilu

c = get_config()  # noqa: F821
load_subconfig("/home/jovyan/puzzlekit/nbgrader_config.py")  # noqa: F821
c.Exchange.root = "/srv/nbgrader/exchange"
_spec = _ilu.spec_from_file_location("puzzlekit_hub_collect",
                                     "/etc/puzzlekit/owner_checked_collect.py")
_collect = _ilu.module_from_spec(_spec)
_spec.loader.exec_module(_collect)
c.ExchangeFactory.collect = _collect.OwnerCheckedCollect
