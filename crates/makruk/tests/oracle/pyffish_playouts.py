#!/usr/bin/env python3
"""Differential oracle: random playouts judged by Fairy-Stockfish (pyffish).

Prints one JSON object per position reached: its FEN, whether the side to
move is in check, the sorted legal moves, and the move played next with its
SAN and the FEN after it (pyffish costs milliseconds a call, so only the
played move gets its SAN and FEN).
Usage: pyffish_playouts.py VARIANT GAMES MAX_PLIES SEED
"""
import json
import random
import sys

import pyffish as sf


def main():
    variant, games, max_plies, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    start = sf.start_fen(variant)
    for _ in range(games):
        fen = start
        for _ in range(max_plies):
            moves = sorted(sf.legal_moves(variant, fen, []))
            record = {"fen": fen, "in_check": sf.gives_check(variant, fen, []), "moves": moves}
            if moves:
                played = rng.choice(moves)
                after = sf.get_fen(variant, fen, [played])
                record.update(played=played, san=sf.get_san(variant, fen, played), fen_after=after)
            print(json.dumps(record))
            if not moves:
                break
            fen = after


if __name__ == "__main__":
    main()
