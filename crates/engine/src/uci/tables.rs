//! Endgame tables as the UCI loop uses them (`setoption name TablebasePath
//! value DIR`): the tables' own move at the root of a won or lost position, and
//! a [`Tablebase`] for the search below it.
//!
//! The engine reads no table files: the `thaiboard-tablebase` crate implements
//! [`UciTables`] over its tables (`thaiboard_tablebase::engine_tables`), and
//! the program that has both hands it to [`super::run`]. [`NoTables`] is the
//! loop without tables.

use crate::eval::nnue::Nnue;
use crate::{MakhosGame, MakrukGame, TableValue, Tablebase};
use std::path::PathBuf;
use std::sync::Arc;

/// A move the tables chose at the root, and what they said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableMove {
    /// The move in engine notation.
    pub uci: String,
    /// For `info string`: the value and distance.
    pub info: String,
}

/// The endgame tables of a UCI session: pointed at a directory by
/// `TablebasePath`, asked for the root move before each search and for the
/// search's probes. An error is a sentence the loop reports as
/// `info string TablebasePath: …` (a directory that cannot be read, say).
pub trait UciTables {
    /// Makruk and Ouk Chatrang tables as the search probes them, with either
    /// evaluation.
    type Makruk: Tablebase<MakrukGame> + Tablebase<MakrukGame<Nnue>> + Send + Sync + 'static;
    /// Mak-hot tables as the search probes them.
    type Makhos: Tablebase<MakhosGame> + Send + Sync + 'static;

    /// Points at a directory (`None`: no tables).
    fn set_dir(&mut self, dir: Option<PathBuf>);

    /// The tables' move for a Makruk or Ouk Chatrang position (with its
    /// counting fields), or `None` when the tables do not decide it.
    fn makruk_move(&mut self, pos: &makruk::Position) -> Result<Option<TableMove>, String>;

    /// The tables' move for a Mak-hot position with `no_progress` plies on
    /// the count, or `None` when the tables do not decide it.
    fn makhos_move(
        &mut self,
        pos: &makhos::Position,
        rules: makhos::Rules,
        no_progress: u32,
    ) -> Result<Option<TableMove>, String>;

    /// The tables of `variant` for the search, or `None`.
    fn makruk_probe(
        &mut self,
        variant: makruk::Variant,
    ) -> Result<Option<Arc<Self::Makruk>>, String>;

    /// The Mak-hot tables of `rules` for the search, or `None`.
    fn makhos_probe(&mut self, rules: makhos::Rules) -> Result<Option<Arc<Self::Makhos>>, String>;
}

/// No tables: `TablebasePath` is accepted and nothing is ever probed.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTables;

impl<G> Tablebase<G> for NoTables {
    fn probe(&self, _: &G) -> Option<TableValue> {
        None
    }

    fn covers(&self, _: &G) -> bool {
        false
    }
}

impl UciTables for NoTables {
    type Makruk = NoTables;
    type Makhos = NoTables;

    fn set_dir(&mut self, _: Option<PathBuf>) {}

    fn makruk_move(&mut self, _: &makruk::Position) -> Result<Option<TableMove>, String> {
        Ok(None)
    }

    fn makhos_move(
        &mut self,
        _: &makhos::Position,
        _: makhos::Rules,
        _: u32,
    ) -> Result<Option<TableMove>, String> {
        Ok(None)
    }

    fn makruk_probe(&mut self, _: makruk::Variant) -> Result<Option<Arc<NoTables>>, String> {
        Ok(None)
    }

    fn makhos_probe(&mut self, _: makhos::Rules) -> Result<Option<Arc<NoTables>>, String> {
        Ok(None)
    }
}
