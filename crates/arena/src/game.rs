//! One game between two running engines: the clocks, the referee, the
//! adjudication rules and the record.

use crate::adjudicate::{Adjudication, Repetitions};
use crate::openings::Opening;
use crate::referee::{self, Ending, time_forfeit};
use crate::spec::Limit;
use crate::tc::Clock;
use crate::uci::{Engine, EngineError};
use games::{AnyGame, Color, GameKind};
use records::{GameResult, Node};
use std::time::Duration;

/// What a game needs besides its engines.
#[derive(Clone, Debug)]
pub struct GameSetup<'a> {
    /// The start position and book moves.
    pub opening: &'a Opening,
    /// White's and Black's limits.
    pub limits: [&'a Limit; 2],
    /// How far past zero a clock may go before the flag falls, in ms.
    pub margin_ms: u64,
    /// How long to wait for a move with no clock (depth or node limits).
    pub move_timeout: Duration,
    /// Score adjudication.
    pub adjudication: &'a Adjudication,
    /// Tags to set on the record (Event, Round, White, Black, ...).
    pub tags: Vec<(String, String)>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The record: tags, book moves (commented `book`), the engines' moves
    /// (commented with score/depth and time), the result.
    pub record: records::Game,
    /// How it ended.
    pub ending: Ending,
    /// Whether White's / Black's engine crashed or hung (it must be
    /// restarted).
    pub broken: [bool; 2],
}

fn side(white: bool) -> &'static str {
    if white { "White" } else { "Black" }
}

/// The `go` line for the side to move.
fn go_line(limit: &Limit, clocks: &[Option<Clock>; 2], white: bool) -> String {
    let mut go = String::from("go");
    let own = usize::from(!white);
    if let Some(c) = clocks[own] {
        let other = clocks[1 - own].unwrap_or(c);
        let (w, b) = if white { (c, other) } else { (other, c) };
        go.push_str(&format!(
            " wtime {} btime {} winc {} binc {}",
            w.left_ms(),
            b.left_ms(),
            w.inc_ms(),
            b.inc_ms()
        ));
        if let Some(m) = c.moves_to_go() {
            go.push_str(&format!(" movestogo {m}"));
        }
    }
    if let Some(t) = limit.movetime {
        go.push_str(&format!(" movetime {t}"));
    }
    if let Some(n) = limit.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    if let Some(d) = limit.depth {
        go.push_str(&format!(" depth {d}"));
    }
    go
}

/// What ended a game when an engine crashed or (with no clock) hung.
fn engine_failure(white: bool, name: &str, err: &EngineError) -> Ending {
    match err {
        EngineError::Crashed(why) => Ending::loss(
            white,
            "abandoned",
            format!("{} ({name}) crashed: {why}", side(white)),
        ),
        EngineError::Timeout(why) => Ending::loss(
            white,
            "time forfeit",
            format!("{} ({name}) hangs: {why}", side(white)),
        ),
    }
}

/// Plays one game: `engines[0]` has White. Engines must be ready
/// (`ucinewgame` answered).
pub fn play_game(engines: [&mut Engine; 2], setup: &GameSetup<'_>) -> Played {
    let opening = setup.opening;
    let mut referee = AnyGame::from_position(opening.start.clone());
    let mut record = records::Game::new(opening.start.clone());
    for (k, v) in &setup.tags {
        record.tags.set(k, v);
    }
    let mut moves: Vec<String> = Vec::new();
    // Makruk only: Mak-hot's rules have their own repetition rule.
    let repetition = match referee.kind() {
        GameKind::Makruk(_) => setup.adjudication.repetition,
        GameKind::Makhos(_) => None,
    };
    let mut repetitions = Repetitions::default();
    if repetition.is_some() {
        repetitions.record(&referee.fen());
    }
    for m in &opening.moves {
        let text = m.to_engine();
        let mv =
            referee::play(&mut referee, &text).expect("openings are checked when they are read");
        if repetition.is_some() {
            repetitions.record(&referee.fen());
        }
        let mut node = Node::new(mv);
        node.comments.push("book".to_string());
        record.moves.nodes.push(node);
        moves.push(text);
    }
    let base = if opening.start.is_standard_start() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", opening.start.fen())
    };
    let mut clocks = [
        setup.limits[0].tc.map(Clock::new),
        setup.limits[1].tc.map(Clock::new),
    ];
    let mut scores: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
    let mut broken = [false, false];
    let [white_engine, black_engine] = engines;
    let engines = [white_engine, black_engine];
    let ending = loop {
        if let Some(e) = referee::ending(&referee) {
            break e;
        }
        let white = referee.turn() == Color::White;
        let me = usize::from(!white);
        let name = engines[me].name.clone();
        let position = if moves.is_empty() {
            base.clone()
        } else {
            format!("{base} moves {}", moves.join(" "))
        };
        let limit = setup.limits[me];
        let wait = match (clocks[me], limit.movetime) {
            (Some(c), _) => Duration::from_millis(c.left_ms() + setup.margin_ms),
            (None, Some(t)) => Duration::from_millis(t + setup.margin_ms) + setup.move_timeout,
            (None, None) => setup.move_timeout,
        };
        let reply = match engines[me].go(&position, &go_line(limit, &clocks, white), wait) {
            Ok(r) => r,
            Err(EngineError::Timeout(_)) if clocks[me].is_some() => {
                broken[me] = true;
                break time_forfeit(&referee, &name);
            }
            Err(e) => {
                broken[me] = true;
                break engine_failure(white, &name, &e);
            }
        };
        if let Some(c) = &mut clocks[me]
            && !c.charge(reply.elapsed.as_millis() as u64, setup.margin_ms)
        {
            break time_forfeit(&referee, &name);
        }
        let mv = match referee::play(&mut referee, &reply.best) {
            Ok(mv) => mv,
            Err(why) => {
                break Ending::loss(
                    white,
                    "rules infraction",
                    format!(
                        "{} ({name}) played an illegal move '{}': {why}",
                        side(white),
                        reply.best
                    ),
                );
            }
        };
        let mut node = Node::new(mv);
        let eval = match (reply.score, reply.depth) {
            (Some(s), Some(d)) => format!("{}/{d} ", s.text()),
            (Some(s), None) => format!("{} ", s.text()),
            _ => String::new(),
        };
        node.comments
            .push(format!("{eval}{:.2}s", reply.elapsed.as_secs_f64()));
        record.moves.nodes.push(node);
        moves.push(reply.best);
        if let Some(s) = reply.score {
            scores[me].push(s.as_cp());
        }
        if referee::ending(&referee).is_some() {
            continue;
        }
        if let Some(times) = repetition
            && repetitions.record(&referee.fen()) >= times
        {
            break Ending {
                result: GameResult::Draw,
                termination: "adjudication",
                reason: format!("Draw: the same position {times} times (--repetition)"),
            };
        }
        let move_number = (record.moves.nodes.len() / 2 + 1) as u32;
        let (own, other) = (&scores[me], &scores[1 - me]);
        if setup.adjudication.resigns(own, other) || setup.adjudication.resigns(other, own) {
            let loser_white = if setup.adjudication.resigns(own, other) {
                white
            } else {
                !white
            };
            break Ending::loss(
                loser_white,
                "adjudication",
                format!("{} resigns by score adjudication", side(loser_white)),
            );
        }
        if setup
            .adjudication
            .draws(move_number, &scores[0], &scores[1])
        {
            break Ending {
                result: GameResult::Draw,
                termination: "adjudication",
                reason: "Draw by score adjudication".to_string(),
            };
        }
        if let Some(max) = setup.adjudication.max_moves
            && record.moves.nodes.len() as u32 >= 2 * max
        {
            break Ending {
                result: GameResult::Draw,
                termination: "adjudication",
                reason: format!("Draw: {max} moves played (--maxmoves)"),
            };
        }
    };
    record.set_result(ending.result);
    record.tags.set("Termination", ending.termination);
    record
        .tags
        .set("PlyCount", &record.moves.nodes.len().to_string());
    match record.moves.nodes.last_mut() {
        Some(n) => n.comments.push(ending.reason.clone()),
        None => record.moves.comments.push(ending.reason.clone()),
    }
    Played {
        record,
        ending,
        broken,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_fall_against_a_bare_khun_is_a_draw() {
        let board =
            games::AnyPosition::from_fen(games::GameKind::MAKRUK, "7k/8/8/8/8/8/8/R5K1 w - - 0 1")
                .unwrap();
        let white_flags = time_forfeit(&AnyGame::from_position(board), "a");
        assert_eq!(white_flags.result, GameResult::Draw);
        assert!(white_flags.reason.contains("only the khun"));
        let black_to_move =
            games::AnyPosition::from_fen(games::GameKind::MAKRUK, "7k/8/8/8/8/8/8/R5K1 b - - 0 1")
                .unwrap();
        let black_flags = time_forfeit(&AnyGame::from_position(black_to_move), "b");
        assert_eq!(black_flags.result, GameResult::WhiteWins);
        assert_eq!(black_flags.reason, "Black (b) loses on time");
        let crash = engine_failure(true, "a", &EngineError::Crashed("gone".into()));
        assert_eq!(
            (crash.result, crash.termination),
            (GameResult::BlackWins, "abandoned")
        );
    }

    #[test]
    fn go_lines() {
        let tc: crate::tc::TimeControl = "10+0.1".parse().unwrap();
        let clocks = [Some(Clock::new(tc)), Some(Clock::new(tc))];
        let limit = Limit {
            tc: Some(tc),
            ..Limit::default()
        };
        assert_eq!(
            go_line(&limit, &clocks, false),
            "go wtime 10000 btime 10000 winc 100 binc 100"
        );
        let depth = Limit {
            depth: Some(2),
            nodes: Some(500),
            ..Limit::default()
        };
        assert_eq!(go_line(&depth, &[None, None], true), "go nodes 500 depth 2");
        let periods: crate::tc::TimeControl = "40/60".parse().unwrap();
        let clocks = [Some(Clock::new(periods)), None];
        assert_eq!(
            go_line(&Limit::default(), &clocks, true),
            "go wtime 60000 btime 60000 winc 0 binc 0 movestogo 40"
        );
    }
}
