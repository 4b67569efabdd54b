//! The self-play data for fixed seeds, pinned: any change to the games
//! played or the records written changes these digests. Update them only
//! with a change meant to change the data.

use engine::eval::nnue::{Layout, embedded};
use nnue::selfplay::{GenConfig, generate, generate_makhos};

fn cfg(network: Option<&'static engine::eval::nnue::Network>) -> GenConfig {
    GenConfig {
        nodes: 150,
        random_plies: 6,
        max_plies: 160,
        games_per_shard: 3,
        shards: 2,
        seed: 0x5EED,
        network,
    }
}

/// The shards `run` writes into a fresh directory, as one digest.
fn digest(name: &str, run: impl FnOnce(&std::path::Path)) -> u32 {
    let dir = std::env::temp_dir().join(format!(
        "thaiboard-nnue-pinned-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    run(&dir);
    let mut h = crc32fast::Hasher::new();
    for n in 0..2 {
        h.update(&std::fs::read(nnue::data::shard_path(&dir, n)).unwrap());
    }
    std::fs::remove_dir_all(&dir).unwrap();
    h.finalize()
}

#[test]
fn self_play_shards_for_a_fixed_seed_are_pinned() {
    let makruk = digest("makruk", |d| generate(d, &cfg(None), |_| {}).unwrap());
    let net = embedded(Layout::Makruk).ok();
    let makruk_net = digest("makruk-net", |d| generate(d, &cfg(net), |_| {}).unwrap());
    let makhos = digest("makhos", |d| {
        generate_makhos(d, &cfg(None), |_| {}).unwrap()
    });
    let net = embedded(Layout::Makhos).ok();
    let makhos_net = digest("makhos-net", |d| {
        generate_makhos(d, &cfg(net), |_| {}).unwrap()
    });
    assert_eq!(
        [makruk, makruk_net, makhos, makhos_net],
        [0x9c2f8141, 0x36304700, 0x89d4fc56, 0x40a22999],
        "{:#010x} {:#010x} {:#010x} {:#010x}",
        makruk,
        makruk_net,
        makhos,
        makhos_net
    );
}
