"""Boards for the pyffish oracles: random placement with the khuns apart,
and the board part of a FEN. Shared by pyffish_endgames.py and
pyffish_notation.py."""


def board_fen(board):
    """The board part of a FEN from {square (0 = a1, 63 = h8): letter}."""
    rows = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = board.get(r * 8 + f)
            if p is None:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            row += p
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


class Placer:
    """Places pieces on random free squares of `board`."""

    def __init__(self, rng):
        self.board = {}
        self.free = list(range(64))
        rng.shuffle(self.free)

    def place(self, letter, allowed=lambda sq: True):
        """Puts `letter` on the first free square `allowed` accepts; its square, or None."""
        for i, sq in enumerate(self.free):
            if allowed(sq):
                self.board[self.free.pop(i)] = letter
                return sq
        return None

