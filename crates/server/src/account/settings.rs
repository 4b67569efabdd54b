//! A player's settings for the board and the game page, remembered per
//! account: `GET /api/account/settings` and `PUT /api/account/settings`.
//! Guests keep theirs in the browser (the page's `settings.ts`); the same
//! fields, checked the same way here.

use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::Body;
use axum::extract::State;
use axum::{Json, Router, routing::get};
use serde::{Deserialize, Serialize};

/// Board colours the page offers.
pub const BOARD_THEMES: [&str; 4] = ["wood", "green", "blue", "grey"];
/// Piece sets the page offers.
pub const PIECE_SETS: [&str; 2] = ["thaiboard", "carved"];
/// Longest animation, ms.
pub const MAX_ANIMATION_MS: u32 = 1000;

/// When moves wait for a confirmation before they are sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfirmMoves {
    /// Never: a move is sent when it is made.
    Never,
    /// In correspondence games (SchemingMind's habit).
    #[default]
    Correspondence,
    /// In every game.
    Always,
}

/// Notation of moves on the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Notation {
    /// The game's own: SAN for Makruk (`Nf3`), squares for Mak-hot.
    #[default]
    #[serde(alias = "san")]
    Standard,
    /// Thai, the long (book) form (Fairy-Stockfish's NOTATION_THAI_LAN).
    #[serde(alias = "thai")]
    ThaiLan,
    /// Thai, the short form (NOTATION_THAI_SAN).
    ThaiSan,
}

/// The settings, each with its default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Settings {
    /// Board colours, one of [`BOARD_THEMES`].
    pub board_theme: String,
    /// Pieces, one of [`PIECE_SETS`].
    pub piece_set: String,
    /// Coordinates around the board.
    pub coordinates: bool,
    /// Piece animation, ms (0: none).
    pub animation_ms: u32,
    /// Moves may be made ahead, during the opponent's turn.
    pub premoves: bool,
    /// When moves wait for a confirmation.
    pub confirm_moves: ConfirmMoves,
    /// Sounds on (off: muted, whatever the volume).
    pub sounds: bool,
    /// Sound volume, 0 to 100 (0: silent).
    pub volume: u8,
    /// Notation of moves.
    pub notation: Notation,
    /// Interface language: `en` or `th`.
    pub language: String,
    /// The player's time zone (an IANA name such as `Asia/Bangkok`): leave
    /// days are counted in it.
    pub time_zone: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            board_theme: BOARD_THEMES[0].into(),
            piece_set: PIECE_SETS[0].into(),
            coordinates: true,
            animation_ms: 200,
            premoves: true,
            confirm_moves: ConfirmMoves::default(),
            sounds: true,
            volume: 70,
            notation: Notation::default(),
            language: "en".into(),
            time_zone: "UTC".into(),
        }
    }
}

impl Settings {
    /// Checks every field's value; the error names the field and the value.
    pub fn check(&self) -> ApiResult<()> {
        let bad = |field: &str, value: &dyn std::fmt::Display, allowed: String| {
            Err(ApiError::bad_request(
                "invalid_setting",
                format!("{field} cannot be {value}: {allowed}"),
            ))
        };
        if !BOARD_THEMES.contains(&self.board_theme.as_str()) {
            return bad(
                "boardTheme",
                &self.board_theme,
                format!("one of {}", BOARD_THEMES.join(", ")),
            );
        }
        if !PIECE_SETS.contains(&self.piece_set.as_str()) {
            return bad(
                "pieceSet",
                &self.piece_set,
                format!("one of {}", PIECE_SETS.join(", ")),
            );
        }
        if self.animation_ms > MAX_ANIMATION_MS {
            return bad(
                "animationMs",
                &self.animation_ms,
                format!("0 to {MAX_ANIMATION_MS}"),
            );
        }
        if self.volume > 100 {
            return bad("volume", &self.volume, "0 to 100".into());
        }
        if !["en", "th"].contains(&self.language.as_str()) {
            return bad("language", &self.language, "en or th".into());
        }
        if self.time_zone.len() > 64 || jiff::tz::TimeZone::get(&self.time_zone).is_err() {
            return bad(
                "timeZone",
                &format!("{:?}", self.time_zone),
                "a time zone name such as Asia/Bangkok or UTC".into(),
            );
        }
        Ok(())
    }
}

/// The stored settings of `user_id` (the defaults when none are stored, or
/// when what is stored no longer reads).
pub async fn of(app: &AppState, user_id: &str) -> ApiResult<Settings> {
    of_db(&app.db, user_id).await
}

/// [`of`] for callers that hold the database but no [`AppState`].
pub async fn of_db(db: &crate::infra::db::Db, user_id: &str) -> ApiResult<Settings> {
    Ok(super::store::settings(db, user_id)
        .await?
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default())
}

async fn read(State(app): State<AppState>, Viewer(s): Viewer) -> ApiResult<Json<Settings>> {
    match s {
        Some(s) if !s.user.guest => Ok(Json(of(&app, &s.user.id).await?)),
        _ => Ok(Json(Settings::default())),
    }
}

async fn write(
    State(app): State<AppState>,
    Actor(s): Actor,
    Body(settings): Body<Settings>,
) -> ApiResult<Json<Settings>> {
    s.user.require_account(
        "guests keep their settings in the browser: register to keep them with your account",
    )?;
    settings.check()?;
    let json = serde_json::to_string(&settings).map_err(|e| ApiError::internal(e.to_string()))?;
    super::store::save_settings(&app.db, &s.user.id, &json, app.now_ms()).await?;
    Ok(Json(settings))
}

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/account/settings", get(read).put(write))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_fields_take_their_defaults_and_bad_values_are_named() {
        let s: Settings = serde_json::from_str(r#"{"volume": 20}"#).unwrap();
        assert_eq!(s.volume, 20);
        assert_eq!(s.board_theme, "wood");
        assert!(s.check().is_ok());
        let s = Settings {
            board_theme: "pink".into(),
            ..Settings::default()
        };
        assert_eq!(
            s.check().unwrap_err().message,
            "boardTheme cannot be pink: one of wood, green, blue, grey"
        );
        assert!(serde_json::from_str::<Settings>(r#"{"colour": 1}"#).is_err());
        assert!(serde_json::from_str::<Settings>(r#"{"confirmMoves": "sometimes"}"#).is_err());
    }
}
