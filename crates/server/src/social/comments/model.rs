//! The pure part of comments: the comment as the API shows it, who reads
//! the players' comments, who may write which, and what a text may be. No I/O.

use crate::game::GameView;
use crate::infra::error::{ApiError, ApiResult};
use serde::Serialize;

/// Longest comment, in characters.
pub const MAX_COMMENT_CHARS: usize = 2000;

/// Most private notes one player may keep (over all games).
pub const MAX_PRIVATE_NOTES: i64 = 1000;

/// A comment or note as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Comment {
    /// Its id.
    pub id: String,
    /// The position it belongs to: after this many moves.
    pub ply: u32,
    /// Who wrote it.
    pub author: String,
    /// A private note (only its author sees it).
    pub private: bool,
    /// The text.
    pub text: String,
    /// When, ms since the epoch.
    pub at: i64,
}

/// Whether `user` plays `game`.
pub fn plays(game: &GameView, user: &str) -> bool {
    [&game.white, &game.black]
        .into_iter()
        .flatten()
        .any(|p| p.id == user)
}

/// Whether `viewer` reads the players' comments in `game`: a player always,
/// anyone else only in a public game.
pub fn reads_players_comments(game: &GameView, viewer: Option<&str>) -> bool {
    game.public || viewer.is_some_and(|v| plays(game, v))
}

/// A comment's text, trimmed: 1 to [`MAX_COMMENT_CHARS`] characters, no
/// invisible ones.
pub fn check_text(text: &str) -> ApiResult<&str> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_COMMENT_CHARS {
        return Err(ApiError::bad_request(
            "bad_comment",
            format!("a comment has 1 to {MAX_COMMENT_CHARS} characters"),
        ));
    }
    crate::infra::text::refuse_invisible("comment", text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_is_trimmed_and_bounded() {
        assert_eq!(check_text("  good move ").unwrap(), "good move");
        assert!(check_text("   ").is_err());
        assert!(check_text(&"x".repeat(MAX_COMMENT_CHARS)).is_ok());
        assert!(check_text(&"x".repeat(MAX_COMMENT_CHARS + 1)).is_err());
    }
}
