-- E-mail for correspondence players (src/mail.rs): one address per account,
-- verified by a mailed link; every mail carries an unsubscribe link.
CREATE TABLE user_email (
    user_id           TEXT PRIMARY KEY REFERENCES users (id),
    email             TEXT NOT NULL,
    verified_at       BIGINT,
    verify_token      TEXT UNIQUE,
    unsubscribe_token TEXT NOT NULL UNIQUE,
    subscribed        INTEGER NOT NULL DEFAULT 1,
    updated_at        BIGINT NOT NULL
);
-- Deadline warnings sent, one per game and turn (ply).
CREATE TABLE mail_deadline_warnings (
    game_id TEXT NOT NULL,
    ply     INTEGER NOT NULL,
    sent_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
