//! Perft as the engine reports it (`go perft N`, and `thaiboard perft`):
//! `MOVE: COUNT` per root move, a blank line, `Nodes searched: N`, as
//! Stockfish prints it.

/// The count below each legal move of a Makruk or Ouk Chatrang position at
/// `depth` (moves in UCI notation, in move-generation order), and the total
/// (1 at depth 0).
pub fn makruk_divide(pos: &makruk::Position, depth: u32) -> (Vec<(String, u64)>, u64) {
    let rows: Vec<(String, u64)> = makruk::perft_divide(pos, depth)
        .into_iter()
        .map(|(m, n)| (m.to_uci(), n))
        .collect();
    let total = if depth == 0 {
        1
    } else {
        rows.iter().map(|(_, n)| n).sum()
    };
    (rows, total)
}

/// The count below each legal move of a Mak-hot position under `rules` at
/// `depth` (moves in engine notation, sorted), and the total (1 at depth 0).
pub fn makhos_divide(
    pos: &makhos::Position,
    rules: makhos::Rules,
    depth: u32,
) -> (Vec<(String, u64)>, u64) {
    let mut rows: Vec<(String, u64)> = makhos::perft_divide(pos, rules, depth)
        .into_iter()
        .map(|(m, n)| (m.to_engine(), n))
        .collect();
    let total: u64 = if depth == 0 {
        1
    } else {
        rows.iter().map(|(_, n)| n).sum()
    };
    rows.sort();
    (rows, total)
}

/// The report: `MOVE: COUNT` per row, a blank line, `Nodes searched: N`.
pub fn report(rows: &[(String, u64)], total: u64) -> String {
    let mut text = String::new();
    for (m, n) in rows {
        text.push_str(&format!("{m}: {n}\n"));
    }
    text.push_str(&format!("\nNodes searched: {total}\n"));
    text
}
