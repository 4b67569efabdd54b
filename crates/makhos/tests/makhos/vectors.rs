//! Every entry of the independent test vectors in `vectors/makhos/`.

use makhos::{Position, Rules, perft};

const PERFT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../vectors/makhos/perft.txt"
);
const MOVES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../vectors/makhos/moves.jsonl"
);

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("cannot read test vectors at {path}: {e} (the vectors/ folder of the repository)")
    })
}

fn position(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("vector position {text} rejected: {e}"))
}

fn rules(text: &str) -> Rules {
    text.parse()
        .unwrap_or_else(|e| panic!("vector rules {text}: {e}"))
}

#[test]
fn perft_vectors() {
    let text = read(PERFT);
    let mut checked = 0;
    let mut failures = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert!(fields.len() >= 3, "line {}: malformed: {line}", line_no + 1);
        let pos = position(fields[0]);
        let r = rules(fields[1]);
        for f in &fields[2..] {
            let (d, n) = f
                .split_once(' ')
                .unwrap_or_else(|| panic!("line {}: bad field {f}", line_no + 1));
            let depth: u32 = d.trim_start_matches('D').parse().expect("depth");
            let expect: u64 = n.trim().parse().expect("count");
            let got = perft(&pos, r, depth);
            if got != expect {
                failures.push(format!(
                    "line {}: {} ; {r} ; D{depth}: expected {expect}, got {got}",
                    line_no + 1,
                    fields[0]
                ));
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} perft mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 1000, "only {checked} perft counts checked");
}

#[test]
fn move_list_vectors() {
    let text = read(MOVES);
    let mut checked = 0;
    let mut failures = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        let pos = position(v["position"].as_str().expect("position"));
        let r = rules(v["rules"].as_str().expect("rules"));
        let expect: Vec<String> = v["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m.as_str().expect("move").to_string())
            .collect();
        let mut got: Vec<String> = pos
            .legal_moves(r)
            .iter()
            .map(|m| m.to_algebraic())
            .collect();
        got.sort();
        if got != expect {
            failures.push(format!(
                "line {}: {pos} ; {r}\n  expected {expect:?}\n  got      {got:?}",
                line_no + 1
            ));
        }
        // Every listed move text reads back to a legal move with that exact text.
        for m in &expect {
            match pos.parse_move(r, m) {
                Ok(mv) if mv.to_algebraic() == *m || got.contains(m) => {}
                other => failures.push(format!("line {}: {m} parsed as {other:?}", line_no + 1)),
            }
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} move-list mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 200);
}
