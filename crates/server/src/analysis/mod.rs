//! Analysis: engine reviews of finished games ([`review`]), the analysis
//! board's engine ([`live`]) and rules service ([`board_rules`]) and the
//! endgame tables ([`tablebase`]); [`store`] holds their SQL. The moves
//! other games played from a position are the explorer's
//! ([`crate::explorer`]).

pub mod board_rules;
pub mod live;
pub mod review;
pub mod store;
pub mod tablebase;

use crate::AppState;
use axum::Router;

/// The analysis routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .merge(review::routes())
        .merge(board_rules::routes())
        .merge(tablebase::routes())
        .merge(live::routes())
}
