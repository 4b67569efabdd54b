//! Endgame tables as the search sees them: a [`Tablebase`] answers a position with its
//! exact value under the game's rules (the counting fields of Makruk, the no-progress
//! count of Mak-hot), and the search scores the answer so that it prefers the fastest
//! win the rules allow and the longest resistance.
//!
//! The engine does not read table files itself: the tables live in the
//! `thaiboard-tablebase` crate, above this one, which implements this trait over them
//! (`thaiboard_tablebase::engine_tables`, for `thaiboard uci` and the server alike).

/// The exact value of a table position for the side to move, under its counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableValue {
    /// The side to move mates in exactly this many plies with best play, within the
    /// count (Makruk's distance to mate, already compared with the counting fields).
    Mates(u32),
    /// The side to move is mated in exactly this many plies with best play.
    Mated(u32),
    /// Won, but the table knows no mate distance: the number is the plies to the next
    /// milestone of the win (Mak-hot: the next capture or man move), fewer is better.
    Wins(u32),
    /// Lost, with the plies the loser holds out before the next milestone.
    Loses(u32),
    /// Drawn with best play (including a win the count does not leave time for).
    Draw,
}

/// Endgame tables for the positions of one game. [`Tablebase::probe`] is called at
/// every node of the search below the root, so it must answer `None` quickly for
/// positions outside the tables (more pieces than the tables hold, say).
pub trait Tablebase<G>: Sync {
    /// The exact value of `g`, or `None` when the tables do not hold it.
    fn probe(&self, g: &G) -> Option<TableValue>;

    /// Whether the tables can hold `g` at all, answered at once (its piece count within
    /// the tables', say): the search looks a position up in its [`ProbeCache`] and probes
    /// only when this says yes, so the positions of the middlegame cost no more than
    /// this test. The default, `true`, leaves it all to [`Tablebase::probe`].
    fn covers(&self, _g: &G) -> bool {
        true
    }
}

/// Slots of a search thread's [`ProbeCache`]: a power of two, 16 bytes each (256 KiB).
pub const PROBE_CACHE_SLOTS: usize = 1 << 14;

/// The answers of one search thread's table probes, by [`crate::Game::table_key`]: a
/// position met again (a transposition, or the next iteration's PV node, where the
/// transposition table does not end the node) is answered without probing. Direct-mapped
/// (a new answer replaces the one in its slot), and exact: a slot holds the whole key, and
/// the key covers everything a probe's answer depends on (the counts included), so a hit
/// is the answer the tables would give.
#[derive(Debug)]
pub struct ProbeCache {
    /// `(key, answer)`; `None` for an empty slot.
    slots: Vec<Option<(u64, Option<TableValue>)>>,
}

impl ProbeCache {
    /// A cache of [`PROBE_CACHE_SLOTS`] slots, or one of none (nothing kept) when there
    /// are no tables to probe.
    pub fn new(with_tables: bool) -> ProbeCache {
        let slots = if with_tables { PROBE_CACHE_SLOTS } else { 0 };
        ProbeCache {
            slots: vec![None; slots],
        }
    }

    /// The answer for `key`: the one kept, or `probe()`'s, which is then kept.
    pub fn get_or_probe(
        &mut self,
        key: u64,
        probe: impl FnOnce() -> Option<TableValue>,
    ) -> Option<TableValue> {
        if self.slots.is_empty() {
            return probe();
        }
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[key as usize & mask];
        if let Some((k, answer)) = *slot
            && k == key
        {
            return answer;
        }
        let answer = probe();
        *slot = Some((key, answer));
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_gives_the_probe_answer_and_keeps_it_until_its_slot_is_taken() {
        let answer = |key: u64| match key % 4 {
            0 => None,
            1 => Some(TableValue::Mates(key as u32 % 50)),
            2 => Some(TableValue::Loses(key as u32 % 30)),
            _ => Some(TableValue::Draw),
        };
        let mut cache = ProbeCache::new(true);
        let mut probes = 0;
        // Keys of distinct slots: the second round is answered from the cache.
        let distinct: Vec<u64> = (0..1000u64).map(|i| i | i << 40).collect();
        // Keys that share a few slots (same low bits) replace each other, and still
        // answer right.
        let colliding: Vec<u64> = (0..200u64).map(|i| (i % 5) | (i + 1) << 40).collect();
        for (keys, reprobed) in [(&distinct, false), (&colliding, true)] {
            for round in 0..2 {
                let before = probes;
                for &key in keys {
                    let got = cache.get_or_probe(key, || {
                        probes += 1;
                        answer(key)
                    });
                    assert_eq!(got, answer(key), "round {round} key {key:#x}");
                }
                if round == 1 {
                    assert_eq!(probes > before, reprobed, "{probes} {before}");
                }
            }
        }
        // Without tables nothing is kept.
        let mut none = ProbeCache::new(false);
        let mut probes = 0;
        for _ in 0..2 {
            none.get_or_probe(5, || {
                probes += 1;
                answer(5)
            });
        }
        assert_eq!(probes, 2);
    }
}
