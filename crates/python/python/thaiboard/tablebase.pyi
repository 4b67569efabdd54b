"""Endgame tables."""

import os
from typing import Any, Dict, Optional, Union

def probe(
    dir: Union[str, "os.PathLike[str]"], variant: str, fen: str, count: int = 0, rules: Optional[str] = None
) -> Dict[str, Any]:
    """The answer of ``thaiboard tb probe --json`` for ``fen``."""
def generate(dir: Union[str, "os.PathLike[str]"], variant: str, pieces: int, rules: Optional[str] = None) -> int:
    """Generates the tables of up to ``pieces`` pieces into ``dir``."""
