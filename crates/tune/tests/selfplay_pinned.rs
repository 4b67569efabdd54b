//! The tuner's self-play for fixed seeds, pinned: any change to the games
//! played or the positions written changes these digests. Update them only
//! with a change meant to change the data.

use engine::eval::{MakhosWeights, MakrukWeights};
use engine::{MakhosGame, MakrukGame};
use tune::selfplay::{PlayConfig, generate, play_match};

/// FNV-1a of `bytes`.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

const CFG: PlayConfig = PlayConfig {
    nodes: 150,
    random_plies: 6,
    max_plies: 160,
};

#[test]
fn self_play_data_and_matches_for_a_fixed_seed_are_pinned() {
    let mut makruk = Vec::new();
    generate::<MakrukGame>(
        &MakrukWeights::DEFAULT,
        3,
        &CFG,
        0x5EED,
        &mut makruk,
        |_| {},
    )
    .unwrap();
    let mut makhos = Vec::new();
    generate::<MakhosGame>(
        &MakhosWeights::DEFAULT,
        3,
        &CFG,
        0x5EED,
        &mut makhos,
        |_| {},
    )
    .unwrap();
    let mut other = MakrukWeights::DEFAULT;
    other.terms.mg[0] += 40;
    let other: &'static MakrukWeights = Box::leak(Box::new(other));
    let m = play_match::<MakrukGame>(&MakrukWeights::DEFAULT, other, 2, &CFG, 0x5EED, |_| {});
    let got = (fnv(&makruk), fnv(&makhos), (m.wins, m.draws, m.losses));
    assert_eq!(
        got,
        (0x8be7_8cbf_9432_15a9, 0x1ad7_6343_27e7_9842, (0, 3, 1)),
        "{got:#x?}"
    );
}
