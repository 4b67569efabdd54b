//! The matcher: a task in every server process that pairs the players
//! waiting in the pools, each second and whenever someone joins here.
//!
//! Several processes may share one PostgreSQL database: each reads the
//! waiting players from the database and pairs them with the pure
//! [`super::model::pairs`], then claims each pair's two rows with an update
//! that succeeds only where no game is set yet ([`store::claim`]). Of two
//! processes pairing the same player, one claims and makes the game; the
//! other's claim changes nothing and it moves on.

use super::model::{self, PoolId};
use super::store;
use crate::account::auth::User;
use crate::game::Games;
use crate::infra::util::random_id;
use std::collections::BTreeMap;
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::Notify;

/// A waiting player not seen for this long, ms, has left (the page polls
/// more often than this while it waits).
pub const UNSEEN_MS: i64 = 10_000;
/// A pairing nobody picked up for this long, ms, is forgotten (the game stays).
const UNCLAIMED_MS: i64 = 600_000;
/// The matcher's round when nobody joins, ms.
const ROUND_MS: u64 = 1_000;

/// The pools of this process: the matcher's wake-up and the news of pairings.
#[derive(Default)]
pub struct Pools {
    /// Someone joined here: pair now.
    wake: Notify,
    /// A pairing was made here: waiting pollers look again.
    pub(super) paired: Notify,
}

impl Pools {
    /// Asks the matcher for a round now.
    pub fn wake(&self) {
        self.wake.notify_one();
    }
}

/// Starts the matcher of this process; it stops with the game service.
pub fn start(games: &Arc<Games>) -> Arc<Pools> {
    let pools = Arc::new(Pools::default());
    let (weak, me) = (Arc::downgrade(games), pools.clone());
    tokio::spawn(async move { run(weak, me).await });
    pools
}

async fn run(games: Weak<Games>, pools: Arc<Pools>) {
    loop {
        tokio::select! {
            _ = pools.wake.notified() => {}
            _ = tokio::time::sleep(Duration::from_millis(ROUND_MS)) => {}
        }
        let Some(games) = games.upgrade() else { return };
        match round(&games).await {
            Ok(0) => {}
            Ok(_) => pools.paired.notify_waiters(),
            Err(e) => eprintln!("thaiboard-server: pool matcher: {e}"),
        }
    }
}

/// One round: drops the players who left, pairs the rest pool by pool and
/// starts their games. Returns the number of games started.
pub async fn round(games: &Arc<Games>) -> crate::infra::error::ApiResult<usize> {
    let db = &games.db().pool;
    let now = games.time.now_ms();
    let waiting = store::waiting(db, now - UNSEEN_MS, now - UNCLAIMED_MS).await?;
    let mut by_pool: BTreeMap<&str, Vec<&store::PoolWaiting>> = BTreeMap::new();
    for w in &waiting {
        by_pool.entry(w.pool.as_str()).or_default().push(w);
    }
    let mut started = 0;
    for (key, list) in by_pool {
        let Some(pool) = PoolId::from_key(key) else {
            continue;
        };
        let plain: Vec<model::Waiting> = list.iter().map(|w| w.waiting.clone()).collect();
        for (a, b) in model::pairs(&plain, now) {
            let (a, b) = (list[a], list[b]);
            let id = random_id(10);
            let players = [
                (a.waiting.user.as_str(), a.waiting.since_ms),
                (b.waiting.user.as_str(), b.waiting.since_ms),
            ];
            if !store::claim(db, key, players, &id, now).await? {
                continue;
            }
            let user = |w: &store::PoolWaiting| User {
                id: w.waiting.user.clone(),
                username: w.username.clone(),
                guest: false,
            };
            let (mut white, mut black) = (user(a), user(b));
            if rand::random::<bool>() {
                std::mem::swap(&mut white, &mut black);
            }
            let made = games
                .start_paired_game(&id, pool.kind, pool.time_control(), &white, &black)
                .await;
            match made {
                Ok(()) => started += 1,
                Err(e) => {
                    eprintln!("thaiboard-server: pool game {id}: {e}");
                    store::unclaim(db, &id).await?;
                }
            }
        }
    }
    Ok(started)
}
