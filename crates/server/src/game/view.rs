//! What clients see of a game: the [`GameView`] of the API and sockets, the
//! [`GameSummary`] of game lists, and the update message watchers get.

use super::model::{Action, Game, Status, ThaiText};
use crate::account::auth::User;
use crate::game::clock::TimeControl;
use crate::ratings::ShownRating;
use games::{AnyMove, AnyPosition, Color, CountView, GameKind};
use serde::Serialize;

/// Player information in views.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct PlayerView {
    /// User id.
    pub id: String,
    /// Name.
    pub username: String,
    /// The rating in the game's pool when the game started (none for the
    /// computer and guests).
    pub rating: Option<ShownRating>,
    /// What the game changed, once a rated game ended.
    pub rating_diff: Option<i32>,
}

impl From<&User> for PlayerView {
    fn from(u: &User) -> PlayerView {
        PlayerView {
            id: u.id.clone(),
            username: u.username.clone(),
            rating: None,
            rating_diff: None,
        }
    }
}

/// Clock information in views. A client shows `white_ms`/`black_ms` minus
/// the time passed since `server_now` for the running side.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ClockView {
    /// White's time left at `server_now`, ms.
    pub white_ms: i64,
    /// Black's time left at `server_now`, ms.
    pub black_ms: i64,
    /// The side whose clock runs, if any.
    pub running: Option<Color>,
    /// The server's time of this reading, ms since the epoch.
    pub server_now: i64,
    /// When the clock stands still for leave from `server_now` on (the
    /// current pause and those booked), in time order: a client's running
    /// clock does not tick inside them.
    pub pauses: Vec<PauseView>,
}

/// A stretch of time in which a clock stands still, ms since the epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct PauseView {
    /// It begins.
    pub from: i64,
    /// The clock runs again.
    pub until: i64,
}

/// A player's leave taken in a game, shown in its overview after the move
/// it followed (SchemingMind's "leave taken").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct LeaveView {
    /// Whose leave.
    pub side: Color,
    /// It began (or begins), ms since the epoch.
    pub from: i64,
    /// It ended (or ends).
    pub until: i64,
    /// Moves made when it began: it is shown after that move.
    pub ply: u32,
    /// Its first day, `YYYY-MM-DD`, in the player's time zone.
    pub first_day: String,
    /// Its last day (inclusive), in the player's time zone.
    pub last_day: String,
    /// Days from the first to the last, both counted.
    pub days: i64,
}

/// A legal move, in the forms the clients need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct LegalMove {
    /// Engine form, the move's identity: `e3e4`, `c5c6m`, Mak-hot `c3e5c7`.
    pub uci: String,
    /// Display form: Makruk SAN `Me2`, Mak-hot `c3xe5xc7`.
    pub san: String,
    /// Squares the piece passes through: start, every landing square, end.
    pub path: Vec<String>,
    /// Thai notation, both forms.
    pub thai: ThaiText,
}

impl LegalMove {
    /// The client forms of `mv`, a legal move in `pos`.
    pub fn of(pos: &AnyPosition, mv: &AnyMove) -> LegalMove {
        LegalMove {
            uci: mv.to_engine(),
            san: pos.display_move(mv),
            path: mv.path(),
            thai: ThaiText::of(pos, mv),
        }
    }

    /// Every legal move of `pos`, in these forms.
    pub fn all(pos: &AnyPosition) -> Vec<LegalMove> {
        pos.legal_moves()
            .iter()
            .map(|m| LegalMove::of(pos, m))
            .collect()
    }
}

/// A game as the API shows it.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct GameView {
    /// Id.
    pub id: String,
    /// Which game (the typed form of `variant` and `rules`).
    #[serde(skip)]
    pub kind: GameKind,
    /// Variant name.
    #[ts(type = "'makruk' | 'cambodian' | 'makhos'")]
    pub variant: &'static str,
    /// Rule option.
    #[ts(type = "'default' | 'no-reverse'")]
    pub rules: &'static str,
    /// Stage.
    pub status: Status,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// The rating pool's key (`makruk/blitz`), for games with a clock.
    pub pool: Option<String>,
    /// The challenger.
    pub creator: PlayerView,
    /// Colour asked for by the challenger.
    pub creator_color: String,
    /// White player.
    pub white: Option<PlayerView>,
    /// Black player.
    pub black: Option<PlayerView>,
    /// Time control.
    pub time_control: TimeControl,
    /// Clocks.
    pub clock: ClockView,
    /// Moves made.
    pub ply: u32,
    /// Side to move.
    pub turn: Color,
    /// Current position.
    pub fen: String,
    /// Legal moves of the side to move (empty unless ongoing).
    pub legal: Vec<LegalMove>,
    /// Result once finished.
    #[ts(type = "'1-0' | '0-1' | '1/2-1/2' | null")]
    pub result: Option<&'static str>,
    /// Reason of the result (an [`games::EndReason`] name, or `aborted`).
    pub reason: Option<&'static str>,
    /// Side offering a draw.
    pub draw_offer: Option<Color>,
    /// Side proposing a takeback (casual games).
    pub takeback_offer: Option<Color>,
    /// Side offering a rematch, once the game is over.
    pub rematch_offer: Option<Color>,
    /// The rematch's id, once it started.
    pub rematch: Option<String>,
    /// The running Makruk count.
    pub count: Option<CountView>,
    /// Sides that may start a board's-honour count now.
    pub can_start_count: Vec<Color>,
    /// Sides that may stop the running board's-honour count now.
    pub can_stop_count: Vec<Color>,
    /// The start position.
    pub start_fen: String,
    /// Every action (only in full views).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub actions: Option<Vec<Action>>,
    /// Leave taken (or booked) by the players in this game, in time order.
    pub leave: Vec<LeaveView>,
    /// Whether spectators read the players' comments (see [`Game::is_public`]).
    pub public: bool,
    /// The players who marked the game public.
    pub public_marks: Vec<Color>,
    /// Change counter, increases with every change.
    pub version: i64,
}

impl GameView {
    /// The player of `side`, once the game started.
    pub fn player(&self, side: Color) -> Option<&PlayerView> {
        match side {
            Color::White => self.white.as_ref(),
            Color::Black => self.black.as_ref(),
        }
    }
}

impl Game {
    /// The player of `side` with their rating.
    fn player_view(&self, side: Color) -> Option<PlayerView> {
        let i = usize::from(side == Color::Black);
        self.player(side).map(|u| PlayerView {
            rating: self.ratings[i],
            rating_diff: self.rating_diffs.map(|d| if i == 0 { d.0 } else { d.1 }),
            ..PlayerView::from(u)
        })
    }

    /// The players' leave that falls in this game, each placed after the
    /// move it followed.
    fn leave_views(&self) -> Vec<LeaveView> {
        let ended = if self.status.is_over() {
            self.turn_since
        } else {
            i64::MAX
        };
        let moves: Vec<i64> = super::takeback::effective(&self.actions)
            .iter()
            .filter(|a| a.kind == super::model::ActionKind::Move)
            .map(|a| a.at)
            .collect();
        let mut out: Vec<LeaveView> = Color::BOTH
            .into_iter()
            .flat_map(|side| {
                self.leave[usize::from(side == Color::Black)]
                    .iter()
                    .filter(|p| p.end > self.created_at && p.start < ended)
                    .map(move |p| (side, *p))
            })
            .map(|(side, p)| {
                let days = crate::leave::leave_days(
                    &p,
                    &self.leave_zones[usize::from(side == Color::Black)],
                );
                LeaveView {
                    side,
                    from: p.start,
                    until: p.end,
                    ply: moves.iter().filter(|at| **at <= p.start).count() as u32,
                    first_day: days.first_day,
                    last_day: days.last_day,
                    days: days.days,
                }
            })
            .collect();
        out.sort_by_key(|l| (l.from, l.side == Color::Black));
        out
    }

    /// The view of this game at `now`; `full` includes every action.
    pub fn view(&self, full: bool, now: i64) -> GameView {
        let ongoing = self.status == Status::Ongoing;
        let pos = self.rules.position();
        GameView {
            id: self.id.clone(),
            kind: self.kind,
            variant: self.kind.variant_name(),
            rules: self.kind.rules_name(),
            status: self.status,
            rated: self.rated,
            pool: self.pool.map(|p| p.to_string()),
            creator: PlayerView::from(&self.creator),
            creator_color: self.creator_color.clone(),
            white: self.player_view(Color::White),
            black: self.player_view(Color::Black),
            time_control: self.tc,
            clock: ClockView {
                white_ms: self.time_left(Color::White, now).max(0),
                black_ms: self.time_left(Color::Black, now).max(0),
                running: self.clock_running().then(|| self.turn()),
                server_now: now,
                pauses: self
                    .pauses()
                    .periods()
                    .iter()
                    .filter(|p| p.end > now)
                    .map(|p| PauseView {
                        from: p.start,
                        until: p.end,
                    })
                    .collect(),
            },
            ply: self.ply(),
            turn: self.turn(),
            fen: pos.fen(),
            legal: if ongoing {
                LegalMove::all(&pos)
            } else {
                Vec::new()
            },
            result: self.outcome().map(|o| o.result()),
            reason: self.reason(),
            draw_offer: self.draw_offer,
            takeback_offer: self.takeback_offer,
            rematch_offer: self.rematch_offer,
            rematch: self.rematch_id.clone(),
            count: self.rules.count(),
            can_start_count: Color::BOTH
                .into_iter()
                .filter(|s| ongoing && self.rules.can_start_count(*s))
                .collect(),
            can_stop_count: Color::BOTH
                .into_iter()
                .filter(|s| ongoing && self.rules.can_stop_count(*s))
                .collect(),
            start_fen: self.start_fen(),
            // The game as it stands: moves taken back are left out.
            actions: full.then(|| super::takeback::effective(&self.actions)),
            leave: self.leave_views(),
            public: self.is_public(),
            public_marks: Color::BOTH
                .into_iter()
                .filter(|s| self.public_marks[usize::from(*s == Color::Black)])
                .collect(),
            version: self.version,
        }
    }
}

/// Entry in the game list of a user.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct GameSummary {
    /// Id.
    pub id: String,
    /// Variant name.
    pub variant: String,
    /// Rule option.
    pub rules: String,
    /// Stage.
    pub status: String,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// White's name.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// White's rating when the game started.
    pub white_rating: Option<ShownRating>,
    /// Black's rating when the game started.
    pub black_rating: Option<ShownRating>,
    /// What a rated game changed for White, once over.
    pub white_rating_diff: Option<i32>,
    /// What a rated game changed for Black, once over.
    pub black_rating_diff: Option<i32>,
    /// Challenger's name.
    pub creator: String,
    /// The challenger's rating in the game's pool now.
    pub creator_rating: Option<ShownRating>,
    /// Colour asked by the challenger.
    pub creator_color: String,
    /// Time control kind.
    pub tc_kind: String,
    /// Initial time, ms.
    pub tc_initial_ms: i64,
    /// Increment, ms.
    pub tc_increment_ms: i64,
    /// Moves made.
    pub ply: i64,
    /// Result.
    pub result: Option<String>,
    /// Reason of the result.
    pub reason: Option<String>,
    /// Whether it is the asking user's move.
    pub your_move: bool,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// The tournament the game belongs to, if any: id.
    pub tournament_id: Option<String>,
    /// The tournament's name.
    pub tournament_name: Option<String>,
    /// The position the game starts from, when it is not its game's
    /// standard start (a position set up in the board editor).
    pub start_fen: Option<String>,
}

/// The message watchers get after a change, encoded straight from the view.
#[derive(Serialize)]
pub struct Update<'a> {
    /// Always `update`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The game after the change (without its actions).
    pub game: &'a GameView,
    /// The action the change recorded, if any.
    pub action: Option<&'a Action>,
}
