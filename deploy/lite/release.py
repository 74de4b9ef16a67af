"""The student versions of assignments, in one process: ``nbgrader generate_assignment``
for each name given, run from a copy of the course (deploy/lite/build.py makes it).

The course's configuration is used as it is, except that the model solutions are not run
again (the course's own targets and tests check them)."""

from __future__ import annotations

import sys

from nbgrader.apps import NbGraderAPI
from nbgrader.apps.nbgraderapp import NbGraderApp


def main(assignments: list[str]) -> int:
    app = NbGraderApp()
    app.initialize([])
    app.config.ModelSolutionCheck.check = False
    api = NbGraderAPI(config=app.config)
    for name in assignments:
        result = api.generate_assignment(name, force=True)
        if not result["success"]:
            print(f"generate_assignment {name}: {result.get('log') or result.get('error')}",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
