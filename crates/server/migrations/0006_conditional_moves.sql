-- Conditional moves of correspondence games: each row one line of a
-- player's, alternating the opponent's move and the reply (engine form,
-- space-separated), starting after `base_ply` moves.
CREATE TABLE conditional_moves (
    game_id  TEXT NOT NULL REFERENCES games (id),
    user_id  TEXT NOT NULL REFERENCES users (id),
    seq      BIGINT NOT NULL,
    base_ply BIGINT NOT NULL,
    line     TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id, seq)
);
