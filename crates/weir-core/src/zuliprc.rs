//! `zuliprc`: the INI file every Zulip tool reads (`[api]` with `email`, `key`, `site`).

use std::path::{Path, PathBuf};

use crate::secret::Secret;
use crate::site::{InvalidSite, normalize_site};

/// The contents of a zuliprc, validated. The key is already a [`Secret`].
#[derive(Debug, Clone)]
pub struct Zuliprc {
    pub email: String,
    pub key: Secret,
    /// Normalized: scheme included, no trailing slash.
    pub site: String,
    /// `insecure = true`: TLS certificates are not verified.
    pub insecure: bool,
    pub cert_bundle: Option<PathBuf>,
    pub client_cert: Option<PathBuf>,
    pub client_cert_key: Option<PathBuf>,
}

/// Why a zuliprc could not be used. Messages never quote the file: a line number and
/// what was expected (a file picked by mistake may hold anything, the key included).
#[derive(Debug, thiserror::Error)]
pub enum ZuliprcError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a regular file")]
    NotAFile { path: PathBuf },
    #[error("{path} is larger than a zuliprc can be ({MAX_ZULIPRC_BYTES} bytes)")]
    TooLarge { path: PathBuf },
    #[error("line {line}: {reason}")]
    BadLine { line: usize, reason: &'static str },
    #[error("the file has no [api] section")]
    MissingSection,
    #[error("`{0}` is missing from the [api] section")]
    MissingKey(&'static str),
    /// `key` is the setting's name when it is one zuliprc files use, else "a setting".
    #[error("line {line}: {key} is set twice in the [api] section")]
    DuplicateKey { line: usize, key: &'static str },
    #[error("insecure must be 'true' or 'false' if it is used")]
    BadInsecure,
    #[error("the API key is invalid: {0}")]
    InvalidKey(String),
    #[error("site is not a usable server address: {}", .0.reason)]
    InvalidSite(#[from] InvalidSite),
}

/// The settings zuliprc files use, the only names an error may repeat.
const KNOWN_SETTINGS: [&str; 7] = [
    "email",
    "key",
    "site",
    "insecure",
    "cert_bundle",
    "client_cert",
    "client_cert_key",
];

/// Checks the shape of an API key: exactly 32 ASCII letters or digits. The error message
/// describes the problem without repeating the key.
pub fn validate_api_key(key: &str) -> Result<(), String> {
    let count = key.chars().count();
    if count != 32 {
        return Err(format!(
            "it must be 32 letters or digits, found {count} characters"
        ));
    }
    if !key.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err("it must contain only the letters A-Z, a-z and the digits 0-9".to_string());
    }
    Ok(())
}

/// A zuliprc is a few lines; anything larger was picked by mistake.
pub const MAX_ZULIPRC_BYTES: u64 = 64 * 1024;

/// Reads and parses a zuliprc file. Relative certificate paths are resolved against the
/// file's directory and a leading `~/` against the home directory. Only a regular file
/// (a symbolic link to one is followed) of at most [`MAX_ZULIPRC_BYTES`] is read: a
/// device or a pipe could be read forever.
pub fn load(path: &Path) -> Result<Zuliprc, ZuliprcError> {
    let text = read_limited(path)?;
    let mut rc = parse(&text)?;
    let base = path.parent().unwrap_or_else(|| Path::new("."));
    for slot in [
        &mut rc.cert_bundle,
        &mut rc.client_cert,
        &mut rc.client_cert_key,
    ] {
        if let Some(file) = slot.take() {
            *slot = Some(if file.is_relative() {
                base.join(file)
            } else {
                file
            });
        }
    }
    Ok(rc)
}

/// Parses zuliprc text (Python `configparser` rules as far as zuliprc files use them:
/// `key = value` or `key: value`, keys case-insensitive, whole-line `#`/`;` comments,
/// values trimmed, other sections ignored).
pub fn parse(text: &str) -> Result<Zuliprc, ZuliprcError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // None before the first section header; then whether the current section is [api].
    let mut in_api: Option<bool> = None;
    let mut seen_api = false;
    let mut values: Vec<(String, String)> = Vec::new();

    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let Some(name) = rest.strip_suffix(']') else {
                return Err(bad_line(line_no, "a section header must end with ']'"));
            };
            let is_api = name.trim().eq_ignore_ascii_case("api");
            seen_api |= is_api;
            in_api = Some(is_api);
            continue;
        }
        let Some(split) = line.find(['=', ':']) else {
            return Err(bad_line(line_no, "expected `name = value`"));
        };
        let name = line[..split].trim().to_ascii_lowercase();
        let value = line[split + 1..].trim();
        if name.is_empty() {
            return Err(bad_line(
                line_no,
                "a setting needs a name before '=' or ':'",
            ));
        }
        match in_api {
            None => return Err(bad_line(line_no, "a setting outside any [section]")),
            Some(false) => continue,
            Some(true) => {}
        }
        if values.iter().any(|(existing, _)| *existing == name) {
            let key = KNOWN_SETTINGS
                .into_iter()
                .find(|known| *known == name)
                .unwrap_or("a setting");
            return Err(ZuliprcError::DuplicateKey { line: line_no, key });
        }
        values.push((name, value.to_string()));
    }

    if !seen_api {
        return Err(ZuliprcError::MissingSection);
    }
    let get = |name: &str| {
        values
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    };
    let required = |name: &'static str| match get(name) {
        Some(value) if !value.is_empty() => Ok(value),
        _ => Err(ZuliprcError::MissingKey(name)),
    };

    let email = required("email")?.to_string();
    let key = required("key")?;
    validate_api_key(key).map_err(ZuliprcError::InvalidKey)?;
    let key = Secret::new(key);
    let site = normalize_site(required("site")?)?;
    let insecure = match get("insecure") {
        None => false,
        Some(value) if value.eq_ignore_ascii_case("true") => true,
        Some(value) if value.eq_ignore_ascii_case("false") => false,
        Some(_) => return Err(ZuliprcError::BadInsecure),
    };
    let path = |name: &str| get(name).filter(|v| !v.is_empty()).map(expand_home);

    Ok(Zuliprc {
        email,
        key,
        site,
        insecure,
        cert_bundle: path("cert_bundle"),
        client_cert: path("client_cert"),
        client_cert_key: path("client_cert_key"),
    })
}

/// The text of a zuliprc for `email` on `site`, as Zulip's web app offers it for
/// download (`[api]` with `email`, `key`, `site`). It holds the key, hence a [`Secret`].
pub fn render(email: &str, key: &Secret, site: &str) -> Secret {
    Secret::new(format!(
        "[api]\nemail={email}\nkey={}\nsite={site}\n",
        key.expose()
    ))
}

fn read_limited(path: &Path) -> Result<String, ZuliprcError> {
    use std::io::Read;
    let unreadable = |source| ZuliprcError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    if !file.metadata().map_err(unreadable)?.is_file() {
        return Err(ZuliprcError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    let mut text = String::new();
    file.take(MAX_ZULIPRC_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(unreadable)?;
    if text.len() as u64 > MAX_ZULIPRC_BYTES {
        return Err(ZuliprcError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    Ok(text)
}

fn bad_line(line: usize, reason: &'static str) -> ZuliprcError {
    ZuliprcError::BadLine { line, reason }
}

fn expand_home(value: &str) -> PathBuf {
    match value.strip_prefix("~/") {
        Some(rest) => match std::env::var_os("HOME") {
            Some(home) => PathBuf::from(home).join(rest),
            None => PathBuf::from(value),
        },
        None => PathBuf::from(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "aB3dEfGhIjKlMnOpQrStUvWxYz012345";

    fn rc(body: &str) -> String {
        format!("[api]\n{body}")
    }

    fn full() -> String {
        rc(&format!(
            "email=iago@zulip.com\nkey={KEY}\nsite=https://chat.example.com\n"
        ))
    }

    #[test]
    fn parses_a_valid_file() {
        let parsed = parse(&full()).unwrap();
        assert_eq!(parsed.email, "iago@zulip.com");
        assert_eq!(parsed.key.expose(), KEY);
        assert_eq!(parsed.site, "https://chat.example.com");
        assert!(!parsed.insecure);
        assert!(parsed.cert_bundle.is_none() && parsed.client_cert.is_none());
    }

    #[test]
    fn the_key_is_wrapped_in_a_secret_and_not_printed() {
        let parsed = parse(&full()).unwrap();
        let debug = format!("{parsed:?}");
        assert!(!debug.contains(KEY), "{debug}");
        assert!(debug.contains("iago@zulip.com"));
    }

    #[test]
    fn each_missing_key_is_named() {
        let lines = [
            ("email", "email=iago@zulip.com"),
            ("key", &format!("key={KEY}")),
            ("site", "site=chat.example.com"),
        ];
        for (missing, _) in &lines {
            let body: String = lines
                .iter()
                .filter(|(name, _)| name != missing)
                .map(|(_, line)| format!("{line}\n"))
                .collect();
            match parse(&rc(&body)) {
                Err(ZuliprcError::MissingKey(name)) => assert_eq!(name, *missing),
                other => panic!("{missing}: expected MissingKey, got {other:?}"),
            }
            let text = parse(&rc(&body)).unwrap_err().to_string();
            assert!(text.contains(missing), "{text}");
        }
    }

    #[test]
    fn an_empty_value_counts_as_missing() {
        let body = format!("email =\nkey={KEY}\nsite=x.com\n");
        assert!(matches!(
            parse(&rc(&body)),
            Err(ZuliprcError::MissingKey("email"))
        ));
    }

    #[test]
    fn a_missing_api_section_is_reported() {
        let text = format!("[other]\nemail=a@b.c\nkey={KEY}\nsite=x.com\n");
        assert!(matches!(parse(&text), Err(ZuliprcError::MissingSection)));
        assert!(matches!(parse(""), Err(ZuliprcError::MissingSection)));
    }

    #[test]
    fn insecure_accepts_true_and_false_in_any_case() {
        for (value, expected) in [
            ("true", true),
            ("True", true),
            ("FALSE", false),
            ("false", false),
        ] {
            let parsed = parse(&format!("{}insecure = {value}\n", full())).unwrap();
            assert_eq!(parsed.insecure, expected, "{value}");
        }
    }

    #[test]
    fn a_bad_insecure_value_says_what_is_expected() {
        let error = parse(&format!("{}insecure=yes\n", full())).unwrap_err();
        assert!(matches!(&error, ZuliprcError::BadInsecure));
        assert!(error.to_string().contains("'true' or 'false'"), "{error}");
    }

    #[test]
    fn comments_whitespace_and_colons_are_understood() {
        let text = format!(
            "\u{feff}# downloaded from Zulip\n\n; another comment\n[api]\n   email :  iago@zulip.com  \n\
             \tKEY = {KEY}\r\nsite=chat.example.com/\n\n[extra]\nfoo = bar\n"
        );
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed.email, "iago@zulip.com");
        assert_eq!(parsed.key.expose(), KEY);
        assert_eq!(parsed.site, "https://chat.example.com");
    }

    #[test]
    fn site_is_normalized() {
        for (site, expected) in [
            ("chat.example.com", "https://chat.example.com"),
            ("chat.example.com/", "https://chat.example.com"),
            ("http://chat.example.com/", "http://chat.example.com"),
            ("localhost:9991", "http://localhost:9991"),
            ("127.0.0.1", "http://127.0.0.1"),
            ("[::1]:9991", "http://[::1]:9991"),
        ] {
            let text = rc(&format!("email=a@b.c\nkey={KEY}\nsite={site}\n"));
            assert_eq!(parse(&text).unwrap().site, expected, "{site}");
        }
    }

    #[test]
    fn a_malformed_key_is_rejected_without_echoing_it() {
        for key in [
            "short",
            "aB3dEfGhIjKlMnOpQrStUvWxYz01234!",
            "aB3dEfGhIjKlMnOpQrStUvWxYz0123456",
        ] {
            let text = rc(&format!("email=a@b.c\nkey={key}\nsite=x.com\n"));
            let error = parse(&text).unwrap_err();
            assert!(
                matches!(error, ZuliprcError::InvalidKey(_)),
                "{key}: {error:?}"
            );
            assert!(!error.to_string().contains(key), "{error}");
        }
    }

    #[test]
    fn errors_never_quote_the_file() {
        let secret = "s3cr3t-value-from-some-other-file";
        for text in [
            format!("{}this is {secret}\n", full()),
            format!("[api\n{secret}\n"),
            format!("{secret} = 1\n[api]\n"),
            rc(&format!(
                "email=a@b.c\nkey={KEY}\nsite=x.com\ninsecure={secret}\n"
            )),
            rc(&format!("email=a@b.c\nkey={KEY}\nsite=ftp://{secret}\n")),
            rc(&format!(
                "email=a@b.c\nkey={KEY}\nsite=x.com\n{secret}=1\n{secret}=2\n"
            )),
        ] {
            let error = parse(&text).unwrap_err().to_string();
            assert!(!error.contains(secret), "{error}");
        }
    }

    #[test]
    fn only_a_small_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        // A device reads as empty (or forever): it is refused before any reading.
        let error = load(Path::new("/dev/null")).unwrap_err();
        assert!(matches!(error, ZuliprcError::NotAFile { .. }), "{error:?}");
        assert!(matches!(
            load(dir.path()),
            Err(ZuliprcError::NotAFile { .. }) | Err(ZuliprcError::Read { .. })
        ));
        let big = dir.path().join("big");
        std::fs::write(&big, format!("{}#{}\n", full(), "x".repeat(70_000))).unwrap();
        assert!(matches!(load(&big), Err(ZuliprcError::TooLarge { .. })));
        let fine = dir.path().join("zuliprc");
        std::fs::write(&fine, full()).unwrap();
        assert!(load(&fine).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn only_a_regular_zuliprc_is_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("zuliprc");
        std::fs::write(&real, full()).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let other = dir.path().join("notes.txt");
        std::fs::write(&other, "not a zuliprc").unwrap();

        assert!(crate::delete_zuliprc(&link).is_err());
        assert!(crate::delete_zuliprc(&other).is_err());
        assert!(crate::delete_zuliprc(dir.path()).is_err());
        assert!(link.exists() && other.exists());
        crate::delete_zuliprc(&real).unwrap();
        assert!(!real.exists());
    }

    #[test]
    fn a_bad_line_is_reported_with_its_number() {
        let error = parse(&format!("{}this is not a setting\n", full())).unwrap_err();
        match &error {
            ZuliprcError::BadLine { line, .. } => assert_eq!(*line, 5),
            other => panic!("{other:?}"),
        }
        assert!(error.to_string().contains("line 5"), "{error}");
        // A broken line that starts with `key` might hold the key: not echoed.
        let error = parse(&rc(&format!("key {KEY}\n"))).unwrap_err();
        assert!(!error.to_string().contains(KEY), "{error}");
    }

    #[test]
    fn settings_before_any_section_are_an_error() {
        let error = parse(&format!("email=a@b.c\n{}", full())).unwrap_err();
        assert!(
            matches!(error, ZuliprcError::BadLine { line: 1, .. }),
            "{error:?}"
        );
    }

    #[test]
    fn a_duplicate_setting_is_an_error() {
        let error = parse(&format!("{}email=b@c.d\n", full())).unwrap_err();
        assert!(matches!(
            error,
            ZuliprcError::DuplicateKey { key: "email", .. }
        ));
    }

    #[test]
    fn certificate_paths_are_read() {
        let text = format!(
            "{}cert_bundle=/etc/ssl/zulip.pem\nclient_cert=/c.pem\nclient_cert_key=/k.pem\n",
            full()
        );
        let parsed = parse(&text).unwrap();
        assert_eq!(
            parsed.cert_bundle.as_deref(),
            Some(Path::new("/etc/ssl/zulip.pem"))
        );
        assert_eq!(parsed.client_cert.as_deref(), Some(Path::new("/c.pem")));
        assert_eq!(parsed.client_cert_key.as_deref(), Some(Path::new("/k.pem")));
    }

    #[test]
    fn load_resolves_relative_paths_next_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("zuliprc");
        std::fs::write(&path, format!("{}cert_bundle=ca.pem\n", full())).unwrap();
        let parsed = load(&path).unwrap();
        assert_eq!(parsed.cert_bundle, Some(dir.path().join("ca.pem")));
        let missing = load(&dir.path().join("nope")).unwrap_err();
        assert!(matches!(missing, ZuliprcError::Read { .. }));
    }

    #[test]
    fn rendered_text_parses_back() {
        let key = Secret::new("abcdefghijklmnopqrstuvwxyz012345");
        let text = render("hook-bot@example.com", &key, "https://chat.example.com");
        let rc = parse(text.expose()).unwrap();
        assert_eq!(rc.email, "hook-bot@example.com");
        assert_eq!(rc.key, key);
        assert_eq!(rc.site, "https://chat.example.com");
        assert_eq!(format!("{text:?}"), "Secret([redacted])");
    }
}
