//! Tokens known to this process, so that a bot's every move and every
//! stream's keep-alive need not ask the database who it is.
//!
//! - A token found by its hash is kept for [`TOKEN_CACHE_TTL`] with its user
//!   and whether that user is a bot.
//! - Revoking a token forgets it at once, here and (relayed) in the other
//!   processes; so does upgrading its user to a bot account.
//! - A stream's keep-alive asks [`TokenCache::revoked`] (memory), and the
//!   database at most once per token per [`TOKEN_CACHE_TTL`], which bounds
//!   how long a revocation whose relay was lost goes unseen.

pub use super::store::KnownToken;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a token looked up stays known without asking the database again.
pub const TOKEN_CACHE_TTL: Duration = Duration::from_secs(30);

/// Most tokens kept; past it, the cache is emptied (and refills on use).
const MAX_CACHED: usize = 100_000;

/// See the module's doc.
#[derive(Default)]
pub struct TokenCache {
    by_hash: Mutex<HashMap<String, (KnownToken, Instant)>>,
    /// Token ids revoked since this process started.
    revoked: Mutex<HashSet<String>>,
    /// When each token id's existence was last read from the database.
    checked: Mutex<HashMap<String, Instant>>,
}

impl TokenCache {
    /// The token with SHA-256 `hash`, if known and fresh.
    pub fn get(&self, hash: &str) -> Option<KnownToken> {
        let map = self.by_hash.lock().expect("token cache lock");
        let (known, at) = map.get(hash)?;
        (at.elapsed() < TOKEN_CACHE_TTL && !self.revoked(&known.token.id)).then(|| known.clone())
    }

    /// Keeps a token just read from the database.
    pub fn put(&self, hash: &str, known: KnownToken) {
        let mut map = self.by_hash.lock().expect("token cache lock");
        if map.len() >= MAX_CACHED {
            map.clear();
        }
        map.insert(hash.to_string(), (known, Instant::now()));
    }

    /// Token `id` was revoked: forgotten, and its streams end at their next keep-alive.
    pub fn forget_token(&self, id: &str) {
        self.revoked
            .lock()
            .expect("token cache lock")
            .insert(id.to_string());
        self.by_hash
            .lock()
            .expect("token cache lock")
            .retain(|_, (k, _)| k.token.id != id);
    }

    /// User `user_id` changed (became a bot): its tokens are read again.
    pub fn forget_user(&self, user_id: &str) {
        self.by_hash
            .lock()
            .expect("token cache lock")
            .retain(|_, (k, _)| k.user.id != user_id);
    }

    /// Whether token `id` is known to be revoked.
    pub fn revoked(&self, id: &str) -> bool {
        self.revoked.lock().expect("token cache lock").contains(id)
    }

    /// Whether token `id`'s existence should be read from the database now
    /// (at most once per [`TOKEN_CACHE_TTL`]); marks it read.
    pub fn check_due(&self, id: &str) -> bool {
        let mut checked = self.checked.lock().expect("token cache lock");
        let now = Instant::now();
        if checked.len() >= MAX_CACHED {
            checked.clear();
        }
        match checked.get(id) {
            Some(at) if now.duration_since(*at) < TOKEN_CACHE_TTL => false,
            _ => {
                checked.insert(id.to_string(), now);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::account::auth::User;
    use crate::bot_api::store::TokenRow;

    fn known(id: &str, user: &str) -> KnownToken {
        KnownToken {
            token: TokenRow {
                id: id.into(),
                description: String::new(),
                scopes: vec!["bot:play".into()],
                created_at: 0,
            },
            user: User {
                id: user.into(),
                username: user.into(),
                guest: false,
            },
            bot: false,
        }
    }

    #[test]
    fn revoked_and_changed_tokens_are_forgotten() {
        let cache = TokenCache::default();
        cache.put("h1", known("t1", "u1"));
        cache.put("h2", known("t2", "u2"));
        assert_eq!(cache.get("h1").unwrap().token.id, "t1");
        cache.forget_token("t1");
        assert!(cache.get("h1").is_none());
        assert!(cache.revoked("t1") && !cache.revoked("t2"));
        // Put again after a revocation (a lookup racing it): still refused.
        cache.put("h1", known("t1", "u1"));
        assert!(cache.get("h1").is_none());
        cache.forget_user("u2");
        assert!(cache.get("h2").is_none());
    }

    #[test]
    fn the_database_is_asked_once_per_period() {
        let cache = TokenCache::default();
        assert!(cache.check_due("t1"));
        assert!(!cache.check_due("t1"));
        assert!(cache.check_due("t2"));
    }
}
