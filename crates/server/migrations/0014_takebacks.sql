-- Takebacks in casual games: the side proposing one (cleared by a move, an
-- answer or the game's end). The takeback itself is an action
-- (kind 'takeback', notation: the number of moves taken back).
ALTER TABLE games ADD COLUMN takeback_offer TEXT;
