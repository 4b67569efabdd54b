//! The answer to a Makruk or Ouk Chatrang probe in the tablebase API's shape (what
//! `thaiboard tb probe --json` prints and `GET /api/tablebase` returns), and the file
//! variant of a rules variant.

use crate::format::Variant as FileVariant;
use makruk::Variant;
use serde::Serialize;

/// The file variant of a rules variant.
pub(super) fn file_variant(variant: Variant) -> FileVariant {
    match variant {
        Variant::Makruk => FileVariant::Makruk,
        Variant::Cambodian => FileVariant::Cambodian,
    }
}

/// The answer to a Makruk probe, in the tablebase API's shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MakrukAnswer {
    /// `win`, `draw` or `loss` for the side to move, under the count.
    pub category: &'static str,
    /// Plies to mate, positive when the side to move mates, negative when it is mated,
    /// `None` when there is no forced mate (the count not considered) or the position is
    /// not in pieces' honour.
    pub dtm: Option<i32>,
    /// Outside pieces' honour: plies to the end of the phase (mate, or the capture or
    /// promotion that starts a new count into a decided position), signed as `dtm`.
    pub dtc: Option<i32>,
    /// Plies the count leaves for the mate (`None`: no count runs).
    pub plies_left: Option<u32>,
    /// Every legal move, best first, each valued for the opponent.
    pub moves: Vec<MakrukMoveAnswer>,
}

/// One move of a [`MakrukAnswer`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MakrukMoveAnswer {
    /// UCI (`a1a8`).
    pub uci: String,
    /// SAN (`Ra8#`).
    pub san: String,
    /// The opponent's category after the move.
    pub category: &'static str,
    /// The opponent's signed plies to mate after the move.
    pub dtm: Option<i32>,
    /// The opponent's signed plies to the end of the phase after the move.
    pub dtc: Option<i32>,
}
