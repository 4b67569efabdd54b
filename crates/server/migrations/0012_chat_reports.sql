-- Reports of game chat lines, for moderators: one per reporter and line.
CREATE TABLE chat_reports (
    game_id     TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    reporter_id TEXT NOT NULL REFERENCES users (id),
    reason      TEXT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq, reporter_id),
    FOREIGN KEY (game_id, seq) REFERENCES game_chat (game_id, seq)
);
