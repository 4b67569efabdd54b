#!/usr/bin/env python3
"""Differential oracle for declared (manual) counting, as pychess plays it.

pychess passes the ply at which a board's-honour count was declared plus
one (`count_started`, -1 when none is declared) to Fairy-Stockfish's FEN
writer: get_fen(variant, fen, moves, False, False, True, count_started).
From generated endgames (see pyffish_endgames.py), random playouts declare
and stop counts at random while a board's-honour count can run, and print
one JSON object per ply: the start FEN, the moves so far, the event before
the last move (`declare`/`stop` by the side to move, or null) and the FEN
pyffish writes for that history.
Usage: pyffish_declared.py VARIANT POSITIONS MAX_PLIES SEED
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyffish as sf  # noqa: E402
from pyffish_endgames import random_position  # noqa: E402


def game_ply(fen):
    fields = fen.split()
    return 2 * (int(fields[5]) - 1) + (fields[1] == "b")


def main():
    variant, positions, max_plies, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    done = 0
    while done < positions:
        start = random_position(variant, rng)
        if start is None or any(c in "Pp" for c in start.split()[0]) and variant == "makruk":
            continue
        done += 1
        start = sf.get_fen(variant, start, [], False, False, True)
        moves, count_started, declarer = [], -1, None
        fen = sf.get_fen(variant, start, moves, False, False, True, count_started)
        for _ in range(max_plies):
            legal = sf.legal_moves(variant, fen, [])
            if not legal:
                break
            fields = fen.split()
            bare = min(sum(c.isupper() for c in fields[0]), sum(c.islower() for c in fields[0])) == 1
            event = None
            if fields[3] != "-" and not bare:
                if count_started < 0 and rng.random() < 0.3:
                    event, count_started, declarer = "declare", game_ply(fen) + 1, fields[1]
                elif count_started > 0 and declarer == fields[1] and rng.random() < 0.1:
                    event, count_started = "stop", -1
            moves.append(rng.choice(sorted(legal)))
            fen = sf.get_fen(variant, start, moves, False, False, True, count_started)
            print(json.dumps({"start": start, "moves": moves, "event": event, "fen": fen}))


if __name__ == "__main__":
    main()
