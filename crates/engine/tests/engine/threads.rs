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

/// Searches the Makruk opening `fen` with `threads` threads for `ms`
/// milliseconds, returning the result and every `info` report.
fn timed(
    fen: &str,
    threads: usize,
    ms: u64,
    searchmoves: &[&str],
) -> (engine::SearchResult<makruk::Move>, Vec<engine::SearchInfo>) {
    let pos = makruk::Position::from_fen(makruk::Variant::Makruk, fen).unwrap();
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let r = search(
        &MakrukGame::new(pos),
        &[],
        &mut Tt::new(16),
        &Limits {
            movetime: Some(ms),
            ..Limits::default()
        },
        &SearchOptions {
            threads,
            searchmoves: searchmoves.iter().map(|m| m.to_string()).collect(),
            ..SearchOptions::default()
        },
        &stop,
        |i| infos.push(i.clone()),
    );
    (r, infos)
}

/// Middlegame positions from the openings file.
fn openings(n: usize) -> Vec<String> {
    include_str!("../../../../data/openings/makruk.epd")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(n)
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn the_last_report_names_the_move_played_whichever_thread_found_it() {
    // When a helper's deeper line wins the threads' vote, its line is
    // reported after the main thread's, so a GUI's last `info` line always
    // shows the move played, its score and its depth.
    for fen in openings(8) {
        let (r, infos) = timed(&fen, 3, 150, &[]);
        let last = infos.last().expect("an info line");
        let best = r.best.expect("a move");
        assert_eq!(last.pv.first(), Some(&best.to_uci()), "{fen}");
        assert_eq!(last.score, Score::from_internal(r.score), "{fen}");
        assert_eq!(last.depth, r.depth, "{fen}");
    }
}

#[test]
fn helpers_search_only_the_moves_go_searchmoves_names() {
    // Helpers whose line could win the vote must keep to `searchmoves`
    // as the main thread does.
    for fen in openings(4) {
        let pos = makruk::Position::from_fen(makruk::Variant::Makruk, &fen).unwrap();
        let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci()).collect();
        moves.sort();
        let named = [moves[0].as_str(), moves[moves.len() - 1].as_str()];
        let (r, infos) = timed(&fen, 3, 150, &named);
        let best = r.best.expect("a move").to_uci();
        assert!(
            named.contains(&best.as_str()),
            "{fen}: {best} not in {named:?}"
        );
        for info in &infos {
            assert!(named.contains(&info.pv[0].as_str()), "{fen}: {:?}", info.pv);
        }
    }
}

#[test]
fn helpers_keep_to_the_depth_limit() {
    let fen = &openings(1)[0];
    let pos = makruk::Position::from_fen(makruk::Variant::Makruk, fen).unwrap();
    let stop = AtomicBool::new(false);
    let mut deepest = 0;
    let r = search(
        &MakrukGame::new(pos),
        &[],
        &mut Tt::new(16),
        &Limits {
            depth: Some(7),
            ..Limits::default()
        },
        &opts(3),
        &stop,
        |i| deepest = deepest.max(i.depth),
    );
    assert_eq!((r.depth, deepest), (7, 7));
}
