"""nbgrader for the course's accounts: the course lives on the grader account's home
volume (a copy of the repository's notebooks/: source/ and nbgrader_config.py, whose
collect, puzzlekit.course.collect, refuses a submission filed under another student's name)."""

c = get_config()  # noqa: F821
load_subconfig("/home/jovyan/puzzlekit/nbgrader_config.py")  # noqa: F821
c.Exchange.root = "/srv/nbgrader/exchange"
