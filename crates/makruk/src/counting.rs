//! The Makruk counting rules (see RULES.md, "Counting rules").
//!
//! Counts are kept in plies: `limit` plies may be played, and the game is
//! drawn when the count passes the limit and the side to move is not mated.

use crate::{Color, Position, Role, Variant};
use std::fmt;

/// Who starts board's-honour counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CountingMode {
    /// Every count starts by itself, as in Fairy-Stockfish (engine play,
    /// FEN-only positions).
    #[default]
    Automatic,
    /// Pieces'-honour counts start by themselves; board's-honour counts only
    /// when a player declares one (human games over the board or on the
    /// server), and the player who declared one may stop it.
    Declared,
}

/// The kind of count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CountKind {
    /// The counting side has more than its khun: 64 moves (63 in Ouk
    /// Chatrang, where it has at most three pieces).
    BoardsHonour,
    /// One side has a bare khun: a limit by the other side's material.
    PiecesHonour,
}

/// A running count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Count {
    /// The limit, in plies.
    pub limit: u32,
    /// The current count, in plies.
    pub ply: u32,
    /// Board's or pieces' honour.
    pub kind: CountKind,
    /// The side whose count it is: the bare khun's side in pieces' honour;
    /// in board's honour the side that declared it, if known.
    pub counter: Option<Color>,
}

impl Count {
    /// Whether the count has run out (the game is drawn unless the side to
    /// move is checkmated).
    pub fn expired(&self) -> bool {
        self.ply > self.limit
    }
}

/// Why a board's-honour count cannot be started or stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountingError {
    /// The position counts automatically (use [`CountingMode::Declared`]).
    AutomaticMode,
    /// Unpromoted bias are still on the board (Makruk).
    PawnsLeft,
    /// Ouk Chatrang: both sides have more than three pieces.
    TooManyPieces,
    /// A side has only its khun: pieces' honour applies instead.
    BareKing,
    /// A count is already running.
    AlreadyCounting,
    /// No board's-honour count is running.
    NotCounting,
    /// The count was declared by the other side.
    NotYourCount,
}

impl fmt::Display for CountingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CountingError::AutomaticMode => "this position counts automatically",
            CountingError::PawnsLeft => {
                "board's honour counting starts only when no unpromoted bia is left"
            }
            CountingError::TooManyPieces => {
                "board's honour counting starts only when a side has at most three pieces"
            }
            CountingError::BareKing => "a side has only its khun: pieces' honour counting applies",
            CountingError::AlreadyCounting => "a count is already running",
            CountingError::NotCounting => "no board's-honour count is running",
            CountingError::NotYourCount => "only the side that started the count may stop it",
        })
    }
}

impl std::error::Error for CountingError {}

/// The numbers of a variant's counting rules (RULES.md, "Counting rules"
/// and "Ouk Chatrang"), defined once for every user of the crate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CountingRules {
    /// The board's-honour limit in full moves (also the pieces'-honour
    /// limit when no listed material matches).
    pub board: u32,
    /// Pieces'-honour limits in full moves: two or more rueas, one ruea, two
    /// or more khons, two or more mas, one khon.
    pub pieces: [u32; 5],
    /// The most pieces (khun included) a side may have and still count
    /// board's honour.
    pub max_board_pieces: u32,
    /// Whether board's honour may run while unpromoted bias are on the board.
    pub board_honour_with_pawns: bool,
    /// Whether no count runs longer than board's honour (Ouk Chatrang, as
    /// Fairy-Stockfish: see [`CountingRules::effective_limit`]).
    pub board_caps_counts: bool,
}

impl CountingRules {
    /// The counting rules of `variant`.
    pub const fn of(variant: Variant) -> CountingRules {
        match variant {
            Variant::Makruk => CountingRules {
                board: 64,
                pieces: [8, 16, 22, 32, 44],
                max_board_pieces: 32,
                board_honour_with_pawns: false,
                board_caps_counts: false,
            },
            Variant::Cambodian => CountingRules {
                board: 63,
                pieces: [7, 15, 21, 31, 43],
                max_board_pieces: 3,
                board_honour_with_pawns: true,
                board_caps_counts: true,
            },
        }
    }

    /// Every limit a count can have, in plies, in increasing order.
    pub fn limits_in_plies(&self) -> [u32; 6] {
        let p = self.pieces;
        [p[0], p[1], p[2], p[3], p[4], self.board].map(|l| 2 * l)
    }

    /// Whether `plies` is a limit some count of these rules has.
    pub fn is_limit(&self, plies: u32) -> bool {
        self.limits_in_plies().contains(&plies)
    }

    /// The limit a count read from a FEN with limit `plies` runs to, as
    /// Fairy-Stockfish plays it: in Ouk Chatrang no count runs longer than
    /// board's honour (126 plies: a longer limit, such as a Makruk 128,
    /// reads as 126, because Fairy-Stockfish keeps the board's-honour count
    /// when it ends sooner); in Makruk every limit is kept as written.
    pub fn effective_limit(&self, plies: u32) -> u32 {
        if self.board_caps_counts {
            plies.min(2 * self.board)
        } else {
            plies
        }
    }
}

impl Position {
    /// The counting limit in full moves for `side`, or 0 when `side` cannot
    /// count (RULES.md: `limit(side)`; Ouk Chatrang has its own table).
    pub fn counting_limit_for(&self, side: Color) -> u32 {
        let other = !side;
        if self.by_color(other).count() == 1 {
            return 0;
        }
        let rules = CountingRules::of(self.variant);
        let own = self.by_color(side).count();
        let pawns = self.by_role(Role::Pawn).any();
        if own > rules.max_board_pieces || (pawns && !rules.board_honour_with_pawns) {
            return 0;
        }
        if own > 1 {
            return rules.board;
        }
        if pawns {
            return 0;
        }
        self.pieces_honour_limit(&rules, other)
    }

    /// The pieces'-honour limit in full moves that a bare khun counts
    /// against `strong`'s pieces, every bia counted as the met it becomes:
    /// the count `strong` starts by promoting its last bia. 0 unless
    /// `strong`'s opponent has only its khun.
    pub fn pieces_honour_limit_against(&self, strong: Color) -> u32 {
        if self.by_color(!strong).count() != 1 || self.by_color(strong).count() == 1 {
            return 0;
        }
        self.pieces_honour_limit(&CountingRules::of(self.variant), strong)
    }

    /// The pieces'-honour row of `rules` that `strong`'s material selects.
    fn pieces_honour_limit(&self, rules: &CountingRules, strong: Color) -> u32 {
        let n = |role| self.pieces(strong, role).count();
        let p = &rules.pieces;
        match () {
            _ if n(Role::Rook) >= 2 => p[0],
            _ if n(Role::Rook) == 1 => p[1],
            _ if n(Role::Khon) >= 2 => p[2],
            _ if n(Role::Knight) >= 2 => p[3],
            _ if n(Role::Khon) == 1 => p[4],
            _ => rules.board,
        }
    }

    /// The running count, if any. In [`CountingMode::Declared`] a
    /// board's-honour count runs only from its declaration, and Ouk
    /// Chatrang keeps a declared count instead of a new pieces'-honour count
    /// that would end later (pychess's meaning, see [`Position::counting_fields`]).
    pub fn counting(&self) -> Option<Count> {
        let (limit, ply, kind) = self.effective_count()?;
        let counter = match kind {
            CountKind::PiecesHonour => Color::ALL
                .into_iter()
                .find(|&c| self.by_color(c).count() == 1),
            CountKind::BoardsHonour => self.board_counter,
        };
        Some(Count {
            limit,
            ply,
            kind,
            counter,
        })
    }

    /// The game ply as Fairy-Stockfish counts it from the move number: 0
    /// before White's first move.
    pub fn game_ply(&self) -> u32 {
        2 * self.fullmoves.saturating_sub(1) + (self.turn == Color::Black) as u32
    }

    /// The count that decides the game: `(limit, ply)` in plies and its kind.
    fn effective_count(&self) -> Option<(u32, u32, CountKind)> {
        let (limit, ply) = (self.counting_limit as u32, self.counting_ply as u32);
        if limit == 0 {
            return None;
        }
        // Pieces' honour needs a bare khun and no bia left (an Ouk Chatrang
        // board's-honour count may run on with bias against a bare khun).
        let bare = self.by_role(Role::Pawn).is_empty()
            && Color::ALL.iter().any(|&c| self.by_color(c).count() == 1);
        let kind = if bare {
            CountKind::PiecesHonour
        } else {
            CountKind::BoardsHonour
        };
        if self.counting_mode == CountingMode::Automatic {
            return Some((limit, ply, kind));
        }
        let declared = self
            .declared_from
            .map(|from| self.game_ply().saturating_sub(from));
        if !bare {
            return declared.map(|d| (limit, d, kind));
        }
        // Ouk Chatrang: a declared board's-honour count is kept when it ends
        // sooner than the pieces'-honour count (as Fairy-Stockfish).
        let board = 2 * CountingRules::of(self.variant).board;
        match declared {
            Some(d)
                if self.variant == Variant::Cambodian
                    && (board as i64 - d as i64) < (limit as i64 - ply as i64) =>
            {
                Some((board, d, CountKind::BoardsHonour))
            }
            _ => Some((limit, ply, kind)),
        }
    }

    /// The counting fields of FEN fields 4 and 5 while a count runs, as
    /// Fairy-Stockfish writes them: in [`CountingMode::Declared`] the same
    /// as pyffish's `get_fen(..., count_started)` with `count_started` the
    /// declaration's game ply plus one, or -1 when nothing is declared (an
    /// undeclared board's-honour count is then written at ply 0).
    pub fn counting_fields(&self) -> Option<(u32, u32)> {
        if self.counting_limit == 0 {
            return None;
        }
        Some(
            self.effective_count()
                .map_or((self.counting_limit as u32, 0), |(limit, ply, _)| {
                    (limit, ply)
                }),
        )
    }

    /// Whether a count has run out (the game is drawn unless the side to
    /// move is checkmated).
    pub fn counting_expired(&self) -> bool {
        self.effective_count()
            .is_some_and(|(limit, ply, _)| ply > limit)
    }

    /// How board's-honour counts start.
    pub fn counting_mode(&self) -> CountingMode {
        self.counting_mode
    }

    /// Switches how board's-honour counts start. Switching to
    /// [`CountingMode::Declared`] starts with nothing declared.
    pub fn set_counting_mode(&mut self, mode: CountingMode) {
        self.counting_mode = mode;
        self.declared_from = None;
        self.board_counter = None;
    }

    fn can_declare(&self) -> Result<(), CountingError> {
        if self.counting_mode != CountingMode::Declared {
            return Err(CountingError::AutomaticMode);
        }
        if Color::ALL.iter().any(|&c| self.by_color(c).count() == 1) {
            return Err(CountingError::BareKing);
        }
        if self.counting_limit == 0 {
            // A declared count runs only where the automatic one would.
            return Err(if self.by_role(Role::Pawn).any() {
                CountingError::PawnsLeft
            } else {
                CountingError::TooManyPieces
            });
        }
        Ok(())
    }

    /// Whether `side` may declare a board's-honour count now: in declared
    /// mode, where the rules run a board's-honour count (Makruk: no
    /// unpromoted bia left; Ouk Chatrang: a side with at most three pieces),
    /// both sides with more than their khun and nothing declared yet.
    /// Either side may declare (over the board it is the side that fears
    /// losing that does).
    pub fn may_start_board_count(&self, side: Color) -> bool {
        self.by_color(side).count() > 1
            && self.can_declare().is_ok()
            && self.declared_from.is_none()
    }

    /// `side` declares a board's-honour count (64 moves, 63 in Ouk Chatrang,
    /// from 0 at this position).
    pub fn start_board_count(&mut self, side: Color) -> Result<(), CountingError> {
        self.can_declare()?;
        if self.declared_from.is_some() {
            return Err(CountingError::AlreadyCounting);
        }
        self.declared_from = Some(self.game_ply());
        self.board_counter = Some(side);
        Ok(())
    }

    /// `side` stops the board's-honour count it declared.
    pub fn stop_board_count(&mut self, side: Color) -> Result<(), CountingError> {
        self.can_declare()?;
        if self.declared_from.is_none() {
            return Err(CountingError::NotCounting);
        }
        if self.board_counter != Some(side) {
            return Err(CountingError::NotYourCount);
        }
        self.declared_from = None;
        self.board_counter = None;
        Ok(())
    }

    /// Applies steps 2 and 3 of the counting rules after a move by `mover`
    /// (step 1, advancing a running count, happens before the move).
    pub(crate) fn update_counting(
        &mut self,
        mover: Color,
        captured: Option<Role>,
        promotion: bool,
    ) {
        let stm = self.turn;
        // The piece and side counts are taken only where needed: this runs
        // after every move (nothing here changes the board).
        if captured == Some(Role::Pawn)
            && self.by_color(mover).count() == 1
            && self.by_role(Role::Pawn).is_empty()
        {
            let limit = self.counting_limit_for(mover);
            if limit > 0 {
                self.counting_limit = 2 * limit as u16;
                self.counting_ply = 2 * self.occupied().count() as u16 - 1;
            }
        }
        if self.counting_limit == 0
            || ((captured.is_some() || promotion) && self.by_color(stm).count() == 1)
        {
            let limit = self.counting_limit_for(stm);
            if limit > 0 {
                let stm_bare = self.by_color(stm).count() == 1;
                self.counting_limit = 2 * limit as u16;
                self.counting_ply = if stm_bare {
                    2 * self.occupied().count() as u16
                } else {
                    0
                };
            }
        }
    }
}
