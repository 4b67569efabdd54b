//! A user as every feature sees one: an id, a name, and whether it is a
//! guest.

use serde::Serialize;

/// A user as the API shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct User {
    /// Id.
    pub id: String,
    /// Name shown to others.
    pub username: String,
    /// A guest (no password) rather than an account.
    pub guest: bool,
}

impl User {
    /// Refuses a guest what only accounts may do: 403 `account_required`,
    /// `why` saying what to do ("register to ...").
    pub fn require_account(&self, why: &str) -> crate::infra::error::ApiResult<()> {
        if self.guest {
            return Err(crate::infra::error::ApiError::forbidden(
                "account_required",
                why.to_string(),
            ));
        }
        Ok(())
    }
}
