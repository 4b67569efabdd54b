#![allow(missing_docs)]
//! Criterion benchmarks: perft (bulk-counted) and legal-move generation.
//! Run with `cargo bench -p makruk`.

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use makruk::{Position, Variant, perft};

const MIDDLEGAME: &str = "r1s1k2r/2m4n/2pppps1/pp6/P1PKP1P1/1P1P2SN/1S6/RN2M3 w - - 0 18";
const ENDGAME: &str = "3m1k2/8/8/KN6/8/1r5s/8/8 w - 128 0 44";

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, fen, depth) in [
        ("start_d5", None, 5),
        ("middlegame_d4", Some(MIDDLEGAME), 4),
    ] {
        let pos = match fen {
            Some(f) => Position::from_fen(Variant::Makruk, f).unwrap(),
            None => Position::new(Variant::Makruk),
        };
        group.throughput(Throughput::Elements(perft(&pos, depth)));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&pos), depth)));
    }
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (name, fen) in [
        ("start", Variant::Makruk.start_fen()),
        ("middlegame", MIDDLEGAME),
        ("endgame", ENDGAME),
    ] {
        let pos = Position::from_fen(Variant::Makruk, fen).unwrap();
        group.bench_function(format!("legal_moves_{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves().len())
        });
        group.bench_function(format!("count_{name}"), |b| {
            b.iter(|| black_box(&pos).count_legal_moves())
        });
        let m = pos.legal_moves()[0];
        group.bench_function(format!("play_{name}"), |b| {
            b.iter(|| black_box(&pos).played(m))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_movegen);
criterion_main!(benches);
