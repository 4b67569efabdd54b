//! Retrograde generation of Mak-hot tables (the metric is in the module above).
//!
//! Generation is forward-looking retrograde analysis: every position's moves are
//! generated once by the rules crate; zeroing moves are valued at once from tables (or
//! layouts) already solved, and king moves, which stay in the layout, are resolved by
//! rounds of increasing distance.
//!
//! Memory: only the table being solved and the tables its zeroing moves reach
//! ([`leads_to`]: fewer pieces of the side that does not move, or one man crowned) are
//! held in memory, read back whole from their files when a table needs them, so a run
//! needs about the largest table and its successors, not every table solved so far
//! (which passes 5 GB with six pieces).

use super::index::{Material, TableIndex};
use super::probe::{file_name, resolve, rules_code};
use super::{DRAW, INVALID, LOSS_BASE, METRIC_DTZ32, NO_PROGRESS_LIMIT, Stored, Wdl};
use crate::format::{Header, TableError, TableFile, Variant, write_table};
use core::fmt;
use makhos::{Position, Rules};
use std::cmp::Reverse;
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

/// Byte of a position not decided yet (only during generation).
const UNDECIDED: u8 = 254;

/// Why generation stopped.
#[derive(Debug)]
pub enum GenerateError {
    /// A table needed by a capture or promotion is not solved (a bug in the order).
    MissingTable {
        /// The table being generated.
        table: Material,
        /// The table it needed.
        needed: Material,
    },
    /// A table file could not be written or read back.
    Table(TableError),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::MissingTable { table, needed } => {
                write!(f, "generating {table}: table {needed} is not solved yet")
            }
            GenerateError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<TableError> for GenerateError {
    fn from(e: TableError) -> Self {
        GenerateError::Table(e)
    }
}

/// What happened to one table of a run.
#[derive(Clone, Debug)]
pub struct GenerateProgress {
    /// The table.
    pub material: Material,
    /// Its place in the run (1-based) and the run's number of tables.
    pub number: usize,
    /// Tables in the run.
    pub total: usize,
    /// Already written and verified: not generated again.
    pub skipped: bool,
    /// Seconds spent generating (0 when skipped).
    pub seconds: f64,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// Positions in the table (valid entries) that are wins, draws and losses for the side
    /// to move with a fresh count.
    pub wins: u64,
    /// See `wins`.
    pub draws: u64,
    /// See `wins`.
    pub losses: u64,
}

/// Generates (or, when already written and verified, reads back) every table with up to
/// `pieces` pieces into `dir`, calling `progress` after each table. The tables a table
/// needs are read from `dir`, where the run has written or found them.
pub fn generate(
    dir: &Path,
    rules: Rules,
    pieces: u32,
    mut progress: impl FnMut(&GenerateProgress),
) -> Result<Vec<GenerateProgress>, GenerateError> {
    std::fs::create_dir_all(dir).map_err(|error| TableError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    let materials = Material::all_up_to(pieces);
    // Only the tables the current one's zeroing moves reach are held in memory; the
    // others are read back from their files when a later table needs them.
    let mut solved: HashMap<Material, Vec<u8>> = HashMap::new();
    let mut report = Vec::new();
    for (i, &material) in materials.iter().enumerate() {
        let path = dir.join(file_name(rules, material));
        let expected = header(rules, material);
        let existing = TableFile::open(&path)
            .ok()
            .filter(|f| *f.header() == expected)
            .and_then(|f| f.read_all().ok().map(|v| (v, f.file_len())));
        let start = Instant::now();
        let (values, bytes, skipped) = match existing {
            Some((values, bytes)) => (values, bytes, true),
            None => {
                solved.retain(|&m, _| leads_to(material, m));
                for &m in &materials[..i] {
                    if leads_to(material, m) && !solved.contains_key(&m) {
                        let file = TableFile::open(&dir.join(file_name(rules, m)))?;
                        solved.insert(m, file.read_all()?);
                    }
                }
                let values = generate_table(material, rules, &solved)?;
                let bytes = write_table(&path, &expected, &values)?;
                (values, bytes, false)
            }
        };
        let (wins, draws, losses) = tally(&values);
        let step = GenerateProgress {
            material,
            number: i + 1,
            total: materials.len(),
            skipped,
            seconds: if skipped {
                0.0
            } else {
                start.elapsed().as_secs_f64()
            },
            bytes,
            wins,
            draws,
            losses,
        };
        progress(&step);
        report.push(step);
        // Kept while the next table may need it (the next `retain` decides).
        solved.insert(material, values);
    }
    Ok(report)
}

/// Whether a zeroing move (a capture, a man move, a promotion) from a position of `from`
/// can lead to a position of `to`, a different material: the mover keeps its pieces (one
/// man may be crowned), the other side only loses some.
pub fn leads_to(from: Material, to: Material) -> bool {
    if from == to {
        return false;
    }
    let keeps_or_crowns = |men: u8, kings: u8, men_to: u8, kings_to: u8| {
        (men_to == men && kings_to == kings) || (men_to + 1 == men && kings_to == kings + 1)
    };
    let white_moves = keeps_or_crowns(
        from.white_men,
        from.white_kings,
        to.white_men,
        to.white_kings,
    ) && to.black_men <= from.black_men
        && to.black_kings <= from.black_kings;
    let black_moves = keeps_or_crowns(
        from.black_men,
        from.black_kings,
        to.black_men,
        to.black_kings,
    ) && to.white_men <= from.white_men
        && to.white_kings <= from.white_kings;
    white_moves || black_moves
}

/// The header a table of `material` under `rules` carries.
fn header(rules: Rules, material: Material) -> Header {
    Header {
        variant: Variant::Makhos,
        rules: rules_code(rules),
        signature: material.signature(),
        metric: METRIC_DTZ32,
        entries: TableIndex::new(material).len(),
        entry_bytes: 1,
    }
}

/// Wins, draws and losses among a table's valid entries, with a fresh count.
fn tally(values: &[u8]) -> (u64, u64, u64) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for &b in values {
        match Stored::from_byte(b).map(|s| s.at_count(0)) {
            Some(Wdl::Win) => w += 1,
            Some(Wdl::Draw) => d += 1,
            Some(Wdl::Loss) => l += 1,
            None => {}
        }
    }
    (w, d, l)
}

/// What one position's moves lead to, before the rounds.
struct Node {
    /// Some zeroing move leads to a position the opponent loses with a fresh count.
    zero_win: bool,
    /// Every zeroing move (if any) leads to a position the opponent wins with a fresh count.
    zero_all_lose: bool,
    /// Where the king moves lead (entries of the same layout, relative to its start).
    targets: Vec<u32>,
}

/// Solves one table; `solved` holds every table its captures and promotions reach.
pub fn generate_table(
    material: Material,
    rules: Rules,
    solved: &HashMap<Material, Vec<u8>>,
) -> Result<Vec<u8>, GenerateError> {
    let index = TableIndex::new(material);
    let mut values = vec![INVALID; index.len() as usize];
    let mut layouts: Vec<u64> = (0..index.layouts())
        .filter(|&l| index.layout_men(l).is_some())
        .collect();
    layouts.sort_by_key(|&l| Reverse(index.advancement(l)));
    for layout in layouts {
        solve_layout(&index, layout, rules, solved, &mut values)?;
    }
    Ok(values)
}

fn solve_layout(
    index: &TableIndex,
    layout: u64,
    rules: Rules,
    solved: &HashMap<Material, Vec<u8>>,
    values: &mut [u8],
) -> Result<(), GenerateError> {
    let material = index.material();
    let len = index.layout_len() as usize;
    let base = layout as usize * len;
    let mut nodes: Vec<Option<Node>> = Vec::with_capacity(len);
    let mut local = vec![UNDECIDED; len];
    for (i, slot) in local.iter_mut().enumerate() {
        let Some(pos) = index.position_at((base + i) as u64) else {
            *slot = INVALID;
            nodes.push(None);
            continue;
        };
        let moves = pos.legal_moves(rules);
        if moves.is_empty() {
            *slot = Stored::Loss(0).to_byte();
            nodes.push(None);
            continue;
        }
        if pos.is_kings_only_draw() {
            *slot = DRAW;
            nodes.push(None);
            continue;
        }
        let mut node = Node {
            zero_win: false,
            zero_all_lose: true,
            targets: Vec::new(),
        };
        for mv in &moves {
            let child = pos.played(mv);
            if mv.is_capture() || pos.is_man_move(mv) {
                let value = value_after_zeroing(&child, material, rules, solved, values)?;
                node.zero_win |= value == Wdl::Loss;
                node.zero_all_lose &= value == Wdl::Win;
            } else {
                node.targets
                    .push((index.index_of(&child) as usize - base) as u32);
            }
        }
        nodes.push(Some(node));
    }
    for n in 1..=NO_PROGRESS_LIMIT as u8 {
        let mut decided = Vec::new();
        for (i, node) in nodes.iter().enumerate() {
            let Some(node) = node else { continue };
            if local[i] != UNDECIDED {
                continue;
            }
            let to_loss = LOSS_BASE + n - 1;
            if (n == 1 && node.zero_win)
                || node.targets.iter().any(|&t| local[t as usize] == to_loss)
            {
                decided.push((i, Stored::Win(n).to_byte()));
            } else if node.zero_all_lose
                && node
                    .targets
                    .iter()
                    .all(|&t| matches!(Stored::from_byte(local[t as usize]), Some(Stored::Win(_))))
            {
                decided.push((i, Stored::Loss(n).to_byte()));
            }
        }
        for (i, b) in decided {
            local[i] = b;
        }
    }
    for (slot, value) in values[base..base + len].iter_mut().zip(local) {
        *slot = if value == UNDECIDED { DRAW } else { value };
    }
    Ok(())
}

/// The value for the opponent, with a fresh count, of the position after a zeroing move.
fn value_after_zeroing(
    child: &Position,
    material: Material,
    rules: Rules,
    solved: &HashMap<Material, Vec<u8>>,
    current: &[u8],
) -> Result<Wdl, GenerateError> {
    let stored = resolve(child, rules, |m, i| {
        let table = if m == material {
            current
        } else {
            solved.get(&m).ok_or(GenerateError::MissingTable {
                table: material,
                needed: m,
            })?
        };
        Ok::<_, GenerateError>(table.get(i as usize).copied())
    })?;
    match stored {
        Some(s) => Ok(s.at_count(0)),
        None => Err(GenerateError::MissingTable {
            table: material,
            needed: Material::of(child),
        }),
    }
}
