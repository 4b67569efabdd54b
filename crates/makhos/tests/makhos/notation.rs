//! Position text and move text (RULES.md section 2, Notation).

use makhos::{
    Color, MoveParseError, Position, PositionError, PositionTextError, Role, Rules, Setup,
    SetupParseError, Square, SquareError,
};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

// ---- Square numbers ------------------------------------------------------------------------

#[test]
fn square_numbers_follow_the_thai_rulebook() {
    let names = |r: std::ops::RangeInclusive<u32>| -> Vec<String> {
        r.map(|n| Square::from_number(n).unwrap().to_string())
            .collect()
    };
    assert_eq!(names(1..=4), ["b8", "d8", "f8", "h8"]);
    assert_eq!(names(5..=8), ["a7", "c7", "e7", "g7"]);
    assert_eq!(names(29..=32), ["a1", "c1", "e1", "g1"]);
    // White starts on 25-32.
    let white: Vec<u8> = Position::start()
        .pieces(Color::White)
        .squares()
        .map(|s| s.number())
        .collect();
    assert_eq!(white, (25..=32).collect::<Vec<u8>>());
}

// ---- Position text -------------------------------------------------------------------------

#[test]
fn position_text_reads_and_writes() {
    let p = pos("W:Wa1,c1,Kd4:Bb8,Ke5");
    assert_eq!(p.turn(), Color::White);
    assert_eq!(
        p.piece_at(Square::parse("d4").unwrap()).unwrap().role,
        Role::King
    );
    assert_eq!(
        p.piece_at(Square::parse("e5").unwrap()).unwrap().color,
        Color::Black
    );
    assert_eq!(p.to_string(), "W:Wa1,c1,Kd4:BKe5,b8");
    assert_eq!(pos(&p.to_string()), p);
    // Any order of pieces and of the two fields, numbers, spaces and a final full stop.
    assert_eq!(pos("W:BKe5,b8:WKd4,c1,a1"), p);
    assert_eq!(pos(" W : W29, 30, K18 : B1,K15 ."), p);
    assert_eq!(pos("B:W:B").turn(), Color::Black);
    assert_eq!(
        Position::start().to_string(),
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8"
    );
}

#[test]
fn setup_is_unchecked_and_position_validates() {
    let setup: Setup = "W:Wc3,c3:Bb8".parse().unwrap();
    assert_eq!(setup.pieces.len(), 3);
    assert_eq!(
        Position::from_setup(&setup),
        Err(PositionError::DuplicateSquare {
            square: Square::parse("c3").unwrap()
        })
    );
    let p = pos("B:Wa1:BKh8");
    assert_eq!(Position::from_setup(&p.to_setup()), Ok(p));
}

fn text_error(text: &str) -> PositionTextError {
    match text.parse::<Position>() {
        Ok(p) => panic!("{text} accepted as {p}"),
        Err(e) => e,
    }
}

#[test]
fn invalid_position_text_is_a_typed_error_saying_what_and_where() {
    use PositionTextError::{Invalid, Syntax};
    let e = text_error("W:Wz9:Bb8");
    assert_eq!(
        e,
        Syntax(SetupParseError::BadSquare {
            color: Color::White,
            item: "z9".into(),
            reason: SquareError::NotASquare
        })
    );
    assert!(e.to_string().contains("z9"), "{e}");
    let e = text_error("W:Wc3:Ba2");
    assert_eq!(
        e,
        Syntax(SetupParseError::BadSquare {
            color: Color::Black,
            item: "a2".into(),
            reason: SquareError::LightSquare
        })
    );
    assert!(e.to_string().contains("light"), "{e}");
    assert!(matches!(
        text_error("W:W33:Bb8"),
        Syntax(SetupParseError::BadSquare {
            reason: SquareError::NumberOutOfRange,
            ..
        })
    ));
    let e = text_error("W:Wb8:Ba7");
    assert_eq!(
        e,
        Invalid(PositionError::ManOnPromotionRank {
            color: Color::White,
            square: Square::parse("b8").unwrap()
        })
    );
    assert!(e.to_string().contains("b8"), "{e}");
    assert!(matches!(
        text_error("B:Wc3:Bc1"),
        Invalid(PositionError::ManOnPromotionRank {
            color: Color::Black,
            ..
        })
    ));
    // Kings on the last rank are fine.
    pos("W:WKb8:BKc1");
    let e = text_error("W:Wc3:Bc3");
    assert_eq!(
        e,
        Invalid(PositionError::DuplicateSquare {
            square: Square::parse("c3").unwrap()
        })
    );
    assert!(e.to_string().contains("c3"), "{e}");
    let e = text_error("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3:Bb8");
    assert_eq!(
        e,
        Invalid(PositionError::TooManyPieces {
            color: Color::White,
            count: 9
        })
    );
    assert!(matches!(
        text_error("W:WKa1:Bb8,d8,f8,h8,a7,c7,e7,g7,Kb6"),
        Invalid(PositionError::TooManyPieces {
            color: Color::Black,
            count: 9
        })
    ));
    assert_eq!(
        text_error("X:Wc3:Bb8"),
        Syntax(SetupParseError::BadSide { found: "X".into() })
    );
    assert_eq!(
        text_error("W:Wc3"),
        Syntax(SetupParseError::FieldCount { found: 2 })
    );
    assert_eq!(text_error(""), Syntax(SetupParseError::Empty));
    assert_eq!(
        text_error("W:Wc3:Wb8"),
        Syntax(SetupParseError::RepeatedColor {
            color: Color::White
        })
    );
    assert_eq!(
        text_error("W:Wc3:Xb8"),
        Syntax(SetupParseError::BadPieceField {
            field: "Xb8".into()
        })
    );
    assert!(matches!(
        text_error("W:Wc3,:Bb8"),
        Syntax(SetupParseError::BadSquare { .. })
    ));
}

// ---- Move text -----------------------------------------------------------------------------

/// The rulebook's example: b2 takes c3, c5 and c7 (promoting on d8).
const MULTI: &str = "W:Wb2:Bc3,c5,c7";

#[test]
fn every_notation_of_a_multi_capture_reads_to_the_same_move() {
    let p = pos(MULTI);
    let legal = p.legal_moves(Rules::Default);
    assert_eq!(legal.len(), 1);
    let m = legal[0];
    assert_eq!(m.to_algebraic(), "b2xd4xb6xd8");
    assert_eq!(m.to_engine(), "b2d4b6d8");
    assert_eq!(m.to_numeric(), "25x18x9x2");
    assert_eq!(m.to_numeric_short(&p, Rules::Default), "25x2");
    assert_eq!(m.to_algebraic_short(&p, Rules::Default), "b2xd8");
    assert_eq!(m.to_string(), "b2xd4xb6xd8");
    for text in [
        "b2xd4xb6xd8",
        "b2d4b6d8",
        "25x18x9x2",
        "25-18-9-2",
        "25x2",
        "b2xd8",
        "b2xb6xd8",
        "25x9x2",
        "B2XD4XB6XD8",
        "25x18x9x2!",
        "b2:d8",
    ] {
        assert_eq!(p.parse_move(Rules::Default, text), Ok(m), "{text}");
    }
}

#[test]
fn plain_moves_in_every_notation() {
    let p = Position::start();
    let m = p.parse_move(Rules::Default, "b2-c3").unwrap();
    assert_eq!(m.to_engine(), "b2c3");
    assert_eq!(m.to_numeric(), "25-22");
    assert_eq!(m.to_numeric_short(&p, Rules::Default), "25-22");
    for text in ["b2c3", "25-22", "b2-c3", " b2-c3 "] {
        assert_eq!(p.parse_move(Rules::Default, text), Ok(m), "{text}");
    }
    // `x` marks a capture: a plain move written with `x` is not that move.
    assert!(matches!(
        p.parse_move(Rules::Default, "b2xc3"),
        Err(MoveParseError::Illegal { .. })
    ));
}

#[test]
fn pdn_numbers_25x18_and_25x11() {
    let p = pos("W:Wb2:Bc3,e5,h8");
    let m = p.parse_move(Rules::Default, "25x11").unwrap();
    assert_eq!(m.to_algebraic(), "b2xd4xf6");
    assert_eq!(p.parse_move(Rules::Default, "25x18x11"), Ok(m));
    let p = pos("W:Wb2:Bc3,h8");
    assert_eq!(
        p.parse_move(Rules::Default, "25x18")
            .unwrap()
            .to_algebraic(),
        "b2xd4"
    );
    // PDN's `-` between capture squares.
    assert_eq!(
        p.parse_move(Rules::Default, "25-18")
            .unwrap()
            .to_algebraic(),
        "b2xd4"
    );
}

#[test]
fn ambiguous_capture_is_an_error_listing_the_candidates() {
    // c1 reaches c5 by two routes that take different pieces.
    let p = pos("W:Wc1:Bb2,d2,b4,d4");
    let mut legal: Vec<String> = p
        .legal_moves(Rules::Default)
        .iter()
        .map(|m| m.to_algebraic())
        .collect();
    legal.sort();
    assert_eq!(legal, ["c1xa3xc5", "c1xe3xc5"]);
    for text in ["c1xc5", "30x14", "c1c5"] {
        match p.parse_move(Rules::Default, text) {
            Err(MoveParseError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates, ["c1xa3xc5", "c1xe3xc5"], "{text}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    let e = p
        .parse_move(Rules::Default, "c1xc5")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("ambiguous") && e.contains("c1xa3xc5") && e.contains("c1xe3xc5"),
        "{e}"
    );
    // The full path, or a distinguishing middle square, settles it.
    assert_eq!(
        p.parse_move(Rules::Default, "c1xa3xc5")
            .unwrap()
            .to_algebraic(),
        "c1xa3xc5"
    );
    assert_eq!(
        p.parse_move(Rules::Default, "30x21x14")
            .unwrap()
            .to_algebraic(),
        "c1xa3xc5"
    );
    let m = p.parse_move(Rules::Default, "c1e3c5").unwrap();
    assert_eq!(m.to_algebraic(), "c1xe3xc5");
    // Writing the short form falls back to the full path when ambiguous.
    assert_eq!(m.to_numeric_short(&p, Rules::Default), "30x23x14");
}

#[test]
fn illegal_move_is_an_error_naming_it() {
    let p = pos("W:Wc3,g3:Bd4");
    for text in ["g3-h4", "c3-a5", "c3xe5xc7", "a1-b2", "c3-b4"] {
        match p.parse_move(Rules::Default, text) {
            Err(MoveParseError::Illegal { text: t }) => assert_eq!(t, text),
            other => panic!("{text}: {other:?}"),
        }
    }
    let e = p
        .parse_move(Rules::Default, "g3-h4")
        .unwrap_err()
        .to_string();
    assert!(e.contains("illegal") && e.contains("g3-h4"), "{e}");
}

#[test]
fn malformed_move_text_is_a_syntax_error() {
    let p = Position::start();
    for text in [
        "", "  ", "b2", "b2-", "-b2", "b2--c3", "2521", "25c3", "a2-b3", "b2-c3-", "z9-c3",
        "b2=c3", "33-29", "b2 c3", "é2-c3", "25x",
    ] {
        let r = p.parse_move(Rules::Default, text);
        assert!(
            matches!(
                r,
                Err(MoveParseError::Syntax { .. }) | Err(MoveParseError::Empty)
            ),
            "{text}: {r:?}"
        );
    }
    let e = p
        .parse_move(Rules::Default, "a2-b3")
        .unwrap_err()
        .to_string();
    assert!(e.contains("a2") && e.contains("light"), "{e}");
}

#[test]
fn rules_names_parse_and_display() {
    assert_eq!("default".parse::<Rules>(), Ok(Rules::Default));
    assert_eq!("no-reverse".parse::<Rules>(), Ok(Rules::NoReverse));
    assert_eq!(Rules::NoReverse.to_string(), "no-reverse");
    assert!(
        "turkish"
            .parse::<Rules>()
            .unwrap_err()
            .to_string()
            .contains("turkish")
    );
}
