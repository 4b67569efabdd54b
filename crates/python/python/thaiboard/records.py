"""Game records: PGN for Makruk and Ouk Chatrang, PDN for Mak-hot.

``read(text)`` returns the games of a text as ``Record`` objects and raises
``RecordError`` (a ``ValueError`` with ``game``, ``line``, ``column`` and
``text``) at the first broken game; ``read_games(text)`` goes on past broken
games. ``write(variant, moves, ...)`` gives the PGN/PDN text of a game, as
the ``thaiboard`` command line writes it. Every move is checked against the
rules as it is read; Makruk SAN is read in every convention
(Fairy-Stockfish, SchemingMind, PlayOK) and Thai notation.
"""

from ._native import records as _m

Record = _m.Record
RecordError = _m.RecordError
read = _m.read
read_games = _m.read_games
record = _m.record
write = _m.write


def read_one(text: str) -> "Record":
    """The single game of ``text``; ``RecordError`` if it is broken, and
    ``ValueError`` if the text holds no game or more than one."""
    games = read(text)
    if len(games) != 1:
        raise ValueError(f"expected one game, found {len(games)}")
    return games[0]


__all__ = ["Record", "RecordError", "read", "read_games", "read_one", "record", "write"]
