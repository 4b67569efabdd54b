//! A plain search over Mak-hot positions for checking tables (shared by the tests and
//! `examples/makhos_check.rs`): king moves are played out to the count's end, and each
//! capture or man move is valued by a probe at a fresh count. It shares no code with the
//! generator, nor with the probe's own search of distances.

use makhos::Position;
use std::collections::HashMap;
use thaiboard_tablebase::makhos::{MakhosTables, NO_PROGRESS_LIMIT, ProbeError, Wdl};

/// The result for the side to move with `count` plies on the no-progress count, and
/// the plies to the end of the game (0 for a draw): king moves searched to the count's
/// end, captures and man moves valued by a probe at a fresh count (and, with
/// `distances`, the end's distance read there), in `makhos::Game::outcome`'s order of
/// checks. The winner takes the fewest plies, the loser the most.
pub fn search(
    tables: &MakhosTables,
    pos: &Position,
    count: u32,
    distances: bool,
    memo: &mut HashMap<(Position, u32), (Wdl, u32)>,
) -> Result<(Wdl, u32), ProbeError> {
    if let Some(&v) = memo.get(&(*pos, count)) {
        return Ok(v);
    }
    let moves = pos.legal_moves(tables.rules());
    let value = if moves.is_empty() {
        (Wdl::Loss, 0)
    } else if pos.is_kings_only_draw() || count >= NO_PROGRESS_LIMIT {
        (Wdl::Draw, 0)
    } else {
        // Ranked for the mover: a sooner win, a later loss.
        let rank = |(v, d): (Wdl, u32)| {
            (
                v,
                if v == Wdl::Win {
                    -i64::from(d)
                } else {
                    i64::from(d)
                },
            )
        };
        let mut best: Option<(Wdl, u32)> = None;
        for mv in &moves {
            let child = pos.played(mv);
            let (theirs, plies) = if mv.is_capture() || pos.is_man_move(mv) {
                let wdl = tables.probe(&child, 0)?.wdl;
                let plies = if distances {
                    tables.distance_to_win(&child, 0)?.unwrap_or(0)
                } else {
                    0
                };
                (wdl, plies)
            } else {
                search(tables, &child, count + 1, distances, memo)?
            };
            let mine = (
                theirs.flip(),
                if theirs == Wdl::Draw { 0 } else { plies + 1 },
            );
            if best.is_none_or(|b| rank(mine) > rank(b)) {
                best = Some(mine);
            }
            if !distances && mine.0 == Wdl::Win {
                break;
            }
        }
        best.expect("a position with moves")
    };
    memo.insert((*pos, count), value);
    Ok(value)
}
