//! The referee: the rules crates decide whether a move is legal and when a
//! game is over (mate, stalemate, Makruk counts, bare khuns, Mak-hot wins
//! and draws), never the engines.

use records::{Board, GameResult, Move};

/// The game being refereed.
#[derive(Clone, Debug)]
pub enum Referee {
    /// Makruk or Ouk Chatrang.
    Makruk(Box<makruk::Game>),
    /// Mak-hot.
    Makhos(makhos::Game),
}

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

impl Referee {
    /// A game from a start position.
    pub fn new(start: &Board) -> Referee {
        match start {
            Board::Makruk(p) => Referee::Makruk(Box::new(makruk::Game::from_position(p.clone()))),
            Board::Makhos {
                position, rules, ..
            } => Referee::Makhos(makhos::Game::from_position(*position, *rules)),
        }
    }

    /// Whether White is to move.
    pub fn white_to_move(&self) -> bool {
        match self {
            Referee::Makruk(g) => g.position().turn() == makruk::Color::White,
            Referee::Makhos(g) => g.position().turn() == makhos::Color::White,
        }
    }

    /// Plays a move in engine notation (`e3e4`, `c3e5c7`); the error says
    /// why it is refused.
    pub fn play(&mut self, text: &str) -> Result<Move, String> {
        match self {
            Referee::Makruk(g) => g
                .play_uci(text)
                .map(Move::Makruk)
                .map_err(|e| e.to_string()),
            Referee::Makhos(g) => {
                if !is_engine_move_text(text) {
                    return Err(format!("'{text}' is not a move in engine notation"));
                }
                g.play_text(text)
                    .map(Move::Makhos)
                    .map_err(|e| e.to_string())
            }
        }
    }

    /// The ending the rules decide, if the game is over.
    pub fn ending(&self) -> Option<Ending> {
        let normal = |result, reason: &str| {
            Some(Ending {
                result,
                termination: "normal",
                reason: reason.to_string(),
            })
        };
        match self {
            Referee::Makruk(g) => {
                let o = g.outcome()?;
                use makruk::EndReason as R;
                match (o.reason, o.winner) {
                    (R::Checkmate, Some(makruk::Color::White)) => {
                        normal(GameResult::WhiteWins, "White mates")
                    }
                    (R::Checkmate, _) => normal(GameResult::BlackWins, "Black mates"),
                    (R::Stalemate, _) => normal(GameResult::Draw, "Draw by stalemate"),
                    (R::CountingDraw, _) => normal(GameResult::Draw, "Draw by the counting rules"),
                    (R::InsufficientMaterial, _) => {
                        normal(GameResult::Draw, "Draw by insufficient material")
                    }
                    (r, _) => normal(GameResult::Draw, r.name()),
                }
            }
            Referee::Makhos(g) => match g.state() {
                makhos::GameState::Ongoing => None,
                makhos::GameState::Win { winner, .. } => {
                    let white = winner == makhos::Color::White;
                    normal(
                        if white {
                            GameResult::WhiteWins
                        } else {
                            GameResult::BlackWins
                        },
                        &format!(
                            "{} wins: {} cannot move",
                            side_name(white),
                            side_name(!white)
                        ),
                    )
                }
                makhos::GameState::Draw(r) => {
                    let why = match r {
                        makhos::DrawReason::Repetition => "Draw by threefold repetition",
                        makhos::DrawReason::Kings => "Draw: one king each",
                        makhos::DrawReason::NoProgress => "Draw: 32 plies without progress",
                        makhos::DrawReason::Agreement => "Draw by agreement",
                    };
                    normal(GameResult::Draw, why)
                }
            },
        }
    }
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
    use records::GameKind;

    fn makruk(fen: &str) -> Referee {
        Referee::new(&Board::from_fen(GameKind::Makruk(makruk::Variant::Makruk), fen).unwrap())
    }

    #[test]
    fn refuses_illegal_and_malformed_moves() {
        let mut r = Referee::new(&Board::start(GameKind::Makruk(makruk::Variant::Makruk)));
        assert!(r.white_to_move());
        assert!(r.play("e3e5").is_err());
        assert!(r.play("zz").is_err());
        assert!(r.play("e3e4").is_ok());
        assert!(!r.white_to_move());
        assert!(r.ending().is_none());

        let mut h = Referee::new(&Board::start(GameKind::Makhos(makhos::Rules::Default)));
        assert!(h.play("b2a3").is_ok());
        assert!(h.play("9-13").unwrap_err().contains("engine notation"));
        assert!(h.play("a1a1").is_err());
    }

    #[test]
    fn adjudicates_mate_and_bare_khuns() {
        // Ra1-a8 mates: the white khun on g6 guards g7 and h7.
        let mut r = makruk("7k/8/6K1/8/8/8/8/R7 w - - 0 1");
        r.play("a1a8").unwrap();
        let e = r.ending().unwrap();
        assert_eq!(e.result, GameResult::WhiteWins);
        assert_eq!(e.reason, "White mates");

        let bare = makruk("7k/8/8/8/8/8/8/6K1 w - - 0 1");
        let e = bare.ending().unwrap();
        assert_eq!(e.result, GameResult::Draw);
        assert!(e.reason.contains("insufficient"), "{}", e.reason);
    }

    #[test]
    fn adjudicates_makhos_wins() {
        // Black's only man is taken: White wins.
        let pos: makhos::Position = "W:Wc3:Bd4".parse().unwrap();
        let mut r = Referee::new(&Board::Makhos {
            position: pos,
            rules: makhos::Rules::Default,
            fullmove: 1,
        });
        r.play("c3e5").unwrap();
        let e = r.ending().unwrap();
        assert_eq!(e.result, GameResult::WhiteWins);
        assert!(e.reason.contains("Black cannot move"), "{}", e.reason);
    }

    #[test]
    fn losses_for_reasons_outside_the_rules() {
        let e = Ending::loss(true, "time forfeit", "White loses on time".into());
        assert_eq!(e.result, GameResult::BlackWins);
        assert_eq!(e.termination, "time forfeit");
    }
}
