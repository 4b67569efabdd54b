//! The retrograde Makruk generator (`makruk::generate`) on the three-piece tables, which
//! CI can afford: byte for byte the same as the independent forward generator of
//! [`BareTable`], consistent move by move, the colour mirror right for the khon (which
//! moves forward), and the files read back, probed, and refused when damaged.

use makruk::{Color, Position, Role, Variant};
use thaiboard_tablebase::makruk::entry::widen;
use thaiboard_tablebase::makruk::index::index_of;
use thaiboard_tablebase::makruk::material::{Material, mirrored, table_of};
use thaiboard_tablebase::makruk::{BARE_ROLES, BareTable, MakrukTables, generate, table_file_name};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("thaiboard-tb-mk-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn three_piece_tables_equal_the_forward_generator_and_are_consistent() {
    for variant in [Variant::Makruk, Variant::Cambodian] {
        let dir = scratch(variant.name());
        // `check`: every table is proved consistent move by move before it is written.
        let solved = generate(variant, 3, &dir, true, |_| {}).unwrap();
        // Ouk Chatrang moves as Makruk: its ruea's table is enough there.
        let roles: &[Role] = match variant {
            Variant::Makruk => &BARE_ROLES,
            Variant::Cambodian => &[Role::Rook],
        };
        for &role in roles {
            let bare = BareTable::generate(variant, Color::White, role);
            let material = Material::new(vec![role], vec![]);
            assert!(
                solved
                    .table(&material)
                    .unwrap()
                    .into_iter()
                    .eq(bare.bytes().iter().map(|&b| widen(b))),
                "{variant:?} {}",
                material.name()
            );
            // Black's piece: the mirror of White's table (the khon moves forward, so this
            // is where a wrong mirror shows).
            if role != Role::Khon && role != Role::Rook {
                continue;
            }
            let black = BareTable::generate(variant, Color::Black, role);
            for i in (0..black.bytes().len()).step_by(7) {
                if let Some(pos) = black.position_at(i) {
                    assert_eq!(solved.stored(&pos), black.dtm(&pos), "{}", pos.fen());
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn the_colour_mirror_keeps_the_index_of_the_canonical_table() {
    let pos = Position::from_fen(Variant::Makruk, "8/8/3k4/8/2s5/8/8/4K3 w - 88 8 1").unwrap();
    let (material, flip) = table_of(&pos);
    assert_eq!((material.name().as_str(), flip), ("KSvK", true));
    let m = mirrored(&pos);
    assert_eq!(m.fen(), "4k3/8/8/2S5/8/3K4/8/8 b - 88 8 1");
    assert!(index_of(&material, &m).is_some());
}

#[test]
fn tables_round_trip_through_files_and_refuse_damage() {
    let dir = scratch("files");
    let mut kept = Vec::new();
    generate(Variant::Makruk, 3, &dir, false, |_| {}).unwrap();
    generate(Variant::Makruk, 3, &dir, false, |s| kept.push(s.skipped)).unwrap();
    assert_eq!(kept, vec![true; 5], "a second run keeps every table");

    let tables = MakrukTables::open(&dir, Variant::Makruk).unwrap();
    assert_eq!(tables.len(), 5);
    let mate_in_one = Position::from_fen(Variant::Makruk, "7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
    let answer = tables.answer(&mate_in_one).unwrap().unwrap();
    assert_eq!((answer.category, answer.dtm), ("win", Some(1)));
    assert_eq!(answer.moves[0].uci, "a1a8");
    assert_eq!(answer.moves[0].category, "loss");
    // Mated in 28 plies without the count, but only 3 plies are left: a draw.
    let late = Position::from_fen(Variant::Makruk, "4k3/8/8/8/8/8/8/R3K3 b - 32 30 1").unwrap();
    let late = tables.answer(&late).unwrap().unwrap();
    assert_eq!((late.category, late.dtm), ("draw", Some(-28)));
    // A lone bia promotes, but a khun and met never mate: a draw.
    let bia = Position::from_fen(Variant::Makruk, "8/8/3P4/8/8/8/8/3K3k w - - 0 1");
    if let Ok(bia) = bia {
        assert_eq!(tables.answer(&bia).unwrap().unwrap().category, "draw");
    }
    let two_rueas = Position::from_fen(Variant::Makruk, "4k3/8/8/8/8/8/8/RR2K3 b - - 0 1").unwrap();
    assert!(
        tables.answer(&two_rueas).unwrap().is_none(),
        "four pieces: outside these tables"
    );

    let path = dir.join(table_file_name(
        Variant::Makruk,
        &Material::new(vec![Role::Rook], vec![]),
    ));
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let tables = MakrukTables::open(&dir, Variant::Makruk).unwrap();
    let mut errors = 0;
    for i in (0..64 * 64 * 64 * 2).step_by(101) {
        let material = Material::new(vec![Role::Rook], vec![]);
        if let Some(pos) =
            thaiboard_tablebase::makruk::index::position_at(Variant::Makruk, &material, (32, 6), i)
            && let Err(e) = tables.stored(&pos)
        {
            assert!(e.to_string().contains("corrupted"), "{e}");
            errors += 1;
        }
    }
    assert!(errors > 0, "the damaged block is refused when probed");
    std::fs::write(&path, &bytes[..middle]).unwrap();
    let err = MakrukTables::open(&dir, Variant::Makruk).unwrap_err();
    assert!(err.to_string().contains("truncated"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random legal positions of every 3-piece table, with counts that run (as the phase
/// starts them, and nearer their end) and without one (valued through the moves).
fn random_positions(variant: Variant, n: usize) -> Vec<Position> {
    use thaiboard_tablebase::makruk::index::position_at;
    use thaiboard_tablebase::makruk::solve::phase_count;
    let materials = Material::all_up_to(3);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let material = &materials[(seed >> 33) as usize % materials.len()];
        let (limit, ply) = phase_count(variant, material);
        let count = match (seed >> 20) % 3 {
            0 => (limit, ply),
            1 if limit > 0 => (limit, (ply + (seed >> 40) as u32 % 20).min(limit)),
            _ => (0, 0),
        };
        let i = (seed >> 11) as usize % material.entries();
        if let Some(pos) = position_at(variant, material, count, i) {
            out.push(pos);
        }
    }
    out
}

#[test]
fn probes_through_a_small_shared_block_cache_equal_uncached_probes() {
    use std::sync::Arc;
    use thaiboard_tablebase::BlockCache;
    use thaiboard_tablebase::block_cache::SHARDS;
    use thaiboard_tablebase::format::BLOCK_ENTRIES;

    let variant = Variant::Makruk;
    let dir = scratch("block-cache");
    generate(variant, 3, &dir, false, |_| {}).unwrap();
    // Two one-byte blocks per shard: far fewer than the tables' blocks, so blocks are
    // evicted and read again all along.
    let cache = Arc::new(BlockCache::new(SHARDS * 2 * BLOCK_ENTRIES as usize));
    let cached = MakrukTables::open_with_cache(&dir, variant, Arc::clone(&cache)).unwrap();
    let uncached =
        MakrukTables::open_with_cache(&dir, variant, Arc::new(BlockCache::new(0))).unwrap();
    let positions = random_positions(variant, 4000);
    let want: Vec<_> = positions
        .iter()
        .map(|p| (uncached.stored(p).unwrap(), uncached.verdict(p).unwrap()))
        .collect();
    assert!(want.iter().any(|(s, _)| s.is_some()));
    // Two threads probe the same tables through the same cache, in opposite orders.
    std::thread::scope(|s| {
        for reversed in [false, true] {
            let (cached, positions, want, cache) = (&cached, &positions, &want, &cache);
            s.spawn(move || {
                let order: Vec<usize> = if reversed {
                    (0..positions.len()).rev().collect()
                } else {
                    (0..positions.len()).collect()
                };
                for i in order {
                    let p = &positions[i];
                    let got = (cached.stored(p).unwrap(), cached.verdict(p).unwrap());
                    assert_eq!(got, want[i], "{}", p.fen());
                    assert!(cache.bytes() <= cache.capacity());
                }
            });
        }
    });
    assert!(!cache.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The tables' first move realises the distance a board's-honour table stores, through
/// conversions too: where the ruea can take the met at once (a new count, pieces'
/// honour, whose mate is many plies off) and the win is one ply from the phase's end,
/// the tables' move is that capture, not a quiet move that keeps it one move away (a
/// smaller distance to read, but the same phase still running: played over and over,
/// the game ends drawn by repetition). The same ranking makes the engine's root move.
/// (Over 10,781 wins it checks 2,274 conversions; the order itself is unit-tested in
/// `makruk::answer`, which CI runs.)
#[test]
#[ignore = "long: a four-piece table (about 100 s)"]
fn the_tables_first_move_ends_the_phase_in_the_stored_distance() {
    use thaiboard_tablebase::makruk::index::position_at;
    use thaiboard_tablebase::makruk::solve::{phase_count, same_count};
    use thaiboard_tablebase::makruk::{Dtm, generate_tables};
    let variant = Variant::Makruk;
    let dir = scratch("conversions");
    let material = Material::from_name("KRvKM").unwrap();
    let mut materials = Material::all_up_to(3);
    materials.push(material.clone());
    generate_tables(variant, &materials, &dir, false, |_| {}).unwrap();
    let tables = MakrukTables::open(&dir, variant).unwrap();
    let count = phase_count(variant, &material);
    let (mut wins, mut conversions) = (0, 0);
    for i in (0..material.entries()).step_by(997) {
        let Some(pos) = position_at(variant, &material, count, i) else {
            continue;
        };
        let Some(Dtm::Win(d)) = tables.stored(&pos).unwrap() else {
            continue;
        };
        if tables.verdict(&pos).unwrap().unwrap().value != 1 {
            continue;
        }
        let answer = tables.answer(&pos).unwrap().unwrap();
        let first = &answer.moves[0];
        assert_eq!(first.category, "loss", "{} {}", pos.fen(), first.uci);
        let m = pos.parse_uci(&first.uci).unwrap();
        let child = pos.played(m);
        if child.state() == makruk::State::Ongoing && same_count(&pos, &child) {
            let after = tables.stored(&child).unwrap();
            assert_eq!(after, Some(Dtm::Loss(d - 1)), "{} {}", pos.fen(), first.uci);
        } else {
            assert_eq!(
                d,
                1,
                "{}: {} ends the phase in one ply",
                pos.fen(),
                first.uci
            );
            conversions += 1;
        }
        wins += 1;
    }
    assert!(
        wins > 1000 && conversions > 50,
        "{wins} wins, {conversions} conversions"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
