//! Generates an openings file for `thaiboard match`: random short move
//! sequences from the start position, kept when our engine finds them
//! balanced.
//!
//! ```sh
//! cargo run --release -p thaiboard-arena --example gen_openings -- makruk 200 8 6 60 1 > data/openings/makruk.epd
//! cargo run --release -p thaiboard-arena --example gen_openings -- cambodian 200 8 6 60 1 > data/openings/cambodian.epd
//! cargo run --release -p thaiboard-arena --example gen_openings -- makhos 100 6 8 60 1 > data/openings/makhos.txt
//! ```
//!
//! Arguments: game (`makruk`, `cambodian` for Ouk Chatrang, or `makhos`), how many openings, plies of
//! random moves (uniform among the legal moves), search depth for the
//! balance check, the largest absolute score kept (centipawns, side to
//! move's view), the random seed. Duplicates and finished games are
//! skipped. Output: one FEN (Makruk) or position text (Mak-hot) per line,
//! after `#` comment lines giving the command.

use engine::{Game, Limits, MakhosGame, MakrukGame, SearchOptions, Tt, search};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// Plays `plies` random moves; `None` if a side runs out of moves.
fn random_walk<G: Game>(start: &G, plies: usize, rng: &mut StdRng) -> Option<G> {
    let mut g = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        g.legal_moves(&mut moves);
        if moves.is_empty() || g.rule_draw() {
            return None;
        }
        g = g.play(moves[rng.random_range(0..moves.len())]);
    }
    moves.clear();
    g.legal_moves(&mut moves);
    (!moves.is_empty() && !g.rule_draw()).then_some(g)
}

fn balanced<G: Game>(g: &G, depth: u32, max_cp: i32) -> bool {
    let mut tt = Tt::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = search(
        g,
        &[],
        &mut tt,
        &limits,
        &SearchOptions::default(),
        &stop,
        |_| {},
    );
    r.best.is_some() && r.score.abs() <= max_cp
}

fn generate<G: Game>(
    start: G,
    text: impl Fn(&G) -> String,
    args: &[usize],
    max_cp: i32,
    rng: &mut StdRng,
) -> Vec<String> {
    let (count, plies, depth) = (args[0], args[1], args[2] as u32);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 1000 {
        tries += 1;
        let Some(g) = random_walk(&start, plies, rng) else {
            continue;
        };
        let t = text(&g);
        if seen.contains(&t) || !balanced(&g, depth, max_cp) {
            continue;
        }
        seen.insert(t.clone());
        out.push(t);
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: gen_openings makruk|cambodian|makhos COUNT PLIES DEPTH MAX_CP SEED";
    if args.len() != 6 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let nums: Vec<usize> = match args[1..].iter().map(|a| a.parse()).collect() {
        Ok(n) => n,
        Err(_) => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let mut rng = StdRng::seed_from_u64(nums[4] as u64);
    let max_cp = nums[3] as i32;
    let lines = match args[0].as_str() {
        "makruk" => generate(
            MakrukGame::new(makruk::Position::new(makruk::Variant::Makruk)),
            |g| g.pos.fen(),
            &nums,
            max_cp,
            &mut rng,
        ),
        "cambodian" => generate(
            MakrukGame::new(makruk::Position::new(makruk::Variant::Cambodian)),
            |g| g.pos.fen(),
            &nums,
            max_cp,
            &mut rng,
        ),
        "makhos" => generate(
            MakhosGame::new(makhos::Position::start(), makhos::Rules::Default, 0),
            |g| g.pos.to_string(),
            &nums,
            max_cp,
            &mut rng,
        ),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    println!(
        "# {} openings: {} random plies from the start, |score| <= {} cp at depth {}, seed {}",
        args[0], nums[1], nums[3], nums[2], nums[4]
    );
    println!(
        "# made by: cargo run --release -p thaiboard-arena --example gen_openings -- {}",
        args.join(" ")
    );
    for l in lines {
        println!("{l}");
    }
}
