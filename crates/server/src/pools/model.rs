//! The pure part of quick pairing: which pools there are, how far apart in
//! rating two waiting players may be, and who is paired with whom.
//!
//! As lichess's pools: each waiting player accepts opponents within a
//! rating range that widens the longer they wait ([`range`]); two players
//! are compatible when their difference lies within the wider of their two
//! ranges. [`pairs`] serves the longest waiting first (fairness), gives each
//! of them the closest compatible opponent, and pairs every player at most
//! once and never with themselves.

use crate::game::clock::{TcKind, TimeControl};
use games::GameKind;

/// The games that have pools: Makruk, Ouk Chatrang and Mak-hot (default rules).
pub const KINDS: [GameKind; 3] = [GameKind::MAKRUK, GameKind::CAMBODIAN, GameKind::MAKHOS];

/// The pools' clocks: minutes + seconds per move, and one correspondence
/// pool of three days per move.
pub const CLOCKS: [&str; 9] = [
    "1+0", "3+0", "3+2", "5+3", "10+0", "10+5", "15+10", "30+0", "3d",
];

const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 86_400_000;

/// The time control of clock `name` (one of [`CLOCKS`]); `None` for another name.
pub fn clock(name: &str) -> Option<TimeControl> {
    if !CLOCKS.contains(&name) {
        return None;
    }
    if let Some(days) = name.strip_suffix('d') {
        let days: i64 = days.parse().ok()?;
        // Each move resets the mover's clock to the full days.
        return Some(TimeControl {
            kind: TcKind::Correspondence,
            initial_ms: days * DAY_MS,
            increment_ms: days * DAY_MS,
            max_ms: days * DAY_MS,
        });
    }
    let (minutes, seconds) = name.split_once('+')?;
    Some(TimeControl {
        kind: TcKind::Live,
        initial_ms: minutes.parse::<i64>().ok()? * MINUTE_MS,
        increment_ms: seconds.parse::<i64>().ok()? * 1000,
        max_ms: 0,
    })
}

/// A pool: a game and a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PoolId {
    /// The game.
    pub kind: GameKind,
    /// The clock, one of [`CLOCKS`].
    pub clock: &'static str,
}

impl PoolId {
    /// The pool of `variant` (a name [`GameKind::from_names`] reads) and
    /// `clock`, or what is wrong with them.
    pub fn parse(variant: &str, clock: &str) -> Result<PoolId, String> {
        let kind = GameKind::from_names(variant, None).map_err(|e| e.to_string())?;
        if !KINDS.contains(&kind) {
            return Err(format!("{kind} has no pools"));
        }
        let clock = CLOCKS.into_iter().find(|c| *c == clock).ok_or_else(|| {
            format!(
                "no pool has the clock {clock:?}: use one of {}",
                CLOCKS.join(", ")
            )
        })?;
        Ok(PoolId { kind, clock })
    }

    /// The pool's key in storage: `makruk/3+2`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.kind, self.clock)
    }

    /// Reads a key written by [`PoolId::key`].
    pub fn from_key(key: &str) -> Option<PoolId> {
        let (variant, clock) = key.split_once('/')?;
        PoolId::parse(variant, clock).ok()
    }

    /// The pool's time control.
    pub fn time_control(&self) -> TimeControl {
        clock(self.clock).expect("a pool's clock is one of CLOCKS")
    }
}

/// A player waiting in a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The player's id.
    pub user: String,
    /// Their rating in the pool's rating pool.
    pub rating: i32,
    /// When they joined, ms.
    pub since_ms: i64,
}

/// The rating range of a player who has just joined: ± this.
pub const FIRST_RANGE: i32 = 100;
/// The range widens by this much per second of waiting.
pub const WIDEN_PER_SECOND: i32 = 25;
/// After this long, ms, a player takes any opponent.
pub const ANY_OPPONENT_AFTER_MS: i64 = 30_000;

/// How far from their own rating a player who has waited `wait_ms` accepts
/// an opponent: [`FIRST_RANGE`], wider by [`WIDEN_PER_SECOND`] each second,
/// and without limit after [`ANY_OPPONENT_AFTER_MS`].
pub fn range(wait_ms: i64) -> i32 {
    if wait_ms >= ANY_OPPONENT_AFTER_MS {
        return i32::MAX;
    }
    FIRST_RANGE + WIDEN_PER_SECOND * (wait_ms.max(0) / 1000) as i32
}

/// Whether `a` and `b` may be paired at `now`: two different players whose
/// difference in rating lies within the wider of their ranges.
pub fn compatible(a: &Waiting, b: &Waiting, now: i64) -> bool {
    a.user != b.user
        && (a.rating - b.rating).abs() <= range(now - a.since_ms).max(range(now - b.since_ms))
}

/// The pairs to make at `now` among `waiting`, as indices into it. The
/// longest waiting are served first (ties by id), each with the compatible
/// player closest in rating (ties: the longer waiting). Nobody appears in
/// two pairs, and a player listed twice is never paired with themselves.
pub fn pairs(waiting: &[Waiting], now: i64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&waiting[a], &waiting[b]);
        (a.since_ms, &a.user).cmp(&(b.since_ms, &b.user))
    });
    let mut taken = vec![false; waiting.len()];
    let mut out = Vec::new();
    for (pos, &i) in order.iter().enumerate() {
        if taken[i] {
            continue;
        }
        let best = order[pos + 1..]
            .iter()
            .copied()
            .filter(|&j| !taken[j] && compatible(&waiting[i], &waiting[j], now))
            .min_by_key(|&j| (waiting[i].rating - waiting[j].rating).abs());
        if let Some(j) = best {
            taken[i] = true;
            taken[j] = true;
            out.push((i, j));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(user: &str, rating: i32, since_ms: i64) -> Waiting {
        Waiting {
            user: user.into(),
            rating,
            since_ms,
        }
    }

    #[test]
    fn every_pool_has_its_time_control() {
        assert_eq!(clock("3+2").unwrap().initial_ms, 180_000);
        assert_eq!(clock("3+2").unwrap().increment_ms, 2_000);
        assert_eq!(clock("15+10").unwrap().initial_ms, 900_000);
        assert_eq!(clock("3d").unwrap().kind, TcKind::Correspondence);
        assert_eq!(clock("4+4"), None);
        for c in CLOCKS {
            assert!(clock(c).is_some(), "{c}");
        }
        let p = PoolId::parse("Mak-hot", "5+3").unwrap();
        assert_eq!(p.key(), "makhos/5+3");
        assert_eq!(PoolId::from_key(&p.key()), Some(p));
        assert!(PoolId::parse("makhos:no-reverse", "5+3").is_err());
        assert!(
            PoolId::parse("chess", "5+3")
                .unwrap_err()
                .contains("unknown variant")
        );
        assert!(PoolId::parse("makruk", "2+1").unwrap_err().contains("3+2"));
    }

    #[test]
    fn the_range_widens_with_the_wait() {
        assert_eq!(range(0), FIRST_RANGE);
        assert!(range(5_000) > range(1_000));
        assert_eq!(range(ANY_OPPONENT_AFTER_MS), i32::MAX);
        // 400 apart: not at first, yes after waiting.
        let (a, b) = (w("a", 1500, 0), w("b", 1900, 0));
        assert!(pairs(&[a.clone(), b.clone()], 0).is_empty());
        assert!(pairs(&[a.clone(), b.clone()], 5_000).is_empty());
        assert_eq!(pairs(&[a, b], 12_000), vec![(0, 1)]);
        // A newcomer meets a long waiter within the waiter's range.
        let (old, new) = (w("old", 1500, 0), w("new", 2400, 29_000));
        assert!(pairs(&[old.clone(), new.clone()], 29_500).is_empty());
        assert_eq!(pairs(&[old, new], 30_000), vec![(0, 1)]);
    }

    #[test]
    fn the_longest_waiting_are_served_first_with_the_closest_rating() {
        // c waited longest: it gets its closest (b), not a who came first in the list.
        let list = [
            w("a", 1500, 2_000),
            w("b", 1540, 3_000),
            w("c", 1550, 1_000),
        ];
        assert_eq!(pairs(&list, 3_000), vec![(2, 1)]);
        // Equal ratings: the longer waiting opponent.
        let list = [w("x", 1500, 0), w("y", 1500, 500), w("z", 1500, 100)];
        assert_eq!(pairs(&list, 1_000), vec![(0, 2)]);
    }

    #[test]
    fn nobody_is_paired_twice_or_with_themselves() {
        assert!(pairs(&[w("a", 1500, 0), w("a", 1500, 10)], 60_000).is_empty());
        let list: Vec<Waiting> = (0..101)
            .map(|i| {
                w(
                    &format!("p{}", i % 97),
                    1000 + (i * 37 % 800),
                    i as i64 * 10,
                )
            })
            .collect();
        let made = pairs(&list, 60_000);
        let mut seen = std::collections::HashSet::new();
        for (a, b) in &made {
            assert_ne!(list[*a].user, list[*b].user);
            assert!(
                seen.insert(*a) && seen.insert(*b),
                "{a} or {b} paired twice"
            );
        }
        // After 30 s everyone is compatible: all but the duplicates' leftovers are paired.
        assert!(made.len() >= 48, "{}", made.len());
    }
}
