-- Unused guests are removed a while after they were made: the janitor
-- looks for old guests by this index.
CREATE INDEX users_guest_created ON users (is_guest, created_at);
