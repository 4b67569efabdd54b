//! Comments on moves and private notes.
//!
//! A comment belongs to the position after `ply` moves of a game. The
//! players' comments are written by the game's two players and read by
//! both; spectators (guests included) and the game's exported record have
//! them only when the game is public (both players marked it so, or its
//! tournament's games are public), as SchemingMind does. Private notes can
//! be written by any signed-in visitor and are shown only to their author.
//!
//! - [`model`]: who reads and who writes what, and a comment's text, without I/O;
//! - [`store`]: every SQL statement of comments, with bound parameters;
//! - [`routes`]: list, add and delete a game's comments.

pub mod model;
pub mod routes;
pub mod store;

pub use model::{Comment, reads_players_comments};
pub use routes::routes;

use crate::AppState;
use crate::game::GameView;
use crate::infra::error::ApiResult;

/// The comments of a game that `viewer` may see, in ply then time order:
/// the players' comments (see [`reads_players_comments`]) and the viewer's
/// own notes.
pub async fn visible(
    app: &AppState,
    game: &GameView,
    viewer: Option<&str>,
) -> ApiResult<Vec<Comment>> {
    let players = reads_players_comments(game, viewer);
    store::visible(&app.db.pool, &game.id, viewer.unwrap_or(""), players).await
}
