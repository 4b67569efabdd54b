//! The JSON shapes of lichess's Bot API, made from our [`GameView`]: the
//! game stream's `gameFull` and `gameState`, the event stream's `gameStart`,
//! `gameFinish` and challenge events. Players' `id`s are their lower-cased
//! names, as on lichess. Pure functions: the callers look up which players
//! are bots.

use crate::game::clock::{TcKind, TimeControl};
use crate::game::{ActionKind, GameView, PlayerView, Status};
use games::{Color, GameKind};
use serde_json::{Value, json};

/// What lichess sends for the clock of a game without one (`2^31 - 1` ms).
pub const NO_CLOCK_MS: i64 = 2_147_483_647;

/// A player as lichess shows one: `id` (the lower-cased name), `name`,
/// `title` (`BOT` for bot accounts).
pub fn player(p: &PlayerView, bot: bool) -> Value {
    json!({
        "id": p.username.to_lowercase(),
        "name": p.username,
        "username": p.username,
        "title": if bot { Some("BOT") } else { None },
        "provisional": true,
        "online": true,
    })
}

/// The variant object: `key` as pychess spells it, and a display name.
pub fn variant(kind: GameKind) -> Value {
    let (name, short) = match kind {
        GameKind::Makruk(makruk::Variant::Makruk) => ("Makruk", "Makruk"),
        GameKind::Makruk(_) => ("Ouk Chatrang", "Ouk"),
        GameKind::Makhos(makhos::Rules::NoReverse) => ("Mak-hot (no reverse)", "Mak-hot"),
        GameKind::Makhos(_) => ("Mak-hot", "Mak-hot"),
    };
    json!({ "key": kind.variant_name(), "name": name, "short": short })
}

/// lichess's speed band of a time control (estimated game time
/// `limit + 40 × increment`); games without a clock count as correspondence.
pub fn speed(tc: &TimeControl) -> &'static str {
    if tc.kind != TcKind::Live {
        return "correspondence";
    }
    let estimate_s = (tc.initial_ms + 40 * tc.increment_ms) / 1000;
    match estimate_s {
        ..30 => "ultraBullet",
        30..180 => "bullet",
        180..480 => "blitz",
        480..1500 => "rapid",
        _ => "classical",
    }
}

/// lichess's name of a game's status: `created`, `started`, `mate`,
/// `resign`, `draw`, `outoftime`, `aborted`, `variantEnd`...
pub fn status(view: &GameView) -> &'static str {
    match view.status {
        Status::Open => "created",
        Status::Ongoing => "started",
        Status::Aborted | Status::Cancelled => "aborted",
        Status::Finished => match view.reason.unwrap_or("") {
            "checkmate" => "mate",
            "stalemate" => "stalemate",
            "resignation" => "resign",
            "timeout" | "timeout_draw" => "outoftime",
            "no_moves" | "all_captured" => "variantEnd",
            _ => "draw",
        },
    }
}

/// The winner's colour name, if the game has one.
pub fn winner(view: &GameView) -> Option<&'static str> {
    match view.result? {
        "1-0" => Some("white"),
        "0-1" => Some("black"),
        _ => None,
    }
}

fn clock_ms(view: &GameView) -> (i64, i64, i64) {
    if view.time_control.kind == TcKind::None {
        (NO_CLOCK_MS, NO_CLOCK_MS, 0)
    } else {
        let inc = view.time_control.increment_ms;
        (view.clock.white_ms, view.clock.black_ms, inc)
    }
}

/// The moves of a full view in engine form (Makruk UCI, Mak-hot `c3e5c7`),
/// space-separated; counts are not moves.
pub fn moves(view: &GameView) -> String {
    let actions = view.actions.as_deref().unwrap_or_default();
    let ucis: Vec<&str> = actions
        .iter()
        .filter(|a| a.kind == ActionKind::Move)
        .map(|a| a.uci.as_str())
        .collect();
    ucis.join(" ")
}

/// `gameState` of a full view.
pub fn game_state(view: &GameView) -> Value {
    let (wtime, btime, inc) = clock_ms(view);
    let mut state = json!({
        "type": "gameState",
        "moves": moves(view),
        "wtime": wtime,
        "btime": btime,
        "winc": inc,
        "binc": inc,
        "status": status(view),
        "wdraw": view.draw_offer == Some(Color::White),
        "bdraw": view.draw_offer == Some(Color::Black),
        "wtakeback": view.takeback_offer == Some(Color::White),
        "btakeback": view.takeback_offer == Some(Color::Black),
    });
    if let Some(w) = winner(view) {
        state["winner"] = json!(w);
    }
    state
}

/// `clock` of `gameFull`, `timeControl` of a challenge.
fn time_control(tc: &TimeControl) -> (Value, Value) {
    match tc.kind {
        TcKind::Live => {
            let (limit, inc) = (tc.initial_ms / 1000, tc.increment_ms / 1000);
            (
                json!({ "initial": tc.initial_ms, "increment": tc.increment_ms }),
                json!({ "type": "clock", "limit": limit, "increment": inc, "show": format!("{}+{inc}", limit / 60) }),
            )
        }
        TcKind::Correspondence => (
            Value::Null,
            json!({ "type": "correspondence", "daysPerTurn": (tc.increment_ms / 86_400_000).max(1) }),
        ),
        TcKind::None => (Value::Null, json!({ "type": "unlimited" })),
    }
}

/// `initialFen`: `startpos` for the game's standard start, else the position.
fn initial_fen(view: &GameView) -> String {
    if view.start_fen == view.kind.start_fen() {
        "startpos".into()
    } else {
        view.start_fen.clone()
    }
}

/// `gameFull` of a full view; `bots` says which of White and Black are bots.
pub fn game_full(view: &GameView, bots: (bool, bool), created_at: i64) -> Value {
    let side = |p: Option<&PlayerView>, bot| p.map(|p| player(p, bot)).unwrap_or(Value::Null);
    let (clock, _) = time_control(&view.time_control);
    json!({
        "type": "gameFull",
        "id": view.id,
        "variant": variant(view.kind),
        "clock": clock,
        "speed": speed(&view.time_control),
        "perf": { "name": speed(&view.time_control) },
        "rated": view.rated,
        "createdAt": created_at,
        "white": side(view.white.as_ref(), bots.0),
        "black": side(view.black.as_ref(), bots.1),
        "initialFen": initial_fen(view),
        "state": game_state(view),
    })
}

/// The `game` of `gameStart` and `gameFinish` events, as `side` sees it.
pub fn event_game(view: &GameView, side: Color, opponent_bot: bool) -> Value {
    let opponent = view.player(side.other());
    let (wtime, btime, _) = clock_ms(view);
    let left = if side == Color::White { wtime } else { btime };
    let last_move = view
        .actions
        .as_ref()
        .and_then(|a| a.iter().rev().find(|a| a.kind == ActionKind::Move))
        .map(|a| a.uci.clone())
        .unwrap_or_default();
    let mut game = json!({
        "id": view.id,
        "gameId": view.id,
        "fullId": view.id,
        "color": side.name(),
        "fen": view.fen,
        "hasMoved": view.ply > u32::from(side == Color::Black),
        "isMyTurn": view.status == Status::Ongoing && view.turn == side,
        "lastMove": last_move,
        "opponent": {
            "id": opponent.map(|p| p.username.to_lowercase()),
            "username": opponent.map(|p| p.username.clone()),
            "title": if opponent_bot { Some("BOT") } else { None },
        },
        "perf": speed(&view.time_control),
        "rated": view.rated,
        "secondsLeft": left / 1000,
        "source": "friend",
        "status": { "name": status(view) },
        "speed": speed(&view.time_control),
        "variant": variant(view.kind),
        "compat": { "bot": true, "board": true },
    });
    if let Some(w) = winner(view) {
        game["winner"] = json!(w);
    }
    game
}

/// A challenge (an open game inviting `dest`), lichess's shape; `bots`
/// says whether the challenger and the invited player are bots.
pub fn challenge(view: &GameView, dest: &PlayerView, bots: (bool, bool), status: &str) -> Value {
    let (_, tc) = time_control(&view.time_control);
    json!({
        "id": view.id,
        "url": format!("/games/{}", view.id),
        "status": status,
        "challenger": player(&view.creator, bots.0),
        "destUser": player(dest, bots.1),
        "variant": variant(view.kind),
        "rated": view.rated,
        "speed": speed(&view.time_control),
        "timeControl": tc,
        "color": view.creator_color,
        "perf": { "name": speed(&view.time_control) },
    })
}
