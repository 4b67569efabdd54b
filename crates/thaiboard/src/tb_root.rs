//! Endgame tables at the engine's root (`setoption name TablebasePath value DIR`): in a
//! won or lost table position the engine plays the tables' move — the fastest win the
//! count allows, or the longest resistance — instead of searching. Drawn positions are
//! left to the search. (Probing inside the search is a later step of issue 16.)

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;
use thaiboard_tablebase::makhos::{MakhosTables, Wdl};
use thaiboard_tablebase::makruk::BareTables;

/// The tables under one directory, opened on first use per game.
#[derive(Debug, Default)]
pub struct RootTables {
    dir: Option<PathBuf>,
    makhos: HashMap<makhos::Rules, Option<MakhosTables>>,
    makruk: HashMap<makruk::Variant, Option<BareTables>>,
}

/// A move the tables chose, and what they said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableMove {
    /// The move in engine notation.
    pub uci: String,
    /// For `info string`: the value and distance.
    pub info: String,
}

impl RootTables {
    /// Points at a directory (`None` or an empty path: no tables). Tables are opened when
    /// first needed; a directory that cannot be read is reported then and ignored.
    pub fn set_dir(&mut self, dir: Option<PathBuf>) {
        *self = RootTables {
            dir: dir.filter(|d| !d.as_os_str().is_empty()),
            ..RootTables::default()
        };
    }

    /// The tables' move for a Mak-hot position with `no_progress` plies on the count.
    pub fn makhos_move(
        &mut self,
        pos: &makhos::Position,
        rules: makhos::Rules,
        no_progress: u32,
    ) -> Result<Option<TableMove>, String> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        let Some(tables) = open_once(self.makhos.entry(rules), || MakhosTables::open(dir, rules))?
        else {
            return Ok(None);
        };
        let Ok(here) = tables.probe(pos, no_progress) else {
            return Ok(None);
        };
        if here.wdl == Wdl::Draw {
            return Ok(None);
        }
        let moves = tables
            .probe_moves(pos, no_progress)
            .map_err(|e| e.to_string())?;
        Ok(moves.first().map(|m| TableMove {
            uci: m.mv.to_engine(),
            info: format!(
                "tablebase {} (next capture or man move in {} plies)",
                here.wdl.name(),
                here.zeroing_plies().unwrap_or(0)
            ),
        }))
    }

    /// The tables' move for a Makruk or Ouk Chatrang position (with its counting fields).
    pub fn makruk_move(&mut self, pos: &makruk::Position) -> Result<Option<TableMove>, String> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        let variant = pos.variant();
        let Some(tables) = open_once(self.makruk.entry(variant), || {
            BareTables::open(dir, variant)
        })?
        else {
            return Ok(None);
        };
        let Some(answer) = tables.answer(pos) else {
            return Ok(None);
        };
        if answer.category == "draw" {
            return Ok(None);
        }
        Ok(answer.moves.first().map(|m| TableMove {
            uci: m.uci.clone(),
            info: format!(
                "tablebase {} (mate in {} plies without the count)",
                answer.category,
                answer.dtm.unwrap_or(0).abs()
            ),
        }))
    }
}

/// The tables kept in `slot`, opened with `open` the first time they are
/// asked for; a failure is reported once, then the tables count as absent.
fn open_once<'a, K, T, E: std::fmt::Display>(
    slot: Entry<'a, K, Option<T>>,
    open: impl FnOnce() -> Result<T, E>,
) -> Result<Option<&'a T>, String> {
    match slot {
        Entry::Occupied(e) => Ok(e.into_mut().as_ref()),
        Entry::Vacant(e) => match open() {
            Ok(t) => Ok(e.insert(Some(t)).as_ref()),
            Err(err) => {
                e.insert(None);
                Err(err.to_string())
            }
        },
    }
}
