//! The bench signature, as Stockfish keeps one: the node counts `thaiboard
//! bench` prints for both games at their default depths. A change to the
//! search or the evaluations that changes them fails here until the expected
//! counts are updated in the same commit (then say so in its message).

use engine::bench::{DEFAULT_DEPTHS, bench_makhos, bench_makruk};

/// Makruk nodes of `thaiboard bench` (depth 10, six positions).
const MAKRUK_NODES: u64 = 229_656;
/// Mak-hot nodes of `thaiboard bench` (depth 14, four positions).
const MAKHOS_NODES: u64 = 845_936;

#[test]
fn bench_node_counts_are_the_signature() {
    assert_eq!(DEFAULT_DEPTHS, (10, 14));
    let makruk = bench_makruk(DEFAULT_DEPTHS.0).nodes;
    let makhos = bench_makhos(DEFAULT_DEPTHS.1).nodes;
    assert_eq!(
        (makruk, makhos),
        (MAKRUK_NODES, MAKHOS_NODES),
        "the bench signature changed: Makruk {makruk}, Mak-hot {makhos} nodes \
         (total {}); update the constants if that was meant",
        makruk + makhos
    );
}
