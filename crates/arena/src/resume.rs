//! Resuming a match from its PGN: the games a stopped run finished are
//! read back, checked against this match (the same engines, the same
//! game numbers and the same openings in the same order), and counted
//! instead of played again. A match of hundreds of games at a real time
//! control outlasts a working session; with `--resume` the same command
//! run again continues where it stopped.

use crate::runner::{Finished, MatchConfig, first_points2};

/// The finished games of `games` (read from the match's PGN, in file
/// order), each checked against `cfg`: its `[Round]` is a game number of
/// this match played once only, White and Black are this match's engines
/// with the colours that number gives them, it starts from that number's
/// opening, and it has a result. The first game that fails is an error
/// naming it (its place in the file and its round) and what is wrong.
pub fn finished_games(cfg: &MatchConfig, games: &[records::Game]) -> Result<Vec<Finished>, String> {
    let mut seen = vec![false; cfg.games + 1];
    let mut out = Vec::with_capacity(games.len());
    for (i, g) in games.iter().enumerate() {
        let at = |what: String| format!("game {} of the PGN: {what}", i + 1);
        let round = g.tags.get("Round").unwrap_or("?");
        let number: usize = round
            .parse()
            .ok()
            .filter(|n| (1..=cfg.games).contains(n))
            .ok_or_else(|| {
                at(format!(
                    "[Round \"{round}\"] is not a game number of this match (1 to {})",
                    cfg.games
                ))
            })?;
        let at = |what: String| format!("game {} of the PGN (round {number}): {what}", i + 1);
        if std::mem::replace(&mut seen[number], true) {
            return Err(at("this round is in the PGN twice".into()));
        }
        let first_white = MatchConfig::first_white(number);
        let (first, second) = (&cfg.engines[0].name, &cfg.engines[1].name);
        let (want_white, want_black) = if first_white {
            (first, second)
        } else {
            (second, first)
        };
        let (white, black) = (
            g.tags.get("White").unwrap_or("?"),
            g.tags.get("Black").unwrap_or("?"),
        );
        if white != want_white || black != want_black {
            return Err(at(format!(
                "played by {white} (White) and {black} (Black), but this match's round \
                 {number} is {want_white} against {want_black}: another match's PGN?"
            )));
        }
        let opening = cfg.opening_of(number);
        let book_matches = g.start == opening.start
            && g.moves.nodes.len() >= opening.moves.len()
            && g.mainline().zip(&opening.moves).all(|(a, b)| a == *b);
        if !book_matches {
            return Err(at(format!(
                "it does not start from this match's opening for round {number} ({}): \
                 were the openings, --random-order or --seed changed?",
                opening.start.fen()
            )));
        }
        let points2 = first_points2(g.result, first_white).ok_or_else(|| {
            at(
                "it has no result (cut short when the run stopped?): remove it from the \
                PGN to play it again"
                    .into(),
            )
        })?;
        out.push(Finished { number, points2 });
    }
    Ok(out)
}

/// Reads the match's PGN text and returns its finished games
/// ([`finished_games`]); a game that cannot be read is an error with its
/// place in the text.
pub fn finished_in_pgn(cfg: &MatchConfig, text: &str) -> Result<Vec<Finished>, String> {
    let games = records::read_all(text)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{e} (remove or mend that game to resume)"))?;
    finished_games(cfg, &games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjudicate::Adjudication;
    use crate::openings::parse_openings;
    use crate::spec::{EngineSpec, Limit};
    use games::GameKind;
    use std::time::Duration;

    fn config(games: usize) -> MatchConfig {
        let openings = parse_openings(
            GameKind::MAKRUK,
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1\n\
             rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1\n",
            None,
        )
        .unwrap();
        let spec = |name: &str| EngineSpec::parse(&[&format!("name={name}")]).unwrap();
        MatchConfig {
            kind: GameKind::MAKRUK,
            engines: [spec("new"), spec("old")],
            default_cmd: ("thaiboard".into(), vec!["uci".into()]),
            limit: Limit {
                nodes: Some(100),
                ..Limit::default()
            },
            openings,
            games,
            concurrency: 1,
            adjudication: Adjudication::default(),
            sprt: None,
            margin_ms: 100,
            move_timeout: Duration::from_secs(5),
            event: "test".into(),
        }
    }

    /// A PGN game of round `round` between `white` and `black` from
    /// `fen` (the standard start when empty), with `moves` and `result`.
    fn pgn(round: usize, white: &str, black: &str, fen: &str, moves: &str, result: &str) -> String {
        let setup = if fen.is_empty() {
            String::new()
        } else {
            format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n")
        };
        format!(
            "[Event \"test\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n[Variant \"makruk\"]\n{setup}\n{moves} {result}\n\n"
        )
    }

    const SECOND: &str = "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1";

    #[test]
    fn finished_games_count_for_the_engine_of_their_colour() {
        let cfg = config(4);
        let text = [
            pgn(1, "new", "old", "", "1. c4 f5", "1-0"),
            pgn(4, "old", "new", SECOND, "1... f5", "1-0"),
            pgn(2, "old", "new", "", "1. c4", "1/2-1/2"),
        ]
        .concat();
        let done = finished_in_pgn(&cfg, &text).unwrap();
        assert_eq!(
            done,
            vec![
                Finished {
                    number: 1,
                    points2: 2
                },
                Finished {
                    number: 4,
                    points2: 0
                },
                Finished {
                    number: 2,
                    points2: 1
                },
            ]
        );
        assert_eq!(finished_in_pgn(&cfg, "").unwrap(), vec![]);
    }

    #[test]
    fn games_of_another_match_are_refused_with_the_reason() {
        let cfg = config(4);
        let err = |text: String| finished_in_pgn(&cfg, &text).unwrap_err();
        let e = err(pgn(5, "new", "old", "", "1. c4", "1-0"));
        assert!(
            e.contains("game 1 of the PGN") && e.contains("[Round \"5\"]"),
            "{e}"
        );
        let e = err(pgn(1, "old", "new", "", "1. c4", "1-0"));
        assert!(
            e.contains("round 1") && e.contains("another match's PGN"),
            "{e}"
        );
        let e = err(pgn(3, "new", "old", "", "1. c4", "1-0"));
        assert!(
            e.contains("does not start from this match's opening"),
            "{e}"
        );
        let twice = [
            pgn(1, "new", "old", "", "1. c4", "1-0"),
            pgn(1, "new", "old", "", "1. c4", "0-1"),
        ]
        .concat();
        let e = err(twice);
        assert!(
            e.contains("game 2 of the PGN (round 1)") && e.contains("twice"),
            "{e}"
        );
        let e = err(pgn(2, "old", "new", "", "1. c4", "*"));
        assert!(e.contains("no result"), "{e}");
        let e = err(format!(
            "{}[Round \"2\"]\n[White \"old\"]\n\n1. c4 zz9",
            pgn(1, "new", "old", "", "1. c4", "1-0")
        ));
        assert!(e.contains("game 2, line") && e.contains("to resume"), "{e}");
    }
}
