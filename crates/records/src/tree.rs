//! The game tree: tags, start position, moves with their comments, NAGs and
//! variations, and the result.

use games::{AnyMove, AnyPosition, GameKind};
use std::fmt;

/// The tags of the Seven Tag Roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The value a roster tag takes when a record does not give it.
pub fn roster_default(name: &str) -> &'static str {
    match name {
        "Date" => "????.??.??",
        "Result" => "*",
        _ => "?",
    }
}

/// How a game ended, as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0` (PDN also `2-0`).
    WhiteWins,
    /// `0-1` (PDN also `0-2`).
    BlackWins,
    /// `1/2-1/2` (PDN also `1-1`).
    Draw,
    /// `*`: unknown, or the game goes on.
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result as PGN or PDN writes it.
    pub fn from_text(text: &str) -> Option<GameResult> {
        Some(match text.trim() {
            "1-0" | "2-0" => GameResult::WhiteWins,
            "0-1" | "0-2" => GameResult::BlackWins,
            "1/2-1/2" | "1-1" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A move in the tree, with what was written around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move (legal in the position it is played from).
    pub mv: AnyMove,
    /// SchemingMind's trailing `=`: the mover offered a draw.
    pub draw_offer: bool,
    /// Numeric annotation glyphs (`!` is 1, `?` is 2, ...), in order.
    pub nags: Vec<u8>,
    /// Comments after the move, in order (whitespace collapsed).
    pub comments: Vec<String>,
    /// Alternatives to this move, each played from the position before it.
    pub variations: Vec<Line>,
}

impl Node {
    /// A node for `mv` with no annotations.
    pub fn new(mv: AnyMove) -> Node {
        Node {
            mv,
            draw_offer: false,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves: the main line of a game, or a variation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Line {
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves, in order.
    pub nodes: Vec<Node>,
}

/// The tag pairs of a game, in order (names are unique).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags(Vec::new())
    }

    /// The value of tag `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, in place if it exists, else at the end.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.0.push((name.to_string(), value.to_string())),
        }
    }

    /// Removes tag `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(i).1)
    }

    /// The tags in order, as `(name, value)`.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// How many tags there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no tags.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Puts the Seven Tag Roster first, in its order, filling in the
    /// default value of any roster tag that is missing; the other tags keep
    /// their order after it.
    pub fn normalize_roster(&mut self) {
        let mut roster = Vec::with_capacity(self.0.len() + 7);
        for name in SEVEN_TAG_ROSTER {
            let value = self
                .remove(name)
                .unwrap_or_else(|| roster_default(name).to_string());
            roster.push((name.to_string(), value));
        }
        roster.append(&mut self.0);
        self.0 = roster;
    }
}

/// A game record: tags, start position, the tree of moves and the result.
///
/// The reader fills in the Seven Tag Roster (see
/// [`Tags::normalize_roster`]), so that reading what the writer wrote gives
/// back an equal `Game`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The tag pairs, roster first.
    pub tags: Tags,
    /// The position the moves start from (the game and its rules).
    pub start: AnyPosition,
    /// The main line, with its variations.
    pub moves: Line,
    /// The result written at the end of the movetext.
    pub result: GameResult,
}

impl Game {
    /// An empty game from `start`, with the roster tags, the `[Variant]`
    /// (Makruk) or `[GameType]` and `[Rules]` (Mak-hot) tags, and `[SetUp]`
    /// and `[FEN]` if `start` is not the standard start.
    pub fn new(start: AnyPosition) -> Game {
        let mut tags = Tags::new();
        tags.normalize_roster();
        match start.kind() {
            GameKind::Makruk(_) => tags.set("Variant", start.kind().variant_name()),
            GameKind::Makhos(_) => {
                tags.set("GameType", "makhos");
                if start.kind() != GameKind::MAKHOS {
                    tags.set("Rules", start.kind().rules_name());
                }
            }
        }
        if !start.is_standard_start() {
            tags.set("SetUp", "1");
            tags.set("FEN", &start.fen());
        }
        Game {
            tags,
            start,
            moves: Line::default(),
            result: GameResult::Unknown,
        }
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        self.start.kind()
    }

    /// Sets the result, at the end of the movetext and in the `[Result]` tag.
    pub fn set_result(&mut self, result: GameResult) {
        self.result = result;
        self.tags.set("Result", result.as_str());
    }

    /// The moves of the main line.
    pub fn mainline(&self) -> impl Iterator<Item = AnyMove> + '_ {
        self.moves.nodes.iter().map(|n| n.mv)
    }

    /// The position after the main line.
    pub fn end_position(&self) -> AnyPosition {
        let mut b = self.start.clone();
        for m in self.mainline() {
            if b.play(&m).is_err() {
                break;
            }
        }
        b
    }
}
