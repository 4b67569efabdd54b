//! The tables' own move at the root of a won or lost position: the fastest
//! win the count allows, or the longest resistance (Mak-hot: by the distance
//! to the end of the game where the tables have it). Drawn positions are left
//! to the search.

use crate::makhos::{MakhosTables, Wdl, answer as makhos_answer};
use crate::makruk::MakrukTables;
use engine::uci::TableMove;

/// The tables' move for a Makruk or Ouk Chatrang position (with its counting
/// fields), or `None` when it is drawn, outside the tables or has no move. An
/// error is a table that cannot be read.
pub fn makruk_root_move(
    tables: &MakrukTables,
    pos: &makruk::Position,
) -> Result<Option<TableMove>, String> {
    let Some(answer) = tables.answer(pos).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    if answer.category == "draw" {
        return Ok(None);
    }
    let distance = match (answer.dtm, answer.dtc) {
        (Some(d), _) => format!("mate in {} plies without the count", d.abs()),
        (None, Some(d)) => format!("the phase ends in {} plies", d.abs()),
        _ => "no distance".to_string(),
    };
    Ok(answer.moves.first().map(|m| TableMove {
        uci: m.uci.clone(),
        info: format!("tablebase {} ({distance})", answer.category),
    }))
}

/// The tables' move for a Mak-hot position with `no_progress` plies on the
/// count, or `None` when it is drawn, outside the tables or has no move. An
/// error is a table that cannot be read.
pub fn makhos_root_move(
    tables: &MakhosTables,
    pos: &makhos::Position,
    no_progress: u32,
) -> Result<Option<TableMove>, String> {
    let Ok(here) = tables.probe(pos, no_progress) else {
        return Ok(None);
    };
    if here.wdl == Wdl::Draw {
        return Ok(None);
    }
    // With distance-to-win files the moves come soonest end first (the loser's
    // latest); without them, by the plies to the next capture or man move.
    let answer = makhos_answer(tables, pos, no_progress).map_err(|e| e.to_string())?;
    let end = answer
        .dtw
        .map(|d| format!("the end in {} plies, ", d.abs()))
        .unwrap_or_default();
    Ok(answer.moves.first().map(|m| TableMove {
        uci: m.uci.clone(),
        info: format!(
            "tablebase {} ({end}next capture or man move in {} plies)",
            here.wdl.name(),
            here.zeroing_plies().unwrap_or(0)
        ),
    }))
}
