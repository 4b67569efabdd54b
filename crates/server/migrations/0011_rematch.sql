-- Rematches: the side offering one after a game, and the new game once the
-- opponent accepted.
ALTER TABLE games ADD COLUMN rematch_offer TEXT;
ALTER TABLE games ADD COLUMN rematch_id TEXT;
