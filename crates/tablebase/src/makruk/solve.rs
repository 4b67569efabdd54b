//! Retrograde generation of one Makruk or Ouk Chatrang table (any material of three or
//! four pieces in the full index, five in the folded one, [`super::index`]), under the metric of its phase (the module above): distance to mate in
//! pieces' honour, distance to conversion in board's honour and with bias on the board.
//!
//! 1. **Forward pass.** Every entry's legal moves are generated once by the rules crate.
//!    A move that keeps the material (no capture, no promotion) stays in the table and
//!    is only counted. A move that leaves it (an *exit*) is valued at once from the
//!    tables already solved: with the *same count running on* (the bare khun's capture in
//!    pieces' honour; any exit between positions without a count) the child's stored
//!    distance carries on; a move that starts a new count is a *conversion*, valued win,
//!    draw or loss at the count it starts, with distance 0 (RULES.md section 1).
//! 2. **Retrograde pass.** Entries are decided in rounds of increasing distance from a
//!    bucket queue: a loss in `n` makes its predecessors (found by un-moves, see
//!    [`predecessors`]) wins in `n + 1`; a win takes from each predecessor's count of
//!    undecided in-table moves the moves that lead to it (one per un-move in the full
//!    index; scaled by the two positions' symmetries in the folded one,
//!    [`super::index::moves_into`]), and a predecessor left with none, and no exit that
//!    draws or wins, is a loss in one more than its longest defence.
//! 3. Entries never decided are draws.

use super::bare::Dtm;
use super::entry::{MAX_WIDE_LOSS, MAX_WIDE_WIN, WIDE_INVALID, WIDE_UNDECIDED, wide};
use super::index::{MAX_PIECES, TableIndex, moves_into};
use super::material::Material;
use super::plies_left;
use core::fmt;
use makruk::{Color, Position, Role, Setup, Square, State, Variant};

/// The most plies a win can store (a two-byte entry, see [`super::entry`]).
const MAX_WIN: u32 = MAX_WIDE_WIN as u32;
/// The most plies a loss can store.
const MAX_LOSS: u32 = MAX_WIDE_LOSS as u32;
/// The flag in an entry's move counter: an exit draws or wins, so it is never lost.
const CANNOT_LOSE: u8 = 0x80;

/// Why a table could not be solved.
#[derive(Debug)]
pub enum SolveError {
    /// An exit leads to a material whose table is not solved yet (a bug in the order).
    MissingTable {
        /// The table being solved.
        table: String,
        /// The position the exit leads to.
        fen: String,
    },
    /// No index holds the material (five pieces with a khon or bia, or more pieces).
    NoIndex {
        /// The table asked for.
        table: String,
    },
    /// The rules never allow the material ([`possible`]).
    Impossible {
        /// The table asked for.
        table: String,
    },
    /// A distance does not fit in a two-byte entry.
    TooLong {
        /// The table being solved.
        table: String,
        /// The distance in plies.
        plies: u32,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::MissingTable { table, fen } => {
                write!(f, "solving {table}: no table solved yet for {fen}")
            }
            SolveError::NoIndex { table } => {
                write!(
                    f,
                    "no table index holds {table} (five pieces with a khon or bia?)"
                )
            }
            SolveError::Impossible { table } => {
                write!(f, "{table}: the rules never allow this material")
            }
            SolveError::TooLong { table, plies } => {
                write!(
                    f,
                    "solving {table}: a distance of {plies} plies does not fit a two-byte entry"
                )
            }
        }
    }
}

impl std::error::Error for SolveError {}

/// The count a position of `material` runs while its phase lasts, as the rules start it
/// (`(limit, ply)` in plies, `(0, 0)` for none): pieces' honour from twice the pieces
/// when a side is bare, board's honour from 0 when both sides have pieces, none where
/// bias stop it (Makruk). Its ply only has to leave room for one more move: a table
/// stores distances, and probes compare them with the position's own count.
///
/// # Panics
///
/// For a material the rules never allow ([`possible`]).
pub fn phase_count(variant: Variant, material: &Material) -> (u32, u32) {
    let pos = sample(variant, material).expect("a legal sample placement");
    let bare = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| pos.by_color(c).count() == 1);
    match bare {
        Some(side) => match pos.counting_limit_for(side) {
            0 => (0, 0),
            limit => (2 * limit, 2 * material.pieces()),
        },
        None => match pos.counting_limit_for(Color::White) {
            0 => (0, 0),
            limit => (2 * limit, 0),
        },
    }
}

/// Whether the rules allow `material` at all (not three rueas or three mas: no bia
/// promotes to them).
pub fn possible(variant: Variant, material: &Material) -> bool {
    sample(variant, material).is_some()
}

/// A legal position of `material` with no count (for the rules' counting limits), `None`
/// when the rules refuse the material.
fn sample(variant: Variant, material: &Material) -> Option<Position> {
    let mut setup = Setup::empty();
    let put = |setup: &mut Setup, sq: usize, color, role| {
        setup.board[sq] = Some(makruk::Piece { color, role });
    };
    put(&mut setup, 0, Color::White, Role::King);
    put(&mut setup, 63, Color::Black, Role::King);
    // White's pieces on the fourth rank from c4, Black's on the fifth from e5: legal bia
    // ranks, and nothing gives check.
    for (j, &role) in material.white.iter().enumerate() {
        put(&mut setup, 3 * 8 + 2 + j, Color::White, role);
    }
    for (j, &role) in material.black.iter().enumerate() {
        put(&mut setup, 4 * 8 + 4 + j, Color::Black, role);
    }
    for color in [Color::White, Color::Black] {
        let mets = setup.squares_of(makruk::Piece {
            color,
            role: Role::Met,
        });
        // Every met after a side's first is a promoted bia.
        for promoted in mets.into_iter().skip(1) {
            setup.promoted = setup.promoted.with(promoted);
        }
    }
    Position::from_setup(variant, &setup).ok()
}

/// Whether a move from `parent` to `child` keeps the same count running: no count on
/// either side, or the same count one ply further on. A move that does not is a
/// conversion: it ends the phase whose distance `parent`'s table stores.
pub fn same_count(parent: &Position, child: &Position) -> bool {
    match (parent.counting(), child.counting()) {
        (None, None) => true,
        (Some(p), Some(c)) => p.kind == c.kind && p.limit == c.limit && c.ply == p.ply + 1,
        _ => false,
    }
}

/// The value of `child` for its side to move as a solved table would store it for the
/// table being solved: its stored distance when the same count runs on from `parent`,
/// or its result at its own count with distance 0 (a conversion). `lookup` gives the
/// stored value of a position with fewer pieces or fewer bias (`None`: not solved).
pub fn exit_value(
    parent: &Position,
    child: &Position,
    lookup: &dyn Fn(&Position) -> Option<Dtm>,
) -> Option<Dtm> {
    match child.state() {
        State::Checkmate => return Some(Dtm::Loss(0)),
        State::Ongoing => {}
        _ => return Some(Dtm::Draw),
    }
    let stored = lookup(child)?;
    if same_count(parent, child) {
        return Some(stored);
    }
    Some(at_count(stored, plies_left(child)))
}

/// A stored distance judged against the plies a count leaves (`None`: no count): a win
/// or loss in time is decided now (distance 0), a later one is a draw.
pub fn at_count(stored: Dtm, left: Option<u32>) -> Dtm {
    let Some(left) = left else {
        return stored;
    };
    match stored {
        Dtm::Win(d) if u32::from(d) <= left => Dtm::Win(0),
        Dtm::Loss(d) if u32::from(d) <= left => Dtm::Loss(0),
        _ => Dtm::Draw,
    }
}

/// Solves the table of `index`'s material under `variant`, in `index`'s layout; `lookup`
/// values exits (see [`exit_value`]). Returns one two-byte entry per position ([`super::entry`]; the
/// table is written with one byte per entry when every entry fits,
/// [`super::entry::file_bytes`]).
pub fn solve(
    variant: Variant,
    index: &TableIndex,
    lookup: &dyn Fn(&Position) -> Option<Dtm>,
) -> Result<Vec<u16>, SolveError> {
    let material = index.material();
    if !possible(variant, material) {
        return Err(SolveError::Impossible {
            table: material.name(),
        });
    }
    let entries = index.entries();
    let count = phase_count(variant, material);
    let name = material.name();
    let too_long = |plies: u32| SolveError::TooLong {
        table: name.clone(),
        plies,
    };
    let mut values = vec![WIDE_INVALID; entries];
    // Undecided in-table moves (and the CANNOT_LOSE flag), and the shortest loss the
    // exits allow (one more than the longest win they give the opponent).
    let mut moves_left = vec![0u8; entries];
    let mut loss_floor = vec![0u16; entries];
    // Entries already queued as a win by the retrograde pass: the first such win is
    // the shortest (levels only grow), so each entry is queued once, not once per
    // losing child.
    let mut queued = vec![0u64; entries.div_ceil(64)];
    let mut wins: Vec<Vec<u32>> = Vec::new();
    let mut losses: Vec<Vec<u32>> = Vec::new();
    fn push(buckets: &mut Vec<Vec<u32>>, level: u32, i: usize) {
        let level = level as usize;
        if buckets.len() <= level {
            buckets.resize_with(level + 1, Vec::new);
        }
        buckets[level].push(i as u32);
    }

    // 1. Forward pass.
    for (i, value) in values.iter_mut().enumerate() {
        let Some(pos) = index.position_at(variant, count, i) else {
            continue;
        };
        *value = WIDE_UNDECIDED;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.is_check() {
                push(&mut losses, 0, i);
            } else {
                *value = 0;
            }
            continue;
        }
        let (mut inside, mut cannot_lose) = (0u32, false);
        let (mut best_win, mut floor) = (u32::MAX, 0u32);
        for &m in moves.iter() {
            if !pos.is_capture(m) && !m.is_promotion() {
                inside += 1;
                continue;
            }
            let child = pos.played(m);
            let v = exit_value(&pos, &child, lookup).ok_or_else(|| SolveError::MissingTable {
                table: name.clone(),
                fen: child.fen(),
            })?;
            match v {
                Dtm::Loss(d) => {
                    best_win = best_win.min(u32::from(d) + 1);
                    cannot_lose = true;
                }
                Dtm::Draw => cannot_lose = true,
                Dtm::Win(d) => floor = floor.max(u32::from(d) + 1),
            }
        }
        moves_left[i] = inside as u8 | if cannot_lose { CANNOT_LOSE } else { 0 };
        // Kept exact (a child's win is at most MAX_WIN plies, so its floor fits): a loss
        // longer than MAX_LOSS is refused when it is decided, never shortened.
        loss_floor[i] = u16::try_from(floor).map_err(|_| too_long(floor))?;
        if best_win != u32::MAX {
            push(&mut wins, best_win, i);
        } else if inside == 0 && !cannot_lose {
            push(&mut losses, floor, i);
        }
    }

    // 2. Retrograde pass.
    let mut preds = Vec::new();
    let mut level = 0u32;
    while (level as usize) < wins.len().max(losses.len()) {
        for is_win in [false, true] {
            let bucket = if is_win { &mut wins } else { &mut losses };
            let Some(list) = bucket.get_mut(level as usize).map(std::mem::take) else {
                continue;
            };
            for i in list {
                let i = i as usize;
                if values[i] != WIDE_UNDECIDED {
                    continue;
                }
                values[i] = decided_entry(level, is_win).ok_or_else(|| too_long(level))?;
                predecessors(index, i, &values, &mut preds);
                preds.sort_unstable();
                for group in preds.chunk_by(|a, b| a == b) {
                    let p = group[0];
                    if values[p] != WIDE_UNDECIDED {
                        continue;
                    }
                    if !is_win {
                        let (word, bit) = (p / 64, 1u64 << (p % 64));
                        if queued[word] & bit == 0 {
                            queued[word] |= bit;
                            push(&mut wins, level + 1, p);
                        }
                        continue;
                    }
                    let taken = moves_into(index, p, i, group.len() as u32);
                    debug_assert!(u32::from(moves_left[p] & !CANNOT_LOSE) >= taken);
                    moves_left[p] -= taken as u8;
                    if moves_left[p] == 0 {
                        let l = (level + 1).max(u32::from(loss_floor[p]));
                        push(&mut losses, l, p);
                    }
                }
            }
        }
        level += 1;
    }

    // 3. The rest are draws.
    for v in &mut values {
        if *v == WIDE_UNDECIDED {
            *v = 0;
        }
    }
    Ok(values)
}

/// The two-byte entry of a win (`is_win`) or loss decided at `level` plies, `None` when
/// the distance is past what an entry holds ([`MAX_WIN`], [`MAX_LOSS`]).
fn decided_entry(level: u32, is_win: bool) -> Option<u16> {
    let (limit, value) = if is_win {
        (MAX_WIN, Dtm::Win(u16::try_from(level).ok()?))
    } else {
        (MAX_LOSS, Dtm::Loss(u16::try_from(level).ok()?))
    };
    if level > limit {
        return None;
    }
    wide(value)
}

/// Steps of a khun (and the squares a met or khon reaches diagonally).
const KING_STEPS: [(i8, i8); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const DIAGONAL_STEPS: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];
const ROOK_DIRECTIONS: [(i8, i8); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The entries from which one legal move that keeps the material leads to entry `i`,
/// once per un-move: the side that just moved takes each of its pieces back along the
/// piece's move reversed (a khon's or bia's forward step becomes a backward one) to an
/// empty square; the placement is brought to its stored entry
/// ([`TableIndex::encode`]), kept when that entry is legal (which `values` tells: an
/// entry never marked invalid). The move forward is then legal too: it leaves the
/// mover's khun safe because entry `i` is legal. In the folded layout two un-moves may
/// lead to one entry (symmetric images): it is listed once for each.
pub fn predecessors(index: &TableIndex, i: usize, values: &[u16], out: &mut Vec<usize>) {
    out.clear();
    let placed = index.placed();
    let n = index.pieces();
    let mut squares = [0usize; MAX_PIECES];
    let turn = index.decode(i, &mut squares);
    let mover = !turn;
    let occupied = |sq: usize, squares: &[usize; MAX_PIECES]| squares[..n].contains(&sq);
    let backward: i8 = if mover == Color::White { -1 } else { 1 };
    for k in 0..n {
        let (color, role) = match k {
            0 => (Color::White, Role::King),
            1 => (Color::Black, Role::King),
            _ => (placed[k - 2].color, placed[k - 2].role),
        };
        if color != mover {
            continue;
        }
        let to = Square::new(squares[k] as u8).expect("a square");
        let add = |from: Square, out: &mut Vec<usize>| {
            let mut s = squares;
            s[k] = from.index();
            let p = index.encode(&s[..n], mover);
            if values[p] != WIDE_INVALID {
                out.push(p);
            }
        };
        let steps: &[(i8, i8)] = match role {
            Role::King => &KING_STEPS,
            Role::Met => &DIAGONAL_STEPS,
            Role::Knight => &KNIGHT_STEPS,
            Role::Khon | Role::Pawn | Role::Rook => &[],
        };
        for &(df, dr) in steps {
            if let Some(from) = to.offset(df, dr)
                && !occupied(from.index(), &squares)
            {
                add(from, out);
            }
        }
        match role {
            Role::Khon => {
                for (df, dr) in DIAGONAL_STEPS.into_iter().chain([(0, backward)]) {
                    if let Some(from) = to.offset(df, dr)
                        && !occupied(from.index(), &squares)
                    {
                        add(from, out);
                    }
                }
            }
            Role::Pawn => {
                if let Some(from) = to.offset(0, backward)
                    && !occupied(from.index(), &squares)
                {
                    add(from, out);
                }
            }
            Role::Rook => {
                for (df, dr) in ROOK_DIRECTIONS {
                    let mut sq = to;
                    while let Some(from) = sq.offset(df, dr) {
                        if occupied(from.index(), &squares) {
                            break;
                        }
                        add(from, out);
                        sq = from;
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::makruk::entry::{file_bytes, from_file_bytes, narrow};

    /// The distance that stopped the first Ouk Chatrang run (`KRvKN`: a loss in 126 plies,
    /// one past a byte) and longer ones are stored, written two bytes wide and read back.
    #[test]
    fn losses_and_wins_past_a_byte_are_stored_not_refused() {
        for (level, is_win, value) in [
            (125, false, Dtm::Loss(125)),
            (126, false, Dtm::Loss(126)),
            (127, true, Dtm::Win(127)),
            (128, true, Dtm::Win(128)),
            (300, false, Dtm::Loss(300)),
            (MAX_WIN, true, Dtm::Win(MAX_WIN as u16)),
            (MAX_LOSS, false, Dtm::Loss(MAX_LOSS as u16)),
        ] {
            let entry = decided_entry(level, is_win).expect("stored");
            assert_eq!(Dtm::from_wide(entry), Some(value));
            let fits_a_byte = level <= if is_win { 127 } else { 125 };
            assert_eq!(narrow(entry).is_some(), fits_a_byte, "{value:?}");
            let table = [WIDE_INVALID, entry, 0];
            let (bytes, is_wide) = file_bytes(&table);
            assert_eq!(is_wide, !fits_a_byte);
            assert_eq!(from_file_bytes(&bytes, is_wide), table);
        }
        // Past two bytes the solver still refuses rather than store a wrong distance.
        assert_eq!(decided_entry(MAX_WIN + 1, true), None);
        assert_eq!(decided_entry(MAX_LOSS + 1, false), None);
        assert_eq!(decided_entry(u32::MAX, false), None);
    }
}
