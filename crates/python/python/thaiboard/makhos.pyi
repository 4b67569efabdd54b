"""Mak-hot (Thai checkers)."""

from typing import List, Optional, Tuple

START: str
NO_PROGRESS_LIMIT: int

class Move:
    """A legal move with every landing square and every captured square."""

    from_square: str
    to_square: str
    path: List[str]
    captured: List[str]
    algebraic: str
    numeric: str
    engine: str
    @property
    def is_capture(self) -> bool: ...

class Game:
    """A Mak-hot game with its draw rules."""

    def __init__(self, position: Optional[str] = None, rules: str = "default", no_progress: int = 0) -> None: ...
    def play(self, move: str) -> Move:
        """Plays a move in any accepted notation; ValueError if illegal or the game is over."""
    def undo(self) -> Optional[Move]:
        """Takes back the last move."""
    def legal_moves(self) -> List[Move]:
        """The legal moves now."""
    @property
    def position(self) -> str: ...
    @property
    def turn(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def no_progress_plies(self) -> int: ...
    @property
    def repetition_count(self) -> int: ...
    @property
    def outcome(self) -> Optional[Tuple[str, str]]:
        """None while the game goes on, else (result, reason)."""

def start_position() -> str:
    """The start position's text."""
def legal_moves(position: Optional[str] = None, moves: List[str] = ..., rules: str = "default") -> List[Move]:
    """The legal moves after ``moves`` from ``position``."""
def get_position(position: Optional[str] = None, moves: List[str] = ..., rules: str = "default") -> str:
    """The position text after ``moves``."""
def move_text(position: Optional[str], move: str, style: str = "algebraic", rules: str = "default") -> str:
    """``move`` written as algebraic, numeric, engine, algebraic_short or numeric_short."""
def game_result(
    position: Optional[str] = None, moves: List[str] = ..., rules: str = "default", no_progress: int = 0
) -> Optional[Tuple[str, str]]:
    """None while the game goes on, else (result, reason): no_moves, kings, repetition, no_progress."""
