-- The opening book looks positions up by the FEN an action left.
CREATE INDEX game_actions_fen ON game_actions (fen);
