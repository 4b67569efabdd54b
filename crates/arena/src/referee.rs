//! The referee: the rules crates decide whether a move is legal and when a
//! game is over (mate, stalemate, Makruk counts, bare khuns, Mak-hot wins
//! and draws), never the engines.

use games::{AnyGame, AnyMove, Color, EndReason, GameKind, Outcome};
use records::GameResult;

/// How a game ended, as the referee or the runner saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub result: GameResult,
    /// The PGN `[Termination]` value: `normal`, `time forfeit`,
    /// `rules infraction`, `adjudication`, `abandoned`.
    pub termination: &'static str,
    /// What happened, in words (`White mates`, `Black's engine crashed`).
    pub reason: String,
}

fn side_name(white: bool) -> &'static str {
    if white { "White" } else { "Black" }
}

impl Ending {
    /// A loss for one side, for a reason outside the rules of play.
    pub fn loss(white_loses: bool, termination: &'static str, reason: String) -> Ending {
        Ending {
            result: if white_loses {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            },
            termination,
            reason,
        }
    }
}

/// Plays a move in engine notation (`e3e4`, `c3e5c7`) on the refereed
/// game; the error says why it is refused.
pub fn play(game: &mut AnyGame, text: &str) -> Result<AnyMove, String> {
    if matches!(game.kind(), GameKind::Makhos(_)) && !is_engine_move_text(text) {
        return Err(format!("'{text}' is not a move in engine notation"));
    }
    game.play_engine(text).map_err(|e| e.to_string())
}

/// The result as records write it.
fn result_of(o: &Outcome) -> GameResult {
    match o.winner {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    }
}

/// The ending the rules decide, if the game is over.
pub fn ending(game: &AnyGame) -> Option<Ending> {
    let o = game.outcome()?;
    let white = o.winner == Some(Color::White);
    let reason = match o.reason {
        EndReason::Checkmate => format!("{} mates", side_name(white)),
        EndReason::Stalemate => "Draw by stalemate".into(),
        EndReason::CountingDraw => "Draw by the counting rules".into(),
        EndReason::InsufficientMaterial => "Draw by insufficient material".into(),
        EndReason::NoMoves => format!(
            "{} wins: {} cannot move",
            side_name(white),
            side_name(!white)
        ),
        EndReason::AllCaptured => format!(
            "{} wins: {} has no pieces left",
            side_name(white),
            side_name(!white)
        ),
        EndReason::Repetition => "Draw by threefold repetition".into(),
        EndReason::Kings => "Draw: one king each".into(),
        EndReason::NoProgress => "Draw: 32 plies without progress".into(),
        EndReason::Agreement => "Draw by agreement".into(),
        other => other.name().into(),
    };
    Some(Ending {
        result: result_of(&o),
        termination: "normal",
        reason,
    })
}

/// The side to move's flag fell: a loss, or a draw when the rules say the
/// opponent could not have won (Makruk: the khun alone). `name` is the
/// engine's.
pub fn time_forfeit(game: &AnyGame, name: &str) -> Ending {
    let white = game.turn() == Color::White;
    let mut flagged = game.clone();
    let drawn = flagged.time_out(game.turn()).is_ok()
        && flagged
            .outcome()
            .is_some_and(|o| o.reason == EndReason::TimeoutDraw);
    if drawn {
        return Ending {
            result: GameResult::Draw,
            termination: "time forfeit",
            reason: format!(
                "{} ({name}) ran out of time, but {} has only the khun",
                side_name(white),
                side_name(!white)
            ),
        };
    }
    Ending::loss(
        white,
        "time forfeit",
        format!("{} ({name}) loses on time", side_name(white)),
    )
}

/// Engine notation for Mak-hot: squares only (`c3d4`, `c3e5c7`), no
/// separators or PDN numbers.
fn is_engine_move_text(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 4
        && b.len() % 2 == 0
        && b.chunks(2)
            .all(|c| (b'a'..=b'h').contains(&c[0]) && (b'1'..=b'8').contains(&c[1]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::AnyPosition;

    fn makruk(fen: &str) -> AnyGame {
        AnyGame::from_position(AnyPosition::from_fen(GameKind::MAKRUK, fen).unwrap())
    }

    #[test]
    fn refuses_illegal_and_malformed_moves() {
        let mut r = AnyGame::new(GameKind::MAKRUK);
        assert_eq!(r.turn(), Color::White);
        assert!(play(&mut r, "e3e5").is_err());
        assert!(play(&mut r, "zz").is_err());
        assert!(play(&mut r, "e3e4").is_ok());
        assert_eq!(r.turn(), Color::Black);
        assert!(ending(&r).is_none());

        let mut h = AnyGame::new(GameKind::MAKHOS);
        assert!(play(&mut h, "b2a3").is_ok());
        assert!(
            play(&mut h, "9-13")
                .unwrap_err()
                .contains("engine notation")
        );
        assert!(play(&mut h, "a1a1").is_err());
    }

    #[test]
    fn adjudicates_mate_and_bare_khuns() {
        // Ra1-a8 mates: the white khun on g6 guards g7 and h7.
        let mut r = makruk("7k/8/6K1/8/8/8/8/R7 w - - 0 1");
        play(&mut r, "a1a8").unwrap();
        let e = ending(&r).unwrap();
        assert_eq!(e.result, GameResult::WhiteWins);
        assert_eq!(e.reason, "White mates");

        let bare = makruk("7k/8/8/8/8/8/8/6K1 w - - 0 1");
        let e = ending(&bare).unwrap();
        assert_eq!(e.result, GameResult::Draw);
        assert!(e.reason.contains("insufficient"), "{}", e.reason);
    }

    fn cambodian(fen: &str) -> AnyGame {
        AnyGame::from_position(AnyPosition::from_fen(GameKind::CAMBODIAN, fen).unwrap())
    }

    /// The referee's counts are the rules crate's, per variant: one ruea
    /// against a bare khun is 15 moves (30 plies) in Ouk Chatrang, 16 (32)
    /// in Makruk, so the same count ply ends only the Ouk Chatrang game.
    #[test]
    fn adjudicates_counts_at_each_variants_limit() {
        let mut r = cambodian("4k3/8/8/8/8/8/8/R2K4 w - 30 30 1");
        assert!(ending(&r).is_none());
        play(&mut r, "a1a2").unwrap();
        let e = ending(&r).unwrap();
        assert_eq!(e.result, GameResult::Draw);
        assert_eq!(e.reason, "Draw by the counting rules");

        let mut m = makruk("4k3/8/8/8/8/8/8/R2K4 w - 32 30 1");
        play(&mut m, "a1a2").unwrap();
        assert!(ending(&m).is_none(), "Makruk's count has two plies left");
        play(&mut m, "e8e7").unwrap();
        assert!(ending(&m).is_none());
        play(&mut m, "a2a3").unwrap();
        assert_eq!(ending(&m).unwrap().reason, "Draw by the counting rules");
        // Each variant reads the other's limit as written (as
        // Fairy-Stockfish does) and counts to it.
        let mut r = cambodian("4k3/8/8/8/8/8/8/R2K4 w - 32 30 1");
        play(&mut r, "a1a2").unwrap();
        assert!(ending(&r).is_none(), "the count read runs to 32 plies");
        play(&mut r, "e8e7").unwrap();
        play(&mut r, "a2a3").unwrap();
        assert_eq!(ending(&r).unwrap().reason, "Draw by the counting rules");
    }

    /// A count the referee starts uses Ouk Chatrang's limit (RULES.md's
    /// example: 86 plies where Makruk gives 88).
    #[test]
    fn counts_started_in_play_use_ouk_chatrangs_limits() {
        let mut r = cambodian("8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1");
        play(&mut r, "g5g6m").unwrap();
        assert_eq!(r.fen(), "8/3k4/6M1/2K1S3/8/8/8/8 b - 86 8 1");
        let mut m = makruk("8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1");
        play(&mut m, "g5g6m").unwrap();
        assert_eq!(m.fen(), "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1");
    }

    #[test]
    fn adjudicates_makhos_wins() {
        // Black's only man is taken: White wins, every piece captured.
        let pos: makhos::Position = "W:Wc3:Bd4".parse().unwrap();
        let mut r = AnyGame::from_position(AnyPosition::Makhos {
            position: pos,
            rules: makhos::Rules::Default,
            fullmove: 1,
        });
        play(&mut r, "c3e5").unwrap();
        let e = ending(&r).unwrap();
        assert_eq!(e.result, GameResult::WhiteWins);
        assert!(
            e.reason.contains("Black has no pieces left"),
            "{}",
            e.reason
        );
    }

    #[test]
    fn losses_for_reasons_outside_the_rules() {
        let e = Ending::loss(true, "time forfeit", "White loses on time".into());
        assert_eq!(e.result, GameResult::BlackWins);
        assert_eq!(e.termination, "time forfeit");
    }
}
