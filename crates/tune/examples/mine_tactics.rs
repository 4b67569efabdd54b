//! How the tactical test sets in `tests/data/` were found: candidate
//! positions from a `thaiboard tune gen` dataset are searched shallowly,
//! and those whose best move wins material (Mak-hot: a quiet move that
//! forces a capture and nets at least one man) or mates (Makruk) are
//! verified deeply, every root move on its own.
//!
//! ```text
//! cargo run --release -p thaiboard-tune --example mine_tactics -- makhos DATASET LIMIT
//! cargo run --release -p thaiboard-tune --example mine_tactics -- makruk DATASET LIMIT
//! ```
//! Prints `POSITION<TAB>BEST_MOVE<TAB>SCORE` lines (Makruk: the mate in moves).

use engine::eval::MakhosWeights;
use engine::{Game, Limits, MATE, MakhosGame, MakrukGame, SearchOptions, Tt, search};
use std::io::BufRead;
use std::sync::atomic::AtomicBool;

fn score_at<G: Game>(g: &G, depth: u32) -> (Option<G::Move>, i32) {
    let stop = AtomicBool::new(false);
    let r = search(
        g,
        &[],
        &mut Tt::new(16),
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &SearchOptions::default(),
        &stop,
        |_| {},
    );
    (r.best, r.score)
}

/// Scores of every root move (searched one by one), best first.
fn root_scores<G: Game>(g: &G, depth: u32) -> Vec<(G::Move, i32)> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut out: Vec<(G::Move, i32)> = moves
        .into_iter()
        .map(|m| {
            let child = g.play(m);
            let mut replies = Vec::new();
            child.legal_moves(&mut replies);
            let s = if replies.is_empty() {
                if child.no_moves_loses() { MATE - 1 } else { 0 }
            } else {
                // A mate seen from the child is one ply further from here.
                match -score_at(&child, depth - 1).1 {
                    s if s > MATE - 200 => s - 1,
                    s if s < 200 - MATE => s + 1,
                    s => s,
                }
            };
            (m, s)
        })
        .collect();
    out.sort_by_key(|x| -x.1);
    out
}

fn material(pos: &makhos::Position) -> i32 {
    let us = pos.turn();
    let them = us.other();
    let v = |c| pos.men(c).count() as i32 * 100 + pos.kings(c).count() as i32 * 300;
    v(us) - v(them)
}

/// Makruk mates from self-play: the first position of each game where the
/// side to move sees a mate in at most four, verified at a depth that
/// covers it.
fn makruk_selfplay(limit: usize) {
    use tune::selfplay::{Rng, random_opening};
    let mut rng = Rng::new(77);
    let mut found = 0;
    while found < limit {
        let Some((mut g, _)) = random_opening::<MakrukGame>(8, &mut rng) else {
            continue;
        };
        for _ in 0..300 {
            let stop = AtomicBool::new(false);
            let r = search(
                &g,
                &[],
                &mut Tt::new(4),
                &Limits {
                    nodes: Some(3000),
                    ..Limits::default()
                },
                &SearchOptions::default(),
                &stop,
                |_| {},
            );
            let Some(best) = r.best else { break };
            if r.score <= -(MATE - 100) || g.rule_draw() {
                break;
            }
            if r.score >= MATE - 8 {
                let n = (MATE - r.score + 1) / 2;
                let all = root_scores(&g, 2 * n as u32 + 1);
                if all[0].1 == r.score {
                    let mating = all.iter().filter(|x| x.1 == r.score).count();
                    println!("{}\t{}\t{n}\t{mating}", g.pos.fen(), all[0].0.to_uci());
                    found += 1;
                }
                break;
            }
            g = g.play(best);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args[0] == "makruk-selfplay" {
        makruk_selfplay(args[1].parse().expect("limit"));
        return;
    }
    let file = std::fs::File::open(&args[1]).expect("dataset");
    let limit: usize = args[2].parse().expect("limit");
    let mut found = 0;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.expect("line");
        // Dataset lines are `RESULT POSITION`; earlier finds are
        // `POSITION<TAB>...` (re-verification).
        let text = match line.split_once('\t') {
            Some((pos, _)) => pos,
            None => match line.split_once(' ') {
                Some((_, pos)) => pos,
                None => continue,
            },
        };
        if args[0] == "makhos" {
            let pos: makhos::Position = text.parse().expect("position");
            // Material only (man 100, king 300): the scores are the material
            // the line wins, nothing positional.
            static MATERIAL: MakhosWeights = MakhosWeights {
                man: 100,
                king: 300,
                man_rank: [0; 8],
                back_rank: 0,
                man_mobility: 0,
                king_mobility: 0,
                king_long_diagonal: 0,
                tempo: 0,
                trade_down: 0,
            };
            let g = MakhosGame::with_weights(pos, makhos::Rules::Default, 0, &MATERIAL);
            let (Some(best), s) = score_at(&g, 8) else {
                continue;
            };
            let m0 = material(&pos);
            let child = g.play(best);
            if s - m0 < 100 || !child.pos.has_capture() {
                continue;
            }
            let deep: u32 = std::env::var("DEPTH")
                .ok()
                .and_then(|d| d.parse().ok())
                .unwrap_or(14);
            let all = root_scores(&g, deep);
            if std::env::var("SHOW").is_ok() {
                for (m, s) in &all {
                    eprintln!("{} {}", m.to_engine(), s - m0);
                }
            }
            if all.len() < 2 || all[0].1 - all[1].1 < 100 || all[0].1 - m0 < 100 {
                continue;
            }
            println!("{text}\t{}\t{}", all[0].0.to_engine(), all[0].1 - m0);
        } else {
            let Ok(pos) = makruk::Position::from_fen(makruk::Variant::Makruk, text) else {
                eprintln!("bad FEN: {text}");
                continue;
            };
            let g = MakrukGame::new(pos);
            let (_, s) = score_at(&g, 7);
            if s < MATE - 7 {
                continue;
            }
            let all = root_scores(&g, 9);
            let n = (MATE - all[0].1 + 1) / 2;
            let mating = all.iter().filter(|x| x.1 == all[0].1).count();
            println!("{text}\t{}\t{n}\t{mating}", all[0].0.to_uci());
        }
        found += 1;
        if found >= limit {
            break;
        }
    }
}
