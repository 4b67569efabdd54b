//! Lazy SMP: more than one thread gives the same answers where the answer
//! is forced, and a legal move always.

use engine::{Limits, MakhosGame, MakrukGame, Score, SearchOptions, Tt, search};
use std::sync::atomic::AtomicBool;

fn opts(threads: usize) -> SearchOptions {
    SearchOptions {
        threads,
        ..SearchOptions::default()
    }
}

#[test]
fn two_threads_find_the_same_mate() {
    let fen = "4k3/8/R7/8/8/8/8/1R1K4 w - - 0 1";
    for threads in [1, 2, 3] {
        let pos = makruk::Position::from_fen(makruk::Variant::Makruk, fen).unwrap();
        let stop = AtomicBool::new(false);
        let mut score = Score::Cp(0);
        let r = search(
            &MakrukGame::new(pos.clone()),
            &[],
            &mut Tt::new(4),
            &Limits {
                depth: Some(6),
                ..Limits::default()
            },
            &opts(threads),
            &stop,
            |i| score = i.score,
        );
        assert_eq!(score, Score::Mate(2), "{threads} threads");
        assert!(pos.legal_moves().contains(&r.best.unwrap()));
        assert!(r.nodes > 0);
    }
}

#[test]
fn two_threads_play_legal_moves_under_a_node_limit() {
    let stop = AtomicBool::new(false);
    let pos = makruk::Position::new(makruk::Variant::Makruk);
    let r = search(
        &MakrukGame::new(pos.clone()),
        &[],
        &mut Tt::new(4),
        &Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
        &opts(2),
        &stop,
        |_| {},
    );
    assert!(pos.legal_moves().contains(&r.best.unwrap()));
    let text = "W:Wa1,c1,e1,b2,d2,e3:Bc5,e5,g7,f8,h8";
    let r = search(
        &MakhosGame::new(text.parse().unwrap(), makhos::Rules::Default, 0),
        &[],
        &mut Tt::new(4),
        &Limits {
            depth: Some(8),
            ..Limits::default()
        },
        &opts(2),
        &stop,
        |_| {},
    );
    assert_eq!(r.best.unwrap().to_engine(), "e3d4");
}

#[test]
fn helpers_stop_with_the_main_search_and_add_their_nodes() {
    // The helpers search until the main thread is done; their nodes count.
    let one = engine::bench::bench_makhos_threads(6, 1);
    let two = engine::bench::bench_makhos_threads(6, 2);
    assert!(two.nodes > 0 && one.nodes > 0);
    let stop = AtomicBool::new(true);
    // Stopped before it starts: still a legal move, no hang.
    let pos = makruk::Position::new(makruk::Variant::Makruk);
    let r = search(
        &MakrukGame::new(pos.clone()),
        &[],
        &mut Tt::new(1),
        &Limits::default(),
        &opts(4),
        &stop,
        |_| {},
    );
    assert!(pos.legal_moves().contains(&r.best.unwrap()));
}
