-- The `Idempotency-Key` header (src/infra/idempotency.rs): the first
-- request with a key, per session or token (`scope`, a SHA-256), and its
-- answer, kept five minutes so that a repeat gets the same answer and
-- creates nothing. `status` is 0 while the first request runs.
CREATE TABLE idempotency_keys (
    scope        TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status       BIGINT NOT NULL,
    content_type TEXT,
    body         TEXT,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
