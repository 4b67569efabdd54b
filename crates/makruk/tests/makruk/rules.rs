//! One test (at least) per rule of RULES.md section 1, Makruk and Ouk Chatrang.

use makruk::{
    Color, CountKind, CountingError, CountingMode, EndReason, FenError, Game, GameError, Letters,
    Position, Role, SanError, SetupError, Square, State, Variant,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::Makruk, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn camb(fen: &str) -> Position {
    Position::from_fen(Variant::Cambodian, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

/// The destinations of the piece on `from`, sorted.
fn targets(p: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == sq(from))
        .map(|m| m.to().to_string())
        .collect();
    v.sort();
    v
}

fn play(p: &mut Position, uci: &str) {
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

// --- Ouk Chatrang ---

#[test]
fn cambodian_start_and_special_first_moves() {
    let p = Position::new(Variant::Cambodian);
    assert_eq!(
        p.fen(),
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"
    );
    assert_eq!(
        targets(&p, "d1"),
        ["b2", "c2", "d2", "e2", "f2"],
        "khun leaps to b2/f2"
    );
    let p = camb("4k3/8/8/8/8/8/8/3KM3 w DE - 0 1");
    assert_eq!(
        targets(&p, "e1"),
        ["d2", "e3", "f2"],
        "met steps two squares"
    );
    // The same position in Makruk has no such moves.
    assert_eq!(
        targets(&pos("4k3/8/8/8/8/8/8/3KM3 w - - 0 1"), "e1"),
        ["d2", "f2"]
    );
}

#[test]
fn cambodian_special_moves_never_capture() {
    let p = camb("4k3/8/8/8/8/4s3/1s6/3KM3 w DE - 0 1");
    assert!(!targets(&p, "d1").contains(&"b2".to_string()));
    assert!(!targets(&p, "e1").contains(&"e3".to_string()));
}

#[test]
fn cambodian_rights_lost_after_moving_or_when_a_ruea_aims_at_the_khun() {
    let mut p = Position::new(Variant::Cambodian);
    play(&mut p, "e1d2");
    assert_eq!(p.fen().split(' ').nth(2), Some("Dde"));
    // A ruea arriving on the khun's rank takes the right away, checking or not.
    let mut p = camb("4k3/8/8/8/8/1N6/r7/3K4 b D - 0 1");
    play(&mut p, "a2a1");
    assert!(p.is_check());
    assert!(
        !targets(&p, "d1").contains(&"f2".to_string()),
        "no leap out of check"
    );
    assert_eq!(p.special_rights(), makruk::Bitboard::EMPTY);
    play(&mut p, "b3a1");
    play(&mut p, "e8e7");
    assert_eq!(
        targets(&p, "d1"),
        ["c1", "c2", "d2", "e1", "e2"],
        "no leap once a ruea aimed at the khun"
    );
    // Aimed through pieces: the right goes although nothing checks.
    let mut p = camb("4k3/8/4p3/8/8/8/8/R6K w e - 0 1");
    play(&mut p, "a1e1");
    assert_eq!(p.fen(), "4k3/8/4p3/8/8/8/8/4R2K b - 126 0 1");
    // A ruea already on the khun's file that moves along it aims again.
    let mut p = camb("4k3/8/4N3/8/8/8/4R3/7K w e - 0 1");
    play(&mut p, "e2e3");
    assert_eq!(p.special_rights(), makruk::Bitboard::EMPTY);
    // A ruea aimed at the met keeps the met's right.
    let mut p = camb("3mk3/8/8/8/8/8/R7/7K w de - 0 1");
    play(&mut p, "a2d2");
    assert_eq!(p.fen().split(' ').nth(2), Some("de"));
    // After the khun moves, it never leaps again.
    let mut p = Position::new(Variant::Cambodian);
    for m in ["d1d2", "e8e7", "d2d1", "e7e8"] {
        play(&mut p, m);
    }
    assert_eq!(targets(&p, "d1"), ["c2", "d2", "e2"]);
}

#[test]
fn cambodian_a_check_by_another_piece_forbids_the_leap_but_keeps_the_right() {
    // A discovered check by a ruea that did not move, then the check ends.
    let mut p = camb("4k3/8/4N3/8/8/4R3/8/7K w e - 0 1");
    play(&mut p, "e6c5");
    assert!(p.is_check());
    assert_eq!(p.fen(), "4k3/8/8/2N5/8/4R3/8/7K b e 30 8 1");
    assert!(!targets(&p, "e8").contains(&"c7".to_string()));
    // A ma's check: no leap while it lasts, the right outlives it.
    let mut p = camb("4k3/8/8/1N6/8/8/3r4/7K w e - 0 1");
    play(&mut p, "b5d6");
    assert!(p.is_check());
    assert!(!targets(&p, "e8").contains(&"g7".to_string()));
    play(&mut p, "d2d6");
    play(&mut p, "h1g1");
    assert_eq!(p.fen(), "4k3/8/3r4/8/8/8/8/6K1 b e 30 7 2");
    assert!(targets(&p, "e8").contains(&"g7".to_string()));
}

#[test]
fn cambodian_met_steps_two_squares_even_past_a_piece() {
    let p = camb("4k3/8/8/8/8/8/4N3/3KM3 w DE - 0 1");
    assert!(targets(&p, "e1").contains(&"e3".to_string()));
    let p = camb("4k3/8/8/8/8/4s3/4N3/3KM3 w DE - 0 1");
    assert!(
        !targets(&p, "e1").contains(&"e3".to_string()),
        "never captures"
    );
}

// --- Ouk Chatrang counting ---

#[test]
fn cambodian_counting_limits_table() {
    let cases = [
        ("4k3/8/8/8/8/8/8/RR1K4 b - - 0 1", 7),
        ("4k3/8/8/8/8/8/8/R2KN3 b - - 0 1", 15),
        ("4k3/8/8/8/8/8/8/SS1KN3 b - - 0 1", 21),
        ("4k3/8/8/8/8/8/8/NN1KS3 b - - 0 1", 31),
        ("4k3/8/8/8/8/8/8/S2KM3 b - - 0 1", 43),
        ("4k3/8/8/8/8/8/8/3KMM2 b - - 0 1", 63),
    ];
    for (fen, limit) in cases {
        assert_eq!(camb(fen).counting_limit_for(Color::Black), limit, "{fen}");
    }
}

#[test]
fn cambodian_boards_honour_with_at_most_three_pieces_bias_or_not() {
    let limit = |fen: &str| camb(fen).counting_limit_for(Color::Black);
    assert_eq!(limit("3mk3/8/8/8/8/8/8/RR1K4 b - - 0 1"), 63);
    assert_eq!(limit("3mk1n1/8/8/8/8/8/8/RR1K4 b - - 0 1"), 63);
    assert_eq!(
        limit("3mk1n1/8/8/8/4P3/8/8/RR1K4 b - - 0 1"),
        63,
        "bias allowed"
    );
    assert_eq!(
        limit("2smk1n1/8/8/8/8/8/8/RR1K4 b - - 0 1"),
        0,
        "four pieces"
    );
    assert_eq!(
        limit("4k3/8/8/8/4P3/8/8/RR1K4 b - - 0 1"),
        0,
        "a bare khun has no pieces' honour while a bia is left"
    );
    let mut p = camb("4k3/8/4p3/8/8/8/8/R6K b e - 0 1");
    play(&mut p, "e8e7");
    assert_eq!(p.fen(), "8/4k3/4p3/8/8/8/8/R6K w - 126 0 2");
}

#[test]
fn cambodian_promotion_starts_pieces_honour_with_its_own_limit() {
    // RULES.md's example: 86 in Ouk Chatrang where Makruk gives 88.
    let mut p = camb("8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1");
    play(&mut p, "g5g6m");
    assert_eq!(p.fen(), "8/3k4/6M1/2K1S3/8/8/8/8 b - 86 8 1");
    let mut p = pos("8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1");
    play(&mut p, "g5g6m");
    assert_eq!(p.fen(), "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1");
}

#[test]
fn cambodian_fen_counting_fields_use_its_limits() {
    let p = camb("3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 0 33");
    assert_eq!(p.counting().map(|c| c.limit), Some(126));
    assert_eq!(
        Position::from_fen(Variant::Cambodian, "4k3/8/8/8/8/8/8/R2K4 w - 128 4 1"),
        Err(FenError::Invalid(SetupError::BadCountingLimit {
            variant: Variant::Cambodian,
            limit: 128
        }))
    );
    let err =
        Position::from_fen(Variant::Cambodian, "4k3/8/8/8/4P3/8/8/R2K4 w - 30 4 1").unwrap_err();
    assert_eq!(
        err,
        FenError::Invalid(SetupError::CountingWithPawns {
            variant: Variant::Cambodian,
            limit: 30
        })
    );
    assert!(err.to_string().contains("'30'"), "{err}");
    assert!(
        camb("4k3/8/8/8/4P3/8/8/R2K4 w - 126 4 1")
            .counting()
            .is_some()
    );
}

// --- Notation ---

#[test]
fn uci_form_and_errors() {
    let p = pos("4k3/8/8/2P5/8/8/8/K7 w - - 0 1");
    assert_eq!(p.parse_uci("c5c6m").unwrap().to_uci(), "c5c6m");
    assert_eq!(
        p.parse_uci("c5c6").unwrap().to_uci(),
        "c5c6m",
        "suffix may be omitted"
    );
    assert!(matches!(
        p.parse_uci("c5c7"),
        Err(makruk::MoveError::Illegal(_))
    ));
    assert!(matches!(
        p.parse_uci("a1a2x"),
        Err(makruk::MoveError::Syntax(_))
    ));
    assert!(matches!(
        p.parse_uci("zz"),
        Err(makruk::MoveError::Syntax(_))
    ));
    assert!(matches!(
        p.parse_uci("a1a2m"),
        Err(makruk::MoveError::Illegal(_))
    ));
}

#[test]
fn san_writing_in_both_letter_sets() {
    let p = pos("4k3/8/8/2P5/3p4/4S3/4M3/K7 w - - 0 1");
    let san = |uci: &str, l| p.san_with(p.parse_uci(uci).unwrap(), l);
    assert_eq!(san("e2f1", Letters::Fsf), "Mf1");
    assert_eq!(san("e3d4", Letters::Fsf), "Sxd4");
    assert_eq!(san("c5c6m", Letters::Fsf), "c6=M");
    assert_eq!(san("e2f1", Letters::SchemingMind), "Qf1");
    assert_eq!(san("e3d4", Letters::SchemingMind), "Bxd4");
    assert_eq!(san("c5c6m", Letters::SchemingMind), "c6");
}

#[test]
fn san_reading_accepts_every_convention() {
    let p = pos("4k3/8/8/2P5/3p4/4S3/4M3/K7 w - - 0 1");
    let read = |s: &str| {
        p.parse_san(s)
            .unwrap_or_else(|e| panic!("{s}: {e}"))
            .to_uci()
    };
    assert_eq!(read("Mf1"), "e2f1");
    assert_eq!(read("Qf1"), "e2f1");
    assert_eq!(read("Sxd4"), "e3d4");
    assert_eq!(read("Bxd4"), "e3d4");
    assert_eq!(read("Bd4"), "e3d4");
    for promo in ["c6", "c6=M", "c6=Q", "c6=P", "c6M", "c6=M+", "c6!?"] {
        assert_eq!(read(promo), "c5c6m", "{promo}");
    }
    assert_eq!(read("Se3xd4!"), "e3d4");
    assert_eq!(read("e3d4"), "e3d4", "UCI-like long algebraic");
    let full = p.parse_san_full("Qf1?=").unwrap();
    assert!(full.draw_offer);
    assert_eq!(full.annotation, "?");
    // PlayOK: P for the moves of a promoted bia.
    let q = pos("4k3/8/8/4p3/3M~4/8/8/K7 w - - 0 1");
    assert_eq!(q.parse_san("Pxe5").unwrap().to_uci(), "d4e5");
    assert_eq!(q.parse_san("Mxe5").unwrap().to_uci(), "d4e5");
}

#[test]
fn san_errors_name_the_move_and_the_candidates() {
    let p = pos("4k3/8/8/8/8/8/8/N1K1N3 w - - 0 1");
    match p.parse_san("Nc2") {
        Err(SanError::Ambiguous { text, candidates }) => {
            assert_eq!(text, "Nc2");
            assert_eq!(candidates, ["Nac2", "Nec2"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(p.parse_san("Nec2").unwrap().to_uci(), "e1c2");
    let err = p.parse_san("Rd2").unwrap_err();
    assert!(matches!(err, SanError::Illegal { .. }));
    assert!(err.to_string().contains("Rd2"));
    assert!(matches!(p.parse_san("Xd2"), Err(SanError::Syntax { .. })));
    assert!(
        matches!(p.parse_san("Nb3=M"), Err(SanError::Illegal { .. })),
        "promotion mark on a ma move"
    );
    assert!(matches!(p.parse_san(""), Err(SanError::Syntax { .. })));
}

#[test]
fn fen_reads_schemingmind_letters() {
    let p = pos("rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBKQBNR w - - 0 1");
    assert_eq!(p, Position::new(Variant::Makruk));
}

#[test]
fn fen_and_setup_errors_say_what_is_wrong() {
    let err = |fen: &str| Position::from_fen(Variant::Makruk, fen).unwrap_err();
    assert_eq!(err(""), FenError::Empty);
    assert!(matches!(err("8/8/8 w - - 0 1"), FenError::Board { .. }));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/3K3x w"),
        FenError::Board { column: 20, .. }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/3K5 w"),
        FenError::Board { .. }
    ));
    assert!(matches!(err("4k3/8/8/8/8/8/8/3K4 x"), FenError::Turn(_)));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/3K4 w - - z 1"),
        FenError::Number { field: 5, .. }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/3K4 w - - 0 1 9"),
        FenError::TooManyFields(7)
    ));
    let invalid = |fen: &str| match err(fen) {
        FenError::Invalid(e) => e,
        other => panic!("{fen}: {other:?}"),
    };
    assert_eq!(
        invalid("8/8/8/8/8/8/8/3K4 w"),
        SetupError::MissingKing(Color::Black)
    );
    assert_eq!(
        invalid("4k3/8/8/8/8/8/8/3K1K2 w"),
        SetupError::TooManyKings(Color::White, 2)
    );
    assert_eq!(
        invalid("4k3/8/8/8/8/8/4P3/3K4 w"),
        SetupError::PawnOnImpossibleRank(Color::White, sq("e2"))
    );
    assert_eq!(
        invalid("4k3/8/4P3/8/8/8/8/3K4 w"),
        SetupError::PawnOnImpossibleRank(Color::White, sq("e6"))
    );
    assert_eq!(invalid("4k3/8/8/8/8/8/8/3K3r b"), SetupError::OppositeCheck);
    assert_eq!(
        invalid("4k3/8/8/8/8/8/8/R2K4 w - 33 4 1"),
        SetupError::BadCountingLimit {
            variant: Variant::Makruk,
            limit: 33
        }
    );
    assert_eq!(
        invalid("4k3/8/8/8/8/8/8/R2K4 w - 126 4 1"),
        SetupError::BadCountingLimit {
            variant: Variant::Makruk,
            limit: 126
        },
        "126 is an Ouk Chatrang limit only"
    );
    assert_eq!(
        invalid("4k3/8/8/8/4P3/8/8/R2K4 w - 32 4 1"),
        SetupError::CountingWithPawns {
            variant: Variant::Makruk,
            limit: 32
        }
    );
    assert_eq!(
        invalid("4k3/8/8/8/8/8/8/RRRK4 w"),
        SetupError::TooMany {
            color: Color::White,
            role: Role::Rook,
            count: 3,
            max: 2
        }
    );
    assert_eq!(
        invalid("4k3/8/8/8/8/8/8/R~2K4 w"),
        SetupError::PromotedNotMet(sq("a1"))
    );
    assert_eq!(
        invalid("4k3/8/8/8/8/8/8/3KM3 w DE"),
        SetupError::SpecialRightsInMakruk {
            rights: "DE".into()
        }
    );
    assert!(
        err("4k3/8/8/8/8/8/8/3KM3 w DE")
            .to_string()
            .contains("field 3 (special first-move rights) is 'DE'")
    );
    let bad = Position::from_fen(Variant::Cambodian, "4k3/8/8/8/8/8/8/3KM3 w AE").unwrap_err();
    assert_eq!(
        bad,
        FenError::Invalid(SetupError::BadSpecialRight {
            square: sq("a1"),
            rights: "AE".into()
        })
    );
    assert!(
        bad.to_string()
            .contains("field 3 (special first-move rights) is 'AE': 'A' gives a right on a1"),
        "{bad}"
    );
    // Letters that are no file quote the field too, in Ouk Chatrang.
    let syntax = Position::from_fen(Variant::Cambodian, "4k3/8/8/8/8/8/8/3KM3 w DX").unwrap_err();
    assert_eq!(syntax, FenError::Rights("DX".into()));
    assert!(
        syntax
            .to_string()
            .contains("FEN field 3 (special first-move rights) is 'DX'"),
        "{syntax}"
    );
    // A promoted bia back on its first rank never had a met's right.
    assert_eq!(
        Position::from_fen(Variant::Cambodian, "4k3/8/8/8/8/8/8/3KM~3 w E").unwrap_err(),
        FenError::Invalid(SetupError::BadSpecialRight {
            square: sq("e1"),
            rights: "E".into()
        })
    );
    // A black right written in upper case is on White's first rank.
    assert!(
        Position::from_fen(Variant::Cambodian, "3mk3/8/8/8/8/8/8/4K3 w D")
            .unwrap_err()
            .to_string()
            .contains("'D' gives a right on d1")
    );
    // Every message names the problem.
    assert!(err("4k3/8/8/8/8/8/4P3/3K4 w").to_string().contains("e2"));
}

#[test]
fn huge_move_numbers_do_not_overflow() {
    let mut p = pos("4k3/8/8/8/8/8/8/R2K4 b - - 4294967295 4294967295");
    play(&mut p, "e8e7");
    assert_eq!(p.fullmoves(), u32::MAX);
    assert_eq!(p.halfmoves(), u32::MAX);
}
