-- Comments on moves (public, by the game's players) and private notes (seen
-- only by their author), attached to the position after `ply` moves.
CREATE TABLE game_comments (
    id         TEXT PRIMARY KEY,
    game_id    TEXT NOT NULL REFERENCES games (id),
    ply        BIGINT NOT NULL,
    author_id  TEXT NOT NULL REFERENCES users (id),
    private    BIGINT NOT NULL,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX game_comments_game ON game_comments (game_id, ply);

-- A player's own labels on games, searchable from the my-games page.
CREATE TABLE game_tags (
    user_id TEXT NOT NULL REFERENCES users (id),
    game_id TEXT NOT NULL REFERENCES games (id),
    tag     TEXT NOT NULL,
    PRIMARY KEY (user_id, game_id, tag)
);
