-- Players following players (social/rel): one row per follow. A closed
-- account's rows stay but every list leaves closed accounts out; a player
-- never follows themself (checked by the server, and here).
CREATE TABLE follows (
    follower_id TEXT NOT NULL,
    followed_id TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (follower_id, followed_id),
    CHECK (follower_id <> followed_id)
);
CREATE INDEX follows_followed ON follows (followed_id);
