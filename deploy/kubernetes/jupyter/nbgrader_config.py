"""nbgrader for everyone in the class's pods: the course id and the shared exchange."""
c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "puzzlekit"
c.Exchange.root = "/srv/nbgrader/exchange"
# Fetch and Fetch Feedback also refresh marks-<course>.html (due dates, returned marks)
c.ExchangeFactory.fetch_assignment = "puzzlekit.course.term_view.FetchAssignment"
c.ExchangeFactory.fetch_feedback = "puzzlekit.course.term_view.FetchFeedback"
# fetch and submit use only the course account's folders in the exchange (a student who
# made them first would own the course: puzzlekit.course.exchange_owners)
c.ExchangeFactory.submit = "puzzlekit.course.exchange_owners.CheckedSubmit"
c.ExchangeOwners.instructors = {"puzzlekit": "grader-puzzlekit"}
