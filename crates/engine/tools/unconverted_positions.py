#!/usr/bin/env python3
"""The positions where an engine let a win go: from the drawn games of a
`thaiboard match` PGN, the position just after the engine's first move
scored at +THRESHOLD pawns or more, or a mate (from its own side, as the
move comments of `thaiboard match` give it). Played again against the same
opponent, with `thaiboard match --openings`, they measure how often an
engine converts what it saw as a win.

usage: unconverted_positions.py GAMES.pgn[.gz] ENGINE [THRESHOLD] > out.epd
ENGINE is the name in the White / Black tags (e.g. thaiboard); THRESHOLD
defaults to 2.0. One FEN a line, in Fairy-Stockfish's form, in the order of
the games; a summary goes to stderr. SAN moves are matched against pyffish's
(pip install pyffish); a game stops at the first move that does not match.
"""
import gzip
import re
import sys

import pyffish as sf

from pgn_games import VARIANT, games, uci_of


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return f.read()


def score_of(comment):
    """The score, in pawns, of a move comment (`{+0.53/14 0.61s}`; a mate
    `{+M3/...}` counts as infinitely many), or None."""
    m = re.match(r"\{([+-]?)(M?)(\d+(?:\.\d+)?)/", comment)
    if not m:
        return None
    sign = -1.0 if m.group(1) == "-" else 1.0
    return sign * (float("inf") if m.group(2) else float(m.group(3)))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, engine = sys.argv[1], sys.argv[2]
    try:
        threshold = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    except ValueError:
        sys.exit(f"unconverted_positions.py: THRESHOLD {sys.argv[3]!r} is not a number")
    try:
        text = read(path)
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"unconverted_positions.py: cannot read {path}: {e}")
    draws = found = 0
    for tags, fen, moves in games(text):
        if tags.get("Result") != "1/2-1/2" or engine not in (tags.get("White"), tags.get("Black")):
            continue
        draws += 1
        ours = "w" if tags["White"] == engine else "b"
        for san, comment in moves:
            score = score_of(comment) if comment else None
            mover = fen.split()[1]
            move = uci_of(fen, san)
            if move is None:
                print(f"round {tags.get('Round')}: no move {san} in {fen}", file=sys.stderr)
                break
            fen = sf.get_fen(VARIANT, fen, [move])
            if mover == ours and score is not None and score >= threshold:
                print(fen)
                found += 1
                break
    print(f"{found} of {draws} draws of {engine} scored +{threshold} or more", file=sys.stderr)


if __name__ == "__main__":
    main()
