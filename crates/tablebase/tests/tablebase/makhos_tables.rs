//! Mak-hot tables generated on the fly (up to 3 pieces) and checked three ways: every
//! entry against its moves, sampled positions against an independent solver over the
//! rules crate, and damaged files refused.

use crate::common::Lcg;
use makhos::{Position, Rules};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use thaiboard_tablebase::TableError;
use thaiboard_tablebase::makhos::{
    MakhosTables, Material, NO_PROGRESS_LIMIT, ProbeError, Stored, TableIndex, Wdl, generate,
    leads_to,
};

/// Pieces in the tables the tests generate.
const TEST_PIECES: u32 = 3;
/// Random positions compared with the independent solver, per rule option.
const SAMPLES: usize = 400;

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("thaiboard-tb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The 3-piece tables of each rule option, generated once per test binary.
fn tables_dir(rules: Rules) -> &'static Path {
    static DIRS: OnceLock<HashMap<Rules, PathBuf>> = OnceLock::new();
    DIRS.get_or_init(|| {
        Rules::ALL
            .iter()
            .map(|&r| {
                let dir = scratch_dir(r.name());
                generate(&dir, r, TEST_PIECES, true, |_| {}).unwrap();
                (r, dir)
            })
            .collect()
    })[&rules]
        .as_path()
}

fn every_position(material: Material) -> impl Iterator<Item = Position> {
    let index = TableIndex::new(material);
    (0..index.len()).filter_map(move |i| index.position_at(i))
}

#[test]
fn every_entry_agrees_with_its_moves() {
    for rules in Rules::ALL {
        let tables = MakhosTables::open(tables_dir(rules), rules).unwrap();
        for material in Material::all_up_to(TEST_PIECES) {
            for pos in every_position(material) {
                let here = tables.probe(&pos, 0).unwrap();
                let moves = tables.probe_moves(&pos, 0).unwrap();
                // What each move is worth to the mover in plies to the next zeroing move.
                let reach = |m: &thaiboard_tablebase::makhos::MoveValue| {
                    if m.zeroing {
                        1
                    } else {
                        1 + m.after.zeroing_plies().unwrap()
                    }
                };
                match here.stored {
                    Stored::Win(d) => {
                        let wins: Vec<u32> = moves
                            .iter()
                            .filter(|m| m.after.wdl == Wdl::Loss)
                            .map(reach)
                            .collect();
                        assert_eq!(wins.iter().min(), Some(&(d as u32)), "{rules} {pos}");
                    }
                    Stored::Loss(d) => {
                        assert!(
                            moves.iter().all(|m| m.after.wdl == Wdl::Win),
                            "{rules} {pos}"
                        );
                        let longest = moves.iter().map(reach).max().unwrap_or(0);
                        assert_eq!(longest, d as u32, "{rules} {pos}");
                    }
                    Stored::Draw => {
                        assert!(
                            moves.iter().all(|m| m.after.wdl != Wdl::Loss),
                            "{rules} {pos}: a draw with a winning move"
                        );
                        assert!(
                            pos.is_kings_only_draw()
                                || moves.iter().any(|m| m.after.wdl == Wdl::Draw),
                            "{rules} {pos}: a draw with no drawing move"
                        );
                    }
                }
            }
        }
    }
}

/// A plain memoised minimax over `makhos` alone, on the state (position, no-progress
/// count), which is acyclic: 1 win, 0 draw, -1 loss for the side to move. It follows
/// `makhos::Game::outcome`'s order of checks: no move, one king each, the count.
fn minimax(
    pos: &Position,
    count: u32,
    rules: Rules,
    memo: &mut HashMap<(Position, u32), i8>,
) -> i8 {
    if let Some(&v) = memo.get(&(*pos, count)) {
        return v;
    }
    let moves = pos.legal_moves(rules);
    let value = if moves.is_empty() {
        -1
    } else if pos.is_kings_only_draw() || count >= makhos::NO_PROGRESS_LIMIT {
        0
    } else {
        let mut best = -1;
        for mv in &moves {
            let next = if mv.is_capture() || pos.is_man_move(mv) {
                0
            } else {
                count + 1
            };
            best = best.max(-minimax(&pos.played(mv), next, rules, memo));
            if best == 1 {
                break;
            }
        }
        best
    };
    memo.insert((*pos, count), value);
    value
}

/// A small deterministic generator (no dependency needed for sampling).
#[test]
fn sampled_positions_match_an_independent_minimax_at_every_count() {
    for rules in Rules::ALL {
        let tables = MakhosTables::open(tables_dir(rules), rules).unwrap();
        let materials = Material::all_up_to(TEST_PIECES);
        let mut rng = Lcg(0x5eed + rules as u64);
        let mut memo = HashMap::new();
        let mut seen = [0usize; 3];
        let mut done = 0;
        while done < SAMPLES {
            let material = materials[rng.below(materials.len() as u64) as usize];
            let index = TableIndex::new(material);
            let Some(pos) = index.position_at(rng.below(index.len())) else {
                continue;
            };
            // Half the samples seen from the other side: their material has no table of its
            // own and is probed through the flip.
            let pos = if rng.below(2) == 0 {
                pos
            } else {
                pos.flipped()
            };
            // Every count pins the stored distance: the value flips exactly at 32 - d.
            for count in 0..=NO_PROGRESS_LIMIT {
                let expected = match minimax(&pos, count, rules, &mut memo) {
                    1 => Wdl::Win,
                    0 => Wdl::Draw,
                    _ => Wdl::Loss,
                };
                let got = tables.probe(&pos, count).unwrap().wdl;
                assert_eq!(got, expected, "{rules} {pos} at count {count}");
                if count == 0 {
                    seen[got as usize] += 1;
                }
            }
            done += 1;
        }
        assert!(seen.iter().all(|&n| n > 0), "{rules}: samples {seen:?}");
    }
}

/// Two kings against one with White to move: a rule text calls it a win, but White wins
/// from only 5,326 of the 14,880 placements, each within 7 plies; the rest are draws. No
/// win is longer than 7 plies, far inside the 32-ply count, so the count is not what
/// saves the lone king: a win needing more than 32 plies would pass, along its best
/// line, through positions won in every number of plies from 32 down, and there are none
/// from 8 to 32. Without the count the share would be the same.
#[test]
fn two_kings_against_one_win_only_where_the_count_allows() {
    let rules = Rules::Default;
    let tables = MakhosTables::open(tables_dir(rules), rules).unwrap();
    let kkvk: Material = "KKvK".parse().unwrap();
    let mut tally = [0u32; 3];
    for pos in every_position(kkvk).filter(|p| p.turn() == makhos::Color::White) {
        tally[tables.probe(&pos, 0).unwrap().wdl as usize] += 1;
    }
    assert_eq!(tally, [0, 14_880 - 5_326, 5_326], "[losses, draws, wins]");
    let longest = every_position(kkvk)
        .filter_map(|p| match tables.probe(&p, 0).unwrap().stored {
            Stored::Win(d) => Some(d),
            _ => None,
        })
        .max();
    assert_eq!(longest, Some(7));
    let pos: Position = "W:WKb8,Kd8:BKh2".parse().unwrap();
    assert_eq!(tables.probe(&pos, 25).unwrap().wdl, Wdl::Win);
    assert_eq!(tables.probe(&pos, 26).unwrap().wdl, Wdl::Draw);
}

#[test]
fn a_position_outside_the_tables_says_so() {
    let rules = Rules::Default;
    let tables = MakhosTables::open(tables_dir(rules), rules).unwrap();
    let pos: Position = "W:WKa1,Kc1,Ke1:BKh8".parse().unwrap();
    match tables.probe(&pos, 0) {
        Err(ProbeError::Missing { material }) => assert_eq!(material.to_string(), "KKKvK"),
        other => panic!("expected a missing table, got {other:?}"),
    }
    let err = tables.probe(&pos, 0).unwrap_err().to_string();
    assert!(err.contains("outside the tables"), "{err}");
}

#[test]
fn a_generation_run_skips_tables_already_written() {
    let dir = tables_dir(Rules::Default);
    let report = generate(dir, Rules::Default, TEST_PIECES, false, |_| {}).unwrap();
    assert!(report.iter().all(|step| step.skipped));
}

/// Every zeroing move of every position (up to 4 pieces, sampled) leads to its own
/// material, to a decided end (one king each, a side without pieces), or to a material
/// `leads_to` names: the only tables the generator keeps in memory.
#[test]
fn zeroing_moves_lead_only_where_the_generator_looks() {
    let mut zeroing = 0;
    for from in Material::all_up_to(4) {
        let index = TableIndex::new(from);
        for i in (0..index.len()).step_by(97) {
            let Some(pos) = index.position_at(i) else {
                continue;
            };
            for rules in Rules::ALL {
                for mv in pos.legal_moves(rules) {
                    if !(mv.is_capture() || pos.is_man_move(&mv)) {
                        continue;
                    }
                    let to = Material::of(&pos.played(&mv));
                    let side_gone =
                        to.white_men + to.white_kings == 0 || to.black_men + to.black_kings == 0;
                    assert!(
                        to == from || side_gone || to.is_kings_only_draw() || leads_to(from, to),
                        "{pos}: {from} to {to}"
                    );
                    zeroing += 1;
                }
            }
        }
    }
    assert!(zeroing > 10_000, "{zeroing}");
    let kk_m = Material {
        white_men: 0,
        white_kings: 2,
        black_men: 1,
        black_kings: 0,
    };
    let k_m = Material {
        white_kings: 1,
        ..kk_m
    };
    assert!(leads_to(kk_m, k_m));
    assert!(!leads_to(k_m, kk_m));
}

/// The consistency proof finds a table that was changed: one win made a step longer, one
/// loss turned into a draw.
#[test]
fn the_consistency_proof_refuses_a_changed_entry() {
    use thaiboard_tablebase::makhos::{Stored, check_table};
    let dir = tables_dir(Rules::Default);
    let kkvk: Material = "KKvK".parse().unwrap();
    let values = thaiboard_tablebase::TableFile::open(&dir.join("makhos-default-KKvK.thtb"))
        .unwrap()
        .read_all()
        .unwrap();
    let none = HashMap::new();
    assert!(check_table(kkvk, Rules::Default, &values, &none, 2).unwrap() > 10_000);
    for (from, to) in [
        (
            |s| matches!(s, Stored::Win(d) if d > 1),
            |s| match s {
                Stored::Win(d) => Stored::Win(d + 1),
                other => other,
            },
        ),
        (|s| matches!(s, Stored::Loss(d) if d > 0), |_| Stored::Draw),
    ] as [(fn(Stored) -> bool, fn(Stored) -> Stored); 2]
    {
        let at = values
            .iter()
            .position(|&b| Stored::from_byte(b).is_some_and(from))
            .unwrap();
        let mut changed = values.clone();
        changed[at] = to(Stored::from_byte(values[at]).unwrap()).to_byte();
        // The changed entry, or a position whose moves lead to it, is refused.
        let err = check_table(kkvk, Rules::Default, &changed, &none, 2).unwrap_err();
        assert!(err.reason.starts_with("stored"), "{err:?}");
    }
}

/// A table generated again alone reads the tables its moves reach from their files and
/// comes out byte for byte the same.
#[test]
fn a_table_generated_alone_reads_what_it_needs_from_disk() {
    let dir = scratch_dir("alone");
    let source = tables_dir(Rules::Default);
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    // White's man against a king: its promotion reaches KKvK, its captures nothing.
    let name = "makhos-default-KMvK.thtb";
    std::fs::remove_file(dir.join(name)).unwrap();
    let report = generate(&dir, Rules::Default, TEST_PIECES, false, |_| {}).unwrap();
    let again: Vec<_> = report.iter().filter(|s| !s.skipped).collect();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].material.to_string(), "KMvK");
    assert_eq!(
        std::fs::read(dir.join(name)).unwrap(),
        std::fs::read(source.join(name)).unwrap()
    );
}

fn copy_of_one_table(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(name);
    let from = tables_dir(Rules::Default).join("makhos-default-KKvK.thtb");
    let to = dir.join("makhos-default-KKvK.thtb");
    std::fs::copy(from, &to).unwrap();
    (dir, to)
}

#[test]
fn a_truncated_file_is_refused_on_opening() {
    let (dir, file) = copy_of_one_table("truncated");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 10]).unwrap();
    let err = MakhosTables::open(&dir, Rules::Default).unwrap_err();
    assert!(matches!(err, TableError::Truncated { .. }), "{err}");
    assert!(err.to_string().contains("truncated"), "{err}");
}

#[test]
fn a_damaged_header_is_refused_on_opening() {
    let (dir, file) = copy_of_one_table("header");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[33] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let err = MakhosTables::open(&dir, Rules::Default).unwrap_err();
    assert!(err.to_string().contains("header checksum"), "{err}");
}

#[test]
fn a_corrupted_block_is_refused_when_probed_and_verified() {
    let (dir, file) = copy_of_one_table("corrupt");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    std::fs::write(&file, &bytes).unwrap();
    let table = thaiboard_tablebase::TableFile::open(&file).unwrap();
    let err = table.verify().unwrap_err();
    assert!(matches!(err, TableError::Corrupt { .. }), "{err}");
    let tables = MakhosTables::open(&dir, Rules::Default).unwrap();
    let failures = every_position("KKvK".parse().unwrap())
        .filter(|p| {
            matches!(
                tables.probe(p, 0),
                Err(ProbeError::Table(TableError::Corrupt { .. }))
            )
        })
        .count();
    assert!(failures > 0);
}

#[test]
fn a_file_that_is_not_a_table_is_refused() {
    let dir = scratch_dir("not-a-table");
    std::fs::write(
        dir.join("junk.thtb"),
        b"hello, this is not a table at all, just text......................",
    )
    .unwrap();
    let err = MakhosTables::open(&dir, Rules::Default).unwrap_err();
    assert!(err.to_string().contains("wrong magic"), "{err}");
}

#[test]
fn probes_through_a_tiny_block_cache_equal_uncached_probes() {
    use std::sync::Arc;
    use thaiboard_tablebase::BlockCache;
    use thaiboard_tablebase::block_cache::SHARDS;
    use thaiboard_tablebase::format::BLOCK_ENTRIES;

    for rules in Rules::ALL {
        // One one-byte block per shard: blocks are evicted and read again all along.
        let cache = Arc::new(BlockCache::new(SHARDS * BLOCK_ENTRIES as usize));
        let cached =
            MakhosTables::open_with_cache(tables_dir(rules), rules, Arc::clone(&cache)).unwrap();
        let uncached =
            MakhosTables::open_with_cache(tables_dir(rules), rules, Arc::new(BlockCache::new(0)))
                .unwrap();
        let materials = Material::all_up_to(TEST_PIECES);
        let mut rng = Lcg(0xcac4e + rules as u64);
        let mut done = 0;
        while done < 3000 {
            let material = materials[rng.below(materials.len() as u64) as usize];
            let index = TableIndex::new(material);
            let Some(pos) = index.position_at(rng.below(index.len())) else {
                continue;
            };
            let count = rng.below(u64::from(NO_PROGRESS_LIMIT) + 1) as u32;
            let got = cached.probe(&pos, count).unwrap();
            assert_eq!(got, uncached.probe(&pos, count).unwrap(), "{rules} {pos}");
            assert!(cache.bytes() <= cache.capacity());
            done += 1;
        }
        assert!(!cache.is_empty());
    }
}

/// The independent answer for distances: the same plain minimax as [`minimax`], on
/// (position, count), also counting plies to the end of the game: the winner takes the
/// fewest, the loser the most. Returns (1 win / 0 draw / -1 loss, plies; 0 for a draw).
fn minimax_distance(
    pos: &Position,
    count: u32,
    rules: Rules,
    memo: &mut HashMap<(Position, u32), (i8, u32)>,
) -> (i8, u32) {
    if let Some(&v) = memo.get(&(*pos, count)) {
        return v;
    }
    let moves = pos.legal_moves(rules);
    let value = if moves.is_empty() {
        (-1, 0)
    } else if pos.is_kings_only_draw() || count >= makhos::NO_PROGRESS_LIMIT {
        (0, 0)
    } else {
        // Ranked for the mover: a win sooner beats a win later, a loss later beats a
        // loss sooner.
        let rank = |(v, d): (i8, u32)| (v, if v > 0 { -(d as i64) } else { d as i64 });
        let mut best = (-1i8, 0u32);
        let mut first = true;
        for mv in &moves {
            let next = if mv.is_capture() || pos.is_man_move(mv) {
                0
            } else {
                count + 1
            };
            let (v, d) = minimax_distance(&pos.played(mv), next, rules, memo);
            let mine = (-v, if v == 0 { 0 } else { d + 1 });
            if first || rank(mine) > rank(best) {
                best = mine;
                first = false;
            }
        }
        best
    };
    memo.insert((*pos, count), value);
    value
}

/// Every position of every table up to 3 pieces, at every count, both rule options: the
/// distance to win the tables give (read from the distance file where it has settled,
/// searched where the count is tight) equals the minimax's, and draws have none.
#[test]
fn distances_to_win_match_an_independent_minimax_at_every_count() {
    for rules in Rules::ALL {
        let tables = MakhosTables::open(tables_dir(rules), rules).unwrap();
        assert!(
            tables.has_distances(),
            "{rules}: distance files beside every table"
        );
        let mut memo = HashMap::new();
        let mut longest = 0;
        let mut differs = 0;
        for material in Material::all_up_to(TEST_PIECES) {
            for pos in every_position(material) {
                for count in 0..=NO_PROGRESS_LIMIT {
                    let (value, plies) = minimax_distance(&pos, count, rules, &mut memo);
                    let got = tables.distance_to_win(&pos, count).unwrap();
                    let expected = (value != 0).then_some(plies);
                    assert_eq!(got, expected, "{rules} {pos} at count {count}");
                    longest = longest.max(plies);
                    let zeroing = tables.probe(&pos, count).unwrap().zeroing_plies();
                    differs += usize::from(value != 0 && zeroing != Some(plies));
                }
            }
        }
        // Not a copy of the zeroing distance: with men the end lies further.
        eprintln!("{rules}: {differs} {longest}");
        assert!(
            differs > 1000 && longest > 20,
            "{rules}: {differs}, {longest}"
        );
    }
}

/// The JSON answer carries the distance to win for the position and each move, and puts
/// the soonest win first.
#[test]
fn the_answer_orders_winning_moves_by_their_distance_to_win() {
    let rules = Rules::Default;
    let tables = MakhosTables::open(tables_dir(rules), rules).unwrap();
    let pos: Position = "W:Wb6,Kc7:Bb8".parse().unwrap();
    // The docs' worked example: 3 plies to the end down to 2 plies left, 11 with 1.
    assert_eq!(tables.distance_to_win(&pos, 0).unwrap(), Some(3));
    assert_eq!(tables.distance_to_win(&pos, 30).unwrap(), Some(3));
    assert_eq!(tables.distance_to_win(&pos, 31).unwrap(), Some(11));
    assert_eq!(tables.distance_to_win(&pos, 32).unwrap(), None);
    let answer = thaiboard_tablebase::makhos::answer(&tables, &pos, 0).unwrap();
    assert_eq!(answer.category, "win");
    let dtw = answer.dtw.expect("a win has a distance");
    let first = &answer.moves[0];
    assert_eq!(first.category, "loss");
    assert_eq!(
        first.dtw,
        Some(-(dtw - 1)),
        "the best move is one ply nearer the end"
    );
    let losses: Vec<i32> = answer
        .moves
        .iter()
        .filter(|m| m.category == "loss")
        .map(|m| -m.dtw.unwrap())
        .collect();
    assert!(losses.windows(2).all(|w| w[0] <= w[1]), "{losses:?}");
}

/// A set made before distance files existed still answers (without distances), and a
/// generation run over it adds them from the main tables kept, byte for byte as a fresh
/// run makes them.
#[test]
fn a_set_without_distances_answers_without_them_and_a_run_adds_them() {
    let source = tables_dir(Rules::Default);
    let dir = scratch_dir("no-distances");
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with("-dtw.thtb") {
            std::fs::copy(&path, dir.join(name)).unwrap();
        }
    }
    let pos: Position = "W:Wb6,Kc7:Bb8".parse().unwrap();
    let tables = MakhosTables::open(&dir, Rules::Default).unwrap();
    assert!(!tables.has_distances());
    let answer = thaiboard_tablebase::makhos::answer(&tables, &pos, 0).unwrap();
    assert_eq!(
        (answer.category, answer.dtz, answer.dtw),
        ("win", Some(1), None)
    );
    let err = tables.distance_to_win(&pos, 0).unwrap_err();
    assert!(matches!(err, ProbeError::NoDistances { .. }), "{err}");
    assert!(err.to_string().contains("no distance-to-win file"), "{err}");

    let report = generate(&dir, Rules::Default, TEST_PIECES, false, |_| {}).unwrap();
    assert!(report.iter().all(|s| s.skipped && s.dtw_bytes > 0));
    let name = thaiboard_tablebase::makhos::dtw_file_name(Rules::Default, "KMvK".parse().unwrap());
    assert_eq!(
        std::fs::read(dir.join(&name)).unwrap(),
        std::fs::read(source.join(&name)).unwrap()
    );
    let tables = MakhosTables::open(&dir, Rules::Default).unwrap();
    assert_eq!(tables.distance_to_win(&pos, 31).unwrap(), Some(11));
}

#[test]
fn a_corrupted_distance_file_is_refused_when_probed() {
    let dir = scratch_dir("corrupt-distances");
    let source = tables_dir(Rules::Default);
    for name in ["makhos-default-KKvK.thtb", "makhos-default-KKvK-dtw.thtb"] {
        std::fs::copy(source.join(name), dir.join(name)).unwrap();
    }
    let file = dir.join("makhos-default-KKvK-dtw.thtb");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    std::fs::write(&file, &bytes).unwrap();
    let tables = MakhosTables::open(&dir, Rules::Default).unwrap();
    let failures = every_position("KKvK".parse().unwrap())
        .filter(|p| tables.probe(p, 0).unwrap().wdl != Wdl::Draw)
        .filter(|p| {
            matches!(
                tables.distance_to_win(p, 0),
                Err(ProbeError::Table(TableError::Corrupt { .. }))
            )
        })
        .count();
    assert!(failures > 0);
}

/// The four-piece tables under the default rules, made once over a copy of the
/// three-piece ones.
pub(crate) fn four_piece_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch_dir("four");
        for entry in std::fs::read_dir(tables_dir(Rules::Default)).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
        generate(&dir, Rules::Default, 4, false, |_| {}).unwrap();
        dir
    })
}

/// Four-piece positions near the count's end, where the probe searches the king moves
/// itself: its distance equals a plain search's that plays the king moves out and reads
/// each capture or man move at a fresh count. (A probe that kept its last candidate
/// instead of its best gave `B:WKh2:Bd4,Ka7,Kg7` 13 plies at count 29 for 11.)
#[test]
fn four_piece_distances_near_the_count_s_end_match_a_plain_search() {
    let tables = MakhosTables::open(four_piece_dir(), Rules::Default).unwrap();
    let pos: Position = "B:WKh2:Bd4,Ka7,Kg7".parse().unwrap();
    assert_eq!(tables.distance_to_win(&pos, 29).unwrap(), Some(11));
    let materials: Vec<Material> = Material::all_up_to(4)
        .into_iter()
        .filter(|m| m.total() == 4)
        .collect();
    let mut rng = Lcg(0xd15_7a9ce);
    let mut decided = 0;
    for _ in 0..600 {
        let material = materials[rng.below(materials.len() as u64) as usize];
        let index = TableIndex::new(material);
        let Some(pos) = index.position_at(rng.below(index.len())) else {
            continue;
        };
        let mut memo = HashMap::new();
        for count in 27..=NO_PROGRESS_LIMIT {
            let (value, plies) =
                crate::makhos_search::search(&tables, &pos, count, true, &mut memo).unwrap();
            let expected = (value != Wdl::Draw).then_some(plies);
            assert_eq!(
                tables.distance_to_win(&pos, count).unwrap(),
                expected,
                "{pos} at count {count}"
            );
            decided += usize::from(expected.is_some());
        }
    }
    assert!(decided > 500, "{decided}");
}

/// Tables that contradict themselves (entries scrambled, checksums rewritten to match,
/// as a hostile or buggy file could be) make distance probes fail with an error or give
/// some answer, never panic.
#[test]
fn scrambled_tables_make_distance_probes_fail_cleanly() {
    use thaiboard_tablebase::TableFile;
    use thaiboard_tablebase::format::write_table;
    let source = tables_dir(Rules::Default);
    let dir = scratch_dir("scrambled");
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let mut rng = Lcg(0x5c4a3b1e);
    for name in ["makhos-default-KMvK.thtb", "makhos-default-KKvK.thtb"] {
        let file = TableFile::open(&dir.join(name)).unwrap();
        let header = file.header().clone();
        let mut values = file.read_all().unwrap();
        drop(file);
        for v in values
            .iter_mut()
            .filter(|v| Stored::from_byte(**v).is_some())
        {
            *v = match rng.below(3) {
                0 => Stored::Win(1 + rng.below(32) as u8),
                1 => Stored::Loss(rng.below(33) as u8),
                _ => Stored::Draw,
            }
            .to_byte();
        }
        write_table(&dir.join(name), &header, &values).unwrap();
        // Their distances "not settled" anywhere, so that probes search.
        let dtw = dir.join(name.replace(".thtb", "-dtw.thtb"));
        let file = TableFile::open(&dtw).unwrap();
        let header = file.header().clone();
        let mut bytes = file.read_all().unwrap();
        drop(file);
        for pair in bytes.chunks_exact_mut(2) {
            pair[1] |= 0xF0;
        }
        write_table(&dtw, &header, &bytes).unwrap();
    }
    let tables = MakhosTables::open(&dir, Rules::Default).unwrap();
    let (mut answered, mut refused) = (0, 0);
    for material in ["KMvK", "KKvK"] {
        for pos in every_position(material.parse().unwrap()) {
            for count in [0, 16, 30, 31, 32] {
                match tables.distance_to_win(&pos, count) {
                    Ok(_) => answered += 1,
                    Err(e) => {
                        assert!(e.to_string().contains("contradict themselves"), "{e}");
                        refused += 1;
                    }
                }
            }
        }
    }
    assert!(answered > 0 && refused > 0, "{answered} {refused}");
}

/// A Mak-hot file of a metric or entry width no Mak-hot table has is refused on opening,
/// with what it is.
#[test]
fn a_file_of_an_unknown_metric_is_refused_on_opening() {
    use thaiboard_tablebase::TableFile;
    use thaiboard_tablebase::format::write_table;
    let (dir, file) = copy_of_one_table("metric");
    let table = TableFile::open(&file).unwrap();
    let header = thaiboard_tablebase::Header {
        metric: 7,
        ..table.header().clone()
    };
    let values = table.read_all().unwrap();
    drop(table);
    write_table(&file, &header, &values).unwrap();
    let err = MakhosTables::open(&dir, Rules::Default).unwrap_err();
    assert!(
        err.to_string()
            .contains("metric 7 with 1-byte entries is not a Mak-hot table"),
        "{err}"
    );
}
