#!/usr/bin/env python3
"""Differential oracle for endgames: random playouts from generated endgame
positions, judged by Fairy-Stockfish (pyffish).

Each start position has two khuns, a few pieces for one side and none or
one or two for the other (bare or nearly bare), sometimes bias, promoted
bias (`M~`), a running count, and in Ouk Chatrang first-move rights.
Prints one JSON object per position reached: its FEN as given (`fen_in`,
first ply only) and as Fairy-Stockfish writes it with promoted bias
marked (`fen`), the sorted legal
moves, the rule state (our names: ongoing, checkmate, stalemate,
counting_draw, insufficient_material), and the move played next with the
marked FEN after it. pyffish costs about 2 ms a call, so the calls per ply are few.
Usage: pyffish_endgames.py VARIANT POSITIONS MAX_PLIES SEED
"""
import json
import random
import sys

import pyffish as sf

from boards import Placer, board_fen

# Pieces' and board's honour limits in plies, per variant (RULES.md).
LIMITS = {
    "makruk": [16, 32, 44, 64, 88, 128],
    "cambodian": [14, 30, 42, 62, 86, 126],
}
STRONG = "RRNNSSMM"




def random_position(variant, rng):
    """A random endgame FEN, or None when the draw is not a legal position."""
    placer = Placer(rng)
    board, place = placer.board, placer.place
    wk = place("K")
    bk = place("k", lambda sq: max(abs(sq % 8 - wk % 8), abs(sq // 8 - wk // 8)) > 1)
    strong = rng.choice("wb")
    for colour in "wb":
        n = rng.randint(1, 4) if colour == strong else rng.choice([0, 0, 1, 2])
        for letter in rng.sample(STRONG, n):
            if letter == "M" and rng.random() < 0.4:
                letter = "M~"
            place(letter if colour == "w" else letter.lower())
    pawns = rng.choice([0, 0, 1, 2])
    for _ in range(pawns):
        colour = rng.choice("wb")
        ranks = (2, 3, 4) if colour == "w" else (3, 4, 5)
        place("P" if colour == "w" else "p", lambda sq: sq // 8 in ranks)
    turn = rng.choice("wb")
    rights = ""
    if variant == "cambodian":
        for sq, p in sorted(board.items()):
            home = 0 if p.isupper() else 7
            if p[0] in "KkMm" and sq // 8 == home and "~" not in p and rng.random() < 0.7:
                rights += "ABCDEFGH"[sq % 8] if p.isupper() else "abcdefgh"[sq % 8]
        rights = "".join(sorted(rights, key=lambda c: (c.islower(), c)))
    count = "- 0"
    has_pawns = any(p in "Pp" for p in board.values())
    if rng.random() < 0.4 and not (has_pawns and variant == "makruk"):
        limit = 126 if has_pawns else rng.choice(LIMITS[variant])
        count = "%d %d" % (limit, rng.randint(max(0, limit - 6), limit + 1))
    fen = "%s %s %s %s %d" % (board_fen(board), turn, rights or "-", count, rng.randint(1, 60))
    # The side not to move must not be in check.
    other = fen.replace(" %s " % turn, " %s " % ("b" if turn == "w" else "w"), 1)
    if sf.gives_check(variant, other, []):
        return None
    return fen


def state(variant, fen, moves):
    if not moves:
        return "checkmate" if sf.gives_check(variant, fen, []) else "stalemate"
    fields = fen.split()
    if fields[3] != "-" and int(fields[4]) >= int(fields[3]) - 1:
        if sf.is_optional_game_end(variant, fen, [])[0]:
            return "counting_draw"
    if sum(c.isalpha() for c in fields[0]) == 2:
        return "insufficient_material"
    return "ongoing"


def playouts(variant, positions, max_plies, rng, make_position, openings=()):
    """Prints the records of random playouts: first from `openings` (pairs
    of a FEN and the move played first from it), then from `positions`
    positions of `make_position(variant, rng)` (None: draw again)."""
    for start in openings:
        for record in playout(variant, start, max_plies, rng):
            print(json.dumps(record))
    done = 0
    while done < positions:
        fen_in = make_position(variant, rng)
        if fen_in is None:
            continue
        done += 1
        for record in playout(variant, (fen_in, None), max_plies, rng):
            print(json.dumps(record))


def playout(variant, start, max_plies, rng):
    fen_in, first_move = start
    fen = sf.get_fen(variant, fen_in, [], False, False, True)
    first = True
    for _ in range(max_plies):
        moves = sorted(sf.legal_moves(variant, fen, []))
        record = {"fen": fen, "moves": moves, "state": state(variant, fen, moves)}
        if first:
            record["fen_in"], first = fen_in, False
        if record["state"] == "ongoing":
            played = first_move or rng.choice(moves)
            first_move = None
            after = sf.get_fen(variant, fen, [played], False, False, True)
            record.update(played=played, fen_after=after)
        yield record
        if record["state"] != "ongoing":
            break
        fen = after


def main():
    variant, positions, max_plies, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    playouts(variant, positions, max_plies, random.Random(seed), random_position)


if __name__ == "__main__":
    main()
