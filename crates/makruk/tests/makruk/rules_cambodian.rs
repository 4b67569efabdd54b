//! One test (at least) per rule of RULES.md section 1: Ouk Chatrang's
//! moves and counting, and the notation of both (Makruk's pieces and
//! counting: `rules`).

use crate::rules::{camb, play, pos, sq, targets};
use makruk::{Color, FenError, Letters, Position, Role, SanError, SetupError, Variant};

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
    // Counts of other rules are read as Fairy-Stockfish reads them: a
    // limit beyond board's honour runs to board's honour (126 plies), a
    // shorter one as written, with bias on the board or not.
    let p = camb("4k3/8/8/8/8/8/8/R2K4 w - 128 4 1");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/R2K4 w - 126 4 1");
    let p = camb("4k3/8/8/8/4P3/8/8/R2K4 w - 30 4 1");
    assert_eq!(p.fen(), "4k3/8/8/8/4P3/8/8/R2K4 w - 30 4 1");
    assert!(
        camb("4k3/8/8/8/4P3/8/8/R2K4 w - 126 4 1")
            .counting()
            .is_some()
    );
}

/// The case of pyffish's own test suite: a Makruk limit in an Ouk Chatrang
/// FEN, played on to the pieces' honour count of Ouk Chatrang.
#[test]
fn cambodian_reads_makruk_counts_and_plays_on_as_fairy_stockfish() {
    let mut p = camb("8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 97 1");
    assert_eq!(p.fen(), "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 126 97 1");
    play(&mut p, "e5f6");
    assert_eq!(p.fen(), "8/2K3k1/5S2/6S1/8/8/8/8 b - 42 8 1");
    // As cutechess writes it: a Makruk pieces' honour limit, already past
    // its end (drawn unless the side to move is mated).
    let p = camb("8/2K3k1/5m2/4S1S1/8/8/8/8 b - 88 89 1");
    assert_eq!(p.fen(), "8/2K3k1/5m2/4S1S1/8/8/8/8 b - 88 89 1");
    assert!(p.counting_expired());
    // A count of no rule at all, with bias on the board: kept and counted.
    let mut p = pos("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - 1000 5 0");
    assert_eq!(
        p.fen(),
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - 1000 5 1"
    );
    play(&mut p, "a3a4");
    assert_eq!(
        p.fen(),
        "rnsmksnr/8/pppppppp/8/P7/1PPPPPPP/8/RNSKMSNR b - 1000 6 1"
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
    // Counting fields of no Makruk rule are read as written (as
    // Fairy-Stockfish reads them), bias or not.
    for fen in [
        "4k3/8/8/8/8/8/8/R2K4 w - 33 4 1",
        "4k3/8/8/8/8/8/8/R2K4 w - 126 4 1",
        "4k3/8/8/8/4P3/8/8/R2K4 w - 32 4 1",
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
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
