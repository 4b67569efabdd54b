//! Ratings: Glicko-2 (the `skillratings` crate) per pool, a pool being a
//! game (with its rule option) and a speed: lichess's speed bands for live
//! games, and correspondence. Pure computation; the game store applies an
//! update in the transaction that ends a rated game ([`store`]).

pub mod store;

use crate::game::clock::{TcKind, TimeControl};
use games::{Color, GameKind, Outcome};
use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use std::fmt;

/// A rating with a deviation above this is provisional (shown with `?`), as
/// lichess marks it.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// How fast a game is, from its clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// Estimated under 30 s (lichess's "UltraBullet").
    UltraBullet,
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days per move.
    Correspondence,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The speed of a time control; `None` for games without a clock (never
    /// rated). Live games go by lichess's estimate: the initial time plus 40
    /// increments.
    pub fn of(tc: &TimeControl) -> Option<Speed> {
        match tc.kind {
            TcKind::None => None,
            TcKind::Correspondence => Some(Speed::Correspondence),
            TcKind::Live => {
                let estimate_s = (tc.initial_ms + 40 * tc.increment_ms) / 1000;
                Some(match estimate_s {
                    s if s < 30 => Speed::UltraBullet,
                    s if s < 180 => Speed::Bullet,
                    s if s < 480 => Speed::Blitz,
                    s if s < 1500 => Speed::Rapid,
                    _ => Speed::Classical,
                })
            }
        }
    }

    /// The name in pool keys and the API (`blitz`, `correspondence`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultra_bullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

/// A rating pool: one game under one rule option, at one speed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pool {
    /// The game.
    pub kind: GameKind,
    /// The speed.
    pub speed: Speed,
}

impl Pool {
    /// The pool of a game of `kind` with time control `tc`; `None` when such
    /// a game is never rated (no clock).
    pub fn of(kind: GameKind, tc: &TimeControl) -> Option<Pool> {
        Speed::of(tc).map(|speed| Pool { kind, speed })
    }

    /// Every pool.
    #[cfg(test)]
    pub fn all() -> impl Iterator<Item = Pool> {
        GameKind::ALL.into_iter().flat_map(|kind| {
            Speed::ALL
                .into_iter()
                .map(move |speed| Pool { kind, speed })
        })
    }

    /// Reads a key written by [`fmt::Display`].
    pub fn parse(key: &str) -> Option<Pool> {
        let (kind, speed) = key.split_once('/')?;
        let kind = kind.parse::<GameKind>().ok()?;
        let speed = Speed::ALL.into_iter().find(|s| s.name() == speed)?;
        Some(Pool { kind, speed })
    }
}

impl fmt::Display for Pool {
    /// The pool's key in storage and URLs: the game (with a rule option that
    /// is not the default) and the speed, `makruk/blitz`,
    /// `makhos:no-reverse/correspondence`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.kind, self.speed.name())
    }
}

/// A player's rating in a pool.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// Its deviation (350 for a new player).
    pub deviation: f64,
    /// Its volatility (0.06 for a new player).
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        let r = Glicko2Rating::new();
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl Rating {
    /// Whether the rating is still provisional (shown with `?`).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as shown: rounded.
    pub fn shown(&self) -> i32 {
        self.rating.round() as i32
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// The new ratings of White and Black after a game with `outcome`, one
/// Glicko-2 rating period per game (as lichess rates), with the system
/// constant τ = 0.5.
pub fn update(white: Rating, black: Rating, outcome: &Outcome) -> (Rating, Rating) {
    let result = match outcome.winner {
        Some(Color::White) => Outcomes::WIN,
        Some(Color::Black) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    period(white, black, result)
}

/// The new ratings of `a` and `b` after one Glicko-2 period in which `a`
/// beat `b` (`a_won`) or lost to it: a puzzle round, where the solver plays
/// the puzzle, is rated so (as lichess rates puzzles).
pub fn duel(a: Rating, b: Rating, a_won: bool) -> (Rating, Rating) {
    period(a, b, if a_won { Outcomes::WIN } else { Outcomes::LOSS })
}

/// One Glicko-2 period of one result, τ = 0.5.
fn period(a: Rating, b: Rating, result: Outcomes) -> (Rating, Rating) {
    let (a, b) = glicko2(&a.glicko(), &b.glicko(), &result, &Glicko2Config::new());
    (Rating::from_glicko(a), Rating::from_glicko(b))
}

/// A rated game's ratings as a player page and the game page show them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ShownRating {
    /// The rating, rounded.
    pub rating: i32,
    /// Provisional (shown with `?`).
    pub provisional: bool,
}

impl ShownRating {
    /// The shown form of a stored rating and deviation.
    pub fn of(rating: f64, deviation: f64) -> ShownRating {
        Rating {
            rating,
            deviation,
            ..Rating::default()
        }
        .into()
    }
}

impl From<Rating> for ShownRating {
    fn from(r: Rating) -> ShownRating {
        ShownRating {
            rating: r.shown(),
            provisional: r.provisional(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::EndReason;

    fn live(minutes: i64, increment_s: i64) -> TimeControl {
        TimeControl {
            kind: TcKind::Live,
            initial_ms: minutes * 60_000,
            increment_ms: increment_s * 1000,
            max_ms: 0,
        }
    }

    #[test]
    fn speeds_follow_lichess_bands_by_estimated_duration() {
        assert_eq!(Speed::of(&live(0, 0)), Some(Speed::UltraBullet));
        assert_eq!(Speed::of(&live(1, 0)), Some(Speed::Bullet));
        // 2 minutes + 40 × 1 s = 160 s.
        assert_eq!(Speed::of(&live(2, 1)), Some(Speed::Bullet));
        assert_eq!(Speed::of(&live(3, 0)), Some(Speed::Blitz));
        // 5 minutes + 40 × 3 s = 420 s.
        assert_eq!(Speed::of(&live(5, 3)), Some(Speed::Blitz));
        assert_eq!(Speed::of(&live(10, 0)), Some(Speed::Rapid));
        assert_eq!(Speed::of(&live(30, 0)), Some(Speed::Classical));
        let none = TimeControl {
            kind: TcKind::None,
            initial_ms: 0,
            increment_ms: 0,
            max_ms: 0,
        };
        assert_eq!(Speed::of(&none), None);
    }

    #[test]
    fn pool_keys_round_trip() {
        for pool in Pool::all() {
            assert_eq!(Pool::parse(&pool.to_string()), Some(pool));
        }
        assert_eq!(Pool::parse("makruk/blitz").unwrap().kind, GameKind::MAKRUK);
        assert_eq!(Pool::parse("chess/blitz"), None);
        assert_eq!(Pool::parse("makruk/slow"), None);
    }

    #[test]
    fn a_win_moves_ratings_apart_and_new_players_are_provisional() {
        let new = Rating::default();
        assert!(new.provisional());
        let (w, b) = update(new, new, &Outcome::win(Color::White, EndReason::Checkmate));
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 + b.rating - 1500.0).abs() < 1e-6);
        let (w, b) = update(new, new, &Outcome::draw(EndReason::Agreement));
        assert_eq!((w.shown(), b.shown()), (1500, 1500));
        assert!(w.deviation < new.deviation);
    }
}
