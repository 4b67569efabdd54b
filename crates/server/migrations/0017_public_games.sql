-- Public and private games (src/game/model.rs `Visibility`): a game is public
-- when both players marked it so, or when its tournament says its games are.
-- In a public game spectators read the players' comments; otherwise only
-- the two players do. Private notes stay with their author either way.
ALTER TABLE games ADD COLUMN white_public INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_public INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN public_games INTEGER NOT NULL DEFAULT 0;
