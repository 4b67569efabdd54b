//! The pure part of e-mail: what each mail says, when a deadline is close
//! enough to warn of, what an address and a mailed link's token may be, and
//! the small page a followed link shows. No I/O.

use crate::infra::error::{ApiError, ApiResult};
use crate::social::notify::Tell;
use axum::response::Html;
use std::collections::HashMap;

/// A correspondence player is warned when less than this is left on their clock.
pub const DEADLINE_WARNING_MS: i64 = 24 * 3_600_000;
/// Longest address accepted.
pub const MAX_EMAIL_CHARS: usize = 254;

/// A mail's subject and plain-text body.
pub type Mail = (String, String);

/// A mail's body with the unsubscribe link at its end.
pub fn with_unsubscribe(body: &str, unsubscribe: &str) -> String {
    format!("{body}\n\n--\nthaiboard. To receive no more mail: {unsubscribe}\n")
}

/// The mail that tells a correspondence player of a game event: their move,
/// or the game's `result` at its end; `link` is the game's page.
pub fn event_mail(
    tell: Tell,
    opponent: &str,
    variant: &str,
    result: Option<&str>,
    link: &str,
) -> Mail {
    match tell {
        Tell::YourTurn => (
            format!("Your move against {opponent}"),
            format!("It is your move in your {variant} game against {opponent}:\n{link}"),
        ),
        Tell::GameOver => {
            let result = result.unwrap_or("*");
            (
                format!("Game over against {opponent}: {result}"),
                format!("Your {variant} game against {opponent} is over: {result}.\n{link}"),
            )
        }
    }
}

/// Whether a mover whose time runs out at `deadline` is warned `now`.
pub fn deadline_is_near(deadline: i64, now: i64) -> bool {
    deadline < now + DEADLINE_WARNING_MS
}

/// The warning of a deadline at `deadline`, `now`; `link` is the game's page.
pub fn deadline_mail(deadline: i64, now: i64, link: &str) -> Mail {
    let hours = ((deadline - now).max(0) as f64 / 3_600_000.0).round();
    (
        format!("Your time runs out in {hours} hours"),
        format!("You have about {hours} hours left to move in this game:\n{link}"),
    )
}

/// The mail with the link that verifies `username`'s address.
pub fn verify_mail(username: &str, link: &str) -> Mail {
    (
        "Verify your e-mail address for thaiboard".to_string(),
        format!(
            "{username}, follow this link to get thaiboard's mail about your correspondence games:\n{link}"
        ),
    )
}

/// Whether `text` looks like an address (lettre's parser decides); the
/// address trimmed.
pub fn check_address(text: &str) -> ApiResult<String> {
    let text = text.trim();
    if text.chars().count() > MAX_EMAIL_CHARS || text.parse::<lettre::Address>().is_err() {
        return Err(ApiError::bad_request(
            "invalid_email",
            format!("{text:?} is not an e-mail address"),
        ));
    }
    Ok(text.to_string())
}

/// The `token` of a mailed link (hex, as [`crate::infra::util::random_token`]
/// makes them).
pub fn token_of(query: &HashMap<String, String>) -> ApiResult<&str> {
    query
        .get("token")
        .map(String::as_str)
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| {
            ApiError::bad_request(
                "invalid_token",
                "this link is broken: its token is missing or malformed",
            )
        })
}

/// A small page that says what a mailed link did.
pub fn page(title: &str, text: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><meta charset=utf-8><title>{title} · thaiboard</title>\
         <link rel=stylesheet href=/assets/style.css><main><div class=panel><h2>{title}</h2><p>{text}</p>\
         <p><a href=/>thaiboard</a></p></div></main>"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_are_warned_of_a_day_ahead_in_whole_hours() {
        let now = 1_000_000_000;
        assert!(deadline_is_near(now + DEADLINE_WARNING_MS - 1, now));
        assert!(!deadline_is_near(now + DEADLINE_WARNING_MS, now));
        let (subject, _) = deadline_mail(now + 5 * 3_600_000 + 20 * 60_000, now, "L");
        assert_eq!(subject, "Your time runs out in 5 hours");
        let (subject, _) = deadline_mail(now - 1, now, "L");
        assert_eq!(subject, "Your time runs out in 0 hours");
    }

    #[test]
    fn tokens_and_addresses_are_checked() {
        let q = |t: &str| HashMap::from([("token".to_string(), t.to_string())]);
        assert!(token_of(&q(&"a".repeat(64))).is_ok());
        assert!(token_of(&q(&"g".repeat(64))).is_err());
        assert!(token_of(&HashMap::new()).is_err());
        assert_eq!(check_address(" a@b.example ").unwrap(), "a@b.example");
        assert!(check_address("not an address").is_err());
    }
}
