//! Refuses requests whose `Host` is not this server, as Django's `ALLOWED_HOSTS` does.
//!
//! A web page the user visits can point its own domain name at 127.0.0.1 (DNS
//! rebinding) and then read a local server's answers through the browser; the only
//! trace is the page's name in `Host`. Accepted, on any port as in Django: the loopback
//! names, the address the server listens on, and the names the operator allows
//! (`--allowed-host`, for a server others reach by a name of its own).

use std::net::SocketAddr;

use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The `Host` values a server answers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowedHosts {
    /// Whole `Host` values, lower case (`proxy.test:443`).
    exact: Vec<String>,
    /// Names accepted on any port or none: loopback, the bound address, allowed names.
    names: Vec<String>,
    /// `*`: every host, for a server behind a proxy that checks names itself.
    any: bool,
}

impl AllowedHosts {
    /// For a server bound to `bound`, plus `configured` entries: `NAME` (any port),
    /// `NAME:PORT`, or `*`.
    pub fn new(bound: SocketAddr, configured: &[String]) -> Self {
        let mut names = vec!["127.0.0.1".to_owned(), "localhost".into(), "[::1]".into()];
        if !bound.ip().is_unspecified() {
            names.push(match bound {
                SocketAddr::V4(v4) => v4.ip().to_string(),
                SocketAddr::V6(v6) => format!("[{}]", v6.ip()),
            });
        }
        let mut exact = Vec::new();
        let mut any = false;
        for entry in configured {
            let entry = entry.trim().to_ascii_lowercase();
            if entry == "*" {
                any = true;
            } else if split_port(&entry).1.is_some() {
                exact.push(entry);
            } else if !entry.is_empty() {
                names.push(entry);
            }
        }
        Self { exact, names, any }
    }

    pub fn allows(&self, host: &str) -> bool {
        if self.any {
            return true;
        }
        // Compared without lower-casing a copy: this runs for every request.
        if self
            .exact
            .iter()
            .any(|exact| exact.eq_ignore_ascii_case(host))
        {
            return true;
        }
        let (name, _) = split_port(host);
        self.names
            .iter()
            .any(|allowed| allowed.eq_ignore_ascii_case(name))
    }
}

/// `name:port` into its parts; `[v6]:port` keeps its brackets on the name.
fn split_port(host: &str) -> (&str, Option<&str>) {
    let name_end = if host.starts_with('[') {
        host.find(']').map_or(host.len(), |close| close + 1)
    } else {
        host.rfind(':').unwrap_or(host.len())
    };
    let (name, rest) = host.split_at(name_end);
    match rest.strip_prefix(':') {
        Some(port) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
            (name, Some(port))
        }
        _ => (host, None),
    }
}

/// A Zulip-shaped 400 for a missing or unknown `Host`; `None` lets the request through.
/// Called by the connection for every request, before the router (a middleware layer
/// would box every request's future once more).
pub fn refusal(allowed: &AllowedHosts, headers: &HeaderMap) -> Option<Response> {
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok());
    if host.is_some_and(|host| allowed.allows(host)) {
        return None;
    }
    Some(
        ApiError::bad_request(
            "Invalid Host header: this server only answers to its own address (start it \
             with --allowed-host NAME to accept another name)",
        )
        .into_response(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(bound: &str, configured: &[&str]) -> AllowedHosts {
        let configured: Vec<String> = configured.iter().map(|s| (*s).to_owned()).collect();
        let bound = bound
            .parse()
            .unwrap_or(SocketAddr::from(([127, 0, 0, 1], 1)));
        AllowedHosts::new(bound, &configured)
    }

    #[test]
    fn loopback_names_are_allowed_on_any_port() {
        let hosts = allowed("127.0.0.1:9991", &[]);
        for host in [
            "127.0.0.1:9991",
            "localhost:9991",
            "LOCALHOST:9991",
            "[::1]:9991",
            "localhost",
            "127.0.0.1:1",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
        for host in [
            "evil.test:9991",
            "",
            "localhost:9991.evil.test",
            "localhost.evil.test",
            "127.0.0.1.evil.test:9991",
            "evil.test",
            "[::1",
        ] {
            assert!(!hosts.allows(host), "{host}");
        }
    }

    #[test]
    fn the_bound_address_and_configured_names_are_allowed() {
        let hosts = allowed("192.168.1.5:8080", &["weir.lan", "proxy.test:443"]);
        for host in [
            "192.168.1.5:8080",
            "192.168.1.5",
            "weir.lan",
            "weir.lan:8080",
            "WEIR.LAN:1",
            "proxy.test:443",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
        for host in [
            "proxy.test",
            "proxy.test:444",
            "192.168.1.6:8080",
            "x.weir.lan",
        ] {
            assert!(!hosts.allows(host), "{host}");
        }
        assert!(allowed("0.0.0.0:80", &["*"]).allows("anything.test:1"));
        assert!(!allowed("0.0.0.0:80", &[]).allows("0.0.0.0:80"));
    }
}
