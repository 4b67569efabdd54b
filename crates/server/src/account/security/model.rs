//! The pure part of account security, without I/O: TOTP codes and their
//! time steps, recovery codes, what a User-Agent says, the texts of the
//! security mails, and the limits.

use crate::infra::util::{constant_time_eq, sha256_hex};
use rand::Rng;
use totp_rs::{Algorithm, TOTP};

/// How long a password-reset link stays good: one hour.
pub const RESET_TTL_MS: i64 = 3_600_000;
/// Reset mails one account may be sent per [`RESET_TTL_MS`]; more requests
/// are answered alike but mail nothing.
pub const RESETS_PER_ACCOUNT: i64 = 3;
/// Reset requests one client address may make per hour (burst and refill).
pub const RESETS_PER_IP_PER_HOUR: f64 = 10.0;
/// How long a change-of-address link stays good: one day.
pub const EMAIL_CHANGE_TTL_MS: i64 = 24 * 3_600_000;
/// The TOTP time step, seconds.
pub const TOTP_STEP_SECS: u64 = 30;
/// Digits of a TOTP code.
pub const TOTP_DIGITS: usize = 6;
/// How many recovery codes are made at once.
pub const RECOVERY_CODES: usize = 10;
/// Events kept in each account's security log (older ones are dropped).
pub const LOG_KEPT: i64 = 200;
/// How often a device's "last seen" is written (on a session read from
/// the database, not from the cache).
pub const LAST_SEEN_EVERY_MS: i64 = 5 * 60_000;
/// The name a closed account's games show, followed by its id.
pub const CLOSED_PREFIX: &str = "closed-";

/// The TOTP of a base32 `secret`, labelled for `username` at thaiboard.
pub fn totp(secret_b32: &str, username: &str) -> Result<TOTP, String> {
    let bytes = totp_rs::Secret::Encoded(secret_b32.to_string())
        .to_bytes()
        .map_err(|e| format!("the stored TOTP secret is unreadable: {e:?}"))?;
    TOTP::new(
        Algorithm::SHA1,
        TOTP_DIGITS,
        1,
        TOTP_STEP_SECS,
        bytes,
        Some("thaiboard".to_string()),
        username.to_string(),
    )
    .map_err(|e| format!("bad TOTP parameters: {e}"))
}

/// A new random TOTP secret (160 bits, as RFC 4226 advises), base32.
pub fn new_totp_secret() -> String {
    let bytes: [u8; 20] = rand::rng().random();
    totp_rs::Secret::Raw(bytes.to_vec())
        .to_encoded()
        .to_string()
}

/// The time step of `code` if it is good at `now_secs` (this step or one
/// either side, for clocks that drift), else `None`. The caller refuses a
/// step not later than the last one used, so that a code is good once.
pub fn totp_step(totp: &TOTP, code: &str, now_secs: u64) -> Option<u64> {
    let code = code.trim();
    if code.len() != TOTP_DIGITS || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let step = now_secs / TOTP_STEP_SECS;
    [step.saturating_sub(1), step, step + 1]
        .into_iter()
        .find(|s| constant_time_eq(&totp.generate(s * TOTP_STEP_SECS), code))
}

/// The QR code of `url` (an `otpauth://` address) as an SVG picture.
pub fn qr_svg(url: &str) -> Result<String, String> {
    let code = qrcode::QrCode::new(url.as_bytes()).map_err(|e| e.to_string())?;
    Ok(code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build())
}

/// New recovery codes: each ten letters and digits as `xxxxx-xxxxx`
/// (about 50 bits), shown once; only their hashes ([`recovery_hash`]) are kept.
pub fn new_recovery_codes() -> Vec<String> {
    const CHARS: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..RECOVERY_CODES)
        .map(|_| {
            let c: String = (0..10)
                .map(|_| CHARS[rng.random_range(0..CHARS.len())] as char)
                .collect();
            format!("{}-{}", &c[..5], &c[5..])
        })
        .collect()
}

/// The stored form of a recovery code: SHA-256 of it written plainly
/// (lowercase, no spaces or dashes), so that `ABCDE FGHJK` matches too.
pub fn recovery_hash(code: &str) -> String {
    let plain: String = code
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    sha256_hex(&format!("thaiboard-recovery:{plain}"))
}

/// Whether `code` is shaped like a recovery code rather than a TOTP code.
pub fn looks_like_recovery(code: &str) -> bool {
    code.chars().filter(|c| c.is_ascii_alphanumeric()).count() == 10
}

/// What a User-Agent says, for the list of devices: "Firefox 128 on Linux".
pub fn device_name(user_agent: &str) -> String {
    if user_agent.is_empty() {
        return "unknown client".to_string();
    }
    match woothee::parser::Parser::new().parse(user_agent) {
        Some(r) if r.name != "UNKNOWN" && r.category != "crawler" => {
            let major = match r.version {
                "UNKNOWN" => "",
                v => v.split('.').next().unwrap_or(""),
            };
            let os = if r.os == "UNKNOWN" { "" } else { r.os };
            match (major.is_empty(), os.is_empty()) {
                (false, false) => format!("{} {major} on {os}", r.name),
                (true, false) => format!("{} on {os}", r.name),
                (false, true) => format!("{} {major}", r.name),
                (true, true) => r.name.to_string(),
            }
        }
        // A program (a bot library, a script): its own first word.
        _ => user_agent
            .split_whitespace()
            .next()
            .unwrap_or("unknown client")
            .chars()
            .take(40)
            .collect(),
    }
}

/// An address as a notice shows it to someone who may not own it:
/// `a****@example.com`.
pub fn masked(email: &str) -> String {
    match email.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}****@{domain}")
        }
        None => "****".to_string(),
    }
}

/// The password-reset mail: subject and text.
pub fn reset_mail(username: &str, link: &str) -> (String, String) {
    (
        "Reset your thaiboard password".to_string(),
        format!(
            "Someone (we hope you) asked to reset the password of the thaiboard account {username}.\n\n\
             Follow this link within an hour to choose a new password (it works once):\n{link}\n\n\
             A new password ends every session of the account and revokes its API tokens.\n\
             If you did not ask, ignore this mail: your password stays as it is.\n"
        ),
    )
}

/// The mail to a new address: follow the link to make it the account's.
pub fn change_verify_mail(username: &str, link: &str) -> (String, String) {
    (
        "Verify your new thaiboard address".to_string(),
        format!(
            "The thaiboard account {username} asked to use this address from now on.\n\n\
             Follow this link within a day to confirm it:\n{link}\n\n\
             If you did not ask, ignore this mail.\n"
        ),
    )
}

/// The notice to the old address of an account whose address is changing.
pub fn change_notice_mail(username: &str, new_email: &str) -> (String, String) {
    (
        "Your thaiboard address is being changed".to_string(),
        format!(
            "The thaiboard account {username} asked to change its e-mail address to {}.\n\n\
             Until the link mailed there is followed, mail still comes here.\n\
             If this was not you, log in, change your password, and look at the \
             security log on your account page.\n",
            masked(new_email)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_good_for_its_step_and_one_either_side_only() {
        let secret = new_totp_secret();
        let t = totp(&secret, "alice").unwrap();
        let now = 1_800_000_000u64;
        let step = now / TOTP_STEP_SECS;
        assert_eq!(totp_step(&t, &t.generate(now), now), Some(step));
        assert_eq!(totp_step(&t, &t.generate(now - 30), now), Some(step - 1));
        assert_eq!(totp_step(&t, &t.generate(now + 30), now), Some(step + 1));
        assert_eq!(totp_step(&t, &t.generate(now - 90), now), None);
        assert_eq!(totp_step(&t, "12345", now), None);
        assert_eq!(totp_step(&t, "abcdef", now), None);
    }

    #[test]
    fn recovery_codes_are_distinct_and_match_however_written() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), RECOVERY_CODES);
        let mut unique = codes.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), codes.len());
        let c = &codes[0];
        assert!(looks_like_recovery(c));
        assert_eq!(
            recovery_hash(c),
            recovery_hash(&c.to_uppercase().replace('-', " "))
        );
        assert_ne!(recovery_hash(c), recovery_hash(&codes[1]));
    }

    #[test]
    fn devices_are_named_from_their_user_agent() {
        let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
        assert_eq!(device_name(firefox), "Firefox 128 on Linux");
        assert!(
            device_name("curl/8.5.0").contains("curl"),
            "{}",
            device_name("curl/8.5.0")
        );
        assert_eq!(device_name("my-bot (lichess-bot)"), "my-bot");
        assert_eq!(device_name(""), "unknown client");
    }

    #[test]
    fn the_qr_code_is_an_svg_picture() {
        let svg = qr_svg("otpauth://totp/thaiboard:alice?secret=ABC").unwrap();
        assert!(svg.contains("<svg"), "{svg}");
    }

    #[test]
    fn a_notice_shows_the_new_address_masked() {
        assert_eq!(masked("bob@example.com"), "b****@example.com");
    }
}
