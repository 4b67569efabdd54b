//! The search memory: the histories one search of a game hands to the next.

use engine::{
    Limits, MakrukGame, SearchMemory, SearchOptions, SearchParams, SearchResult, Tt,
    search_with_memory, search_with_tables,
};
use std::sync::atomic::AtomicBool;

fn game(fen: &str) -> MakrukGame {
    MakrukGame::new(makruk::Position::from_fen(makruk::Variant::Makruk, fen).unwrap())
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Options that hand `carry` percent of the histories to the next search
/// (the tunable `HistoryCarry`), with `threads` threads.
fn carrying(carry: i32, threads: usize) -> SearchOptions {
    SearchOptions {
        threads,
        params: SearchParams {
            history_carry: carry,
            ..SearchParams::default()
        },
        ..SearchOptions::default()
    }
}

/// A search of `fen` to `d` plies from an empty table with `memory` and `opts`.
fn run(
    fen: &str,
    d: u32,
    memory: &mut SearchMemory,
    opts: &SearchOptions,
) -> SearchResult<makruk::Move> {
    let stop = AtomicBool::new(false);
    search_with_memory(
        &game(fen),
        &[],
        &mut Tt::new(4),
        memory,
        &depth(d),
        opts,
        None,
        &stop,
        |_| {},
    )
}

/// A search of `fen` to `d` plies from an empty table, with `memory`
/// kept whole, or without one.
fn searched(fen: &str, d: u32, memory: Option<&mut SearchMemory>) -> SearchResult<makruk::Move> {
    match memory {
        Some(m) => run(fen, d, m, &carrying(100, 1)),
        None => {
            let stop = AtomicBool::new(false);
            let opts = carrying(100, 1);
            search_with_tables(
                &game(fen),
                &[],
                &mut Tt::new(4),
                &depth(d),
                &opts,
                None,
                &stop,
                |_| {},
            )
        }
    }
}

const START: &str = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1";
/// The start after 1. c3-c4 f6-f5.
const LATER: &str = "rnsmksnr/8/ppppp1pp/5p2/2P5/PP1PPPPP/8/RNSKMSNR w - - 0 2";

#[test]
fn a_fresh_memory_searches_as_a_search_without_one() {
    let mut memory = SearchMemory::new();
    assert!(memory.is_empty());
    let with = searched(START, 9, Some(&mut memory));
    let without = searched(START, 9, None);
    assert_eq!((with.best, with.nodes), (without.best, without.nodes));
    assert!(!memory.is_empty(), "the search left its histories");
}

#[test]
fn the_next_search_starts_from_what_the_last_one_learnt() {
    let mut memory = SearchMemory::new();
    searched(START, 9, Some(&mut memory));
    let fresh = searched(LATER, 9, None);
    let mut kept = memory.clone();
    let after = searched(LATER, 9, Some(&mut kept));
    // The same tree ordered by another history: another node count.
    assert_ne!(after.nodes, fresh.nodes, "the memory changed nothing");
    // Handed on again, the memory gives the same search again (it is
    // all the state there is besides the emptied table).
    let mut again = memory.clone();
    assert_eq!(searched(LATER, 9, Some(&mut again)).nodes, after.nodes);
    // Not carried (`HistoryCarry` 0), it counts for nothing.
    let mut dropped = memory.clone();
    let mut tt = Tt::new(4);
    let stop = AtomicBool::new(false);
    let r = search_with_memory(
        &game(LATER),
        &[],
        &mut tt,
        &mut dropped,
        &depth(9),
        &carrying(0, 1),
        None,
        &stop,
        |_| {},
    );
    assert_eq!(r.nodes, fresh.nodes);
    // Cleared, it is forgotten.
    memory.clear();
    assert!(memory.is_empty());
    assert_eq!(searched(LATER, 9, Some(&mut memory)).nodes, fresh.nodes);
}

#[test]
fn each_thread_keeps_its_own_tables() {
    let mut memory = SearchMemory::new();
    assert!(run(START, 8, &mut memory, &carrying(100, 2)).best.is_some());
    assert_eq!(memory.threads(), 2);
    // One thread later: the main thread's tables are kept, the helper's dropped.
    assert!(run(LATER, 8, &mut memory, &carrying(100, 1)).best.is_some());
    assert_eq!(memory.threads(), 1);
}
