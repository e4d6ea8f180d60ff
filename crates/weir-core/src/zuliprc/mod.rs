//! `zuliprc`: the INI file every Zulip tool reads (`[api]` with `email`, `key`, `site`).

use std::path::{Path, PathBuf};

use crate::secret::Secret;
use crate::site::{InvalidSite, normalize_site};

mod file;

pub use file::expand_home;
use file::read_limited;

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

/// Why a zuliprc could not be used, in words for the person who picked the file (the UI
/// shows them after its own lead-in). Messages never quote the file: a line number and
/// what was expected (a file picked by mistake may hold anything, the key included).
#[derive(Debug, thiserror::Error)]
pub enum ZuliprcError {
    #[error("no file was given")]
    NoPath,
    #[error("there is no file at {path}")]
    NoSuchFile { path: PathBuf },
    #[error("{path} is a folder, not a file")]
    IsAFolder { path: PathBuf },
    #[error("you do not have permission to read {path}")]
    PermissionDenied { path: PathBuf },
    /// A device, a pipe or (when deleting) a symbolic link.
    #[error("{path} is not an ordinary file")]
    NotAFile { path: PathBuf },
    #[error("{path} could not be read ({source})")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is too large to be a zuliprc, which is a few lines of text")]
    TooLarge { path: PathBuf },
    #[error("{path} is not a text file")]
    NotText { path: PathBuf },
    #[error("line {line} is not understood: {reason}")]
    BadLine { line: usize, reason: &'static str },
    #[error("it has no [api] section, so it is not a zuliprc")]
    MissingSection,
    /// The name of the missing setting (`email`, `key` or `site`).
    #[error("it has no {meaning} (a \"{0} = …\" line in the [api] section)", meaning = setting_meaning(.0))]
    MissingKey(&'static str),
    /// `key` is the setting's name when it is one zuliprc files use, else "a setting".
    #[error("line {line}: {key} is set twice in the [api] section")]
    DuplicateKey { line: usize, key: &'static str },
    #[error("insecure must be 'true' or 'false' if it is used")]
    BadInsecure,
    #[error("its API key is not valid: {0}")]
    InvalidKey(String),
    #[error("its server address (site) cannot be used: {}", .0.reason)]
    InvalidSite(#[from] InvalidSite),
}

impl ZuliprcError {
    /// The file itself could not be opened (as opposed to a file that is not a zuliprc):
    /// the UI then points at the path rather than at the file's contents.
    pub fn is_unreadable(&self) -> bool {
        matches!(
            self,
            Self::NoPath
                | Self::NoSuchFile { .. }
                | Self::IsAFolder { .. }
                | Self::PermissionDenied { .. }
                | Self::NotAFile { .. }
                | Self::Read { .. }
        )
    }
}

/// What a required setting holds, in the words Zulip's settings page uses.
fn setting_meaning(name: &str) -> &'static str {
    match name {
        "email" => "e-mail address",
        "key" => "API key",
        "site" => "server address",
        _ => "required setting",
    }
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

/// Reads and parses a zuliprc file (a typed path goes through [`expand_home`] first).
/// Relative certificate paths are resolved against the file's directory and a leading
/// `~/` against the home directory. Only a regular file
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

fn bad_line(line: usize, reason: &'static str) -> ZuliprcError {
    ZuliprcError::BadLine { line, reason }
}

#[cfg(test)]
mod tests;
