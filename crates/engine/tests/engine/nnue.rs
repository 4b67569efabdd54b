//! The network evaluation: the incrementally updated accumulators equal a
//! full refresh over random games (with both kernels, which agree), and a
//! search runs on it. Networks here are random: these tests pin the
//! arithmetic, not the strength.

use engine::eval::nnue::{Accumulator, HIDDEN, Network, simd};
use engine::{Game, Limits, MakrukGame, SearchOptions, Tt, search};
use std::sync::atomic::AtomicBool;

/// A reproducible xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number in `-span..span`.
    fn signed(&mut self, span: i64) -> i64 {
        (self.next() % (2 * span as u64)) as i64 - span
    }
}

/// A network with random weights of the sizes a trained one has.
fn random_network(seed: u64) -> &'static Network {
    let mut rng = Rng(seed | 1);
    let mut net = Network::zeroed();
    for w in &mut net.feature_weights {
        *w = rng.signed(100) as i16;
    }
    for b in &mut net.feature_biases {
        *b = rng.signed(200) as i16;
    }
    for w in &mut net.output_weights {
        *w = rng.signed(120) as i16;
    }
    for b in &mut net.output_biases {
        *b = rng.signed(100_000) as i32;
    }
    Box::leak(Box::new(net))
}

/// Plays `plies` random legal moves from the start (fewer if the game
/// ends), calling `check` on every position reached.
fn random_game(
    seed: u64,
    plies: usize,
    net: &'static Network,
    mut check: impl FnMut(&MakrukGame<engine::eval::nnue::Nnue>),
) {
    let mut rng = Rng(seed | 1);
    let start = MakrukGame::new(makruk::Position::new(makruk::Variant::Makruk));
    let mut g = start.with_network(net);
    let mut moves = Vec::new();
    for _ in 0..plies {
        check(&g);
        moves.clear();
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        g = g.play(moves[(rng.next() % moves.len() as u64) as usize]);
    }
}

#[test]
fn incremental_accumulators_equal_a_full_refresh_over_random_games() {
    let net = random_network(7);
    let mut positions = 0;
    let mut khun_moves = 0;
    for seed in 1..=40 {
        let mut last_khuns = None;
        random_game(seed, 300, net, |g| {
            let fresh = Accumulator::refresh(net, &g.pos);
            assert_eq!(
                g.evaluator().accumulator(),
                &fresh,
                "game {seed}, {}",
                g.pos.fen()
            );
            let khuns = (
                g.pos.king_of(makruk::Color::White),
                g.pos.king_of(makruk::Color::Black),
            );
            if last_khuns.is_some_and(|k| k != khuns) {
                khun_moves += 1;
            }
            last_khuns = Some(khuns);
            positions += 1;
        });
    }
    // The games went long enough to capture, promote and move khuns across
    // buckets and halves.
    assert!(positions > 5_000, "{positions} positions");
    assert!(khun_moves > 200, "{khun_moves} khun moves");
}

#[test]
fn both_kernels_score_random_games_alike() {
    let net = random_network(11);
    let mut scores = Vec::new();
    for kernel in [simd::Kernel::Scalar, simd::Kernel::Avx2] {
        let used = simd::use_kernel(kernel);
        let mut these = Vec::new();
        for seed in 1..=10 {
            random_game(seed, 200, net, |g| {
                these.push((g.evaluate(), g.evaluator().raw(&g.pos)))
            });
        }
        eprintln!("kernel {used:?}: {} positions", these.len());
        scores.push(these);
    }
    simd::use_kernel(simd::Kernel::Avx2);
    assert_eq!(scores[0], scores[1]);
    // The raw scores are not all alike (the test would pass vacuously).
    let distinct: std::collections::HashSet<i32> = scores[0].iter().map(|s| s.1).collect();
    assert!(distinct.len() > 100, "{} distinct scores", distinct.len());
}

#[test]
fn the_search_runs_on_the_network() {
    let net = random_network(3);
    let g = MakrukGame::new(makruk::Position::new(makruk::Variant::Makruk)).with_network(net);
    let mut tt = Tt::new(1);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let r = search(
        &g,
        &[],
        &mut tt,
        &limits,
        &SearchOptions::default(),
        &stop,
        |_| {},
    );
    assert!(r.best.is_some());
    assert_eq!(r.depth, 5);
}

#[test]
fn a_zero_network_leaves_only_the_rules() {
    // Zero weights: every raw score is 0, so the evaluation is 0 too (the
    // rules' corrections scale or add to a lead, and there is none).
    let net: &'static Network = Box::leak(Box::new(Network::zeroed()));
    random_game(5, 100, net, |g| {
        assert_eq!(g.evaluator().raw(&g.pos), 0);
        assert_eq!(g.evaluate(), 0);
    });
    assert_eq!(HIDDEN % 16, 0, "the kernels work in 16-lane steps");
}

#[test]
fn a_zero_network_on_the_classical_base_is_the_classical_evaluation() {
    use engine::eval::nnue::Base;
    let mut zero = Network::zeroed();
    zero.base = Base::Classical;
    let net: &'static Network = Box::leak(Box::new(zero));
    let mut differing = 0;
    random_game(9, 160, net, |g| {
        let classical = MakrukGame::new(g.pos.clone());
        assert_eq!(g.evaluator().raw(&g.pos), 0);
        assert_eq!(g.evaluate(), classical.evaluate(), "{}", g.pos.fen());
        differing += usize::from(classical.evaluate() != 0);
    });
    assert!(differing > 100, "the classical scores were mostly 0");
    // On a random network the base adds the classical sum to the raw score.
    let mut random = random_network(4).clone();
    random.base = Base::Classical;
    let on_base: &'static Network = Box::leak(Box::new(random));
    let pos = makruk::Position::from_fen(
        makruk::Variant::Makruk,
        "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1",
    )
    .unwrap();
    let plain = MakrukGame::new(pos.clone()).with_network(random_network(4));
    let based = MakrukGame::new(pos.clone()).with_network(on_base);
    let sum = engine::eval::linear_white(&pos, &engine::eval::MakrukWeights::DEFAULT.terms);
    assert_eq!(plain.evaluator().raw(&pos), based.evaluator().raw(&pos));
    assert_eq!(
        based.evaluate(),
        plain.evaluate() - sum,
        "Black to move: White's sum counts against"
    );
}

/// A network whose raw score is `cp` for the side to move everywhere.
fn constant_network(cp: i32) -> &'static Network {
    use engine::eval::nnue::{OUTPUT_SCALE, QA, QB};
    let mut net = Network::zeroed();
    for b in &mut net.output_biases {
        *b = cp * QA * QB / OUTPUT_SCALE;
    }
    Box::leak(Box::new(net))
}

fn nnue_eval(net: &'static Network, fen: &str) -> (i32, i32) {
    let pos = makruk::Position::from_fen(makruk::Variant::Makruk, fen).unwrap();
    let g = MakrukGame::new(pos).with_network(net);
    (g.evaluator().raw(&g.pos), g.evaluate())
}

#[test]
fn the_rules_scale_the_networks_score_as_they_do_the_classical_one() {
    let net = constant_network(500);
    let w = engine::eval::MakrukWeights::DEFAULT;
    // An ordinary position: the raw score as it is.
    assert_eq!(
        nnue_eval(net, "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"),
        (500, 500)
    );
    // A khun and met cannot mate: the lead is divided away.
    let (raw, eval) = nnue_eval(net, "4k3/8/2p1p3/8/8/8/3M4/3K4 w - - 0 1");
    assert_eq!((raw, eval), (500, 500 / w.no_mate_divisor));
    // A count two plies from its limit of 16: faded toward 0.
    let (raw, eval) = nnue_eval(net, "4k3/8/8/8/8/8/3R4/3K1R2 w - 16 14 1");
    assert_eq!(raw, 500);
    assert!(eval < 500 / 2, "{eval}");
    // The same with the classical evaluation behind it: the rules are one
    // code path for both.
    let pos = makruk::Position::from_fen(
        makruk::Variant::Makruk,
        "4k3/8/8/8/8/8/3R4/3K1R2 w - 16 14 1",
    )
    .unwrap();
    let white = engine::eval::rules_white(&pos, &w, 500);
    assert_eq!(engine::eval::count_fade(&pos, &w, white), eval);
}
