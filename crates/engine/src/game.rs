//! The interface between the search and a game's rules.

/// Whether quiescence may stop at the static evaluation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StandPat {
    /// The side to move may decline the noisy moves (the usual case).
    Allowed,
    /// The noisy moves are all the legal moves (check evasions, compulsory
    /// captures): the side to move must play one of them.
    Forbidden,
}

/// How many kinds of captured piece [`Game::victim`] tells apart.
pub const CAPTURE_KINDS: usize = 8;

/// What the search needs to know about a game. Positions are values
/// (copy-make): [`Game::play`] returns the next position.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move of this game.
    type Move: Copy + PartialEq + Send + std::fmt::Debug;

    /// Whether White (the first player) is to move (for the clocks).
    fn white_to_move(&self) -> bool;
    /// The Zobrist key of the position (side to move included).
    fn key(&self) -> u64;
    /// The key of everything an endgame-table probe of this position depends on (the
    /// placement, the side to move and every count the tables read), for the search's
    /// cache of probe answers ([`crate::tables::ProbeCache`]). The default, [`Game::key`],
    /// is right for a game whose key already holds its counts.
    fn table_key(&self) -> u64 {
        self.key()
    }
    /// All legal moves, appended to `out` (which the caller clears).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// The moves quiescence searches, appended to `out`, and whether the side
    /// to move may stand pat instead.
    fn noisy_moves(&self, out: &mut Vec<Self::Move>) -> StandPat;
    /// The position after a legal move.
    fn play(&self, m: Self::Move) -> Self;
    /// The position with the turn passed, for null-move pruning.
    fn play_null(&self) -> Option<Self>;
    /// Whether null-move pruning is sound enough here (no zugzwang danger).
    fn null_move_safe(&self) -> bool;
    /// Whether the side to move is in check (always false in Mak-hot).
    fn in_check(&self) -> bool;
    /// Whether the static evaluation can be trusted for pruning (not in
    /// check, no compulsory capture pending); must be exactly when
    /// [`Game::noisy_moves`] answers [`StandPat::Allowed`] (quiescence
    /// stands pat before generating moves).
    fn quiet(&self) -> bool;
    /// Whether the game is drawn by rule in this position (counting,
    /// insufficient material, no-progress count), the side to move not being
    /// checkmated.
    fn rule_draw(&self) -> bool;
    /// With no legal move: `true` if the side to move loses, `false` if it is
    /// a draw (stalemate).
    fn no_moves_loses(&self) -> bool;
    /// The static evaluation in centipawns, from the side to move's view.
    fn evaluate(&self) -> i32;
    /// A key of the position's structure (Makruk: where the bias stand), for
    /// the search's correction history: positions with the same key share
    /// what the search learnt of their evaluation's error. The default,
    /// `None`, keeps no correction.
    fn correction_key(&self) -> Option<u64> {
        None
    }
    /// Whether a move is tactical (capture or promotion): not a killer or
    /// history candidate and never reduced.
    fn is_tactical(&self, m: Self::Move) -> bool;
    /// An ordering score for tactical moves (MVV-LVA or captured material).
    fn tactical_order(&self, m: Self::Move) -> i32;
    /// The kind of piece a tactical move captures, as an index below
    /// [`CAPTURE_KINDS`] (0: none, or a game that does not tell them apart):
    /// with [`Game::piece_to`], the capture history's index.
    fn victim(&self, _m: Self::Move) -> usize {
        0
    }
    /// Whether a capture loses material by static exchange (quiescence
    /// skips it, ordering puts it after the quiet killers). Games without
    /// such a notion keep the default `false`.
    fn losing_capture(&self, _m: Self::Move) -> bool {
        false
    }
    /// A non-zero code identifying a move within its position (TT, killers).
    fn encode(m: Self::Move) -> u64;
    /// An index below 4096 for the history table.
    fn history_index(m: Self::Move) -> usize;
    /// How many (moving piece, destination) pairs [`Game::piece_to`] tells
    /// apart.
    const PIECE_TO: usize;
    /// The moving piece (kind and colour) and destination of a legal move,
    /// as an index below [`Game::PIECE_TO`] (continuation history).
    fn piece_to(&self, m: Self::Move) -> usize;
    /// Whether the move forces the reply: it gives check, or (Mak-hot) it
    /// leaves the opponent a compulsory capture. Such moves are never
    /// pruned at low depth.
    fn forcing(&self, m: Self::Move) -> bool {
        let child = self.play(m);
        child.in_check() || !child.quiet()
    }
    /// Whether the static exchange of the move (its capture, then the best
    /// recaptures on its square) gains at least `threshold` centipawns.
    /// Games without such a notion keep the default `true` (never pruned).
    fn see_ge(&self, _m: Self::Move, _threshold: i32) -> bool {
        true
    }
    /// The protocol form of the move (`e3e4`, `c3e5c7`).
    fn move_text(m: Self::Move) -> String;
    /// How many plies back a repetition of this position may be found; the
    /// search scores a repetition as a draw (0: never).
    fn repetition_window(&self) -> u32;
}
