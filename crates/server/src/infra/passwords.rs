//! Password hashing with argon2id, bounded: at most
//! [`crate::Config::password_hashes_at_once`] hashes run at the same time
//! (each takes [`crate::Config::argon2_memory_kib`] of memory, so the
//! bound is the memory's bound), and a login waits at most
//! [`HASH_QUEUE_WAIT`] for its turn.
//!
//! A login for a name that has no account checks the password against a
//! stand-in hash made with the same parameters, so that it takes as long
//! as one for an account: the time of the answer does not tell whether a
//! user exists.

use crate::infra::error::{ApiError, ApiResult};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::http::StatusCode;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OnceCell, Semaphore};

/// Longest a hash waits for its turn before the request is answered 503.
pub const HASH_QUEUE_WAIT: Duration = Duration::from_secs(20);

/// argon2id passes over memory.
const ARGON2_PASSES: u32 = 2;

/// See the module's doc.
pub struct Passwords {
    memory_kib: u32,
    turns: Arc<Semaphore>,
    stand_in: OnceCell<String>,
}

impl Passwords {
    /// Hashing with `memory_kib` KiB a hash, `at_once` hashes at a time (at least 1).
    pub fn new(memory_kib: u32, at_once: usize) -> Self {
        Passwords {
            memory_kib,
            turns: Arc::new(Semaphore::new(at_once.max(1))),
            stand_in: OnceCell::new(),
        }
    }

    fn argon2(&self) -> Argon2<'static> {
        let params = Params::new(self.memory_kib.max(8), ARGON2_PASSES, 1, None)
            .expect("valid argon2 parameters");
        Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
    }

    /// Runs `work` on a blocking thread once a turn is free.
    async fn in_turn<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> ApiResult<T> {
        let permit = tokio::time::timeout(HASH_QUEUE_WAIT, self.turns.clone().acquire_owned())
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "busy",
                    "too many logins at once: retry in a few seconds",
                )
            })?
            .map_err(ApiError::internal)?;
        let result = tokio::task::spawn_blocking(move || {
            let out = work();
            drop(permit);
            out
        })
        .await
        .map_err(ApiError::internal)?;
        Ok(result)
    }

    /// Hashes a password (argon2id, a fresh salt).
    pub async fn hash(&self, password: String) -> ApiResult<String> {
        let argon2 = self.argon2();
        self.in_turn(move || {
            let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
            argon2
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
        })
        .await?
        .map_err(ApiError::internal)
    }

    /// Whether `password` matches `hash`; with no hash (no such account,
    /// or a guest), checks it against the stand-in, taking as long, and
    /// answers false.
    pub async fn verify(&self, password: String, hash: Option<String>) -> ApiResult<bool> {
        let (hash, real) = match hash {
            Some(h) => (h, true),
            None => (self.stand_in().await?, false),
        };
        let matches = self
            .in_turn(move || {
                let Ok(parsed) = PasswordHash::new(&hash) else {
                    return false;
                };
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .await?;
        Ok(real && matches)
    }

    async fn stand_in(&self) -> ApiResult<String> {
        self.stand_in
            .get_or_try_init(|| self.hash(crate::infra::util::random_token()))
            .await
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_only_and_no_hash_verifies_nothing() {
        let p = Passwords::new(64, 1);
        let h = p.hash("correct horse".into()).await.unwrap();
        assert!(
            p.verify("correct horse".into(), Some(h.clone()))
                .await
                .unwrap()
        );
        assert!(!p.verify("wrong horse".into(), Some(h)).await.unwrap());
        assert!(!p.verify("correct horse".into(), None).await.unwrap());
    }

    #[tokio::test]
    async fn no_more_hashes_run_than_allowed() {
        let p = Arc::new(Passwords::new(8, 2));
        let running = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let most = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let (p, running, most) = (p.clone(), running.clone(), most.clone());
            tasks.push(tokio::spawn(async move {
                p.in_turn(move || {
                    use std::sync::atomic::Ordering::SeqCst;
                    let now = running.fetch_add(1, SeqCst) + 1;
                    most.fetch_max(now, SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    running.fetch_sub(1, SeqCst);
                })
                .await
                .unwrap();
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(most.load(std::sync::atomic::Ordering::SeqCst), 2);
    }
}
