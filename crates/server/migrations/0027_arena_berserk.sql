-- Berserk in arenas (as lichess's pairings keep it): whether White and
-- Black of a board went berserk, copied from the game's actions when the
-- game ends; a berserk win that lasted long enough scores an extra point.
ALTER TABLE tournament_games ADD COLUMN white_berserk INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_games ADD COLUMN black_berserk INTEGER NOT NULL DEFAULT 0;
