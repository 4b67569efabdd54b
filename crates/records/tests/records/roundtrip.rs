//! Round-trip properties: random playouts of every game kind, dressed with
//! comments, NAGs, draw offers, variations, tags and results, written out in
//! every notation and read back as the same tree.

use proptest::prelude::*;
use records::{
    AnyPosition, Game, GameKind, GameResult, Line, Node, Reader, SquareStyle, WriteOptions,
    game_to_string, read_one,
};

/// A small deterministic generator driven by the proptest seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

const WORDS: &[&str] = &[
    "good",
    "Thai",
    "ม้า",
    "เม็ด",
    "{x",
    "}",
    "(",
    ")",
    "$5",
    "1-0",
    "*",
    ";",
    "%",
    "[Event",
    "\"q\"]",
    "!?",
    "e4",
    "12.",
    "\\",
    "a\tb",
];

fn comment(rng: &mut Rng, brackets: bool) -> String {
    let n = rng.below(6);
    let mut words = Vec::new();
    for _ in 0..n {
        let w = WORDS[rng.below(WORDS.len())];
        if !brackets && w.starts_with('[') {
            continue;
        }
        words.push(w);
    }
    // The reader collapses whitespace: generate comments in that form.
    words
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn line(rng: &mut Rng, start: &AnyPosition, len: usize, depth: usize, brackets: bool) -> Line {
    let mut out = Line::default();
    if rng.chance(4) {
        out.comments.push(comment(rng, brackets));
    }
    let mut board = start.clone();
    for _ in 0..len {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        let mut node = Node::new(mv);
        if matches!(board, AnyPosition::Makruk(_)) && rng.chance(12) {
            node.draw_offer = true;
        }
        while rng.chance(5) {
            node.nags.push(rng.below(256) as u8);
        }
        while rng.chance(5) {
            node.comments.push(comment(rng, brackets));
        }
        if depth < 3 {
            while rng.chance(7) {
                let n = 1 + rng.below(6);
                node.variations
                    .push(line(rng, &board, n, depth + 1, brackets));
            }
        }
        board.play(&mv).unwrap();
        out.nodes.push(node);
    }
    out
}

fn game(seed: u64, brackets: bool) -> Game {
    let mut rng = Rng(seed | 1);
    let kind = match rng.below(4) {
        0 => GameKind::Makruk(makruk::Variant::Makruk),
        1 => GameKind::Makruk(makruk::Variant::Cambodian),
        2 => GameKind::Makhos(makhos::Rules::Default),
        _ => GameKind::Makhos(makhos::Rules::NoReverse),
    };
    let mut start = AnyPosition::start(kind);
    if rng.chance(3) {
        // Start from a position reached by a playout, as its FEN reads.
        for _ in 0..rng.below(40) {
            let moves = start.legal_moves();
            if moves.is_empty() {
                break;
            }
            start.play(&moves[rng.below(moves.len())]).unwrap();
        }
        start = AnyPosition::from_fen(kind, &start.fen()).unwrap();
    }
    let mut g = Game::new(start.clone());
    let len = rng.below(120);
    g.moves = line(&mut rng, &start, len, 0, brackets);
    g.set_result(
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown,
        ][rng.below(4)],
    );
    if rng.chance(2) {
        g.tags.set("White", "Somchai \"ก\" \\ x");
        g.tags.set("Black", &comment(&mut rng, true));
        g.tags.set("Annotator", "[]{};%");
    }
    g
}

fn all_options() -> Vec<WriteOptions> {
    let mut v = Vec::new();
    for letters in [makruk::Letters::Fsf, makruk::Letters::SchemingMind] {
        for squares in [SquareStyle::Numeric, SquareStyle::Algebraic] {
            v.push(WriteOptions {
                letters,
                squares,
                ..WriteOptions::default()
            });
        }
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn write_then_read_gives_the_same_tree(seed in any::<u64>()) {
        let g = game(seed, true);
        for opts in all_options() {
            let out = game_to_string(&g, &opts);
            let back = read_one(&out);
            prop_assert_eq!(back.as_ref(), Ok(&g), "{}", out);
            // And once more: writing what was read gives the same text.
            prop_assert_eq!(game_to_string(back.as_ref().unwrap(), &opts), out);
        }
    }

    #[test]
    fn movetext_stays_within_80_columns(seed in any::<u64>()) {
        let g = game(seed, false);
        let out = game_to_string(&g, &WriteOptions::default());
        // Tag lines are as long as their values: only movetext is wrapped.
        for l in out.lines().skip_while(|l| !l.is_empty()) {
            prop_assert!(l.chars().count() <= 79, "{}", l);
        }
    }

    #[test]
    fn many_games_stream_back_in_order(seeds in proptest::collection::vec(any::<u64>(), 1..8)) {
        let games: Vec<Game> = seeds.iter().map(|&s| game(s, true)).collect();
        let mut text = String::new();
        for g in &games {
            text.push_str(&game_to_string(g, &WriteOptions::default()));
        }
        let back: Vec<Game> = Reader::new(text.as_bytes()).map(Result::unwrap).collect();
        prop_assert_eq!(back, games);
    }
}
