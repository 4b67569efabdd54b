//! The transposition table, shared by both games (moves are stored as codes)
//! and by the threads of one search: entries are three atomic words, the
//! first holding the key xor the other two, so a torn write (two threads
//! storing at once) reads back as a miss, never as a wrong entry.

use std::sync::atomic::{AtomicU64, Ordering};

/// The kind of bound a stored score is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact score.
    Exact,
    /// A lower bound (the search failed high).
    Lower,
    /// An upper bound (the search failed low).
    Upper,
}

/// One slot: `check` = key ^ `mv` ^ `data`; `data` packs the score (16
/// bits), depth (8), bound (8), age (8) and static evaluation (16).
#[derive(Debug, Default)]
struct Entry {
    check: AtomicU64,
    mv: AtomicU64,
    data: AtomicU64,
}

/// A stored result.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hit {
    pub mv: u64,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The static evaluation of the position, when it was computed.
    pub eval: Option<i32>,
}

/// The stored evaluation meaning "none" (in check, compulsory capture).
const NO_EVAL: i16 = i16::MIN;

fn pack(score: i32, depth: i32, bound: Bound, age: u8, eval: Option<i32>) -> u64 {
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = depth.clamp(-1, 127) as i8 as u8 as u64;
    let bound = match bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    let eval = eval.map_or(NO_EVAL, |e| {
        e.clamp(NO_EVAL as i32 + 1, i16::MAX as i32) as i16
    });
    score | depth << 16 | bound << 24 | (age as u64) << 32 | (eval as u16 as u64) << 40
}

fn unpack_age(data: u64) -> u8 {
    (data >> 32) as u8
}

fn unpack_depth(data: u64) -> i32 {
    (data >> 16) as u8 as i8 as i32
}

/// A transposition table of a fixed size in megabytes, with aging: entries
/// of older searches are replaced first. Probes and stores take `&self`, so
/// one table serves every thread of a search.
#[derive(Debug)]
pub struct Tt {
    entries: Vec<Entry>,
    age: u8,
}

impl Clone for Tt {
    fn clone(&self) -> Tt {
        let entries = self
            .entries
            .iter()
            .map(|e| Entry {
                check: AtomicU64::new(e.check.load(Ordering::Relaxed)),
                mv: AtomicU64::new(e.mv.load(Ordering::Relaxed)),
                data: AtomicU64::new(e.data.load(Ordering::Relaxed)),
            })
            .collect();
        Tt {
            entries,
            age: self.age,
        }
    }
}

impl Tt {
    /// A table of about `mb` megabytes (at least one entry).
    pub fn new(mb: usize) -> Tt {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
        let mut entries = Vec::with_capacity(n);
        entries.resize_with(n, Entry::default);
        Tt { entries, age: 0 }
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        for e in &mut self.entries {
            *e = Entry::default();
        }
        self.age = 0;
    }

    /// Starts a new search: entries of earlier searches age.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Per mille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                e.check.load(Ordering::Relaxed) != 0 && unpack_age(data) == self.age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        if key == 0 {
            return None;
        }
        let e = &self.entries[self.index(key)];
        let mv = e.mv.load(Ordering::Relaxed);
        let data = e.data.load(Ordering::Relaxed);
        if e.check.load(Ordering::Relaxed) ^ mv ^ data != key {
            return None;
        }
        let bound = match (data >> 24) as u8 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        let eval = (data >> 40) as u16 as i16;
        Some(Hit {
            mv,
            score: data as u16 as i16 as i32,
            depth: unpack_depth(data),
            bound,
            eval: (eval != NO_EVAL).then_some(eval as i32),
        })
    }

    /// Stores a search result (`eval`: the position's static evaluation,
    /// if known).
    pub(crate) fn store(
        &self,
        key: u64,
        mv: u64,
        score: i32,
        depth: i32,
        bound: Bound,
        eval: Option<i32>,
    ) {
        let e = &self.entries[self.index(key)];
        let old_mv = e.mv.load(Ordering::Relaxed);
        let old_data = e.data.load(Ordering::Relaxed);
        let same = e.check.load(Ordering::Relaxed) ^ old_mv ^ old_data == key;
        if !same && unpack_age(old_data) == self.age && unpack_depth(old_data) > depth + 2 {
            return;
        }
        // A shallow bound (quiescence) does not replace a much deeper result
        // for the same position.
        if same && bound != Bound::Exact && unpack_depth(old_data) > depth + 3 {
            return;
        }
        let mv = if mv == 0 && same { old_mv } else { mv };
        let data = pack(score, depth, bound, self.age, eval);
        e.mv.store(mv, Ordering::Relaxed);
        e.data.store(data, Ordering::Relaxed);
        e.check.store(key ^ mv ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_read_back() {
        let tt = Tt::new(1);
        assert!(tt.probe(0x1234).is_none());
        tt.store(0x1234, 77, -456, 9, Bound::Lower, Some(-32767));
        let h = tt.probe(0x1234).unwrap();
        assert_eq!(
            (h.mv, h.score, h.depth, h.bound, h.eval),
            (77, -456, 9, Bound::Lower, Some(-32767))
        );
        tt.store(0x1234, 0, 31000, -1, Bound::Exact, None);
        let h = tt.probe(0x1234).unwrap();
        assert_eq!(
            (h.mv, h.score, h.depth, h.bound, h.eval),
            (77, 31000, -1, Bound::Exact, None)
        );
        tt.store(0x1234, 0, -5, 3, Bound::Upper, Some(1234));
        assert_eq!(tt.probe(0x1234).unwrap().eval, Some(1234));
        // A quiescence bound keeps a deep result of the same position.
        tt.store(0x1234, 9, 50, 12, Bound::Lower, None);
        tt.store(0x1234, 0, 70, -1, Bound::Upper, None);
        let h = tt.probe(0x1234).unwrap();
        assert_eq!((h.mv, h.score, h.depth), (9, 50, 12));
        assert!(tt.probe(0x1235).is_none());
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = Tt::new(1);
        tt.store(42, 5, 10, 3, Bound::Exact, None);
        let e = &tt.entries[tt.index(42)];
        // Another thread's half-written store: the move changed, the check
        // word not yet.
        e.mv.store(6, Ordering::Relaxed);
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn deeper_entries_of_this_search_are_kept_and_old_ones_replaced() {
        let mut tt = Tt::new(1);
        let n = tt.entries.len() as u128;
        // Two keys landing on the same slot.
        let a = 5u64;
        let b = (((tt.index(a) as u128) << 64) / n + (1u128 << 64) / n / 2) as u64;
        assert_eq!(tt.index(a), tt.index(b));
        tt.store(a, 1, 0, 10, Bound::Exact, None);
        tt.store(b, 2, 0, 2, Bound::Exact, None);
        assert!(tt.probe(a).is_some() && tt.probe(b).is_none());
        tt.new_search();
        tt.store(b, 2, 0, 2, Bound::Exact, None);
        assert!(tt.probe(b).is_some() && tt.probe(a).is_none());
        tt.clear();
        assert!(tt.probe(b).is_none());
        assert_eq!(tt.hashfull(), 0);
    }
}
