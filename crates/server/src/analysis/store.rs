//! Every SQL statement of analysis, with bound parameters (SQLite and
//! PostgreSQL alike): the stored engine reviews of games.

use crate::infra::db::Db;
use sqlx::Row;

/// One stored position of a game's review.
pub struct StoredAnalysis {
    /// The ply it follows.
    pub ply: i64,
    /// The score in centipawns, unless a mate was found.
    pub cp: Option<i64>,
    /// Moves to mate (negative: being mated).
    pub mate: Option<i64>,
    /// The best move (UCI).
    pub best: String,
    /// The principal variation (UCI, space separated).
    pub pv: String,
    /// The search's depth.
    pub depth: i64,
}

/// A game's stored review, by ply.
pub async fn review(db: &Db, game_id: &str) -> Result<Vec<StoredAnalysis>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT ply, score_cp, mate, best, pv, depth FROM game_analysis WHERE game_id = $1 ORDER BY ply",
    )
    .bind(game_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(StoredAnalysis {
                ply: row.try_get(0)?,
                cp: row.try_get(1)?,
                mate: row.try_get(2)?,
                best: row.try_get(3)?,
                pv: row.try_get(4)?,
                depth: row.try_get(5)?,
            })
        })
        .collect()
}

/// Stores one position of a game's review (kept if already there).
pub async fn save_review_position(
    db: &Db,
    game_id: &str,
    a: &StoredAnalysis,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO game_analysis (game_id, ply, score_cp, mate, best, pv, depth) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game_id, ply) DO NOTHING",
    )
    .bind(game_id)
    .bind(a.ply)
    .bind(a.cp)
    .bind(a.mate)
    .bind(&a.best)
    .bind(&a.pv)
    .bind(a.depth)
    .execute(&db.pool)
    .await?;
    Ok(())
}
