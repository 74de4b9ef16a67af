"""``python -m puzzlekit.course.workers.serve DIR``: the runner process that a Dask
worker starts for its jobs (`remote.serve`). A module of its own, so that running it does
not import `remote` twice (once as the package's, once as ``__main__``).
"""

import sys

from .remote import serve

if __name__ == "__main__":
    sys.exit(serve(sys.argv[1]))
