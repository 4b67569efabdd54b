//! The pieces'-honour facts of a generated five-piece Makruk table (folded index), read
//! from its file: over every legal position (each folded entry counted with the
//! positions it stands for), the share the stronger side mates within the count as the
//! rules start it when the khun becomes bare (the bare khun to move at ply `2 · 5`, or
//! the stronger side one ply later), by the stronger side's move number, and the longest
//! mate. Positions already over (checkmate, stalemate) are left out, as
//! `examples/honour_search.rs` leaves them out of its random samples, so the two can be
//! compared.
//!
//! A board's-honour table (pieces on both sides) gets its own report
//! ([`boards_honour_report`]): for each side to move, the shares won, drawn and lost
//! without a count and within a fresh board's-honour count, and the longest win.
//!
//! `cargo run --release -p thaiboard-tablebase --example makruk_honour5 -- DIR [NAME]`
//! (NAME defaults to `KRRNvK`, the rule book's example).

use makruk::{Color, Variant};
use std::path::Path;
use thaiboard_tablebase::TableFile;
use thaiboard_tablebase::makruk::entry::{from_file_bytes, widen};
use thaiboard_tablebase::makruk::index::TableIndex;
use thaiboard_tablebase::makruk::material::Material;
use thaiboard_tablebase::makruk::solve::phase_count;
use thaiboard_tablebase::makruk::{Dtm, table_file_name};

fn die(message: String) -> ! {
    eprintln!("makruk_honour5: {message}");
    std::process::exit(2);
}

/// One side to move's tally, in positions.
#[derive(Default)]
struct Tally {
    positions: u64,
    /// Mated in time, by the stronger side's move number (1-based).
    by_move: Vec<u64>,
    /// Mated with no count at all.
    without_count: u64,
    /// The longest mate (plies) and an entry holding it.
    longest: (u16, usize),
}

impl Tally {
    fn report(&self, who: &str, left: u32) {
        let won: u64 = self.by_move.iter().sum();
        let n = self.positions.max(1) as f64;
        let moves: Vec<String> = self
            .by_move
            .iter()
            .enumerate()
            .map(|(k, c)| format!("move {}: {:.1}%", k + 1, 100.0 * *c as f64 / n))
            .collect();
        println!(
            "{who} to move, {left} plies left: mated in time {won} of {} positions ({:.2}%); {}; \
             mated with no count {:.2}%; longest mate {} plies",
            self.positions,
            100.0 * won as f64 / n,
            moves.join(", "),
            100.0 * self.without_count as f64 / n,
            self.longest.0
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| die("usage: makruk_honour5 DIR [NAME]".into()));
    let name = args.next().unwrap_or_else(|| "KRRNvK".into());
    let variant = Variant::Makruk;
    let material = Material::from_name(&name).unwrap_or_else(|| die(format!("{name}?")));
    let index = TableIndex::of(&material).unwrap_or_else(|| die(format!("{name}: no table")));
    let path = Path::new(&dir).join(table_file_name(variant, &material));
    let file = TableFile::open(&path).unwrap_or_else(|e| die(e.to_string()));
    if file.header().entries != index.entries() as u64 {
        die(format!("{}: not a table of {name}", path.display()));
    }
    let wide = file.header().entry_bytes == 2;
    let bytes = file.read_all().unwrap_or_else(|e| die(e.to_string()));
    let values: Vec<u16> = if wide {
        from_file_bytes(&bytes, true)
    } else {
        bytes.iter().map(|&b| widen(b)).collect()
    };
    drop(bytes);
    if !material.black.is_empty() {
        boards_honour_report(&name, &index, &values);
        return;
    }
    let (limit, start) = phase_count(variant, &material);
    // The bare khun moves first at `start`; the stronger side one ply later.
    let left = |turn: Color| match turn {
        Color::Black => limit + 1 - start,
        Color::White => limit - start,
    };
    let count = (limit, start);
    let mut tallies = [Tally::default(), Tally::default()];
    for (i, &v) in values.iter().enumerate() {
        let Some(value) = Dtm::from_wide(v) else {
            continue;
        };
        let turn = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let plies = match (turn, value) {
            (Color::White, Dtm::Win(d)) => Some(d),
            (Color::Black, Dtm::Loss(0)) => continue, // checkmate: over
            (Color::Black, Dtm::Loss(d)) => Some(d),
            (_, Dtm::Draw) => {
                let pos = index
                    .position_at(variant, count, i)
                    .unwrap_or_else(|| die(format!("entry {i} valued but holds no position")));
                if pos.legal_moves().is_empty() {
                    continue; // stalemate: over
                }
                None
            }
            _ => die(format!("entry {i}: {value:?} for {turn:?}")),
        };
        let positions = index.class_size(i);
        let tally = &mut tallies[turn.index()];
        tally.positions += positions;
        if let Some(d) = plies {
            tally.without_count += positions;
            if d > tally.longest.0 {
                tally.longest = (d, i);
            }
            if u32::from(d) <= left(turn) {
                // The stronger side's move that mates: plies 1, 3, 5 with it to move;
                // 2, 4, 6 after the bare khun's.
                let k = usize::from(d.div_ceil(2));
                if tally.by_move.len() < k {
                    tally.by_move.resize(k, 0);
                }
                tally.by_move[k - 1] += positions;
            }
        }
    }
    println!("{name}: pieces' honour count of {limit} plies starting at ply {start}");
    tallies[Color::Black.index()].report("bare khun", left(Color::Black));
    tallies[Color::White.index()].report("stronger side", left(Color::White));
    for (who, turn) in [("bare khun", Color::Black), ("stronger side", Color::White)] {
        let (d, i) = tallies[turn.index()].longest;
        if let Some(pos) = index.position_at(variant, count, i) {
            println!("longest mate, {who} to move: {d} plies, {}", pos.fen());
        }
    }
}

/// Board's honour: the count starts at ply 0 when the table's material is reached by a
/// capture that leaves both sides pieces, or runs on from the larger material; from a
/// fresh count a distance to conversion `d` is in time iff `d ≤ limit + 1`. For each
/// side to move, over every legal position (mate and stalemate left out): won, drawn
/// and lost without a count, won and lost in time, and the longest win with a position.
fn boards_honour_report(name: &str, index: &TableIndex, values: &[u16]) {
    let variant = Variant::Makruk;
    let (limit, start) = phase_count(variant, index.material());
    let left = limit + 1 - start;
    // [won, drawn, lost, won in time, lost in time] and the longest win (plies, entry).
    let mut tallies = [([0u64; 5], (0u16, 0usize)); 2];
    for (i, &v) in values.iter().enumerate() {
        let Some(value) = Dtm::from_wide(v) else {
            continue;
        };
        let turn = if i % 2 == 0 { 0 } else { 1 };
        let (t, longest) = &mut tallies[turn];
        let n = index.class_size(i);
        match value {
            Dtm::Win(d) => {
                t[0] += n;
                if u32::from(d) <= left {
                    t[3] += n;
                }
                if d > longest.0 {
                    *longest = (d, i);
                }
            }
            Dtm::Loss(0) => continue, // checkmate: over
            Dtm::Loss(d) => {
                t[2] += n;
                if u32::from(d) <= left {
                    t[4] += n;
                }
            }
            Dtm::Draw => {
                let over = index
                    .position_at(variant, (limit, start), i)
                    .is_some_and(|p| p.legal_moves().is_empty());
                if !over {
                    t[1] += n;
                }
            }
        }
    }
    println!("{name}: board's honour count of {limit} plies from ply {start}");
    for (turn, who) in [(0, "White"), (1, "Black")] {
        let (t, (d, i)) = tallies[turn];
        let all = (t[0] + t[1] + t[2]).max(1) as f64;
        let pc = |k: usize| 100.0 * t[k] as f64 / all;
        println!(
            "{who} to move: {} positions; no count: won {:.2}%, drawn {:.2}%, lost {:.2}%; \
             fresh count: won {:.2}%, lost {:.2}%; longest win {d} plies{}",
            t[0] + t[1] + t[2],
            pc(0),
            pc(1),
            pc(2),
            pc(3),
            pc(4),
            index
                .position_at(variant, (limit, start), i)
                .filter(|_| d > 0)
                .map(|p| format!(", {}", p.fen()))
                .unwrap_or_default()
        );
    }
}
