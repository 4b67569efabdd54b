//! Retrograde generation of Mak-hot tables (the metric is in the module above).
//!
//! Generation is retrograde analysis one layout at a time (the men fixed): a first pass
//! generates every position's moves once with the rules crate, values its zeroing moves
//! from tables (or layouts) already solved and counts its king moves, which stay in the
//! layout. Then rounds of increasing distance go back from the positions just decided to
//! the positions whose king move leads there, found by sliding a king back (a king's
//! quiet move can always be slid back), so no move list is kept. The first pass runs on
//! every core.
//!
//! Memory: only the table being solved and the tables its zeroing moves reach
//! ([`leads_to`]: fewer pieces of the side that does not move, or one man crowned) are
//! held in memory, read back whole from their files when a table needs them, so a run
//! needs about the largest table and its successors, not every table solved so far
//! (which passes 5 GB with six pieces).

use super::consistency::check_table;
use super::dtw::METRIC_DTW32;
use super::dtw_solve::solve_dtw;
use super::error::GenerateError;
use super::index::{LayoutIndex, Material, TableIndex};
use super::layout_moves::{PARALLEL_MIN_ENTRIES, predecessors, worker_threads};
use super::probe::{dtw_file_name, file_name, resolve, rules_code};
use super::{DRAW, INVALID, METRIC_DTZ32, NO_PROGRESS_LIMIT, Stored, Wdl};
use crate::format::{Header, TableError, TableFile, Variant, write_table};
use makhos::{Position, Rules, generate_legal_moves};
use std::cmp::Reverse;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::Path;
use std::time::Instant;

/// Byte of a position not decided yet (only during generation).
const UNDECIDED: u8 = 254;

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
    /// Seconds spent solving the distances to win (0 when their file was kept).
    pub dtw_seconds: f64,
    /// Size of the distance-to-win file in bytes.
    pub dtw_bytes: u64,
    /// Positions in the table (valid entries) that are wins, draws and losses for the side
    /// to move with a fresh count.
    pub wins: u64,
    /// See `wins`.
    pub draws: u64,
    /// See `wins`.
    pub losses: u64,
    /// With a check: the positions proved consistent and the seconds it took.
    pub checked: Option<(u64, f64)>,
}

/// Generates (or, when already written and verified, reads back) every table with up to
/// `pieces` pieces into `dir`, each with its distance-to-win file ([`super::dtw`]),
/// calling `progress` after each table. The tables a table needs are read from `dir`,
/// where the run has written or found them; a table whose distance file is missing gets
/// one from the main table kept (so a set made before distances existed is completed).
/// With `check`, every table of the run, generated or read back, is proved consistent
/// move by move ([`check_table`]) before the next one; a table generated is written only
/// once proved.
pub fn generate(
    dir: &Path,
    rules: Rules,
    pieces: u32,
    check: bool,
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
    let mut solved_dtw: HashMap<Material, Vec<u16>> = HashMap::new();
    let mut report = Vec::new();
    for (i, &material) in materials.iter().enumerate() {
        let path = dir.join(file_name(rules, material));
        let dtw_path = dir.join(dtw_file_name(rules, material));
        let expected = header(rules, material);
        let expected_dtw = dtw_header(rules, material);
        let existing = read_back(&path, &expected);
        // Distances are only kept beside the main table they were solved from.
        let existing_dtw = existing
            .as_ref()
            .and_then(|_| read_back(&dtw_path, &expected_dtw))
            .map(|(bytes, len)| (u16_entries(&bytes), len));
        let start = Instant::now();
        solved.retain(|&m, _| leads_to(material, m));
        solved_dtw.retain(|&m, _| leads_to(material, m));
        if existing_dtw.is_none() || check {
            for &m in &materials[..i] {
                if !leads_to(material, m) {
                    continue;
                }
                if let Entry::Vacant(slot) = solved.entry(m) {
                    let file = TableFile::open(&dir.join(file_name(rules, m)))?;
                    slot.insert(file.read_all()?);
                }
                if existing_dtw.is_some() {
                    continue;
                }
                if let Entry::Vacant(slot) = solved_dtw.entry(m) {
                    let file = TableFile::open(&dir.join(dtw_file_name(rules, m)))?;
                    slot.insert(u16_entries(&file.read_all()?));
                }
            }
        }
        let (values, bytes, skipped) = match existing {
            Some((values, bytes)) => (values, bytes, true),
            None => (generate_table(material, rules, &solved)?, 0, false),
        };
        let seconds = if skipped {
            0.0
        } else {
            start.elapsed().as_secs_f64()
        };
        let checked = if check {
            let started = Instant::now();
            let n =
                check_table(material, rules, &values, &solved, worker_threads()).map_err(|at| {
                    GenerateError::Inconsistent {
                        table: material,
                        at,
                    }
                })?;
            Some((n, started.elapsed().as_secs_f64()))
        } else {
            None
        };
        let bytes = if skipped {
            bytes
        } else {
            write_table(&path, &expected, &values)?
        };
        let started = Instant::now();
        let (dtw, dtw_bytes, dtw_seconds) = match existing_dtw {
            Some((dtw, len)) => (dtw, len, 0.0),
            None => {
                let dtw = solve_dtw(material, rules, &values, &solved, &solved_dtw)?;
                let bytes: Vec<u8> = dtw.iter().flat_map(|e| e.to_le_bytes()).collect();
                let len = write_table(&dtw_path, &expected_dtw, &bytes)?;
                (dtw, len, started.elapsed().as_secs_f64())
            }
        };
        let (wins, draws, losses) = tally(&values);
        let step = GenerateProgress {
            material,
            number: i + 1,
            total: materials.len(),
            skipped,
            seconds,
            bytes,
            dtw_seconds,
            dtw_bytes,
            wins,
            draws,
            losses,
            checked,
        };
        progress(&step);
        report.push(step);
        // Kept while the next table may need it (the next `retain` decides).
        solved.insert(material, values);
        solved_dtw.insert(material, dtw);
    }
    Ok(report)
}

/// A finished file's entries and its length, when it is there, has the header expected
/// and reads back whole.
fn read_back(path: &Path, expected: &Header) -> Option<(Vec<u8>, u64)> {
    TableFile::open(path)
        .ok()
        .filter(|f| f.header() == expected)
        .and_then(|f| f.read_all().ok().map(|v| (v, f.file_len())))
}

/// Two-byte entries from their little-endian bytes.
fn u16_entries(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect()
}

/// Whether a zeroing move (a capture, a man move, a promotion) from a position of `from`
/// can lead to a position of `to` or of its colour flip (whose table serves it), a
/// different material: the mover keeps its pieces (one man may be crowned), the other
/// side only loses some.
pub fn leads_to(from: Material, to: Material) -> bool {
    from != to && (moves_into(from, to) || moves_into(from, to.flipped()))
}

/// [`leads_to`] without the colour flip.
fn moves_into(from: Material, to: Material) -> bool {
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

/// The header a table's distance-to-win file carries.
fn dtw_header(rules: Rules, material: Material) -> Header {
    Header {
        metric: METRIC_DTW32,
        entry_bytes: 2,
        ..header(rules, material)
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

/// First-pass flag: some zeroing move leads to a position the opponent loses with a fresh
/// count.
const ZERO_WIN: u8 = 1;
/// First-pass flag: every zeroing move (if any) leads to a position the opponent wins with
/// a fresh count.
const ZERO_ALL_LOSE: u8 = 2;
/// First-pass flag: the side to move has no capture, so its king moves are legal (the
/// position can be the origin of a king move).
const QUIET: u8 = 4;

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
    let threads = worker_threads();
    let mut work = LayoutWork::new(index.layout_len() as usize);
    for layout in layouts.into_iter().filter_map(|l| index.layout_index(l)) {
        let layout = &layout;
        let ctx = Context {
            layout,
            material,
            rules,
            solved,
            values: &values,
        };
        work.first_pass(&ctx, threads)?;
        work.propagate(layout);
        let base = layout.base() as usize;
        for (slot, &v) in values[base..base + work.state.len()]
            .iter_mut()
            .zip(&work.state)
        {
            *slot = if v == UNDECIDED { DRAW } else { v };
        }
    }
    Ok(values)
}

/// What the first pass reads: the layout, and the tables its zeroing moves reach.
struct Context<'a> {
    layout: &'a LayoutIndex,
    material: Material,
    rules: Rules,
    solved: &'a HashMap<Material, Vec<u8>>,
    /// The table being solved: the layouts solved before this one are final.
    values: &'a [u8],
}

/// One layout's working arrays (reused from layout to layout).
struct LayoutWork {
    /// Stored byte, [`UNDECIDED`] or [`INVALID`], per entry of the layout.
    state: Vec<u8>,
    /// King moves whose position is not yet known to be won for the opponent.
    remaining: Vec<u8>,
    /// [`ZERO_WIN`], [`ZERO_ALL_LOSE`] and [`QUIET`].
    flags: Vec<u8>,
}

impl LayoutWork {
    fn new(len: usize) -> LayoutWork {
        LayoutWork {
            state: vec![UNDECIDED; len],
            remaining: vec![0; len],
            flags: vec![0; len],
        }
    }

    /// Every position's moves, generated once: zeroing moves valued from solved tables or
    /// layouts, king moves counted (they stay in the layout). Split over `threads`.
    fn first_pass(&mut self, ctx: &Context<'_>, threads: usize) -> Result<(), GenerateError> {
        let len = self.state.len();
        if threads <= 1 || len < PARALLEL_MIN_ENTRIES {
            return scan(
                ctx,
                0,
                &mut self.state,
                &mut self.remaining,
                &mut self.flags,
            );
        }
        let chunk = len.div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .state
                .chunks_mut(chunk)
                .zip(self.remaining.chunks_mut(chunk))
                .zip(self.flags.chunks_mut(chunk))
                .enumerate()
                .map(|(c, ((state, remaining), flags))| {
                    scope.spawn(move || scan(ctx, c * chunk, state, remaining, flags))
                })
                .collect();
            handles.into_iter().try_for_each(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
        })
    }

    /// Resolves the king moves by rounds of increasing distance, from the positions just
    /// decided back to their predecessors (king moves played back, [`predecessors`]):
    /// round `n` finds the wins in `n` (a king move to a loss in `n − 1`) and the losses in
    /// `n` (the last king move to turn out a win, if every zeroing move loses too).
    fn propagate(&mut self, layout: &LayoutIndex) {
        let (state, remaining, flags) = (&mut self.state, &mut self.remaining, &mut self.flags);
        let mut lost: Vec<u32> = (0..state.len() as u32)
            .filter(|&i| state[i as usize] == Stored::Loss(0).to_byte())
            .collect();
        let mut won: Vec<u32> = Vec::new();
        for n in 1..=NO_PROGRESS_LIMIT as u8 {
            let (mut new_won, mut new_lost) = (Vec::new(), Vec::new());
            if n == 1 {
                for (i, s) in state.iter_mut().enumerate() {
                    if *s == UNDECIDED && flags[i] & ZERO_WIN != 0 {
                        *s = Stored::Win(1).to_byte();
                        new_won.push(i as u32);
                    }
                }
            }
            for &p in &lost {
                predecessors(layout, p, |q| {
                    if state[q] == UNDECIDED && flags[q] & QUIET != 0 {
                        state[q] = Stored::Win(n).to_byte();
                        new_won.push(q as u32);
                    }
                });
            }
            for &p in &won {
                predecessors(layout, p, |q| {
                    if state[q] == UNDECIDED && flags[q] & QUIET != 0 {
                        remaining[q] -= 1;
                        if remaining[q] == 0 && flags[q] & ZERO_ALL_LOSE != 0 {
                            state[q] = Stored::Loss(n).to_byte();
                            new_lost.push(q as u32);
                        }
                    }
                });
            }
            if n == 1 {
                for (i, s) in state.iter_mut().enumerate() {
                    if *s == UNDECIDED && remaining[i] == 0 && flags[i] & ZERO_ALL_LOSE != 0 {
                        *s = Stored::Loss(1).to_byte();
                        new_lost.push(i as u32);
                    }
                }
            }
            won = new_won;
            lost = new_lost;
        }
    }
}

/// The first pass over entries `start..` of a layout (`state.len()` of them).
fn scan(
    ctx: &Context<'_>,
    start: usize,
    state: &mut [u8],
    remaining: &mut [u8],
    flags: &mut [u8],
) -> Result<(), GenerateError> {
    let mut moves = Vec::with_capacity(64);
    for (k, state) in state.iter_mut().enumerate() {
        let pos = ctx.layout.position_at((start + k) as u64);
        moves.clear();
        generate_legal_moves(&pos, ctx.rules, &mut moves);
        if moves.is_empty() {
            *state = Stored::Loss(0).to_byte();
            continue;
        }
        debug_assert!(!pos.is_kings_only_draw(), "one king each has no table");
        let mut f = ZERO_ALL_LOSE;
        if !moves[0].is_capture() {
            f |= QUIET;
        }
        let mut king_moves = 0u8;
        for mv in &moves {
            if mv.is_capture() || pos.is_man_move(mv) {
                let child = pos.played(mv);
                let value =
                    value_after_zeroing(&child, ctx.material, ctx.rules, ctx.solved, ctx.values)?;
                if value == Wdl::Loss {
                    f |= ZERO_WIN;
                }
                if value != Wdl::Win {
                    f &= !ZERO_ALL_LOSE;
                }
            } else {
                // At most 16 kings with 13 slides each: it fits a byte.
                king_moves += 1;
            }
        }
        *state = UNDECIDED;
        remaining[k] = king_moves;
        flags[k] = f;
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
