-- Accounts people can trust (src/account/security/): password reset by
-- e-mail, change of address, two-factor (TOTP), the devices signed in, the
-- security log, closing an account.

-- Each session's device, for the list of signed-in devices.
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
ALTER TABLE sessions ADD COLUMN ip TEXT;
ALTER TABLE sessions ADD COLUMN last_seen BIGINT;

-- A closed account keeps its row: its name stays reserved, its games stay.
ALTER TABLE users ADD COLUMN closed_at BIGINT;

-- Password resets: only the SHA-256 of each mailed token, single use.
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX password_resets_user ON password_resets (user_id, created_at);

-- Changes of address waiting for their link (mailed to the new address).
CREATE TABLE email_changes (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    new_email  TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- Two-factor: the TOTP secret (enabled_at NULL while enrolling), the last
-- time step used (a code is good once), and the hashed recovery codes.
CREATE TABLE user_totp (
    user_id    TEXT PRIMARY KEY REFERENCES users (id),
    secret     TEXT NOT NULL,
    enabled_at BIGINT,
    last_step  BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE totp_recovery_codes (
    user_id   TEXT NOT NULL REFERENCES users (id),
    code_hash TEXT NOT NULL,
    used_at   BIGINT,
    PRIMARY KEY (user_id, code_hash)
);

-- The security log: logins, failed logins, password and address changes,
-- tokens made, two-factor, sessions ended.
CREATE TABLE security_events (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id),
    at         BIGINT NOT NULL,
    kind       TEXT NOT NULL,
    ip         TEXT,
    user_agent TEXT,
    detail     TEXT
);
CREATE INDEX security_events_user ON security_events (user_id, at);

-- A reset request finds its accounts by address, in any case.
CREATE INDEX user_email_lower ON user_email (LOWER(email));
