//! Checking a request to create a tournament.

use super::store::Kind;
use crate::game::clock::{TcKind, TimeControl, TimeControlRequest};
use crate::infra::error::{ApiError, ApiResult};
use crate::leave::model::LeaveRule;
use games::GameKind;
use serde::Deserialize;

/// Longest tournament name, in characters.
pub const MAX_NAME_CHARS: usize = 60;
/// Most swiss rounds.
pub const MAX_SWISS_ROUNDS: i64 = 20;
/// Most players of a round-robin.
pub const MAX_ROUND_ROBIN_PLAYERS: i64 = 32;
/// Most players of a swiss or an arena.
pub const MAX_PLAYERS: i64 = 256;
/// Shortest arena, minutes.
pub const MIN_ARENA_MINUTES: f64 = 0.05;
/// Longest arena, minutes.
pub const MAX_ARENA_MINUTES: f64 = 24.0 * 60.0;
/// Furthest start time of an arena, ms from now.
pub const MAX_START_DELAY_MS: i64 = 30 * 86_400_000;

/// `POST /api/tournaments` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// Name, 3 to 60 characters.
    pub name: String,
    /// `makruk`, `cambodian` or `makhos`.
    pub variant: String,
    /// Rule option (Mak-hot: `default` or `no-reverse`).
    #[serde(default)]
    pub rules: Option<String>,
    /// `round_robin`, `swiss` or `arena`.
    pub kind: String,
    /// Correspondence for round-robin and swiss, live for arena (defaults:
    /// 3 days + 1 day per move; 3 minutes + 2 seconds).
    #[serde(default)]
    pub time_control: Option<TimeControlRequest>,
    /// Swiss: the number of rounds (1 to 20).
    #[serde(default)]
    pub rounds: Option<i64>,
    /// Round-robin: play everyone twice, colours reversed.
    #[serde(default)]
    pub double: Option<bool>,
    /// Arena: minutes of play.
    #[serde(default)]
    pub duration_minutes: Option<f64>,
    /// Most players (round-robin 2 to 32, default 16; others 2 to 256,
    /// default 64 and 256).
    #[serde(default)]
    pub max_players: Option<i64>,
    /// Arena: when it starts by itself, ms since the epoch (optional; the
    /// creator may also start it).
    #[serde(default)]
    pub starts_at: Option<i64>,
    /// Correspondence tournaments: `allowed` (default), `forbidden` or
    /// `capped`: whether players' leave stops its clocks.
    #[serde(default)]
    pub leave: Option<String>,
    /// With `capped`: the most days of each player's leave that stop its
    /// clocks (1 to 366).
    #[serde(default)]
    pub leave_cap_days: Option<i64>,
    /// Its games are public: spectators read the players' comments.
    #[serde(default)]
    pub public_games: Option<bool>,
}

fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::bad_request(code, message)
}

/// A checked creation request.
pub(crate) struct Checked {
    pub(crate) name: String,
    pub(crate) kind: Kind,
    pub(crate) game: GameKind,
    pub(crate) tc: TimeControl,
    pub(crate) rounds: i64,
    pub(crate) duration_ms: i64,
    pub(crate) max_players: i64,
    pub(crate) starts_at: Option<i64>,
    pub(crate) leave: LeaveRule,
    pub(crate) public_games: bool,
}

/// Most days a capped tournament lets a player's leave stop its clocks.
pub const MAX_LEAVE_CAP_DAYS: i64 = 366;

/// The rule on leave a request asks for.
fn check_leave(req: &CreateTournament, kind: Kind) -> ApiResult<LeaveRule> {
    let rule = match req.leave.as_deref() {
        None | Some("allowed") => LeaveRule::Allowed,
        Some("forbidden") => LeaveRule::Forbidden,
        Some("capped") => match req.leave_cap_days {
            Some(d) if (1..=MAX_LEAVE_CAP_DAYS).contains(&d) => LeaveRule::Capped(d),
            other => {
                return Err(bad(
                    "invalid_leave",
                    format!(
                        "capped leave needs leave_cap_days from 1 to {MAX_LEAVE_CAP_DAYS}, not {}",
                        other.map_or("none".to_string(), |d| d.to_string())
                    ),
                ));
            }
        },
        Some(other) => {
            return Err(bad(
                "invalid_leave",
                format!("unknown leave rule {other:?}: use allowed, forbidden or capped"),
            ));
        }
    };
    if req.leave_cap_days.is_some() && !matches!(rule, LeaveRule::Capped(_)) {
        return Err(bad(
            "invalid_leave",
            "leave_cap_days goes with leave: capped",
        ));
    }
    if kind == Kind::Arena && req.leave.is_some() {
        return Err(bad(
            "invalid_leave",
            "an arena is played live: leave is for correspondence tournaments",
        ));
    }
    Ok(rule)
}

/// Checks every field of a creation request.
pub(crate) fn check_create(req: &CreateTournament, now: i64) -> ApiResult<Checked> {
    let name = req.name.trim().to_string();
    let chars = name.chars().count();
    if !(3..=MAX_NAME_CHARS).contains(&chars) || name.chars().any(char::is_control) {
        return Err(bad(
            "invalid_name",
            format!("a tournament name has 3 to {MAX_NAME_CHARS} printable characters"),
        ));
    }
    crate::infra::text::refuse_invisible("tournament name", &name)?;
    let kind = Kind::parse(&req.kind).ok_or_else(|| {
        bad(
            "invalid_kind",
            format!(
                "unknown kind {:?}: use round_robin, swiss or arena",
                req.kind
            ),
        )
    })?;
    let game = crate::game::kind_of(&req.variant, req.rules.as_deref())?;
    let wanted = if kind == Kind::Arena {
        TcKind::Live
    } else {
        TcKind::Correspondence
    };
    let mut tc_req = req.time_control.clone().unwrap_or_default();
    if tc_req.kind.is_none() {
        tc_req.kind = Some(wanted);
        if wanted == TcKind::Live && tc_req.minutes.is_none() {
            tc_req.minutes = Some(3.0);
            tc_req.increment = tc_req.increment.or(Some(2.0));
        }
    }
    if tc_req.kind != Some(wanted) {
        return Err(bad(
            "invalid_time_control",
            if kind == Kind::Arena {
                "an arena is played with a live clock (time_control kind live)"
            } else {
                "round-robin and swiss tournaments are played by correspondence (time_control kind correspondence)"
            },
        ));
    }
    let tc = tc_req.resolve()?;
    let rounds = match (kind, req.rounds) {
        (Kind::Swiss, Some(r)) if (1..=MAX_SWISS_ROUNDS).contains(&r) => r,
        (Kind::Swiss, _) => {
            return Err(bad(
                "invalid_rounds",
                format!("a swiss tournament needs rounds: 1 to {MAX_SWISS_ROUNDS}"),
            ));
        }
        (_, Some(_)) => {
            return Err(bad(
                "invalid_rounds",
                "rounds is for swiss tournaments (a round-robin has double: true|false)",
            ));
        }
        (Kind::RoundRobin, None) => {
            if req.double.unwrap_or(false) {
                2
            } else {
                1
            }
        }
        (Kind::Arena, None) => 0,
    };
    if req.double.is_some() && kind != Kind::RoundRobin {
        return Err(bad(
            "invalid_double",
            "double is for round-robin tournaments",
        ));
    }
    let duration_ms = match (kind, req.duration_minutes) {
        (Kind::Arena, Some(m))
            if m.is_finite() && (MIN_ARENA_MINUTES..=MAX_ARENA_MINUTES).contains(&m) =>
        {
            (m * 60_000.0).round() as i64
        }
        (Kind::Arena, _) => {
            return Err(bad(
                "invalid_duration",
                format!(
                    "an arena needs duration_minutes: {MIN_ARENA_MINUTES} to {MAX_ARENA_MINUTES}"
                ),
            ));
        }
        (_, Some(_)) => {
            return Err(bad("invalid_duration", "duration_minutes is for arenas"));
        }
        (_, None) => 0,
    };
    let (default_max, limit) = match kind {
        Kind::RoundRobin => (16, MAX_ROUND_ROBIN_PLAYERS),
        Kind::Swiss => (64, MAX_PLAYERS),
        Kind::Arena => (MAX_PLAYERS, MAX_PLAYERS),
    };
    let max_players = req.max_players.unwrap_or(default_max);
    if !(2..=limit).contains(&max_players) {
        return Err(bad(
            "invalid_max_players",
            format!("a tournament takes between 2 and {limit} players, not {max_players}"),
        ));
    }
    let starts_at = match (kind, req.starts_at) {
        (Kind::Arena, Some(t)) if t > now && t <= now + MAX_START_DELAY_MS => Some(t),
        (Kind::Arena, Some(_)) => {
            return Err(bad(
                "invalid_start",
                "starts_at must be in the next 30 days (ms since the epoch)",
            ));
        }
        (_, Some(_)) => {
            return Err(bad(
                "invalid_start",
                "starts_at is for arenas; the creator starts other tournaments",
            ));
        }
        (_, None) => None,
    };
    let leave = check_leave(req, kind)?;
    Ok(Checked {
        leave,
        public_games: req.public_games.unwrap_or(false),
        name,
        kind,
        game,
        tc,
        rounds,
        duration_ms,
        max_players,
        starts_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(kind: &str) -> CreateTournament {
        CreateTournament {
            name: "Spring cup".into(),
            variant: "makruk".into(),
            rules: None,
            kind: kind.into(),
            time_control: None,
            rounds: None,
            double: None,
            duration_minutes: None,
            max_players: None,
            starts_at: None,
            leave: None,
            leave_cap_days: None,
            public_games: None,
        }
    }

    #[test]
    fn a_tournament_forbids_or_caps_leave_only_by_correspondence() {
        let mut r = req("round_robin");
        assert!(matches!(
            check_create(&r, 0).unwrap().leave,
            LeaveRule::Allowed
        ));
        r.leave = Some("capped".into());
        r.leave_cap_days = Some(10);
        assert_eq!(check_create(&r, 0).unwrap().leave, LeaveRule::Capped(10));
        r.leave_cap_days = Some(0);
        assert_eq!(
            check_create(&r, 0).err().unwrap().message,
            "capped leave needs leave_cap_days from 1 to 366, not 0"
        );
        r.leave = Some("forbidden".into());
        r.leave_cap_days = None;
        assert_eq!(check_create(&r, 0).unwrap().leave, LeaveRule::Forbidden);
        r.leave = Some("holiday".into());
        assert!(check_create(&r, 0).is_err());
        let mut arena = req("arena");
        arena.duration_minutes = Some(30.0);
        arena.leave = Some("forbidden".into());
        assert_eq!(
            check_create(&arena, 0).err().unwrap().message,
            "an arena is played live: leave is for correspondence tournaments"
        );
    }

    #[test]
    fn creation_requests_are_checked() {
        let now = 1_000_000;
        let ok = check_create(&req("round_robin"), now).unwrap();
        assert_eq!(ok.tc.kind, TcKind::Correspondence);
        assert_eq!((ok.rounds, ok.max_players), (1, 16));
        let code = |r: CreateTournament| check_create(&r, now).err().map(|e| e.code);
        assert_eq!(code(req("knockout")), Some("invalid_kind"));
        assert_eq!(code(req("swiss")), Some("invalid_rounds"));
        assert_eq!(code(req("arena")), Some("invalid_duration"));
        assert_eq!(
            code(CreateTournament {
                name: " x ".into(),
                ..req("round_robin")
            }),
            Some("invalid_name")
        );
        assert_eq!(
            code(CreateTournament {
                variant: "chess".into(),
                ..req("round_robin")
            }),
            Some("invalid_variant")
        );
        assert_eq!(
            code(CreateTournament {
                rules: Some("no-reverse".into()),
                ..req("round_robin")
            }),
            Some("invalid_rules"),
            "no-reverse is a Mak-hot option"
        );
        let makhos = CreateTournament {
            variant: "makhos".into(),
            rules: Some("no-reverse".into()),
            rounds: Some(3),
            ..req("swiss")
        };
        assert_eq!(
            check_create(&makhos, now).unwrap().game.rules_name(),
            "no-reverse"
        );
        let live = TimeControlRequest {
            kind: Some(TcKind::Live),
            minutes: Some(5.0),
            ..Default::default()
        };
        assert_eq!(
            code(CreateTournament {
                time_control: Some(live.clone()),
                ..req("round_robin")
            }),
            Some("invalid_time_control")
        );
        let arena = CreateTournament {
            time_control: Some(live),
            duration_minutes: Some(30.0),
            starts_at: Some(now + 60_000),
            ..req("arena")
        };
        let a = check_create(&arena, now).unwrap();
        assert_eq!(
            (a.duration_ms, a.starts_at),
            (1_800_000, Some(now + 60_000))
        );
        assert_eq!(
            code(CreateTournament {
                starts_at: Some(now - 1),
                ..arena
            }),
            Some("invalid_start")
        );
        assert_eq!(
            code(CreateTournament {
                max_players: Some(33),
                ..req("round_robin")
            }),
            Some("invalid_max_players")
        );
        assert_eq!(
            code(CreateTournament {
                rounds: Some(21),
                ..req("swiss")
            }),
            Some("invalid_rounds")
        );
        assert_eq!(
            code(CreateTournament {
                double: Some(true),
                rounds: Some(2),
                ..req("swiss")
            }),
            Some("invalid_double")
        );
    }
}
