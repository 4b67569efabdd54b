"""The thaiboard engine: ``search(variant, fen, moves, depth=..., nodes=...,
movetime=..., multipv=1)`` searches a position and returns the score, the
best move and the principal variation in UCI, SAN and Thai notation.

The search runs with the GIL released, so other Python threads go on. To
stop a search from another thread, make a ``Search`` object, call its
``run()`` in one thread and ``stop()`` from another::

    s = Search("makruk", movetime=60_000)
    threading.Timer(0.5, s.stop).start()
    result = s.run()          # returns after about half a second
"""

from typing import Any, Dict, List, Optional

from ._native import engine as _m

Search = _m.Search


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
    """Searches ``fen`` (the start when ``None``) after ``moves`` (UCI or SAN)
    in ``variant`` (``makruk``, ``cambodian`` or ``makhos`` with ``rules``).

    At least one limit is needed: ``depth`` (plies), ``nodes`` or
    ``movetime`` (milliseconds); for an unlimited search use ``Search`` and
    ``stop()``. Returns a dict: ``best`` (UCI; ``None`` without a legal
    move), ``best_san``, ``best_thai``, ``score`` (``{"cp": n}`` or
    ``{"mate": n}``, side to move's view), ``depth``, ``nodes``, ``pv``,
    ``pv_san``, ``pv_thai`` and ``lines`` (one dict per ``multipv`` line).
    """
    if depth is None and nodes is None and movetime is None:
        raise ValueError("search() needs depth, nodes or movetime; use Search(...).run() with stop() for an unlimited search")
    return Search(variant, fen, list(moves or []), depth, nodes, movetime, multipv, rules, hash_mb).run()


__all__ = ["Search", "search"]
