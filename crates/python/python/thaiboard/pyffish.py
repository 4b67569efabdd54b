"""A drop-in for pyffish (Fairy-Stockfish's Python binding) in its Makruk and
Ouk Chatrang use.

``import thaiboard.pyffish as sf`` and call ``sf.legal_moves("makruk", fen,
moves)`` etc. with the same arguments and results as pyffish. The variants
are ``makruk`` and ``cambodian``; any other name raises ``ValueError``.

Differences from pyffish, all where pyffish has no defined answer:

- a malformed FEN or an illegal move raises ``ValueError`` naming it
  (pyffish reads on regardless, or fails later);
- ``legal_moves`` gives the same moves grouped by piece kind as pyffish
  does, but within a kind the order can differ;
- ``get_san`` writes only Makruk notations (default, SAN, LAN, THAI_SAN,
  THAI_LAN); the shogi, janggi and xiangqi numbers raise ``ValueError``;
- ``is_immediate_game_end`` and ``is_optional_game_end`` return 0 as the
  value when the game does not end (pyffish returns an unset value there);
- ``chess960`` is accepted and ignored (Makruk has no castling).
"""

from ._native import pyffish as _m

#: The error class pyffish exposes; this module raises ``ValueError``.
error = ValueError

VALUE_MATE: int = _m.VALUE_MATE
VALUE_DRAW: int = _m.VALUE_DRAW
NOTATION_DEFAULT: int = _m.NOTATION_DEFAULT
NOTATION_SAN: int = _m.NOTATION_SAN
NOTATION_LAN: int = _m.NOTATION_LAN
NOTATION_SHOGI_HOSKING: int = _m.NOTATION_SHOGI_HOSKING
NOTATION_SHOGI_HODGES: int = _m.NOTATION_SHOGI_HODGES
NOTATION_SHOGI_HODGES_NUMBER: int = _m.NOTATION_SHOGI_HODGES_NUMBER
NOTATION_JANGGI: int = _m.NOTATION_JANGGI
NOTATION_XIANGQI_WXF: int = _m.NOTATION_XIANGQI_WXF
NOTATION_THAI_SAN: int = _m.NOTATION_THAI_SAN
NOTATION_THAI_LAN: int = _m.NOTATION_THAI_LAN
FEN_OK: int = _m.FEN_OK
FEN_INVALID_PROMOTED_PIECE: int = _m.FEN_INVALID_PROMOTED_PIECE

version = _m.version
info = _m.info
variants = _m.variants
start_fen = _m.start_fen
two_boards = _m.two_boards
captures_to_hand = _m.captures_to_hand
legal_moves = _m.legal_moves
get_fen = _m.get_fen
get_san = _m.get_san
get_san_moves = _m.get_san_moves
gives_check = _m.gives_check
is_capture = _m.is_capture
game_result = _m.game_result
is_immediate_game_end = _m.is_immediate_game_end
is_optional_game_end = _m.is_optional_game_end
has_insufficient_material = _m.has_insufficient_material
validate_fen = _m.validate_fen

__all__ = [
    "error", "VALUE_MATE", "VALUE_DRAW", "NOTATION_DEFAULT", "NOTATION_SAN", "NOTATION_LAN",
    "NOTATION_SHOGI_HOSKING", "NOTATION_SHOGI_HODGES", "NOTATION_SHOGI_HODGES_NUMBER",
    "NOTATION_JANGGI", "NOTATION_XIANGQI_WXF", "NOTATION_THAI_SAN", "NOTATION_THAI_LAN",
    "FEN_OK", "FEN_INVALID_PROMOTED_PIECE", "version", "info", "variants", "start_fen",
    "two_boards", "captures_to_hand", "legal_moves", "get_fen", "get_san", "get_san_moves",
    "gives_check", "is_capture", "game_result", "is_immediate_game_end",
    "is_optional_game_end", "has_insufficient_material", "validate_fen",
]
