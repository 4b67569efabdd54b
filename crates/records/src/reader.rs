//! The streaming reader: games one at a time from any [`BufRead`], every
//! move checked against the rules as it is read, and recovery after a
//! broken game.

use crate::error::{ErrorKind, MAX_DEPTH, ReadError};
use crate::lexer::{LexError, Lexer, Tok, Token};
use crate::notation::{move_number_text, parse_move};
use crate::tree::{Game, GameResult, Line, Node, Tags};
use games::{AnyPosition, GameKind};
use std::io::BufRead;

/// Move numbers (and halfmove clocks) beyond this in a Makruk FEN are refused.
const MAX_FEN_NUMBER: u32 = 1 << 30;

/// Reads PGN (Makruk, Ouk Chatrang) and PDN (Mak-hot) games one by one.
///
/// Each game is replayed as it is read, variations included, so every
/// game the reader returns holds only legal moves. A broken game gives a
/// [`ReadError`]; the next call skips the rest of it and reads the next
/// game. Memory use does not grow with the size of the source.
///
/// Tolerated: `%` escape lines; a game with no tags (its leading comments
/// become the main line's); a game with no result before the next game's
/// tags (the `[Result]` tag gives the result); PDN results `2-0`, `0-2`,
/// `1-1`. Comments before a game's tags belong to no game and are dropped.
///
/// ```
/// let pgn = "[Variant \"makruk\"]\n\n1. e4 e5 2. Md2 {a comment} (2. Nd2) 1-0\n";
/// let mut reader = records::Reader::new(pgn.as_bytes());
/// let game = reader.next().unwrap().unwrap();
/// assert_eq!(game.moves.nodes.len(), 3);
/// assert_eq!(game.result, records::GameResult::WhiteWins);
/// assert!(reader.next().is_none());
/// ```
pub struct Reader<R> {
    lex: Lexer<R>,
    peeked: Option<Token>,
    games: usize,
    resync: Option<Resync>,
    finished: bool,
}

/// What is known when skipping the rest of a broken game.
#[derive(Copy, Clone, Debug)]
struct Resync {
    /// Movetext has been seen, so the next tag line starts a new game.
    seen_movetext: bool,
    /// Open variations.
    depth: usize,
}

struct Frame {
    line: Line,
    board: AnyPosition,
    before_last: Option<AnyPosition>,
}

struct Failure {
    error: ReadError,
    resync: Option<Resync>,
}

impl<R: BufRead> Reader<R> {
    /// A reader of the games in `src`.
    pub fn new(src: R) -> Reader<R> {
        Reader {
            lex: Lexer::new(src),
            peeked: None,
            games: 0,
            resync: None,
            finished: false,
        }
    }

    /// Bytes taken from the source so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.lex.bytes_read()
    }

    /// Games started so far, broken ones included (the number of the last
    /// game returned).
    pub fn games_read(&self) -> usize {
        self.games
    }

    fn fill(&mut self) -> Result<(), LexError> {
        if self.peeked.is_none() {
            self.peeked = self.lex.next_token()?;
        }
        Ok(())
    }

    fn lex_failure(&mut self, game: usize, e: LexError, resync: Resync) -> Failure {
        if matches!(e.kind, ErrorKind::Io(_)) {
            self.finished = true;
        }
        Failure {
            error: ReadError {
                game,
                line: e.line,
                column: e.column,
                text: e.text,
                move_number: None,
                kind: e.kind,
            },
            resync: Some(resync),
        }
    }

    /// Reads the next game: `None` at the end of the source.
    pub fn read_game(&mut self) -> Option<Result<Game, ReadError>> {
        if let Some(rs) = self.resync.take() {
            self.skip_game(rs);
        }
        if self.finished {
            return None;
        }
        let mut leading = Vec::new();
        loop {
            if let Err(e) = self.fill() {
                self.games += 1;
                let f = self.lex_failure(
                    self.games,
                    e,
                    Resync {
                        seen_movetext: false,
                        depth: 0,
                    },
                );
                self.resync = f.resync;
                return Some(Err(f.error));
            }
            match self.peeked.take() {
                None => {
                    self.finished = true;
                    return None;
                }
                Some(Token {
                    tok: Tok::Comment(c),
                    ..
                }) => leading.push(c),
                // A stray result between games.
                Some(Token {
                    tok: Tok::Result(_),
                    ..
                }) => {}
                Some(t) => {
                    self.peeked = Some(t);
                    break;
                }
            }
        }
        self.games += 1;
        match self.parse_game(leading) {
            Ok(g) => Some(Ok(g)),
            Err(f) => {
                self.resync = f.resync;
                Some(Err(f.error))
            }
        }
    }

    /// Skips the rest of a broken game: up to its result, or up to the next
    /// line that starts with a tag once movetext has been seen.
    fn skip_game(&mut self, mut rs: Resync) {
        loop {
            if let Err(e) = self.fill() {
                if matches!(e.kind, ErrorKind::Io(_)) {
                    self.finished = true;
                    return;
                }
                continue;
            }
            let Some(t) = self.peeked.take() else {
                return;
            };
            match t.tok {
                Tok::Tag { .. } if rs.seen_movetext && t.line_start => {
                    self.peeked = Some(t);
                    return;
                }
                Tok::Tag { .. } => {}
                Tok::Open => {
                    rs.depth += 1;
                    rs.seen_movetext = true;
                }
                Tok::Close => {
                    rs.depth = rs.depth.saturating_sub(1);
                    rs.seen_movetext = true;
                }
                Tok::Result(_) if rs.depth == 0 => return,
                _ => rs.seen_movetext = true,
            }
        }
    }

    fn parse_game(&mut self, leading: Vec<String>) -> Result<Game, Failure> {
        let number = self.games;
        let mut tags = Tags::new();
        // Where the tags that choose the game and its start were written.
        let mut places: Vec<(String, usize, usize)> = Vec::new();
        let tag_resync = Resync {
            seen_movetext: false,
            depth: 0,
        };
        loop {
            if let Err(e) = self.fill() {
                return Err(self.lex_failure(number, e, tag_resync));
            }
            match self.peeked.take() {
                Some(Token {
                    tok: Tok::Tag { name, value },
                    line,
                    column,
                    ..
                }) => {
                    if matches!(
                        name.as_str(),
                        "Variant" | "GameType" | "Rules" | "FEN" | "SetUp"
                    ) {
                        places.retain(|(n, _, _)| *n != name);
                        places.push((name.clone(), line, column));
                    }
                    tags.set(&name, &value);
                }
                other => {
                    self.peeked = other;
                    break;
                }
            }
        }
        let tag_error = |name: &str, kind: ErrorKind, tags: &Tags| {
            let (line, column) = places
                .iter()
                .find(|(n, _, _)| n == name)
                .map(|(_, l, c)| (*l, *c))
                .unwrap_or((1, 1));
            let value = tags.get(name).unwrap_or("");
            Failure {
                error: ReadError {
                    game: number,
                    line,
                    column,
                    text: crate::error::shorten(&format!("[{name} \"{value}\"]"), 80),
                    move_number: None,
                    kind,
                },
                resync: Some(tag_resync),
            }
        };
        let kind = game_kind(&tags).map_err(|(name, kind)| tag_error(name, kind, &tags))?;
        let start = match tags.get("FEN") {
            Some(fen) => {
                let board = AnyPosition::from_fen(kind, fen)
                    .map_err(|m| tag_error("FEN", ErrorKind::BadFen(m.to_string()), &tags))?;
                if let AnyPosition::Makruk(p) = &board {
                    if p.fullmoves() > MAX_FEN_NUMBER || p.halfmoves() > MAX_FEN_NUMBER {
                        return Err(tag_error(
                            "FEN",
                            ErrorKind::BadFen("move number out of range".into()),
                            &tags,
                        ));
                    }
                }
                board
            }
            None => AnyPosition::start(kind),
        };
        let mut stack = vec![Frame {
            line: Line {
                comments: if tags.is_empty() { leading } else { Vec::new() },
                nodes: Vec::new(),
            },
            board: start.clone(),
            before_last: None,
        }];
        let mut result = None;
        loop {
            let depth = stack.len() - 1;
            let movetext = |depth| Resync {
                seen_movetext: true,
                depth,
            };
            if let Err(e) = self.fill() {
                return Err(self.lex_failure(number, e, movetext(depth)));
            }
            let Some(t) = self.peeked.take() else {
                if depth > 0 {
                    let (line, column) = self.lex.here();
                    return Err(Failure {
                        error: ReadError {
                            game: number,
                            line,
                            column,
                            text: String::new(),
                            move_number: None,
                            kind: ErrorKind::UnterminatedVariation,
                        },
                        resync: None,
                    });
                }
                break;
            };
            let fail = |kind, text: String, move_number, resync| Failure {
                error: ReadError {
                    game: number,
                    line: t.line,
                    column: t.column,
                    text,
                    move_number,
                    kind,
                },
                resync,
            };
            let top = stack.len() - 1;
            match &t.tok {
                Tok::Tag { name, value } => {
                    if depth > 0 {
                        let text = crate::error::shorten(&format!("[{name} \"{value}\"]"), 80);
                        let f = fail(
                            ErrorKind::UnterminatedVariation,
                            text,
                            None,
                            Some(movetext(0)),
                        );
                        self.peeked = Some(t);
                        return Err(f);
                    }
                    // The next game's tags: this one ended without a result.
                    self.peeked = Some(t);
                    break;
                }
                Tok::Comment(c) => {
                    let frame = &mut stack[top];
                    match frame.line.nodes.last_mut() {
                        Some(n) => n.comments.push(c.clone()),
                        None => frame.line.comments.push(c.clone()),
                    }
                }
                Tok::Open => {
                    if depth >= MAX_DEPTH {
                        return Err(fail(
                            ErrorKind::TooDeep,
                            "(".into(),
                            None,
                            Some(movetext(depth + 1)),
                        ));
                    }
                    let Some(board) = stack[top].before_last.clone() else {
                        return Err(fail(
                            ErrorKind::VariationWithoutMove,
                            "(".into(),
                            None,
                            Some(movetext(depth + 1)),
                        ));
                    };
                    stack.push(Frame {
                        line: Line::default(),
                        board,
                        before_last: None,
                    });
                }
                Tok::Close => {
                    if depth == 0 {
                        return Err(fail(
                            ErrorKind::UnexpectedClose,
                            ")".into(),
                            None,
                            Some(movetext(0)),
                        ));
                    }
                    if let Some(done) = stack.pop() {
                        if let Some(n) = stack.last_mut().and_then(|f| f.line.nodes.last_mut()) {
                            n.variations.push(done.line);
                        }
                    }
                }
                Tok::Nag(v) => match stack[top].line.nodes.last_mut() {
                    Some(n) => n.nags.push(*v),
                    None => {
                        return Err(fail(
                            ErrorKind::BadNag,
                            format!("${v}"),
                            None,
                            Some(movetext(depth)),
                        ));
                    }
                },
                Tok::MoveNumber => {}
                Tok::Symbol(text) => {
                    let frame = &mut stack[top];
                    match parse_move(&frame.board, text) {
                        Ok(pm) => {
                            let mut node = Node::new(pm.mv);
                            node.draw_offer = pm.draw_offer;
                            let before = frame.board.clone();
                            frame.board.play_unchecked(&pm.mv);
                            frame.before_last = Some(before);
                            frame.line.nodes.push(node);
                        }
                        Err(kind) => {
                            let number_text = move_number_text(&frame.board);
                            return Err(fail(
                                kind,
                                crate::error::shorten(text, 40),
                                Some(number_text),
                                Some(movetext(depth)),
                            ));
                        }
                    }
                }
                Tok::Result(r) => {
                    if depth > 0 {
                        return Err(fail(
                            ErrorKind::ResultInVariation,
                            r.as_str().into(),
                            None,
                            None,
                        ));
                    }
                    result = Some(*r);
                    break;
                }
            }
        }
        let line = stack.swap_remove(0).line;
        let result = result.unwrap_or_else(|| {
            tags.get("Result")
                .and_then(GameResult::from_text)
                .unwrap_or_default()
        });
        if tags.get("Result").is_none() {
            tags.set("Result", result.as_str());
        }
        tags.normalize_roster();
        Ok(Game {
            tags,
            start,
            moves: line,
            result,
        })
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Game, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game()
    }
}

/// Which game the tags say, or the tag that names none and why.
fn game_kind(tags: &Tags) -> Result<GameKind, (&'static str, ErrorKind)> {
    let with_rules = |kind: GameKind| match (kind, tags.get("Rules")) {
        (GameKind::Makhos(_), Some(r)) => r
            .parse::<makhos::Rules>()
            .map(GameKind::Makhos)
            .map_err(|e| ("Rules", ErrorKind::BadRules(e.to_string()))),
        _ => Ok(kind),
    };
    if let Some(v) = tags.get("Variant") {
        return GameKind::from_names(v, None)
            .map_err(|_| ("Variant", ErrorKind::UnknownVariant))
            .and_then(with_rules);
    }
    if let Some(g) = tags.get("GameType") {
        // PDN's GameType: a name, or 31 (Thai draughts), before any comma.
        let first = g.split(',').next().unwrap_or("").trim();
        let kind = if first == "31" {
            Ok(GameKind::MAKHOS)
        } else {
            GameKind::from_names(first, None).map_err(|_| ("GameType", ErrorKind::UnknownVariant))
        };
        return kind.and_then(with_rules);
    }
    if let Some(fen) = tags.get("FEN") {
        let f = fen.trim_start().as_bytes();
        if f.len() >= 2 && matches!(f[0], b'W' | b'B') && f[1] == b':' {
            return with_rules(GameKind::MAKHOS);
        }
    }
    Ok(GameKind::MAKRUK)
}

/// Reads every game of `text`.
pub fn read_all(text: &str) -> Vec<Result<Game, ReadError>> {
    Reader::new(text.as_bytes()).collect()
}

/// Reads the first game of `text`; an empty text is an error too.
pub fn read_one(text: &str) -> Result<Game, ReadError> {
    Reader::new(text.as_bytes())
        .next()
        .unwrap_or(Err(ReadError {
            game: 1,
            line: 1,
            column: 1,
            text: String::new(),
            move_number: None,
            kind: ErrorKind::NoGame,
        }))
}
