//! Perft from the start position against the reference numbers of RULES.md section 3.

use makhos::{Position, Rules, perft, perft_divide};

/// Depths 1-12 from RULES.md (default rules; `no-reverse` equal below depth 12).
const START: [u64; 12] = [
    7,
    49,
    392,
    3136,
    26592,
    218695,
    1820189,
    14533014,
    114530830,
    861842812,
    6304986761,
    43844242933,
];

#[test]
fn start_perft_depth_1_to_7_both_rule_sets() {
    for rules in Rules::ALL {
        for depth in 1..=7u32 {
            assert_eq!(
                perft(&Position::start(), rules, depth),
                START[depth as usize - 1],
                "{rules} depth {depth}"
            );
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let div = perft_divide(&Position::start(), Rules::Default, 5);
    assert_eq!(div.len(), 7);
    assert_eq!(div.iter().map(|(_, n)| n).sum::<u64>(), START[4]);
}

#[test]
fn perft_depth_zero_is_one() {
    assert_eq!(perft(&Position::start(), Rules::Default, 0), 1);
}

/// Depths 8 and 9 (slow in debug builds: run with `cargo test --release -- --ignored`).
#[test]
#[ignore]
fn start_perft_depth_8_and_9() {
    for depth in 8..=9u32 {
        assert_eq!(
            perft(&Position::start(), Rules::Default, depth),
            START[depth as usize - 1],
            "depth {depth}"
        );
    }
}
