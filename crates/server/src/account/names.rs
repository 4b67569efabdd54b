//! The rules of player names, in one place: what a name may hold, which
//! names are reserved, and when two names look alike.
//!
//! - A name has 3 to 20 characters: Latin letters and digits, Thai letters,
//!   vowels, tone marks and digits, `_` and `-`; it is written in one
//!   script (Latin or Thai; digits, `_` and `-` go with either) and does not
//!   start with a combining mark. Such a name is safe in a URL once
//!   percent-encoded (`/@/สมชาย`), and holds no `/`, `?`, `#` or space.
//! - Its *skeleton* is the UTS #39 confusable skeleton of its lower case,
//!   without `_` and `-`, in lower case ([`skeleton`]): two names with one
//!   skeleton look alike, and only one of them may be registered (the
//!   users' unique `username_skeleton`).
//! - Reserved names ([`RESERVED_NAMES`]) and starts of names
//!   ([`RESERVED_PREFIXES`]) belong to the site, its guests and the
//!   engines; a name whose skeleton, with digits read as the letters they
//!   resemble, matches one of them is refused.

use crate::infra::error::{ApiError, ApiResult};
use unicode_security::MixedScript;

/// Characters a name has, at least and at most.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=20;

/// Starts of names no one may register, nor any that looks like them:
/// guests are `guest-...`, the computer plays as `engine-level-N`, and the
/// site's and the engines' names with any ending (`computer-1`).
pub const RESERVED_PREFIXES: &[&str] = &[
    "guest",
    "engine-level",
    "computer",
    "stockfish",
    "fairy-stockfish",
    "fairystockfish",
    "thaiboard",
    "admin",
    "moderator",
];

/// Whole names no one may register, nor any that looks like them.
pub const RESERVED_NAMES: &[&str] = &[
    "engine",
    "system",
    "root",
    "mod",
    "staff",
    "support",
    "help",
    "bot",
    "anonymous",
    "unknown",
    "closed",
    "lichess",
    "pychess",
    "playok",
    "chess",
    "makruk",
    "sittuyin",
    "xiangqi",
    "ai",
    "sf",
    "ไทยบอร์ด",
    "คอมพิวเตอร์",
    "ผู้ดูแล",
];

/// Whether `c` may stand in a name.
fn allowed_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-' || is_thai(c)
}

/// Thai letters, vowels, tone marks and digits (not the currency sign
/// `฿` nor the marks `๏ ๚ ๛`).
fn is_thai(c: char) -> bool {
    matches!(c, '\u{0E01}'..='\u{0E3A}' | '\u{0E40}'..='\u{0E4E}' | '\u{0E50}'..='\u{0E59}')
}

/// Thai's combining marks: no name starts with one.
fn is_thai_mark(c: char) -> bool {
    matches!(c, '\u{0E31}' | '\u{0E34}'..='\u{0E3A}' | '\u{0E47}'..='\u{0E4E}')
}

/// The UTS #39 skeleton of `name` as names are compared: of its lower
/// case, `_` and `-` left out, lower-cased again (`Ali_ce`, `a1ice` and
/// `аlice` with a Cyrillic `а` share one).
pub fn skeleton(name: &str) -> String {
    let lower = name.to_lowercase();
    unicode_security::skeleton(&lower)
        .filter(|c| !matches!(c, '-' | '_'))
        .collect::<String>()
        .to_lowercase()
}

/// The skeleton of [`skeleton`] with digits read as the letters they
/// resemble (`3ngine` is `engine`): for the reserved names only.
fn reserved_skeleton(name: &str) -> String {
    skeleton(name)
        .chars()
        .map(|c| match c {
            '0' => 'o',
            '1' | 'i' => 'l',
            '3' => 'e',
            '4' => 'a',
            '5' => 's',
            '7' => 't',
            c => c,
        })
        .collect()
}

/// Checks a new name against every rule but being taken; returns its
/// [`skeleton`]. The error says which rule and where.
pub fn check_new_name(name: &str) -> ApiResult<String> {
    let bad = |why: String| ApiError::bad_request("invalid_username", why);
    let chars = name.chars().count();
    if !NAME_CHARS.contains(&chars) {
        return Err(bad(format!(
            "a username has {} to {} characters (this one has {chars}): Latin or Thai letters, digits, '_' or '-'",
            NAME_CHARS.start(),
            NAME_CHARS.end()
        )));
    }
    if let Some((at, c)) = name.chars().enumerate().find(|(_, c)| !allowed_char(*c)) {
        return Err(bad(format!(
            "a username has Latin or Thai letters, digits, '_' or '-' only: {c:?} (U+{:04X}, character {}) is not one",
            c as u32,
            at + 1
        )));
    }
    if name.chars().next().is_some_and(is_thai_mark) {
        return Err(bad(
            "a username cannot start with a Thai vowel or tone mark written above or below a letter".into(),
        ));
    }
    if !name.is_single_script() {
        return Err(bad(
            "a username is written in one script: Latin or Thai letters, not both (digits, '_' and '-' go with either)".into(),
        ));
    }
    let reserved = reserved_skeleton(name);
    if let Some(prefix) = RESERVED_PREFIXES
        .iter()
        .find(|p| reserved.starts_with(&reserved_skeleton(p)))
    {
        return Err(bad(format!(
            "names starting with '{prefix}' (or looking like it) are reserved"
        )));
    }
    if let Some(word) = RESERVED_NAMES
        .iter()
        .find(|r| reserved == reserved_skeleton(r))
    {
        return Err(bad(format!(
            "the name '{word}' (or one looking like it) is reserved"
        )));
    }
    Ok(skeleton(name))
}

/// Gives every registered name made before skeletons were stored its
/// skeleton (a name whose skeleton another already has keeps none: it is
/// still found through that other). Runs at start, in batches.
pub async fn backfill_skeletons(db: &crate::infra::db::Db) -> Result<(), sqlx::Error> {
    let mut skipped = std::collections::HashSet::new();
    loop {
        let batch = super::store::users_without_skeleton(db, 500 + skipped.len() as i64).await?;
        let fresh: Vec<_> = batch
            .into_iter()
            .filter(|(id, _)| !skipped.contains(id))
            .collect();
        if fresh.is_empty() {
            return Ok(());
        }
        for (id, name) in fresh {
            if !super::store::set_skeleton(db, &id, &skeleton(&name)).await? {
                skipped.insert(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(name: &str) -> String {
        check_new_name(name).unwrap_err().message
    }

    #[test]
    fn latin_and_thai_names_pass_and_mixed_scripts_do_not() {
        for ok in ["alice", "Bob_2", "สมชาย", "สมชาย_99", "ก๐๑๒", "น้ำใจ"]
        {
            assert!(check_new_name(ok).is_ok(), "{ok}: {:?}", check_new_name(ok));
        }
        assert!(refused("สมชายab").contains("one script"));
        assert!(refused("ab").contains("3 to 20"));
        assert!(refused("a/b?c").contains("'/'"));
        assert!(refused("al ice").contains("' '"));
        assert!(refused("аlice").contains("U+0430"), "Cyrillic a");
        assert!(refused("\u{0E31}กข").contains("cannot start"));
        assert!(refused(&"ก".repeat(21)).contains("21"));
    }

    #[test]
    fn reserved_names_and_their_look_alikes_are_refused() {
        for name in [
            "computer-1",
            "Computer_12",
            "fairy-stockfish",
            "stockfish",
            "st0ckfish16",
            "moderator",
            "root",
            "r00t",
            "admin",
            "lichess",
            "pychess",
            "playok",
            "thaiboard",
            "Tha1board",
            "guest-1234",
            "engine-level-3",
            "3ngine",
        ] {
            assert!(refused(name).contains("reserved"), "{name}");
        }
        assert!(check_new_name("rooted_tree").is_ok());
    }

    #[test]
    fn look_alike_names_share_a_skeleton() {
        assert_eq!(skeleton("Alice"), skeleton("a_lice"));
        assert_eq!(skeleton("paypal"), skeleton("paypa1"));
        assert_eq!(skeleton("bob0"), skeleton("BOBO"));
        assert_ne!(skeleton("alice"), skeleton("alicia"));
        assert_ne!(skeleton("สมชาย"), skeleton("สมชัย"));
        // Thai SARA AM and its decomposed spelling look alike.
        assert_eq!(skeleton("น้ำ"), skeleton("น\u{0E49}\u{0E4D}\u{0E32}"));
    }
}
