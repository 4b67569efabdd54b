//! What text written by players (tags, comments, private notes, chat
//! lines, tournament names) may contain: no invisible characters that
//! change how the text around them reads. Bidirectional overrides and
//! isolates can make `gnp.exe` display as `exe.png`, or turn a tournament
//! name around in a listing; zero-width characters make two names that
//! look alike differ. Such text is refused, naming the character and
//! where it stands, rather than silently changed.

use crate::infra::error::{ApiError, ApiResult};

/// Whether `c` is a bidirectional control or a zero-width character.
pub fn is_invisible_control(c: char) -> bool {
    matches!(
        c,
        // Arabic letter mark; left-to-right and right-to-left marks.
        '\u{061C}' | '\u{200E}' | '\u{200F}'
        // Embeddings, overrides and their pop.
        | '\u{202A}'..='\u{202E}'
        // Isolates and their pop.
        | '\u{2066}'..='\u{2069}'
        // Zero-width space, non-joiner, joiner; word joiner and the
        // invisible operators; the byte-order mark as zero-width no-break
        // space; the Mongolian vowel separator.
        | '\u{200B}'..='\u{200D}'
        | '\u{2060}'..='\u{2064}'
        | '\u{FEFF}'
        | '\u{180E}'
    )
}

/// Refuses `text` (the `field` of a request) if it holds a character of
/// [`is_invisible_control`], with the character's code point and position.
pub fn refuse_invisible(field: &str, text: &str) -> ApiResult<()> {
    match text
        .chars()
        .enumerate()
        .find(|(_, c)| is_invisible_control(*c))
    {
        None => Ok(()),
        Some((at, c)) => Err(ApiError::bad_request(
            "invisible_character",
            format!(
                "{field}: U+{:04X} (a bidirectional or zero-width control character) at character {} is not allowed",
                c as u32,
                at + 1
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_isolates_and_zero_width_characters_are_refused_with_their_place() {
        for bad in [
            "ab\u{202E}cd",
            "\u{2066}x",
            "a\u{200B}b",
            "\u{FEFF}",
            "x\u{200D}",
        ] {
            let e = refuse_invisible("name", bad).unwrap_err();
            assert_eq!(e.code, "invisible_character", "{bad:?}");
        }
        let e = refuse_invisible("comment", "ok \u{202E}gnp.exe").unwrap_err();
        assert!(
            e.message.contains("U+202E") && e.message.contains("at character 4"),
            "{}",
            e.message
        );
        // Thai (with its combining vowels and tone marks), Arabic, emoji: fine.
        for good in ["มากรุก ไทย", "ชิงแชมป์ ๒๕๖๙", "شطرنج", "king ♔ 🎉", "a-b_c"]
        {
            assert!(refuse_invisible("name", good).is_ok(), "{good:?}");
        }
    }
}
