//! The error a command ends with: a message for the user and an exit code.

/// A failed command.
#[derive(Debug)]
pub struct CliError {
    /// What went wrong, for the user.
    pub message: String,
    /// The process exit code.
    pub code: i32,
}

impl CliError {
    /// Bad input from the user (a malformed FEN, an illegal move, a bad option): exit code 2.
    pub fn input(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            code: 2,
        }
    }
}
