//! The `site` of a Zulip account: normalized once, used as the account's identity.

use reqwest::Url;

/// A `site` value that is not a usable server address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid site '{site}': {reason}")]
pub struct InvalidSite {
    pub site: String,
    pub reason: String,
}

impl InvalidSite {
    pub(crate) fn new(site: &str, reason: impl Into<String>) -> Self {
        Self {
            site: site.to_string(),
            reason: reason.into(),
        }
    }
}

/// Normalizes a server address the way Zulip's tools read `site`:
/// - without a scheme, `https://` is assumed, except for `localhost`, `127.0.0.1` and
///   `[::1]` (each with an optional port), which get `http://`;
/// - trailing slashes are dropped, and so is a trailing `/api` (the Python client accepts
///   `site` with or without it);
/// - only `http` and `https` are accepted; user names, queries and fragments are not.
///
/// The result has no trailing slash, e.g. `https://chat.example.com` or
/// `http://localhost:9991`.
pub fn normalize_site(input: &str) -> Result<String, InvalidSite> {
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Err(InvalidSite::new(input, "it is empty"));
    }
    if !trimmed.contains("://") && has_mistyped_scheme(trimmed) {
        return Err(InvalidSite::new(
            input,
            "the scheme must be followed by \"://\", as in https://chat.example.com",
        ));
    }
    let with_scheme = if trimmed.contains("://") {
        trimmed.to_string()
    } else if is_loopback_authority(authority_of(trimmed)) {
        format!("http://{trimmed}")
    } else {
        format!("https://{trimmed}")
    };
    let url =
        Url::parse(&with_scheme).map_err(|error| InvalidSite::new(input, error.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(InvalidSite::new(input, "the scheme must be http or https"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(InvalidSite::new(input, "it has no host name"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(InvalidSite::new(
            input,
            "it must not contain a user name or password",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(InvalidSite::new(
            input,
            "it must not contain a query or fragment",
        ));
    }
    let mut text = url.as_str().trim_end_matches('/').to_string();
    if let Some(stripped) = text.strip_suffix("/api") {
        // `https://host/api` → `https://host`; a bare `https://api` host stays.
        if url.path().trim_end_matches('/').ends_with("/api") {
            text = stripped.trim_end_matches('/').to_string();
        }
    }
    Ok(text)
}

/// `https:/host`, `https//host`, `http:host`: a scheme typed wrong. Read as a host named
/// `https`, it would only fail later, as "cannot reach the server".
fn has_mistyped_scheme(address: &str) -> bool {
    let lower = address.to_ascii_lowercase();
    ["https", "http"].iter().any(|scheme| {
        lower
            .strip_prefix(scheme)
            .is_some_and(|rest| rest.starts_with(':') || rest.starts_with('/'))
    })
}

/// `host[:port]` of a scheme-less address: everything before the first `/`.
fn authority_of(address: &str) -> &str {
    address.split('/').next().unwrap_or(address)
}

fn is_loopback_authority(authority: &str) -> bool {
    let host = if authority.starts_with('[') {
        // `[::1]` or `[::1]:port`
        match authority.find(']') {
            Some(end) => {
                let rest = &authority[end + 1..];
                if !(rest.is_empty() || is_port_suffix(rest)) {
                    return false;
                }
                &authority[..=end]
            }
            None => return false,
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) if is_port_suffix(&format!(":{port}")) => host,
            Some(_) => return false,
            None => authority,
        }
    };
    host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1" || host == "[::1]"
}

fn is_port_suffix(text: &str) -> bool {
    text.strip_prefix(':')
        .is_some_and(|port| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(input: &str) -> String {
        normalize_site(input).unwrap_or_else(|e| panic!("{input}: {e}"))
    }

    #[test]
    fn a_bare_host_gets_https() {
        assert_eq!(norm("chat.example.com"), "https://chat.example.com");
        assert_eq!(
            norm("chat.example.com:8443/"),
            "https://chat.example.com:8443"
        );
    }

    #[test]
    fn loopback_hosts_get_http() {
        assert_eq!(norm("localhost"), "http://localhost");
        assert_eq!(norm("localhost:9991"), "http://localhost:9991");
        assert_eq!(norm("127.0.0.1:9991/"), "http://127.0.0.1:9991");
        assert_eq!(norm("[::1]"), "http://[::1]");
        assert_eq!(norm("[::1]:9991"), "http://[::1]:9991");
    }

    #[test]
    fn hosts_that_only_start_like_loopback_get_https() {
        assert_eq!(
            norm("localhost.example.com"),
            "https://localhost.example.com"
        );
        assert_eq!(norm("127.0.0.10"), "https://127.0.0.10");
    }

    #[test]
    fn explicit_schemes_are_kept_and_slashes_dropped() {
        assert_eq!(norm("http://chat.example.com/"), "http://chat.example.com");
        assert_eq!(norm("https://localhost:9991//"), "https://localhost:9991");
        assert_eq!(
            norm("  HTTPS://Chat.Example.com/zulip/ "),
            "https://chat.example.com/zulip"
        );
    }

    #[test]
    fn hosts_that_start_with_http_are_not_mistyped_schemes() {
        assert_eq!(norm("httpbin.example.com"), "https://httpbin.example.com");
        assert_eq!(
            norm("https-proxy.example.com"),
            "https://https-proxy.example.com"
        );
    }

    #[test]
    fn a_trailing_api_segment_is_dropped() {
        assert_eq!(
            norm("https://chat.example.com/api/"),
            "https://chat.example.com"
        );
        assert_eq!(norm("https://api.example.com"), "https://api.example.com");
    }

    #[test]
    fn invalid_sites_are_rejected() {
        for bad in [
            "",
            "   ",
            "ftp://example.com",
            "https://",
            "https://u:p@example.com",
            "https://x.com/?a=1",
            "https:/chat.example.com",
            "https//chat.example.com",
            "http:chat.example.com",
            "chat example.com",
            "chat.example.com:port",
        ] {
            assert!(normalize_site(bad).is_err(), "{bad:?} should be rejected");
        }
    }
}
