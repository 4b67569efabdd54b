"""Reading the Makruk games of a PGN text with pyffish (pip install
pyffish), shared by pgn_positions.py and unconverted_positions.py."""
import re

import pyffish as sf

VARIANT = "makruk"


def games(text):
    """(tags, start FEN, [(SAN, comment or None)]) of each game of a PGN
    text; the comment is the one that follows the move."""
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        fen = tags.get("FEN") or sf.start_fen(VARIANT)
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        moves = []
        for comment, token in re.findall(r"(\{[^}]*\})|(\S+)", body):
            if comment:
                if moves:
                    moves[-1] = (moves[-1][0], comment)
                continue
            token = re.sub(r"^\d+\.+", "", token)
            if token and token not in ("1-0", "0-1", "1/2-1/2", "*"):
                moves.append((token, None))
        yield tags, fen, moves


def uci_of(fen, san):
    """The legal move of `fen` written `san` (check marks and annotations
    aside), or None."""
    san = san.rstrip("+#!?")
    for move in sf.legal_moves(VARIANT, fen, []):
        if sf.get_san(VARIANT, fen, move).rstrip("+#") == san:
            return move
    return None
