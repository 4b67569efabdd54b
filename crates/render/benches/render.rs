#![allow(missing_docs)] // criterion_main! generates undocumented items
//! Rendering speed: a 100-move game to an animated GIF, and one PNG still.
//! `cargo bench -p thaiboard-render`

use criterion::{Criterion, criterion_group, criterion_main};

/// A game of random legal moves (fixed seed), up to `plies` plies or its end.
fn long_game(plies: usize) -> makruk::Game {
    let mut game = makruk::Game::new(makruk::Variant::Makruk);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let m = moves[(seed % moves.len() as u64) as usize];
        game.play(m).unwrap();
    }
    game
}

fn bench(c: &mut Criterion) {
    let game = long_game(200);
    let renderer = render::Renderer::new(56);
    let scenes = render::makruk_scenes(&game, false);
    c.bench_function("gif of a 200-ply makruk game, 56 px squares", |b| {
        b.iter(|| render::encode_gif(&renderer, &scenes, render::Timing::default()).unwrap())
    });
    c.bench_function("png still, 56 px squares", |b| {
        b.iter(|| render::encode_png(&renderer, &scenes[scenes.len() - 1]))
    });
    c.bench_function("renderer setup (rasterise every piece), 56 px", |b| {
        b.iter(|| render::Renderer::new(56))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
