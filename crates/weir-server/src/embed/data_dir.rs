//! The data dir and its files, kept private: the database holds every API key, so the
//! directory is 0700 and its files 0600, on creation and again at every start (a dir
//! made by an older version, or copied with default permissions, is tightened: group
//! and other lose their bits, the owner's are never added, so a read-only data dir
//! stays read-only). Elsewhere than Unix, the per-user data dir's own rules apply.

use std::io;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::{DATABASE_FILE, Store, create_seeded};
use crate::{Seed, demo_seed};

/// The demo owner's credentials file, written beside the database for curl and zuliprc
/// clients.
pub const DEMO_ZULIPRC: &str = "demo-zuliprc";

/// SQLite's files for the database: the database, its write-ahead log and shared memory.
fn database_files(data_dir: &Path) -> [PathBuf; 3] {
    ["", "-wal", "-shm"].map(|suffix| data_dir.join(format!("{DATABASE_FILE}{suffix}")))
}

/// Creates `data_dir` if needed and makes it and the files Weir keeps there private.
pub fn make_private(data_dir: &Path) -> Result<()> {
    create_private_dir(data_dir)?;
    let files = database_files(data_dir);
    for path in files.iter().chain([&data_dir.join(DEMO_ZULIPRC)]) {
        if path.exists() {
            restrict(path, 0o600)?;
        }
    }
    Ok(())
}

/// Creates a directory (and its parents) readable by its owner only; an existing one is
/// tightened to 0700.
pub fn create_private_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|error| about(dir, "cannot create", error))?;
    restrict(dir, 0o700)
}

/// Creates an empty file with mode 0600 unless it exists (then it is tightened). SQLite
/// gives its log and shared-memory files the database file's mode, so creating the
/// database this way keeps all three private from the first byte.
pub fn create_private_file(path: &Path) -> Result<()> {
    if path.exists() {
        return restrict(path, 0o600);
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(path)
        .map(drop)
        .map_err(|error| about(path, "cannot create", error))?;
    restrict(path, 0o600)
}

/// Writes `text` to a file only its owner can read.
pub fn write_private(path: &Path, text: &str) -> Result<()> {
    create_private_file(path)?;
    std::fs::write(path, text).map_err(|error| about(path, "cannot write", error))
}

/// Clears the permission bits outside `allowed` (0700 or 0600). A read-only file
/// system cannot be changed, nor written: it is left as it is, with a warning.
#[cfg(unix)]
fn restrict(path: &Path, allowed: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let current = std::fs::metadata(path)
        .map_err(|error| about(path, "cannot read the permissions of", error))?
        .permissions()
        .mode()
        & 0o7777;
    let tightened = current & allowed;
    if tightened == current {
        return Ok(());
    }
    match std::fs::set_permissions(path, std::fs::Permissions::from_mode(tightened)) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::ReadOnlyFilesystem => {
            tracing::warn!(path = %path.display(), "on a read-only file system: cannot make it private");
            Ok(())
        }
        Err(error) => Err(about(path, "cannot make private", error)),
    }
}

#[cfg(not(unix))]
fn restrict(_path: &Path, _mode: u32) -> Result<()> {
    Ok(())
}

fn about(path: &Path, what: &str, error: io::Error) -> Error {
    Error::Io(io::Error::new(
        error.kind(),
        format!("{what} {}: {error}", path.display()),
    ))
}

/// What to load into a data dir that has no database yet.
#[derive(Debug, Clone)]
pub enum Organization {
    /// The built-in demo organization ([`demo_seed`]).
    Demo,
    Seed(Seed),
}

/// Makes the data dir private and, when it has no database yet, creates one holding
/// `organization`; an existing database is kept as it is.
pub fn prepare(data_dir: &Path, organization: &Organization) -> Result<()> {
    make_private(data_dir)?;
    if Store::exists_in(data_dir) {
        return Ok(());
    }
    match organization {
        Organization::Demo => create_seeded(data_dir, &demo_seed()),
        Organization::Seed(seed) => create_seeded(data_dir, seed),
    }
}

/// Deletes the database and its log. Only for a store that is closed (see
/// [`Store::closing`]): a connection still open would write its log back.
pub fn erase(data_dir: &Path) -> Result<()> {
    for path in database_files(data_dir) {
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => return Err(about(&path, "cannot delete", error)),
        }
    }
    Ok(())
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn an_open_data_dir_is_tightened_and_a_new_one_is_private() {
        let root = tempfile::tempdir().unwrap();
        let fresh = root.path().join("a/b");
        make_private(&fresh).unwrap();
        assert_eq!(mode(&fresh), 0o700);

        let old = root.path().join("old");
        std::fs::create_dir(&old).unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
        let database = old.join(DATABASE_FILE);
        let zuliprc = old.join(DEMO_ZULIPRC);
        for file in [&database, &zuliprc] {
            std::fs::write(file, "x").unwrap();
            std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        make_private(&old).unwrap();
        assert_eq!(
            [mode(&old), mode(&database), mode(&zuliprc)],
            [0o700, 0o600, 0o600]
        );
    }

    #[test]
    fn tightening_never_adds_the_owners_bits() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("read-only");
        std::fs::create_dir(&dir).unwrap();
        let database = dir.join(DATABASE_FILE);
        std::fs::write(&database, "x").unwrap();
        std::fs::set_permissions(&database, std::fs::Permissions::from_mode(0o444)).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
        let outcome = make_private(&dir);
        let modes = [mode(&dir), mode(&database)];
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        outcome.unwrap();
        assert_eq!(modes, [0o500, 0o400]);
    }

    #[test]
    fn private_files_are_created_and_rewritten_private() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("secret");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_private(&path, "new").unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }
}
