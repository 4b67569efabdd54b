//! Why a Mak-hot generation run stopped.

use super::consistency::Inconsistency;
use super::index::Material;
use crate::format::TableError;
use core::fmt;

/// Why generation stopped.
#[derive(Debug)]
pub enum GenerateError {
    /// A table needed by a capture or promotion is not solved (a bug in the order).
    MissingTable {
        /// The table being generated.
        table: Material,
        /// The table it needed.
        needed: Material,
    },
    /// A table file could not be written or read back.
    Table(TableError),
    /// A distance to win does not fit its file's 12 bits.
    DistanceTooLong {
        /// The table.
        table: Material,
        /// The distance, in plies.
        plies: u32,
    },
    /// A table failed its consistency proof (a bug in the generator, or a damaged file).
    Inconsistent {
        /// The table.
        table: Material,
        /// The first position that breaks a rule.
        at: Inconsistency,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::MissingTable { table, needed } => {
                write!(f, "generating {table}: table {needed} is not solved yet")
            }
            GenerateError::Table(e) => write!(f, "{e}"),
            GenerateError::DistanceTooLong { table, plies } => write!(
                f,
                "table {table}: a distance to win of {plies} plies does not fit 12 bits"
            ),
            GenerateError::Inconsistent { table, at } => write!(
                f,
                "table {table} is not consistent at {}: {}",
                at.position, at.reason
            ),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<TableError> for GenerateError {
    fn from(e: TableError) -> Self {
        GenerateError::Table(e)
    }
}
