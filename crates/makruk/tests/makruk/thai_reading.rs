//! Reading Thai notation: Fairy-Stockfish's two forms, the project's
//! earlier form, and text that is no move (a typed error naming the
//! character where reading stopped, never a panic).

use makruk::{Notation, ParseThaiError, Position, ThaiError, ThaiMove, Variant};
use proptest::prelude::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::Makruk, fen).unwrap()
}

fn uci_of(p: &Position, text: &str) -> String {
    p.parse_thai(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .to_uci()
}

#[test]
fn the_issue_examples_are_written_as_fairy_stockfish_writes_them() {
    let start = Position::new(Variant::Makruk);
    let e4 = start.parse_uci("e3e4").unwrap();
    assert_eq!(start.thai_san(e4), "จ๔");
    assert_eq!(start.thai_lan(e4), "บ จ๓-จ๔");
    let nd2 = start.parse_uci("b1d2").unwrap();
    assert_eq!(start.thai_san(nd2), "ม-ง๒");
    let ma = pos("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert_eq!(ma.thai_lan(ma.parse_uci("b1c3").unwrap()), "ม ข๑-ค๓");
    let black = pos("rnsm1s1r/4n1k1/1ppppppp/p7/2PPP3/PP3PPP/4N2R/RNSKMS2 b - - 1 5");
    let sf7 = black.parse_uci("f8f7").unwrap();
    assert_eq!(black.thai_san(sf7), "ค-ฉ๗");
    assert_eq!(black.thai_lan(sf7), "ค ฉ๘-ฉ๗");
    let khons = pos("4k3/8/8/4S3/8/2S5/8/4K3 w - - 0 1");
    assert_eq!(khons.thai_san(khons.parse_uci("e5d4").unwrap()), "คจ-ง๔");
    let promoted = pos("4k3/8/8/8/4M~3/8/8/4K3 w - - 0 1");
    assert_eq!(
        promoted.thai_san(promoted.parse_uci("e4d5").unwrap()),
        "ง-ง๕"
    );
    let capture = pos("r1smksnr/3n4/pppp1ppp/4p3/4PP2/PPPP2PP/8/RNSKMSNR w - - 0 1");
    let fxe5 = capture.parse_uci("f4e5").unwrap();
    assert_eq!(capture.thai_san(fxe5), "ฉxจ๕");
    assert_eq!(capture.thai_lan(fxe5), "บ ฉ๔xจ๕");
    let mate = pos("k7/8/1K6/8/8/8/8/7R w - - 0 1");
    assert_eq!(mate.thai_san(mate.parse_uci("h1h8").unwrap()), "ร-ญ๘#");
    let promotion = pos("3rk3/8/1p6/2P5/8/8/8/4K3 w - - 0 1");
    let m = promotion.parse_uci("c5b6m").unwrap();
    assert_eq!(promotion.write_move(m, Notation::ThaiSan), "คxข๖=M");
    assert_eq!(promotion.write_move(m, Notation::ThaiLan), "บ ค๕xข๖=M");
}

#[test]
fn both_fairy_stockfish_forms_are_read() {
    let start = Position::new(Variant::Makruk);
    assert_eq!(uci_of(&start, "จ๔"), "e3e4");
    assert_eq!(uci_of(&start, "บ จ๓-จ๔"), "e3e4");
    assert_eq!(uci_of(&start, "ม-ง๒"), "b1d2");
    assert_eq!(uci_of(&start, "ม ข๑-ง๒"), "b1d2");
    assert_eq!(uci_of(&start, "ข-ค๒"), "d1c2");
    assert_eq!(uci_of(&start, "ม็-ง๒"), "e1d2");
    let khons = pos("4k3/8/8/4S3/8/2S5/8/4K3 w - - 0 1");
    assert_eq!(uci_of(&khons, "คจ-ง๔"), "e5d4");
    assert_eq!(uci_of(&khons, "คค-ง๔"), "c3d4");
    let mets = pos("4k3/8/8/8/8/2M~1M3/8/4K3 w - - 0 1");
    assert_eq!(uci_of(&mets, "งค-ง๔"), "c3d4");
    assert_eq!(uci_of(&mets, "ม็จ-ง๔"), "e3d4");
    // The met letters alone tell the two mets apart.
    assert_eq!(uci_of(&mets, "ง-ง๔"), "c3d4");
    assert_eq!(uci_of(&mets, "ม็-ง๔"), "e3d4");
    let promotion = pos("3rk3/8/1p6/2P5/8/8/8/4K3 w - - 0 1");
    assert_eq!(uci_of(&promotion, "คxข๖=M"), "c5b6m");
    assert_eq!(uci_of(&promotion, "ค๖=M"), "c5c6m");
}

#[test]
fn the_earlier_project_form_and_its_leniencies_are_read() {
    let start = Position::new(Variant::Makruk);
    assert_eq!(uci_of(&start, "บจ๔"), "e3e4");
    assert_eq!(uci_of(&start, "มจ๒"), "g1e2");
    assert_eq!(uci_of(&start, "มขง๒"), "b1d2");
    assert_eq!(uci_of(&start, "ม้า จ๒"), "g1e2");
    assert_eq!(uci_of(&start, "เบี้ย จ๔"), "e3e4");
    assert_eq!(uci_of(&start, "จ3จ4"), "e3e4");
    assert_eq!(uci_of(&start, "จ๓จ๔"), "e3e4");
    let capture = pos("r1smksnr/3n4/pppp1ppp/4p3/4PP2/PPPP2PP/8/RNSKMSNR w - - 0 1");
    assert_eq!(uci_of(&capture, "บฉxจ๕"), "f4e5");
    assert_eq!(uci_of(&capture, "ฉ×จ๕"), "f4e5");
    let promotion = pos("3rk3/8/1p6/2P5/8/8/8/4K3 w - - 0 1");
    assert_eq!(uci_of(&promotion, "บค๖=ม็"), "c5c6m");
    // The earlier form wrote ม็ for a promoted bia too.
    let promoted = pos("4k3/8/8/8/4M~3/8/8/4K3 w - - 0 1");
    assert_eq!(uci_of(&promoted, "ม็ง๕"), "e4d5");
    assert_eq!(promoted.parse_move("ม็ง๕").unwrap().to_uci(), "e4d5");
}

#[test]
fn a_text_two_moves_share_is_ambiguous_and_lists_both_in_the_long_form() {
    // Fairy-Stockfish writes a khon's capture and a bia's from the khon's
    // letter's file alike: here the a4 khon and the c4 bia both take b5.
    let p = pos("4k3/8/8/1p6/S1P5/8/8/4K3 w - - 0 1");
    let khon = p.parse_uci("a4b5").unwrap();
    let bia = p.parse_uci("c4b5").unwrap();
    assert_eq!(p.thai_san(khon), "คxข๕");
    assert_eq!(p.thai_san(bia), "คxข๕");
    match p.parse_thai("คxข๕") {
        Err(ThaiError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates.len(), 2);
            assert!(candidates.contains(&"ค ก๔xข๕".to_string()));
            assert!(candidates.contains(&"บ ค๔xข๕".to_string()));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(p.parse_thai("ค ก๔xข๕"), Ok(khon));
    assert_eq!(p.parse_thai("บ ค๔xข๕"), Ok(bia));
}

/// A promoted bia's short form that also reads as a square (`ง๔` is d4)
/// names the promoted bia's move: the text is exactly as Fairy-Stockfish
/// writes it. Found by the proptest below.
#[test]
fn a_short_form_that_also_reads_as_a_square_names_its_own_move() {
    let p = pos("4k3/8/2M~5/8/2M~P4/8/8/4K3 w - - 0 1");
    let texts: Vec<String> = p.legal_moves().iter().map(|&m| p.thai_san(m)).collect();
    assert!(texts.iter().any(|t| t == "ง๔-ง๕"), "{texts:?}");
    for m in p.legal_moves().iter().copied() {
        assert_eq!(p.parse_thai(&p.thai_san(m)), Ok(m), "{}", p.thai_san(m));
        assert_eq!(p.parse_thai(&p.thai_lan(m)), Ok(m), "{}", p.thai_lan(m));
    }
}

#[test]
fn a_text_that_is_no_move_names_the_character_where_reading_stopped() {
    let e = ThaiMove::parse("บ จ๓-จ๙").unwrap_err();
    assert_eq!((e.at, e.found, e.expected), (6, Some('๙'), "a rank (๑–๘)"));
    assert!(e.to_string().contains("at character 7, '๙'"), "{e}");
    let e = ThaiMove::parse("ม ข๑-ค๓ ?x").unwrap_err();
    assert_eq!((e.at, e.found), (9, Some('x')));
    let e = ThaiMove::parse("ร-").unwrap_err();
    assert_eq!((e.at, e.found, e.expected), (2, None, "a file (ก–ญ)"));
    let e = ThaiMove::parse("").unwrap_err();
    assert_eq!((e.at, e.found), (0, None));
    let e = ThaiMove::parse("Nf3").unwrap_err();
    assert_eq!((e.at, e.found), (0, Some('N')));
    let start = Position::new(Variant::Makruk);
    assert_eq!(
        start.parse_thai("จ๕"),
        Err(ThaiError::Illegal {
            text: "จ๕".into()
        })
    );
    assert!(matches!(
        start.parse_thai("จ-จ๔"),
        Err(ThaiError::Parse(ParseThaiError { at: 1, .. }))
    ));
}

/// Plays random moves from the start, returning the positions reached.
fn playout(variant: Variant, choices: &[u16]) -> Vec<Position> {
    let mut p = Position::new(variant);
    let mut out = vec![p.clone()];
    for &c in choices {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.play_unchecked(moves[c as usize % moves.len()]);
        out.push(p.clone());
    }
    out
}

/// Characters Thai notation is made of, and some it is not.
fn thai_text() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "กขคงจฉชญ๑๒๓๔๕๖๗๘มรบ\u{0E47}\u{0E49}ุเโแ้าียอนด-x×:=+#!? 19MmQqNe"
        .chars()
        .collect();
    prop::collection::vec(prop::sample::select(alphabet), 0..12)
        .prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any text is read or refused with an error inside the text; never a panic.
    #[test]
    fn reading_never_panics_and_stops_inside_the_text(text in thai_text(), any in ".{0,16}") {
        let start = Position::new(Variant::Makruk);
        for t in [&text, &any] {
            match ThaiMove::parse(t) {
                Ok(read) => { let _ = read.to_move(&start); }
                Err(e) => {
                    let n = t.chars().count();
                    prop_assert!(e.at <= n);
                    prop_assert_eq!(e.found, t.chars().nth(e.at));
                }
            }
        }
    }

    /// Every legal move of random positions reads back from the long form,
    /// and from the short form unless another move is written alike (even
    /// where the short form also reads as something else, as `ง๔-ง๕`).
    #[test]
    fn written_moves_read_back(choices in prop::collection::vec(any::<u16>(), 0..120), cambodian: bool) {
        let v = if cambodian { Variant::Cambodian } else { Variant::Makruk };
        for p in playout(v, &choices).iter().step_by(10) {
            let short: Vec<String> = p.legal_moves().iter().map(|&m| p.thai_san(m)).collect();
            for (&m, s) in p.legal_moves().iter().zip(&short) {
                prop_assert_eq!(p.parse_thai(&p.thai_lan(m)), Ok(m));
                if short.iter().filter(|o| *o == s).count() == 1 {
                    prop_assert_eq!(p.parse_thai(s), Ok(m));
                }
            }
        }
    }
}
