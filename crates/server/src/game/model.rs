//! The game model: a game as kept in memory, and the pure step that applies
//! a player's command to it. [`apply`] and [`flag`] take the game and the
//! time and return a [`Change`] (the new fields, rules state and recorded
//! action) without touching it: the service saves the change, then applies
//! it with [`Game::apply_change`] and publishes it. Nothing here does I/O.

use crate::account::auth::User;
use crate::game::clock::TimeControl;
use crate::infra::error::{ApiError, ApiResult};
use crate::leave::model::{LeaveRule, Pauses, Period};
use crate::ratings::store::RatingDiffs;
use crate::ratings::{Pool, ShownRating};
use games::{AnyGame, Color, GameKind, Outcome};
use serde::Serialize;

/// Life stage of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A challenge waiting for an opponent.
    Open,
    /// Being played.
    Ongoing,
    /// Over, with a result.
    Finished,
    /// A challenge withdrawn before anyone accepted.
    Cancelled,
    /// A game called off by a player before both sides moved (no result).
    Aborted,
}

impl Status {
    /// The name stored in the database and sent by the API.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Ongoing => "ongoing",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
            Status::Aborted => "aborted",
        }
    }

    /// Reads a stored name (anything unknown reads as cancelled: no play).
    pub fn parse(text: &str) -> Status {
        match text {
            "open" => Status::Open,
            "ongoing" => Status::Ongoing,
            "finished" => Status::Finished,
            "aborted" => Status::Aborted,
            _ => Status::Cancelled,
        }
    }

    /// Whether the game has ended, with or without a result.
    pub const fn is_over(self) -> bool {
        matches!(self, Status::Finished | Status::Aborted | Status::Cancelled)
    }
}

/// The reason stored for an aborted game (it has no [`Outcome`]).
pub const ABORTED: &str = "aborted";

/// What an action records.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// A move.
    Move,
    /// A board's-honour count declared (Makruk).
    CountStart,
    /// A board's-honour count stopped by its side (Makruk).
    CountStop,
    /// Moves taken back by agreement (`uci`: how many); the moves it undoes
    /// stay in the log but leave the game (see [`super::takeback`]).
    Takeback,
    /// A player of an arena game went berserk (`uci`: the side): half the
    /// clock, no increment, an extra arena point for a win.
    Berserk,
}

impl ActionKind {
    /// The name stored in the database and sent by the API.
    pub const fn name(self) -> &'static str {
        match self {
            ActionKind::Move => "move",
            ActionKind::CountStart => "count_start",
            ActionKind::CountStop => "count_stop",
            ActionKind::Takeback => "takeback",
            ActionKind::Berserk => "berserk",
        }
    }

    /// Reads a stored name.
    pub fn parse(text: &str) -> Option<ActionKind> {
        match text {
            "move" => Some(ActionKind::Move),
            "count_start" => Some(ActionKind::CountStart),
            "count_stop" => Some(ActionKind::CountStop),
            "takeback" => Some(ActionKind::Takeback),
            "berserk" => Some(ActionKind::Berserk),
            _ => None,
        }
    }
}

/// One recorded action: a move or a board's-honour count start/stop.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct Action {
    /// Position in the game's action log, from 1.
    pub seq: u32,
    /// What it records.
    pub kind: ActionKind,
    /// The move in engine form; for counts, the side (`white`/`black`).
    pub uci: String,
    /// The move for display (SAN, `c3xe5xc7`), or the count's description.
    pub san: String,
    /// The move in Thai notation (none for counts).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thai: Option<ThaiText>,
    /// The position after it.
    pub fen: String,
    /// White's clock after it, ms.
    pub white_ms: i64,
    /// Black's clock after it, ms.
    pub black_ms: i64,
    /// When it happened, ms since the epoch.
    pub at: i64,
}

/// A move in Thai notation, in both of Fairy-Stockfish's forms (Mak-hot:
/// its own form with Thai squares, the same in both), written by the rules
/// crates so that clients have no second implementation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ThaiText {
    /// The short form (`จ๔`, `ม-ง๗`, `คจ-ง๔`).
    pub short: String,
    /// The long form, the book form (`บ จ๓-จ๔`); never ambiguous.
    pub long: String,
}

impl ThaiText {
    /// The Thai forms of `mv`, a legal move in `pos`.
    pub fn of(pos: &games::AnyPosition, mv: &games::AnyMove) -> ThaiText {
        let forms = pos.thai_forms(mv);
        ThaiText {
            short: forms.short,
            long: forms.long,
        }
    }
}

impl Action {
    /// For count actions: the side that started or stopped the count
    /// (recorded in `uci`).
    pub fn side(&self) -> Color {
        Color::parse(&self.uci).unwrap_or(Color::White)
    }

    /// Replays this action on `rules` (when a game is loaded).
    pub fn replay(&self, rules: &mut AnyGame) -> Result<(), games::GameError> {
        match self.kind {
            ActionKind::Move => rules.play_engine(&self.uci).map(|_| ()),
            ActionKind::CountStart => rules.start_count(self.side()),
            ActionKind::CountStop => rules.stop_count(self.side()),
            // Taken into account before replaying (see `takeback::effective`).
            ActionKind::Takeback => Ok(()),
            // A clock matter: the rules state does not change.
            ActionKind::Berserk => Ok(()),
        }
    }
}

/// A request to act in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play a move, typed in any accepted notation. `ply`, when given, must
    /// equal the number of moves made so far (guards against stale boards).
    Move {
        /// The move text.
        text: String,
        /// Expected number of moves so far.
        ply: Option<u32>,
    },
    /// Resign.
    Resign,
    /// Offer a draw (or accept a standing offer of the opponent).
    DrawOffer,
    /// Accept the opponent's draw offer.
    DrawAccept,
    /// Decline the opponent's draw offer.
    DrawDecline,
    /// Start a board's-honour count (Makruk).
    CountStart,
    /// Stop the board's-honour count (Makruk).
    CountStop,
    /// Call the game off before both sides moved: no result.
    Abort,
    /// The server calls a game off for a player who did not make a first
    /// move in time (tournament games, which players cannot abort).
    AbortAbsent,
    /// Claim the win (or draw) because the opponent's time ran out.
    ClaimTimeout,
    /// Propose taking back the last move (casual games), or agree to the
    /// opponent's standing proposal.
    TakebackOffer,
    /// Agree to the opponent's takeback proposal.
    TakebackAccept,
    /// Refuse it.
    TakebackDecline,
    /// Go berserk (arena games, before one's first move): half one's own
    /// initial time and no increment, for an extra arena point on a win.
    Berserk,
}

impl Command {
    /// The command an API action names: `draw` with `offer`, `accept` or
    /// `decline`; `count` with `start` or `stop`.
    pub fn from_action(kind: &str, action: &str) -> ApiResult<Command> {
        match (kind, action) {
            ("draw", "offer") => Ok(Command::DrawOffer),
            ("draw", "accept") => Ok(Command::DrawAccept),
            ("draw", "decline") => Ok(Command::DrawDecline),
            ("count", "start") => Ok(Command::CountStart),
            ("count", "stop") => Ok(Command::CountStop),
            ("takeback", "offer") => Ok(Command::TakebackOffer),
            ("takeback", "accept") => Ok(Command::TakebackAccept),
            ("takeback", "decline") => Ok(Command::TakebackDecline),
            ("takeback", _) => Err(ApiError::bad_request(
                "invalid_action",
                "takeback action must be offer, accept or decline",
            )),
            ("draw", _) => Err(ApiError::bad_request(
                "invalid_action",
                "draw action must be offer, accept or decline",
            )),
            _ => Err(ApiError::bad_request(
                "invalid_action",
                "count action must be start or stop",
            )),
        }
    }
}

/// Longest move text a command may carry.
pub const MAX_MOVE_TEXT: usize = 64;

/// A game with its rules state, as kept in memory.
pub struct Game {
    /// Id.
    pub id: String,
    /// Which game, under which rules.
    pub kind: GameKind,
    /// Stage.
    pub status: Status,
    /// Who made the challenge.
    pub creator: User,
    /// The colour the creator asked for: `white`, `black` or `random`.
    pub creator_color: String,
    /// The only user who may accept, for a direct challenge.
    pub opponent_id: Option<String>,
    /// White, once the game started.
    pub white: Option<User>,
    /// Black, once the game started.
    pub black: Option<User>,
    /// Time control.
    pub tc: TimeControl,
    /// White's clock at `turn_since`, ms.
    pub white_ms: i64,
    /// Black's clock at `turn_since`, ms.
    pub black_ms: i64,
    /// When the side to move started thinking, ms since the epoch.
    pub turn_since: i64,
    /// Bumped by every change; guards concurrent writers.
    pub version: i64,
    /// The side offering a draw.
    pub draw_offer: Option<Color>,
    /// The side proposing a takeback.
    pub takeback_offer: Option<Color>,
    /// Created, ms since the epoch.
    pub created_at: i64,
    /// The tournament the game belongs to, if any (its players cannot abort it).
    pub tournament_id: Option<String>,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// Its rating pool (games with a clock have one, rated or not).
    pub pool: Option<Pool>,
    /// The players' ratings when the game started, White's then Black's
    /// (none for the computer and guests).
    pub ratings: [Option<ShownRating>; 2],
    /// What a rated game changed, once it ended (White's, Black's).
    pub rating_diffs: Option<RatingDiffs>,
    /// The side offering a rematch, once the game is over.
    pub rematch_offer: Option<Color>,
    /// The rematch, once accepted.
    pub rematch_id: Option<String>,
    /// Which players marked the game public (White's, Black's).
    pub public_marks: [bool; 2],
    /// Its tournament makes its games public.
    pub tournament_public: bool,
    /// Its tournament is an arena (its players may go berserk).
    pub tournament_arena: bool,
    /// Its tournament's rule on leave, and when the tournament began
    /// (outside tournaments: allowed).
    pub leave_rule: (LeaveRule, i64),
    /// Each player's leave that stops this game's clock, White's then
    /// Black's, cut to the tournament's rule (correspondence games only;
    /// set by [`Game::set_leave`]).
    pub leave: [Vec<Period>; 2],
    /// The players' time zones (White's, Black's), in which their leave's
    /// days are shown (set with the leave).
    pub leave_zones: [jiff::tz::TimeZone; 2],
    /// The rules state: the moves, the position and, once finished, the
    /// outcome (the rules crates end games, whoever asks).
    pub rules: AnyGame,
    /// Every action so far.
    pub actions: Vec<Action>,
}

impl Game {
    /// Moves made so far.
    pub fn ply(&self) -> u32 {
        self.rules.ply()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.rules.turn()
    }

    /// How the game ended, once finished.
    pub fn outcome(&self) -> Option<Outcome> {
        self.rules.outcome()
    }

    /// The stored reason: the outcome's, or [`ABORTED`].
    pub fn reason(&self) -> Option<&'static str> {
        match self.status {
            Status::Aborted => Some(ABORTED),
            _ => self.outcome().map(|o| o.reason.name()),
        }
    }

    /// The start position.
    pub fn start_fen(&self) -> String {
        self.rules.start_position().fen()
    }

    /// Its set-up start position (FEN), `None` when it began at the
    /// standard start.
    pub fn set_up_start(&self) -> Option<String> {
        let start = self.rules.start_position();
        (!start.is_standard_start()).then(|| start.fen())
    }

    /// The side `user_id` plays, if a player.
    pub fn side_of(&self, user_id: &str) -> Option<Color> {
        if self.white.as_ref().is_some_and(|u| u.id == user_id) {
            Some(Color::White)
        } else if self.black.as_ref().is_some_and(|u| u.id == user_id) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The player of `side`, once the game started.
    pub fn player(&self, side: Color) -> Option<&User> {
        match side {
            Color::White => self.white.as_ref(),
            Color::Black => self.black.as_ref(),
        }
    }

    /// Whether `side` went berserk (see [`Command::Berserk`]).
    pub fn berserked(&self, side: Color) -> bool {
        self.actions
            .iter()
            .any(|a| a.kind == ActionKind::Berserk && a.side() == side)
    }

    /// `side`'s clock after its move left it `left` ms: the time control's
    /// increment and cap, and no increment once that side went berserk.
    pub fn clock_after_move(&self, side: Color, left: i64) -> i64 {
        if self.berserked(side) {
            left
        } else {
            self.tc.after_move(left)
        }
    }

    /// Whether the side to move's clock runs.
    pub fn clock_running(&self) -> bool {
        self.status == Status::Ongoing && self.tc.runs_at(self.ply())
    }

    /// `side`'s clock as stored at `turn_since`.
    pub fn stored_ms(&self, side: Color) -> i64 {
        match side {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        }
    }

    /// Time left for `side` at `now`: the clock stands still while either
    /// player is on leave (see [`crate::leave`]).
    pub fn time_left(&self, side: Color, now: i64) -> i64 {
        let stored = self.stored_ms(side);
        if self.clock_running() && side == self.turn() {
            stored - self.pauses().running_between(self.turn_since, now)
        } else {
            stored
        }
    }

    /// When the side to move runs out of time, if its clock runs: pushed
    /// back by every pause for leave that begins before it.
    pub fn deadline(&self) -> Option<i64> {
        self.clock_running().then(|| {
            self.pauses()
                .deadline(self.turn_since, self.stored_ms(self.turn()))
        })
    }

    /// When the clock stands still: the union of the players' `leave`.
    pub fn pauses(&self) -> Pauses {
        Pauses::new(self.leave.concat())
    }

    /// Whether spectators read the players' comments: both players marked
    /// the game public, or its tournament makes its games public.
    pub fn is_public(&self) -> bool {
        self.tournament_public || self.public_marks == [true, true]
    }

    /// Takes the players' leave (White's, Black's): in correspondence games
    /// the periods the tournament's rule lets stop the clock become pauses;
    /// other games' clocks never stop for leave.
    pub fn set_leave(&mut self, white: &[Period], black: &[Period]) {
        if self.tc.kind != crate::game::clock::TcKind::Correspondence {
            self.leave = [Vec::new(), Vec::new()];
        } else {
            let (rule, since) = self.leave_rule;
            self.leave = [rule.apply(white, since), rule.apply(black, since)];
        }
    }

    /// Takes a saved change: the new fields, rules state and action, and the
    /// next version.
    pub fn apply_change(&mut self, change: Change) {
        let Change {
            fields,
            rules,
            action,
        } = change;
        self.status = fields.status;
        self.white_ms = fields.white_ms;
        self.black_ms = fields.black_ms;
        self.turn_since = fields.turn_since;
        self.draw_offer = fields.draw_offer;
        self.takeback_offer = fields.takeback_offer;
        if let Some(rules) = rules {
            self.rules = rules;
        }
        if let Some(action) = action {
            self.actions.push(action);
        }
        self.version += 1;
    }
}

/// The stored fields of a game after a change.
#[derive(Clone, Debug)]
pub struct Fields {
    /// Stage.
    pub status: Status,
    /// White's clock, ms.
    pub white_ms: i64,
    /// Black's clock, ms.
    pub black_ms: i64,
    /// When the side to move started thinking.
    pub turn_since: i64,
    /// The side offering a draw.
    pub draw_offer: Option<Color>,
    /// The side proposing a takeback.
    pub takeback_offer: Option<Color>,
}

impl Fields {
    pub(super) fn of(g: &Game) -> Fields {
        Fields {
            status: g.status,
            white_ms: g.white_ms,
            black_ms: g.black_ms,
            turn_since: g.turn_since,
            draw_offer: g.draw_offer,
            takeback_offer: g.takeback_offer,
        }
    }

    pub(super) fn set_ms(&mut self, side: Color, ms: i64) {
        match side {
            Color::White => self.white_ms = ms,
            Color::Black => self.black_ms = ms,
        }
    }

    /// Stops the clock of the side to move at `now` (the game ends or
    /// pauses without a move).
    pub(super) fn freeze(&mut self, g: &Game, now: i64) {
        let side = g.turn();
        self.set_ms(side, g.time_left(side, now).max(0));
        self.turn_since = now;
    }
}

/// What a command changes, before it is saved.
pub struct Change {
    /// The game's new stored fields.
    pub fields: Fields,
    /// The new rules state, when the rules moved on (a move, a count, an end).
    pub rules: Option<AnyGame>,
    /// The action to record, if any.
    pub action: Option<Action>,
}

impl Change {
    /// The rules state after the change.
    pub fn rules_after<'a>(&'a self, g: &'a Game) -> &'a AnyGame {
        self.rules.as_ref().unwrap_or(&g.rules)
    }

    /// The position after the change.
    pub fn fen_after(&self, g: &Game) -> String {
        match &self.action {
            Some(a) => a.fen.clone(),
            None => self.rules_after(g).fen(),
        }
    }
}

/// A finished rules state: the fields with the game over, the clocks frozen.
fn finished(
    g: &Game,
    now: i64,
    end: impl FnOnce(&mut AnyGame) -> Result<(), games::GameError>,
) -> ApiResult<Change> {
    let mut rules = g.rules.clone();
    end(&mut rules).map_err(|e| ApiError::conflict("game_over", e.to_string()))?;
    let mut fields = Fields::of(g);
    fields.freeze(g, now);
    fields.status = Status::Finished;
    fields.draw_offer = None;
    fields.takeback_offer = None;
    Ok(Change {
        fields,
        rules: Some(rules),
        action: None,
    })
}

/// Whether a command's side may act at all: a player of an ongoing game.
pub fn check_may_act(g: &Game, user_id: &str) -> ApiResult<Color> {
    let side = g.side_of(user_id).ok_or_else(|| {
        ApiError::forbidden(
            "not_a_player",
            "only the two players can act in this game; others may watch",
        )
    })?;
    if g.status != Status::Ongoing {
        return Err(ApiError::conflict(
            "game_over",
            format!("the game is {}", g.status.name()),
        ));
    }
    Ok(side)
}

/// The side to move's time ran out at `now` (the caller checked the
/// deadline): a loss, or a draw when the opponent could not have won.
pub fn flag(g: &Game, now: i64) -> ApiResult<Change> {
    let loser = g.turn();
    let mut change = finished(g, now, |r| r.time_out(loser))?;
    change.fields.set_ms(loser, 0);
    Ok(change)
}

/// Applies `cmd` by `side` to `g` at `now` (not a claim: see [`flag`]).
/// The game is untouched; the error says why the command is refused.
pub fn apply(g: &Game, side: Color, cmd: &Command, now: i64) -> ApiResult<Change> {
    match cmd {
        Command::Move { text, ply } => play_move(g, side, text, *ply, now),
        Command::Abort | Command::AbortAbsent => {
            if matches!(cmd, Command::Abort) && g.tournament_id.is_some() {
                return Err(ApiError::conflict(
                    "tournament_game",
                    "a tournament game cannot be aborted: offer a draw or resign",
                ));
            }
            if g.ply() >= 2 {
                return Err(ApiError::conflict(
                    "too_late_to_abort",
                    "both sides have moved: resign or offer a draw instead",
                ));
            }
            let mut fields = Fields::of(g);
            fields.freeze(g, now);
            fields.status = Status::Aborted;
            fields.draw_offer = None;
            fields.takeback_offer = None;
            Ok(Change {
                fields,
                rules: None,
                action: None,
            })
        }
        Command::ClaimTimeout => Err(ApiError::internal("a claim reached the move path")),
        Command::TakebackOffer | Command::TakebackAccept | Command::TakebackDecline => Err(
            ApiError::internal("a takeback reached the move path (see takeback::apply)"),
        ),
        Command::Resign => finished(g, now, |r| r.resign(side)),
        Command::DrawOffer | Command::DrawAccept if g.draw_offer == Some(side.other()) => {
            finished(g, now, |r| r.agree_draw())
        }
        Command::DrawAccept => Err(ApiError::conflict(
            "no_draw_offer",
            "your opponent has not offered a draw",
        )),
        Command::DrawOffer => {
            if g.draw_offer == Some(side) {
                return Err(ApiError::conflict(
                    "already_offered",
                    "you have already offered a draw",
                ));
            }
            let mut fields = Fields::of(g);
            fields.draw_offer = Some(side);
            Ok(Change {
                fields,
                rules: None,
                action: None,
            })
        }
        Command::DrawDecline => {
            if g.draw_offer != Some(side.other()) {
                return Err(ApiError::conflict(
                    "no_draw_offer",
                    "your opponent has not offered a draw",
                ));
            }
            let mut fields = Fields::of(g);
            fields.draw_offer = None;
            Ok(Change {
                fields,
                rules: None,
                action: None,
            })
        }
        Command::CountStart | Command::CountStop => {
            count(g, side, matches!(cmd, Command::CountStart), now)
        }
        Command::Berserk => Err(ApiError::internal(
            "a berserk reached the move path (see berserk::apply)",
        )),
    }
}

fn play_move(g: &Game, side: Color, text: &str, ply: Option<u32>, now: i64) -> ApiResult<Change> {
    if side != g.turn() {
        return Err(ApiError::conflict("not_your_turn", "it is not your turn"));
    }
    if let Some(ply) = ply
        && ply != g.ply()
    {
        return Err(ApiError::conflict(
            "wrong_ply",
            format!(
                "the move was made on an old board: the game is at ply {}, not {ply}",
                g.ply()
            ),
        ));
    }
    if text.len() > MAX_MOVE_TEXT {
        return Err(ApiError::bad_request("invalid_move", "move text too long"));
    }
    let mv = g
        .rules
        .parse_text(text)
        .map_err(|e| ApiError::illegal_move(e.to_string()))?;
    let san = g.rules.display_move(&mv);
    let thai = ThaiText::of(&g.rules.position(), &mv);
    let mut rules = g.rules.clone();
    rules
        .play(&mv)
        .map_err(|e| ApiError::illegal_move(e.to_string()))?;
    let mut fields = Fields::of(g);
    if g.tc.runs_at(g.ply()) {
        fields.set_ms(side, g.clock_after_move(side, g.time_left(side, now)));
    }
    fields.turn_since = now;
    if fields.draw_offer == Some(side.other()) {
        fields.draw_offer = None; // moving declines the opponent's offer
    }
    // A move ends any takeback proposal: the position it was about is gone.
    fields.takeback_offer = None;
    if rules.outcome().is_some() {
        fields.status = Status::Finished;
        fields.draw_offer = None;
    }
    let action = Action {
        seq: g.actions.len() as u32 + 1,
        kind: ActionKind::Move,
        uci: mv.to_engine(),
        san,
        thai: Some(thai),
        fen: rules.fen(),
        white_ms: fields.white_ms,
        black_ms: fields.black_ms,
        at: now,
    };
    Ok(Change {
        fields,
        rules: Some(rules),
        action: Some(action),
    })
}

fn count(g: &Game, side: Color, start: bool, now: i64) -> ApiResult<Change> {
    let allowed = if start {
        g.rules.can_start_count(side)
    } else {
        g.rules.can_stop_count(side)
    };
    if !allowed {
        return Err(ApiError::conflict(
            "count_not_allowed",
            if start {
                "you may not start a board's-honour count now"
            } else {
                "you may not stop the count now"
            },
        ));
    }
    let mut rules = g.rules.clone();
    if start {
        rules.start_count(side)
    } else {
        rules.stop_count(side)
    }
    .map_err(|e| ApiError::conflict("count_not_allowed", e.to_string()))?;
    let action = Action {
        seq: g.actions.len() as u32 + 1,
        kind: if start {
            ActionKind::CountStart
        } else {
            ActionKind::CountStop
        },
        uci: side.name().into(),
        san: format!(
            "{} {} counting",
            side.name(),
            if start { "starts" } else { "stops" }
        ),
        thai: None,
        fen: rules.fen(),
        white_ms: g.time_left(Color::White, now),
        black_ms: g.time_left(Color::Black, now),
        at: now,
    };
    Ok(Change {
        fields: Fields::of(g),
        rules: Some(rules),
        action: Some(action),
    })
}
