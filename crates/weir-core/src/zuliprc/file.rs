//! Finding and reading the zuliprc file itself: a typed `~`, and each way opening it can
//! fail named in words a person can act on.

use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf, is_separator};

use super::{MAX_ZULIPRC_BYTES, ZuliprcError};

/// Expands a leading `~` (alone, or followed by a path separator) to the home directory,
/// as a shell would: people type `~/zuliprc` because Zulip's docs write it so. `~user`
/// and a `~` elsewhere are left as typed; so is everything when no home is known.
pub fn expand_home(typed: &str) -> PathBuf {
    expand_with(typed, std::env::home_dir().as_deref())
}

fn expand_with(typed: &str, home: Option<&Path>) -> PathBuf {
    let Some(rest) = typed.strip_prefix('~') else {
        return PathBuf::from(typed);
    };
    let Some(home) = home else {
        return PathBuf::from(typed);
    };
    if rest.is_empty() {
        return home.to_path_buf();
    }
    match rest.chars().next() {
        Some(first) if is_separator(first) => home.join(rest.trim_start_matches(is_separator)),
        _ => PathBuf::from(typed),
    }
}

/// Reads a zuliprc's text. Only a regular file (a symbolic link to one is followed) of at
/// most [`MAX_ZULIPRC_BYTES`] is read: a device or a pipe could be read forever.
pub(super) fn read_limited(path: &Path) -> Result<String, ZuliprcError> {
    if path.as_os_str().is_empty() {
        return Err(ZuliprcError::NoPath);
    }
    let owned = || path.to_path_buf();
    let file = std::fs::File::open(path).map_err(|source| open_error(path, source))?;
    let meta = file.metadata().map_err(|source| open_error(path, source))?;
    if meta.is_dir() {
        return Err(ZuliprcError::IsAFolder { path: owned() });
    }
    if !meta.is_file() {
        return Err(ZuliprcError::NotAFile { path: owned() });
    }
    let mut bytes = Vec::new();
    file.take(MAX_ZULIPRC_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| open_error(path, source))?;
    if bytes.len() as u64 > MAX_ZULIPRC_BYTES {
        return Err(ZuliprcError::TooLarge { path: owned() });
    }
    String::from_utf8(bytes).map_err(|_| ZuliprcError::NotText { path: owned() })
}

/// Names the usual reasons a file cannot be opened; others keep the system's words.
fn open_error(path: &Path, source: std::io::Error) -> ZuliprcError {
    let path = path.to_path_buf();
    match source.kind() {
        ErrorKind::NotFound | ErrorKind::NotADirectory => ZuliprcError::NoSuchFile { path },
        ErrorKind::IsADirectory => ZuliprcError::IsAFolder { path },
        ErrorKind::PermissionDenied => ZuliprcError::PermissionDenied { path },
        _ => ZuliprcError::Read { path, source },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "aB3dEfGhIjKlMnOpQrStUvWxYz012345";

    #[test]
    fn a_leading_tilde_is_the_home_directory() {
        let home = Path::new("/home/ada");
        for (typed, expected) in [
            ("~", "/home/ada"),
            ("~/", "/home/ada"),
            ("~/zuliprc", "/home/ada/zuliprc"),
            ("~/.config/zuliprc", "/home/ada/.config/zuliprc"),
            ("~//zuliprc", "/home/ada/zuliprc"),
        ] {
            assert_eq!(
                expand_with(typed, Some(home)),
                Path::new(expected),
                "{typed}"
            );
        }
    }

    #[test]
    fn other_tildes_are_left_as_typed() {
        let home = Path::new("/home/ada");
        for typed in [
            "~bob/zuliprc",
            "/tmp/~/zuliprc",
            "zuliprc~",
            "./~",
            "/etc/zuliprc",
        ] {
            assert_eq!(expand_with(typed, Some(home)), Path::new(typed), "{typed}");
        }
        assert_eq!(expand_with("~/zuliprc", None), Path::new("~/zuliprc"));
    }

    #[test]
    fn the_real_home_is_used() {
        let Some(home) = std::env::home_dir() else {
            return;
        };
        assert_eq!(expand_home("~/zuliprc"), home.join("zuliprc"));
        assert_eq!(expand_home("~"), home);
    }

    /// The message a person sees for `path`, and that it is the expected kind.
    fn message(path: &Path, kind: fn(&ZuliprcError) -> bool) -> String {
        let error = read_limited(path).unwrap_err();
        assert!(kind(&error), "{path:?}: {error:?}");
        assert!(error.is_unreadable(), "{error:?}");
        error.to_string()
    }

    #[test]
    fn a_missing_file_is_named_plainly() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-zuliprc");
        let text = message(&missing, |e| matches!(e, ZuliprcError::NoSuchFile { .. }));
        assert_eq!(text, format!("there is no file at {}", missing.display()));
        // A path through a file is as missing as one through nothing.
        let file = dir.path().join("zuliprc");
        std::fs::write(&file, "[api]\n").unwrap();
        message(&file.join("x"), |e| {
            matches!(e, ZuliprcError::NoSuchFile { .. })
        });
        assert_eq!(
            read_limited(Path::new("")).unwrap_err().to_string(),
            "no file was given"
        );
    }

    #[test]
    fn a_folder_is_not_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let text = message(dir.path(), |e| matches!(e, ZuliprcError::IsAFolder { .. }));
        assert_eq!(
            text,
            format!("{} is a folder, not a file", dir.path().display())
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_file_without_read_permission_says_so() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("zuliprc");
        std::fs::write(&path, "[api]\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
        // root reads any file: the check is meaningful only for other users.
        if std::fs::File::open(&path).is_ok() {
            return;
        }
        let text = message(&path, |e| {
            matches!(e, ZuliprcError::PermissionDenied { .. })
        });
        assert_eq!(
            text,
            format!("you do not have permission to read {}", path.display())
        );
    }

    #[test]
    fn open_errors_are_named_by_kind() {
        let path = Path::new("/srv/zuliprc");
        let named = |kind: ErrorKind| open_error(path, kind.into());
        assert!(matches!(
            named(ErrorKind::PermissionDenied),
            ZuliprcError::PermissionDenied { .. }
        ));
        assert!(matches!(
            named(ErrorKind::IsADirectory),
            ZuliprcError::IsAFolder { .. }
        ));
        assert!(matches!(
            named(ErrorKind::NotFound),
            ZuliprcError::NoSuchFile { .. }
        ));
        let other = named(ErrorKind::TimedOut);
        assert!(matches!(other, ZuliprcError::Read { .. }), "{other:?}");
        assert!(other.is_unreadable());
        assert!(
            other
                .to_string()
                .starts_with("/srv/zuliprc could not be read (")
        );
    }

    #[test]
    fn a_binary_file_is_not_text_and_is_not_quoted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("photo.jpg");
        std::fs::write(&path, [0xff, 0xd8, 0xff, 0xe0, b's', b'e', b'c']).unwrap();
        let error = read_limited(&path).unwrap_err();
        assert!(matches!(error, ZuliprcError::NotText { .. }), "{error:?}");
        assert!(!error.is_unreadable());
        assert_eq!(
            error.to_string(),
            format!("{} is not a text file", path.display())
        );
    }

    #[test]
    fn a_file_that_is_not_a_zuliprc_is_told_apart_from_an_unreadable_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "[user]\nname = Ada\n").unwrap();
        let error = super::super::load(&path).unwrap_err();
        assert!(!error.is_unreadable(), "{error:?}");
        assert_eq!(
            error.to_string(),
            "it has no [api] section, so it is not a zuliprc"
        );
        std::fs::write(&path, format!("[api]\nemail=a@b.c\nkey={KEY}\n")).unwrap();
        assert_eq!(
            super::super::load(&path).unwrap_err().to_string(),
            "it has no server address (a \"site = …\" line in the [api] section)"
        );
        std::fs::write(&path, "[api]\nemail=a@b.c\nkey=abc\nsite=x.com\n").unwrap();
        assert_eq!(
            super::super::load(&path).unwrap_err().to_string(),
            "its API key is not valid: it must be 32 letters or digits, found 3 characters"
        );
    }
}
