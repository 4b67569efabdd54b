//! What a changed (or reset) password ends: [`end_other_sessions`].

use crate::AppState;
use crate::infra::error::ApiResult;

/// What [`end_other_sessions`] ended.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Ended {
    /// Sessions (signed-in browsers) ended.
    pub sessions: usize,
    /// API and bot tokens revoked.
    pub tokens: usize,
}

/// Ends every session of `user_id` but `keep_session` (a session's token
/// hash; `None`: all of them) and revokes every API and bot token of the
/// user: the sessions are deleted and their sockets closed (in this
/// process and, through PostgreSQL, in the others), the tokens deleted and
/// forgotten everywhere (their event streams end at the next keep-alive).
/// For a password change (keeping the browser that made it) and a reset.
pub async fn end_other_sessions(
    app: &AppState,
    user_id: &str,
    keep_session: Option<&str>,
) -> ApiResult<Ended> {
    let mut ended = Ended::default();
    for hash in super::store::sessions_of(&app.db, user_id).await? {
        if Some(hash.as_str()) == keep_session {
            continue;
        }
        super::auth::end_session(app, &hash).await?;
        ended.sessions += 1;
    }
    for id in crate::bot_api::store::delete_tokens_of(&app.db, user_id).await? {
        app.bots.token_revoked(&id).await;
        ended.tokens += 1;
    }
    Ok(ended)
}
