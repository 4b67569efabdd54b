//! Perft and move generation speed: `cargo bench -p makhos`.

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};
use makhos::{Position, Rules, perft};

/// Positions with kings and captures, from the test vectors.
const MIDGAME: [&str; 4] = [
    "W:Wa1,c1,g1,b2,e3,g5:BKg3,b6,c7,e7,g7,b8,d8,f8",
    "B:Wa1,c1,e1,b2,f2,c3,e3,Kf8:Bf6,h6,a7,b8,d8,h8",
    "W:Wa1,b2,h2,g3,a5,Kd6:Bd2,h6,a7,f8",
    "W:WKc1:Bb2,d2,b4,d4",
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let start = Position::start();
    for depth in [6u32, 7] {
        group.throughput(Throughput::Elements(perft(&start, Rules::Default, depth)));
        group.bench_with_input(BenchmarkId::new("start", depth), &depth, |b, &d| {
            b.iter(|| perft(black_box(&start), Rules::Default, d))
        });
    }
    let pos: Position = MIDGAME[0].parse().unwrap();
    group.throughput(Throughput::Elements(perft(&pos, Rules::Default, 5)));
    group.bench_function("midgame_kings_5", |b| {
        b.iter(|| perft(black_box(&pos), Rules::Default, 5))
    });
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let positions: Vec<Position> = std::iter::once(Position::start())
        .chain(MIDGAME.iter().map(|t| t.parse().unwrap()))
        .collect();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for rules in Rules::ALL {
        group.bench_function(BenchmarkId::new("legal_moves", rules), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| black_box(p).legal_moves(rules).len())
                    .sum::<usize>()
            })
        });
        group.bench_function(BenchmarkId::new("count_legal_moves", rules), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| black_box(p).count_legal_moves(rules))
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

mod group {
    #![allow(missing_docs)]
    use super::*;
    criterion_group!(benches, bench_perft, bench_movegen);
}
criterion_main!(group::benches);
