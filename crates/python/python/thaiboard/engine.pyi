"""The thaiboard engine's search."""

from typing import Any, Dict, List, Optional

class Search:
    """A search of one position; run() releases the GIL, stop() ends it from any thread."""

    def __init__(
        self,
        variant: str,
        fen: Optional[str] = None,
        moves: List[str] = ...,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime: Optional[int] = None,
        multipv: int = 1,
        rules: Optional[str] = None,
        hash_mb: int = 16,
    ) -> None: ...
    def run(self) -> Dict[str, Any]:
        """Searches and returns best, best_san, best_thai, score, depth, nodes, pv, pv_san, pv_thai, lines."""
    def stop(self) -> None:
        """Stops the search (from any thread)."""
    @property
    def stopped(self) -> bool: ...

def search(
    variant: str,
    fen: Optional[str] = None,
    moves: Optional[List[str]] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    movetime: Optional[int] = None,
    multipv: int = 1,
    rules: Optional[str] = None,
    hash_mb: int = 16,
) -> Dict[str, Any]:
    """Searches ``fen`` after ``moves`` within the limits given."""
