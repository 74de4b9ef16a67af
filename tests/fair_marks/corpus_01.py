"""Answers to assignment 1 (States and moves) written as real students write them.

See corpus_02 for what ANSWERS, LOSES and CAUSE hold. The points tried here:
findZero 2, nextStates 3, print_moves 2 (and the grade ids of their test cells).
"""

ASSIGNMENT = "01-states-and-moves"

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
}

LOSES: dict[str, dict[str, float]] = {
    "findZero_divmod": {},
    "findZero_column_row": {"findZero_tests": 2},
    "nextStates_list_inline": {"nextStates_tests": 1},
    "nextStates_hardwired_3x3": {"nextStates_tests": 0.25},
    "print_moves_2d": {},
    "print_moves_changes_board": {"print_moves_tests": 0.5},
    "print_moves_3x3_only": {"print_moves_tests": 0.5},
}

CAUSE: dict[str, dict[str, str]] = {
    "findZero_column_row": {"findZero_tests": "(column, row)"},
    "nextStates_list_inline": {"nextStates_tests": "asks for a set"},
    "nextStates_hardwired_3x3": {"nextStates_tests": "is missing"},
    "print_moves_changes_board": {"print_moves_tests": "copy"},
    "print_moves_3x3_only": {"print_moves_tests": "4×4"},
}

#: test cell -> the named mistakes (docs/mistakes.md) the grader must record there, and no
#: others: a name is evidence the grader saw (a cell not listed records none)
NAMED: dict[str, dict[str, list[str]]] = {
    "findZero_column_row": {"findZero_tests": ["findZero-column-row"]},
    "nextStates_list_inline": {"nextStates_tests": ["list-not-set"]},
    "nextStates_hardwired_3x3": {"nextStates_tests": ["move-missing"]},
    "print_moves_3x3_only": {"print_moves_tests": ["assumes-3x3"]},
}
