//! `GET /api/tablebase`: endgame tables (`thaiboard serve --tablebases DIR`), answered in
//! the shape of lichess's tablebase API — exactly what `thaiboard tb probe --json` prints.

use crate::AppState;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::query_kind;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router, routing::get};
use games::{AnyGame, GameKind};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use thaiboard_tablebase::engine_tables::{MakhosProbe, MakrukProbe};
use thaiboard_tablebase::makhos::{self, MakhosTables};
use thaiboard_tablebase::makruk::MakrukTables;

/// Longest position text accepted.
const MAX_POSITION: usize = 200;

/// Every table found in the configured directory, opened once at start,
/// with the probes the engine's searches use (`None` where a game has no
/// table in the directory).
pub struct Tablebases {
    makhos: HashMap<::makhos::Rules, Arc<MakhosTables>>,
    makruk: HashMap<::makruk::Variant, Arc<MakrukTables>>,
    makhos_probes: HashMap<::makhos::Rules, MakhosProbe>,
    makruk_probes: HashMap<::makruk::Variant, MakrukProbe>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("makhos", &self.makhos)
            .field("makruk", &self.makruk)
            .finish_non_exhaustive()
    }
}

impl Tablebases {
    /// Opens the tables of every game and rule option in `dir`; a damaged file or an
    /// unreadable directory is an error (the server does not start).
    pub fn open(dir: &Path) -> Result<Tablebases, String> {
        let err = |e: thaiboard_tablebase::TableError| format!("--tablebases: {e}");
        let (mut makhos, mut makhos_probes) = (HashMap::new(), HashMap::new());
        for rules in ::makhos::Rules::ALL {
            let tables = Arc::new(MakhosTables::open(dir, rules).map_err(err)?);
            if let Some(probe) = MakhosProbe::new(Arc::clone(&tables)) {
                makhos_probes.insert(rules, probe);
            }
            makhos.insert(rules, tables);
        }
        let (mut makruk, mut makruk_probes) = (HashMap::new(), HashMap::new());
        for variant in [::makruk::Variant::Makruk, ::makruk::Variant::Cambodian] {
            let tables = Arc::new(MakrukTables::open(dir, variant).map_err(err)?);
            if let Some(probe) = MakrukProbe::new(Arc::clone(&tables)) {
                makruk_probes.insert(variant, probe);
            }
            makruk.insert(variant, tables);
        }
        Ok(Tablebases {
            makhos,
            makruk,
            makhos_probes,
            makruk_probes,
        })
    }

    /// The probe a Makruk or Ouk Chatrang search consults, if there are tables of `variant`.
    pub fn makruk_probe(&self, variant: ::makruk::Variant) -> Option<&MakrukProbe> {
        self.makruk_probes.get(&variant)
    }

    /// The probe a Mak-hot search under `rules` consults, if there are tables of them.
    pub fn makhos_probe(&self, rules: ::makhos::Rules) -> Option<&MakhosProbe> {
        self.makhos_probes.get(&rules)
    }

    /// Whether there are tables of `kind` (of its rule option, for Mak-hot).
    pub fn has(&self, kind: GameKind) -> bool {
        match kind {
            GameKind::Makruk(variant) => self.makruk_probe(variant).is_some(),
            GameKind::Makhos(rules) => self.makhos_probe(rules).is_some(),
        }
    }

    /// The tables' verdict on the current position of `game` under the game's counts
    /// (Makruk: the running count, a board's-honour count not yet declared taken as
    /// declared now; Mak-hot: the no-progress count), and their move: the fastest win
    /// the count allows, a move that holds the draw (Makruk: the one nearest to a mate
    /// the count forbids), or the longest resistance.
    pub fn judge(&self, game: &AnyGame) -> Result<TableVerdict, Uncovered> {
        let kind = game.kind();
        match game {
            AnyGame::Makruk(g) => {
                let variant = g.position().variant();
                if !self.has(kind) {
                    return Err(Uncovered::NoTables(kind));
                }
                // Rebuilt from its FEN the position counts automatically, with the counting
                // fields the game shows (an undeclared board's-honour count at ply 0).
                let pos = ::makruk::Position::from_fen(variant, &g.position().fen_with_marks(true))
                    .map_err(|e| Uncovered::Broken(e.to_string()))?;
                let answer = self.makruk[&variant]
                    .answer(&pos)
                    .map_err(|e| Uncovered::Broken(e.to_string()))?
                    .ok_or(Uncovered::Outside(kind))?;
                let best = if answer.category == "draw" {
                    // The best try that keeps the draw: the nearest mate the count
                    // forbids, else a dead draw, else the furthest mate it lets the
                    // opponent threaten.
                    answer
                        .moves
                        .iter()
                        .filter(|m| m.category == "draw")
                        .min_by_key(|m| match m.dtm.or(m.dtc) {
                            Some(d) if d < 0 => (0, -d),
                            None => (1, 0),
                            Some(d) => (2, -d),
                        })
                } else {
                    answer.moves.first()
                };
                Ok(TableVerdict {
                    category: answer.category,
                    distance: answer.dtm.or(answer.dtc),
                    best: best.map(|m| m.uci.clone()),
                })
            }
            AnyGame::Makhos(g) => {
                let rules = g.rules();
                if !self.has(kind) {
                    return Err(Uncovered::NoTables(kind));
                }
                let answer =
                    makhos::answer(&self.makhos[&rules], g.position(), g.no_progress_plies())
                        .map_err(|e| match e {
                            makhos::ProbeError::Missing { .. } => Uncovered::Outside(kind),
                            e => Uncovered::Broken(e.to_string()),
                        })?;
                Ok(TableVerdict {
                    category: answer.category,
                    distance: answer.dtw.or(answer.dtz),
                    best: answer.moves.first().map(|m| m.uci.clone()),
                })
            }
        }
    }
}

/// The tables' verdict on a game's position ([`Tablebases::judge`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableVerdict {
    /// `win`, `draw` or `loss` for the side to move, under the game's counts.
    pub category: &'static str,
    /// Plies to the end the tables measure (Makruk: to mate, or to the end of the count's
    /// phase; Mak-hot: to the end of the game, or to the next capture or man move),
    /// positive when the side to move wins; `None` in a draw.
    pub distance: Option<i32>,
    /// The tables' move (engine form); `None` without a legal move.
    pub best: Option<String>,
}

/// Why the tables give no verdict on a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uncovered {
    /// The server has no tables of this game.
    NoTables(GameKind),
    /// The position's material has no table.
    Outside(GameKind),
    /// A table could not be read.
    Broken(String),
}

impl std::fmt::Display for Uncovered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Uncovered::NoTables(kind) => write!(
                f,
                "this server has no {} endgame tables (serve --tablebases DIR)",
                kind.display_name()
            ),
            Uncovered::Outside(kind) => write!(
                f,
                "the {} endgame tables do not cover this position (too many pieces)",
                kind.display_name()
            ),
            Uncovered::Broken(e) => write!(f, "the endgame tables could not be read: {e}"),
        }
    }
}

/// The route, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/tablebase", get(tablebase))
}

/// 404 `not_in_tablebases`: a position the tables do not hold.
fn outside(message: impl Into<String>) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::NOT_FOUND,
        "not_in_tablebases",
        message,
    )
}

/// `GET /api/tablebase?variant=makhos&rules=default&fen=W:WKb8,Kd8:BKh2&count=0`:
/// `category`, distance and `moves` best first. Makruk takes the counting fields from
/// its FEN; Mak-hot takes the no-progress count from `count` (plies, default 0).
async fn tablebase(
    State(app): State<AppState>,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(p) =
        q.map_err(|e| ApiError::bad_request("bad_query", format!("malformed query string: {e}")))?;
    let kind = query_kind(&p)?;
    let tables = app.tablebases.as_ref().ok_or_else(|| {
        ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            "no_tablebases",
            "this server has no endgame tables (serve --tablebases DIR)",
        )
    })?;
    if !tables.has(kind) {
        return Err(ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            "no_tablebases",
            Uncovered::NoTables(kind).to_string(),
        ));
    }
    let fen = p
        .get("fen")
        .ok_or_else(|| ApiError::bad_request("bad_fen", "fen is required"))?;
    if fen.len() > MAX_POSITION {
        return Err(ApiError::bad_request(
            "bad_fen",
            format!("position text longer than {MAX_POSITION} characters"),
        ));
    }
    let bad_fen = |e: String| {
        ApiError::bad_request(
            "bad_fen",
            format!("{} position {fen:?}: {e}", kind.variant_name()),
        )
    };
    match kind {
        GameKind::Makhos(rules) => {
            let pos: ::makhos::Position = fen.parse().map_err(|e| bad_fen(format!("{e}")))?;
            let count = match p.get("count") {
                Some(c) => c.parse::<u32>().map_err(|_| {
                    ApiError::bad_request("bad_count", "count must be a number of plies")
                })?,
                None => 0,
            };
            let answer =
                makhos::answer(&tables.makhos[&rules], &pos, count).map_err(|e| match e {
                    makhos::ProbeError::Missing { .. } => outside(e.to_string()),
                    makhos::ProbeError::Table(_)
                    | makhos::ProbeError::Contradiction { .. }
                    | makhos::ProbeError::NoDistances { .. } => ApiError::internal(e),
                })?;
            Ok(Json(answer).into_response())
        }
        GameKind::Makruk(variant) => {
            let pos =
                ::makruk::Position::from_fen(variant, fen).map_err(|e| bad_fen(format!("{e}")))?;
            let answer = tables.makruk[&variant]
                .answer(&pos)
                .map_err(ApiError::internal)?
                .ok_or_else(|| outside("position outside the tables (3 and 4 pieces)"))?;
            // The running count as players say it, for the verdict's sentence.
            let mut answer = serde_json::to_value(answer).map_err(ApiError::internal)?;
            if let (Some(c), Some(obj)) = (pos.counting(), answer.as_object_mut()) {
                let said =
                    ::games::spoken_count(c.ply, c.limit, c.counter.map(|s| s == pos.turn()));
                obj.insert(
                    "count".into(),
                    serde_json::json!({ "spoken": said.count, "spoken_limit": said.limit, "ply": c.ply, "limit": c.limit }),
                );
            }
            Ok(Json(answer).into_response())
        }
    }
}
