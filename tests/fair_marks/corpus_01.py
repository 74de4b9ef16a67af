"""Answers to assignment 1 (States and moves) written as real students write them.

See corpus_02 for what ANSWERS, LOSES and CAUSE hold. The points tried here:
findZero 2, moveUp 2, nextStates 3, print_moves 2, EightPuzzle 3 (and the grade ids of their
test cells).
"""

ASSIGNMENT = "01-states-and-moves"

#: a right nextStates, for answers whose other functions it uses
NEXT_STATES = '''
def nextStates(S):
    r, c = findZero(S)
    result = set()
    if r < len(S) - 1:
        result.add(moveUp(S, r, c))
    if r > 0:
        result.add(moveDown(S, r, c))
    if c < len(S[0]) - 1:
        result.add(moveLeft(S, r, c))
    if c > 0:
        result.add(moveRight(S, r, c))
    return result
'''

ANSWERS: dict[str, dict[str, str]] = {
    # findZero by flattening and divmod
    "findZero_divmod": {"findZero_solution": '''
def findZero(S):
    flat = [x for row in S for x in row]
    return divmod(flat.index(0), len(S[0]))
'''},
    # findZero that answers (column, row)
    "findZero_column_row": {"findZero_solution": '''
def findZero(S):
    for i in range(len(S)):
        for j in range(len(S[i])):
            if S[i][j] == 0:
                return (j, i)
'''},
    # nextStates as a list, with the moves inlined and bounds by len
    "nextStates_list_inline": {"nextStates_solution": '''
def nextStates(S):
    r, c = findZero(S)
    out = []
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r2, c2 = r + dr, c + dc
        if 0 <= r2 < len(S) and 0 <= c2 < len(S[0]):
            L = [list(row) for row in S]
            L[r][c], L[r2][c2] = L[r2][c2], L[r][c]
            out.append(tuple(tuple(row) for row in L))
    return out
'''},
    # nextStates hard-wired for 3×3 boards
    "nextStates_hardwired_3x3": {"nextStates_solution": '''
def nextStates(S):
    r, c = findZero(S)
    result = set()
    if r < 2:
        result.add(moveUp(S, r, c))
    if r > 0:
        result.add(moveDown(S, r, c))
    if c < 2:
        result.add(moveLeft(S, r, c))
    if c > 0:
        result.add(moveRight(S, r, c))
    return result
'''},
    # print_moves with a 2D list and the size from the board
    "print_moves_2d": {"print_moves_solution": '''
def print_moves(board, moves):
    import math
    n = math.isqrt(len(board))
    grid = [list(board[i * n:(i + 1) * n]) for i in range(n)]
    def show():
        for row in grid:
            print(" ".join(f"{x:2}" for x in row))
    show()
    for m in moves:
        z = [x for row in grid for x in row].index(0)
        r, c = divmod(z, n)
        dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[m]
        grid[r][c], grid[r + dr][c + dc] = grid[r + dr][c + dc], grid[r][c]
        print("  " + m)
        show()
'''},
    # print_moves that moves the caller's own board
    "print_moves_changes_board": {"print_moves_solution": '''
def print_moves(board, moves):
    n = int(len(board) ** 0.5)
    step = {"U": -n, "D": n, "L": -1, "R": 1}
    for r in range(n):
        print(*board[r * n:(r + 1) * n])
    for letter in moves:
        z = board.index(0)
        q = z + step[letter]
        board[z], board[q] = board[q], board[z]
        print(" ", letter)
        for r in range(n):
            print(*board[r * n:(r + 1) * n])
'''},
    # print_moves for 3×3 boards only
    "print_moves_3x3_only": {"print_moves_solution": '''
def print_moves(board, moves):
    b = list(board)
    step = {"U": -3, "D": 3, "L": -1, "R": 1}
    def show():
        print(b[0], b[1], b[2])
        print(b[3], b[4], b[5])
        print(b[6], b[7], b[8])
    show()
    for letter in moves:
        z = b.index(0)
        b[z], b[z + step[letter]] = b[z + step[letter]], 0
        print(" ", letter)
        show()
'''},
    # findZero that walks range(3) by range(3), as the 3×3 examples do
    "findZero_range3": {"findZero_solution": '''
def findZero(S):
    for r in range(3):
        for c in range(3):
            if S[r][c] == 0:
                return r, c
''',
    "nextStates_solution": NEXT_STATES},
    # moveUp on the flat board, with a fixed 3 for the width
    "moveUp_flat_3": {"moveUp_solution": '''
def moveUp(S, r, c):
    flat = [x for row in S for x in row]
    i = r * 3 + c
    flat[i], flat[i + 3] = flat[i + 3], flat[i]
    return tuple(tuple(flat[k:k + 3]) for k in range(0, 9, 3))
''',
    "nextStates_solution": NEXT_STATES},
    # EightPuzzle whose == reads the other's squares without looking at what it is
    "EightPuzzle_eq_any": {"EightPuzzle_solution": '''
class EightPuzzle:
    def __init__(self, squares):
        self.squares = [str(x) for x in squares]

    def __eq__(self, other):
        return self.squares == other.squares

    def __hash__(self):
        return hash("".join(self.squares))

    def get_successors(self):
        i = self.squares.index("_")
        out = []
        for step, ok in ((-1, i % 3 > 0), (1, i % 3 < 2), (-3, i >= 3), (3, i < 6)):
            if ok:
                new = self.squares[:]
                new[i], new[i + step] = new[i + step], new[i]
                out.append(EightPuzzle(new))
            else:
                out.append(None)
        return out
'''},
    # EightPuzzle that keeps the items it is given as they are (numbers stay numbers)
    "EightPuzzle_keeps_numbers": {"EightPuzzle_solution": '''
class EightPuzzle:
    def __init__(self, squares):
        self.squares = list(squares)

    def __eq__(self, other):
        return isinstance(other, EightPuzzle) and self.squares == other.squares

    def __hash__(self):
        return hash(tuple(self.squares))

    def get_successors(self):
        i = self.squares.index("_")
        r, c = divmod(i, 3)
        def swap(j):
            s = self.squares.copy()
            s[i], s[j] = s[j], s[i]
            return EightPuzzle(s)
        return [swap(i - 1) if c > 0 else None, swap(i + 1) if c < 2 else None,
                swap(i - 3) if r > 0 else None, swap(i + 3) if r < 2 else None]
'''},
}

LOSES: dict[str, dict[str, float]] = {
    "findZero_divmod": {},
    "findZero_column_row": {"findZero_tests": 2},
    "nextStates_list_inline": {"nextStates_tests": 1},
    "nextStates_hardwired_3x3": {"nextStates_tests": 0.25},
    "print_moves_2d": {},
    "print_moves_changes_board": {"print_moves_tests": 0.5},
    "print_moves_3x3_only": {"print_moves_tests": 0.5},
    "findZero_range3": {"findZero_tests": 0.5, "nextStates_tests": 0.25},
    "moveUp_flat_3": {"moveUp_tests": 0.5, "nextStates_tests": 0.75},
    "EightPuzzle_eq_any": {"EightPuzzle_tests": 0.5},
    "EightPuzzle_keeps_numbers": {"EightPuzzle_tests": 0.5},
}

CAUSE: dict[str, dict[str, str]] = {
    "findZero_column_row": {"findZero_tests": "(column, row)"},
    "nextStates_list_inline": {"nextStates_tests": "asks for a set"},
    "nextStates_hardwired_3x3": {"nextStates_tests": "is missing"},
    "print_moves_changes_board": {"print_moves_tests": "copy"},
    "print_moves_3x3_only": {"print_moves_tests": "4×4"},
    "findZero_range3": {"findZero_tests": "assume a 3×3 board", "nextStates_tests": "your findZero"},
    "moveUp_flat_3": {"moveUp_tests": "assume a 3×3 board", "nextStates_tests": "your moveUp"},
    "EightPuzzle_eq_any": {"EightPuzzle_tests": "a == None"},
    "EightPuzzle_keeps_numbers": {"EightPuzzle_tests": "a list with numbers"},
}

#: test cell -> the named mistakes (docs/mistakes.md) the grader must record there, and no
#: others: a name is evidence the grader saw (a cell not listed records none)
NAMED: dict[str, dict[str, list[str]]] = {
    "findZero_column_row": {"findZero_tests": ["findZero-column-row"]},
    "nextStates_list_inline": {"nextStates_tests": ["list-not-set"]},
    "nextStates_hardwired_3x3": {"nextStates_tests": ["move-missing"]},
    "print_moves_3x3_only": {"print_moves_tests": ["assumes-3x3"]},
    "findZero_range3": {"findZero_tests": ["assumes-3x3"], "nextStates_tests": ["own-part-wrong"]},
    "moveUp_flat_3": {"moveUp_tests": ["assumes-3x3"], "nextStates_tests": ["own-part-wrong"]},
}
