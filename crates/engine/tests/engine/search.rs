//! Search tests: mates, simple tactics, Mak-hot capture choices, determinism.

use engine::{Limits, MakhosGame, MakrukGame, Score, SearchOptions, SearchResult, Tt, search};
use std::sync::atomic::AtomicBool;

fn makruk_search(fen: &str, depth: u32) -> (SearchResult<makruk::Move>, Score) {
    let pos = makruk::Position::from_fen(makruk::Variant::Makruk, fen).unwrap();
    let mut tt = Tt::new(4);
    let stop = AtomicBool::new(false);
    let mut last = Score::Cp(0);
    let r = search(
        &MakrukGame::new(pos),
        &[],
        &mut tt,
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &SearchOptions::default(),
        &stop,
        |info| last = info.score,
    );
    (r, last)
}

fn makhos_best(text: &str, depth: u32) -> String {
    let pos: makhos::Position = text.parse().unwrap();
    let mut tt = Tt::new(4);
    let stop = AtomicBool::new(false);
    let r = search(
        &MakhosGame::new(pos, makhos::Rules::Default, 0),
        &[],
        &mut tt,
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &SearchOptions::default(),
        &stop,
        |_| {},
    );
    r.best.unwrap().to_engine()
}

#[test]
fn makruk_mate_in_one() {
    let (r, score) = makruk_search("4k3/R7/8/8/8/8/8/1R1K4 w - - 0 1", 3);
    assert_eq!(r.best.unwrap().to_uci(), "b1b8");
    assert_eq!(score, Score::Mate(1));
}

#[test]
fn makruk_mate_in_two() {
    let (r, score) = makruk_search("4k3/8/R7/8/8/8/8/1R1K4 w - - 0 1", 4);
    assert_eq!(score, Score::Mate(2));
    let pos =
        makruk::Position::from_fen(makruk::Variant::Makruk, "4k3/8/R7/8/8/8/8/1R1K4 w - - 0 1")
            .unwrap();
    assert!(pos.legal_moves().contains(&r.best.unwrap()));
}

#[test]
fn makruk_wins_a_hanging_ruea() {
    let (r, _) = makruk_search("3k4/8/8/3r4/8/8/8/3RK3 w - - 0 1", 4);
    assert_eq!(r.best.unwrap().to_uci(), "d1d5");
}

#[test]
fn makruk_mated_side_has_no_move() {
    let (r, _) = makruk_search("1R2k3/R7/8/8/8/8/8/3K4 b - - 0 1", 3);
    assert!(r.best.is_none());
}

#[test]
fn makhos_takes_the_longest_capture() {
    assert_eq!(makhos_best("W:Wb2,h2:Ba7,c3,e5,g3,g7", 4), "b2d4f6h8");
}

#[test]
fn makhos_captures_the_king() {
    assert_eq!(makhos_best("W:Wc3:Bb4,Kd4,h8", 4), "c3e5");
}

#[test]
fn search_is_deterministic_at_fixed_depth() {
    let a = makruk_search("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", 4).0;
    let b = makruk_search("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", 4).0;
    assert_eq!(a, b);
    let c = makhos_best("W:Wa1,c1,e1,g1,b2,d2,f2,h2:Bb8,d8,f8,h8,a7,c7,e7,g7", 5);
    let d = makhos_best("W:Wa1,c1,e1,g1,b2,d2,f2,h2:Bb8,d8,f8,h8,a7,c7,e7,g7", 5);
    assert_eq!(c, d);
}

#[test]
fn insufficient_material_scores_as_a_draw() {
    // A lone met cannot mate a bare khun.
    let pos =
        makruk::Position::from_fen(makruk::Variant::Makruk, "8/3k4/8/3M4/8/8/4K3/8 w - - 0 1")
            .unwrap();
    let score = engine::eval::evaluate_makruk(&pos, &engine::eval::MakrukWeights::DEFAULT);
    assert!(score.abs() <= 30, "score {score}");
}

#[test]
fn multipv_reports_distinct_lines() {
    let pos = makruk::Position::new(makruk::Variant::Makruk);
    let mut tt = Tt::new(4);
    let stop = AtomicBool::new(false);
    let mut firsts = Vec::new();
    search(
        &MakrukGame::new(pos),
        &[],
        &mut tt,
        &Limits {
            depth: Some(3),
            ..Limits::default()
        },
        &SearchOptions {
            multipv: 3,
            ..SearchOptions::default()
        },
        &stop,
        |info| {
            if info.depth == 3 {
                firsts.push(info.pv[0].clone());
            }
        },
    );
    assert_eq!(firsts.len(), 3);
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn makruk_ma_fork_wins_the_ruea() {
    let (r, _) = makruk_search("r3k3/8/7p/1N6/8/8/8/3K4 w - - 0 1", 5);
    assert_eq!(r.best.unwrap().to_uci(), "b5c7");
}

#[test]
fn a_count_near_its_limit_pulls_the_score_toward_zero() {
    let w = engine::eval::MakrukWeights::DEFAULT;
    let early = makruk::Position::from_fen(
        makruk::Variant::Makruk,
        "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1",
    )
    .unwrap();
    let late = makruk::Position::from_fen(
        makruk::Variant::Makruk,
        "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 84 1",
    )
    .unwrap();
    assert_eq!(late.counting().unwrap().ply, 84);
    let e = engine::eval::evaluate_makruk(&early, &w);
    let l = engine::eval::evaluate_makruk(&late, &w);
    assert!(e < -200, "the bare khun's side is worse: {e}");
    assert!(l.abs() * 4 < e.abs(), "early {e}, late {l}");
}

#[test]
fn a_stopped_search_still_returns_a_legal_move() {
    let pos = makruk::Position::new(makruk::Variant::Makruk);
    let mut tt = Tt::new(1);
    let stop = AtomicBool::new(true);
    let r = search(
        &MakrukGame::new(pos.clone()),
        &[],
        &mut tt,
        &Limits {
            infinite: true,
            ..Limits::default()
        },
        &SearchOptions::default(),
        &stop,
        |_| {},
    );
    assert!(pos.legal_moves().contains(&r.best.unwrap()));
}

#[test]
fn movetime_bounds_the_search() {
    let pos: makhos::Position = "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Bb8,d8,f8,h8,a7,c7,e7,g7"
        .parse()
        .unwrap();
    let mut tt = Tt::new(1);
    let stop = AtomicBool::new(false);
    let started = std::time::Instant::now();
    let r = search(
        &MakhosGame::new(pos, makhos::Rules::Default, 0),
        &[],
        &mut tt,
        &Limits {
            movetime: Some(200),
            ..Limits::default()
        },
        &SearchOptions::default(),
        &stop,
        |_| {},
    );
    assert!(r.best.is_some());
    // Generous: the machine is shared.
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn skill_level_zero_still_plays_legal_moves() {
    let pos = makruk::Position::new(makruk::Variant::Cambodian);
    let mut tt = Tt::new(1);
    let stop = AtomicBool::new(false);
    let r = search(
        &MakrukGame::new(pos.clone()),
        &[],
        &mut tt,
        &Limits::default(),
        &SearchOptions {
            skill: Some(0),
            ..SearchOptions::default()
        },
        &stop,
        |_| {},
    );
    assert!(pos.legal_moves().contains(&r.best.unwrap()));
    assert_eq!(r.depth, 1);
}

#[test]
fn makhos_bench_node_count_is_reproducible() {
    let a = engine::bench::bench_makhos(4);
    let b = engine::bench::bench_makhos(4);
    assert_eq!(a.nodes, b.nodes);
    let c = engine::bench::bench_makruk(2);
    let d = engine::bench::bench_makruk(2);
    assert_eq!(c.nodes, d.nodes);
}

#[test]
fn makhos_finds_the_two_for_one_shot() {
    // e3-d4 gives a man; either forced capture (e5xc3 or c5xe3) is answered
    // by a double capture (b2xd4xb6 / d2xf4xd6).
    assert_eq!(
        makhos_best("W:Wa1,c1,e1,b2,d2,e3:Bc5,e5,g7,f8,h8", 8),
        "e3d4"
    );
}

/// A Makruk move back into a position of the game's history scores as a
/// draw (the search looks for progress instead of shuffling); without that
/// history the same move scores its evaluation.
#[test]
fn makruk_repetitions_score_as_draws() {
    let start = makruk::Position::new(makruk::Variant::Makruk);
    let mut game = MakrukGame::new(start);
    let mut history = Vec::new();
    // Both ma step out and back: the start position again, 4 plies later.
    for uci in ["b1d2", "g8e7", "d2b1", "e7g8"] {
        let m = game.pos.parse_uci(uci).unwrap();
        history.push(engine::Game::key(&game));
        game = engine::Game::play(&game, m);
    }
    let score_of = |history: &[u64]| {
        let mut scores = Vec::new();
        search(
            &game,
            history,
            &mut Tt::new(1),
            &Limits {
                depth: Some(1),
                ..Limits::default()
            },
            &SearchOptions {
                multipv: 64,
                ..SearchOptions::default()
            },
            &AtomicBool::new(false),
            |info| {
                if info.pv[0] == "b1d2" {
                    scores.push(info.score);
                }
            },
        );
        scores.pop().expect("b1d2 is reported")
    };
    assert_eq!(score_of(&history), Score::Cp(0));
    assert_ne!(score_of(&[]), Score::Cp(0));
}
