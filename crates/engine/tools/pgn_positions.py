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
import re
import sys

import pyffish as sf

VARIANT = "makruk"


def games(text):
    """(start FEN, SAN tokens) of each game of a PGN text."""
    for chunk in text.split("[Event ")[1:]:
        m = re.search(r'\[FEN "([^"]+)"', chunk)
        fen = m.group(1) if m else sf.start_fen(VARIANT)
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        body = re.sub(r"\{[^}]*\}", " ", body)
        body = re.sub(r"\d+\.(\.\.)?", " ", body)
        yield fen, [t for t in body.split() if t not in ("1-0", "0-1", "1/2-1/2", "*")]


def main():
    seen = set()
    for path in sys.argv[1:]:
        with open(path) as f:
            text = f.read()
        for number, (fen, tokens) in enumerate(games(text), 1):
            for san in tokens:
                san = san.rstrip("+#!?")
                move = next(
                    (
                        m
                        for m in sf.legal_moves(VARIANT, fen, [])
                        if sf.get_san(VARIANT, fen, m).rstrip("+#") == san
                    ),
                    None,
                )
                if move is None:
                    sys.stderr.write(f"{path}: game {number}: no legal move {san}\n")
                    break
                fen = sf.get_fen(VARIANT, fen, [move])
                key = " ".join(fen.split()[:2])
                if key not in seen:
                    seen.add(key)
                    print("0.5", fen)


if __name__ == "__main__":
    main()
