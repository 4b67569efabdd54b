-- Names as they look (account/names.rs): the UTS #39 skeleton of every
-- registered name, unique, so that no two accounts look alike. Names made
-- before this column are filled in at start (account::names::backfill).
ALTER TABLE users ADD COLUMN username_skeleton TEXT;
CREATE UNIQUE INDEX users_username_skeleton ON users (username_skeleton);

-- Browsers that logged in to an account (account/devices.rs): the SHA-256
-- of the browser's device cookie, per account. Such a browser is held only
-- to its own failed logins, not to others' guesses at the name.
CREATE TABLE login_devices (
    token_hash TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (token_hash, user_id)
);
CREATE INDEX login_devices_user ON login_devices (user_id);
