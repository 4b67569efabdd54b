//! Bare-khun tables on disk: writing them in the `.thtb` format, reading a directory of
//! them back, and answering probes in the tablebase API's shape.

use super::bare::{BARE_ROLES, BareTable, Dtm, HonourReport};
use super::plies_left;
use crate::format::{
    Header, SIGNATURE_LEN, TableError, TableFile, Variant as FileVariant, write_table,
};
use makruk::{Color, Position, Role, Variant};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The header's metric code of bare-khun tables: one byte of distance to mate.
pub const METRIC_DTM: u32 = 2;

/// The file variant of a rules variant.
pub fn file_variant(variant: Variant) -> FileVariant {
    match variant {
        Variant::Makruk => FileVariant::Makruk,
        Variant::Cambodian => FileVariant::Cambodian,
    }
}

/// The material's name, White first: `KRvK` or `KvKR` (Fairy-Stockfish letters).
pub fn material_name(strong: Color, role: Role) -> String {
    let piece = role.char().to_ascii_uppercase();
    match strong {
        Color::White => format!("K{piece}vK"),
        Color::Black => format!("KvK{piece}"),
    }
}

/// The file name: `makruk-KRvK.thtb`.
pub fn file_name(variant: Variant, strong: Color, role: Role) -> String {
    format!(
        "{}-{}.{}",
        file_variant(variant).name(),
        material_name(strong, role),
        crate::makhos::EXTENSION
    )
}

fn signature(strong: Color, role: Role) -> [u8; SIGNATURE_LEN] {
    let mut s = [0u8; SIGNATURE_LEN];
    s[0] = strong.index() as u8;
    s[1] = role.index() as u8;
    s
}

fn header(variant: Variant, strong: Color, role: Role, entries: u64) -> Header {
    Header {
        variant: file_variant(variant),
        rules: 0,
        signature: signature(strong, role),
        metric: METRIC_DTM,
        entries,
    }
}

/// What one table of a generation run did.
#[derive(Clone, Debug)]
pub struct BareProgress {
    /// The material name (`KRvK`).
    pub name: String,
    /// Already written and verified: kept.
    pub skipped: bool,
    /// Seconds generating.
    pub seconds: f64,
    /// File size in bytes.
    pub bytes: u64,
    /// The ending's pieces'-honour facts.
    pub honour: HonourReport,
}

/// Generates every bare-khun table of `variant` into `dir` (both colours, every piece of
/// [`BARE_ROLES`]), keeping files already written and verified.
pub fn generate_bare(
    variant: Variant,
    dir: &Path,
    mut progress: impl FnMut(&BareProgress),
) -> Result<Vec<BareProgress>, TableError> {
    std::fs::create_dir_all(dir).map_err(|error| TableError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    let mut report = Vec::new();
    for strong in [Color::White, Color::Black] {
        for role in BARE_ROLES {
            let path = dir.join(file_name(variant, strong, role));
            let started = std::time::Instant::now();
            let kept = TableFile::open(&path)
                .ok()
                .filter(|f| *f.header() == header(variant, strong, role, f.header().entries))
                .and_then(|f| {
                    let bytes = f.read_all().ok()?;
                    Some((
                        BareTable::from_bytes(variant, strong, role, bytes)?,
                        f.file_len(),
                    ))
                });
            let (table, bytes, skipped) = match kept {
                Some((table, bytes)) => (table, bytes, true),
                None => {
                    let table = BareTable::generate(variant, strong, role);
                    let h = header(variant, strong, role, table.bytes().len() as u64);
                    let bytes = write_table(&path, &h, table.bytes())?;
                    (table, bytes, false)
                }
            };
            let step = BareProgress {
                name: material_name(strong, role),
                skipped,
                seconds: started.elapsed().as_secs_f64(),
                bytes,
                honour: table.honour_report(),
            };
            progress(&step);
            report.push(step);
        }
    }
    Ok(report)
}

/// The bare-khun tables of one variant, read from a directory.
#[derive(Debug)]
pub struct BareTables {
    variant: Variant,
    tables: HashMap<(Color, Role), BareTable>,
}

/// The answer to a Makruk probe, in the tablebase API's shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MakrukAnswer {
    /// `win`, `draw` or `loss` for the side to move, under the count.
    pub category: &'static str,
    /// Plies to mate, positive when the side to move mates, negative when it is mated,
    /// `None` when there is no forced mate (the count not considered).
    pub dtm: Option<i32>,
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
}

fn category(value: i8) -> &'static str {
    match value {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

fn signed_dtm(dtm: Option<Dtm>) -> Option<i32> {
    match dtm? {
        Dtm::Win(d) => Some(d as i32),
        Dtm::Loss(d) => Some(-(d as i32)),
        Dtm::Draw => None,
    }
}

impl BareTables {
    /// Reads every bare-khun table of `variant` in `dir` (each fully checked).
    pub fn open(dir: &Path, variant: Variant) -> Result<BareTables, TableError> {
        if !dir.is_dir() {
            return Err(TableError::Io {
                path: dir.to_path_buf(),
                error: std::io::Error::new(std::io::ErrorKind::NotFound, "no such directory"),
            });
        }
        let mut tables = HashMap::new();
        for strong in [Color::White, Color::Black] {
            for role in BARE_ROLES {
                let path: PathBuf = dir.join(file_name(variant, strong, role));
                if !path.exists() {
                    continue;
                }
                let file = TableFile::open(&path)?;
                let expected = header(variant, strong, role, file.header().entries);
                if *file.header() != expected {
                    return Err(TableError::BadHeader {
                        path,
                        reason: "not the bare-khun table its name says".to_string(),
                    });
                }
                let table = BareTable::from_bytes(variant, strong, role, file.read_all()?)
                    .ok_or_else(|| TableError::BadHeader {
                        path: path.clone(),
                        reason: "wrong number of entries".to_string(),
                    })?;
                tables.insert((strong, role), table);
            }
        }
        Ok(BareTables { variant, tables })
    }

    /// Tables solved in memory (tests, and callers that generate instead of reading),
    /// keeping those of `variant`.
    pub fn from_tables(
        variant: Variant,
        tables: impl IntoIterator<Item = BareTable>,
    ) -> BareTables {
        let tables = tables
            .into_iter()
            .filter(|t| t.key().0 == variant)
            .map(|t| {
                let (_, strong, role) = t.key();
                ((strong, role), t)
            })
            .collect();
        BareTables { variant, tables }
    }

    /// How many tables were found.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether no table was found.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    fn table_for(&self, pos: &Position) -> Option<&BareTable> {
        if pos.variant() != self.variant {
            return None;
        }
        self.tables.values().find(|t| t.index_of(pos).is_some())
    }

    /// The most pieces (khuns included) a position these tables hold can have: a search
    /// need not probe positions with more.
    pub fn max_pieces(&self) -> u32 {
        if self.tables.is_empty() {
            0
        } else {
            super::bare::BARE_PIECES
        }
    }

    /// The value of `pos` under its counting fields for the side to move (`1` win, `0`
    /// draw, `-1` loss) and its distance to mate without the count, or `None` when its
    /// material has no table here. With a count running, a win or loss is a mate in
    /// exactly the distance given (the distance fits in the plies the count leaves).
    pub fn value_with_dtm(&self, pos: &Position) -> Option<(i8, Dtm)> {
        let table = self.table_for(pos)?;
        Some((table.value(pos)?, table.dtm(pos)?))
    }

    /// The answer for `pos` (with its counting fields), or `None` when its material has no
    /// table here.
    pub fn answer(&self, pos: &Position) -> Option<MakrukAnswer> {
        let table = self.table_for(pos)?;
        let value = table.value(pos)?;
        let mut moves: Vec<(i8, MakrukMoveAnswer)> = Vec::new();
        for &m in pos.legal_moves().iter() {
            let child = pos.played(m);
            let (v, dtm) = match table.value(&child) {
                Some(v) => (v, signed_dtm(table.dtm(&child))),
                None => (0, None),
            };
            moves.push((
                v,
                MakrukMoveAnswer {
                    uci: m.to_uci(),
                    san: pos.san(m),
                    category: category(v),
                    dtm,
                },
            ));
        }
        // Best first for the mover: the opponent's losses by fewest plies to mate, draws,
        // then the opponent's wins by most plies.
        moves.sort_by_key(|(v, a)| {
            let d = a.dtm.unwrap_or(0).abs();
            (*v, if *v == 1 { -d } else { d })
        });
        Some(MakrukAnswer {
            category: category(value),
            dtm: signed_dtm(table.dtm(pos)),
            plies_left: plies_left(pos),
            moves: moves.into_iter().map(|(_, a)| a).collect(),
        })
    }
}
