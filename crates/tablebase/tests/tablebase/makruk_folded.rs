//! The folded index of the five-piece tables ([`thaiboard_tablebase::makruk::index`])
//! on materials CI can afford: the retrograde solver over the folded index gives every
//! position the value the full index gives it, the folded table passes the move-by-move
//! consistency proof, and a five-piece file that is cut short, or not the table its name
//! says, is refused.

use makruk::{Position, Variant};
use thaiboard_tablebase::TableError;
use thaiboard_tablebase::format::{Header, write_table};
use thaiboard_tablebase::makruk::consistency::check_table;
use thaiboard_tablebase::makruk::entry::WIDE_INVALID;
use thaiboard_tablebase::makruk::index::{Layout, TableIndex};
use thaiboard_tablebase::makruk::material::Material;
use thaiboard_tablebase::makruk::solve::{phase_count, solve};
use thaiboard_tablebase::makruk::{
    Dtm, METRIC_PHASE_DISTANCE_FOLDED, MakrukTables, Phase, generate, material_phase,
    table_file_name,
};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("thaiboard-tb-folded-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Three pieces: every exit is the bare khun taking the piece (two khuns, a draw), so no
/// other table is needed. Positions on the diagonals (equal to their own reflection)
/// are where a wrong move count would show.
#[test]
fn the_folded_solver_gives_the_full_solver_s_values() {
    let variant = Variant::Makruk;
    let none = |_: &Position| -> Option<Dtm> { None };
    for name in ["KRvK", "KMvK", "KNvK"] {
        let material = Material::from_name(name).unwrap();
        let full = TableIndex::new(&material, Layout::Full).unwrap();
        let folded = TableIndex::new(&material, Layout::Folded).unwrap();
        let full_values = solve(variant, &full, &none).unwrap();
        let folded_values = solve(variant, &folded, &none).unwrap();
        check_table(variant, &folded, &folded_values, &none).unwrap();
        let count = phase_count(variant, &material);
        let mut compared = 0;
        for (i, &v) in full_values.iter().enumerate() {
            let Some(pos) = full.position_at(variant, count, i) else {
                assert_eq!(v, WIDE_INVALID);
                continue;
            };
            let j = folded.index_of(&pos).unwrap();
            assert_eq!(folded_values[j], v, "{name} {}", pos.fen());
            compared += 1;
        }
        assert!(compared > 200_000, "{name}: {compared}");
    }
}

/// Four-piece materials with exits into three-piece tables, solved folded against the
/// generated three-piece tables, pass the consistency proof: a pieces'-honour one and
/// a board's-honour one (pieces on both sides, whose captures start a pieces'-honour
/// count), the two kinds of the folded five-piece tables. The full four-piece solve to
/// compare with is too slow for CI: `examples/makruk_folded_check.rs` compares folded
/// four-piece tables with the full files entry by entry.
#[test]
fn folded_four_piece_tables_with_exits_are_consistent() {
    let variant = Variant::Makruk;
    let dir = scratch("krr");
    let solved = generate(variant, 3, &dir, false, |_| {}).unwrap();
    let lookup = |p: &Position| solved.stored(p);
    for (name, phase) in [
        ("KRMvK", Phase::PiecesHonour),
        ("KRvKM", Phase::BoardsHonour),
    ] {
        let material = Material::from_name(name).unwrap();
        assert_eq!(material_phase(variant, &material), phase, "{name}");
        let folded = TableIndex::new(&material, Layout::Folded).unwrap();
        let values = solve(variant, &folded, &lookup).unwrap();
        let positions = check_table(variant, &folded, &values, &lookup).unwrap();
        assert!(positions > 1_000_000, "{name}: {positions}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_five_piece_file_cut_short_or_misnamed_is_refused() {
    let variant = Variant::Makruk;
    let dir = scratch("five");
    let material = Material::from_name("KRRNvK").unwrap();
    let path = dir.join(table_file_name(variant, &material));
    // A small file under the five-piece name: not the KRRNvK table (its entries).
    let header = Header {
        variant: thaiboard_tablebase::Variant::Makruk,
        rules: 0,
        signature: [0; 16],
        metric: METRIC_PHASE_DISTANCE_FOLDED,
        entries: 1000,
        entry_bytes: 1,
    };
    write_table(&path, &header, &[0u8; 1000]).unwrap();
    let err = MakrukTables::open(&dir, variant).unwrap_err();
    assert!(matches!(err, TableError::BadHeader { .. }), "{err}");
    // Cut short: refused before its header is compared.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let err = MakrukTables::open(&dir, variant).unwrap_err();
    assert!(matches!(err, TableError::Truncated { .. }), "{err}");
    // Without it, a five-piece position is outside the tables, not an error.
    std::fs::remove_file(&path).unwrap();
    generate(variant, 3, &dir, false, |_| {}).unwrap();
    let tables = MakrukTables::open(&dir, variant).unwrap();
    let five = Position::from_fen(variant, "4k3/8/8/8/8/8/8/RR1K2N1 b - 16 10 1").unwrap();
    assert_eq!(tables.stored(&five).unwrap(), None);
    assert_eq!(tables.answer(&five).unwrap(), None);
    let _ = std::fs::remove_dir_all(&dir);
}
