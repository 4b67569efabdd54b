//! Static exchange evaluation of Makruk captures, and checking moves.

use engine::{Game, MakrukGame, makruk_see as see};
use makruk::{Position, Variant};

fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::Makruk, fen).unwrap()
}

fn mv(p: &Position, uci: &str) -> makruk::Move {
    *p.legal_moves()
        .as_slice()
        .iter()
        .find(|m| m.to_uci() == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal"))
}

#[test]
fn static_exchange_counts_defenders_and_x_rays() {
    // An undefended bia is won.
    let p = pos("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1");
    assert_eq!(see(&p, mv(&p, "d1d5")), 100);
    // Defended by a bia (black bias take diagonally downward): the ruea is
    // lost for it.
    let p = pos("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1");
    assert_eq!(see(&p, mv(&p, "d1d5")), 100 - 560);
    assert!(MakrukGame::new(p.clone()).losing_capture(mv(&p, "d1d5")));
    // Defended by a ruea, but a second ruea stands behind the first: the
    // exchange wins the bia.
    let p = pos("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1");
    assert_eq!(see(&p, mv(&p, "d2d5")), 100);
    assert!(!MakrukGame::new(p.clone()).losing_capture(mv(&p, "d2d5")));
    // Without the second ruea the defender takes back and nothing
    // recaptures.
    let p = pos("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1");
    assert_eq!(see(&p, mv(&p, "d2d5")), 100 - 560);
    // A khun does not take back onto a square the other side still covers.
    let p = pos("8/8/8/3k4/2p5/8/2R5/2R1K3 w - - 0 1");
    assert_eq!(see(&p, mv(&p, "c2c4")), 100);
    // Quiet moves are not losing captures.
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert!(!MakrukGame::new(p.clone()).losing_capture(mv(&p, "a1a5")));
}

/// `gives_check` agrees with playing the move and asking, on every legal
/// move of positions along random games.
#[test]
fn gives_check_matches_playing_the_move() {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut checks = 0;
    for variant in [makruk::Variant::Makruk, makruk::Variant::Cambodian] {
        for _game in 0..40 {
            let mut pos = makruk::Position::new(variant);
            for _ply in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let played = pos.played(m).is_check();
                    assert_eq!(
                        engine::makruk_gives_check(&pos, m),
                        played,
                        "{} {}",
                        pos.to_setup().to_fen(),
                        m.to_uci()
                    );
                    checks += usize::from(played);
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos.play_unchecked(moves[(rng % moves.len() as u64) as usize]);
            }
        }
    }
    assert!(checks > 500, "only {checks} checking moves seen");
}
