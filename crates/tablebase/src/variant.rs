//! Which game a table belongs to, and what that decides about its file.

use core::fmt;

/// The zstd level Makruk tables are written with (their generation is dominated by the
/// search, not this).
pub const ZSTD_LEVEL: i32 = 19;
/// The zstd level Mak-hot tables are written with: their generation is fast enough that
/// level 19 took a third of it. On a five-piece table level 9 wrote 12% more bytes in a
/// twentieth of the time.
pub const ZSTD_LEVEL_MAKHOS: i32 = 9;

/// Which game a table belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Mak-hot (RULES.md section 2).
    Makhos,
    /// Makruk (RULES.md section 1).
    Makruk,
    /// Ouk Chatrang, Makruk's `cambodian` option.
    Cambodian,
}

impl Variant {
    /// The byte stored in the header.
    pub const fn code(self) -> u8 {
        match self {
            Variant::Makhos => 0,
            Variant::Makruk => 1,
            Variant::Cambodian => 2,
        }
    }

    /// The variant of a header byte.
    pub const fn from_code(code: u8) -> Option<Variant> {
        match code {
            0 => Some(Variant::Makhos),
            1 => Some(Variant::Makruk),
            2 => Some(Variant::Cambodian),
            _ => None,
        }
    }

    /// The name used on the command line and in file names.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Makhos => "makhos",
            Variant::Makruk => "makruk",
            Variant::Cambodian => "cambodian",
        }
    }

    /// The zstd level this variant's tables are written with.
    pub const fn zstd_level(self) -> i32 {
        match self {
            Variant::Makhos => ZSTD_LEVEL_MAKHOS,
            Variant::Makruk | Variant::Cambodian => ZSTD_LEVEL,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
