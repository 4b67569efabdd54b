#!/usr/bin/env python3
"""Notation oracle: every legal move of many positions in Fairy-Stockfish's
SAN and both Thai forms (pyffish's get_san with NOTATION_SAN,
NOTATION_THAI_SAN and NOTATION_THAI_LAN).

Half the positions come from random playouts from the start (up to
MAX_PLIES plies, so bias promote on the way and Ouk Chatrang's first
moves are played); the other half are generated crowded positions: several
pieces of one kind for the side to move (two or three khons, ruea, ma,
mets with promoted bias `M~` among them) so that moves need their origin
written, bias about to promote, and khuns open to checks and mates.
Prints one JSON object per position: the FEN with promoted bias marked,
and [uci, san, thai_san, thai_lan] for every legal move.
Usage: pyffish_notation.py VARIANT POSITIONS MAX_PLIES SEED
"""
import json
import random
import sys

import pyffish as sf

from boards import Placer, board_fen

NOTATIONS = (sf.NOTATION_SAN, sf.NOTATION_THAI_SAN, sf.NOTATION_THAI_LAN)




def crowded(variant, rng):
    """A generated position, or None when the draw is not legal."""
    placer = Placer(rng)
    board, place = placer.board, placer.place
    wk = place("K")
    place("k", lambda sq: max(abs(sq % 8 - wk % 8), abs(sq // 8 - wk // 8)) > 1)
    turn = rng.choice("wb")
    for colour in "wb":
        mover = (colour == "w") == (turn == "w")
        kinds = rng.sample("RNSM", 2 if mover else 1)
        for kind in kinds:
            # Two of a kind at most, as the start has; mets beyond the
            # first are promoted bias.
            for i in range(2 if mover else rng.randint(0, 2)):
                letter = kind
                if kind == "M" and (i > 0 or rng.random() < 0.5):
                    letter = "M~"
                place(letter if colour == "w" else letter.lower())
        for _ in range(rng.randint(0, 3)):
            # Bias anywhere they may stand, often one step from promotion.
            if colour == "w":
                place("P", lambda sq: sq // 8 in (2, 3, 4))
            else:
                place("p", lambda sq: sq // 8 in (3, 4, 5))
    fen = "%s %s - - 0 1" % (board_fen(board), turn)
    other = fen.replace(" %s " % turn, " %s " % ("b" if turn == "w" else "w"), 1)
    if sf.gives_check(variant, other, []):
        return None
    return fen


def played(variant, rng, max_plies):
    fen = sf.start_fen(variant)
    moves = []
    for _ in range(rng.randint(0, max_plies)):
        legal = sf.legal_moves(variant, fen, moves)
        if not legal:
            break
        moves.append(rng.choice(legal))
    return sf.get_fen(variant, fen, moves, False, False, True)


def main():
    variant, positions, max_plies, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    done = 0
    while done < positions:
        fen = played(variant, rng, max_plies) if done % 2 == 0 else crowded(variant, rng)
        if fen is None:
            continue
        legal = sorted(sf.legal_moves(variant, fen, []))
        if not legal:
            continue
        done += 1
        rows = [[m] + [sf.get_san(variant, fen, m, False, n) for n in NOTATIONS] for m in legal]
        print(json.dumps({"fen": fen, "moves": rows}, ensure_ascii=False))


if __name__ == "__main__":
    main()
