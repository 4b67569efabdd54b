"""Endgame tables: ``probe(dir, variant, fen)`` answers with the JSON shape of
``thaiboard tb probe --json`` (as a dict); ``generate(dir, variant,
pieces)`` writes tables (Makruk: 3 to 5 pieces; Mak-hot: 2 to 7).
"""

import json
import os
from typing import Any, Dict, Optional, Union

from ._native import tablebase as _m


def probe(
    dir: Union[str, "os.PathLike[str]"],
    variant: str,
    fen: str,
    count: int = 0,
    rules: Optional[str] = None,
) -> Dict[str, Any]:
    """Probes the tables in ``dir`` for ``fen``.

    Makruk and Ouk Chatrang: a FEN with its counting fields; the answer has
    ``category`` (``win``/``draw``/``loss`` for the side to move), ``dtm``,
    ``dtc``, ``plies_left`` and ``moves`` (each with ``uci``, ``san``,
    ``category`` for the opponent, ``dtm``, ``dtc``). Mak-hot: position text,
    ``count`` plies already without progress, ``rules``; the answer has
    ``category``, ``dtz``, ``dtw`` and ``moves``. Raises ``ValueError`` for
    a bad position or one outside the tables, ``OSError`` for unreadable
    tables.
    """
    return json.loads(_m.probe_json(os.fspath(dir), variant, fen, count, rules))


def generate(
    dir: Union[str, "os.PathLike[str]"],
    variant: str,
    pieces: int,
    rules: Optional[str] = None,
) -> int:
    """Generates the tables of up to ``pieces`` pieces into ``dir`` (kept
    tables are not made again) and returns how many tables the set has."""
    return _m.generate(os.fspath(dir), variant, pieces, rules)


__all__ = ["probe", "generate"]
