-- A game may start from a set-up position (the board editor's "Continue
-- from here"): its start FEN (Mak-hot: position text), NULL for the
-- standard start of its game.
ALTER TABLE games ADD COLUMN start_fen TEXT;
