//! The Makruk evaluation terms (mobility, ruea files, khun pressure).

use engine::eval::{MakrukWeights, evaluate_makruk};
use makruk::{Position, Variant};

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

#[test]
fn a_ruea_on_an_open_file_scores_more_than_behind_its_own_bia() {
    let w = &MakrukWeights::DEFAULT;
    // Same material; the ruea on the a-file sits behind its bia, on the
    // h-file it has an open file and more squares.
    let closed = evaluate_makruk(&pos("4k3/8/7p/8/8/P7/8/R3K3 w - - 0 1"), w);
    let open = evaluate_makruk(&pos("4k3/8/7p/8/8/P7/8/4K2R w - - 0 1"), w);
    assert!(
        open - closed >= w.ruea_half_open_file,
        "open {open} closed {closed}"
    );
    // Without the new terms the two score alike (the centre term is
    // symmetric between the a- and h-files).
    let plain = MakrukWeights {
        mobility: [0; 6],
        ruea_open_file: 0,
        ruea_half_open_file: 0,
        khun_attackers: 0,
        ..MakrukWeights::DEFAULT
    };
    let closed = evaluate_makruk(&pos("4k3/8/7p/8/8/P7/8/R3K3 w - - 0 1"), &plain);
    let open = evaluate_makruk(&pos("4k3/8/7p/8/8/P7/8/4K2R w - - 0 1"), &plain);
    assert_eq!(open, closed);
}

#[test]
fn pieces_bearing_on_the_khun_score_as_pressure() {
    let w = MakrukWeights {
        mobility: [0; 6],
        ..MakrukWeights::DEFAULT
    };
    // The white ma on f5 bears on a square next to the black khun; on c4
    // it does not (same distance from the centre).
    let near = evaluate_makruk(&pos("4k3/8/8/5N2/8/8/8/4K2R w - - 0 1"), &w);
    let far = evaluate_makruk(&pos("4k3/8/8/8/2N5/8/8/4K2R w - - 0 1"), &w);
    assert_eq!(near - far, w.khun_attackers);
}

#[test]
fn mobility_counts_the_squares_a_piece_may_go_to() {
    let w0 = MakrukWeights {
        mobility: [0; 6],
        ..MakrukWeights::DEFAULT
    };
    let with = |role: usize| {
        let mut w = w0.clone();
        w.mobility[role] = 1;
        w
    };
    // The white khon on e4 moves forward (e5, held by its own bia) and
    // diagonally (d5, f5, d3, f3): four squares.
    let p = pos("4k3/8/8/4P3/4S3/8/8/4K3 w - - 0 1");
    assert_eq!(evaluate_makruk(&p, &with(2)) - evaluate_makruk(&p, &w0), 4);
    // A ma on b1 reaches a3, c3 and d2, but c3 is guarded by a black bia
    // on d4 (black bias take diagonally downward). The ruea on h2 keeps
    // White's material able to mate (else the score is scaled down).
    let p = pos("4k3/8/8/8/3p4/8/7R/1N2K3 w - - 0 1");
    assert_eq!(evaluate_makruk(&p, &with(3)) - evaluate_makruk(&p, &w0), 2);
}
