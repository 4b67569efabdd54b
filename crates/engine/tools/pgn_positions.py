#!/usr/bin/env python3
"""Every position of the Makruk games in PGN files, as input for
label_with_fsf.py (e.g. the games of `thaiboard match` against
Fairy-Stockfish, whose positions self-play rarely reaches).

usage: pgn_positions.py GAMES.pgn... > positions.txt
Output lines: "0.5 <fen>" (the 0.5 is a placeholder result; the labeller
replaces it with a score). Each position (placement and side to move) is
written once. SAN moves are matched against pyffish's (pip install pyffish);
a game stops at the first move that does not match, with a note on stderr.
"""
import sys

import pyffish as sf

from pgn_games import VARIANT, games, uci_of


def main():
    seen = set()
    for path in sys.argv[1:]:
        with open(path) as f:
            text = f.read()
        for number, (_, fen, moves) in enumerate(games(text), 1):
            for san, _ in moves:
                move = uci_of(fen, san)
                if move is None:
                    sys.stderr.write(f"{path}: game {number}: no legal move {san.rstrip('+#!?')}\n")
                    break
                fen = sf.get_fen(VARIANT, fen, [move])
                key = " ".join(fen.split()[:2])
                if key not in seen:
                    seen.add(key)
                    print("0.5", fen)


if __name__ == "__main__":
    main()
