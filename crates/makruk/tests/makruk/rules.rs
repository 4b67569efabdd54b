//! One test (at least) per rule of RULES.md section 1: Makruk's pieces,
//! counting and game endings (Ouk Chatrang and notation: `rules_cambodian`).

use makruk::{
    Color, CountKind, CountingError, CountingMode, EndReason, Game, GameError, Position, Role,
    Square, State, Variant,
};

pub(crate) fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::Makruk, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

pub(crate) fn camb(fen: &str) -> Position {
    Position::from_fen(Variant::Cambodian, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

pub(crate) fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

/// The destinations of the piece on `from`, sorted.
pub(crate) fn targets(p: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == sq(from))
        .map(|m| m.to().to_string())
        .collect();
    v.sort();
    v
}

pub(crate) fn play(p: &mut Position, uci: &str) {
    let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
    p.play_unchecked(m);
}

// --- Pieces and start ---

#[test]
fn start_position_kings_mets_and_first_move() {
    let p = Position::new(Variant::Makruk);
    assert_eq!(
        p.fen(),
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
    );
    assert_eq!(p.piece_at(sq("d1")).unwrap().role, Role::King);
    assert_eq!(p.piece_at(sq("e1")).unwrap().role, Role::Met);
    assert_eq!(p.piece_at(sq("e8")).unwrap().role, Role::King);
    assert_eq!(p.piece_at(sq("d8")).unwrap().role, Role::Met);
    assert_eq!(p.turn(), Color::White);
    assert_eq!(p.legal_moves().len(), 23);
}

#[test]
fn khun_moves_one_square_and_never_into_check() {
    let p = pos("4k3/8/8/8/8/8/8/r2K4 w - - 0 1");
    // The ruea on a1 covers the first rank.
    assert_eq!(targets(&p, "d1"), ["c2", "d2", "e2"]);
    let p = pos("4k3/8/8/8/3K4/8/8/8 w - - 0 1");
    assert_eq!(targets(&p, "d4").len(), 8);
}

#[test]
fn met_moves_one_square_diagonally() {
    let p = pos("4k3/8/8/8/3M4/8/8/K7 w - - 0 1");
    assert_eq!(targets(&p, "d4"), ["c3", "c5", "e3", "e5"]);
}

#[test]
fn khon_moves_diagonally_or_straight_forward() {
    let p = pos("4k3/8/8/8/3S4/8/8/K7 w - - 0 1");
    assert_eq!(targets(&p, "d4"), ["c3", "c5", "d5", "e3", "e5"]);
    let p = pos("4k3/8/8/3s4/8/8/8/K7 b - - 0 1");
    assert_eq!(targets(&p, "d5"), ["c4", "c6", "d4", "e4", "e6"]);
}

#[test]
fn ma_and_ruea_move_as_in_chess() {
    let p = pos("4k3/8/8/8/3N4/8/8/K7 w - - 0 1");
    assert_eq!(targets(&p, "d4").len(), 8);
    let p = pos("4k3/8/3p4/8/3R4/8/8/K7 w - - 0 1");
    assert_eq!(
        targets(&p, "d4"),
        [
            "a4", "b4", "c4", "d1", "d2", "d3", "d5", "d6", "e4", "f4", "g4", "h4"
        ]
    );
}

#[test]
fn bia_steps_forward_captures_diagonally_no_double_step_no_en_passant() {
    let p = pos("4k3/8/8/8/8/4P3/8/K7 w - - 0 1");
    assert_eq!(
        targets(&p, "e3"),
        ["e4"],
        "one step only, even from the start rank"
    );
    let p = pos("4k3/8/8/8/4p3/3P4/8/K7 w - - 0 1");
    assert_eq!(targets(&p, "d3"), ["d4", "e4"], "diagonal capture");
    // A black bia passing next to a white one gives no en-passant capture.
    let mut p = pos("4k3/8/3p4/4P3/8/8/8/K7 b - - 0 1");
    play(&mut p, "d6d5");
    assert_eq!(targets(&p, "e5"), ["e6m"].map(|_| "e6".to_string()));
}

#[test]
fn bia_promotes_on_the_sixth_rank_by_move_and_by_capture() {
    let mut p = pos("4k3/8/8/4P3/8/8/8/K7 w - - 0 1");
    let m = p.parse_uci("e5e6m").unwrap();
    assert!(m.is_promotion());
    assert_eq!(p.san(m), "e6=M");
    p.play_unchecked(m);
    assert_eq!(p.piece_at(sq("e6")).unwrap().role, Role::Met);
    assert!(p.promoted().contains(sq("e6")));
    // Black promotes on the third rank, here by capturing.
    let mut p = pos("4k3/8/8/8/4p3/3N4/8/K7 b - - 0 1");
    let m = p.parse_uci("e4d3").unwrap();
    assert!(m.is_promotion());
    assert_eq!(m.to_uci(), "e4d3m");
    p.play_unchecked(m);
    assert_eq!(p.piece_at(sq("d3")).unwrap().role, Role::Met);
}

#[test]
fn promoted_bia_moves_as_a_met_and_fen_accepts_the_mark() {
    let p = pos("4k3/8/8/8/3M~4/8/8/K7 w - - 0 1");
    assert!(p.promoted().contains(sq("d4")));
    assert_eq!(targets(&p, "d4"), ["c3", "c5", "e3", "e5"]);
    assert_eq!(
        p.fen(),
        "4k3/8/8/8/3M4/8/8/K7 w - - 0 1",
        "written without the mark, as Fairy-Stockfish does"
    );
}

#[test]
fn promoted_marks_are_kept_and_written_on_request() {
    for fen in [
        "4k3/8/2m~5/8/3M~4/8/8/K3M3 w - - 0 1",
        "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 0 33",
    ] {
        let p = Position::from_fen(Variant::Cambodian, fen).unwrap();
        assert_eq!(p.fen_with_marks(true), fen, "a marked FEN round-trips");
        assert_eq!(p.fen_with_marks(false), fen.replace('~', ""));
    }
    // The mark follows the piece and is made by a promotion.
    let mut p = pos("4k3/8/8/2P5/3M~4/8/8/K7 w - - 0 1");
    play(&mut p, "d4e5");
    play(&mut p, "e8e7");
    play(&mut p, "c5c6m");
    assert_eq!(
        p.fen_with_marks(true),
        "8/4k3/2M~5/4M~3/8/8/8/K7 b - 128 8 2"
    );
    // A captured promoted met leaves no mark behind.
    let mut p = pos("4k3/8/8/8/3M~4/8/4n3/K7 b - - 0 1");
    play(&mut p, "e2d4");
    assert_eq!(p.promoted(), makruk::Bitboard::EMPTY);
}

#[test]
fn checkmate_wins_and_stalemate_draws() {
    let p = pos("R3k3/8/4K3/8/8/8/8/8 b - - 0 1");
    assert_eq!(p.state(), State::Checkmate);
    assert_eq!(p.winner(), Some(Color::White));
    let p = pos("k7/2K5/1M6/8/8/8/8/8 b - - 0 1");
    assert_eq!(p.state(), State::Stalemate);
    assert_eq!(p.winner(), None);
}

#[test]
fn no_repetition_and_no_fifty_move_rule() {
    let mut p = pos("4km2/8/8/8/8/8/8/R2K4 w - - 0 1");
    p.set_counting_mode(CountingMode::Declared);
    for _ in 0..60 {
        for m in ["d1c1", "e8d8", "c1d1", "d8e8"] {
            play(&mut p, m);
        }
    }
    assert_eq!(p.halfmoves(), 240);
    assert_eq!(p.state(), State::Ongoing);
}

#[test]
fn two_bare_kings_are_drawn_at_once() {
    let mut p = pos("4k3/8/8/8/8/8/3r4/3K4 w - - 0 1");
    play(&mut p, "d1d2");
    assert_eq!(p.state(), State::InsufficientMaterial);
}

// --- Counting rules ---

#[test]
fn counting_limits_table() {
    let cases = [
        ("4k3/8/8/8/8/8/8/RR1K4 b - - 0 1", 8),
        ("4k3/8/8/8/8/8/8/R2KN3 b - - 0 1", 16),
        ("4k3/8/8/8/8/8/8/SS1KN3 b - - 0 1", 22),
        ("4k3/8/8/8/8/8/8/NN1KS3 b - - 0 1", 32),
        ("4k3/8/8/8/8/8/8/S2KM3 b - - 0 1", 44),
        ("4k3/8/8/8/8/8/8/3KMM2 b - - 0 1", 64),
    ];
    for (fen, limit) in cases {
        assert_eq!(pos(fen).counting_limit_for(Color::Black), limit, "{fen}");
    }
    // Board's honour: the side has more than its khun.
    assert_eq!(
        pos("3mk3/8/8/8/8/8/8/RR1K4 b - - 0 1").counting_limit_for(Color::Black),
        64
    );
    // No count while an unpromoted bia is on the board, or against a bare khun.
    assert_eq!(
        pos("4k3/8/8/8/8/4P3/8/RR1K4 b - - 0 1").counting_limit_for(Color::Black),
        0
    );
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/RR1K4 b - - 0 1").counting_limit_for(Color::White),
        0
    );
    // The count promoting the last bia would start: the bia counts as a met.
    for (fen, limit) in [
        ("4k3/8/8/8/8/4P3/8/R2K4 b - - 0 1", 16),
        ("4k3/8/8/1P6/8/3N4/8/3K4 w - - 0 1", 64),
        ("4k3/8/8/PP6/8/8/8/S2K4 w - - 0 1", 44),
    ] {
        assert_eq!(
            pos(fen).pieces_honour_limit_against(Color::White),
            limit,
            "{fen}"
        );
        // Not for the bare khun, and not while the weaker side has more.
        assert_eq!(
            pos(fen).pieces_honour_limit_against(Color::Black),
            0,
            "{fen}"
        );
    }
    assert_eq!(
        pos("4k3/8/4p3/1P6/8/3N4/8/3K4 w - - 0 1").pieces_honour_limit_against(Color::White),
        0
    );
}

#[test]
fn pieces_honour_two_rueas_and_a_ma_mate_within_three_moves() {
    // RULES.md: two ruea + one ma against a bare khun, 5 pieces: 8 - 5 = 3 moves.
    let mut p = pos("4k3/8/8/8/m7/8/R7/R2K2N1 w - - 0 1");
    play(&mut p, "a2a4");
    assert_eq!(p.fen(), "4k3/8/8/8/R7/8/8/R2K2N1 b - 16 10 1");
    let count = p.counting().unwrap();
    assert_eq!(
        (count.limit, count.ply, count.kind),
        (16, 10, CountKind::PiecesHonour)
    );
    assert_eq!(count.counter, Some(Color::Black));
    for (i, m) in ["e8f8", "d1c1", "f8e8", "c1d1", "e8f8", "d1c1"]
        .iter()
        .enumerate()
    {
        play(&mut p, m);
        assert_eq!(p.state(), State::Ongoing, "ply {}", i + 11);
    }
    assert_eq!(p.counting().unwrap().ply, 16);
    play(&mut p, "f8e8");
    assert_eq!(p.counting().unwrap().ply, 17);
    assert_eq!(p.state(), State::CountingDraw);
}

#[test]
fn pieces_honour_starts_when_the_last_bia_promotes() {
    // Khon, two mets and a bia against a bare khun, 6 pieces: 44 - 6 = 38 moves.
    let mut p = pos("4k3/8/8/4P3/8/8/2M1M3/3KS3 w - - 0 1");
    assert_eq!(p.counting(), None);
    play(&mut p, "e5e6m");
    assert_eq!(p.fen(), "4k3/8/4M3/8/8/8/2M1M3/3KS3 b - 88 12 1");
    assert_eq!(88 - 12, 2 * 38);
}

#[test]
fn bare_khun_capturing_the_last_bia_starts_its_own_count() {
    let mut p = pos("8/8/8/4k3/3P4/8/8/R3K3 b - - 0 1");
    play(&mut p, "e5d4");
    assert_eq!(p.fen(), "8/8/8/8/3k4/8/8/R3K3 w - 32 5 2");
}

#[test]
fn boards_honour_starts_when_the_last_bia_goes_and_counts_from_zero() {
    let mut p = pos("4k3/8/8/2m5/8/2M5/3R4/3K4 w - - 0 30");
    assert_eq!(p.counting(), None);
    let mut q = pos("4k3/8/4p3/8/2M5/8/3R4/3K4 w - - 0 1");
    play(&mut q, "c4d5");
    play(&mut q, "e6d5");
    // The last bia is gone but promotion/capture made no bare khun: White,
    // to move, has more than its khun: board's honour, 64 moves from 0.
    assert_eq!(q.fen(), "4k3/8/8/3p4/8/8/3R4/3K4 w - - 0 2");
    play(&mut p, "c3b4");
    assert_eq!(p.counting().unwrap().kind, CountKind::BoardsHonour);
    assert_eq!(p.fen(), "4k3/8/8/2m5/1M6/8/3R4/3K4 b - 128 0 30");
}

#[test]
fn a_new_pieces_honour_count_replaces_a_boards_honour_count() {
    let mut p = pos("4k3/8/8/2m5/1M6/8/3R4/3K4 w - 128 20 30");
    play(&mut p, "b4c5");
    assert_eq!(p.fen(), "4k3/8/8/2M5/8/8/3R4/3K4 b - 32 8 30");
}

#[test]
fn a_capture_by_the_bare_khun_does_not_restart_the_count() {
    let mut p = pos("k7/1R6/8/8/8/8/8/R2K4 b - 16 10 30");
    play(&mut p, "a8b7");
    assert_eq!(p.fen(), "8/1k6/8/8/8/8/8/R2K4 w - 16 11 31");
}

#[test]
fn count_expires_past_the_limit_unless_mated() {
    let mut p = pos("4k3/8/8/8/8/8/3R4/3K4 w - 32 31 30");
    play(&mut p, "d2d3");
    assert_eq!(p.state(), State::Ongoing, "ply 32 of 32");
    play(&mut p, "e8f8");
    assert_eq!(p.state(), State::CountingDraw, "ply 33 of 32");
    // Mate on the move that passes the limit still wins.
    let p = pos("R3k3/8/4K3/8/8/8/8/8 b - 16 17 40");
    assert!(p.counting_expired());
    assert_eq!(p.state(), State::Checkmate);
}

#[test]
fn replaying_goes_on_after_an_expired_count() {
    let mut p = pos("4k3/8/8/8/8/8/3R4/3K4 b - 32 40 30");
    assert_eq!(p.state(), State::CountingDraw);
    assert!(p.has_legal_move());
    play(&mut p, "e8f8");
    assert_eq!(p.counting().unwrap().ply, 41);
}

#[test]
fn declared_boards_honour_count_start_and_stop() {
    let mut game = Game::new_declared(Variant::Makruk);
    // Not while bias are on the board.
    assert_eq!(
        game.start_board_count(Color::Black),
        Err(GameError::Counting(CountingError::PawnsLeft))
    );
    let mut p = pos("4k3/8/8/2m5/8/2M5/3R4/3K4 w - - 0 30");
    p.set_counting_mode(CountingMode::Declared);
    play(&mut p, "c3b4");
    assert_eq!(
        p.counting(),
        None,
        "declared mode: no automatic board's honour"
    );
    assert_eq!(
        p.fen(),
        "4k3/8/8/2m5/1M6/8/3R4/3K4 b - 128 0 30",
        "written at ply 0, as pychess's count_started -1"
    );
    assert!(p.may_start_board_count(Color::White));
    p.start_board_count(Color::White).unwrap();
    let c = p.counting().unwrap();
    assert_eq!(
        (c.limit, c.ply, c.kind, c.counter),
        (128, 0, CountKind::BoardsHonour, Some(Color::White))
    );
    assert_eq!(
        p.start_board_count(Color::White),
        Err(CountingError::AlreadyCounting)
    );
    play(&mut p, "e8e7");
    assert_eq!(p.counting().unwrap().ply, 1);
    assert_eq!(
        p.stop_board_count(Color::Black),
        Err(CountingError::NotYourCount)
    );
    p.stop_board_count(Color::White).unwrap();
    assert_eq!(p.counting(), None);
    assert_eq!(
        p.stop_board_count(Color::White),
        Err(CountingError::NotCounting)
    );
    // Automatic positions refuse declarations.
    let mut auto = pos("4k3/8/8/2m5/8/2M5/3R4/3K4 w - - 0 30");
    assert_eq!(
        auto.start_board_count(Color::White),
        Err(CountingError::AutomaticMode)
    );
    // Pieces' honour still starts by itself in declared mode.
    let mut p = pos("4k3/8/8/8/m7/8/R7/R2K2N1 w - - 0 1");
    p.set_counting_mode(CountingMode::Declared);
    play(&mut p, "a2a4");
    assert_eq!(p.counting().unwrap().kind, CountKind::PiecesHonour);
}

// --- Games ---

#[test]
fn game_records_agreement_resignation_and_rule_endings() {
    let mut g = Game::new(Variant::Makruk);
    g.play_san("e4").unwrap();
    g.agree_draw().unwrap();
    assert_eq!(g.outcome().unwrap().result(), "1/2-1/2");
    assert!(matches!(g.play_uci("e6e5"), Err(GameError::GameOver(_))));

    let mut g = Game::new(Variant::Makruk);
    g.resign(Color::White).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), EndReason::Resignation)
    );

    let mut g = Game::from_position(pos("4k3/R7/4K3/8/8/8/8/8 w - - 0 1"));
    g.play_san("Ra8#").unwrap();
    assert_eq!(g.outcome().unwrap().reason, EndReason::Checkmate);
    assert_eq!(g.outcome().unwrap().winner, Some(Color::White));

    let mut g = Game::from_position(pos("4k3/8/8/8/8/8/8/R2K4 w - - 0 1"));
    g.time_out(Color::Black).unwrap();
    assert_eq!(g.outcome().unwrap().reason, EndReason::Timeout);
    let mut g = Game::from_position(pos("4k3/8/8/8/8/8/8/R2K4 w - - 0 1"));
    g.time_out(Color::White).unwrap();
    assert_eq!(
        g.outcome().unwrap().reason,
        EndReason::TimeoutDraw,
        "a bare khun cannot win on time"
    );
}
