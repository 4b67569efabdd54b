//! Start positions for a match in endings, with and without tables: `cargo run --release
//! -p thaiboard-tablebase --example endgame_openings -- makruk|makhos DIR [SEED]`.
//! Prints an openings file for `thaiboard match --openings` (comments first, one position
//! a line, the tables' verdict after `;`); the same tables and seed give the same file.
//!
//! Positions are drawn at random from the tables' indexes (or, for five Makruk pieces,
//! random placements) with a small LCG, and kept only where the tables matter:
//!
//! - Makruk, four pieces (every table in DIR must be there): positions the tables call
//!   won or lost without the count in at least [`MIN_PLIES`] plies, given counting fields
//!   that leave either enough plies for that win (a win in time) or up to seven plies too
//!   few (a draw the defender must hold): pieces' honour (khun and ruea, khon and ma,
//!   khon and met, two khons against a bare khun) with the count already running, board's
//!   honour (ruea against ma, khon or met) with a running 64-move count.
//! - Makruk, five pieces (no table): random placements of two pieces against one where
//!   the side to move has a capture into a four-piece table; two in three are kept where
//!   such a capture wins in time ([`MIN_PLIES`] or more to its end), one in three where
//!   no capture wins (taking is not the answer). The position's own value is not known.
//! - Mak-hot, four and five pieces (`makhos`) or six (`makhos6`), kings and men, fresh
//!   count: positions won or lost with a next capture or man move at least
//!   [`MIN_MAKHOS_PLIES`] plies away, and drawn positions where most moves lose; half of
//!   them turned to Black's side ([`makhos::Position::flipped`]), since the tables hold
//!   White as the stronger side.
//! - Makruk, five pieces (`makruk5`): positions of the pieces'-honour tables, as the
//!   four-piece ones above.

#[path = "../tests/common/mod.rs"]
mod common;
use common::Lcg;
use std::path::Path;
use thaiboard_tablebase::makhos::{MakhosTables, Stored, TableIndex, Wdl};
use thaiboard_tablebase::makruk::index::TableIndex as TableIndex5;
use thaiboard_tablebase::makruk::solve::phase_count;
use thaiboard_tablebase::makruk::{Dtm, MakrukTables, plies_left};
use thaiboard_tablebase::makruk::{index::position_at, material::Material};

/// The shortest stored Makruk distance kept (shorter wins are found by any search).
const MIN_PLIES: u16 = 11;
/// The shortest Mak-hot distance to the next zeroing move kept.
const MIN_MAKHOS_PLIES: u8 = 5;

/// Four-piece Makruk materials and how many positions of each.
const MAKRUK_FOUR: [(&str, usize); 7] = [
    ("KRvK", 4),
    ("KRvKN", 4),
    ("KRvKS", 4),
    ("KRvKM", 4),
    ("KSNvK", 4),
    ("KSMvK", 3),
    ("KSSvK", 3),
];
/// Five-piece Makruk materials: one of each, until [`MAKRUK_FIVE_TOTAL`].
const MAKRUK_FIVE: [&str; 7] = [
    "KRNvKS", "KRSvKN", "KRvKNS", "KRvKNM", "KSNvKM", "KRMvKS", "KSMvKN",
];
/// Five-piece Makruk positions in all.
const MAKRUK_FIVE_TOTAL: usize = 14;
/// Mak-hot positions: decisive, then close draws.
const MAKHOS_DECISIVE: usize = 30;
/// Mak-hot drawn positions where most moves lose.
const MAKHOS_CLOSE: usize = 10;

/// Five-piece Makruk pieces'-honour tables (the folded set), for `makruk5`.
const MAKRUK_FIVE_HONOUR: [&str; 8] = [
    "KRRNvK", "KRRMvK", "KRNNvK", "KRNMvK", "KRMMvK", "KNNMvK", "KNMMvK", "KMMMvK",
];
/// Positions of each five-piece pieces'-honour table, for `makruk5`.
const MAKRUK_FIVE_EACH: usize = 8;
/// Mak-hot six-piece positions, for `makhos6`: decisive, then close draws.
const MAKHOS6_DECISIVE: usize = 48;
/// Mak-hot six-piece drawn positions where most moves lose.
const MAKHOS6_CLOSE: usize = 16;

fn die(msg: impl std::fmt::Display) -> ! {
    eprintln!("{msg}");
    std::process::exit(1)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(game), Some(dir)) = (args.next(), args.next()) else {
        eprintln!("usage: endgame_openings makruk|makruk5|makhos|makhos6 DIR [SEED]");
        std::process::exit(2);
    };
    let seed: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut rng = Lcg(seed);
    println!(
        "# made by: cargo run --release -p thaiboard-tablebase --example endgame_openings -- {game} DIR {seed}"
    );
    match game.as_str() {
        "makruk" => makruk(Path::new(&dir), &mut rng),
        "makruk5" => makruk5(Path::new(&dir), &mut rng),
        "makhos" => makhos(
            Path::new(&dir),
            &mut rng,
            4..=5,
            (MAKHOS_DECISIVE, MAKHOS_CLOSE),
        ),
        "makhos6" => makhos(
            Path::new(&dir),
            &mut rng,
            6..=6,
            (MAKHOS6_DECISIVE, MAKHOS6_CLOSE),
        ),
        _ => die("the game is makruk, makruk5, makhos or makhos6"),
    }
}

fn makruk(dir: &Path, rng: &mut Lcg) {
    let variant = makruk::Variant::Makruk;
    let tables = MakrukTables::open(dir, variant).unwrap_or_else(|e| die(e));
    println!(
        "# Makruk endings where the tables matter (crates/tablebase/examples/endgame_openings.rs):"
    );
    println!("# four pieces: won or lost without the count in {MIN_PLIES}+ plies, counting fields");
    println!("# leaving enough plies (won in time) or a few too few (a draw to hold);");
    println!(
        "# five pieces: a capture into a four-piece table wins (or, one in three, none does)."
    );
    println!("# After ';' the tables' verdict for the side to move.");
    for (name, wanted) in MAKRUK_FOUR {
        let material = Material::from_name(name).expect("a material name");
        let sample = |rng: &mut Lcg, count| {
            let i = rng.below(material.entries() as u64) as usize;
            position_at(variant, &material, count, i)
        };
        counted_starts(&tables, variant, name, wanted, rng, sample);
    }
    let mut kept = 0;
    let mut wins = 0;
    let mut tries = 0u64;
    while kept < MAKRUK_FIVE_TOTAL && tries < 10_000_000 {
        tries += 1;
        let name = MAKRUK_FIVE[kept % MAKRUK_FIVE.len()];
        let material = Material::from_name(name).expect("a material name");
        let (limit, _) = phase_count(variant, &material);
        let Some(pos) = random_placement(variant, &material, limit, rng) else {
            continue;
        };
        if pos.state() != makruk::State::Ongoing {
            continue;
        }
        // The best capture into the tables, for the side to move.
        let mut best: Option<(i8, i32, String)> = None;
        for &m in pos.legal_moves().iter() {
            if !pos.is_capture(m) {
                continue;
            }
            let child = pos.played(m);
            let Ok(Some(v)) = tables.verdict(&child) else {
                continue;
            };
            let d = match v.stored {
                Dtm::Win(d) | Dtm::Loss(d) => i32::from(d),
                Dtm::Draw => 0,
            };
            let value = -v.value;
            if best.as_ref().is_none_or(|b| (value, -d) > (b.0, -b.1)) {
                best = Some((value, d, m.to_uci()));
            }
        }
        let Some((value, d, uci)) = best else {
            continue;
        };
        let want_win = wins * 3 < (kept + 1) * 2;
        if want_win != (value == 1) || (value == 1 && d < i32::from(MIN_PLIES)) {
            continue;
        }
        println!(
            "{} ; c0 \"{name} best capture {uci}: {} for the side to move{}\"",
            pos.fen(),
            category(value),
            if value == 1 {
                format!(", {} plies after it", d)
            } else {
                String::new()
            }
        );
        wins += usize::from(value == 1);
        kept += 1;
    }
}

/// Prints `wanted` positions of `name` (drawn by `sample` with the material's count) that
/// the tables win or lose without the count in [`MIN_PLIES`] or more plies, with counting
/// fields leaving, alternately, enough plies for that win and up to seven too few.
fn counted_starts(
    tables: &MakrukTables,
    variant: makruk::Variant,
    name: &str,
    wanted: usize,
    rng: &mut Lcg,
    sample: impl Fn(&mut Lcg, (u32, u32)) -> Option<makruk::Position>,
) {
    let material = Material::from_name(name).expect("a material name");
    let (limit, start) = phase_count(variant, &material);
    let mut kept = 0;
    let mut tries = 0u64;
    while kept < wanted && tries < 10_000_000 {
        tries += 1;
        let Some(pos) = sample(rng, (limit, start)) else {
            continue;
        };
        if pos.state() != makruk::State::Ongoing {
            continue;
        }
        let (won, d) = match tables.stored(&pos).unwrap_or_else(|e| die(e)) {
            Some(Dtm::Win(d)) => (true, d),
            Some(Dtm::Loss(d)) => (false, d),
            Some(Dtm::Draw) => continue,
            None => die(format!("{name}: no table")),
        };
        if d < MIN_PLIES {
            continue;
        }
        // Alternately in time and a little short of it.
        let spare = rng.below(7) as u32;
        let left = if kept % 2 == 0 {
            u32::from(d) + spare
        } else {
            u32::from(d).saturating_sub(1 + spare)
        };
        let Some(ply) = (limit + 1).checked_sub(left) else {
            continue;
        };
        if left == 0 || ply < start {
            continue;
        }
        let mut setup = pos.to_setup();
        setup.counting_ply = ply;
        let Ok(counted) = makruk::Position::from_setup(variant, &setup) else {
            continue;
        };
        let Ok(Some(verdict)) = tables.verdict(&counted) else {
            continue;
        };
        println!(
            "{} ; c0 \"{name} {} in {d} plies without the count, {} left: {}\"",
            counted.fen(),
            if won { "win" } else { "loss" },
            plies_left(&counted).unwrap_or(0),
            category(verdict.value)
        );
        kept += 1;
    }
}

/// Makruk, five pieces: the pieces'-honour endings of the folded tables in `dir`.
fn makruk5(dir: &Path, rng: &mut Lcg) {
    let variant = makruk::Variant::Makruk;
    let tables = MakrukTables::open(dir, variant).unwrap_or_else(|e| die(e));
    println!(
        "# Makruk five-piece endings where the tables matter (crates/tablebase/examples/endgame_openings.rs):"
    );
    println!(
        "# three pieces and a khun against a bare khun, won without the count in {MIN_PLIES}+ plies,"
    );
    println!(
        "# counting fields leaving enough plies (won in time) or a few too few (a draw to hold)."
    );
    println!("# After ';' the tables' verdict for the side to move.");
    for name in MAKRUK_FIVE_HONOUR {
        let material = Material::from_name(name).expect("a material name");
        let index = TableIndex5::of(&material).expect("a five-piece table's index");
        let sample = |rng: &mut Lcg, count| {
            index.position_at(variant, count, rng.below(index.entries() as u64) as usize)
        };
        counted_starts(&tables, variant, name, MAKRUK_FIVE_EACH, rng, sample);
    }
}

/// A random legal placement of `material` with a board's-honour count leaving 30–70 plies.
fn random_placement(
    variant: makruk::Variant,
    material: &Material,
    limit: u32,
    rng: &mut Lcg,
) -> Option<makruk::Position> {
    use makruk::{Color, Piece, Role};
    let mut setup = makruk::Setup::empty();
    let mut pieces = vec![
        Piece {
            color: Color::White,
            role: Role::King,
        },
        Piece {
            color: Color::Black,
            role: Role::King,
        },
    ];
    pieces.extend(material.placed());
    for p in pieces {
        let sq = rng.below(64) as usize;
        if setup.board[sq].is_some() {
            return None;
        }
        setup.board[sq] = Some(p);
    }
    setup.turn = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let left = 30 + rng.below(41) as u32;
    setup.counting_limit = limit;
    setup.counting_ply = limit + 1 - left;
    makruk::Position::from_setup(variant, &setup).ok()
}

fn category(value: i8) -> &'static str {
    match value {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// Mak-hot positions of `pieces` pieces with men: `wanted.0` decisive, `wanted.1` close draws.
fn makhos(
    dir: &Path,
    rng: &mut Lcg,
    pieces: std::ops::RangeInclusive<u32>,
    (want_decisive, want_close): (usize, usize),
) {
    let rules = makhos::Rules::Default;
    let tables = MakhosTables::open(dir, rules).unwrap_or_else(|e| die(e));
    let materials: Vec<_> = tables
        .materials()
        .into_iter()
        .filter(|m| pieces.contains(&m.total()) && m.men() > 0)
        .collect();
    if materials.is_empty() {
        die(format!(
            "{}: no table of {}-{} pieces with men",
            dir.display(),
            pieces.start(),
            pieces.end()
        ));
    }
    println!(
        "# Mak-hot endings where the tables matter (crates/tablebase/examples/endgame_openings.rs):"
    );
    let how_many = if pieces.start() == pieces.end() {
        pieces.start().to_string()
    } else {
        format!("{}-{}", pieces.start(), pieces.end())
    };
    println!(
        "# {how_many} pieces with men, fresh count: won or lost with the next capture or man move"
    );
    println!(
        "# {MIN_MAKHOS_PLIES}+ plies away, or drawn with most moves losing. After ';' the tables' verdict."
    );
    let (mut decisive, mut close, mut tries) = (0, 0, 0u64);
    while (decisive < want_decisive || close < want_close) && tries < 10_000_000 {
        tries += 1;
        let material = materials[rng.below(materials.len() as u64) as usize];
        let index = TableIndex::new(material);
        let Some(pos) = index.position_at(rng.below(index.len())) else {
            continue;
        };
        // Tables hold White as the stronger side; half the starts are seen from Black's.
        let pos = if rng.below(2) == 0 {
            pos
        } else {
            pos.flipped()
        };
        let moves = pos.legal_moves(rules);
        if moves.len() < 2 {
            continue;
        }
        let probe = tables.probe(&pos, 0).unwrap_or_else(|e| die(e));
        let note = match (probe.wdl, probe.stored) {
            (Wdl::Win | Wdl::Loss, Stored::Win(d) | Stored::Loss(d)) => {
                if decisive >= want_decisive || d < MIN_MAKHOS_PLIES {
                    continue;
                }
                decisive += 1;
                format!(
                    "{} in {d} plies to the next capture or man move",
                    probe.wdl.name()
                )
            }
            _ => {
                if close >= want_close {
                    continue;
                }
                let values = tables.probe_moves(&pos, 0).unwrap_or_else(|e| die(e));
                let losing = values.iter().filter(|v| v.after.wdl == Wdl::Win).count();
                if losing * 2 < values.len() {
                    continue;
                }
                close += 1;
                format!("draw, {losing} of {} moves lose", values.len())
            }
        };
        println!("{pos} ; c0 \"{material} {note}\"");
    }
}
