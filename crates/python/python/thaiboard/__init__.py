"""thaiboard: Makruk (Thai chess), Ouk Chatrang (Cambodian chess) and
Mak-hot (Thai checkers) for Python.

Modules:

- ``thaiboard.pyffish``: a drop-in for pyffish (Fairy-Stockfish's binding)
  in its Makruk and Ouk Chatrang use: same names, arguments and results.
- ``thaiboard.makhos``: Mak-hot rules in the same style.
- ``thaiboard.records``: PGN/PDN game records, read and written.
- ``thaiboard.engine``: the engine's search (GIL released, stoppable).
- ``thaiboard.tablebase``: endgame-table probes and generation.
"""

from . import engine, makhos, pyffish, records, tablebase
from ._native import __version__

__all__ = ["engine", "makhos", "pyffish", "records", "tablebase", "__version__"]
