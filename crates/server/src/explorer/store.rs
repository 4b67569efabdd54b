//! Every SQL statement of the opening explorer (SQLite and PostgreSQL
//! alike): adding a game to the index once, finding the games not yet in
//! it, and reading a position's moves and top games.

use super::model::{IndexedMove, MoveTotals, Source, TOP_GAMES, TopGame, TopPlayer, Winner};
use crate::infra::db::Db;
use sqlx::Row;

/// One game, ready for the index.
#[derive(Clone, Debug)]
pub struct GameEntry {
    /// The server's game id, or `pgn:` and the digest of an imported record.
    pub id: String,
    /// Where it comes from.
    pub source: Source,
    /// Its speed's name ([`crate::ratings::Speed::name`]), or
    /// [`super::model::IMPORTED_SPEED`].
    pub speed: &'static str,
    /// The players' average rating, if both were rated.
    pub average_rating: Option<i32>,
    /// The result.
    pub winner: Winner,
    /// Whether the game is listed among a position's top games (server
    /// games, which have a page).
    pub listed: bool,
    /// The moves that go into the index.
    pub moves: Vec<IndexedMove>,
}

/// Adds a game to the index in one transaction, unless it is there
/// already (another server process or import run got to it first).
/// Returns whether this call added it.
pub async fn add_game(db: &Db, game: &GameEntry, now_ms: i64) -> Result<bool, sqlx::Error> {
    Ok(add_games(db, std::slice::from_ref(game), now_ms).await? == 1)
}

/// Adds games to the index in one transaction (an import's batch), each
/// unless it is there already. Returns how many this call added.
pub async fn add_games(db: &Db, games: &[GameEntry], now_ms: i64) -> Result<usize, sqlx::Error> {
    let mut tx = db.pool.begin().await?;
    let mut added = 0;
    for game in games {
        let claimed = sqlx::query(
            "INSERT INTO explorer_indexed (game_id, indexed_at) VALUES ($1, $2) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(&game.id)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if claimed == 0 {
            continue;
        }
        added += 1;
        let (white, draws, black) = game.winner.counts();
        let rating = game.average_rating.unwrap_or(0);
        let band = super::model::band(rating);
        for mv in &game.moves {
            sqlx::query(
                "INSERT INTO explorer_moves (source, position, speed, band, uci, san, white, draws, black, rating_sum) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                 ON CONFLICT (source, position, speed, band, uci) DO UPDATE SET \
                 white = explorer_moves.white + excluded.white, \
                 draws = explorer_moves.draws + excluded.draws, \
                 black = explorer_moves.black + excluded.black, \
                 rating_sum = explorer_moves.rating_sum + excluded.rating_sum",
            )
            .bind(game.source.name())
            .bind(mv.position)
            .bind(game.speed)
            .bind(band)
            .bind(&mv.uci)
            .bind(&mv.san)
            .bind(white)
            .bind(draws)
            .bind(black)
            .bind(i64::from(rating))
            .execute(&mut *tx)
            .await?;
            if game.listed && game.average_rating.is_some() {
                list_top_game(&mut tx, game, mv, rating).await?;
            }
        }
    }
    tx.commit().await?;
    Ok(added)
}

/// Lists a game among the top games of one position, keeping only the
/// [`TOP_GAMES`] highest-rated there.
async fn list_top_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &GameEntry,
    mv: &IndexedMove,
    rating: i32,
) -> Result<(), sqlx::Error> {
    let source = game.source.name();
    let listed: i64 = sqlx::query(
        "SELECT COUNT(*) FROM explorer_top_games WHERE source = $1 AND position = $2 AND rating >= $3",
    )
    .bind(source)
    .bind(mv.position)
    .bind(rating)
    .fetch_one(&mut **tx)
    .await?
    .try_get(0)?;
    if listed >= TOP_GAMES as i64 {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO explorer_top_games (source, position, game_id, rating, uci) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (source, position, game_id) DO NOTHING",
    )
    .bind(source)
    .bind(mv.position)
    .bind(&game.id)
    .bind(rating)
    .bind(&mv.uci)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "DELETE FROM explorer_top_games WHERE source = $1 AND position = $2 AND game_id NOT IN \
         (SELECT game_id FROM explorer_top_games WHERE source = $1 AND position = $2 \
          ORDER BY rating DESC, game_id LIMIT $3)",
    )
    .bind(source)
    .bind(mv.position)
    .bind(TOP_GAMES as i64)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Finished rated games of the server not yet in the index, oldest first.
pub async fn unindexed_games(db: &Db, limit: i64) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT g.id FROM games g LEFT JOIN explorer_indexed x ON x.game_id = g.id \
         WHERE g.status = 'finished' AND g.rated = 1 AND x.game_id IS NULL \
         ORDER BY g.updated_at, g.id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    rows.iter().map(|r| r.try_get(0)).collect()
}

/// The moves played from `position` in `source`'s games of the given
/// speeds and bands (empty lists: all), summed per move.
pub async fn moves(
    db: &Db,
    source: Source,
    position: i64,
    speeds: &[&'static str],
    bands: &[i32],
) -> Result<Vec<MoveTotals>, sqlx::Error> {
    let mut sql = String::from(
        "SELECT uci, MIN(san), CAST(SUM(white) AS BIGINT), CAST(SUM(draws) AS BIGINT), \
         CAST(SUM(black) AS BIGINT), CAST(SUM(rating_sum) AS BIGINT) \
         FROM explorer_moves WHERE source = $1 AND position = $2",
    );
    let mut next = 3;
    let mut list = |column: &str, n: usize, sql: &mut String| {
        if n > 0 {
            let marks: Vec<String> = (next..next + n).map(|i| format!("${i}")).collect();
            sql.push_str(&format!(" AND {column} IN ({})", marks.join(", ")));
            next += n;
        }
    };
    // Imported games have no speed of the server: the speed filter is for site games.
    let speeds: &[&str] = if source == Source::Site { speeds } else { &[] };
    list("speed", speeds.len(), &mut sql);
    list("band", bands.len(), &mut sql);
    sql.push_str(" GROUP BY uci");
    let mut query = sqlx::query(&sql).bind(source.name()).bind(position);
    for s in speeds {
        query = query.bind(*s);
    }
    for b in bands {
        query = query.bind(*b);
    }
    let rows = query.fetch_all(&db.pool).await?;
    rows.iter()
        .map(|r| {
            Ok(MoveTotals {
                uci: r.try_get(0)?,
                san: r.try_get(1)?,
                white: r.try_get(2)?,
                draws: r.try_get(3)?,
                black: r.try_get(4)?,
                rating_sum: r.try_get(5)?,
            })
        })
        .collect()
}

/// The highest-rated listed games through `position`, with their players.
pub async fn top_games(
    db: &Db,
    source: Source,
    position: i64,
) -> Result<Vec<TopGame>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT t.game_id, t.uci, g.result, wu.username, g.white_rating, bu.username, g.black_rating, g.created_at \
         FROM explorer_top_games t JOIN games g ON g.id = t.game_id \
         LEFT JOIN users wu ON wu.id = g.white_id LEFT JOIN users bu ON bu.id = g.black_id \
         WHERE t.source = $1 AND t.position = $2 ORDER BY t.rating DESC, t.game_id LIMIT $3",
    )
    .bind(source.name())
    .bind(position)
    .bind(TOP_GAMES as i64)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            let result: Option<String> = r.try_get(2)?;
            let created_ms: i64 = r.try_get(7)?;
            let year = time::OffsetDateTime::from_unix_timestamp(created_ms / 1000)
                .map_or(1970, |t| t.year());
            Ok(TopGame {
                id: r.try_get(0)?,
                uci: r.try_get(1)?,
                winner: result
                    .as_deref()
                    .and_then(Winner::parse)
                    .and_then(Winner::name),
                white: TopPlayer {
                    name: r
                        .try_get::<Option<String>, _>(3)?
                        .unwrap_or_else(|| "?".into()),
                    rating: r.try_get(4)?,
                },
                black: TopPlayer {
                    name: r
                        .try_get::<Option<String>, _>(5)?
                        .unwrap_or_else(|| "?".into()),
                    rating: r.try_get(6)?,
                },
                year,
            })
        })
        .collect()
}

/// How many rows and imported or indexed games the index holds:
/// `(move rows, games)`.
pub async fn size(db: &Db) -> Result<(i64, i64), sqlx::Error> {
    let rows: i64 = sqlx::query("SELECT COUNT(*) FROM explorer_moves")
        .fetch_one(&db.pool)
        .await?
        .try_get(0)?;
    let games: i64 = sqlx::query("SELECT COUNT(*) FROM explorer_indexed")
        .fetch_one(&db.pool)
        .await?
        .try_get(0)?;
    Ok((rows, games))
}
