//! Probe latency of Mak-hot tables: `cargo run --release -p thaiboard-tablebase --example
//! probe_latency -- DIR [RULES] [PROBES]`, or of Makruk and Ouk Chatrang tables with
//! `makruk` or `cambodian` in place of RULES. Prints the time to open the directory and
//! answer one probe (cold, in a fresh process), then the mean time of random probes
//! across all tables (warm: files mapped, blocks decompressed as probes reach them, or
//! found in the block cache when an earlier probe decompressed them), then the mean time
//! of probes cycling over the first [`HOT_POSITIONS`] of those positions (hot: their
//! blocks fit the block cache, as a search's probes mostly do). Where the tables have
//! distance-to-win files, the same random positions' distances follow, with a fresh
//! count and near the count's end.

use std::time::Instant;
use thaiboard_tablebase::makhos::{MakhosTables, TableIndex};

/// Probes timed when no count is given.
const DEFAULT_PROBES: usize = 20_000;

/// A block cache that keeps nothing: every probe decompresses its block, as before the
/// cache existed.
fn no_cache() -> std::sync::Arc<thaiboard_tablebase::BlockCache> {
    std::sync::Arc::new(thaiboard_tablebase::BlockCache::new(0))
}

/// Positions the hot pass cycles over: their blocks fit the shared block cache.
const HOT_POSITIONS: usize = 256;

/// Prints the mean time of `probes` probes cycling over the first [`HOT_POSITIONS`]
/// of `positions`, after one pass over them to bring their blocks in.
fn hot<P>(what: &str, positions: &[P], probes: usize, probe: impl Fn(&P)) {
    let hot = &positions[..positions.len().min(HOT_POSITIONS)];
    hot.iter().for_each(&probe);
    let started = Instant::now();
    for pos in hot.iter().cycle().take(probes) {
        probe(pos);
    }
    println!(
        "hot{what}: {probes} probes cycling over {} positions, mean {:.2} µs",
        hot.len(),
        started.elapsed().as_secs_f64() * 1e6 / probes as f64
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: probe_latency DIR [RULES] [PROBES]");
        std::process::exit(2);
    };
    let rules_arg = args.next();
    let probes: usize = args
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_PROBES);
    match rules_arg.as_deref() {
        Some("makruk") => return makruk_latency(&dir, makruk::Variant::Makruk, probes),
        Some("cambodian") => return makruk_latency(&dir, makruk::Variant::Cambodian, probes),
        _ => {}
    }
    let rules: makhos::Rules = rules_arg
        .map_or(Ok(makhos::Rules::Default), |r| r.parse())
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        });

    let started = Instant::now();
    let tables = match MakhosTables::open(std::path::Path::new(&dir), rules) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1)
        }
    };
    let materials = tables.materials();
    let Some(&largest) = materials.last() else {
        eprintln!("{dir}: no tables");
        std::process::exit(1)
    };
    let index = TableIndex::new(largest);
    let first = (0..index.len()).find_map(|i| index.position_at(i));
    if let Some(pos) = first
        && let Err(e) = tables.probe(&pos, 0)
    {
        eprintln!("{e}");
        std::process::exit(1)
    }
    println!(
        "cold: open {} tables and probe once: {:.1} µs",
        materials.len(),
        started.elapsed().as_secs_f64() * 1e6
    );

    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut positions = Vec::with_capacity(probes);
    while positions.len() < probes {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let material = materials[(seed >> 33) as usize % materials.len()];
        let index = TableIndex::new(material);
        if let Some(pos) = index.position_at((seed >> 11) % index.len()) {
            positions.push(pos);
        }
    }
    let started = Instant::now();
    let mut wins = 0;
    for pos in &positions {
        if let Ok(p) = tables.probe(pos, 0) {
            wins += (p.wdl == thaiboard_tablebase::makhos::Wdl::Win) as usize;
        }
    }
    println!(
        "warm: {probes} random probes, mean {:.2} µs ({wins} wins)",
        started.elapsed().as_secs_f64() * 1e6 / probes as f64
    );
    hot("", &positions, probes, |pos| {
        std::hint::black_box(tables.probe(pos, 0).ok());
    });
    let uncached =
        MakhosTables::open_with_cache(std::path::Path::new(&dir), rules, no_cache()).unwrap();
    hot(" without the block cache", &positions, probes, |pos| {
        std::hint::black_box(uncached.probe(pos, 0).ok());
    });
    if tables.has_distances() {
        distance_latency(&tables, &positions);
    }
}

/// Distances to win of the same random positions: with a fresh count (read from the
/// files), then at a count drawn from 20 to 31 (read where the distance has settled,
/// searched near the count's end): the mean, and the slowest probe.
fn distance_latency(tables: &MakhosTables, positions: &[makhos::Position]) {
    let mut seed = 0x5eed_d157u64;
    for (what, tight) in [("a fresh count", false), ("counts 20-31", true)] {
        let mut slowest = 0.0f64;
        let mut decided = 0;
        let started = Instant::now();
        for pos in positions {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let count = if tight {
                20 + (seed >> 33) as u32 % 12
            } else {
                0
            };
            let one = Instant::now();
            if let Ok(Some(_)) = tables.distance_to_win(pos, count) {
                decided += 1;
            }
            slowest = slowest.max(one.elapsed().as_secs_f64());
        }
        println!(
            "distance to win at {what}: {} probes ({decided} decided), mean {:.2} µs, slowest {:.0} µs",
            positions.len(),
            started.elapsed().as_secs_f64() * 1e6 / positions.len() as f64,
            slowest * 1e6
        );
    }
}

/// The same two figures for the Makruk or Ouk Chatrang tables in `dir`: opening them and
/// one probe, then random legal positions of every table probed with their counts.
fn makruk_latency(dir: &str, variant: makruk::Variant, probes: usize) {
    use thaiboard_tablebase::makruk::solve::phase_count;
    use thaiboard_tablebase::makruk::{Dtm, MakrukTables, table_file_name};
    use thaiboard_tablebase::makruk::{index::position_at, material::Material};

    let started = Instant::now();
    let tables = MakrukTables::open(std::path::Path::new(dir), variant).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let first = makruk::Position::from_fen(variant, "8/8/3k4/8/8/8/8/R3K3 w - 32 7 1")
        .expect("a legal position");
    if let Err(e) = tables.verdict(&first) {
        eprintln!("{e}");
        std::process::exit(1)
    }
    println!(
        "cold: open {} tables and probe once: {:.1} µs",
        tables.len(),
        started.elapsed().as_secs_f64() * 1e6
    );

    // The largest tables of the set, those whose file is there (of five pieces only
    // some materials have one).
    let materials: Vec<Material> = Material::all_up_to(tables.max_pieces())
        .into_iter()
        .filter(|m| {
            m.pieces() == tables.max_pieces()
                && std::path::Path::new(dir)
                    .join(table_file_name(variant, m))
                    .exists()
        })
        .collect();
    if materials.is_empty() {
        eprintln!("{dir}: no table of {} pieces", tables.max_pieces());
        std::process::exit(1)
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut positions = Vec::with_capacity(probes);
    while positions.len() < probes {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let material = &materials[(seed >> 33) as usize % materials.len()];
        let count = phase_count(variant, material);
        let i = (seed >> 11) as usize % material.entries();
        if let Some(pos) = position_at(variant, material, count, i)
            && pos.state() == makruk::State::Ongoing
        {
            positions.push(pos);
        }
    }
    let started = Instant::now();
    let mut wins = 0;
    for pos in &positions {
        if let Ok(Some(d)) = tables.stored(pos) {
            wins += matches!(d, Dtm::Win(_)) as usize;
        }
    }
    println!(
        "warm: {probes} random probes of the {} {}-piece tables, mean {:.2} µs ({wins} wins)",
        materials.len(),
        tables.max_pieces(),
        started.elapsed().as_secs_f64() * 1e6 / probes as f64
    );
    hot("", &positions, probes, |pos| {
        std::hint::black_box(tables.stored(pos).ok());
    });
    let uncached =
        MakrukTables::open_with_cache(std::path::Path::new(dir), variant, no_cache()).unwrap();
    hot(" without the block cache", &positions, probes, |pos| {
        std::hint::black_box(uncached.stored(pos).ok());
    });
}
