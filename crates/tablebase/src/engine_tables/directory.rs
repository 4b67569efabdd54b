//! The tables under one directory, opened on first use per game: what
//! `thaiboard uci`'s `TablebasePath` points at ([`engine::uci::UciTables`]).

use super::root_move::{makhos_root_move, makruk_root_move};
use super::search_probe::{MakhosProbe, MakrukProbe};
use crate::makhos::MakhosTables;
use crate::makruk::MakrukTables;
use engine::uci::{TableMove, UciTables};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;
use std::sync::Arc;

/// The tables under one directory, each game's (Makruk and Ouk Chatrang by
/// variant, Mak-hot by rules) opened the first time it is asked for.
#[derive(Debug, Default)]
pub struct TableDirectory {
    dir: Option<PathBuf>,
    makhos: HashMap<makhos::Rules, Option<Arc<MakhosTables>>>,
    makruk: HashMap<makruk::Variant, Option<Arc<MakrukTables>>>,
}

impl TableDirectory {
    /// The tables under `dir` (`None` or an empty path: no tables).
    pub fn new(dir: Option<PathBuf>) -> TableDirectory {
        TableDirectory {
            dir: dir.filter(|d| !d.as_os_str().is_empty()),
            ..TableDirectory::default()
        }
    }

    /// The Makruk or Ouk Chatrang tables of `variant`, opened once; `None`
    /// without a directory; an error (said once, then the tables count as
    /// absent) when they cannot be opened.
    fn makruk_tables(
        &mut self,
        variant: makruk::Variant,
    ) -> Result<Option<&Arc<MakrukTables>>, String> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        open_once(self.makruk.entry(variant), || {
            MakrukTables::open(dir, variant).map(Arc::new)
        })
    }

    /// The Mak-hot tables of `rules`, as [`TableDirectory::makruk_tables`].
    fn makhos_tables(
        &mut self,
        rules: makhos::Rules,
    ) -> Result<Option<&Arc<MakhosTables>>, String> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        open_once(self.makhos.entry(rules), || {
            MakhosTables::open(dir, rules).map(Arc::new)
        })
    }
}

impl UciTables for TableDirectory {
    type Makruk = MakrukProbe;
    type Makhos = MakhosProbe;

    /// Points at a directory (`None` or an empty path: no tables). Tables are opened when
    /// first needed; a directory that cannot be read is reported then and ignored.
    fn set_dir(&mut self, dir: Option<PathBuf>) {
        *self = TableDirectory::new(dir);
    }

    fn makruk_move(&mut self, pos: &makruk::Position) -> Result<Option<TableMove>, String> {
        match self.makruk_tables(pos.variant())? {
            Some(tables) => makruk_root_move(tables, pos),
            None => Ok(None),
        }
    }

    fn makhos_move(
        &mut self,
        pos: &makhos::Position,
        rules: makhos::Rules,
        no_progress: u32,
    ) -> Result<Option<TableMove>, String> {
        match self.makhos_tables(rules)? {
            Some(tables) => makhos_root_move(tables, pos, no_progress),
            None => Ok(None),
        }
    }

    fn makruk_probe(
        &mut self,
        variant: makruk::Variant,
    ) -> Result<Option<Arc<MakrukProbe>>, String> {
        let tables = self.makruk_tables(variant)?;
        Ok(tables
            .and_then(|t| MakrukProbe::new(Arc::clone(t)))
            .map(Arc::new))
    }

    fn makhos_probe(&mut self, rules: makhos::Rules) -> Result<Option<Arc<MakhosProbe>>, String> {
        let tables = self.makhos_tables(rules)?;
        Ok(tables
            .and_then(|t| MakhosProbe::new(Arc::clone(t)))
            .map(Arc::new))
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
