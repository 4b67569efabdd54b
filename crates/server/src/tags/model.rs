//! The pure part of tags: what a game's tags may be. No I/O.

use crate::infra::error::{ApiError, ApiResult};

/// Most tags on one game.
pub const MAX_TAGS_PER_GAME: usize = 10;
/// Longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 32;

/// Trims tags, drops duplicates, and checks their number and length.
pub fn clean_tags(tags: &[String]) -> ApiResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for t in tags {
        let t = t.trim();
        if t.is_empty() || t.chars().count() > MAX_TAG_CHARS || t.chars().any(char::is_control) {
            return Err(ApiError::bad_request(
                "bad_tag",
                format!("a tag has 1 to {MAX_TAG_CHARS} printable characters, not {t:?}"),
            ));
        }
        crate::infra::text::refuse_invisible("tag", t)?;
        if !out.iter().any(|o| o == t) {
            out.push(t.to_string());
        }
    }
    if out.len() > MAX_TAGS_PER_GAME {
        return Err(ApiError::bad_request(
            "bad_tag",
            format!("at most {MAX_TAGS_PER_GAME} tags on a game"),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_trimmed_deduplicated_and_bounded() {
        let t = |v: &[&str]| clean_tags(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            t(&[" opening ", "opening", "ending"]).unwrap(),
            ["opening", "ending"]
        );
        assert!(t(&[""]).is_err());
        assert!(t(&["a\u{7}b"]).is_err());
        assert!(t(&[&"x".repeat(33)]).is_err());
        assert!(
            t(&[&"ก".repeat(32)]).is_ok(),
            "Thai letters count as characters"
        );
        let many: Vec<String> = (0..11).map(|i| i.to_string()).collect();
        assert!(clean_tags(&many).is_err());
    }
}
