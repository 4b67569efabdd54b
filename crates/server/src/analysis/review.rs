//! Engine analysis of finished games — never of a game still being played,
//! to keep play fair.
//!
//! `POST /api/games/{id}/analysis` queues a job; a background task searches
//! every position of the game (a fixed node budget each, one job at a time
//! per server process so games keep their speed) and stores each result as
//! it goes, so progress is visible and a restarted job resumes where it
//! stopped. `GET /api/games/{id}/analysis` answers the progress and, for
//! every analysed position, the evaluation (White's view), the best move and
//! line, and for every move the loss against the best move with a judgement
//! (inaccuracy, mistake, blunder).

use super::store;
use crate::AppState;
use crate::account::auth::Actor;
use crate::analysis::tablebase::Tablebases;
use crate::computer::search::{Ask, search_position};
use crate::game::{ActionKind, GameView};
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::check_id;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::{Json, Router, routing::get};
use engine::{Limits, Score, SearchOptions, Tt};
use games::AnyPosition;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};
use tokio::sync::Semaphore;

/// Nodes searched in each position.
pub const NODES_PER_POSITION: u64 = 120_000;
/// Centipawns standing for a mate when measuring a move's loss.
const MATE_CP: i32 = 2_000;
/// Losses (centipawns, mover's view) from which a move is judged.
pub const JUDGEMENTS: [(i32, &str); 3] = [(300, "blunder"), (120, "mistake"), (50, "inaccuracy")];

/// The analysis routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/games/{id}/analysis", get(status).post(request))
}

/// An evaluation from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns (positive: White stands better).
    Cp(i32),
    /// Mate in this many moves (positive: White mates).
    Mate(i32),
}

impl Eval {
    /// Centipawns for comparisons, mates counted as ±[`MATE_CP`].
    fn as_cp(self) -> i32 {
        match self {
            Eval::Cp(c) => c.clamp(-MATE_CP, MATE_CP),
            Eval::Mate(m) if m > 0 => MATE_CP,
            Eval::Mate(_) => -MATE_CP,
        }
    }
}

/// The analysis of one position: after `ply` moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionAnalysis {
    /// Moves played before this position.
    pub ply: u32,
    /// The evaluation, White's view.
    pub eval: Eval,
    /// The best move in engine form (empty when the game is over here).
    pub best: String,
    /// The best line in engine form.
    pub pv: Vec<String>,
    /// The best line as players read it (SAN; Mak-hot squares), as the move list writes moves.
    pub pv_san: Vec<String>,
    /// The best line in both Thai forms, from the rules crates.
    pub pv_thai: Vec<crate::game::ThaiText>,
    /// Depth reached.
    pub depth: u32,
    /// For the move played from this position: how much worse it was than
    /// the best move (centipawns, mover's view), once the next position is
    /// analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss: Option<i32>,
    /// `inaccuracy`, `mistake` or `blunder` for a costly move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judgement: Option<&'static str>,
    /// The judgement as players annotate it: `?!`, `?` or `??`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<&'static str>,
    /// Where the game is over on the board (no legal move): `checkmate`,
    /// `stalemate` (Makruk) or `no_moves` (Mak-hot; `all_captured` when the
    /// side to move has no piece left), said instead of an evaluation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<&'static str>,
}

/// The annotation symbol of a judgement.
pub fn symbol(judgement: &str) -> &'static str {
    match judgement {
        "blunder" => "??",
        "mistake" => "?",
        _ => "?!",
    }
}

/// Each player's accuracy over the game, 0 to 100, as lichess measures it
/// (lichess's `AccuracyPercent`): a move's accuracy falls with the winning
/// chances it gives away, and a game's is the mean of two means of its
/// moves' accuracies: one weighted by how much the winning chances swung
/// around the move, and the harmonic one, which a few blunders pull down.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Accuracy {
    /// White's.
    pub white: f64,
    /// Black's.
    pub black: f64,
}

/// Centipawns beyond which lichess counts no more winning chances.
const ACCURACY_CP_CEILING: i32 = 1_000;

/// Winning chances (0 to 100) of a side `cp` centipawns ahead (lichess's
/// `WinPercent.fromCentiPawns`).
pub fn win_percent(cp: i32) -> f64 {
    let cp = cp.clamp(-ACCURACY_CP_CEILING, ACCURACY_CP_CEILING);
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0)
}

/// A move's accuracy (0 to 100) from the mover's winning chances before
/// and after it.
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    if win_after >= win_before {
        return 100.0;
    }
    (103.1668 * (-0.04354 * (win_before - win_after)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The population standard deviation.
fn std_dev(xs: &[f64]) -> f64 {
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// The players' accuracy from consecutive evaluations (`None` before two
/// positions are known). `white_first`: White makes the first move, from
/// `positions[0]`.
pub fn accuracy(positions: &[PositionAnalysis], white_first: bool) -> Option<Accuracy> {
    if positions.len() < 2 {
        return None;
    }
    // White's winning chances in every position.
    let wins: Vec<f64> = positions
        .iter()
        .map(|p| win_percent(p.eval.as_cp()))
        .collect();
    let moves = wins.len() - 1;
    // Each move's weight: the spread of the winning chances in a window of
    // positions around it (the first windows repeat the opening one).
    let size = (moves / 10).clamp(2, 8).min(wins.len());
    let mut windows: Vec<&[f64]> = vec![&wins[..size]; size.saturating_sub(2)];
    windows.extend(wins.windows(size));
    let weight = |i: usize| windows.get(i).map_or(0.5, |w| std_dev(w).clamp(0.5, 12.0));
    // Per side: (accuracy, weight) of each of its moves.
    let mut sides: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, pair) in wins.windows(2).enumerate() {
        let white_moved = (i % 2 == 0) == white_first;
        let (before, after) = if white_moved {
            (pair[0], pair[1])
        } else {
            (100.0 - pair[0], 100.0 - pair[1])
        };
        sides[usize::from(!white_moved)].push((move_accuracy(before, after), weight(i)));
    }
    let side = |moves: &[(f64, f64)]| {
        if moves.is_empty() {
            return 100.0;
        }
        let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>()
            / moves.iter().map(|(_, w)| w).sum::<f64>();
        let harmonic =
            moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        ((weighted + harmonic) / 2.0 * 10.0).round() / 10.0
    };
    Some(Accuracy {
        white: side(&sides[0]),
        black: side(&sides[1]),
    })
}

/// The answer of the analysis routes.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    /// `none` (never asked), `queued`, `running` or `done`.
    pub status: &'static str,
    /// Positions analysed.
    pub done: u32,
    /// Positions to analyse (moves + 1).
    pub total: u32,
    /// Each analysed position, in order.
    pub positions: Vec<PositionAnalysis>,
    /// The players' accuracy over the positions analysed so far.
    pub accuracy: Option<Accuracy>,
}

/// Jobs of this process: game id → `queued` / `running`.
fn jobs() -> &'static Mutex<HashMap<String, &'static str>> {
    static JOBS: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    JOBS.get_or_init(Default::default)
}

fn job_state(id: &str) -> Option<&'static str> {
    jobs()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(id)
        .copied()
}

fn set_job(id: &str, state: Option<&'static str>) {
    let mut jobs = jobs().lock().unwrap_or_else(|p| p.into_inner());
    match state {
        Some(s) => jobs.insert(id.to_string(), s),
        None => jobs.remove(id),
    };
}

/// Every position of a finished game (start, after each move), parsed.
fn roots(view: &GameView) -> Result<Vec<AnyPosition>, String> {
    let mut fens = vec![view.start_fen.clone()];
    for a in view.actions.iter().flatten() {
        if a.kind == ActionKind::Move {
            fens.push(a.fen.clone());
        } else if let Some(last) = fens.last_mut() {
            // A count start/stop changes the counting state, not the board.
            *last = a.fen.clone();
        }
    }
    fens.iter()
        .map(|fen| AnyPosition::from_fen(view.kind, fen).map_err(|e| e.to_string()))
        .collect()
}

/// Searches one position (blocking) with `threads` threads, probing `tables`
/// if the server has them.
fn analyse(
    root: &AnyPosition,
    ply: u32,
    threads: usize,
    tables: Option<&Tablebases>,
) -> PositionAnalysis {
    let white_to_move = root.turn() == games::Color::White;
    let limits = Limits {
        nodes: Some(NODES_PER_POSITION),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let ask = Ask {
        history: &[],
        no_progress: 0,
        tables,
        limits: &limits,
        opts: &SearchOptions {
            threads,
            ..SearchOptions::default()
        },
        stop: &stop,
    };
    let mut last = None;
    let found = search_position(root, &ask, &mut Tt::new(16), &mut |info| {
        if info.multipv == 1 {
            last = Some(info.clone());
        }
    });
    let flip = |e: Eval| {
        if white_to_move {
            e
        } else {
            match e {
                Eval::Cp(c) => Eval::Cp(-c),
                Eval::Mate(m) => Eval::Mate(-m),
            }
        }
    };
    match (found.best, last) {
        (Some(best), Some(info)) => PositionAnalysis {
            ply,
            eval: flip(match info.score {
                Score::Cp(c) => Eval::Cp(c),
                Score::Mate(m) => Eval::Mate(m),
            }),
            best,
            pv: info.pv.clone(),
            pv_san: Vec::new(),
            pv_thai: Vec::new(),
            depth: info.depth,
            loss: None,
            judgement: None,
            symbol: None,
            end: None,
        },
        _ => PositionAnalysis {
            ply,
            eval: no_moves(root),
            best: String::new(),
            pv: Vec::new(),
            pv_san: Vec::new(),
            pv_thai: Vec::new(),
            depth: 0,
            loss: None,
            judgement: None,
            symbol: None,
            end: None,
        },
    }
}

/// The evaluation (White's view) of a position without a legal move:
/// Makruk's side to move is mated (it loses) or stalemated (a draw);
/// Mak-hot's side to move loses.
fn no_moves(root: &AnyPosition) -> Eval {
    let white = root.turn() == games::Color::White;
    let lost = Eval::Cp(if white { -MATE_CP } else { MATE_CP });
    match root {
        AnyPosition::Makruk(pos) if !pos.is_check() => Eval::Cp(0),
        _ => lost,
    }
}

/// Fills in each move's loss and judgement from consecutive evaluations.
/// `best_played[i]`: the move played from position `i` was its best move,
/// which loses nothing whatever two searches of two positions said.
/// `white_first`: White made the first move.
fn judge(positions: &mut [PositionAnalysis], best_played: &[bool], white_first: bool) {
    for i in 0..positions.len().saturating_sub(1) {
        let white_moved = (i % 2 == 0) == white_first;
        let before = positions[i].eval.as_cp();
        let after = positions[i + 1].eval.as_cp();
        let loss = if best_played.get(i).copied().unwrap_or(false) {
            0
        } else if white_moved {
            before - after
        } else {
            after - before
        }
        .max(0);
        positions[i].loss = Some(loss);
        positions[i].judgement = JUDGEMENTS.iter().find(|(t, _)| loss >= *t).map(|(_, j)| *j);
        positions[i].symbol = positions[i].judgement.map(symbol);
    }
}

async fn stored(app: &AppState, id: &str) -> ApiResult<Vec<PositionAnalysis>> {
    let rows = store::review(&app.db, id)
        .await
        .map_err(ApiError::internal)?;
    let mut out = Vec::new();
    for store::StoredAnalysis {
        ply,
        cp,
        mate,
        best,
        pv,
        depth,
    } in rows
    {
        let eval = match (cp, mate) {
            (_, Some(m)) => Eval::Mate(m as i32),
            (Some(c), None) => Eval::Cp(c as i32),
            (None, None) => Eval::Cp(0),
        };
        out.push(PositionAnalysis {
            ply: ply as u32,
            eval,
            best,
            pv: pv.split_whitespace().map(str::to_string).collect(),
            pv_san: Vec::new(),
            pv_thai: Vec::new(),
            depth: depth as u32,
            loss: None,
            judgement: None,
            symbol: None,
            end: None,
        });
    }
    // Only the unbroken run from the start counts (a resumed job fills gaps).
    let run = out
        .iter()
        .enumerate()
        .take_while(|(i, p)| p.ply as usize == *i)
        .count();
    out.truncate(run);
    Ok(out)
}

/// Replays the game over its analysed positions: writes each position's
/// best line as players read it (`pv_san`, `pv_thai`; a line that stops
/// reading stops there) and where the game is over on the board (`end`),
/// then judges each move (a move equal to the position's best move loses
/// nothing).
fn replay(game: &GameView, positions: &mut [PositionAnalysis]) {
    let Ok(mut pos) = games::AnyPosition::from_fen(game.kind, &game.start_fen) else {
        return;
    };
    let white_first = pos.turn() == games::Color::White;
    let moves: Vec<&str> = game
        .actions
        .iter()
        .flatten()
        .filter(|a| a.kind == crate::game::ActionKind::Move)
        .map(|a| a.uci.as_str())
        .collect();
    let mut best_played = Vec::new();
    for (i, p) in positions.iter_mut().enumerate() {
        if i > 0 {
            match moves.get(i - 1).map(|m| pos.parse_engine(m)) {
                Some(Ok(mv)) => pos.play_unchecked(&mv),
                _ => break,
            }
        }
        let best = pos.parse_engine(&p.best).ok();
        best_played
            .push(best.is_some() && moves.get(i).and_then(|m| pos.parse_engine(m).ok()) == best);
        p.end = end_on_board(&pos);
        let mut line = pos.clone();
        p.pv_san.clear();
        p.pv_thai.clear();
        for text in &p.pv {
            let Ok(mv) = line.parse_engine(text) else {
                break;
            };
            p.pv_san.push(line.display_move(&mv));
            p.pv_thai.push(crate::game::ThaiText::of(&line, &mv));
            line.play_unchecked(&mv);
        }
    }
    judge(positions, &best_played, white_first);
}

/// How the game is over in `pos` when its side to move has no legal move.
fn end_on_board(pos: &AnyPosition) -> Option<&'static str> {
    if !pos.legal_moves().is_empty() {
        return None;
    }
    Some(match pos {
        AnyPosition::Makruk(p) if p.is_check() => "checkmate",
        AnyPosition::Makruk(_) => "stalemate",
        AnyPosition::Makhos { position, .. } if position.pieces(position.turn()).0 == 0 => {
            "all_captured"
        }
        AnyPosition::Makhos { .. } => "no_moves",
    })
}

async fn view_of(app: &AppState, id: &str) -> ApiResult<(GameView, AnalysisView)> {
    let game = app.games.view(id, true).await?;
    let total = 1 + game.ply;
    let mut positions = stored(app, id).await?;
    replay(&game, &mut positions);
    let accuracy = accuracy(&positions, white_first(&game));
    let done = positions.len() as u32;
    let status = match job_state(id) {
        Some(s) => s,
        None if done >= total => "done",
        None => "none",
    };
    Ok((
        game,
        AnalysisView {
            status,
            done,
            total,
            accuracy,
            positions,
        },
    ))
}

/// Whether White made the game's first move.
fn white_first(game: &GameView) -> bool {
    AnyPosition::from_fen(game.kind, &game.start_fen)
        .map_or(true, |p| p.turn() == games::Color::White)
}

/// `GET /api/games/{id}/analysis`
async fn status(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<AnalysisView>> {
    check_id(&id)?;
    Ok(Json(view_of(&app, &id).await?.1))
}

/// `POST /api/games/{id}/analysis`: queue the analysis of a finished game.
async fn request(
    State(app): State<AppState>,
    Actor(_s): Actor,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<AnalysisView>)> {
    check_id(&id)?;
    let (game, mut view) = view_of(&app, &id).await?;
    if game.result.is_none() {
        return Err(ApiError::conflict(
            "game_not_finished",
            "a game is analysed only once it is over, to keep play fair",
        ));
    }
    if view.status != "none" {
        return Ok((StatusCode::OK, Json(view)));
    }
    let roots = roots(&game).map_err(|e| ApiError::bad_request("no_engine", e))?;
    set_job(&id, Some("queued"));
    view.status = "queued";
    let start = view.done as usize;
    tokio::spawn(async move {
        if let Err(e) = run_job(&app, &id, roots, start).await {
            eprintln!("thaiboard-server: analysis of {id} stopped: {}", e.message);
        }
        set_job(&id, None);
    });
    Ok((StatusCode::ACCEPTED, Json(view)))
}

/// Analyses positions `start..` one by one, storing each.
async fn run_job(app: &AppState, id: &str, roots: Vec<AnyPosition>, start: usize) -> ApiResult<()> {
    static ONE_AT_A_TIME: OnceLock<Semaphore> = OnceLock::new();
    let _turn = ONE_AT_A_TIME
        .get_or_init(|| Semaphore::new(1))
        .acquire()
        .await
        .map_err(ApiError::internal)?;
    set_job(id, Some("running"));
    for (ply, root) in roots.into_iter().enumerate().skip(start) {
        let (tables, threads) = (app.tablebases.clone(), app.config.engine_threads);
        let a = tokio::task::spawn_blocking(move || {
            analyse(&root, ply as u32, threads, tables.as_deref())
        })
        .await
        .map_err(ApiError::internal)?;
        let (cp, mate) = match a.eval {
            Eval::Cp(c) => (Some(i64::from(c)), None),
            Eval::Mate(m) => (None, Some(i64::from(m))),
        };
        let stored = store::StoredAnalysis {
            ply: ply as i64,
            cp,
            mate,
            best: a.best,
            pv: a.pv.join(" "),
            depth: i64::from(a.depth),
        };
        store::save_review_position(&app.db, id, &stored)
            .await
            .map_err(ApiError::internal)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ply: u32, cp: i32) -> PositionAnalysis {
        PositionAnalysis {
            ply,
            eval: Eval::Cp(cp),
            best: String::new(),
            pv: Vec::new(),
            pv_san: Vec::new(),
            pv_thai: Vec::new(),
            depth: 1,
            loss: None,
            judgement: None,
            symbol: None,
            end: None,
        }
    }

    #[test]
    fn judge_measures_losses_from_the_movers_view() {
        // White keeps +30, Black drops to +200 (loss 170: mistake), White drops to -200 (400: blunder).
        let mut p = vec![at(0, 30), at(1, 30), at(2, 200), at(3, -200)];
        judge(&mut p, &[], true);
        assert_eq!(p[0].loss, Some(0));
        assert_eq!(p[0].judgement, None);
        assert_eq!(p[1].loss, Some(170));
        assert_eq!(p[1].judgement, Some("mistake"));
        assert_eq!(p[2].loss, Some(400));
        assert_eq!(p[2].judgement, Some("blunder"));
        assert_eq!(p[3].loss, None);
    }

    #[test]
    fn analyse_finds_a_mate_in_one_from_whites_view() {
        // Two rueas: either one mates on the eighth rank.
        let pos =
            makruk::Position::from_fen(makruk::Variant::Makruk, "4k3/R7/8/8/8/8/8/3K3R w - - 0 1")
                .unwrap();
        let a = analyse(&AnyPosition::Makruk(pos), 0, 1, None);
        assert_eq!(a.eval, Eval::Mate(1), "{a:?}");
        assert!(["h1h8", "a7a8"].contains(&a.best.as_str()), "{a:?}");
    }

    #[test]
    fn analyse_of_a_mated_position_has_no_move() {
        let pos =
            makruk::Position::from_fen(makruk::Variant::Makruk, "R3k3/R7/8/8/8/8/8/3K4 b - - 0 1")
                .unwrap();
        let a = analyse(&AnyPosition::Makruk(pos), 5, 1, None);
        assert_eq!(a.best, "");
        assert_eq!(a.eval, Eval::Cp(MATE_CP));
    }

    #[test]
    fn a_move_that_is_the_best_move_loses_nothing() {
        // Two searches of two positions disagree by 1.1 pawns, but the
        // move played was the first position's best move.
        let mut p = vec![at(0, 30), at(1, -80), at(2, -80)];
        judge(&mut p, &[true, false], true);
        assert_eq!(p[0].loss, Some(0));
        assert_eq!(p[0].judgement, None);
        let mut p = vec![at(0, 30), at(1, -80), at(2, -80)];
        judge(&mut p, &[false, false], true);
        assert_eq!(p[0].judgement, Some("inaccuracy"));
        // Black first (a game from a position): Black's move is ply 0.
        let mut p = vec![at(0, 30), at(1, 500)];
        judge(&mut p, &[false], false);
        assert_eq!(p[0].judgement, Some("blunder"));
    }

    #[test]
    fn the_end_on_the_board_is_named() {
        let mated = |fen| {
            let pos = makruk::Position::from_fen(makruk::Variant::Makruk, fen).unwrap();
            end_on_board(&AnyPosition::Makruk(pos))
        };
        assert_eq!(mated("R3k3/R7/8/8/8/8/8/3K4 b - - 0 1"), Some("checkmate"));
        assert_eq!(mated("4k3/R7/8/8/8/8/8/3K3R w - - 0 1"), None);
        let makhos = |text: &str| {
            end_on_board(&AnyPosition::Makhos {
                position: text.parse().unwrap(),
                rules: makhos::Rules::default(),
                fullmove: 1,
            })
        };
        assert_eq!(makhos("B:Wc3:B"), Some("all_captured"));
        assert_eq!(makhos("W:Wc3:Bd8"), None);
    }

    #[test]
    fn win_percent_and_move_accuracy_are_lichess_formulas() {
        // Hand-computed: 50 + 50 * (2 / (1 + e^(0.00368208 * 300)) - 1).
        assert!((win_percent(-300) - 24.887_45).abs() < 1e-4);
        assert_eq!(win_percent(0), 50.0);
        // Past ±1000 centipawns nothing more counts.
        assert_eq!(win_percent(5000), win_percent(1000));
        // 103.1668 * e^(-0.04354 * (50 - 24.88745)) - 3.1669.
        assert!((move_accuracy(50.0, win_percent(-300)) - 31.4017).abs() < 1e-3);
        assert_eq!(move_accuracy(40.0, 45.0), 100.0);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn game_accuracy_is_the_mean_of_the_weighted_and_harmonic_means() {
        // White drops three pawns at its first move and then holds; Black
        // holds. Four moves: windows of two positions, so the weights are
        // the spreads of each pair of winning chances (at least 0.5):
        // White's moves 31.4017 (weight 12.556) and 100 (weight 0.5):
        // weighted 34.1457, harmonic 47.7950, their mean 40.97.
        let p = [at(0, 0), at(1, -300), at(2, -300), at(3, -300), at(4, -300)];
        assert_eq!(
            accuracy(&p, true),
            Some(Accuracy {
                white: 41.0,
                black: 100.0
            })
        );
        // The same evaluations with Black moving first: the blunder is Black's.
        let a = accuracy(&p, false).unwrap();
        assert_eq!(a.white, 100.0);
        assert!(a.black > 99.0, "{a:?}: the drop to -300 is Black's gain");
        assert_eq!(accuracy(&p[..1], true), None);
    }

    #[test]
    fn a_side_that_loses_a_piece_every_few_moves_scores_low() {
        // Black gives away a piece (three pawns) every second move of its
        // own until it is mated at ply 24; White takes each.
        let mut cp = 0;
        let mut p = vec![at(0, 0)];
        for ply in 0..24u32 {
            if ply % 4 == 1 {
                cp += 300;
            }
            p.push(at(ply + 1, cp));
        }
        p.last_mut().unwrap().eval = Eval::Mate(1);
        let a = accuracy(&p, true).unwrap();
        assert_eq!(a.white, 100.0);
        assert!(a.black < 70.0, "{a:?}");
        // A side that only drifts (a fifth of a pawn now and then) stays high.
        let drift: Vec<_> = (0..24).map(|i| at(i, (i as i32 / 4) * 20)).collect();
        let a = accuracy(&drift, true).unwrap();
        assert!(a.black > 90.0, "{a:?}");
    }

    #[test]
    fn accuracy_falls_with_the_chances_a_move_gives_away() {
        // White keeps +0.3 all along, Black gives away five pawns at its first move.
        let even = [at(0, 30), at(1, 30), at(2, 30), at(3, 30)];
        assert_eq!(
            accuracy(&even, true),
            Some(Accuracy {
                white: 100.0,
                black: 100.0
            })
        );
        let blunder = [at(0, 30), at(1, 30), at(2, 530), at(3, 530)];
        let a = accuracy(&blunder, true).unwrap();
        assert_eq!(a.white, 100.0);
        assert!(a.black < 60.0 && a.black > 0.0, "{a:?}");
        assert_eq!(accuracy(&even[..1], true), None);
        let mut judged = blunder.to_vec();
        judge(&mut judged, &[], true);
        assert_eq!(judged[1].symbol, Some("??"));
        assert_eq!(judged[0].symbol, None);
    }
}
