//! A match read back from its PGN, from one player's side: the score and
//! Elo, how the games ended, the draws given away from a lead, and the
//! time and depth a move by move number beside the opponents'
//! (`thaiboard pgn stats`).
//!
//! It reads what `thaiboard match` and cutechess-cli write: the result,
//! `[Round]` (rounds 2k-1 and 2k are a pair, one opening with the colours
//! reversed), `[Termination]`, a comment after each move such as
//! `+0.35/12 0.41s`, and the reason after the last move. The rules decide
//! the ending where the final position is over.

use crate::runner::first_points2;
use crate::stats::Tally;
use games::Color;
use records::{Game, replay};
use std::collections::HashMap;

/// A drawn game counts as drawn from a lead when its side had scored at
/// least this (centipawns, the side's own engine's score).
pub const LEAD_CP: i32 = 200;

/// The first move number of each band of the time table (the last band
/// runs to the end of the game).
pub const BANDS: [u32; 8] = [1, 11, 21, 31, 41, 51, 61, 81];

/// What a move's comment says: `+0.35/12 0.41s`, `-M3/20 0.05s`, `0.41s`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MoveNote {
    /// The mover's score in centipawns; a mate in n as ±(100000 − n), as
    /// [`crate::uci::EngineScore::as_cp`] counts it.
    pub score: Option<i32>,
    /// The depth of the search.
    pub depth: Option<u32>,
    /// The time the move took.
    pub seconds: f64,
}

impl MoveNote {
    /// Reads a move comment; `None` when it is not one (a reason, `book`,
    /// a note by hand).
    pub fn parse(text: &str) -> Option<MoveNote> {
        let (head, time) = match text.rsplit_once(' ') {
            Some((head, time)) => (Some(head), time),
            None => (None, text),
        };
        let seconds = time
            .strip_suffix('s')?
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)?;
        let (score, depth) = match head {
            None => (None, None),
            Some(head) => match head.split_once('/') {
                Some((score, depth)) => (Some(parse_score(score)?), Some(depth.parse().ok()?)),
                None => (Some(parse_score(head)?), None),
            },
        };
        Some(MoveNote {
            score,
            depth,
            seconds,
        })
    }
}

/// `+0.35`, `-1.20`, `+M3`, `-M2` (or `#3`) in centipawns.
fn parse_score(text: &str) -> Option<i32> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    let cp = match rest.strip_prefix('M').or_else(|| rest.strip_prefix('#')) {
        Some(moves) => {
            100_000
                - moves
                    .parse::<i32>()
                    .ok()
                    .filter(|m| (0..10_000).contains(m))?
        }
        None => {
            let pawns = rest
                .parse::<f64>()
                .ok()
                .filter(|p| p.is_finite() && p.abs() < 10_000.0)?;
            (pawns * 100.0).round() as i32
        }
    };
    Some(if negative { -cp } else { cp })
}

/// Why a game ended, in words: the rules' reason when the final position
/// is over with the recorded result (`checkmate`, `counting draw`); else
/// the `[Termination]` tag and the reason written after the last move
/// (`time forfeit: Black (fsf) ran out of time`); else `not given`.
pub fn ending_reason(game: &Game) -> String {
    let played = replay(game);
    if let Some(state) = &played.state
        && played.decided_result() == Some(game.result)
    {
        return state.reason.name().replace('_', " ");
    }
    let last = game
        .moves
        .nodes
        .last()
        .map_or(&game.moves.comments, |n| &n.comments);
    let said = last
        .iter()
        .rev()
        .find(|c| MoveNote::parse(c).is_none() && c.as_str() != "book");
    match (game.tags.get("Termination"), said) {
        (Some(t), Some(s)) => format!("{t}: {s}"),
        (Some(t), None) => t.to_string(),
        (None, Some(s)) => s.clone(),
        (None, None) => "not given".to_string(),
    }
}

/// One side's moves in one band of move numbers.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Band {
    /// Moves with a time.
    pub moves: u64,
    /// Their time in all.
    pub seconds: f64,
    /// Moves with a depth.
    pub depths: u64,
    /// Their depths in all.
    pub depth_sum: u64,
}

impl Band {
    /// The mean time a move, if any move had one.
    pub fn mean_seconds(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.seconds / self.moves as f64)
    }

    /// The mean depth, if any move had one.
    pub fn mean_depth(&self) -> Option<f64> {
        (self.depths > 0).then(|| self.depth_sum as f64 / self.depths as f64)
    }
}

/// How some of the player's games ended: one result, one reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndingCount {
    /// The player's score in half points: 2 won, 1 drawn, 0 lost.
    pub points2: u8,
    /// [`ending_reason`].
    pub reason: String,
    /// Games with the player as White.
    pub as_white: u64,
    /// Games with the player as Black.
    pub as_black: u64,
}

impl EndingCount {
    /// Games in all.
    pub fn games(&self) -> u64 {
        self.as_white + self.as_black
    }
}

/// One player's games, added one at a time ([`Report::add`]).
#[derive(Clone, Debug)]
pub struct Report {
    /// The player, as the `[White]` and `[Black]` tags name it.
    pub player: String,
    /// Its opponents, in the order first met.
    pub opponents: Vec<String>,
    /// All its finished games, with the pairs whose two rounds are both in.
    pub tally: Tally,
    /// Its finished games as White (index 0) and as Black (index 1).
    pub by_colour: [Tally; 2],
    /// How they ended, most games first within each result, wins first.
    endings: Vec<EndingCount>,
    /// Draws in which the player (index 0) or its opponent (index 1) had
    /// scored [`LEAD_CP`] or more.
    pub drawn_from_lead: [u64; 2],
    /// The player's moves (index 0) and its opponents' (index 1) by the
    /// bands of [`BANDS`].
    pub time: [[Band; BANDS.len()]; 2],
    /// Games the player did not play.
    pub without_player: u64,
    /// The player's games without a result (`*`).
    pub unfinished: u64,
    /// Rounds (by source and pair) with one game counted so far: its points.
    half_pairs: HashMap<(usize, u64), u8>,
}

impl Report {
    /// An empty report for `player`.
    pub fn new(player: &str) -> Report {
        Report {
            player: player.to_string(),
            opponents: Vec::new(),
            tally: Tally::default(),
            by_colour: [Tally::default(); 2],
            endings: Vec::new(),
            drawn_from_lead: [0; 2],
            time: [[Band::default(); BANDS.len()]; 2],
            without_player: 0,
            unfinished: 0,
            half_pairs: HashMap::new(),
        }
    }

    /// The games added: finished, unfinished and without the player.
    pub fn games(&self) -> u64 {
        self.tally.games() + self.unfinished + self.without_player
    }

    /// How the games ended: wins, then draws, then losses, each reason
    /// with the most games first.
    pub fn endings(&self) -> Vec<EndingCount> {
        let mut out = self.endings.clone();
        out.sort_by(|a, b| {
            b.points2
                .cmp(&a.points2)
                .then(b.games().cmp(&a.games()))
                .then(a.reason.cmp(&b.reason))
        });
        out
    }

    /// Adds one game; `source` tells files apart (rounds pair only within
    /// one source).
    pub fn add(&mut self, game: &Game, source: usize) {
        let white = game.tags.get("White").unwrap_or("?");
        let black = game.tags.get("Black").unwrap_or("?");
        let player_white = if white == self.player {
            true
        } else if black == self.player {
            false
        } else {
            self.without_player += 1;
            return;
        };
        let Some(points2) = first_points2(game.result, player_white) else {
            self.unfinished += 1;
            return;
        };
        let opponent = if player_white { black } else { white };
        if !self.opponents.iter().any(|o| o == opponent) {
            self.opponents.push(opponent.to_string());
        }
        self.tally.add_game(points2);
        self.by_colour[usize::from(!player_white)].add_game(points2);
        self.add_pair(game, source, points2);
        self.add_ending(points2, ending_reason(game), player_white);
        self.add_moves(game, player_white, points2 == 1);
    }

    fn add_pair(&mut self, game: &Game, source: usize, points2: u8) {
        let Some(round) = game
            .tags
            .get("Round")
            .and_then(|r| r.parse::<u64>().ok())
            .filter(|&r| r > 0)
        else {
            return;
        };
        let key = (source, (round - 1) / 2);
        match self.half_pairs.remove(&key) {
            Some(first) => self.tally.add_pair(first + points2),
            None => {
                self.half_pairs.insert(key, points2);
            }
        }
    }

    fn add_ending(&mut self, points2: u8, reason: String, player_white: bool) {
        let at = match self
            .endings
            .iter()
            .position(|e| e.points2 == points2 && e.reason == reason)
        {
            Some(at) => at,
            None => {
                self.endings.push(EndingCount {
                    points2,
                    reason,
                    as_white: 0,
                    as_black: 0,
                });
                self.endings.len() - 1
            }
        };
        let e = &mut self.endings[at];
        if player_white {
            e.as_white += 1;
        } else {
            e.as_black += 1;
        }
    }

    fn add_moves(&mut self, game: &Game, player_white: bool, drawn: bool) {
        let first_white = game.start.turn() == Color::White;
        let first_number = game.start.fullmove();
        let mut led = [false; 2];
        for (i, node) in game.moves.nodes.iter().enumerate() {
            let Some(note) = node.comments.iter().find_map(|c| MoveNote::parse(c)) else {
                continue;
            };
            let mover_white = (i % 2 == 0) == first_white;
            let side = usize::from(mover_white != player_white);
            let number = first_number.saturating_add(((i + usize::from(!first_white)) / 2) as u32);
            let band = BANDS.iter().rposition(|&b| number >= b).unwrap_or(0);
            let b = &mut self.time[side][band];
            b.moves += 1;
            b.seconds += note.seconds;
            if let Some(d) = note.depth {
                b.depths += 1;
                b.depth_sum += u64::from(d);
            }
            led[side] |= note.score.is_some_and(|s| s >= LEAD_CP);
        }
        if drawn {
            for (count, led) in self.drawn_from_lead.iter_mut().zip(led) {
                *count += u64::from(led);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::{AnyGame, AnyPosition, GameKind};
    use records::{GameResult, Node};

    /// A game from `fen` with `moves` in engine notation, each with its
    /// comment (empty: none), then `result`, `termination` and `reason`.
    fn game(
        players: (&str, &str),
        round: u32,
        fen: &str,
        moves: &[(&str, &str)],
        result: GameResult,
        termination: Option<&str>,
        reason: Option<&str>,
    ) -> Game {
        let start = AnyPosition::from_fen(GameKind::MAKRUK, fen).unwrap();
        let mut referee = AnyGame::from_position(start.clone());
        let mut g = Game::new(start);
        g.tags.set("White", players.0);
        g.tags.set("Black", players.1);
        g.tags.set("Round", &round.to_string());
        for (mv, comment) in moves {
            let mut node = Node::new(referee.play_engine(mv).unwrap());
            if !comment.is_empty() {
                node.comments.push(comment.to_string());
            }
            g.moves.nodes.push(node);
        }
        if let Some(t) = termination {
            g.tags.set("Termination", t);
        }
        if let Some(r) = reason {
            match g.moves.nodes.last_mut() {
                Some(n) => n.comments.push(r.to_string()),
                None => g.moves.comments.push(r.to_string()),
            }
        }
        g.set_result(result);
        // What a file gives back, as `pgn stats` reads it.
        records::read_one(&records::game_to_string(&g, &Default::default())).unwrap()
    }

    const MATE: &str = "7k/8/6K1/8/8/8/8/R7 w - - 0 30";

    #[test]
    fn move_notes_read_as_the_arena_and_cutechess_write_them() {
        let n = MoveNote::parse("+0.92/12 0.32s").unwrap();
        assert_eq!((n.score, n.depth, n.seconds), (Some(92), Some(12), 0.32));
        let n = MoveNote::parse("-M11/30 0.05s").unwrap();
        assert_eq!(n.score, Some(-99_989));
        assert_eq!(MoveNote::parse("+M3 1.00s").unwrap().score, Some(99_997));
        let n = MoveNote::parse("0.41s").unwrap();
        assert_eq!((n.score, n.depth), (None, None));
        for not_a_note in [
            "book",
            "White mates",
            "Draw by the counting rules",
            "+0.92/x 0.3s",
            "0.3",
            "NaNs",
            "-1s",
            "+1e9/3 0.1s",
            "",
        ] {
            assert_eq!(MoveNote::parse(not_a_note), None, "{not_a_note:?}");
        }
    }

    #[test]
    fn the_rules_name_a_mate_and_the_tags_what_they_cannot_see() {
        let mate = game(
            ("a", "b"),
            1,
            MATE,
            &[("a1a8", "+M1/3 0.10s")],
            GameResult::WhiteWins,
            Some("normal"),
            Some("White mates"),
        );
        assert_eq!(ending_reason(&mate), "checkmate");
        let flag = game(
            ("a", "b"),
            2,
            MATE,
            &[("a1a2", "+9.00/20 0.50s")],
            GameResult::WhiteWins,
            Some("time forfeit"),
            Some("Black (b) ran out of time"),
        );
        assert_eq!(
            ending_reason(&flag),
            "time forfeit: Black (b) ran out of time"
        );
        // A result the final position does not give: the record's word.
        let resigned = game(
            ("a", "b"),
            3,
            MATE,
            &[("a1a2", "+9.00/20 0.50s")],
            GameResult::WhiteWins,
            None,
            None,
        );
        assert_eq!(ending_reason(&resigned), "not given");
    }

    #[test]
    fn a_report_counts_results_pairs_endings_and_time_from_the_players_side() {
        let mut r = Report::new("us");
        // Round 1: we mate as White. Round 2, the same opening reversed:
        // they flag as White while we lead, a draw by its reason.
        r.add(
            &game(
                ("us", "them"),
                1,
                MATE,
                &[("a1a8", "+M1/3 0.10s")],
                GameResult::WhiteWins,
                Some("normal"),
                Some("White mates"),
            ),
            0,
        );
        r.add(
            &game(
                ("them", "us"),
                2,
                "7k/8/6K1/8/8/8/8/R7 b - - 0 5",
                &[
                    ("h8g8", "+2.50/14 0.20s"),
                    ("a1a2", "-0.50/10 0.30s"),
                    ("g8h8", "+3.00/16 0.40s"),
                ],
                GameResult::Draw,
                Some("time forfeit"),
                Some("White (them) ran out of time, but Black has only the khun"),
            ),
            0,
        );
        // Not ours, and one without a result.
        r.add(
            &game(("x", "y"), 3, MATE, &[], GameResult::Draw, None, None),
            0,
        );
        r.add(
            &game(
                ("us", "them"),
                3,
                MATE,
                &[],
                GameResult::Unknown,
                None,
                None,
            ),
            0,
        );
        assert_eq!(r.opponents, ["them"]);
        assert_eq!((r.tally.wins, r.tally.losses, r.tally.draws), (1, 0, 1));
        assert_eq!(r.tally.penta, [0, 0, 0, 1, 0], "one pair of 1½ points");
        assert_eq!(r.by_colour[0].wins, 1);
        assert_eq!(r.by_colour[1].draws, 1);
        assert_eq!((r.without_player, r.unfinished), (1, 1));
        assert_eq!(
            r.endings(),
            [
                EndingCount {
                    points2: 2,
                    reason: "checkmate".into(),
                    as_white: 1,
                    as_black: 0
                },
                EndingCount {
                    points2: 1,
                    reason: "time forfeit: White (them) ran out of time, but Black has only \
                             the khun"
                        .into(),
                    as_white: 0,
                    as_black: 1
                },
            ]
        );
        // We led by 2.50 and 3.00 in the draw; they never did.
        assert_eq!(r.drawn_from_lead, [1, 0]);
        // Move 30 (round 1) is in the band from 21; Black's moves 5 and 6
        // of round 2 and White's move 6 in the first band.
        let ours = &r.time[0];
        assert_eq!(ours[2].moves, 1);
        assert_eq!(ours[0].moves, 2);
        assert!((ours[0].mean_seconds().unwrap() - 0.30).abs() < 1e-9);
        assert_eq!(ours[0].mean_depth(), Some(15.0));
        assert_eq!(r.time[1][0].moves, 1);
        assert_eq!(r.time[1][0].mean_depth(), Some(10.0));
        assert_eq!(r.time[1][2], Band::default());
    }

    #[test]
    fn rounds_pair_only_within_one_source() {
        let mut r = Report::new("us");
        for source in 0..2 {
            r.add(
                &game(
                    ("us", "them"),
                    1 + source as u32,
                    MATE,
                    &[],
                    GameResult::Draw,
                    None,
                    None,
                ),
                source,
            );
        }
        assert_eq!(r.tally.draws, 2);
        assert_eq!(r.tally.pairs(), 0);
    }
}
