"""``python -m puzzlekit.autograder.wall``: see `puzzlekit.autograder.wall`."""

import sys

from puzzlekit.autograder.wall import main

sys.exit(main())
