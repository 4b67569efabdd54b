//! Games per second read (every move checked) and replayed: the 19 games of
//! the SchemingMind and PlayOK vectors, and their round trip through the
//! writer. Criterion's `thrpt` figure is in games per second.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use records::{Reader, WriteOptions, game_to_string, replay};
use std::hint::black_box;

fn vectors() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors/makruk/");
    let mut text = String::new();
    for name in ["schemingmind.pgn", "playok.pgn"] {
        let path = format!("{dir}{name}");
        let t = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{path} cannot be read ({e}): the benchmark reads the repository's vectors/ folder"
            )
        });
        text.push_str(&t);
        text.push_str("\n\n");
    }
    text
}

fn bench(c: &mut Criterion) {
    let text = vectors();
    let games = Reader::new(text.as_bytes()).filter(Result::is_ok).count() as u64;
    assert_eq!(games, 19);
    let mut group = c.benchmark_group("records");
    group.throughput(Throughput::Elements(games));
    group.bench_function("read_and_replay", |b| {
        b.iter(|| {
            let mut plies = 0;
            for g in Reader::new(black_box(text.as_bytes())) {
                let g = g.expect("vector games read");
                plies += replay(&g).plies;
            }
            plies
        })
    });
    let parsed: Vec<_> = Reader::new(text.as_bytes()).map(Result::unwrap).collect();
    group.bench_function("write", |b| {
        b.iter(|| {
            parsed
                .iter()
                .map(|g| game_to_string(black_box(g), &WriteOptions::default()).len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
