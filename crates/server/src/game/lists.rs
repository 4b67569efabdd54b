//! Game lists: the lobby, a player's games, the games being played now
//! (for spectators) and a player's searchable archive, as
//! [`GameSummary`] rows. SQL with bound parameters only.

use super::view::GameSummary;
use crate::infra::db::Db;
use crate::infra::error::ApiResult;
use crate::ratings::store::shown;
use crate::ratings::{Rating, ShownRating};
use sqlx::Row;

/// A challenger's rating as lists show it: stored, or a new player's when
/// the game has a pool and the challenger is not a guest.
fn creator_rating(
    rating: Option<f64>,
    deviation: Option<f64>,
    has_pool: bool,
    guest: bool,
) -> Option<ShownRating> {
    match (rating, deviation) {
        (Some(rating), Some(deviation)) => Some(ShownRating::of(rating, deviation)),
        _ if has_pool && !guest => Some(Rating::default().into()),
        _ => None,
    }
}

/// Which games a list shows.
pub enum ListFilter {
    /// Open challenges `me` may see (newest first, at most 200).
    Lobby,
    /// Games of `me`: played, or challenges made (most recent first, at most 500).
    PlayedBy,
    /// Ongoing games between two people, for spectators (most recently
    /// moved first, at most 100).
    NowPlaying,
}

/// What a player's game archive is searched by.
#[derive(Clone, Debug, Default)]
pub struct ArchiveFilter {
    /// Games against this user id.
    pub opponent: Option<String>,
    /// Games of this variant (`makruk`, `cambodian`, `makhos`).
    pub variant: Option<&'static str>,
    /// The player's result: `win`, `draw` or `loss`.
    pub result: Option<&'static str>,
    /// Rated or casual games only.
    pub rated: Option<bool>,
    /// Games started at or after this time, ms since the epoch.
    pub from: Option<i64>,
    /// Games started before this time, ms since the epoch.
    pub to: Option<i64>,
}

/// The columns and joins of a game list; `WHERE` follows.
const SUMMARY_SELECT: &str = "SELECT g.id, g.variant, g.rules, g.status, wu.username, bu.username, cu.username, g.creator_color, g.tc_kind, \
     g.tc_initial_ms, g.tc_increment_ms, g.ply, g.result, g.reason, g.white_id, g.black_id, g.updated_at, \
     t.id, t.name, g.rated, g.white_rating, g.white_provisional, g.black_rating, g.black_provisional, \
     g.white_rating_diff, g.black_rating_diff, cr.rating, cr.deviation, g.pool, cu.is_guest, g.start_fen \
     FROM games g JOIN users cu ON cu.id = g.creator_id LEFT JOIN users wu ON wu.id = g.white_id \
     LEFT JOIN users bu ON bu.id = g.black_id \
     LEFT JOIN tournament_games tg ON tg.game_id = g.id LEFT JOIN tournaments t ON t.id = tg.tournament_id \
     LEFT JOIN ratings cr ON cr.user_id = g.creator_id AND cr.pool = g.pool \
     WHERE ";

/// Game summaries for `me` (`""` for nobody).
pub async fn summaries(db: &Db, filter: ListFilter, me: &str) -> ApiResult<Vec<GameSummary>> {
    let condition = match filter {
        ListFilter::Lobby => {
            "g.status = 'open' AND (g.opponent_id IS NULL OR g.opponent_id = $1 OR g.creator_id = $1) ORDER BY g.created_at DESC LIMIT 200"
        }
        ListFilter::PlayedBy => {
            "(g.white_id = $1 OR g.black_id = $1 OR (g.creator_id = $1 AND g.status = 'open')) ORDER BY g.updated_at DESC LIMIT 500"
        }
        ListFilter::NowPlaying => {
            "g.status = 'ongoing' AND g.white_id NOT LIKE 'engine%' AND g.black_id NOT LIKE 'engine%' \
             AND $1 = $1 ORDER BY g.updated_at DESC LIMIT 100"
        }
    };
    let rows = sqlx::query(&format!("{SUMMARY_SELECT}{condition}"))
        .bind(me)
        .fetch_all(&db.pool)
        .await?;
    Ok(rows.iter().map(|r| summary_of(r, me)).collect())
}

/// The finished games of `user_id` that `filter` keeps, newest first,
/// `limit` from `offset`.
pub async fn archive(
    db: &Db,
    user_id: &str,
    filter: &ArchiveFilter,
    limit: i64,
    offset: i64,
) -> ApiResult<Vec<GameSummary>> {
    let mut sql =
        format!("{SUMMARY_SELECT}g.status = 'finished' AND (g.white_id = $1 OR g.black_id = $1)");
    let mut texts: Vec<String> = vec![user_id.to_string()];
    let mut numbers: Vec<i64> = Vec::new();
    let next = |texts: &Vec<String>, numbers: &Vec<i64>| texts.len() + numbers.len() + 1;
    // Text parameters first ($2..), then numbers, in the order pushed.
    if let Some(o) = &filter.opponent {
        sql.push_str(&format!(
            " AND (g.white_id = ${n} OR g.black_id = ${n})",
            n = next(&texts, &numbers)
        ));
        texts.push(o.clone());
    }
    if let Some(v) = filter.variant {
        sql.push_str(&format!(" AND g.variant = ${}", next(&texts, &numbers)));
        texts.push(v.to_string());
    }
    match filter.result {
        Some("win") => sql.push_str(
            " AND ((g.white_id = $1 AND g.result = '1-0') OR (g.black_id = $1 AND g.result = '0-1'))",
        ),
        Some("loss") => sql.push_str(
            " AND ((g.white_id = $1 AND g.result = '0-1') OR (g.black_id = $1 AND g.result = '1-0'))",
        ),
        Some(_) => sql.push_str(" AND g.result = '1/2-1/2'"),
        None => {}
    }
    if let Some(rated) = filter.rated {
        sql.push_str(if rated {
            " AND g.rated = 1"
        } else {
            " AND g.rated = 0"
        });
    }
    if let Some(from) = filter.from {
        sql.push_str(&format!(" AND g.created_at >= ${}", next(&texts, &numbers)));
        numbers.push(from);
    }
    if let Some(to) = filter.to {
        sql.push_str(&format!(" AND g.created_at < ${}", next(&texts, &numbers)));
        numbers.push(to);
    }
    sql.push_str(&format!(
        " ORDER BY g.updated_at DESC LIMIT ${} OFFSET ${}",
        next(&texts, &numbers),
        next(&texts, &numbers) + 1
    ));
    numbers.extend([limit, offset]);
    let mut query = sqlx::query(&sql);
    for t in &texts {
        query = query.bind(t);
    }
    for n in &numbers {
        query = query.bind(*n);
    }
    let rows = query.fetch_all(&db.pool).await?;
    Ok(rows.iter().map(|r| summary_of(r, user_id)).collect())
}

/// The condition that keeps a game out of lists others read about its
/// players (the follow feed, "playing now", TV): a correspondence game its
/// players did not both make public, outside a tournament whose games are.
const NOT_PRIVATE: &str = "NOT (g.tc_kind = 'correspondence' AND NOT (g.white_public = 1 AND g.black_public = 1) \
     AND COALESCE(t.public_games, 0) = 0)";

/// Which of a set of players' games [`games_of`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Among {
    /// Their games in progress, most recently moved first.
    Ongoing,
    /// Their finished games, most recently ended first.
    Finished,
}

/// The games of `players` (user ids) that others may read about: never a
/// private one (see [`NOT_PRIVATE`]); at most `limit`, seen by nobody.
pub async fn games_of(
    db: &Db,
    players: &[String],
    among: Among,
    limit: i64,
) -> ApiResult<Vec<GameSummary>> {
    if players.is_empty() {
        return Ok(Vec::new());
    }
    let marks: Vec<String> = (1..=players.len()).map(|n| format!("${n}")).collect();
    let set = marks.join(", ");
    let status = match among {
        Among::Ongoing => "ongoing",
        Among::Finished => "finished",
    };
    let sql = format!(
        "{SUMMARY_SELECT}g.status = '{status}' AND (g.white_id IN ({set}) OR g.black_id IN ({set})) \
         AND {NOT_PRIVATE} ORDER BY g.updated_at DESC LIMIT ${}",
        players.len() + 1
    );
    let mut query = sqlx::query(&sql);
    for p in players {
        query = query.bind(p);
    }
    let rows = query.bind(limit).fetch_all(&db.pool).await?;
    Ok(rows.iter().map(|r| summary_of(r, "")).collect())
}

/// TV's game of `variant`: the highest-rated game in progress between two
/// people at a clock (correspondence games move too slowly to watch), by
/// the sum of the players' ratings at its start (unrated players count as
/// 1500), the most recently moved first among equals; never a private one.
pub async fn tv_game(db: &Db, variant: &str) -> ApiResult<Option<GameSummary>> {
    let sql = format!(
        "{SUMMARY_SELECT}g.status = 'ongoing' AND g.variant = $1 AND g.tc_kind <> 'correspondence' \
         AND g.white_id NOT LIKE 'engine%' AND g.black_id NOT LIKE 'engine%' AND {NOT_PRIVATE} \
         ORDER BY COALESCE(g.white_rating, 1500) + COALESCE(g.black_rating, 1500) DESC, g.updated_at DESC LIMIT 1"
    );
    let row = sqlx::query(&sql)
        .bind(variant)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.as_ref().map(|r| summary_of(r, "")))
}

/// One row of [`SUMMARY_SELECT`] for `me`.
fn summary_of(r: &sqlx::any::AnyRow, me: &str) -> GameSummary {
    let status: String = r.get(3);
    let ply: i32 = r.get(11);
    let white_id: Option<String> = r.get(14);
    let black_id: Option<String> = r.get(15);
    let to_move = if ply % 2 == 0 { white_id } else { black_id };
    let variant: String = r.get(1);
    let rules: String = r.get(2);
    // Games store their start; only a set-up one is told.
    let standard = games::GameKind::from_names(&variant, Some(&rules))
        .ok()
        .map(|k| k.start_fen());
    let start_fen = r
        .get::<Option<String>, _>(30)
        .filter(|f| Some(f) != standard.as_ref());
    GameSummary {
        id: r.get(0),
        variant,
        rules,
        your_move: status == "ongoing" && to_move.as_deref() == Some(me),
        status,
        white: r.get(4),
        black: r.get(5),
        creator: r.get(6),
        creator_color: r.get(7),
        tc_kind: r.get(8),
        tc_initial_ms: r.get(9),
        tc_increment_ms: r.get(10),
        ply: ply as i64,
        result: r.get(12),
        reason: r.get(13),
        updated_at: r.get(16),
        tournament_id: r.get(17),
        tournament_name: r.get(18),
        rated: r.get::<i32, _>(19) != 0,
        white_rating: shown(r.get(20), r.get(21)),
        black_rating: shown(r.get(22), r.get(23)),
        white_rating_diff: r.get(24),
        black_rating_diff: r.get(25),
        creator_rating: creator_rating(
            r.get(26),
            r.get(27),
            r.get::<Option<String>, _>(28).is_some(),
            r.get::<Option<i32>, _>(29).unwrap_or(0) != 0,
        ),
        start_fen,
    }
}
