-- The opening explorer's index. A position is the 64-bit key of its
-- canonical text (the game, its rule option and the FEN without its move
-- counters). `source` is `site` (the server's rated games, indexed as they
-- finish) or `engine` (games imported with `thaiboard explorer import`).
-- One row per position, speed, rating band and move: its results and the
-- sum of the games' average ratings.
CREATE TABLE explorer_moves (
    source     TEXT NOT NULL,
    position   BIGINT NOT NULL,
    speed      TEXT NOT NULL,
    band       INTEGER NOT NULL,
    uci        TEXT NOT NULL,
    san        TEXT NOT NULL,
    white      BIGINT NOT NULL,
    draws      BIGINT NOT NULL,
    black      BIGINT NOT NULL,
    rating_sum BIGINT NOT NULL,
    PRIMARY KEY (source, position, speed, band, uci)
);

-- The highest-rated games through each position (a few per position).
CREATE TABLE explorer_top_games (
    source   TEXT NOT NULL,
    position BIGINT NOT NULL,
    game_id  TEXT NOT NULL,
    rating   INTEGER NOT NULL,
    uci      TEXT NOT NULL,
    PRIMARY KEY (source, position, game_id)
);

-- The games already in the index (server games by id, imported games by
-- the digest of their record), so that each counts once, whichever server
-- process or import run gets to it first.
CREATE TABLE explorer_indexed (
    game_id    TEXT PRIMARY KEY,
    indexed_at BIGINT NOT NULL
);
