//! The reader on hand-written records: tags, variants, comments, NAGs,
//! variations, Mak-hot PDN, errors and recovery.

use records::{
    AnyMove, AnyPosition, ErrorKind, Game, GameKind, GameResult, Letters, ReadError, SquareStyle,
    WriteOptions, game_to_string, read_all, read_one, replay,
};

fn one(text: &str) -> Game {
    read_one(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn err(text: &str) -> ReadError {
    match read_one(text) {
        Ok(g) => panic!("read without error: {g:?}"),
        Err(e) => e,
    }
}

fn round_trip(game: &Game) {
    for letters in [Letters::Fsf, Letters::SchemingMind] {
        for squares in [SquareStyle::Numeric, SquareStyle::Algebraic] {
            let opts = WriteOptions {
                letters,
                squares,
                ..WriteOptions::default()
            };
            let out = game_to_string(game, &opts);
            assert_eq!(&read_one(&out).unwrap(), game, "{out}");
        }
    }
}

#[test]
fn tags_roster_and_variants() {
    let g = one(
        "[White \"Somchai \\\"the \\\\ khun\\\"\"]\n[Variant \"Makruk\"]\n[Event \"x\"]\n\n1. e4 *",
    );
    let tags: Vec<(&str, &str)> = g.tags.iter().collect();
    assert_eq!(
        tags,
        vec![
            ("Event", "x"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "?"),
            ("White", "Somchai \"the \\ khun\""),
            ("Black", "?"),
            ("Result", "*"),
            ("Variant", "Makruk"),
        ]
    );
    assert_eq!(g.kind(), GameKind::Makruk(makruk::Variant::Makruk));
    round_trip(&g);
    // Ouk Chatrang: the khun's first-move leap is legal there, not in Makruk.
    let g = one("[Variant \"cambodian\"]\n\n1. Kb2 *");
    assert_eq!(g.kind(), GameKind::Makruk(makruk::Variant::Cambodian));
    round_trip(&g);
    let e = err("[Variant \"makruk\"]\n\n1. Kb2 *");
    assert_eq!(e.kind, ErrorKind::IllegalMove);
    assert_eq!((e.line, e.column, e.text.as_str()), (3, 4, "Kb2"));
    assert_eq!(e.move_number.as_deref(), Some("1."));
    let e = err("[Event \"e\"]\n[Variant \"chess\"]\n\n1. e4 *");
    assert_eq!(e.kind, ErrorKind::UnknownVariant);
    assert_eq!((e.line, e.column), (2, 1));
    assert_eq!(e.text, "[Variant \"chess\"]");
}

#[test]
fn fen_and_setup() {
    // SchemingMind letters in the FEN, Black to move, move 30.
    let g = one(
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/1N1K1N2 b - - 0 30\"]\n\n30... Kd7 31. Nbd2 Ke6 1/2-1/2",
    );
    assert_eq!(g.moves.nodes.len(), 3);
    assert_eq!(g.result, GameResult::Draw);
    let out = game_to_string(&g, &WriteOptions::default());
    assert!(out.contains("30... Kd7 31. Nbd2 Ke6 1/2-1/2"), "{out}");
    round_trip(&g);
    let e = err("[FEN \"4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1\"]\n\n1. Nd2 *");
    assert!(
        matches!(&e.kind, ErrorKind::AmbiguousMove(c) if c.len() == 2),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "game 1, line 3, column 4: ambiguous move (could be Nbd2, Nfd2): 1. Nd2"
    );
    let e = err("[FEN \"8/8/8/8 w\"]\n\n*");
    assert!(matches!(e.kind, ErrorKind::BadFen(_)), "{e}");
    assert_eq!((e.line, e.column), (1, 1));
}

#[test]
fn comments_nags_and_variations_form_a_tree() {
    let text = "% an escape line\n[Event \"t\"]\n\n{before} 1. e4 $1 {after e4} {again} (1. d4?! {d4} \
                (1. c4) 1... d5) (; rest of line\n1. a4 a5) 1... e5!! 2. Md2 ; end\n1-0\n";
    let g = one(text);
    let line = &g.moves;
    assert_eq!(line.comments, vec!["before"]);
    assert_eq!(line.nodes.len(), 3);
    let e4 = &line.nodes[0];
    assert_eq!(e4.nags, vec![1]);
    assert_eq!(e4.comments, vec!["after e4", "again"]);
    assert_eq!(e4.variations.len(), 2);
    let v1 = &e4.variations[0];
    assert_eq!(v1.nodes.len(), 2);
    assert_eq!(v1.nodes[0].nags, vec![6]);
    assert_eq!(v1.nodes[0].comments, vec!["d4"]);
    assert_eq!(v1.nodes[0].variations[0].nodes.len(), 1);
    let v2 = &e4.variations[1];
    assert_eq!(v2.comments, vec!["rest of line"]);
    assert_eq!(v2.nodes.len(), 2);
    assert_eq!(line.nodes[1].nags, vec![3]);
    assert_eq!(line.nodes[2].comments, vec!["end"]);
    assert_eq!(g.result, GameResult::WhiteWins);
    let out = game_to_string(&g, &WriteOptions::default());
    assert!(
        out.contains("{before} 1. e4 $1 {after e4} {again} (1. d4 $6 {d4} (1. c4) 1... d5)"),
        "{out}"
    );
    round_trip(&g);
}

#[test]
fn schemingmind_draw_offer_and_playok_promotion_marks() {
    let g = one("1. e4 e5= 2. Qd2 Qe7 *");
    assert!(g.moves.nodes[1].draw_offer);
    let out = game_to_string(&g, &WriteOptions::with_letters(Letters::SchemingMind));
    assert!(out.contains("1. e4 e5= 2. Qd2 Qe7 *"), "{out}");
    round_trip(&g);
    // A bia promotes on the sixth rank: written `=M`, `=Q`, `=P` or bare.
    let fen = "[FEN \"4k3/8/8/2P5/8/8/8/3K4 w - - 0 1\"]\n\n";
    for promo in ["c6", "c6=M", "c6=Q", "c6=P", "c6M"] {
        let g = one(&format!("{fen}1. {promo} Kf7 2. Pd5 *"));
        assert_eq!(g.moves.nodes.len(), 3, "{promo}");
        let out = game_to_string(&g, &WriteOptions::default());
        assert!(out.contains("1. c6=M Kf7 2. Md5"), "{out}");
    }
}

#[test]
fn makhos_pdn_notations() {
    let head = "[GameType \"makhos\"]\n[FEN \"B:Wa1,d2,h2,d4:BKh4,c5,h6,e7,b8,d8,f8,h8\"]\n\n";
    let mut games = Vec::new();
    for mv in [
        "14x30", "14x23x30", "14-23-30", "c5xe3xc1", "c5xc1", "c5e3c1",
    ] {
        let g = one(&format!("{head}1... {mv} 2. 28-24 *"));
        assert_eq!(g.kind(), GameKind::Makhos(makhos::Rules::Default));
        games.push(g);
    }
    assert!(games.windows(2).all(|w| w[0] == w[1]));
    let out = game_to_string(&games[0], &WriteOptions::default());
    assert!(out.contains("1... 14x23x30 2. 28-24 *"), "{out}");
    let opts = WriteOptions {
        squares: SquareStyle::Algebraic,
        ..WriteOptions::default()
    };
    let out = game_to_string(&games[0], &opts);
    assert!(out.contains("1... c5xe3xc1 2. h2-g3 *"), "{out}");
    round_trip(&games[0]);
    // The start position, numbers, and the result of a blocked side.
    let g = one("[Variant \"makhos\"]\n\n1. 25-22 6-10 2. 22-18 10-14 3. 18x9 5x14 1-0");
    assert_eq!(g.moves.nodes.len(), 6);
    round_trip(&g);
}

#[test]
fn makhos_rules_tag() {
    // A king that captures may turn straight back by default, not under
    // `no-reverse`.
    let fen = "[FEN \"W:WKd4:Bc3,e5\"]\n";
    let g = one(&format!("[GameType \"makhos\"]\n{fen}\n1. d4xf6xb2 *"));
    let AnyMove::Makhos(m) = g.moves.nodes[0].mv else {
        panic!()
    };
    assert_eq!(m.capture_count(), 2);
    let e = err(&format!(
        "[GameType \"makhos\"]\n[Rules \"no-reverse\"]\n{fen}\n1. d4xf6xb2 *"
    ));
    assert_eq!(e.kind, ErrorKind::IllegalMove);
    let g = one(&format!(
        "[GameType \"31\"]\n[Rules \"no-reverse\"]\n{fen}\n1. 18x11 *"
    ));
    assert_eq!(g.kind(), GameKind::Makhos(makhos::Rules::NoReverse));
    let AnyMove::Makhos(m) = g.moves.nodes[0].mv else {
        panic!()
    };
    assert_eq!(m.capture_count(), 1);
    round_trip(&g);
    let e = err("[GameType \"makhos\"]\n[Rules \"sideways\"]\n\n*");
    assert!(matches!(e.kind, ErrorKind::BadRules(_)));
    assert_eq!((e.line, e.column), (2, 1));
    // PDN numbers in the position text, kings marked `K`.
    let numeric = one("[GameType \"makhos\"]\n[FEN \"W:WK18:B22,15\"]\n\n1. d4xf6xb2 *");
    assert_eq!(
        numeric.start,
        one(&format!("[GameType \"makhos\"]\n{fen}\n*")).start
    );
    // Position text alone says Mak-hot.
    let g = one(&format!("{fen}\n1. d4xf6xb2 *"));
    assert_eq!(g.kind(), GameKind::Makhos(makhos::Rules::Default));
    assert_eq!(
        replay(&g).state,
        Some(games::Outcome::win(
            games::Color::White,
            games::EndReason::NoMoves
        ))
    );
}

#[test]
fn errors_give_place_and_reading_goes_on() {
    let text = "[Event \"1\"]\n\n1. e4 e5 *\n\n\
                [Event \"2\"]\n[Site \"x\n\n1. e4 *\n\n\
                [Event \"3\"]\n\n1. e4 e5 2. Ke2 Ke7 (2... Kd7 ( 1-0\n\n\
                [Event \"4\"]\n\n1. e4 ) e5 *\n\n\
                [Event \"5\"]\n\n1. e4 $300 *\n\n\
                [Event \"6\"]\n\n1. e4 { no end\n\n\
                [Event \"7\"]\n\n1. e4 e5 1/2-1/2\n\n\
                [Event \"8\"]\n\n( 1. e4 ) *\n\n\
                [Event \"9\"]\n\n1. e4 é *\n\n\
                [Event \"10\"]\n\n1. e4 e5 2. Kxe8 *\n\n\
                [Event \"11\"]\n\n1. e4 e5 2. Nd2 {unterminated at the end";
    let all = read_all(text);
    let summary: Vec<String> = all
        .iter()
        .map(|r| match r {
            Ok(g) => format!("ok {}", g.tags.get("Event").unwrap_or("")),
            Err(e) => format!(
                "{}:{}:{} game {} {:?} {}",
                e.line, e.column, e.kind, e.game, e.move_number, e.text
            ),
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            "ok 1",
            "6:1:bad tag: the value's closing quote is missing game 2 None [Site \"x",
            "12:33:result inside a variation game 3 None 1-0",
            "16:7:')' closes no variation game 4 None )",
            "20:7:bad annotation game 5 None $300",
            "24:7:unterminated comment game 6 None {no end",
            "ok 7",
            "32:1:variation before any move it could replace game 8 None (",
            "36:7:unexpected character game 9 None é",
            "40:13:illegal move game 10 Some(\"2.\") Kxe8",
            "44:17:unterminated comment game 11 None {unterminated at the end",
        ]
    );
}

#[test]
fn result_tag_and_missing_termination() {
    // No result in movetext: the `[Result]` tag gives it; the next game's
    // tags end the movetext.
    let all = read_all("[Result \"0-1\"]\n\n1. e4 e5\n[Event \"b\"]\n\n1. e4 *\n");
    assert_eq!(all.len(), 2);
    let g = all[0].as_ref().unwrap();
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(g.moves.nodes.len(), 2);
    round_trip(g);
    // Movetext with no tags at all, PDN's `2-0`.
    let g = one("{only moves} 1. e4 2-0");
    assert_eq!(g.moves.comments, vec!["only moves"]);
    assert_eq!(g.kind(), GameKind::Makruk(makruk::Variant::Makruk));
    assert!(read_one("").is_err());
    let _ = g;
    let g = one("[GameType \"makhos\"]\n\n1. 25-22 2-0");
    assert_eq!(g.result, GameResult::WhiteWins);
    assert_eq!(g.tags.get("Result"), Some("1-0"));
}

#[test]
fn built_games_are_written_with_their_start() {
    let mut start = AnyPosition::start(GameKind::Makhos(makhos::Rules::NoReverse));
    let mv = start.legal_moves()[0];
    start.play(&mv).unwrap();
    let g = Game::new(start);
    assert_eq!(g.tags.get("Rules"), Some("no-reverse"));
    assert_eq!(g.tags.get("FEN").map(|f| f.starts_with("B:")), Some(true));
    round_trip(&g);
}

#[test]
fn long_lines_are_wrapped_within_80_columns() {
    let g = one(&format!(
        "1. e4 {{{}}} *",
        "a long comment that goes on and on ".repeat(10)
    ));
    let out = game_to_string(&g, &WriteOptions::default());
    assert!(out.lines().all(|l| l.chars().count() <= 79), "{out}");
    assert!(out.lines().count() > 6);
    round_trip(&g);
}

#[test]
fn windows_line_ends_and_a_byte_order_mark() {
    let text = "\u{feff}[Event \"crlf\"]\r\n[Variant \"makruk\"]\r\n\r\n1. e4 ; note\r\ne5 {a\r\nb} 1-0\r\n";
    let g = one(text);
    assert_eq!(g.tags.get("Event"), Some("crlf"));
    assert_eq!(g.moves.nodes[0].comments, vec!["note"]);
    assert_eq!(g.moves.nodes[1].comments, vec!["a b"]);
    let e = err("\u{feff}[Event \"crlf\"]\r\n\r\n1. e4 e4 *\r\n");
    assert_eq!((e.line, e.column), (3, 7));
}

#[test]
fn a_byte_order_mark_alone_or_before_a_game_reads_cleanly() {
    // Found by `cargo fuzz run read`: a file of only a UTF-8 byte-order mark
    // left the tokenizer an empty line and it read past its end.
    assert!(read_all("\u{feff}").is_empty());
    assert!(read_all("\u{feff}\n\n").is_empty());
    let games = read_all("\u{feff}[Event \"x\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 1);
    assert!(games[0].is_ok(), "{:?}", games[0]);
}
