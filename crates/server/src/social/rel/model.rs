//! The pure rules of following: who may follow whom, and how many.

use crate::infra::error::ApiError;
use axum::http::StatusCode;

/// Most players one may follow (lichess's cap).
pub const MAX_FOLLOWING: i64 = 400;

/// Most finished games the feed lists.
pub const FEED_SIZE: i64 = 50;

/// Whether `follower` may follow `followed` (user ids), who is followed by
/// `follower` in `already` others: not themself, not a guest, and not past
/// [`MAX_FOLLOWING`].
pub fn check_follow(
    follower: &str,
    follower_guest: bool,
    followed: &str,
    already: i64,
) -> Result<(), ApiError> {
    if follower_guest {
        return Err(ApiError::forbidden(
            "guests_cannot_follow",
            "guests cannot follow players: register to follow them",
        ));
    }
    if follower == followed {
        return Err(ApiError::bad_request(
            "cannot_follow_self",
            "you cannot follow yourself",
        ));
    }
    if already >= MAX_FOLLOWING {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "follow_limit",
            format!("you follow {already} players, the most one may: unfollow some first"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_guests_and_the_cap_are_refused() {
        assert!(check_follow("a", false, "b", 0).is_ok());
        assert_eq!(
            check_follow("a", false, "a", 0).unwrap_err().code,
            "cannot_follow_self"
        );
        assert_eq!(
            check_follow("a", true, "b", 0).unwrap_err().code,
            "guests_cannot_follow"
        );
        assert!(check_follow("a", false, "b", MAX_FOLLOWING - 1).is_ok());
        assert_eq!(
            check_follow("a", false, "b", MAX_FOLLOWING)
                .unwrap_err()
                .code,
            "follow_limit"
        );
    }
}
