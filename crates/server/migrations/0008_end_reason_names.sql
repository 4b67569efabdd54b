-- The reasons games end by are the `games` crate's EndReason names, the
-- same as the rules crates': rename the server's old ones.
UPDATE games SET reason = 'resignation' WHERE reason = 'resign';
UPDATE games SET reason = 'counting_draw' WHERE reason = 'counting';
UPDATE games SET reason = 'timeout_draw' WHERE reason = 'timeout_vs_insufficient_material';
