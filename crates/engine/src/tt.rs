//! The transposition table, shared by both games (moves are stored as codes).

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

#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    key: u64,
    mv: u64,
    score: i16,
    depth: i8,
    bound: u8,
    age: u8,
}

/// A stored result.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hit {
    pub mv: u64,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// A transposition table of a fixed size in megabytes, with aging: entries
/// of older searches are replaced first.
#[derive(Clone, Debug)]
pub struct Tt {
    entries: Vec<Entry>,
    age: u8,
}

impl Tt {
    /// A table of about `mb` megabytes (at least one entry).
    pub fn new(mb: usize) -> Tt {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
        Tt {
            entries: vec![Entry::default(); n],
            age: 0,
        }
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
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
            .filter(|e| e.key != 0 && e.age == self.age)
            .count();
        (used * 1000 / n.max(1)) as u32
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[self.index(key)];
        if e.key != key || key == 0 {
            return None;
        }
        let bound = match e.bound {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv: e.mv,
            score: e.score as i32,
            depth: e.depth as i32,
            bound,
        })
    }

    pub(crate) fn store(&mut self, key: u64, mv: u64, score: i32, depth: i32, bound: Bound) {
        let i = self.index(key);
        let age = self.age;
        let e = &mut self.entries[i];
        if e.key != key && e.age == age && e.depth as i32 > depth + 2 {
            return;
        }
        let mv = if mv == 0 && e.key == key { e.mv } else { mv };
        *e = Entry {
            key,
            mv,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound: match bound {
                Bound::Exact => 0,
                Bound::Lower => 1,
                Bound::Upper => 2,
            },
            age,
        };
    }
}
