//! [`ZulipClient`]: typed access to one account on one Zulip server.
//!
//! The client owns everything the UI must never do itself: HTTP basic auth with the
//! account's [`Secret`], TLS settings, timeouts, rate limits (429 with `Retry-After`,
//! `X-RateLimit-*` headers), retries of reads, and feature-level discovery.

mod api;
mod catalog;
mod channels;
mod error;
mod groups;
mod transport;
mod webhook;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use reqwest::{Certificate, Identity, Url};
use zulip_api::ServerSettings;

pub use api::{
    Anchor, BotInfo, CreatedBot, MessagesQuery, NarrowTerm, NewBot, NewSubscription, Principals,
};
pub use channels::SettingUpdate;
pub use error::ClientError;
pub use groups::UserGroup;
pub use webhook::{MAX_RESPONSE_BYTES, WebhookResponse};

use crate::secret::Secret;
use crate::site::{InvalidSite, normalize_site};
use crate::zuliprc::Zuliprc;

/// The `User-Agent` Weir sends: `Weir/<version>`.
pub const USER_AGENT: &str = concat!("Weir/", env!("CARGO_PKG_VERSION"));

/// Feature level from which `principals` may be user ids (Zulip 3.0).
pub const FEATURE_LEVEL_INTEGER_PRINCIPALS: u32 = 9;
/// Zulip 12 added `GET /bots/{id}/api_key` (and, at 474, took keys out of `register`).
pub const FEATURE_LEVEL_BOT_KEY_ENDPOINT: u32 = 463;

/// Timeouts, retries and rate-limit budget. `Default` suits the app; tests shrink it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    /// Whole-request timeout (connect, send, read the body). Default 30 s.
    pub timeout: Duration,
    /// Connection timeout. Default 10 s.
    pub connect_timeout: Duration,
    /// Retries of a GET after a 5xx or a transport error (and of any request whose
    /// connection could not be established). Default 3.
    pub max_retries: u32,
    /// First retry delay; doubled on each further retry. Default 500 ms.
    pub retry_base_delay: Duration,
    /// Upper bound of one retry delay. Default 8 s.
    pub max_retry_delay: Duration,
    /// How many 429 answers one call waits out before giving up. Default 3.
    pub max_rate_limit_retries: u32,
    /// The most one call waits in total because of rate limits. Default 60 s.
    pub max_rate_limit_wait: Duration,
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_retries: 3,
            retry_base_delay: Duration::from_millis(500),
            max_retry_delay: Duration::from_secs(8),
            max_rate_limit_retries: 3,
            max_rate_limit_wait: Duration::from_secs(60),
        }
    }
}

/// TLS options of one account (from its zuliprc). Verification is on unless `insecure`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TlsOptions {
    /// Do not verify the server's certificate. Only ever set explicitly.
    pub insecure: bool,
    /// PEM bundle of the certificate authorities to trust instead of the built-in ones.
    pub cert_bundle: Option<PathBuf>,
    /// PEM client certificate (may also hold the key).
    pub client_cert: Option<PathBuf>,
    /// PEM private key of the client certificate, if not in `client_cert`.
    pub client_cert_key: Option<PathBuf>,
}

/// Who the client acts as.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub site: String,
    pub email: String,
    pub key: Secret,
}

/// A client for one account. Cheap to clone: clones share the connection pool, the
/// cached server settings and the rate-limit state.
#[derive(Clone)]
pub struct ZulipClient {
    inner: Arc<Inner>,
}

struct Inner {
    http: reqwest::Client,
    site: String,
    api_base: Url,
    email: String,
    key: Secret,
    config: ClientConfig,
    settings: Mutex<Option<Arc<ServerSettings>>>,
    /// Set when a response said `X-RateLimit-Remaining: 0`: no request before then.
    pause_until: Mutex<Option<Instant>>,
}

impl std::fmt::Debug for ZulipClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZulipClient")
            .field("site", &self.inner.site)
            .field("email", &self.inner.email)
            .finish_non_exhaustive()
    }
}

impl ZulipClient {
    /// Builds a client. The site is normalized (see [`normalize_site`]); nothing is sent.
    pub fn new(
        credentials: Credentials,
        tls: &TlsOptions,
        config: &ClientConfig,
    ) -> Result<Self, ClientError> {
        let site = normalize_site(&credentials.site)?;
        // A malformed address is the user's to fix, not a network failure.
        let api_base = Url::parse(&format!("{site}/api/v1/"))
            .map_err(|error| InvalidSite::new(&site, error.to_string()))?;
        let http = build_http(tls, config)?;
        Ok(Self {
            inner: Arc::new(Inner {
                http,
                site,
                api_base,
                email: credentials.email,
                key: credentials.key,
                config: config.clone(),
                settings: Mutex::new(None),
                pause_until: Mutex::new(None),
            }),
        })
    }

    /// A client for the account a zuliprc describes, with its TLS options.
    pub fn from_zuliprc(rc: &Zuliprc, config: &ClientConfig) -> Result<Self, ClientError> {
        let credentials = Credentials {
            site: rc.site.clone(),
            email: rc.email.clone(),
            key: rc.key.clone(),
        };
        Self::new(credentials, &tls_options(rc), config)
    }

    /// The normalized site, e.g. `https://chat.example.com`.
    pub fn site(&self) -> &str {
        &self.inner.site
    }

    /// The e-mail address the client authenticates with.
    pub fn email(&self) -> &str {
        &self.inner.email
    }

    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// `GET /server_settings` (no authentication), fetched once and then cached on this
    /// client (and its clones).
    pub async fn server_settings(&self) -> Result<Arc<ServerSettings>, ClientError> {
        match self.cached_server_settings() {
            Some(settings) => Ok(settings),
            None => self.refresh_server_settings().await,
        }
    }

    /// Fetches `GET /server_settings` again and replaces the cached copy (after a server
    /// upgrade, say).
    pub async fn refresh_server_settings(&self) -> Result<Arc<ServerSettings>, ClientError> {
        let settings: ServerSettings = self
            .execute(
                reqwest::Method::GET,
                "server_settings",
                transport::Params::new(),
                false,
            )
            .await?;
        let settings = Arc::new(settings);
        *self
            .inner
            .settings
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(&settings));
        Ok(settings)
    }

    /// The cached server settings, if they were fetched already.
    pub fn cached_server_settings(&self) -> Option<Arc<ServerSettings>> {
        self.inner
            .settings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The server's `zulip_feature_level` (fetched once).
    pub async fn feature_level(&self) -> Result<u32, ClientError> {
        Ok(self.server_settings().await?.zulip_feature_level)
    }

    /// Whether `principals` may be user ids (feature level 9 and above).
    pub async fn supports_integer_principals(&self) -> Result<bool, ClientError> {
        Ok(self.feature_level().await? >= FEATURE_LEVEL_INTEGER_PRINCIPALS)
    }
}

/// The TLS options a zuliprc asks for.
pub fn tls_options(rc: &Zuliprc) -> TlsOptions {
    TlsOptions {
        insecure: rc.insecure,
        cert_bundle: rc.cert_bundle.clone(),
        client_cert: rc.client_cert.clone(),
        client_cert_key: rc.client_cert_key.clone(),
    }
}

fn build_http(tls: &TlsOptions, config: &ClientConfig) -> Result<reqwest::Client, ClientError> {
    let mut builder = reqwest::Client::builder()
        .user_agent(USER_AGENT)
        .timeout(config.timeout)
        .connect_timeout(config.connect_timeout.min(config.timeout))
        .redirect(reqwest::redirect::Policy::none());
    if tls.insecure {
        tracing::warn!("TLS certificate verification is off for this account (insecure = true)");
        builder = builder.danger_accept_invalid_certs(true);
    }
    if let Some(path) = &tls.cert_bundle {
        let pem = read_pem(path)?;
        let certificates = Certificate::from_pem_bundle(&pem)
            .map_err(|error| ClientError::Tls(format!("{}: {error}", path.display())))?;
        if certificates.is_empty() {
            return Err(ClientError::Tls(format!(
                "{}: no certificate found",
                path.display()
            )));
        }
        // Like Zulip's Python client: the bundle replaces the built-in authorities.
        builder = builder.tls_built_in_root_certs(false);
        for certificate in certificates {
            builder = builder.add_root_certificate(certificate);
        }
    }
    if let Some(cert_path) = &tls.client_cert {
        let mut pem = read_pem(cert_path)?;
        if let Some(key_path) = &tls.client_cert_key {
            pem.push(b'\n');
            pem.extend(read_pem(key_path)?);
        }
        let identity = Identity::from_pem(&pem)
            .map_err(|error| ClientError::Tls(format!("{}: {error}", cert_path.display())))?;
        builder = builder.identity(identity);
    }
    builder
        .build()
        .map_err(|error| ClientError::Tls(error.to_string()))
}

fn read_pem(path: &std::path::Path) -> Result<Vec<u8>, ClientError> {
    std::fs::read(path).map_err(|error| ClientError::Tls(format!("{}: {error}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_agent_names_weir_and_its_version() {
        assert!(USER_AGENT.starts_with("Weir/"));
        assert_eq!(
            USER_AGENT.len(),
            "Weir/".len() + env!("CARGO_PKG_VERSION").len()
        );
    }

    #[test]
    fn debug_does_not_show_the_key() -> Result<(), ClientError> {
        let key = "abcdefghijklmnopqrstuvwxyz012345";
        let client = ZulipClient::new(
            Credentials {
                site: "localhost:9".into(),
                email: "a@b.c".into(),
                key: key.into(),
            },
            &TlsOptions::default(),
            &ClientConfig::default(),
        )?;
        let text = format!("{client:?}");
        assert!(
            !text.contains(key) && text.contains("http://localhost:9"),
            "{text}"
        );
        Ok(())
    }

    #[test]
    fn a_missing_cert_bundle_is_a_tls_error() {
        let tls = TlsOptions {
            cert_bundle: Some("/nonexistent/ca.pem".into()),
            ..Default::default()
        };
        let result = ZulipClient::new(
            Credentials {
                site: "example.com".into(),
                email: "a@b.c".into(),
                key: "k".into(),
            },
            &tls,
            &ClientConfig::default(),
        );
        assert!(matches!(result, Err(ClientError::Tls(_))));
    }

    #[test]
    fn a_malformed_site_is_refused_as_invalid_site() {
        let result = ZulipClient::new(
            Credentials {
                site: "https//chat.example.com".into(),
                email: "a@b.c".into(),
                key: "k".into(),
            },
            &TlsOptions::default(),
            &ClientConfig::default(),
        );
        assert!(
            matches!(result, Err(ClientError::InvalidSite(_))),
            "{result:?}"
        );
    }
}
