//! A variant-neutral view of the rules crates: everything the game service
//! needs from Makruk, Ouk Chatrang and Mak-hot, behind one trait.

use serde::Serialize;
use std::fmt;

/// A side of the board. White moves first in every game here.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The side that moves first.
    White,
    /// The other side.
    Black,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    /// `white` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
    /// Parses `white` or `black`.
    pub fn parse(text: &str) -> Option<Side> {
        match text {
            "white" => Some(Side::White),
            "black" => Some(Side::Black),
            _ => None,
        }
    }
}

/// The games the server hosts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Makruk (Thai chess).
    Makruk,
    /// Ouk Chatrang (Cambodian rules).
    Cambodian,
    /// Mak-hot (Thai checkers); the rule option is kept beside it.
    Makhos,
    /// A tiny take-away game used by the server's own tests (enabled by config only).
    Test,
}

impl Variant {
    /// The name used in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Makruk => "makruk",
            Variant::Cambodian => "cambodian",
            Variant::Makhos => "makhos",
            Variant::Test => "test",
        }
    }
    /// Parses an API name.
    pub fn parse(text: &str) -> Option<Variant> {
        match text {
            "makruk" => Some(Variant::Makruk),
            "cambodian" => Some(Variant::Cambodian),
            "makhos" => Some(Variant::Makhos),
            "test" => Some(Variant::Test),
            _ => None,
        }
    }
    /// The rule options this variant accepts (the first is the default).
    pub fn rule_options(self) -> &'static [&'static str] {
        match self {
            Variant::Makhos => &["default", "no-reverse"],
            _ => &["default"],
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A legal move, in the forms the clients need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// Engine form, the move's identity: `e3e4`, `c5c6m`, Mak-hot `c3e5c7`.
    pub uci: String,
    /// Display form: Makruk SAN `Me2`, Mak-hot `c3xe5xc7`.
    pub san: String,
    /// Squares the piece passes through: start, every landing square, end.
    pub path: Vec<String>,
}

/// How a position stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// A side won; the reason is a short name such as `checkmate` or `no_moves`.
    Win(Side, &'static str),
    /// Drawn; the reason is a short name such as `stalemate` or `counting`.
    Draw(&'static str),
}

/// The Makruk count, as shown to players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CountInfo {
    /// The side that counts (unknown for a board's-honour count nobody declared).
    pub side: Option<Side>,
    /// `board` (board's honour) or `pieces` (pieces' honour).
    pub kind: &'static str,
    /// Plies counted so far.
    pub ply: u32,
    /// The limit in plies: the game is drawn past it.
    pub limit: u32,
}

/// Rules of one game in progress. Implementations wrap the rules crates.
pub trait GameRules: Send + Sync {
    /// The variant.
    fn variant(&self) -> Variant;
    /// The side to move.
    fn turn(&self) -> Side;
    /// The position as text (Makruk FEN, Mak-hot position text).
    fn fen(&self) -> String;
    /// Every legal move.
    fn legal_moves(&self) -> Vec<LegalMove>;
    /// Reads a move typed in any notation the variant accepts (UCI, SAN, `c3xe5xc7`...).
    fn parse(&self, text: &str) -> Result<LegalMove, String>;
    /// Plays a legal move given in engine form (as returned by [`GameRules::parse`]).
    fn play(&mut self, uci: &str) -> Result<(), String>;
    /// How the game stands.
    fn outcome(&self) -> Outcome;
    /// Whether `side` still has mating (winning) material; a side that has
    /// none draws, rather than wins, when its opponent's time runs out.
    fn can_win(&self, _side: Side) -> bool {
        true
    }
    /// The running count, if any (Makruk only).
    fn count(&self) -> Option<CountInfo> {
        None
    }
    /// Whether `side` may start a board's-honour count now (Makruk only).
    fn can_start_count(&self, _side: Side) -> bool {
        false
    }
    /// Whether `side` may stop the running board's-honour count (Makruk only).
    fn can_stop_count(&self, _side: Side) -> bool {
        false
    }
    /// `side` starts a board's-honour count.
    fn start_count(&mut self, _side: Side) -> Result<(), String> {
        Err("this game has no counting".into())
    }
    /// `side` stops the board's-honour count it started.
    fn stop_count(&mut self, _side: Side) -> Result<(), String> {
        Err("this game has no counting".into())
    }
    /// A copy, to try a change before committing it.
    fn box_clone(&self) -> Box<dyn GameRules>;
    /// The full rules state for a search engine (`None`: no engine for this game).
    fn search_position(&self) -> Option<SearchPosition> {
        None
    }
}

/// A game's state as the engine needs it to search.
#[derive(Clone, Debug)]
pub enum SearchPosition {
    /// A Makruk or Ouk Chatrang position (its count included).
    Makruk(makruk::Position),
    /// A Mak-hot game with its history (repetitions, no-progress count).
    Makhos(makhos::Game),
}

/// Rules from the start position of `variant` with rule option `option`.
pub fn new_game(variant: Variant, option: &str) -> Result<Box<dyn GameRules>, String> {
    if !variant.rule_options().contains(&option) {
        return Err(format!(
            "unknown rule option {option:?} for {variant}; expected one of {:?}",
            variant.rule_options()
        ));
    }
    match variant {
        Variant::Test => Ok(Box::new(TakeAway::new())),
        Variant::Makruk | Variant::Cambodian => crate::variants::makruk_game(variant),
        Variant::Makhos => crate::variants::makhos_game(option),
    }
}

/// The test game: a pile of stones, each move takes 1, 2 or 3 (`"1"`..`"3"`),
/// whoever takes the last stone wins. Small and fully known, so the server's
/// infrastructure can be tested apart from the real rules.
#[derive(Clone, Debug)]
pub struct TakeAway {
    stones: u32,
    turn: Side,
}

impl TakeAway {
    /// Size of the starting pile.
    pub const START: u32 = 21;

    /// A new game.
    pub fn new() -> Self {
        TakeAway {
            stones: Self::START,
            turn: Side::White,
        }
    }
}

impl Default for TakeAway {
    fn default() -> Self {
        Self::new()
    }
}

impl GameRules for TakeAway {
    fn variant(&self) -> Variant {
        Variant::Test
    }
    fn turn(&self) -> Side {
        self.turn
    }
    fn fen(&self) -> String {
        format!(
            "{} {}",
            self.stones,
            if self.turn == Side::White { "w" } else { "b" }
        )
    }
    fn legal_moves(&self) -> Vec<LegalMove> {
        (1..=3.min(self.stones))
            .map(|n| LegalMove {
                uci: n.to_string(),
                san: format!("-{n}"),
                path: vec![],
            })
            .collect()
    }
    fn parse(&self, text: &str) -> Result<LegalMove, String> {
        let text = text.trim().trim_start_matches('-');
        self.legal_moves()
            .into_iter()
            .find(|m| m.uci == text)
            .ok_or_else(|| {
                format!(
                    "{text:?} is not a legal move: take 1 to {}",
                    3.min(self.stones)
                )
            })
    }
    fn play(&mut self, uci: &str) -> Result<(), String> {
        let m = self.parse(uci)?;
        let n: u32 = m.uci.parse().map_err(|_| "bad move".to_string())?;
        self.stones -= n;
        self.turn = self.turn.other();
        Ok(())
    }
    fn outcome(&self) -> Outcome {
        if self.stones == 0 {
            Outcome::Win(self.turn.other(), "last_stone")
        } else {
            Outcome::Ongoing
        }
    }
    fn box_clone(&self) -> Box<dyn GameRules> {
        Box::new(self.clone())
    }
}
