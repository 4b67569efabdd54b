-- Leave (vacation) for correspondence players (src/leave/): while a player
-- is on leave the clocks of their correspondence games stand still. A
-- period runs from `starts_at` to `ends_at` (ms since the epoch, UTC); its
-- whole days, counted in the player's time zone, come off a yearly allowance.
CREATE TABLE leave_periods (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    starts_at  BIGINT NOT NULL,
    ends_at    BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX leave_periods_user ON leave_periods (user_id, ends_at);

-- A tournament's rule on leave: 'allowed', 'forbidden' or 'capped' (at most
-- `leave_cap_days` days of a player's leave stop that tournament's clocks).
ALTER TABLE tournaments ADD COLUMN leave_rule TEXT NOT NULL DEFAULT 'allowed';
ALTER TABLE tournaments ADD COLUMN leave_cap_days BIGINT NOT NULL DEFAULT 0;
