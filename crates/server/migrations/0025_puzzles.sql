-- Puzzles (src/puzzle/): the shipped set, loaded at start (new ids added,
-- existing rows kept with their ratings), each with its own Glicko-2 rating
-- and number of rated plays. `solution` holds the moves in engine form and
-- `themes` the theme names, each space-separated; `themes` also starts and
-- ends with a space, so that a theme is found with LIKE '% name %'.
CREATE TABLE puzzles (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    rules       TEXT NOT NULL,
    fen         TEXT NOT NULL,
    solution    TEXT NOT NULL,
    themes      TEXT NOT NULL,
    source      TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    plays       INTEGER NOT NULL,
    added_at    BIGINT NOT NULL
);
CREATE INDEX puzzles_pick ON puzzles (variant, rules, rating);

-- Each account's puzzle rating per game (`kind`: `makruk`,
-- `makhos:no-reverse`...), apart from its game ratings.
CREATE TABLE puzzle_ratings (
    user_id     TEXT NOT NULL REFERENCES users (id),
    kind        TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    plays       INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind)
);

-- Who played which puzzle: the first round of a puzzle is the rated one
-- (a repeat, or the same round sent twice, changes no rating); the latest
-- round's time keeps the puzzle from being served again soon.
CREATE TABLE puzzle_rounds (
    user_id     TEXT NOT NULL REFERENCES users (id),
    puzzle_id   TEXT NOT NULL REFERENCES puzzles (id),
    win         INTEGER NOT NULL,
    rating_diff INTEGER NOT NULL,
    first_at    BIGINT NOT NULL,
    last_at     BIGINT NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
CREATE INDEX puzzle_rounds_recent ON puzzle_rounds (user_id, last_at);

-- The daily puzzle of each game, chosen once per UTC day by whichever
-- server process asks first, so every process shows the same one.
CREATE TABLE puzzle_daily (
    day         TEXT NOT NULL,
    kind        TEXT NOT NULL,
    puzzle_id   TEXT NOT NULL REFERENCES puzzles (id),
    PRIMARY KEY (day, kind)
);
