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

VARIANT = "makruk"


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


def games(text):
    """(tags, [(SAN, score or None)]) of each game of a PGN text."""
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        moves = []
        for comment, token in re.findall(r"(\{[^}]*\})|(\S+)", body):
            if comment:
                if moves:
                    moves[-1] = (moves[-1][0], score_of(comment))
                continue
            token = re.sub(r"^\d+\.+", "", token)
            if token and token not in ("1-0", "0-1", "1/2-1/2", "*"):
                moves.append((token, None))
        yield tags, moves


def uci_of(fen, san):
    """The legal move of `fen` written `san`, or None."""
    for move in sf.legal_moves(VARIANT, fen, []):
        if sf.get_san(VARIANT, fen, move) == san:
            return move
    return None


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
    for tags, moves in games(text):
        if tags.get("Result") != "1/2-1/2" or engine not in (tags.get("White"), tags.get("Black")):
            continue
        draws += 1
        ours = "w" if tags["White"] == engine else "b"
        fen = tags.get("FEN") or sf.start_fen(VARIANT)
        for san, score in moves:
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
