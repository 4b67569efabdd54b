-- The Bot API (lichess-compatible): personal API tokens, bot accounts and
-- the chat of games. Portable SQL: runs on SQLite and PostgreSQL.

-- Personal API tokens. Only the SHA-256 of a token is kept; the token
-- itself is shown once, when it is made. Scopes are space-separated
-- (`bot:play challenge:read ...`). Revoking deletes the row.
CREATE TABLE api_tokens (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id),
    token_hash  TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL,
    scopes      TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- Accounts upgraded to bot accounts (`title: "BOT"`); an upgrade is final.
CREATE TABLE bot_accounts (
    user_id     TEXT PRIMARY KEY REFERENCES users (id),
    upgraded_at BIGINT NOT NULL
);

-- Chat lines of games, in order per game (`room`: player or spectator).
CREATE TABLE game_chat (
    game_id  TEXT NOT NULL REFERENCES games (id),
    seq      INTEGER NOT NULL,
    user_id  TEXT NOT NULL REFERENCES users (id),
    username TEXT NOT NULL,
    room     TEXT NOT NULL,
    text     TEXT NOT NULL,
    at       BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
