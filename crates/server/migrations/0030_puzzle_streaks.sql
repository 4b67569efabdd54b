-- Puzzle streaks of accounts (src/puzzle/): each run the server issued
-- (POST /api/puzzle/streak), with its puzzles in order (space-separated
-- ids) and how many of them it saw solved, in order (`solved`, the run's
-- score); `ended_at` is set by the first failed round or by the last
-- puzzle solved. Each account keeps its newest few runs.
CREATE TABLE puzzle_streak_runs (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id),
    kind        TEXT NOT NULL,
    puzzles     TEXT NOT NULL,
    solved      INTEGER NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    ended_at    BIGINT
);
CREATE INDEX puzzle_streak_runs_user ON puzzle_streak_runs (user_id, created_at);

-- Each account's best streak per game (`kind` as in puzzle_ratings): the
-- highest score of its runs, and the run that made it.
CREATE TABLE puzzle_streak_best (
    user_id     TEXT NOT NULL REFERENCES users (id),
    kind        TEXT NOT NULL,
    best        INTEGER NOT NULL,
    run_id      TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind)
);
