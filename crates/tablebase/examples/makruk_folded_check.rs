//! The folded index against the full one on a four-piece table that exists on disk:
//! solves a material without khon or bia in the folded index (exits valued from the
//! tables in the directory), proves it consistent move by move, and compares every
//! folded entry's position with the full table's file. Also times the folded solver
//! (the estimate for five pieces: 64 times the entries).
//!
//! `cargo run --release -p thaiboard-tablebase --example makruk_folded_check -- DIR NAME`,
//! e.g. `TABLES/makruk KRRvK` (TABLES: where `thaiboard tb gen` wrote them).

use makruk::{Position, Variant};
use std::time::Instant;
use thaiboard_tablebase::makruk::MakrukTables;
use thaiboard_tablebase::makruk::consistency::check_table;
use thaiboard_tablebase::makruk::entry::WIDE_INVALID;
use thaiboard_tablebase::makruk::index::{Layout, TableIndex};
use thaiboard_tablebase::makruk::material::Material;
use thaiboard_tablebase::makruk::solve::{phase_count, solve};

fn die(message: String) -> ! {
    eprintln!("makruk_folded_check: {message}");
    std::process::exit(2);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(dir), Some(name)) = (args.next(), args.next()) else {
        die("usage: makruk_folded_check DIR NAME".into());
    };
    let variant = Variant::Makruk;
    let material = Material::from_name(&name).unwrap_or_else(|| die(format!("{name}?")));
    let folded = TableIndex::new(&material, Layout::Folded)
        .unwrap_or_else(|| die(format!("{name}: no folded index (khon or bia)")));
    let tables = MakrukTables::open(std::path::Path::new(&dir), variant)
        .unwrap_or_else(|e| die(e.to_string()));
    let lookup = |p: &Position| tables.stored(p).ok().flatten();

    let started = Instant::now();
    let values = solve(variant, &folded, &lookup).unwrap_or_else(|e| die(e.to_string()));
    let solve_secs = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let checked = check_table(variant, &folded, &values, &lookup)
        .unwrap_or_else(|e| die(format!("inconsistent at {}: {}", e.fen, e.reason)));
    let check_secs = started.elapsed().as_secs_f64();

    let count = phase_count(variant, &material);
    let (mut compared, mut positions) = (0u64, 0u64);
    for (i, &v) in values.iter().enumerate() {
        if v == WIDE_INVALID {
            continue;
        }
        let pos = folded
            .position_at(variant, count, i)
            .unwrap_or_else(|| die(format!("entry {i} valued but holds no position")));
        let full = tables.stored(&pos).unwrap_or_else(|e| die(e.to_string()));
        let here = thaiboard_tablebase::makruk::Dtm::from_wide(v);
        if full != here {
            die(format!("{}: folded {here:?}, full {full:?}", pos.fen()));
        }
        compared += 1;
        positions += folded.class_size(i);
    }
    println!(
        "{name}: {} folded entries, solved in {solve_secs:.1} s ({:.2} µs an entry), consistent \
         ({checked} entries, {check_secs:.1} s); {compared} entries ({positions} positions) equal \
         to the full table",
        folded.entries(),
        1e6 * solve_secs / folded.entries() as f64,
    );
}
