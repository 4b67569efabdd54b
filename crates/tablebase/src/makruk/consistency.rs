//! The consistency proof of a solved Makruk table, move by move, forward (the generator
//! worked backward by un-moves, so this checks its predecessor lists too):
//!
//! - every win in `d` has a move to a loss in `d − 1` for the opponent, and none to a
//!   shorter loss;
//! - every loss in `d > 0` has only moves to wins, the longest in `d − 1`; a loss in 0 is
//!   checkmate;
//! - every draw has a drawing move (or is stalemate) and no move to a loss.
//!
//! Exits are valued as the generator values them ([`exit_value`]) from the tables they
//! lead to.

use super::bare::Dtm;
use super::index::TableIndex;
use super::solve::{exit_value, phase_count};
use makruk::{Position, Variant};

/// A broken rule: the position and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    /// The position's FEN.
    pub fen: String,
    /// What the table says and what its moves say.
    pub reason: String,
}

/// Checks every entry of `values`, the table of `index`'s material in `index`'s layout
/// (a folded entry is checked through its one stored position, each move's child read
/// through its own stored image); `lookup` gives the stored values of the tables its
/// exits lead to. Returns the number of entries checked.
pub fn check_table(
    variant: Variant,
    index: &TableIndex,
    values: &[u16],
    lookup: &dyn Fn(&Position) -> Option<Dtm>,
) -> Result<u64, Inconsistency> {
    let count = phase_count(variant, index.material());
    let mut checked = 0;
    for (i, &entry) in values.iter().enumerate() {
        let Some(pos) = index.position_at(variant, count, i) else {
            continue;
        };
        let fail = |reason: String| Inconsistency {
            fen: pos.fen(),
            reason,
        };
        let here = Dtm::from_wide(entry).ok_or_else(|| fail(format!("entry {entry}")))?;
        // The children's values for their side to move.
        let mut children = Vec::new();
        for &m in pos.legal_moves().iter() {
            let child = pos.played(m);
            let v = if !pos.is_capture(m) && !m.is_promotion() {
                index
                    .index_of(&child)
                    .and_then(|j| Dtm::from_wide(values[j]))
            } else {
                exit_value(&pos, &child, lookup)
            };
            children.push(v.ok_or_else(|| fail(format!("{} has no value", m.to_uci())))?);
        }
        let shortest_loss = children
            .iter()
            .filter_map(|c| match c {
                Dtm::Loss(d) => Some(*d),
                _ => None,
            })
            .min();
        let ok = match here {
            Dtm::Win(d) => shortest_loss == Some(d - 1),
            Dtm::Loss(0) => children.is_empty() && pos.is_check(),
            Dtm::Loss(d) => {
                let longest = children.iter().try_fold(0u16, |acc, c| match c {
                    Dtm::Win(e) => Some(acc.max(*e)),
                    _ => None,
                });
                longest == Some(d - 1)
            }
            Dtm::Draw => {
                shortest_loss.is_none()
                    && (children.is_empty() && !pos.is_check() || children.contains(&Dtm::Draw))
            }
        };
        if !ok {
            return Err(fail(format!("stored {here:?}, moves {children:?}")));
        }
        checked += 1;
    }
    Ok(checked)
}
