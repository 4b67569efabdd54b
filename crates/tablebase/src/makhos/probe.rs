//! Probing Mak-hot tables: a position with its no-progress count → win, draw or loss,
//! the plies to the next zeroing move, and the value of every legal move.

use super::dtw::{DtwEntry, METRIC_DTW32};
use super::index::{Material, TableIndex};
use super::{METRIC_DTZ32, NO_PROGRESS_LIMIT, Stored};
use crate::block_cache::BlockCache;
use crate::format::{TableError, TableFile, Variant};
use core::fmt;
use makhos::{Move, Position, Rules};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// File-name extension of table files.
pub const EXTENSION: &str = "thtb";

/// The rule option's byte in a table header.
pub fn rules_code(rules: Rules) -> u8 {
    match rules {
        Rules::Default => 0,
        Rules::NoReverse => 1,
    }
}

/// The file name of a table: `makhos-default-KKvK.thtb`.
pub fn file_name(rules: Rules, material: Material) -> String {
    format!("makhos-{}-{material}.{EXTENSION}", rules.name())
}

/// The file name of a table's distance-to-win file: `makhos-default-KKvK-dtw.thtb`.
pub fn dtw_file_name(rules: Rules, material: Material) -> String {
    format!("makhos-{}-{material}-dtw.{EXTENSION}", rules.name())
}

/// Win, draw or loss for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Wdl {
    /// `win`, `draw` or `loss`, as the tablebase API names categories.
    pub const fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }

    /// The value for the other side.
    pub const fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

/// The value of a position at a given count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The result with best play, under the count.
    pub wdl: Wdl,
    /// What the table stores (the value with a fresh count).
    pub stored: Stored,
    /// Plies already on the no-progress count.
    pub no_progress: u32,
}

impl Probe {
    /// For a win, the plies to the zeroing move that keeps it (fewest); for a loss, the
    /// plies the loser can hold out before the zeroing move (most); `None` for a draw.
    pub fn zeroing_plies(&self) -> Option<u32> {
        match (self.wdl, self.stored) {
            (Wdl::Win, Stored::Win(d)) | (Wdl::Loss, Stored::Loss(d)) => Some(d as u32),
            _ => None,
        }
    }
}

/// One legal move and the value after it, for the opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Whether it is a capture or a man move (the count starts again).
    pub zeroing: bool,
    /// The position after the move, from the opponent's side.
    pub after: Probe,
}

/// Why a probe has no answer.
#[derive(Debug)]
pub enum ProbeError {
    /// The position's material has no table in the directory.
    Missing {
        /// The material.
        material: Material,
    },
    /// A table was unreadable or corrupt.
    Table(TableError),
    /// The tables contradict themselves (a file damaged with a matching checksum, or
    /// made by a faulty generator): the position and what is wrong.
    Contradiction {
        /// The position, in Mak-hot position text.
        position: String,
        /// What the tables say that cannot be.
        reason: &'static str,
    },
    /// The material's table has no distance-to-win file beside it.
    NoDistances {
        /// The material.
        material: Material,
    },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Missing { material } => write!(
                f,
                "position outside the tables: no {material} table (generate it with more pieces)"
            ),
            ProbeError::Table(e) => write!(f, "{e}"),
            ProbeError::Contradiction { position, reason } => write!(
                f,
                "the tables contradict themselves at {position}: {reason}"
            ),
            ProbeError::NoDistances { material } => write!(
                f,
                "no distance-to-win file beside the {material} table (run tb gen again to add it)"
            ),
        }
    }
}

impl std::error::Error for ProbeError {}

impl From<TableError> for ProbeError {
    fn from(e: TableError) -> Self {
        ProbeError::Table(e)
    }
}

/// Where a position's value comes from: the rule book, or an entry of a table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Located {
    /// The side to move has no legal move: lost in 0.
    NoMove,
    /// One king each: a draw.
    KingsOnly,
    /// Entry `index` of the canonical `material`'s table (the position flipped to it when
    /// its own material is not canonical, [`Material::is_canonical`]).
    Entry {
        /// The canonical material.
        material: Material,
        /// The entry in its table.
        index: u64,
    },
}

/// Decides the rule-book ends first (no legal move, one king each), else finds the
/// position's table entry. Generation and probing both go through here.
pub fn locate(pos: &Position, rules: Rules) -> Located {
    if pos.count_legal_moves(rules) == 0 {
        return Located::NoMove;
    }
    if pos.is_kings_only_draw() {
        return Located::KingsOnly;
    }
    let material = Material::of(pos);
    let index = if material.is_canonical() {
        TableIndex::new(material).index_of(pos)
    } else {
        TableIndex::new(material.flipped()).index_of(&pos.flipped())
    };
    Located::Entry {
        material: material.canonical(),
        index,
    }
}

/// The stored value of `pos`, deciding the rule-book ends first: no legal move is a loss
/// in 0, one king each is a draw; otherwise `lookup(material, index)` gives the byte (or
/// `None` when there is no table) of the entry [`locate`] finds.
pub fn resolve<E>(
    pos: &Position,
    rules: Rules,
    mut lookup: impl FnMut(Material, u64) -> Result<Option<u8>, E>,
) -> Result<Option<Stored>, E> {
    match locate(pos, rules) {
        Located::NoMove => Ok(Some(Stored::Loss(0))),
        Located::KingsOnly => Ok(Some(Stored::Draw)),
        Located::Entry { material, index } => {
            Ok(lookup(material, index)?.and_then(Stored::from_byte))
        }
    }
}

/// A directory of Mak-hot tables for one rule option, memory-mapped.
#[derive(Debug)]
pub struct MakhosTables {
    rules: Rules,
    files: HashMap<Material, TableFile>,
    /// The distance-to-win files present ([`super::dtw`]).
    dtw_files: HashMap<Material, TableFile>,
}

impl MakhosTables {
    /// Opens every Mak-hot table of `rules` in `dir` (other files are left alone). Each
    /// file's header and index are checked; a damaged file is refused with its error.
    /// Decompressed blocks are kept in the process's shared cache
    /// ([`BlockCache::shared`]).
    pub fn open(dir: &Path, rules: Rules) -> Result<MakhosTables, TableError> {
        MakhosTables::open_with_cache(dir, rules, BlockCache::shared())
    }

    /// [`MakhosTables::open`], keeping decompressed blocks in `cache`.
    pub fn open_with_cache(
        dir: &Path,
        rules: Rules,
        cache: Arc<BlockCache>,
    ) -> Result<MakhosTables, TableError> {
        let io = |error| TableError::Io {
            path: dir.to_path_buf(),
            error,
        };
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
            .collect();
        paths.sort();
        let mut files = HashMap::new();
        let mut dtw_files = HashMap::new();
        for path in paths {
            let file = TableFile::open_with_cache(&path, Arc::clone(&cache))?;
            let h = file.header();
            if h.variant != Variant::Makhos || h.rules != rules_code(rules) {
                continue;
            }
            let material =
                Material::from_signature(&h.signature).ok_or_else(|| TableError::BadHeader {
                    path: path.clone(),
                    reason: "bad Mak-hot material signature".to_string(),
                })?;
            if !material.is_canonical() {
                // Written before tables were folded by colour: the flipped table serves it.
                continue;
            }
            if h.entries != TableIndex::new(material).len() {
                return Err(TableError::BadHeader {
                    path,
                    reason: format!("entry count does not fit {material}"),
                });
            }
            match (h.metric, h.entry_bytes) {
                (METRIC_DTZ32, 1) => files.insert(material, file),
                (METRIC_DTW32, 2) => dtw_files.insert(material, file),
                (metric, width) => {
                    return Err(TableError::BadHeader {
                        path,
                        reason: format!(
                            "metric {metric} with {width}-byte entries is not a Mak-hot table"
                        ),
                    });
                }
            };
        }
        Ok(MakhosTables {
            rules,
            files,
            dtw_files,
        })
    }

    /// The rule option of these tables.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The materials present.
    pub fn materials(&self) -> Vec<Material> {
        let mut m: Vec<Material> = self.files.keys().copied().collect();
        m.sort_by_key(|m| (m.total(), m.men(), *m));
        m
    }

    /// The stored value of `pos` (with a fresh count).
    pub fn stored(&self, pos: &Position) -> Result<Stored, ProbeError> {
        match locate(pos, self.rules) {
            Located::NoMove => Ok(Stored::Loss(0)),
            Located::KingsOnly => Ok(Stored::Draw),
            Located::Entry { material, index } => self.stored_entry(pos, material, index),
        }
    }

    /// Entry `index` of `material`'s table, the one [`locate`] found for `pos`.
    fn stored_entry(
        &self,
        pos: &Position,
        material: Material,
        index: u64,
    ) -> Result<Stored, ProbeError> {
        let file = self
            .files
            .get(&material)
            .ok_or(ProbeError::Missing { material })?;
        file.get(index)?.and_then(Stored::from_byte).ok_or_else(|| {
            ProbeError::Table(TableError::Corrupt {
                path: file.path().to_path_buf(),
                what: format!("the entry of {pos}"),
            })
        })
    }

    /// The value of `pos` with `no_progress` plies on the count.
    pub fn probe(&self, pos: &Position, no_progress: u32) -> Result<Probe, ProbeError> {
        let stored = self.stored(pos)?;
        Ok(Probe {
            wdl: stored.at_count(no_progress),
            stored,
            no_progress,
        })
    }

    /// Whether every table present has its distance-to-win file.
    pub fn has_distances(&self) -> bool {
        !self.files.is_empty() && self.files.keys().all(|m| self.dtw_files.contains_key(m))
    }

    /// The stored value of `pos` and its distance-to-win entry (with a fresh count),
    /// located once for both files.
    fn stored_with_distance(&self, pos: &Position) -> Result<(Stored, DtwEntry), ProbeError> {
        let none = DtwEntry { plies: 0, slack: 0 };
        let (material, index) = match locate(pos, self.rules) {
            Located::NoMove => return Ok((Stored::Loss(0), none)),
            Located::KingsOnly => return Ok((Stored::Draw, none)),
            Located::Entry { material, index } => (material, index),
        };
        let stored = self.stored_entry(pos, material, index)?;
        let file = self
            .dtw_files
            .get(&material)
            .ok_or(ProbeError::NoDistances { material })?;
        let entry = file.entry(index)?.ok_or_else(|| {
            ProbeError::Table(TableError::Corrupt {
                path: file.path().to_path_buf(),
                what: format!("the distance of {pos}"),
            })
        })?;
        Ok((stored, DtwEntry::from_u16(entry)))
    }

    /// The plies to the end of the game with best play (the winner ending it soonest
    /// within the count, the loser putting it off), with `no_progress` plies on the
    /// count: `Some` for a win or a loss at that count, `None` for a draw. Exact at every
    /// count ([`super::dtw`]): read from the file where the distance has settled, else
    /// found by searching the king moves down to the next zeroing move.
    pub fn distance_to_win(
        &self,
        pos: &Position,
        no_progress: u32,
    ) -> Result<Option<u32>, ProbeError> {
        let left = NO_PROGRESS_LIMIT.saturating_sub(no_progress);
        let (stored, entry) = self.stored_with_distance(pos)?;
        if stored.at_count(no_progress) == Wdl::Draw {
            return Ok(None);
        }
        let mut memo = HashMap::new();
        self.distance_left(pos, stored, entry, left, &mut memo)
            .map(Some)
    }

    /// [`MakhosTables::distance_to_win`] with `left` plies left, of a position won or
    /// lost at that count, whose stored value and distance entry are `stored` and
    /// `entry`.
    fn distance_left(
        &self,
        pos: &Position,
        stored: Stored,
        entry: DtwEntry,
        left: u32,
        memo: &mut HashMap<(Position, u32), u32>,
    ) -> Result<u32, ProbeError> {
        let (won, zeroing) = match stored {
            Stored::Win(d) => (true, u32::from(d)),
            Stored::Loss(d) => (false, u32::from(d)),
            Stored::Draw => return Ok(0),
        };
        if zeroing == 0 || entry.settled(zeroing, left) {
            return Ok(u32::from(entry.plies));
        }
        if let Some(&d) = memo.get(&(*pos, left)) {
            return Ok(d);
        }
        // The fresh-count distance is a lower bound: fewer plies left only narrow the
        // winner's choice.
        let bound = u32::from(entry.plies);
        let mut best = if won { u32::MAX } else { 0 };
        for mv in pos.legal_moves(self.rules) {
            let child = pos.played(&mv);
            let zeroing_move = mv.is_capture() || pos.is_man_move(&mv);
            let (after, child_entry) = self.stored_with_distance(&child)?;
            let child_left = if zeroing_move {
                NO_PROGRESS_LIMIT
            } else {
                left - 1
            };
            let child_wdl = after.at_count(NO_PROGRESS_LIMIT - child_left);
            // The winner only plays moves that keep the win and might beat the best; the
            // loser has no move that does not lose.
            if won && (child_wdl != Wdl::Loss || 1 + u32::from(child_entry.plies) >= best) {
                continue;
            }
            if !won && child_wdl != Wdl::Win {
                return Err(contradiction(pos, "a loss with a move that does not lose"));
            }
            let d = 1 + self.distance_left(&child, after, child_entry, child_left, memo)?;
            if won {
                best = best.min(d);
                if best == bound {
                    break;
                }
            } else {
                best = best.max(d);
            }
        }
        if best == u32::MAX {
            return Err(contradiction(pos, "a win that no move keeps"));
        }
        memo.insert((*pos, left), best);
        Ok(best)
    }

    /// Every legal move with the value after it, best first for the side to move: the
    /// fastest wins, then draws, then the longest losses.
    pub fn probe_moves(
        &self,
        pos: &Position,
        no_progress: u32,
    ) -> Result<Vec<MoveValue>, ProbeError> {
        let mut out = Vec::new();
        for mv in pos.legal_moves(self.rules) {
            let zeroing = mv.is_capture() || pos.is_man_move(&mv);
            let count = if zeroing {
                0
            } else {
                (no_progress + 1).min(NO_PROGRESS_LIMIT)
            };
            let after = self.probe(&pos.played(&mv), count)?;
            out.push(MoveValue { mv, zeroing, after });
        }
        out.sort_by_key(move_order_key);
        Ok(out)
    }
}

/// The error of tables that contradict themselves at `pos`.
fn contradiction(pos: &Position, reason: &'static str) -> ProbeError {
    ProbeError::Contradiction {
        position: pos.to_string(),
        reason,
    }
}

/// Sort key of a move for the side playing it: wins by fewest plies, draws, losses by most.
fn move_order_key(m: &MoveValue) -> (u8, i64) {
    let plies = |z: bool| {
        if z {
            0
        } else {
            m.after.zeroing_plies().unwrap_or(0) as i64
        }
    };
    match m.after.wdl {
        Wdl::Loss => (0, plies(m.zeroing)),
        Wdl::Draw => (1, 0),
        Wdl::Win => (2, -plies(m.zeroing)),
    }
}
