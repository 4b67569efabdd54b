//! Every reference vector from Fairy-Stockfish in `vectors/makruk/`.

use crate::common::{json_lines, read_vector};
use makruk::{Position, State, Variant, perft};
use std::collections::BTreeMap;

fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::Makruk, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn perft_epd_every_position_every_depth() {
    let text = read_vector("perft.epd");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let p = pos(fen);
        for part in parts {
            let (d, n) = part.trim().split_once(' ').expect("`Dn count`");
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let expected: u64 = n.trim().parse().unwrap();
            assert_eq!(perft(&p, depth), expected, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 400, "only {checked} perft entries read");
}

#[test]
fn moves_jsonl_legal_moves_san_and_fen_after() {
    let lines = json_lines("moves.jsonl");
    assert_eq!(lines.len(), 120);
    for v in lines {
        let fen = v["fen"].as_str().unwrap();
        let p = pos(fen);
        assert_eq!(p.fen(), fen, "FEN round trip");
        assert_eq!(
            p.is_check(),
            v["in_check"].as_bool().unwrap(),
            "{fen} in_check"
        );
        // Fairy-Stockfish's `state` does not end the game when only the
        // khuns are left; RULES.md does (`insufficient_material`).
        let expected_state = match v["state"].as_str().unwrap() {
            "ongoing" if p.occupied() == p.by_role(makruk::Role::King) => "insufficient_material",
            other => other,
        };
        assert_eq!(p.state().name(), expected_state, "{fen} state");
        let expected: BTreeMap<String, (String, String)> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["uci"].as_str().unwrap().to_string(),
                    (
                        m["san"].as_str().unwrap().to_string(),
                        m["fen_after"].as_str().unwrap().to_string(),
                    ),
                )
            })
            .collect();
        let ours: BTreeMap<String, (String, String)> = p
            .legal_moves()
            .iter()
            .map(|&m| (m.to_uci(), (p.san(m), p.played(m).fen())))
            .collect();
        let exp_keys: Vec<_> = expected.keys().collect();
        let our_keys: Vec<_> = ours.keys().collect();
        assert_eq!(our_keys, exp_keys, "{fen}: legal move set");
        for (uci, (san, after)) in &expected {
            let (our_san, our_after) = &ours[uci];
            assert_eq!(our_san, san, "{fen} {uci}: SAN");
            assert_eq!(our_after, after, "{fen} {uci}: FEN after");
            assert_eq!(
                p.parse_san(san).unwrap().to_uci(),
                *uci,
                "{fen}: reading {san}"
            );
            assert_eq!(
                p.parse_uci(uci).unwrap().to_uci(),
                *uci,
                "{fen}: reading {uci}"
            );
        }
    }
}

fn expected_state(reason: &str) -> State {
    match reason {
        "checkmate" => State::Checkmate,
        "stalemate" => State::Stalemate,
        "counting_draw" => State::CountingDraw,
        "insufficient_material" => State::InsufficientMaterial,
        "move_limit" => State::Ongoing,
        other => panic!("unknown reason {other}"),
    }
}

fn expected_result(state: State, p: &Position) -> &'static str {
    match state {
        State::Checkmate => {
            if p.turn() == makruk::Color::White {
                "0-1"
            } else {
                "1-0"
            }
        }
        State::Ongoing => "*",
        _ => "1/2-1/2",
    }
}

#[test]
fn games_jsonl_replay_from_uci_and_from_san() {
    let games = json_lines("games.jsonl");
    assert!(!games.is_empty());
    for (i, g) in games.iter().enumerate() {
        let final_fen = g["final_fen"].as_str().unwrap();
        let reason = g["reason"].as_str().unwrap();
        let result = g["result"].as_str().unwrap();
        let mut by_uci = Position::new(Variant::Makruk);
        let mut by_san = Position::new(Variant::Makruk);
        let ucis = g["moves"].as_array().unwrap();
        let sans = g["san"].as_array().unwrap();
        assert_eq!(ucis.len(), sans.len());
        for (ply, (u, s)) in ucis.iter().zip(sans).enumerate() {
            let (u, s) = (u.as_str().unwrap(), s.as_str().unwrap());
            assert_eq!(
                by_uci.state(),
                State::Ongoing,
                "game {i} ply {ply}: ended early"
            );
            let mu = by_uci
                .parse_uci(u)
                .unwrap_or_else(|e| panic!("game {i} ply {ply}: {e}"));
            assert_eq!(by_uci.san(mu), s, "game {i} ply {ply}: SAN of {u}");
            let ms = by_san
                .parse_san(s)
                .unwrap_or_else(|e| panic!("game {i} ply {ply}: {e}"));
            assert_eq!(ms, mu, "game {i} ply {ply}: {s} read as {ms}");
            by_uci.play_unchecked(mu);
            by_san.play_unchecked(ms);
        }
        assert_eq!(by_uci.fen(), final_fen, "game {i}: final FEN from UCI");
        assert_eq!(by_san.fen(), final_fen, "game {i}: final FEN from SAN");
        let state = by_uci.state();
        assert_eq!(state, expected_state(reason), "game {i}: state");
        assert_eq!(expected_result(state, &by_uci), result, "game {i}: result");
    }
}

#[test]
fn special_jsonl_states() {
    let lines = json_lines("special.jsonl");
    assert_eq!(lines.len(), 111);
    for v in lines {
        let fen = v["fen"].as_str().unwrap();
        let p = pos(fen);
        assert_eq!(p.fen(), fen, "FEN round trip");
        let state = p.state();
        match v["state"].as_str().unwrap() {
            "check" => {
                assert!(p.is_check(), "{fen}: in check");
                assert_eq!(state, State::Ongoing, "{fen}");
            }
            other => assert_eq!(state.name(), other, "{fen}"),
        }
    }
}

#[test]
fn start_position_perft_to_depth_5() {
    let p = Position::new(Variant::Makruk);
    let expected = [23, 529, 12012, 273026, 6223994];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

/// Depth 6 from the start: run with `cargo test --release -- --ignored`.
#[test]
#[ignore = "142 million nodes: run in release mode"]
fn start_position_perft_depth_6() {
    assert_eq!(perft(&Position::new(Variant::Makruk), 6), 142_078_049);
}
