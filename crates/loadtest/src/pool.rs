//! Players who enter through quick pairing: a crowd of people who each join
//! the pool of the run's game and clock (`POST /api/pools/join`), wait for
//! the server's matcher (`GET /api/pools/mine?wait=`), and play the games it
//! pairs them into over their own sockets, as the pairs do. The time from
//! joining to hearing of the game is a pairing delay ([`crate::Report::pool_delay_ms`]).

use crate::player::{Conn, Player, Routes, SocketGames};
use crate::{Options, Stats, err};
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The pool clock of a run: `minutes+0`, when the pools have it.
pub fn clock_of(o: &Options) -> Result<String, String> {
    let clock = format!("{}+0", o.minutes);
    if ["1+0", "3+0", "10+0", "30+0"].contains(&clock.as_str()) {
        Ok(clock)
    } else {
        Err(format!(
            "players in the pools play a pool's clock: --minutes must be 1, 3, 10 or 30 with --pool-share, not {}",
            o.minutes
        ))
    }
}

/// How long one wait in the pool may last before the player gives up.
const GIVE_UP: Duration = Duration::from_secs(60);

/// Registers enough players for `games` games of at most `o.games_per_pair`
/// each, puts them through the pool until `games` games are made, and
/// returns the games, ready to play.
pub async fn set_up(
    o: &Options,
    prefix: &str,
    games: usize,
    stats: &Arc<Mutex<Stats>>,
) -> Result<SocketGames, String> {
    let clock = clock_of(o)?;
    let per_player = o.games_per_pair.max(1);
    let count = 2 * games.div_ceil(per_player);
    let routes: Routes = Arc::default();
    // Accounts and sockets, a few at a time.
    let gate = Arc::new(Semaphore::new(16));
    let mut made = Vec::new();
    for i in 0..count {
        let (o, gate, routes, stats) = (o.clone(), gate.clone(), routes.clone(), stats.clone());
        let name = format!("lp{prefix}x{i}");
        made.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.map_err(err("pool gate"))?;
            let p = Player::new(&o.base, &name).await?;
            let conn = p.socket(&o.base, routes, &stats).await?;
            Ok::<_, String>((name, p, conn))
        }));
    }
    let mut players = Vec::new();
    for m in made {
        players.push(m.await.map_err(err("pool player"))??);
    }
    let by_name: HashMap<String, usize> = players
        .iter()
        .enumerate()
        .map(|(i, (name, _, _))| (name.clone(), i))
        .collect();
    let players: Arc<Vec<(String, Player, Conn)>> = Arc::new(players);
    // Game id → the players who heard of it.
    let found: Arc<Mutex<HashMap<String, Vec<usize>>>> = Arc::default();
    let mut waits = Vec::new();
    for me in 0..players.len() {
        let (o, players, found, stats, clock) = (
            o.clone(),
            players.clone(),
            found.clone(),
            stats.clone(),
            clock.clone(),
        );
        waits.push(tokio::spawn(async move {
            let player = &players[me].1;
            let mut mine = 0;
            while mine < per_player && found.lock().unwrap().len() < games {
                let joined = Instant::now();
                let body = json!({ "variant": o.variant, "clock": clock });
                if let Err(e) = player.post(&o.base, "/api/pools/join", body).await {
                    stats.lock().unwrap().error(e);
                    return;
                }
                let game = loop {
                    let state = player
                        .send(
                            reqwest::Method::GET,
                            &o.base,
                            "/api/pools/mine?wait=5",
                            None,
                        )
                        .await;
                    match state {
                        Ok(s) if s["status"] == "paired" => {
                            break s["game"].as_str().map(str::to_string);
                        }
                        Ok(s) if s["status"] == "waiting" => {}
                        Ok(s) => {
                            stats
                                .lock()
                                .unwrap()
                                .error(format!("pool: out of the pool: {s}"));
                            return;
                        }
                        Err(e) => {
                            stats.lock().unwrap().error(e);
                            return;
                        }
                    }
                    if found.lock().unwrap().len() >= games || joined.elapsed() > GIVE_UP {
                        let _ = player
                            .send(reqwest::Method::DELETE, &o.base, "/api/pools/mine", None)
                            .await;
                        break None;
                    }
                };
                let Some(game) = game else { return };
                stats
                    .lock()
                    .unwrap()
                    .pool_delays_us
                    .push(joined.elapsed().as_micros() as u64);
                found.lock().unwrap().entry(game).or_default().push(me);
                mine += 1;
            }
        }));
    }
    for w in waits {
        w.await.map_err(err("pool wait"))?;
    }
    // Each game with its players' sockets, White first (as the server says).
    let found = std::mem::take(&mut *found.lock().unwrap());
    let http = reqwest::Client::new();
    let mut out = Vec::new();
    for (id, _) in found {
        let url = format!("{}/api/games/{id}", o.base);
        let view = crate::answer(&url, http.get(&url)).await?;
        let side = |colour: &str| {
            view[colour]["username"]
                .as_str()
                .and_then(|n| by_name.get(n))
                .map(|&i| players[i].2.clone())
        };
        let (Some(white), Some(black)) = (side("white"), side("black")) else {
            return Err(format!("pool game {id}: players not of this run: {view}"));
        };
        out.push((id, Arc::new([Some(white), Some(black)])));
    }
    Ok(SocketGames::of(out, routes))
}
