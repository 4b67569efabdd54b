//! The Makruk and Ouk Chatrang tables on disk (three and four pieces in the full index,
//! the five-piece endings without khon or bia in the folded one,
//! [`super::index`]): generating a directory of them ([`generate`], resumable), and
//! reading one back ([`MakrukTables`])
//! to value positions with their counting fields and answer probes in the tablebase
//! API's shape. Tables are stored for the canonical colouring of their material
//! ([`Material::is_canonical`]); the other colouring is probed through the colour mirror.

use super::answer::{MakrukAnswer, MakrukMoveAnswer, MoveRank, file_variant};
use super::bare::Dtm;
use super::consistency::{Inconsistency, check_table};
use super::entry::{file_bytes, from_file_bytes, narrow, widen};
use super::index::{Layout, TableIndex, foldable};
use super::material::{Material, TABLE_ROLES, mirrored, table_of};
use super::solve::{SolveError, at_count, phase_count, possible, solve};
use super::{Phase, plies_left};
use crate::block_cache::BlockCache;
use crate::format::{Header, SIGNATURE_LEN, TableError, TableFile, write_table};
use makruk::{Position, Role, State, Variant};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The header's metric code of these tables: one byte of distance in plies to the end
/// of the position's phase (mate in pieces' honour, conversion otherwise), see
/// [`super`]; the byte's encoding is in [`super::entry`].
pub const METRIC_PHASE_DISTANCE: u32 = 3;
/// The same metric in two-byte entries (format version 2, [`super::entry`]): the code of
/// a table with a distance too long for a byte (a win past 127 plies or a loss past
/// 125). A table whose entries all fit a byte is written with
/// [`METRIC_PHASE_DISTANCE`], so files of one byte per entry are as before.
pub const METRIC_PHASE_DISTANCE_WIDE: u32 = 4;
/// [`METRIC_PHASE_DISTANCE`] over the folded index ([`Layout::Folded`]: one entry per
/// class of symmetric positions, the white khun in the triangle a1–d1–d4), one byte per
/// entry. A program that knows only codes 3 and 4 leaves such a file alone.
pub const METRIC_PHASE_DISTANCE_FOLDED: u32 = 5;
/// [`METRIC_PHASE_DISTANCE_WIDE`] over the folded index.
pub const METRIC_PHASE_DISTANCE_FOLDED_WIDE: u32 = 6;

/// The metric code of a table in `layout`, of two-byte entries when `wide`.
fn metric(layout: Layout, wide: bool) -> u32 {
    match (layout, wide) {
        (Layout::Full, false) => METRIC_PHASE_DISTANCE,
        (Layout::Full, true) => METRIC_PHASE_DISTANCE_WIDE,
        (Layout::Folded, false) => METRIC_PHASE_DISTANCE_FOLDED,
        (Layout::Folded, true) => METRIC_PHASE_DISTANCE_FOLDED_WIDE,
    }
}

/// The layout and entry width a header's metric code says (`None`: not a metric of
/// these tables).
fn layout_of_metric(code: u32) -> Option<(Layout, bool)> {
    [Layout::Full, Layout::Folded]
        .into_iter()
        .flat_map(|l| [(l, false), (l, true)])
        .find(|&(l, w)| metric(l, w) == code)
}

/// The file name: `makruk-KRSvK.thtb`.
pub fn table_file_name(variant: Variant, material: &Material) -> String {
    format!(
        "{}-{}.{}",
        file_variant(variant).name(),
        material.name(),
        crate::makhos::EXTENSION
    )
}

fn signature(material: &Material) -> [u8; SIGNATURE_LEN] {
    // White's roles, a zero, Black's roles (role index + 1).
    let mut s = [0u8; SIGNATURE_LEN];
    let mut k = 0;
    for &r in &material.white {
        s[k] = r.index() as u8 + 1;
        k += 1;
    }
    k += 1;
    for &r in &material.black {
        s[k] = r.index() as u8 + 1;
        k += 1;
    }
    s
}

/// The header of the table of `index`'s material in its layout, of two-byte entries
/// when `wide`.
fn header(variant: Variant, index: &TableIndex, wide: bool) -> Header {
    Header {
        variant: file_variant(variant),
        rules: 0,
        signature: signature(index.material()),
        metric: metric(index.layout(), wide),
        entries: index.entries() as u64,
        entry_bytes: if wide { 2 } else { 1 },
    }
}

/// Whether a file's header is the one the table of `index` gets, and then whether its
/// entries are two bytes wide.
fn matches_header(file: &TableFile, variant: Variant, index: &TableIndex) -> Option<bool> {
    let (layout, wide) = layout_of_metric(file.header().metric)?;
    (layout == index.layout() && *file.header() == header(variant, index, wide)).then_some(wide)
}

/// Why generation stopped.
#[derive(Debug)]
pub enum GenerateError {
    /// A table could not be solved.
    Solve(SolveError),
    /// A table file could not be written or read back.
    Table(TableError),
    /// A solved table failed its consistency check (a bug: nothing was written).
    Inconsistent {
        /// The table.
        material: Material,
        /// The first broken rule found.
        error: Inconsistency,
    },
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::Solve(e) => write!(f, "{e}"),
            GenerateError::Table(e) => write!(f, "{e}"),
            GenerateError::Inconsistent { material, error } => write!(
                f,
                "table {material} is not consistent at {}: {}",
                error.fen, error.reason
            ),
        }
    }
}

impl std::error::Error for GenerateError {}

/// What one table of a generation run did.
#[derive(Clone, Debug)]
pub struct TableProgress {
    /// The material.
    pub material: Material,
    /// Its place in the run (1-based) and the run's number of tables.
    pub number: usize,
    /// Tables in the run.
    pub total: usize,
    /// Already written and verified: read back, not solved again.
    pub skipped: bool,
    /// Seconds solving and writing (0 when skipped).
    pub seconds: f64,
    /// File size in bytes.
    pub bytes: u64,
    /// Legal positions with White (the canonical stronger side) to move: won, drawn and
    /// lost with no count (the distance not compared with any count). A folded table's
    /// entries are counted with the positions they stand for
    /// ([`TableIndex::class_size`]).
    pub white_to_move: [u64; 3],
    /// The longest win stored with White to move, in plies.
    pub longest: u16,
    /// The longest distance stored in any entry (either side to move, win or loss).
    pub longest_stored: u16,
    /// Written (or kept) with two-byte entries: a distance does not fit a byte.
    pub wide: bool,
    /// Positions the consistency check went through, and its seconds (`None`: not
    /// checked, as for a kept table or without `check`).
    pub checked: Option<(u64, f64)>,
}

/// A solved table's entries in memory: as its file holds them, one byte each unless a
/// distance needs two ([`super::entry`]), so a set of one-byte tables takes the memory
/// it always did.
#[derive(Debug)]
enum Entries {
    Bytes(Vec<u8>),
    Wide(Vec<u16>),
}

impl Entries {
    /// Entries as [`file_bytes`] would write them: one byte each when every one fits.
    fn of(values: Vec<u16>) -> Entries {
        let narrowed: Option<Vec<u8>> = values.iter().map(|&w| narrow(w)).collect();
        match narrowed {
            Some(bytes) => Entries::Bytes(bytes),
            None => Entries::Wide(values),
        }
    }

    /// Entries read back from a file's bytes.
    fn from_file(bytes: Vec<u8>, wide: bool) -> Entries {
        if wide {
            Entries::Wide(from_file_bytes(&bytes, true))
        } else {
            Entries::Bytes(bytes)
        }
    }

    fn get(&self, i: usize) -> Option<Dtm> {
        match self {
            Entries::Bytes(b) => Dtm::from_byte(b[i]),
            Entries::Wide(w) => Dtm::from_wide(w[i]),
        }
    }

    fn is_wide(&self) -> bool {
        matches!(self, Entries::Wide(_))
    }

    fn values(&self) -> Box<dyn Iterator<Item = Option<Dtm>> + '_> {
        match self {
            Entries::Bytes(b) => Box::new(b.iter().map(|&b| Dtm::from_byte(b))),
            Entries::Wide(w) => Box::new(w.iter().map(|&w| Dtm::from_wide(w))),
        }
    }
}

/// Solved tables of one variant, in memory, each with the index it was solved in.
#[derive(Debug, Default)]
pub struct Solved {
    tables: HashMap<Material, (TableIndex, Entries)>,
}

impl Solved {
    /// The stored value of `pos` (`None`: its table is not here).
    pub fn stored(&self, pos: &Position) -> Option<Dtm> {
        let (material, flip) = table_of(pos);
        let (index, table) = self.tables.get(&material)?;
        let i = if flip {
            index.index_of(&mirrored(pos))?
        } else {
            index.index_of(pos)?
        };
        table.get(i)
    }

    /// The entries of a table, if solved, as two-byte entries ([`super::entry`]).
    pub fn table(&self, material: &Material) -> Option<Vec<u16>> {
        Some(match &self.tables.get(material)?.1 {
            Entries::Bytes(b) => b.iter().map(|&b| widen(b)).collect(),
            Entries::Wide(w) => w.clone(),
        })
    }

    /// Adds a table solved in `index` (two-byte entries; kept as bytes when every entry
    /// fits one).
    pub fn insert(&mut self, index: TableIndex, values: Vec<u16>) {
        self.tables
            .insert(index.material().clone(), (index, Entries::of(values)));
    }
}

/// The materials [`generate`] solves for up to `pieces` pieces (3 to 5), in an order
/// where each comes after the tables it leads to, and the five-piece materials it
/// leaves out. Five pieces: the materials a folded index holds (ruea, ma and met only,
/// the rules allowing: not three rueas or three mas), first the pieces'-honour endings
/// (three pieces against a bare khun, `KRRNvK`, the rule book's example, first), then
/// the board's-honour ones (two pieces against one), each group strongest pieces first;
/// the materials with a khon or a bia have no generator yet.
pub fn plan(variant: Variant, pieces: u32) -> (Vec<Material>, Vec<Material>) {
    let mut run: Vec<Material> = Material::all_up_to(pieces.min(4));
    let mut left_out = Vec::new();
    let mut five: Vec<Material> = Vec::new();
    for m in Material::all_up_to(pieces) {
        if m.pieces() != 5 {
            continue;
        }
        if !possible(variant, &m) {
            continue;
        }
        if foldable(&m) {
            five.push(m);
        } else {
            left_out.push(m);
        }
    }
    let strength = |roles: &[Role]| -> Vec<usize> {
        roles
            .iter()
            .map(|r| TABLE_ROLES.iter().position(|t| t == r).unwrap_or(0))
            .collect()
    };
    five.sort_by_key(|m| {
        (
            !m.black.is_empty(),
            m.name() != "KRRNvK",
            strength(&m.white),
            strength(&m.black),
        )
    });
    run.extend(five);
    (run, left_out)
}

/// Solves every table of `variant` with up to `pieces` pieces ([`plan`]) into `dir`,
/// as [`generate_tables`] does.
pub fn generate(
    variant: Variant,
    pieces: u32,
    dir: &Path,
    check: bool,
    progress: impl FnMut(&TableProgress),
) -> Result<Solved, GenerateError> {
    generate_tables(variant, &plan(variant, pieces).0, dir, check, progress)
}

/// Solves the tables of `materials` (in order: each after the tables it leads to) into
/// `dir`, each in the layout stored on disk ([`TableIndex::of`]), keeping (and reading
/// back) files already written and verified, so an interrupted run resumes at the table
/// it stopped in; with `check`, each table solved is proved consistent
/// ([`check_table`]) before it is written. `progress` is called after each table.
/// Returns the solved tables, the five-piece ones left out (no table leads to them).
pub fn generate_tables(
    variant: Variant,
    materials: &[Material],
    dir: &Path,
    check: bool,
    mut progress: impl FnMut(&TableProgress),
) -> Result<Solved, GenerateError> {
    std::fs::create_dir_all(dir).map_err(|error| {
        GenerateError::Table(TableError::Io {
            path: dir.to_path_buf(),
            error,
        })
    })?;
    let mut solved = Solved::default();
    for (n, material) in materials.iter().enumerate() {
        let index = TableIndex::of(material).ok_or_else(|| {
            GenerateError::Solve(SolveError::NoIndex {
                table: material.name(),
            })
        })?;
        let path = dir.join(table_file_name(variant, material));
        let started = Instant::now();
        // A file of either width is kept when its header is the one this table would get.
        let kept = TableFile::open(&path).ok().and_then(|f| {
            let wide = matches_header(&f, variant, &index)?;
            Some((Entries::from_file(f.read_all().ok()?, wide), f.file_len()))
        });
        let mut checked = None;
        let (values, bytes, skipped) = match kept {
            Some((values, bytes)) => (values, bytes, true),
            None => {
                let lookup = |p: &Position| solved.stored(p);
                let values = solve(variant, &index, &lookup).map_err(GenerateError::Solve)?;
                if check {
                    let t = Instant::now();
                    let n = check_table(variant, &index, &values, &lookup).map_err(|error| {
                        GenerateError::Inconsistent {
                            material: material.clone(),
                            error,
                        }
                    })?;
                    checked = Some((n, t.elapsed().as_secs_f64()));
                }
                let (file, wide) = file_bytes(&values);
                let bytes = write_table(&path, &header(variant, &index, wide), &file)
                    .map_err(GenerateError::Table)?;
                drop(file);
                (Entries::of(values), bytes, false)
            }
        };
        let wide = values.is_wide();
        let mut white_to_move = [0u64; 3];
        let mut longest = 0;
        let longest_stored = values
            .values()
            .filter_map(|v| match v {
                Some(Dtm::Win(d) | Dtm::Loss(d)) => Some(d),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        for (i, v) in values.values().enumerate().step_by(2) {
            let Some(v) = v else { continue };
            let positions = index.class_size(i);
            match v {
                Dtm::Win(d) => {
                    white_to_move[0] += positions;
                    longest = longest.max(d);
                }
                Dtm::Draw => white_to_move[1] += positions,
                Dtm::Loss(_) => white_to_move[2] += positions,
            }
        }
        progress(&TableProgress {
            material: material.clone(),
            number: n + 1,
            total: materials.len(),
            skipped,
            seconds: if skipped {
                0.0
            } else {
                started.elapsed().as_secs_f64()
            },
            bytes,
            white_to_move,
            longest,
            longest_stored,
            wide,
            checked,
        });
        // No table of a run leads to a five-piece one: its memory is given back.
        if material.pieces() < 5 {
            solved.tables.insert(material.clone(), (index, values));
        }
    }
    Ok(solved)
}

/// What a table says about a position, for the side to move, under its counting fields.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// `1` win, `0` draw, `-1` loss.
    pub value: i8,
    /// The stored distance, without the count.
    pub stored: Dtm,
    /// The phase the position is in: in pieces' honour the distance is to mate, otherwise
    /// to the end of the phase (mate, or the move that starts a new count).
    pub phase: Phase,
}

impl Verdict {
    /// The signed plies to mate (pieces' honour only): positive when the side to move
    /// mates, negative when it is mated.
    pub fn dtm(&self) -> Option<i32> {
        (self.phase == Phase::PiecesHonour)
            .then(|| signed(self.stored))
            .flatten()
    }

    /// The signed plies to the end of the phase (board's honour, or no count).
    pub fn dtc(&self) -> Option<i32> {
        (self.phase != Phase::PiecesHonour)
            .then(|| signed(self.stored))
            .flatten()
    }
}

fn signed(d: Dtm) -> Option<i32> {
    match d {
        Dtm::Win(d) => Some(i32::from(d)),
        Dtm::Loss(d) => Some(-i32::from(d)),
        Dtm::Draw => None,
    }
}

/// The Makruk or Ouk Chatrang tables of one variant in a directory, memory-mapped.
#[derive(Debug)]
pub struct MakrukTables {
    variant: Variant,
    /// Each table, the phase its positions are in, and its index.
    files: HashMap<Material, (TableFile, Phase, TableIndex)>,
    max_pieces: u32,
}

impl MakrukTables {
    /// Opens every table of `variant` in `dir`, three to five pieces (files of other
    /// variants and kinds are left alone); each file's header (its layout included) and
    /// block index are checked. Decompressed blocks are kept in the process's shared
    /// cache ([`BlockCache::shared`]).
    pub fn open(dir: &Path, variant: Variant) -> Result<MakrukTables, TableError> {
        MakrukTables::open_with_cache(dir, variant, BlockCache::shared())
    }

    /// [`MakrukTables::open`], keeping decompressed blocks in `cache`.
    pub fn open_with_cache(
        dir: &Path,
        variant: Variant,
        cache: Arc<BlockCache>,
    ) -> Result<MakrukTables, TableError> {
        if !dir.is_dir() {
            return Err(TableError::Io {
                path: dir.to_path_buf(),
                error: std::io::Error::new(std::io::ErrorKind::NotFound, "no such directory"),
            });
        }
        let mut files = HashMap::new();
        for material in Material::all_up_to(5) {
            let path: PathBuf = dir.join(table_file_name(variant, &material));
            if !path.exists() {
                continue;
            }
            let file = TableFile::open_with_cache(&path, Arc::clone(&cache))?;
            if layout_of_metric(file.header().metric).is_none() {
                // A table of the first format (bare khun, distance to mate): not read.
                continue;
            }
            let index = TableIndex::of(&material)
                .filter(|index| matches_header(&file, variant, index).is_some());
            let Some(index) = index else {
                return Err(TableError::BadHeader {
                    path,
                    reason: format!("not the {} table its name says", material.name()),
                });
            };
            let phase = material_phase(variant, &material);
            files.insert(material, (file, phase, index));
        }
        let max_pieces = files.keys().map(Material::pieces).max().unwrap_or(0);
        Ok(MakrukTables {
            variant,
            files,
            max_pieces,
        })
    }

    /// How many tables were found.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no table was found.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The most pieces (khuns included) of a position these tables hold.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The stored value of `pos`, `None` outside the tables; a damaged block is an error.
    pub fn stored(&self, pos: &Position) -> Result<Option<Dtm>, TableError> {
        if pos.variant() != self.variant
            || pos.occupied().count() > self.max_pieces
            || pos.special_rights().any()
        {
            return Ok(None);
        }
        let (material, flip) = table_of(pos);
        let Some((file, _, index)) = self.files.get(&material) else {
            return Ok(None);
        };
        let i = if flip {
            index.index_of(&mirrored(pos))
        } else {
            index.index_of(pos)
        };
        let Some(i) = i else {
            return Ok(None);
        };
        let entry = file.entry(i as u64)?;
        let value = if file.header().entry_bytes == 2 {
            entry.map(Dtm::from_wide)
        } else {
            entry.map(|e| Dtm::from_byte(e as u8))
        };
        match value {
            Some(Some(d)) => Ok(Some(d)),
            _ => Err(TableError::Corrupt {
                path: file.path().to_path_buf(),
                what: format!("the entry of {}", pos.fen()),
            }),
        }
    }

    /// The value of `pos` for the side to move under its counting fields, `None` outside
    /// the tables. A position whose material runs a count but whose FEN has none is
    /// valued through its moves (the rules start the count with the next move).
    pub fn verdict(&self, pos: &Position) -> Result<Option<Verdict>, TableError> {
        let state = pos.state();
        let stored = match state {
            State::Checkmate => Dtm::Loss(0),
            State::Ongoing => match self.stored(pos)? {
                Some(d) => d,
                None => return Ok(None),
            },
            _ => Dtm::Draw,
        };
        if state == State::InsufficientMaterial || pos.occupied().count() > self.max_pieces {
            return Ok(None);
        }
        let Some(&(_, phase, _)) = self.files.get(&table_of(pos).0) else {
            return Ok(None);
        };
        let value = if super::phase(pos) == Phase::NoCount
            && phase != Phase::NoCount
            && state == State::Ongoing
        {
            let mut best = -1;
            for &m in pos.legal_moves().iter() {
                let child = pos.played(m);
                let v = match self.verdict(&child)? {
                    Some(v) => v.value,
                    None if child.state() == State::InsufficientMaterial => 0,
                    None => return Ok(None),
                };
                best = best.max(-v);
            }
            best
        } else {
            match at_count(stored, plies_left(pos)) {
                Dtm::Win(_) => 1,
                Dtm::Loss(_) => -1,
                Dtm::Draw => 0,
            }
        };
        Ok(Some(Verdict {
            value,
            stored,
            phase,
        }))
    }

    /// The answer for `pos` (with its counting fields), `None` when its material has no
    /// table here; a damaged block is an error.
    pub fn answer(&self, pos: &Position) -> Result<Option<MakrukAnswer>, TableError> {
        let Some(here) = self.verdict(pos)? else {
            return Ok(None);
        };
        let mut moves: Vec<(MoveRank, MakrukMoveAnswer)> = Vec::new();
        for &m in pos.legal_moves().iter() {
            let child = pos.played(m);
            // Two khuns alone (a capture of the last piece) are a draw outside any table.
            let after = self.verdict(&child)?;
            let value = after.map_or(0, |v| v.value);
            moves.push((
                MoveRank::new(pos, &child, value, after.map(|v| v.stored)),
                MakrukMoveAnswer {
                    uci: m.to_uci(),
                    san: pos.san(m),
                    category: category(value),
                    dtm: after.and_then(|v| v.dtm()),
                    dtc: after.and_then(|v| v.dtc()),
                },
            ));
        }
        moves.sort_by_key(|(rank, _)| rank.key());
        Ok(Some(MakrukAnswer {
            category: category(here.value),
            dtm: here.dtm(),
            dtc: here.dtc(),
            plies_left: plies_left(pos),
            moves: moves.into_iter().map(|(_, a)| a).collect(),
        }))
    }
}

/// The phase every position of `material` is in once its count runs (the metric its
/// table stores).
pub fn material_phase(variant: Variant, material: &Material) -> Phase {
    if phase_count(variant, material).0 == 0 {
        Phase::NoCount
    } else if material.white.is_empty() || material.black.is_empty() {
        Phase::PiecesHonour
    } else {
        Phase::BoardsHonour
    }
}

fn category(value: i8) -> &'static str {
    match value {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::makruk::entry::{WIDE_INVALID, wide};
    use makruk::Role;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "thaiboard-tb-mk-unit-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Five pieces: the four-piece set first, then the eight pieces'-honour materials of
    /// ruea, ma and met the rules allow (not three rueas or three mas), the rule book's
    /// example first, then the eighteen of two such pieces against one; the materials
    /// with a khon or a bia are named as left out.
    #[test]
    fn the_five_piece_plan_is_the_foldable_endings() {
        let (run, left_out) = plan(Variant::Makruk, 5);
        let four = Material::all_up_to(4);
        assert_eq!(run[..four.len()], four[..]);
        let five: Vec<String> = run[four.len()..].iter().map(Material::name).collect();
        assert_eq!(
            five[..8],
            [
                "KRRNvK", "KRRMvK", "KRNNvK", "KRNMvK", "KRMMvK", "KNNMvK", "KNMMvK", "KMMMvK"
            ]
        );
        assert_eq!(five.len(), 8 + 18, "{five:?}");
        assert_eq!(five[8..11], ["KRRvKR", "KRRvKN", "KRRvKM"]);
        assert_eq!(five.last().map(String::as_str), Some("KMMvKM"));
        for name in &five[8..] {
            let m = Material::from_name(name).unwrap();
            assert!(
                foldable(&m) && m.white.len() == 2 && m.black.len() == 1,
                "{name}"
            );
        }
        assert_eq!(left_out.len(), 99 - 18);
        assert!(left_out.iter().all(|m| m.pieces() == 5 && !foldable(m)));
        assert!(left_out.iter().any(|m| m.name() == "KRRSvK"));
        let krrr = Material::from_name("KRRRvK").unwrap();
        assert!(!possible(Variant::Makruk, &krrr));
        assert!(!run.contains(&krrr) && !left_out.contains(&krrr));
        assert_eq!(plan(Variant::Makruk, 4).0, four);
    }

    /// A table with distances past a byte (synthetic: the three-piece tables have no such
    /// distance) is written with two-byte entries under the wide metric, probed, kept by
    /// a resumed generation, and refused when cut short.
    #[test]
    fn a_table_of_two_byte_entries_is_probed_kept_and_checked() {
        let dir = scratch("wide");
        let variant = Variant::Cambodian;
        let material = Material::new(vec![Role::Rook], vec![]);
        let white = Position::from_fen(variant, "4k3/8/8/8/8/8/8/R2K4 w - - 0 1").unwrap();
        let black = Position::from_fen(variant, "4k3/8/8/8/8/8/8/R2K4 b - - 0 1").unwrap();
        let index = TableIndex::of(&material).unwrap();
        let mut values = vec![WIDE_INVALID; index.entries()];
        let at = |pos: &Position| index.index_of(pos).unwrap();
        values[at(&white)] = wide(Dtm::Win(200)).unwrap();
        values[at(&black)] = wide(Dtm::Loss(126)).unwrap();
        let (bytes, is_wide) = file_bytes(&values);
        assert!(is_wide);
        let path = dir.join(table_file_name(variant, &material));
        write_table(&path, &header(variant, &index, true), &bytes).unwrap();
        let file = TableFile::open(&path).unwrap();
        assert_eq!(file.header().metric, METRIC_PHASE_DISTANCE_WIDE);
        assert_eq!(file.header().entry_bytes, 2);

        let tables = MakrukTables::open(&dir, variant).unwrap();
        assert_eq!(tables.len(), 1);
        assert_eq!(tables.stored(&white).unwrap(), Some(Dtm::Win(200)));
        assert_eq!(tables.stored(&black).unwrap(), Some(Dtm::Loss(126)));

        // A resumed generation keeps the file as it is (its values are read back two
        // bytes wide) and solves the rest one byte wide.
        let mut seen = Vec::new();
        let solved = generate(variant, 3, &dir, false, |step| {
            seen.push((step.material.clone(), step.skipped, step.wide));
        })
        .unwrap();
        assert!(seen.contains(&(material.clone(), true, true)), "{seen:?}");
        assert!(seen.iter().all(|(m, _, wide)| *wide == (*m == material)));
        assert_eq!(solved.stored(&black), Some(Dtm::Loss(126)));

        // Cut short, the file is refused with the tables.
        let good = std::fs::read(&path).unwrap();
        std::fs::write(&path, &good[..good.len() / 2]).unwrap();
        let err = MakrukTables::open(&dir, variant).unwrap_err();
        assert!(matches!(err, TableError::Truncated { .. }), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
