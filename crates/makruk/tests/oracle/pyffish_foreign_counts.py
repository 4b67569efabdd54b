#!/usr/bin/env python3
"""Differential oracle for counting fields of other rules: FENs whose field 4
holds a counting limit no rule of the variant gives (the other variant's
limits, as cutechess writes Makruk limits in Ouk Chatrang; limits beyond
board's honour; counts with bias on the board; counts already past their
end), read and played on by Fairy-Stockfish (pyffish).

First the case of pyffish's own test suite (an Ouk Chatrang FEN with a
Makruk limit, `... w - 128 97 1`, played on with e5f6 to `... b - 42 8 1`)
and cutechess's `... b - 88 89 1`, then generated endgames (see
pyffish_endgames.py) with foreign counting fields. Records as
pyffish_endgames.py prints them.
Usage: pyffish_foreign_counts.py VARIANT POSITIONS MAX_PLIES SEED
"""
import random
import sys

from pyffish_endgames import playouts, random_position

CASES = [
    ("8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 97 1", "e5f6"),
    ("8/2K3k1/5m2/4S1S1/8/8/8/8 b - 88 89 1", None),
    ("8/2K3k1/5m2/4S1S1/8/8/8/8 w - 1000 3 1", None),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - 128 5 0", None),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - 0 3 1", None),
]
# Limits of both variants, in plies, and some of no rule at all.
FOREIGN = [16, 32, 44, 64, 88, 128, 14, 30, 42, 62, 86, 126, 1, 7, 127, 200, 1000]


def foreign_position(variant, rng):
    fen = random_position(variant, rng)
    if fen is None:
        return None
    fields = fen.split()
    limit = rng.choice(FOREIGN)
    ply = rng.choice([0, rng.randint(0, limit + 2), max(0, limit - rng.randint(0, 4))])
    fields[3], fields[4] = str(limit), str(ply)
    return " ".join(fields)


def main():
    variant, positions, max_plies, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    playouts(variant, positions, max_plies, random.Random(seed), foreign_position, CASES)


if __name__ == "__main__":
    main()
