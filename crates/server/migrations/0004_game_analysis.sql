-- Engine analysis of finished games: one row per analysed position (after
-- `ply` moves). Evaluations are from White's point of view: centipawns, or
-- moves to mate (positive when White mates).
CREATE TABLE game_analysis (
    game_id  TEXT NOT NULL REFERENCES games (id),
    ply      BIGINT NOT NULL,
    score_cp BIGINT,
    mate     BIGINT,
    best     TEXT NOT NULL,
    pv       TEXT NOT NULL,
    depth    BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
