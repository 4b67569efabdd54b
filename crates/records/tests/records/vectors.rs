//! The test vectors (`vectors/`): SchemingMind and PlayOK records, and the
//! Fairy-Stockfish games written out as PGN and read back.

use games::{Color, EndReason, Outcome};
use records::{
    AnyMove, AnyPosition, Game, GameKind, GameResult, Letters, Node, Reader, WriteOptions,
    game_to_string, read_all, read_one, replay,
};

fn vector(name: &str) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors/makruk/");
    let path = format!("{dir}{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "test vector {path} cannot be read ({e}); the tests read the repository's \
             vectors/ folder (vectors/makruk/{name})"
        )
    })
}

/// The SAN of every main-line move, in `letters`.
fn mainline_san(game: &Game, letters: Letters) -> Vec<String> {
    let mut board = game.start.clone();
    let mut out = Vec::new();
    for node in &game.moves.nodes {
        out.push(records::move_text(
            &board,
            &node.mv,
            letters,
            records::SquareStyle::Numeric,
            node.draw_offer,
        ));
        board.play(&node.mv).unwrap();
    }
    out
}

#[test]
fn schemingmind_replays_to_mate() {
    let text = vector("schemingmind.pgn");
    let games = read_all(&text);
    assert_eq!(games.len(), 1);
    let game = games[0].clone().expect("the SchemingMind game reads");
    assert_eq!(game.kind(), GameKind::Makruk(makruk::Variant::Makruk));
    assert_eq!(game.result, GameResult::WhiteWins);
    let r = replay(&game);
    assert_eq!(r.plies, 225, "113 moves, the last one White's");
    assert_eq!(
        r.state,
        Some(Outcome::win(Color::White, EndReason::Checkmate))
    );
    assert_eq!(r.decided_result(), Some(GameResult::WhiteWins));
    assert_eq!(r.rule_end, None);
    // The last move, as SchemingMind writes it, with its number.
    let sans = mainline_san(&game, Letters::SchemingMind);
    assert_eq!(sans.last().map(String::as_str), Some("Nc1#"));
    assert_eq!(sans[..4], ["d4", "c5", "c4", "Ne7"]);
    let mut before_last = game.start.clone();
    for node in &game.moves.nodes[..224] {
        before_last.play(&node.mv).unwrap();
    }
    assert_eq!(records::move_number_text(&before_last), "113.");
    // 53... Nd8= : Black offered a draw with his 53rd move, kept in the tree.
    let offers: Vec<usize> = game
        .moves
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.draw_offer)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(offers, vec![105]);
    assert_eq!(sans[105], "Nd8=");
    // Written in both letter sets and read back: the same tree.
    for letters in [Letters::Fsf, Letters::SchemingMind] {
        let out = game_to_string(&game, &WriteOptions::with_letters(letters));
        assert_eq!(read_one(&out).unwrap(), game, "{out}");
        assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
    }
    let fsf = game_to_string(&game, &WriteOptions::default());
    assert!(fsf.contains("53. Kc5 Nd8="), "{fsf}");
    assert!(
        fsf.contains("113. Nc1#") && fsf.trim_end().ends_with("1-0"),
        "{fsf}"
    );
    assert!(fsf.contains("Sf2"), "{fsf}");
    let sm = game_to_string(&game, &WriteOptions::with_letters(Letters::SchemingMind));
    assert!(sm.contains("3. Bf2"), "{sm}");
}

/// The move texts of each game's movetext, counted independently of the
/// reader.
fn playok_move_counts(text: &str) -> Vec<usize> {
    let mut counts = Vec::new();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            if let Some(c) = current.take() {
                counts.push(c);
            }
            continue;
        }
        for tok in line.split_whitespace() {
            let is_number =
                tok.ends_with('.') && tok[..tok.len() - 1].chars().all(|c| c.is_ascii_digit());
            let is_result = matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*");
            if !is_number && !is_result {
                *current.get_or_insert(0) += 1;
            } else {
                current.get_or_insert(0);
            }
        }
    }
    if let Some(c) = current {
        counts.push(c);
    }
    counts
}

#[test]
fn playok_games_replay_to_their_last_move() {
    let text = vector("playok.pgn");
    let expected = playok_move_counts(&text);
    assert_eq!(expected.len(), 18);
    let games: Vec<Game> = Reader::new(text.as_bytes())
        .map(|g| g.expect("every PlayOK game reads"))
        .collect();
    assert_eq!(games.len(), 18);
    let mut counts_past_expiry = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let r = replay(game);
        assert_eq!(r.plies, expected[i], "game {}", i + 1);
        assert_eq!(r.illegal_ply, None);
        assert_eq!(game.tags.get("Site"), Some("PlayOK"));
        assert_ne!(game.result, GameResult::Unknown);
        if let Some(decided) = r.decided_result() {
            assert_eq!(decided, game.result, "game {}", i + 1);
        }
        if let Some(end) = &r.rule_end {
            counts_past_expiry.push((i + 1, end.clone(), r.state));
        }
        // Round trip in both letter sets.
        for letters in [Letters::Fsf, Letters::SchemingMind] {
            let out = game_to_string(game, &WriteOptions::with_letters(letters));
            assert_eq!(&read_one(&out).unwrap(), game, "game {}: {out}", i + 1);
        }
    }
    // RULES.md: one PlayOK game mates at count 182 of 128, past an
    // automatic count that nobody declared; the replay accepts it and says
    // where the automatic count would have ended the game.
    let mated_late: Vec<_> = counts_past_expiry
        .iter()
        .filter(|(_, _, s)| s.is_some_and(|o| o.reason == EndReason::Checkmate))
        .collect();
    assert_eq!(mated_late.len(), 1, "{counts_past_expiry:?}");
    let (n, end, _) = mated_late[0];
    assert_eq!(*n, 4);
    assert_eq!((end.ply, end.move_number.as_str()), (236, "118..."));
    assert_eq!(end.count, Some((129, 128)));
    match &replay(&games[3]).end {
        AnyPosition::Makruk(p) => {
            let c = p.counting().expect("the count still runs at the mate");
            assert_eq!((c.ply, c.limit), (182, 128));
        }
        other => panic!("{other:?}"),
    }
    for (n, end, _) in &counts_past_expiry {
        eprintln!("playok game {n}: {end}");
        match end.state.reason {
            EndReason::CountingDraw => {
                let (count, limit) = end.count.expect("a count ran out");
                assert!(count > limit, "game {n}");
            }
            // Game 15 plays on with the two khuns alone.
            EndReason::InsufficientMaterial => assert_eq!(*n, 15),
            other => panic!("game {n}: {other:?}"),
        }
    }
}

#[test]
fn playok_promotion_and_promoted_bia_moves() {
    let text = vector("playok.pgn");
    let games: Vec<Game> = read_all(&text).into_iter().map(Result::unwrap).collect();
    // Game 4: 34. e6=P then 40. Pd5 (the promoted bia, a met, moves).
    let g = &games[3];
    let sans = mainline_san(g, Letters::Fsf);
    assert_eq!(sans[66], "e6=M");
    assert_eq!(sans[78], "Md5");
}

#[test]
fn fairy_stockfish_games_round_trip_as_pgn() {
    let text = vector("games.jsonl");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        n += 1;
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let ucis: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let sans: Vec<&str> = v["san"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let final_fen = v["final_fen"].as_str().unwrap();
        let result = GameResult::from_text(v["result"].as_str().unwrap()).unwrap();
        let mut game = Game::new(AnyPosition::start(GameKind::Makruk(
            makruk::Variant::Makruk,
        )));
        let mut pos = makruk::Position::new(makruk::Variant::Makruk);
        for uci in &ucis {
            let m = pos.parse_uci(uci).unwrap();
            pos.play(m).unwrap();
            game.moves.nodes.push(Node::new(AnyMove::Makruk(m)));
        }
        game.set_result(result);
        let out = game_to_string(&game, &WriteOptions::default());
        let back = read_one(&out).unwrap_or_else(|e| panic!("game {n}: {e}\n{out}"));
        assert_eq!(back, game, "game {n}");
        let back_moves: Vec<String> = back
            .mainline()
            .map(|m| match m {
                AnyMove::Makruk(m) => m.to_uci(),
                AnyMove::Makhos(_) => unreachable!(),
            })
            .collect();
        assert_eq!(back_moves, ucis, "game {n}");
        assert_eq!(mainline_san(&back, Letters::Fsf), sans, "game {n}");
        assert_eq!(back.end_position().fen(), final_fen, "game {n}");
        assert_eq!(back.result, result);
        let r = replay(&back);
        assert_eq!(
            r.state_name(),
            match v["reason"].as_str().unwrap() {
                "move_limit" => "ongoing",
                other => other,
            },
            "game {n}"
        );
        // The SAN list of the vector read as movetext gives the same game.
        let movetext = format!("[Variant \"makruk\"]\n\n{} {}\n", sans.join(" "), result);
        assert_eq!(read_one(&movetext).unwrap().moves, game.moves, "game {n}");
    }
    assert!(n > 0);
}
