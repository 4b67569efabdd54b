//! The running server's lock on its SQLite database: a lock file beside
//! the database (`thaiboard.db.lock` beside `thaiboard.db`), held with an
//! exclusive advisory lock (`flock`) for as long as the server serves. A
//! second server on the same file refuses to start, and `thaiboard
//! restore` refuses to replace a database under a running server (whose
//! writes would go to the replaced file and be lost). `thaiboard backup`
//! takes no lock: it reads while the server writes. The kernel lets go of
//! the lock when the process ends, however it ends (`kill -9` too).
//!
//! PostgreSQL is shared by several server processes and has no such lock.

use fs4::{FileExt, TryLockError};
use std::fs::File;
use std::path::{Path, PathBuf};

/// A held lock; let go when dropped.
#[derive(Debug)]
pub struct DataLock {
    _file: File,
}

/// The lock file of the database file `db`.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl DataLock {
    /// Takes the lock of database file `db`, or says who holds it. `doing`
    /// names what the caller wants to do, for the error.
    pub fn take(db: &Path, doing: &str) -> Result<DataLock, String> {
        let path = lock_path(db);
        if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder)
                .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("cannot open the lock file {}: {e}", path.display()))?;
        match FileExt::try_lock(&file) {
            Ok(()) => Ok(DataLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(format!(
                "cannot {doing}: a running thaiboard server holds {} (its lock file {}); stop that server first",
                db.display(),
                path.display()
            )),
            Err(TryLockError::Error(e)) => Err(format!("cannot lock {}: {e}", path.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_refused_with_its_holder_until_let_go() {
        let dir = std::env::temp_dir().join(format!("thaiboard-lock-{}", std::process::id()));
        let db = dir.join("thaiboard.db");
        let held = DataLock::take(&db, "serve").unwrap();
        assert!(dir.join("thaiboard.db.lock").is_file());
        let e = DataLock::take(&db, "restore").unwrap_err();
        assert!(
            e.contains("cannot restore") && e.contains("stop that server"),
            "{e}"
        );
        drop(held);
        assert!(DataLock::take(&db, "restore").is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
