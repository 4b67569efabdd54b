//! The opening explorer: for a position, every move played from it with
//! its results and average rating, filtered by speed and rating band, over
//! the server's rated games (`db=site`) or an engine database of imported
//! records (`db=engine`, from `thaiboard explorer import`).
//!
//! - [`model`]: the pure part (position keys, bands, filters, the answer).
//! - [`store`]: its SQL. The index is a table of per-position move counts,
//!   so a query reads a few rows of one position, never the games.
//! - The indexer (here) adds each rated game as it finishes, and at start
//!   every finished rated game not yet in (so a crash loses nothing, and an
//!   upgraded server indexes its old games). Each game goes in once, whichever
//!   server process gets to it first.
//! - [`import`]: records into the engine database, and the index measured;
//!   [`command`] is `thaiboard explorer`.
//! - [`routes`]: `GET /api/explorer`.

pub mod command;
pub mod import;
pub mod model;
pub mod routes;
pub mod store;

pub use routes::routes;

use crate::game::Games;
use crate::infra::error::ApiResult;
use crate::ratings::Speed;
use games::AnyPosition;
use model::{Source, Winner};
use std::sync::Arc;
use store::GameEntry;

/// Games read per round of the start-up sweep.
const SWEEP_BATCH: i64 = 200;

/// Subscribes the indexer to game ends: a finished rated game of this
/// process goes into the index in the background.
pub fn subscribe(games: &Arc<Games>) {
    let service = Arc::downgrade(games);
    games.subscribe(Box::new(move |event| {
        if event.remote || !event.ended() || !event.game.rated {
            return;
        }
        let Some(games) = service.upgrade() else {
            return;
        };
        let id = event.game.id.clone();
        tokio::spawn(async move {
            if let Err(e) = index_game(&games, &id).await {
                eprintln!("thaiboard-server: explorer: game {id}: {}", e.message);
            }
        });
    }));
}

/// Starts the sweep that adds every finished rated game not yet in the
/// index (in the background; it ends when none is left).
pub fn start_sweep(games: &Arc<Games>) {
    let games = Arc::downgrade(games);
    tokio::spawn(async move {
        loop {
            let Some(service) = games.upgrade() else {
                return;
            };
            let ids = match store::unindexed_games(service.db(), SWEEP_BATCH).await {
                Ok(ids) => ids,
                Err(e) => {
                    eprintln!("thaiboard-server: explorer sweep: {e}");
                    return;
                }
            };
            for id in &ids {
                if let Err(e) = index_game(&service, id).await {
                    eprintln!("thaiboard-server: explorer: game {id}: {}", e.message);
                    // A game that cannot be read is left out, not retried forever.
                    return;
                }
            }
            if (ids.len() as i64) < SWEEP_BATCH {
                return;
            }
        }
    });
}

/// Adds one finished rated game of the server to the index (nothing if it
/// is there already, unrated, unfinished or from another start).
pub async fn index_game(games: &Arc<Games>, id: &str) -> ApiResult<bool> {
    let game = crate::game::store::load(games.db(), id).await?;
    let Some(winner) = game.outcome().map(|o| match o.winner {
        Some(games::Color::White) => Winner::White,
        Some(games::Color::Black) => Winner::Black,
        None => Winner::Draw,
    }) else {
        return Ok(false);
    };
    let start = AnyPosition::start(game.kind);
    let Some(speed) = Speed::of(&game.tc) else {
        return Ok(false);
    };
    if !game.rated {
        return Ok(false);
    }
    let average_rating = match &game.ratings {
        [Some(w), Some(b)] => Some((w.rating + b.rating) / 2),
        _ => None,
    };
    let entry = GameEntry {
        id: game.id.clone(),
        source: Source::Site,
        speed: speed.name(),
        average_rating,
        winner,
        listed: true,
        moves: model::indexed_moves(&start, game.rules.moves()),
    };
    Ok(store::add_game(games.db(), &entry, games.time.now_ms()).await?)
}
