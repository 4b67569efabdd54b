//! Themes, the starting rating and the id of a puzzle, read from its
//! solution alone (no search): pure functions of the start position and the
//! moves.
//!
//! | theme | when |
//! |---|---|
//! | `mateIn1` .. `mateIn3`, `mate` | the last move mates, after 1, 2, 3 or more solver moves |
//! | `countingWin` | Makruk: a count runs at the start (the win must beat it) |
//! | `promotion` | Makruk: a solver move promotes a bia |
//! | `fork` | Makruk: a solver move's piece then attacks two enemy pieces, each the khun, worth more than it, or undefended |
//! | `hangingPiece` | the first move captures a piece its side does not defend |
//! | `sacrifice` | after some reply the solver is down 200 or more against the start |
//! | `multiCapture` | Mak-hot: a solver move captures two or more pieces |
//! | `kingWin` | Mak-hot: a solver move crowns a man |
//! | `short` / `long` | 1-2 solver moves / 3 or more |
//! | `endgame` | the start is an endgame by material ([`crate::material::is_endgame`]) |

use crate::judge::Line;
use crate::material::{balance, is_endgame, makruk_value};
use games::{AnyMove, AnyPosition};

/// The themes of a solution from `start`, in a fixed order.
pub fn themes(start: &AnyPosition, line: &Line) -> Vec<String> {
    let solver = start.turn();
    let solver_moves = line.moves.len().div_ceil(2);
    let mut out: Vec<&str> = Vec::new();
    if line.mates {
        out.push(match solver_moves {
            1 => "mateIn1",
            2 => "mateIn2",
            3 => "mateIn3",
            _ => "mate",
        });
    }
    if let AnyPosition::Makruk(p) = start
        && p.counting().is_some()
    {
        out.push("countingWin");
    }
    let (mut promotion, mut fork, mut sacrifice, mut multi, mut crown, mut hanging) =
        (false, false, false, false, false, false);
    let start_balance = balance(start, solver);
    let mut pos = start.clone();
    for (i, text) in line.moves.iter().enumerate() {
        let Ok(mv) = pos.parse_engine(text) else {
            break;
        };
        let before = pos.clone();
        if pos.play(&mv).is_err() {
            break;
        }
        if i % 2 == 1 {
            sacrifice |= balance(&pos, solver) <= start_balance - 200;
            continue;
        }
        match (&before, &pos, mv) {
            (AnyPosition::Makruk(b), AnyPosition::Makruk(a), AnyMove::Makruk(m)) => {
                promotion |= m.is_promotion();
                fork |= is_fork(a, m.to());
                if i == 0 {
                    hanging = is_hanging_capture(b, a, m);
                }
            }
            (
                AnyPosition::Makhos { position: b, .. },
                AnyPosition::Makhos { position: a, .. },
                AnyMove::Makhos(m),
            ) => {
                multi |= m.capture_count() >= 2;
                let c = b.turn();
                crown |= a.kings(c).count() > b.kings(c).count();
                if i == 0 && m.is_capture() {
                    hanging = is_hanging_makhos(a, m);
                }
            }
            _ => {}
        }
    }
    for (flag, name) in [
        (promotion, "promotion"),
        (fork, "fork"),
        (hanging, "hangingPiece"),
        (sacrifice, "sacrifice"),
        (multi, "multiCapture"),
        (crown, "kingWin"),
    ] {
        if flag {
            out.push(name);
        }
    }
    out.push(if solver_moves <= 2 { "short" } else { "long" });
    if is_endgame(start) {
        out.push("endgame");
    }
    out.into_iter().map(str::to_string).collect()
}

/// Whether the piece just moved to `to` in `after` (the opponent to move)
/// attacks two or more enemy pieces that are each the khun, worth more than
/// it, or undefended. Bias and khuns moving are not forks.
fn is_fork(after: &makruk::Position, to: makruk::Square) -> bool {
    let Some(mover) = after.piece_at(to) else {
        return false;
    };
    if matches!(mover.role, makruk::Role::King | makruk::Role::Pawn) {
        return false;
    }
    let enemy = mover.color.other();
    let occupied = after.occupied();
    let mut targets = 0;
    for sq in after.by_color(enemy) {
        let Some(target) = after.piece_at(sq) else {
            continue;
        };
        if target.role == makruk::Role::Pawn {
            continue;
        }
        if !after.attackers(sq, mover.color, occupied).contains(to) {
            continue;
        }
        let worth = target.role == makruk::Role::King
            || makruk_value(target.role) > makruk_value(mover.role)
            || after.attackers(sq, enemy, occupied).is_empty();
        if worth {
            targets += 1;
        }
    }
    targets >= 2
}

/// Whether move `m` from `before` captured a piece (not a bia) that nothing
/// defends: in `after`, no enemy piece attacks the capturing piece.
fn is_hanging_capture(
    before: &makruk::Position,
    after: &makruk::Position,
    m: makruk::Move,
) -> bool {
    let Some(taken) = before.piece_at(m.to()) else {
        return false;
    };
    if taken.role == makruk::Role::Pawn {
        return false;
    }
    after
        .attackers(m.to(), taken.color, after.occupied())
        .is_empty()
}

/// Mak-hot: whether the capturing piece cannot be taken back at once.
fn is_hanging_makhos(after: &makhos::Position, m: makhos::Move) -> bool {
    !after.has_capture() || {
        // Captures exist, but none takes the piece that just captured.
        let rules = makhos::Rules::Default;
        after
            .legal_moves(rules)
            .iter()
            .all(|r| !r.captured().contains(m.to()))
    }
}

/// The starting rating of a puzzle: 800, plus 250 per solver move after the
/// first, plus 40 per search depth the engine needed beyond the first to keep
/// the first move on top, plus 200 for a sacrifice and 150 when the first move
/// is quiet (no capture, check or promotion), clamped to 400..=3000.
pub fn rating(start: &AnyPosition, line: &Line, themes: &[String]) -> u16 {
    let solver_moves = line.moves.len().div_ceil(2) as i32;
    let mut r = 800 + 250 * (solver_moves - 1) + 40 * (line.found_at as i32 - 1).max(0);
    if themes.iter().any(|t| t == "sacrifice") {
        r += 200;
    }
    if line.moves.first().is_some_and(|m| is_quiet(start, m)) {
        r += 150;
    }
    r.clamp(400, 3000) as u16
}

/// Whether a move is quiet: no capture, check or promotion.
fn is_quiet(pos: &AnyPosition, text: &str) -> bool {
    let Ok(mv) = pos.parse_engine(text) else {
        return false;
    };
    match (pos, mv) {
        (AnyPosition::Makruk(p), AnyMove::Makruk(m)) => {
            !p.is_capture(m) && !m.is_promotion() && !engine::makruk_gives_check(p, m)
        }
        (AnyPosition::Makhos { position, .. }, AnyMove::Makhos(m)) => {
            let after = position.played(&m);
            !m.is_capture() && after.kings(position.turn()) == position.kings(position.turn())
        }
        _ => false,
    }
}

/// A stable id: 8 base-62 characters of a 64-bit FNV-1a hash of the variant,
/// rules, position and solution.
pub fn puzzle_id(start: &AnyPosition, solution: &[String]) -> String {
    let kind = start.kind();
    let text = format!(
        "{}\t{}\t{}\t{}",
        kind.variant_name(),
        kind.rules_name(),
        start.fen(),
        solution.join(" ")
    );
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    (0..8)
        .map(|_| {
            let d = DIGITS[(h % 62) as usize] as char;
            h /= 62;
            d
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::GameKind;

    fn pos(kind: GameKind, fen: &str) -> AnyPosition {
        AnyPosition::from_fen(kind, fen).unwrap()
    }

    fn line(moves: &[&str], mates: bool) -> Line {
        Line {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            found_at: 1,
            mates,
        }
    }

    fn themes_of(kind: GameKind, fen: &str, moves: &[&str], mates: bool) -> Vec<String> {
        let start = pos(kind, fen);
        // Every move of a hand-made line is legal.
        let mut p = start.clone();
        for m in moves {
            let mv = p.parse_engine(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            p.play(&mv).unwrap();
        }
        themes(&start, &line(moves, mates))
    }

    fn has(themes: &[String], name: &str) -> bool {
        themes.iter().any(|t| t == name)
    }

    #[test]
    fn mates_are_named_by_their_length() {
        let t = themes_of(
            GameKind::MAKRUK,
            "7k/8/1m4K1/3ppp2/3p4/3n4/8/R7 w - - 0 1",
            &["a1a8"],
            true,
        );
        assert_eq!(t, ["mateIn1", "short", "endgame"]);
        // A mate in two under a running count (K+R+2 mets against a khun).
        let t = themes_of(
            GameKind::MAKRUK,
            "1k6/2R5/2K5/4M1M1/8/8/8/8 w - 32 29 94",
            &["c6b6", "b8a8", "c7c8"],
            true,
        );
        assert_eq!(t, ["mateIn2", "countingWin", "short", "endgame"]);
        let start = pos(GameKind::MAKRUK, "1k6/2R5/2K5/4M1M1/8/8/8/8 w - 32 29 94");
        let five = line(&["c6b6", "b8a8", "c7c6", "a8b8", "c6c8"], true);
        assert_eq!(themes(&start, &five)[0], "mateIn3");
        let seven = line(
            &["c6b6", "b8a8", "c7c6", "a8b8", "c6c5", "b8a8", "c5c8"],
            true,
        );
        assert!(has(&themes(&start, &seven), "mate"));
        assert!(has(&themes(&start, &seven), "long"));
        // Without a mate, no mate theme.
        assert!(
            !themes(&start, &line(&["c6b6"], false))
                .iter()
                .any(|t| t.starts_with("mate"))
        );
    }

    #[test]
    fn a_bia_promoting_is_promotion() {
        let start = pos(GameKind::MAKRUK, "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1");
        let promote = start
            .legal_moves()
            .into_iter()
            .find(|m| matches!(m, AnyMove::Makruk(m) if m.is_promotion()))
            .unwrap()
            .to_engine();
        let t = themes(&start, &line(&[&promote], false));
        assert!(has(&t, "promotion"), "{t:?}");
        assert!(!has(&themes(&start, &line(&["e1d1"], false)), "promotion"));
    }

    #[test]
    fn a_ma_attacking_khun_and_ruea_is_a_fork_and_one_target_is_not() {
        let t = themes_of(
            GameKind::MAKRUK,
            "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1",
            &["b5c7"],
            false,
        );
        assert!(has(&t, "fork"), "{t:?}");
        // Only the khun attacked (the ruea is elsewhere).
        let t = themes_of(
            GameKind::MAKRUK,
            "4k2r/8/8/1N6/8/8/8/4K3 w - - 0 1",
            &["b5c7"],
            false,
        );
        assert!(!has(&t, "fork"), "{t:?}");
    }

    #[test]
    fn taking_an_undefended_piece_is_hanging_and_a_defended_one_a_sacrifice() {
        let t = themes_of(
            GameKind::MAKRUK,
            "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1",
            &["d1d5"],
            false,
        );
        assert!(has(&t, "hangingPiece"), "{t:?}");
        // The bia on e6 defends the ma: not hanging; the ruea is lost for it.
        let t = themes_of(
            GameKind::MAKRUK,
            "4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1",
            &["d1d5", "e6d5", "e1e2"],
            false,
        );
        assert!(!has(&t, "hangingPiece"), "{t:?}");
        assert!(has(&t, "sacrifice"), "{t:?}");
        let t = themes_of(
            GameKind::MAKRUK,
            "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1",
            &["d1d5"],
            false,
        );
        assert!(!has(&t, "sacrifice"), "{t:?}");
    }

    #[test]
    fn makhos_double_captures_and_crowning() {
        let t = themes_of(GameKind::MAKHOS, "W:Wc3:Bd4,d6,h8", &["c3e5c7"], false);
        assert!(has(&t, "multiCapture"), "{t:?}");
        assert!(has(&t, "hangingPiece"), "{t:?}");
        let t = themes_of(GameKind::MAKHOS, "W:Wc3:Bd4,h8", &["c3e5"], false);
        assert!(!has(&t, "multiCapture"), "{t:?}");
        let t = themes_of(GameKind::MAKHOS, "W:Wg7:Bb6", &["g7f8"], false);
        assert!(has(&t, "kingWin"), "{t:?}");
        assert!(has(&t, "endgame"), "{t:?}");
        let t = themes_of(GameKind::MAKHOS, "W:Wc3:Bb6", &["c3d4"], false);
        assert!(!has(&t, "kingWin"), "{t:?}");
    }

    #[test]
    fn the_rating_grows_with_length_depth_quiet_moves_and_sacrifices() {
        let start = pos(GameKind::MAKRUK, "4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1");
        let capture = line(&["d1d5"], false);
        assert_eq!(rating(&start, &capture, &[]), 800);
        let deeper = Line {
            found_at: 6,
            ..capture.clone()
        };
        assert_eq!(rating(&start, &deeper, &[]), 800 + 5 * 40);
        let sac = line(&["d1d5", "e6d5", "e1e2"], false);
        assert_eq!(rating(&start, &sac, &["sacrifice".into()]), 800 + 250 + 200);
        let quiet = line(&["e1e2"], false);
        assert_eq!(rating(&start, &quiet, &[]), 800 + 150);
    }

    #[test]
    fn ids_are_stable_short_and_differ_by_solution() {
        let start = pos(GameKind::MAKRUK, "4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1");
        let a = puzzle_id(&start, &["d1d5".to_string()]);
        assert_eq!(a, puzzle_id(&start, &["d1d5".to_string()]));
        assert_eq!(a.len(), 8);
        assert!(a.bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_ne!(a, puzzle_id(&start, &["e1e2".to_string()]));
    }
}
