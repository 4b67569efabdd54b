"""Mak-hot (Thai checkers) in the style of pyffish: functions over a
position text (``W:Wa1,c1,...:Bb8,...``, ``K`` marking kings; ``None`` or
``"startpos"`` for the start) and a list of moves, and a ``Game`` class.

Rules (``rules=``): ``"default"`` (a capturing king may turn straight back)
or ``"no-reverse"``. Moves are read in any accepted notation: ``c3-d4``,
``c3xe5xc7``, ``c3e5c7``, ``22-18``, ``25x18x9``, and start/end only when
unambiguous. Captures are compulsory and complete; a ``Move`` lists every
landing square (``path``) and every captured square (``captured``).

Draw rules: one king each (``kings``), third repetition (``repetition``),
32 plies without a capture or man move (``no_progress``). A side with no
legal move loses (``no_moves``).
"""

from ._native import makhos as _m

Move = _m.Move
Game = _m.Game
NO_PROGRESS_LIMIT: int = _m.NO_PROGRESS_LIMIT
start_position = _m.start_position
legal_moves = _m.legal_moves
get_position = _m.get_position
move_text = _m.move_text
game_result = _m.game_result

#: The start position's text.
START: str = start_position()

__all__ = [
    "Move", "Game", "NO_PROGRESS_LIMIT", "START", "start_position", "legal_moves",
    "get_position", "move_text", "game_result",
]
