-- The engine's accounts, one per level: games against the computer have one
-- of them as a player. No password: nobody can log in as them, and their
-- names are taken so that nobody can register them.
INSERT INTO users (id, username, username_key, password_hash, is_guest, created_at) VALUES
    ('engine1', 'engine-level-1', 'engine-level-1', NULL, 0, 0),
    ('engine2', 'engine-level-2', 'engine-level-2', NULL, 0, 0),
    ('engine3', 'engine-level-3', 'engine-level-3', NULL, 0, 0),
    ('engine4', 'engine-level-4', 'engine-level-4', NULL, 0, 0),
    ('engine5', 'engine-level-5', 'engine-level-5', NULL, 0, 0),
    ('engine6', 'engine-level-6', 'engine-level-6', NULL, 0, 0),
    ('engine7', 'engine-level-7', 'engine-level-7', NULL, 0, 0),
    ('engine8', 'engine-level-8', 'engine-level-8', NULL, 0, 0);
