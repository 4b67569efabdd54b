//! What clients see of players: profiles, ratings by pool, rating
//! histories and leaderboard rows (the web board's types are generated
//! from these).

use crate::game::PauseView;
use crate::ratings::ShownRating;
use serde::Serialize;

/// A player's rating in one pool.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct PoolRating {
    /// The pool's key (`makruk/blitz`).
    pub pool: String,
    /// The rating as shown.
    pub rating: ShownRating,
    /// Rated games played in the pool.
    pub games: i32,
}

/// Finished games by result, from the player's side.
#[derive(Debug, Default, Serialize, ts_rs::TS)]
pub struct Results {
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

/// `GET /api/users/{name}`.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Profile {
    /// The name as registered.
    pub username: String,
    /// Registered, ms since the epoch.
    pub created_at: i64,
    /// Ratings in every pool played, most games first.
    pub ratings: Vec<PoolRating>,
    /// Finished games by result.
    pub results: Results,
    /// The leave the player is on now, or has booked next (correspondence
    /// opponents see "on leave until ...").
    pub leave: Option<PauseView>,
    /// The days of that leave, inclusive, in the player's time zone: what
    /// the page shows (as the account page shows the player's own).
    pub leave_days: Option<crate::leave::LeaveDays>,
}

/// One point of a rating history.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct HistoryPoint {
    /// The game.
    pub game_id: String,
    /// When it ended, ms since the epoch.
    pub at: i64,
    /// The rating after it, rounded.
    pub rating: i32,
}

/// One row of a leaderboard.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct LeaderboardRow {
    /// The player.
    pub username: String,
    /// The rating as shown.
    pub rating: ShownRating,
    /// Rated games in the pool.
    pub games: i32,
}
