//! [`Color`]: a side of the board, for either game.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A side of the board. White moves first in every game here.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The side that moves first.
    White,
    /// The other side.
    Black,
}

impl Color {
    /// Both sides, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// Reads `white` or `black`.
    pub fn parse(text: &str) -> Option<Color> {
        match text {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<makruk::Color> for Color {
    fn from(c: makruk::Color) -> Color {
        match c {
            makruk::Color::White => Color::White,
            makruk::Color::Black => Color::Black,
        }
    }
}

impl From<makhos::Color> for Color {
    fn from(c: makhos::Color) -> Color {
        match c {
            makhos::Color::White => Color::White,
            makhos::Color::Black => Color::Black,
        }
    }
}

impl From<Color> for makruk::Color {
    fn from(c: Color) -> makruk::Color {
        match c {
            Color::White => makruk::Color::White,
            Color::Black => makruk::Color::Black,
        }
    }
}

impl From<Color> for makhos::Color {
    fn from(c: Color) -> makhos::Color {
        match c {
            Color::White => makhos::Color::White,
            Color::Black => makhos::Color::Black,
        }
    }
}
