"""PGN/PDN game records."""

from typing import Dict, List, Optional, Tuple, Union

class RecordError(ValueError):
    """A broken record: where (game, line, column) and what (text)."""

    game: int
    line: int
    column: int
    text: str
    move_number: Optional[str]

class Record:
    """One game of a record."""

    @property
    def tags(self) -> List[Tuple[str, str]]: ...
    def tag(self, name: str) -> Optional[str]: ...
    @property
    def variant(self) -> str: ...
    @property
    def rules(self) -> Optional[str]: ...
    @property
    def fen(self) -> str: ...
    @property
    def end_fen(self) -> str: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def engine_moves(self) -> List[str]: ...
    @property
    def result(self) -> str: ...
    @property
    def comments(self) -> List[Tuple[int, str]]: ...
    def to_text(self, letters: str = "fsf", squares: str = "numeric") -> str:
        """The record as PGN/PDN text."""

def read(text: str) -> List[Record]:
    """Every game of ``text``; RecordError at the first broken one."""
def read_games(text: str) -> List[Union[Record, RecordError]]:
    """Every game of ``text``, going on past broken ones."""
def read_one(text: str) -> Record:
    """The single game of ``text``."""
def record(
    variant: str,
    moves: List[str],
    fen: Optional[str] = None,
    tags: Optional[Dict[str, str]] = None,
    result: Optional[str] = None,
    rules: Optional[str] = None,
) -> Record:
    """A record of ``moves`` played from ``fen``."""
def write(
    variant: str,
    moves: List[str],
    fen: Optional[str] = None,
    tags: Optional[Dict[str, str]] = None,
    result: Optional[str] = None,
    rules: Optional[str] = None,
    letters: str = "fsf",
    squares: str = "numeric",
) -> str:
    """The PGN/PDN text of ``moves`` played from ``fen``."""
