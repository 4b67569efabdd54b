-- Tournaments: round-robin and swiss (correspondence), arena (live).
-- `rounds`: swiss rounds, round-robin cycles (1, or 2 for a double
-- round-robin), 0 for an arena; `duration_ms` and `ends_at` for arenas.
-- Status: upcoming, running, finished.
CREATE TABLE tournaments (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    kind            TEXT NOT NULL,
    variant         TEXT NOT NULL,
    rules           TEXT NOT NULL,
    tc_kind         TEXT NOT NULL,
    tc_initial_ms   BIGINT NOT NULL,
    tc_increment_ms BIGINT NOT NULL,
    tc_max_ms       BIGINT NOT NULL,
    rounds          BIGINT NOT NULL,
    duration_ms     BIGINT NOT NULL,
    max_players     BIGINT NOT NULL,
    status          TEXT NOT NULL,
    creator_id      TEXT NOT NULL REFERENCES users (id),
    current_round   BIGINT NOT NULL,
    starts_at       BIGINT,
    started_at      BIGINT,
    ends_at         BIGINT,
    finished_at     BIGINT,
    created_at      BIGINT NOT NULL
);
CREATE INDEX tournaments_status ON tournaments (status);

-- The players: `seed` orders them (join order); `active` is 0 for an arena
-- player who left the pairing pool.
CREATE TABLE tournament_entrants (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    user_id       TEXT NOT NULL REFERENCES users (id),
    seed          BIGINT NOT NULL,
    joined_at     BIGINT NOT NULL,
    active        BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_entrants_user ON tournament_entrants (user_id);

-- Pairings: one row per board of a round (an arena numbers its pairing
-- waves as rounds). A bye has no Black and no game. Results are the games'.
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round         BIGINT NOT NULL,
    board         BIGINT NOT NULL,
    white_id      TEXT NOT NULL REFERENCES users (id),
    black_id      TEXT REFERENCES users (id),
    game_id       TEXT REFERENCES games (id),
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX tournament_games_game ON tournament_games (game_id);
