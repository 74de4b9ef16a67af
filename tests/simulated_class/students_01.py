"""Simulated students of assignment 1 (States and moves): typical mistakes.

Each entry replaces some solution cells (by grade id) of an otherwise correct submission.
The full automatic score is 23: goal 1, findZero 2, moveUp 2, moveDown 1, moveLeft 1,
moveRight 1, nextStates 3, gen_successors 3 (+ its N×N bonus 1), print_moves 2,
print_pos 2, EightPuzzle 3, LETTER_OF 1.
"""

STUDENTS: dict[str, dict[str, str]] = {
    # moveUp moves the blank up (the tile above comes down): the lecture's name misread.
    # Loses moveUp (2) and nextStates (3), which uses it.
    "moveUp_wrong_way": {"moveUp_solution": '''
def moveUp(S, r, c):
    L = listOfLists(S)
    L[r][c], L[r - 1][c] = L[r - 1][c], 0
    return tupleOfTuples(L)
'''},
    # findZero answers (column, row). Loses findZero (2) and nextStates (3).
    "findZero_column_first": {"findZero_solution": '''
def findZero(S):
    for r, row in enumerate(S):
        for c, tile in enumerate(row):
            if tile == 0:
                return (c, r)
'''},
    # nextStates forgets to check the last row and the last column: fine for the visible
    # test (blank in the top row), an IndexError in the hidden ones. Loses nextStates (3).
    "nextStates_no_bounds_check": {"nextStates_solution": '''
def nextStates(S):
    r, c = findZero(S)
    result = {moveUp(S, r, c), moveLeft(S, r, c)}
    if r > 0:
        result.add(moveDown(S, r, c))
    if c > 0:
        result.add(moveRight(S, r, c))
    return result
'''},
    # The successor list names the tile moves (U when the tile goes up) instead of the
    # blank moves. Loses gen_successors (3) and its N×N bonus (1).
    "gen_successors_tile_letters": {"gen_successors_solution": '''
def gen_successors(node):
    board, moves = node[:-1], node[-1]
    n = int(len(board) ** 0.5)
    z = board.index(0)
    r, c = divmod(z, n)
    successors = []
    for letter, dr, dc in (("D", -1, 0), ("U", 1, 0), ("R", 0, -1), ("L", 0, 1)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            q = (r + dr) * n + (c + dc)
            new = list(board)
            new[z], new[q] = new[q], 0
            successors += new + [moves + letter]
    return successors
'''},
    # __eq__ without __hash__: Python then makes the class unhashable, so puzzles cannot
    # go into a visited set. Loses EightPuzzle (3).
    "EightPuzzle_without_hash": {"EightPuzzle_solution": '''
class EightPuzzle:
    def __init__(self, squares):
        self.squares = [str(x) for x in squares]
        self.idx = self.squares.index("_")

    def __eq__(self, other):
        return other is not None and self.squares == other.squares

    def _swap(self, offset):
        new = list(self.squares)
        new[self.idx], new[self.idx + offset] = new[self.idx + offset], "_"
        return EightPuzzle(new)

    def get_successors(self):
        row, col = divmod(self.idx, 3)
        return [self._swap(-1) if col > 0 else None, self._swap(+1) if col < 2 else None,
                self._swap(-3) if row > 0 else None, self._swap(+3) if row < 2 else None]
'''},
    # Copies puzzlekit's reference instead of writing nextStates: caught. Loses 3.
    "nextStates_from_puzzlekit": {"nextStates_solution": '''
from puzzlekit import nextStates
'''},
    # gen_successors for 3×3 boards only (row = z // 3): keeps the exercise's 3 points and
    # loses only its N×N bonus (1), which has its own test cell.
    "gen_successors_3x3_only": {"gen_successors_solution": '''
def gen_successors(node):
    board, moves = node[:-1], node[-1]
    z = board.index(0)
    r, c = z // 3, z % 3
    successors = []
    for letter, dr, dc in (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1)):
        if 0 <= r + dr < 3 and 0 <= c + dc < 3:
            q = (r + dr) * 3 + (c + dc)
            new = list(board)
            new[z], new[q] = new[q], 0
            successors += new + [moves + letter]
    return successors
'''},
    # print_pos with 2-character columns. Loses print_pos (2).
    "print_pos_narrow": {"print_pos_solution": '''
def print_pos(p):
    for r in range(4):
        print("".join(f"{str(x):>2}" for x in p[4 * r:4 * r + 4]))
'''},
    # nextStates checks the last row and column but not the first: at the top edge
    # moveDown reaches row -1, which Python wraps round to the last row. Loses nextStates.
    "nextStates_wraps_round": {"nextStates_solution": '''
def nextStates(S):
    r, c = findZero(S)
    rows, cols = len(S), len(S[0])
    result = {moveDown(S, r, c), moveRight(S, r, c)}
    if r + 1 < rows:
        result.add(moveUp(S, r, c))
    if c + 1 < cols:
        result.add(moveLeft(S, r, c))
    return result
'''},
    # nextStates starts from {S}: the board counts among its own next states.
    "nextStates_includes_itself": {"nextStates_solution": '''
def nextStates(S):
    r, c = findZero(S)
    rows, cols = len(S), len(S[0])
    result = {S}
    if r + 1 < rows:
        result.add(moveUp(S, r, c))
    if r > 0:
        result.add(moveDown(S, r, c))
    if c + 1 < cols:
        result.add(moveLeft(S, r, c))
    if c > 0:
        result.add(moveRight(S, r, c))
    return result
'''},
    # moveLeft copies the tile into the blank and forgets to put the blank where the tile
    # was. Loses moveLeft (1) and nextStates (3).
    "moveLeft_copies_tile": {"moveLeft_solution": '''
def moveLeft(S, r, c):
    L = listOfLists(S)
    L[r][c] = L[r][c + 1]
    return tupleOfTuples(L)
'''},
    # moveUp forgets tupleOfTuples and returns the list of lists it worked on: the right
    # numbers, but a board that cannot go into a set. Loses moveUp (2) and nextStates (3).
    "moveUp_returns_lists": {"moveUp_solution": '''
def moveUp(S, r, c):
    L = listOfLists(S)
    L[r][c], L[r + 1][c] = L[r + 1][c], 0
    return L
'''},
}

#: What each mistake costs, test cell by test cell: the points it loses (a cell that
#: loses part of its points is partial credit). Every test cell an entry does not
#: name gives its full points, so a new exercise touches only its own lines.
LOSES: dict[str, dict[str, float]] = {
    "moveUp_wrong_way": {"moveUp_tests": 2, "nextStates_tests": 3},
    "findZero_column_first": {"findZero_tests": 2, "nextStates_tests": 3},
    "nextStates_no_bounds_check": {"nextStates_tests": 3},
    "gen_successors_tile_letters": {"gen_successors_tests": 3, "gen_successors_bonus_tests": 1},
    "EightPuzzle_without_hash": {"EightPuzzle_tests": 3},
    "nextStates_from_puzzlekit": {"nextStates_tests": 3},
    "gen_successors_3x3_only": {"gen_successors_bonus_tests": 1},
    "print_pos_narrow": {"print_pos_tests": 2},
    "nextStates_wraps_round": {"nextStates_tests": 3},
    "nextStates_includes_itself": {"nextStates_tests": 3},
    "moveLeft_copies_tile": {"moveLeft_tests": 1, "nextStates_tests": 3},
    "moveUp_returns_lists": {"moveUp_tests": 2, "nextStates_tests": 3},
}

#: What the feedback must say about each mistake (the diagnoses of `puzzlekit.testcells.diagnose`).
DIAGNOSES: dict[str, tuple[str, ...]] = {
    "moveUp_wrong_way": ("the blank moved up instead of the tile",           # moveUp's test
                         "a move function moves the wrong way"),             # nextStates'
    "nextStates_wraps_round": ("a board where the blank jumped across the edge is there",),
    "nextStates_includes_itself": ("the board itself is among its next states",),
    "moveLeft_copies_tile": ("a tile was copied instead of swapped with the blank",),
    "nextStates_no_bounds_check": ("past the edge of the board",),
    "findZero_column_first": ("it returned (column, row)",),
    "gen_successors_tile_letters": ("each new letter says where the tile went",),
    "print_pos_narrow": ("the numbers and rows are right, the spacing is not",),
    "EightPuzzle_without_hash": ("needs __hash__ too",),
    "nextStates_from_puzzlekit": ("your code called puzzlekit's ready-made nextStates",),
    "moveUp_returns_lists": ('moveUp should return a tuple of tuples (use tupleOfTuples)', 'turn a list of lists back with tupleOfTuples'),
}

#: The named mistakes the grader must record for each student, test cell by test cell
#: (the names of `puzzlekit.testcells.mistakes.CATALOGUE`): the class report counts these.
#: A cell that loses points for a mistake made elsewhere (nextStates, when moveLeft is
#: wrong) names nothing, and the report lists it as lost with no named mistake.
MISTAKES: dict[str, dict[str, str]] = {
    "moveUp_wrong_way": {"moveUp_tests": "blank-moved-not-tile",
                         "nextStates_tests": "wrong-move-used"},
    "findZero_column_first": {"findZero_tests": "findZero-column-row"},
    "nextStates_no_bounds_check": {"nextStates_tests": "past-the-edge"},
    "gen_successors_tile_letters": {"gen_successors_tests": "tile-letters"},
    "EightPuzzle_without_hash": {"EightPuzzle_tests": "unhashable-class"},
    "nextStates_from_puzzlekit": {"nextStates_tests": "used-the-reference"},
    "gen_successors_3x3_only": {},
    "print_pos_narrow": {"print_pos_tests": "print-spacing"},
    "nextStates_wraps_round": {"nextStates_tests": "wrap-around"},
    "nextStates_includes_itself": {"nextStates_tests": "self-in-next-states"},
    "moveLeft_copies_tile": {"moveLeft_tests": "tile-copied"},
    "moveUp_returns_lists": {"moveUp_tests": "board-not-tuple",
                             "nextStates_tests": "board-not-tuple"},
}
