-- Each account's board and game-page settings (see src/settings.rs), as
-- JSON written by the server after checking every field.
CREATE TABLE user_settings (
    user_id    TEXT PRIMARY KEY REFERENCES users (id),
    settings   TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
