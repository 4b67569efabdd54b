//! The engine and the Makruk counting rules (RULES.md, "Counting rules"):
//! the draw at the limit, the stronger side converting in time, the weaker
//! side playing for the limit, count-aware table keys, material that cannot
//! mate.

use engine::eval::{MakrukWeights, evaluate_makruk};
use engine::{Limits, MakrukGame, Score, SearchOptions, SearchResult, Tt, search};
use std::sync::atomic::AtomicBool;

fn pos(fen: &str) -> makruk::Position {
    makruk::Position::from_fen(makruk::Variant::Makruk, fen).unwrap()
}

fn search_with(tt: &mut Tt, fen: &str, depth: u32) -> (SearchResult<makruk::Move>, Score) {
    search_position(tt, pos(fen), depth)
}

fn search_position(
    tt: &mut Tt,
    position: makruk::Position,
    depth: u32,
) -> (SearchResult<makruk::Move>, Score) {
    let (r, score, _) = search_line(tt, position, depth);
    (r, score)
}

/// The search's result, its last score and its last line.
fn search_line(
    tt: &mut Tt,
    position: makruk::Position,
    depth: u32,
) -> (SearchResult<makruk::Move>, Score, Vec<String>) {
    let stop = AtomicBool::new(false);
    let (mut last, mut line) = (Score::Cp(0), Vec::new());
    let r = search(
        &MakrukGame::new(position),
        &[],
        tt,
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &SearchOptions::default(),
        &stop,
        |info| (last, line) = (info.score, info.pv.clone()),
    );
    (r, last, line)
}

fn run(fen: &str, depth: u32) -> (SearchResult<makruk::Move>, Score) {
    search_with(&mut Tt::new(4), fen, depth)
}

/// Two ruea against a bare khun: an 8-move (16-ply) pieces'-honour count.
/// Mate takes two moves here (Ra6-a7, then Rb1-b8). At count ply 14 the
/// mating move makes ply 17 and still wins (the side to move is mated);
/// at ply 15 Black's reply reaches 17 first and the game is drawn.
#[test]
fn the_stronger_side_mates_within_the_count_or_sees_the_draw() {
    let board = "4k3/8/R7/8/8/8/8/1R1K4 w -";
    let (_, s) = run(&format!("{board} 16 8 1"), 6);
    assert_eq!(s, Score::Mate(2));
    let (_, s) = run(&format!("{board} 16 14 1"), 6);
    assert_eq!(s, Score::Mate(2));
    let (r, s) = run(&format!("{board} 16 15 1"), 6);
    assert_eq!(s, Score::Cp(0), "no mate in one: the count runs out");
    assert!(r.best.is_some());
    // Mate in one still wins at the very last ply of the count.
    let (r, s) = run("4k3/R7/8/8/8/8/8/1R1K4 w - 16 16 1", 4);
    assert_eq!(s, Score::Mate(1));
    assert_eq!(r.best.unwrap().to_uci(), "b1b8");
}

/// Black's ma can take a ruea (Nxd4 Rxd4), which looks like a good trade,
/// but it leaves a bare khun and starts a fresh pieces'-honour count of 16
/// moves against the ruea. With the board's-honour count three plies from
/// its limit Black keeps the ma and draws; with the count far from its
/// limit the trade is the better try.
#[test]
fn the_weaker_side_keeps_the_count_running() {
    let board = "8/8/4nk2/8/3R4/8/8/3R3K b -";
    let (r, s) = run(&format!("{board} 128 125 1"), 6);
    assert_ne!(r.best.unwrap().to_uci(), "e6d4");
    assert_eq!(s, Score::Cp(0));
    let (r, s) = run(&format!("{board} 128 10 1"), 6);
    assert_eq!(r.best.unwrap().to_uci(), "e6d4");
    assert!(matches!(s, Score::Cp(c) if c < -200), "{s:?}");
}

/// The same placement with different counts must not share table scores:
/// searching the fresh count first, then the nearly expired one with the
/// same table, gives the same result as a fresh table.
#[test]
fn table_scores_depend_on_the_count() {
    let board = "4k3/8/R7/8/8/8/8/1R1K4 w -";
    let mut tt = Tt::new(4);
    let (_, fresh) = search_with(&mut tt, &format!("{board} 16 8 1"), 7);
    assert_eq!(fresh, Score::Mate(2));
    let (_, shared) = search_with(&mut tt, &format!("{board} 16 15 1"), 7);
    assert_eq!(shared, Score::Cp(0));
    let a = MakrukGame::new(pos(&format!("{board} 16 8 1")));
    let b = MakrukGame::new(pos(&format!("{board} 16 15 1")));
    let c = MakrukGame::new(pos(&format!("{board} - 0 1")));
    use engine::Game;
    assert_ne!(a.key(), b.key());
    assert_ne!(a.key(), c.key());
    assert_eq!(c.key(), pos(&format!("{board} - 0 1")).zobrist());
}

/// A fresh pieces'-honour count does not fade the score: taking the last
/// piece of the weaker side is worth it.
#[test]
fn capturing_the_last_piece_is_not_shunned() {
    let w = MakrukWeights::DEFAULT;
    // White to move takes the met on d5 with the ruea: Black is left with
    // a bare khun and a fresh 16-ply count starts.
    let before = pos("3k4/8/8/3m4/8/8/8/R2RK3 w - - 0 1");
    let capture = before.parse_uci("d1d5").unwrap();
    let after = before.played(capture);
    let count = after.counting().expect("pieces' honour count");
    assert_eq!((count.limit, count.ply), (16, 8));
    // From White's view: the evaluation after the capture (Black to move,
    // negated) is higher than before it.
    assert!(-evaluate_makruk(&after, &w) > evaluate_makruk(&before, &w));
}

/// Against a bare khun a held-back bia keeps the count from starting, so
/// the score fades as the count its promotion would start (K+N+bia: 64
/// moves, from ply 8) would, run on by the plies since the last capture
/// or bia move.
#[test]
fn holding_back_the_last_bia_fades_like_a_count() {
    let w = MakrukWeights::DEFAULT;
    let at = |halfmoves: u32| {
        let p = pos(&format!("k7/2K5/8/1P6/8/3N4/8/8 w - - {halfmoves} 100"));
        assert_eq!(
            engine::eval::stalled_count(&p),
            Some((128, 8 + halfmoves as i32))
        );
        evaluate_makruk(&p, &w)
    };
    let fresh = at(0);
    assert!(fresh > 300, "{fresh}");
    // The fade starts count_fade_plies (40) before the virtual limit.
    assert_eq!(at(80), fresh);
    let half = at(100);
    assert!(half < fresh && half > 0, "{half} against {fresh}");
    assert_eq!(at(120), 0);
    // With nothing left to promote (the same material with a met) a real
    // count runs instead; with a bia on each side no count is near.
    assert_eq!(
        engine::eval::stalled_count(&pos("k7/2K5/1M6/8/8/3N4/8/8 w - - 0 1")),
        None
    );
    assert_eq!(
        engine::eval::stalled_count(&pos("k7/2K5/7p/1P6/8/3N4/8/8 w - - 90 1")),
        None
    );
}

/// After a long stall the stronger side promotes its bia (the real count
/// then starts fresh) instead of shuffling on.
#[test]
fn a_long_stall_ends_in_a_promotion() {
    let (_, score, pv) = search_line(
        &mut Tt::new(4),
        pos("k7/2K5/8/1P6/8/3N4/8/8 w - - 150 100"),
        10,
    );
    assert!(matches!(score, Score::Cp(cp) if cp > 200), "{score:?}");
    assert!(
        pv.iter().step_by(2).any(|m| m.starts_with("b5b6")),
        "no promotion in White's moves of the line: {pv:?}"
    );
}

/// Material that cannot mate scores close to a draw: a lone met, mets all
/// on one colour (two, or three as in a game against Fairy-Stockfish that
/// the engine scored +6 until its stalemate), a lone khon; bare khuns are
/// an immediate draw.
#[test]
fn material_that_cannot_mate_scores_near_zero() {
    let w = MakrukWeights::DEFAULT;
    for fen in [
        "8/3k4/8/3M4/8/8/4K3/8 w - - 0 1",
        "8/3k4/8/3M4/4M3/8/4K3/8 w - - 0 1",
        "8/3k4/8/3S4/8/8/4K3/8 b - - 0 1",
        "6k1/4M3/3M1MK1/8/8/8/8/8 b - - 0 1",
        "6k1/4M3/3M1MK1/8/8/8/8/8 w - - 0 1",
        "8/8/2M3M1/8/2M5/8/2K5/k7 b - - 0 1",
    ] {
        let s = evaluate_makruk(&pos(fen), &w);
        assert!(s.abs() <= 50, "{fen}: {s}");
    }
    // Mets on both colours can mate, as can mets with a bia (it may promote
    // on the other colour): not scored as a draw.
    for fen in [
        "8/3k4/8/3M4/3M4/8/4K3/8 w - - 0 1",
        "6k1/4M3/3M1MK1/7M/8/8/8/8 b - - 0 1",
        "6k1/4M3/3M1MK1/8/8/7P/8/8 b - - 0 1",
    ] {
        let s = evaluate_makruk(&pos(fen), &w);
        assert!(s.abs() > 150, "{fen}: {s}");
    }
    let (_, s) = run("8/3k4/8/8/8/8/4K3/8 w - - 0 1", 3);
    assert_eq!(s, Score::Cp(0));
}

/// An Ouk Chatrang search from `fen`.
fn run_cambodian(fen: &str, depth: u32) -> (SearchResult<makruk::Move>, Score) {
    let p = makruk::Position::from_fen(makruk::Variant::Cambodian, fen).unwrap();
    search_position(&mut Tt::new(4), p, depth)
}

/// Ouk Chatrang's two-ruea count is 7 moves (14 plies), two plies shorter
/// than Makruk's: the same mate in two that Makruk still wins at count ply
/// 14 of 16 is a draw at ply 13 of 14, and wins at ply 12.
#[test]
fn the_search_uses_ouk_chatrangs_pieces_honour_limits() {
    let board = "4k3/8/R7/8/8/8/8/1R1K4 w -";
    let (_, s) = run_cambodian(&format!("{board} 14 12 1"), 6);
    assert_eq!(s, Score::Mate(2));
    let (r, s) = run_cambodian(&format!("{board} 14 13 1"), 6);
    assert_eq!(s, Score::Cp(0), "the count runs out before the mate");
    assert!(r.best.is_some());
    let (_, s) = run(&format!("{board} 16 13 1"), 6);
    assert_eq!(s, Score::Mate(2), "Makruk's count has room for it");
}

/// Black's khun and ma are two pieces: in Ouk Chatrang a board's-honour
/// count of 63 moves (126 plies) runs for them. Near its limit the weaker
/// side keeps the ma and draws; far from it, it trades the ma for a ruea
/// (which starts Ouk Chatrang's 15-move one-ruea count).
#[test]
fn the_weaker_side_plays_for_ouk_chatrangs_board_honour_limit() {
    let board = "8/8/4nk2/8/3R4/8/8/3R3K b -";
    let (r, s) = run_cambodian(&format!("{board} 126 123 1"), 6);
    assert_ne!(r.best.unwrap().to_uci(), "e6d4");
    assert_eq!(s, Score::Cp(0));
    let (r, s) = run_cambodian(&format!("{board} 126 10 1"), 6);
    assert_eq!(r.best.unwrap().to_uci(), "e6d4");
    assert!(matches!(s, Score::Cp(c) if c < -200), "{s:?}");
    let game = MakrukGame::new(
        makruk::Position::from_fen(makruk::Variant::Cambodian, &format!("{board} 126 127 1"))
            .unwrap(),
    );
    assert!(
        engine::Game::rule_draw(&game),
        "past Ouk Chatrang's limit the game is drawn"
    );
}
