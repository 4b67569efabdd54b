//! What the Makruk examples' searches take at their leaves: the value of a counted
//! position of fewer pieces than the table checked, three pieces from the first
//! generator ([`BareTable`], forward rounds over lists of children, checked against a
//! search in the crate's tests), more from the tables on disk (themselves checked by
//! `makruk_check` with three-piece leaves).

use makruk::{Color, Position, Variant};
use thaiboard_tablebase::makruk::{BARE_ROLES, BareTable, MakrukTables};

/// The leaves' values (see the module).
pub struct Counted<'a> {
    bare: Vec<BareTable>,
    tables: &'a MakrukTables,
}

impl Counted<'_> {
    /// Generates the three-piece tables of `variant`; larger positions go to `tables`.
    pub fn new(variant: Variant, tables: &MakrukTables) -> Counted<'_> {
        let mut bare = Vec::new();
        for strong in [Color::White, Color::Black] {
            for role in BARE_ROLES {
                bare.push(BareTable::generate(variant, strong, role));
            }
        }
        Counted { bare, tables }
    }

    /// The value of `pos` under its count, for the side to move: 1, 0 or -1.
    pub fn value(&self, pos: &Position) -> i8 {
        if pos.occupied().count() == 3 {
            return self
                .bare
                .iter()
                .find_map(|t| t.value(pos))
                .expect("a counted three-piece position is in a first-generator table");
        }
        match self.tables.verdict(pos) {
            Ok(Some(v)) => v.value,
            other => panic!("no table value for {}: {other:?}", pos.fen()),
        }
    }
}
