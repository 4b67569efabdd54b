"""A drop-in for pyffish in its Makruk and Ouk Chatrang use."""

from typing import List, Tuple

error = ValueError

VALUE_MATE: int
VALUE_DRAW: int
NOTATION_DEFAULT: int
NOTATION_SAN: int
NOTATION_LAN: int
NOTATION_SHOGI_HOSKING: int
NOTATION_SHOGI_HODGES: int
NOTATION_SHOGI_HODGES_NUMBER: int
NOTATION_JANGGI: int
NOTATION_XIANGQI_WXF: int
NOTATION_THAI_SAN: int
NOTATION_THAI_LAN: int
FEN_OK: int
FEN_INVALID_PROMOTED_PIECE: int

def version() -> Tuple[int, int, int]:
    """The pyffish version this module copies: (0, 0, 90)."""
def info() -> str:
    """A line naming the engine behind the module."""
def variants() -> List[str]:
    """The variants this module plays: ['makruk', 'cambodian']."""
def start_fen(variant: str) -> str:
    """The start position of ``variant`` in FEN."""
def two_boards(variant: str) -> bool:
    """Whether the variant is played on two boards: never here."""
def captures_to_hand(variant: str) -> bool:
    """Whether captured pieces go to the hand: never here."""
def legal_moves(variant: str, fen: str, movelist: List[str], chess960: bool = False) -> List[str]:
    """The legal moves in UCI after ``movelist`` is played from ``fen``."""
def get_fen(
    variant: str,
    fen: str,
    movelist: List[str],
    chess960: bool = False,
    sfen: bool = False,
    show_promoted: bool = False,
    count_started: int = 0,
) -> str:
    """The FEN after ``movelist``; ``show_promoted`` marks promoted bias ``M~``;
    ``count_started``: pychess's declared board's-honour count (game ply + 1 of the
    declaration, -1 none declared, 0 automatic counting)."""
def get_san(variant: str, fen: str, move: str, chess960: bool = False, notation: int = ...) -> str:
    """A UCI move of ``fen`` in ``notation`` (SAN by default; LAN, THAI_SAN, THAI_LAN)."""
def get_san_moves(
    variant: str, fen: str, movelist: List[str], chess960: bool = False, notation: int = ...
) -> List[str]:
    """The moves of ``movelist``, played from ``fen``, in ``notation``."""
def gives_check(variant: str, fen: str, movelist: List[str], chess960: bool = False) -> bool:
    """Whether the side to move is in check after ``movelist``."""
def is_capture(variant: str, fen: str, movelist: List[str], move: str, chess960: bool = False) -> bool:
    """Whether ``move`` captures, after ``movelist``."""
def game_result(variant: str, fen: str, movelist: List[str], chess960: bool = False) -> int:
    """-VALUE_MATE if the side to move is in check (checkmated), else VALUE_DRAW."""
def is_immediate_game_end(
    variant: str, fen: str, movelist: List[str], chess960: bool = False
) -> Tuple[bool, int]:
    """Never in Makruk: (False, 0)."""
def is_optional_game_end(
    variant: str, fen: str, movelist: List[str], chess960: bool = False, count_started: int = 0
) -> Tuple[bool, int]:
    """(True, VALUE_DRAW) after a threefold repetition or an expired count, else (False, 0)."""
def has_insufficient_material(
    variant: str, fen: str, movelist: List[str], chess960: bool = False
) -> Tuple[bool, bool]:
    """Whether White and Black each lack mating material (Fairy-Stockfish's test)."""
def validate_fen(fen: str, variant: str, chess960: bool = False) -> int:
    """FEN_OK (1) or Fairy-Stockfish's negative error code."""
