-- Ratings: Glicko-2 per pool (a game with its rule option, and a speed;
-- `pool` holds the key, `makruk/blitz`). A game stores whether it is rated,
-- its pool, the players' ratings when it started and, once a rated game
-- ends, what it changed.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN pool TEXT;
ALTER TABLE games ADD COLUMN white_rating INTEGER;
ALTER TABLE games ADD COLUMN black_rating INTEGER;
ALTER TABLE games ADD COLUMN white_provisional INTEGER;
ALTER TABLE games ADD COLUMN black_provisional INTEGER;
ALTER TABLE games ADD COLUMN white_rating_diff INTEGER;
ALTER TABLE games ADD COLUMN black_rating_diff INTEGER;

CREATE TABLE ratings (
    user_id     TEXT NOT NULL REFERENCES users (id),
    pool        TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, pool)
);
CREATE INDEX ratings_pool ON ratings (pool, rating);

-- Every rated game's result for each player: the rating after it, and the
-- player's number of rated games in the pool then (the order of updates).
CREATE TABLE rating_history (
    user_id     TEXT NOT NULL REFERENCES users (id),
    pool        TEXT NOT NULL,
    game_id     TEXT NOT NULL REFERENCES games (id),
    games       INTEGER NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX rating_history_user ON rating_history (user_id, pool, games);
