//! A game as a record: PGN (Makruk, Ouk Chatrang) or PDN (Mak-hot), written
//! by the `records` crate from the moves the game holds; and the FEN of any
//! of its positions.

use super::model::{ActionKind, Game};
use crate::game::clock::{TcKind, TimeControl};
use games::{AnyGame, Color};
use records::{GameResult, Node, SquareStyle, WriteOptions};

impl Game {
    /// The game as a record, with `comments` (`(ply, text)`; ply 0 comes
    /// before the first move) in it; `site` is the site's address
    /// (`https://thaiboard.example`), the game's own address is made from it.
    pub fn record(&self, comments: &[(u32, String)], site: &str) -> records::Game {
        let mut record = records::Game::new(self.rules.start_position());
        let name = |side: Color| {
            self.player(side)
                .map_or_else(|| "?".to_string(), |u| u.username.clone())
        };
        record.tags.set("Event", "thaiboard game");
        record.tags.set("Site", &format!("{site}/game/{}", self.id));
        if let Ok(at) = time::OffsetDateTime::from_unix_timestamp(self.created_at / 1000) {
            let (y, m, d) = (at.year(), at.month() as u8, at.day());
            record.tags.set("Date", &format!("{y:04}.{m:02}.{d:02}"));
            let (h, min, sec) = (at.hour(), at.minute(), at.second());
            record
                .tags
                .set("UTCTime", &format!("{h:02}:{min:02}:{sec:02}"));
        }
        record.tags.set("TimeControl", &pgn_time_control(&self.tc));
        record.tags.set("White", &name(Color::White));
        record.tags.set("Black", &name(Color::Black));
        if let Some(reason) = self.reason() {
            record.tags.set("Termination", reason);
        }
        let text_at = |ply: u32| {
            comments
                .iter()
                .filter(move |(p, _)| *p == ply)
                .map(|(_, text)| text.clone())
        };
        record.moves.comments.extend(text_at(0));
        for (i, mv) in self.rules.moves().into_iter().enumerate() {
            let mut node = Node::new(mv);
            node.comments.extend(text_at(i as u32 + 1));
            record.moves.nodes.push(node);
        }
        record.set_result(match self.outcome().map(|o| o.winner) {
            Some(Some(Color::White)) => GameResult::WhiteWins,
            Some(Some(Color::Black)) => GameResult::BlackWins,
            Some(None) => GameResult::Draw,
            None => GameResult::Unknown,
        });
        record
    }

    /// The game as PGN (Makruk) or PDN (Mak-hot, algebraic squares) text.
    pub fn pgn(&self, comments: &[(u32, String)], site: &str) -> String {
        let options = WriteOptions {
            squares: SquareStyle::Algebraic,
            ..WriteOptions::default()
        };
        records::game_to_string(&self.record(comments, site), &options)
    }

    /// The FEN after `ply` moves (the current position without `ply`),
    /// with promoted bias marked `M~` when `promoted_marks` is set. Count
    /// actions made before the next move are part of the position. `None`
    /// when the game has fewer moves.
    pub fn fen_at(&self, ply: Option<u32>, promoted_marks: bool) -> Option<String> {
        let Some(ply) = ply else {
            return Some(self.rules.fen_with_marks(promoted_marks));
        };
        if ply > self.ply() {
            return None;
        }
        let mut rules = AnyGame::from_position_declared(self.rules.start_position());
        let mut moves = 0;
        // The game as its takebacks left it.
        for a in &super::takeback::effective(&self.actions) {
            if a.kind == ActionKind::Move {
                if moves == ply {
                    break;
                }
                moves += 1;
            }
            a.replay(&mut rules).ok()?;
        }
        Some(rules.fen_with_marks(promoted_marks))
    }
}

/// PGN's `TimeControl` tag: `300+5` (seconds and increment) for a live
/// clock, `1/86400` (a move per period, in seconds) for correspondence with
/// days per move, `-` without a clock.
pub fn pgn_time_control(tc: &TimeControl) -> String {
    let secs = |ms: i64| {
        let s = ms as f64 / 1000.0;
        if s.fract() == 0.0 {
            format!("{}", s as i64)
        } else {
            format!("{s}")
        }
    };
    match tc.kind {
        TcKind::Live => format!("{}+{}", secs(tc.initial_ms), secs(tc.increment_ms)),
        TcKind::Correspondence if tc.increment_ms > 0 => format!("1/{}", secs(tc.increment_ms)),
        TcKind::Correspondence | TcKind::None => "-".to_string(),
    }
}
