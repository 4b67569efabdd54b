//! The Makruk evaluation features (mobility, ruea files, khun pressure, bia
//! structure, threats) as the trace sees them, and the symmetry of the sum.

use engine::eval::makruk::terms as t;
use engine::eval::{
    MakrukWeights, Trace, evaluate_makruk, linear_white, makruk_phase, makruk_trace,
};
use makruk::{Position, Role, Variant};

fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::Makruk, fen).unwrap()
}

/// The position turned 180 degrees with the colours swapped (and the side
/// to move swapped): the same position from the other side.
fn rotated(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
    let mut cells = Vec::new();
    for rank in fields[0].split('/') {
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(n) => cells.extend(std::iter::repeat_n('.', n as usize)),
                None => cells.push(c),
            }
        }
    }
    assert_eq!(cells.len(), 64);
    cells.reverse();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let mut board = String::new();
    for (i, row) in cells.chunks(8).enumerate() {
        if i > 0 {
            board.push('/');
        }
        let mut empty = 0;
        for &c in row {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    board.push_str(&empty.to_string());
                    empty = 0;
                }
                board.push(swap(c));
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    fields[0] = board;
    fields[1] = if fields[1] == "w" { "b" } else { "w" }.into();
    fields.join(" ")
}

#[test]
fn the_evaluation_is_the_same_from_either_side() {
    for fen in [
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        "r1s1k2r/2m4n/2pppps1/pp6/P1PKP1P1/1P1P2SN/1S6/RN2M3 w - - 0 18",
        "1n3mk1/1s1r4/p1p1p3/P7/2P4S/3P4/K2N4/S2RM3 w - - 3 34",
        "1n6/1s2m1rk/p1p1p3/P6S/2P5/K2P4/5M2/SNR5 w - - 17 41",
    ] {
        let a = evaluate_makruk(&pos(fen), &MakrukWeights::DEFAULT);
        let b = evaluate_makruk(&pos(&rotated(fen)), &MakrukWeights::DEFAULT);
        assert_eq!(a, b, "{fen} / {}", rotated(fen));
    }
}

/// The net White-minus-Black count of `feature` in `fen`.
fn feature(fen: &str, feature: usize) -> i16 {
    let mut trace = Trace::default();
    makruk_trace(&pos(fen), &mut trace);
    trace.compact();
    trace
        .features
        .iter()
        .find(|(f, _)| *f as usize == feature)
        .map_or(0, |&(_, n)| n)
}

#[test]
fn ruea_files_are_seen() {
    // The a-file ruea stands behind its own bia; on the h-file (a black
    // bia on it) it is half-open; on the e-file it is open.
    assert_eq!(
        feature("4k3/8/7p/8/8/P7/8/R3K3 w - - 0 1", t::RUEA_HALF_OPEN),
        0
    );
    assert_eq!(feature("4k3/8/7p/8/8/P7/8/R3K3 w - - 0 1", t::RUEA_OPEN), 0);
    assert_eq!(
        feature("4k3/8/7p/8/8/P7/8/4K2R w - - 0 1", t::RUEA_HALF_OPEN),
        1
    );
    assert_eq!(feature("3k4/8/7p/8/8/P7/8/3KR3 w - - 0 1", t::RUEA_OPEN), 1);
    // The same for Black: counts are White minus Black.
    assert_eq!(
        feature("3kr3/8/7p/8/8/P7/8/3K4 w - - 0 1", t::RUEA_OPEN),
        -1
    );
}

#[test]
fn pieces_bearing_on_the_khun_count_as_pressure() {
    // The white ma on f5 reaches e7, next to the black khun on e8; from c4
    // it reaches nothing near the khun, and the ruea on the h-file bears on
    // no square of the khun's zone either.
    assert_eq!(
        feature("4k3/8/8/5N2/8/8/8/4K2R w - - 0 1", t::KHUN_ATTACKERS + 1),
        1
    );
    assert_eq!(
        feature("4k3/8/8/8/2N5/8/8/4K2R w - - 0 1", t::KHUN_ATTACKERS + 1),
        0
    );
    assert_eq!(
        feature("4k3/8/8/8/2N5/8/8/4K2R w - - 0 1", t::KHUN_ATTACKERS),
        0
    );
}

#[test]
fn mobility_counts_the_squares_a_piece_may_go_to() {
    // The white khon on e4 moves forward (e5, held by its own bia) and
    // diagonally (d5, f5, d3, f3): four squares.
    assert_eq!(
        feature("4k3/8/8/4P3/4S3/8/8/4K3 w - - 0 1", t::MOB_KHON + 4),
        1
    );
    // A ma on b1 reaches a3, c3 and d2, but c3 is guarded by a black bia
    // on d4 (black bias take diagonally downward): two squares.
    assert_eq!(
        feature("4k3/8/8/8/3p4/8/7R/1N2K3 w - - 0 1", t::MOB_MA + 2),
        1
    );
}

#[test]
fn bia_structure_is_seen() {
    // White bias on c4 and c5 (doubled, isolated: no bia on b or d), a
    // black bia on h6 far away; the c5 bia is passed (no black bia on b,
    // c or d ahead), so is the h6 bia for Black.
    let fen = "4k3/8/7p/2P5/2P5/8/8/4K3 w - - 0 1";
    assert_eq!(feature(fen, t::BIA_DOUBLED), 1);
    // Two isolated white bias against one isolated black bia.
    assert_eq!(feature(fen, t::BIA_ISOLATED), 1);
    // Both white bias are passed (c4 is behind c5, still no black bia in
    // front): ranks 4 and 5 (relative 3 and 4); the black h6 bia is on its
    // relative rank 2.
    assert_eq!(feature(fen, t::BIA_PASSED + 3), 1);
    assert_eq!(feature(fen, t::BIA_PASSED + 4), 1);
    assert_eq!(feature(fen, t::BIA_PASSED + 2), -1);
    // A phalanx (d4 e4) and a protected bia (e4 guards f5).
    let fen = "4k3/8/8/5P2/3PP3/8/8/4K3 w - - 0 1";
    assert_eq!(feature(fen, t::BIA_PHALANX), 2);
    assert_eq!(feature(fen, t::BIA_PROTECTED), 1);
}

#[test]
fn threats_and_hanging_pieces_are_seen() {
    // A black bia on d6 attacks the white ma on e5 (black bias take
    // diagonally downward); nothing defends the ma.
    let fen = "4k3/8/3p4/4N3/8/8/8/4K3 w - - 0 1";
    assert_eq!(feature(fen, t::THREAT_BY_BIA + 3), 1);
    assert_eq!(feature(fen, t::HANGING + 3), 1);
    // Defended by a bia on d4, the ma is no longer hanging.
    let fen = "4k3/8/3p4/4N3/3P4/8/8/4K3 w - - 0 1";
    assert_eq!(feature(fen, t::THREAT_BY_BIA + 3), 1);
    assert_eq!(feature(fen, t::HANGING + 3), 0);
}

#[test]
fn the_khun_shelter_counts_bias_in_front() {
    // The khun on d2 with bias on c3, d4 and e3 (one or two ranks ahead):
    // all three files covered.
    assert_eq!(
        feature("4k3/8/8/8/3P4/2P1P3/3K4/8 w - - 0 1", t::KHUN_SHELTER + 3),
        1
    );
    // Without the d4 bia, two; the bare black khun has none.
    assert_eq!(
        feature("4k3/8/8/8/8/2P1P3/3K4/8 w - - 0 1", t::KHUN_SHELTER + 2),
        1
    );
    assert_eq!(
        feature("4k3/8/8/8/8/2P1P3/3K4/8 w - - 0 1", t::KHUN_SHELTER),
        -1
    );
}

#[test]
fn the_evaluation_is_the_trace_weighted() {
    // The engine's sum equals the trace's features times their weights.
    let w = &MakrukWeights::DEFAULT.terms;
    for fen in [
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        "r1s1k2r/2m4n/2pppps1/pp6/P1PKP1P1/1P1P2SN/1S6/RN2M3 b - - 0 18",
    ] {
        let p = pos(fen);
        let mut trace = Trace::default();
        makruk_trace(&p, &mut trace);
        let (mut mg, mut eg) = (0i32, 0i32);
        for &(f, n) in &trace.features {
            mg += w.mg[f as usize] as i32 * n as i32;
            eg += w.eg[f as usize] as i32 * n as i32;
        }
        let ph = makruk_phase(&p);
        let blended = (mg * ph + eg * (t::PHASE_MAX - ph)) / t::PHASE_MAX;
        assert_eq!(blended, linear_white(&p, w), "{fen}");
    }
}

// The attack terms (eval/makruk/attacks.rs).

#[test]
fn a_ruea_check_counts_only_from_a_safe_square() {
    // Ra1 can check from a8, which nothing of Black's defends.
    assert_eq!(
        feature("4k3/8/8/8/8/8/8/R2K4 w - - 0 1", t::SAFE_CHECK + 3),
        1
    );
    // A black ma on b6 defends a8 (and c8): no safe ruea check.
    assert_eq!(
        feature("4k3/8/1n6/8/8/8/8/R2K4 w - - 0 1", t::SAFE_CHECK + 3),
        0
    );
    // Next to the khun a check is safe only when another piece covers it.
    assert_eq!(
        feature("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", t::SAFE_CHECK + 3),
        0
    );
    assert_eq!(
        feature("4k3/8/8/8/8/8/8/3R1K2 w - - 0 1", t::SAFE_CHECK + 3),
        1
    );
}

#[test]
fn threats_count_the_attacked_piece_by_role() {
    // Counted for the side whose piece is attacked: the white ma on e3
    // attacks the black ruea on d5.
    let fen = "4k3/8/8/3r4/8/4N3/8/3K4 w - - 0 1";
    assert_eq!(feature(fen, t::THREAT_BY_MINOR + Role::Rook.index()), -1);
    // The black ruea attacks the undefended white bia on d4; a
    // defended bia (by the met on c3) is no threat.
    let fen = "4k3/3r4/8/8/3P4/8/8/7K w - - 0 1";
    assert_eq!(feature(fen, t::THREAT_BY_RUEA + Role::Pawn.index()), 1);
    let fen = "4k3/3r4/8/8/3P4/2M5/8/7K w - - 0 1";
    assert_eq!(feature(fen, t::THREAT_BY_RUEA + Role::Pawn.index()), 0);
}

#[test]
fn outposts_need_a_bia_guard_and_no_bia_that_can_chase() {
    // Ma e5 guarded by the bia on d4, no black bia on the d or f file.
    assert_eq!(
        feature("4k3/8/8/4N3/3P4/8/8/3K4 w - - 0 1", t::MA_OUTPOST),
        1
    );
    // A black bia on f6 could chase it... it attacks e5 already.
    assert_eq!(
        feature("4k3/8/5p2/4N3/3P4/8/8/3K4 w - - 0 1", t::MA_OUTPOST),
        0
    );
    // Unguarded.
    assert_eq!(feature("4k3/8/8/4N3/8/8/8/3K4 w - - 0 1", t::MA_OUTPOST), 0);
}

#[test]
fn passed_bias_measure_both_khuns_to_the_promotion_square() {
    // White bia a4 promotes on a6: the white khun on d1 is 5 steps away,
    // the black khun on e8 4 steps.
    let fen = "4k3/8/8/8/P7/8/8/3K4 w - - 0 1";
    assert_eq!(feature(fen, t::PASSED_OWN_KHUN), 5);
    assert_eq!(feature(fen, t::PASSED_THEIR_KHUN), 4);
    // A black bia on b6 stops it being passed (and is not passed).
    let fen = "4k3/8/1p6/8/P7/8/8/3K4 w - - 0 1";
    assert_eq!(feature(fen, t::PASSED_OWN_KHUN), 0);
    assert_eq!(feature(fen, t::PASSED_THEIR_KHUN), 0);
}

#[test]
fn a_bia_is_blocked_by_an_enemy_piece_in_front() {
    assert_eq!(
        feature("4k3/8/8/4n3/4P3/8/8/3K4 w - - 0 1", t::BIA_BLOCKED),
        1
    );
    // Face to face, both are blocked.
    assert_eq!(
        feature("4k3/8/8/4p3/4P3/8/8/3K4 w - - 0 1", t::BIA_BLOCKED),
        0
    );
}
