//! Probe latency of Mak-hot tables: `cargo run --release -p thaiboard-tablebase --example
//! probe_latency -- DIR [RULES] [PROBES]`. Prints the time to open the directory and
//! answer one probe (cold, in a fresh process), then the mean time of random probes
//! across all tables (warm: files mapped, blocks decompressed as probes reach them).

use std::time::Instant;
use thaiboard_tablebase::makhos::{MakhosTables, TableIndex};

/// Probes timed when no count is given.
const DEFAULT_PROBES: usize = 20_000;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: probe_latency DIR [RULES] [PROBES]");
        std::process::exit(2);
    };
    let rules: makhos::Rules = args
        .next()
        .map_or(Ok(makhos::Rules::Default), |r| r.parse())
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        });
    let probes: usize = args
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_PROBES);

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
}
