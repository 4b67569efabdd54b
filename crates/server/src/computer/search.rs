//! One search of a game's position for every part of the server that asks
//! the engine (the computer opponent, game reviews, the analysis board):
//! the engine's game for the position (Makruk and Ouk Chatrang with the
//! evaluation played by default, Mak-hot under its rules and no-progress
//! count), the game's history, and the endgame tables, probed inside the
//! search whenever the server has them (`serve --tablebases DIR`).

use crate::analysis::tablebase::Tablebases;
use engine::{
    Game, Limits, MakhosGame, MakrukGame, SearchInfo, SearchOptions, Tablebase, Tt,
    search_with_tables, with_makruk_played_by_default,
};
use games::{AnyGame, AnyPosition};
use std::sync::atomic::AtomicBool;

/// What one search is asked, beside the position.
pub struct Ask<'a> {
    /// Keys of the positions before the root, oldest first (repetitions):
    /// `engine::MakrukGame::history_keys` or Mak-hot's position hashes.
    pub history: &'a [u64],
    /// Mak-hot's no-progress count at the root, in plies (0 elsewhere).
    pub no_progress: u32,
    /// The server's endgame tables, if it has any.
    pub tables: Option<&'a Tablebases>,
    /// When to stop.
    pub limits: &'a Limits,
    /// Skill, seed and the like.
    pub opts: &'a SearchOptions,
    /// Set from elsewhere to stop at once.
    pub stop: &'a AtomicBool,
}

/// A search's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move to play (UCI text); `None` without a legal move.
    pub best: Option<String>,
    /// Its score, in the engine's units, from the side to move's view.
    pub score: i32,
    /// Positions the tables answered.
    pub table_hits: u64,
}

/// A game's history for a search from its current position: the keys of the
/// positions before it (repetitions) and Mak-hot's no-progress count.
pub fn history_of(game: &AnyGame) -> (Vec<u64>, u32) {
    match game {
        AnyGame::Makruk(game) => (MakrukGame::history_keys(game.start(), game.moves()), 0),
        AnyGame::Makhos(game) => {
            let mut history = game.hashes().to_vec();
            if history.last() == Some(&game.hash()) {
                history.pop();
            }
            (history, game.no_progress_plies())
        }
    }
}

/// Searches `position` as `ask` says, handing each iteration's line to `on_info`.
pub fn search_position(
    position: &AnyPosition,
    ask: &Ask,
    tt: &mut Tt,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Found {
    fn go<G: Game>(
        root: &G,
        ask: &Ask,
        probe: Option<&dyn Tablebase<G>>,
        tt: &mut Tt,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Found {
        let result = search_with_tables(
            root,
            ask.history,
            tt,
            ask.limits,
            ask.opts,
            probe,
            ask.stop,
            |info| on_info(info),
        );
        Found {
            best: result.best.map(G::move_text),
            score: result.score,
            table_hits: result.table_hits,
        }
    }
    match position {
        AnyPosition::Makruk(pos) => {
            let probe = ask.tables.and_then(|t| t.makruk_probe(pos.variant()));
            with_makruk_played_by_default!(pos.clone(), |g| go(
                g,
                ask,
                probe.map(|p| p as &dyn Tablebase<_>),
                tt,
                on_info
            ))
        }
        AnyPosition::Makhos {
            position, rules, ..
        } => {
            let root = MakhosGame::played_by_default(*position, *rules, ask.no_progress);
            let probe = ask.tables.and_then(|t| t.makhos_probe(*rules));
            go(
                &root,
                ask,
                probe.map(|p| p as &dyn Tablebase<MakhosGame>),
                tt,
                on_info,
            )
        }
    }
}
