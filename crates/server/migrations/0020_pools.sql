-- Quick pairing (src/pools/): the players waiting in a pool, one row per
-- player (a player waits in one pool at a time). The database is the truth
-- for every server process: a matcher claims two rows by setting their
-- `game_id` only where it is still NULL, so two processes cannot pair the
-- same player twice. `seen_at` is when the player last asked for news; rows
-- not seen for a while are removed (the player left the page).
CREATE TABLE pool_entries (
    user_id   TEXT PRIMARY KEY REFERENCES users (id),
    username  TEXT NOT NULL,
    pool      TEXT NOT NULL,
    rating    INTEGER NOT NULL,
    joined_at BIGINT NOT NULL,
    seen_at   BIGINT NOT NULL,
    game_id   TEXT,
    paired_at BIGINT
);
CREATE INDEX pool_entries_pool ON pool_entries (pool, game_id);
