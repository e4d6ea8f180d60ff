//! Running a local server inside another program, as the desktop app does: start it on
//! a loopback port over a data dir, read its URL and the owner's credentials, reset it
//! to a fresh organization, and stop it without ever hanging the caller.
//!
//! Callers never see database files: [`Server::reset`] waits until every connection to
//! the old database is closed before deleting it.

use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use zulip_api::Role;

use crate::embed::data_dir;
pub use crate::embed::data_dir::Organization;
use crate::error::{Error, Result};
use crate::store::{Closing, Store, realm_users};
use crate::{AppState, Config, RequestLog};

/// How long [`Server::stop`] lets requests in flight finish by default.
pub const DEFAULT_DRAIN: Duration = Duration::from_secs(3);

/// How much longer than its drain a stopping server may take before its task is dropped.
const DRAIN_MARGIN: Duration = Duration::from_millis(500);

/// How long [`Server::reset`] waits for the old database's last connection.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(10);

/// How to run a local server.
#[derive(Debug, Clone)]
pub struct Options {
    /// Holds the database (created private; see [`data_dir`]).
    pub data_dir: PathBuf,
    /// Loaded when the data dir has no database yet; an existing one is kept.
    pub organization: Organization,
    /// Where to listen: `127.0.0.1:0` (a free loopback port) unless changed.
    pub address: SocketAddr,
    pub config: Config,
    /// Records every request (method and path), for a live view of the server.
    pub request_log: Option<RequestLog>,
    /// How long [`Server::stop`] waits for requests in flight before dropping them.
    pub drain: Duration,
}

impl Options {
    pub fn new(data_dir: impl Into<PathBuf>, organization: Organization) -> Self {
        Self {
            data_dir: data_dir.into(),
            organization,
            address: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            config: Config::default(),
            request_log: None,
            drain: DEFAULT_DRAIN,
        }
    }
}

/// The organization owner's sign-in: the first active human owner.
#[derive(Clone, PartialEq, Eq)]
pub struct Owner {
    pub email: String,
    pub api_key: String,
}

impl fmt::Debug for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Owner")
            .field("email", &self.email)
            .field("api_key", &"<redacted>")
            .finish()
    }
}

/// How [`Server::stop`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The server stopped by itself: requests in flight had the drain time to finish,
    /// and the server cut those that took longer.
    Cleanly,
    /// The server did not stop in time: its task was dropped.
    Abandoned,
}

/// A running local server. Dropping it stops it too, without waiting.
#[derive(Debug)]
pub struct Server {
    options: Options,
    url: String,
    address: SocketAddr,
    owner: Owner,
    closing: Closing,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Server {
    /// Prepares the data dir (creating the organization if it has no database), then
    /// listens. Must be called inside a tokio runtime: the server runs as a task on it.
    pub async fn start(options: Options) -> Result<Self> {
        let began = std::time::Instant::now();
        let (dir, organization) = (options.data_dir.clone(), options.organization.clone());
        // Loading an organization is SQLite work: off the async threads.
        tokio::task::spawn_blocking(move || data_dir::prepare(&dir, &organization))
            .await
            .map_err(|error| Error::Internal(format!("preparing the data dir: {error}")))??;
        let prepared = began.elapsed();
        let store = Store::open(&options.data_dir)?;
        let owner = owner(&store).await?;
        let listener = TcpListener::bind(options.address).await.map_err(|error| {
            std::io::Error::new(
                error.kind(),
                format!("cannot listen on {}: {error}", options.address),
            )
        })?;
        let address = listener.local_addr()?;
        let closing = store.closing();
        let mut config = options.config.clone();
        config.connection_limits.drain_timeout = options.drain;
        let state = match &options.request_log {
            Some(log) => AppState::with_request_log(store, config, log.clone()),
            None => AppState::new(store, config),
        };
        let (shutdown, stop) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            // A dropped sender stops the server too.
            let stopped = async {
                let _ = stop.await;
            };
            if let Err(error) = crate::serve(listener, state, stopped).await {
                tracing::error!(%error, "the local server stopped with an error");
            }
        });
        tracing::info!(
            url = %format!("http://{address}"),
            prepare_ms = prepared.as_millis() as u64,
            total_ms = began.elapsed().as_millis() as u64,
            "local server started"
        );
        Ok(Self {
            url: format!("http://{address}"),
            address,
            owner,
            closing,
            shutdown,
            task,
            options,
        })
    }

    /// `http://127.0.0.1:PORT`: the site for a Zulip client.
    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    pub fn owner(&self) -> &Owner {
        &self.owner
    }

    pub fn data_dir(&self) -> &Path {
        &self.options.data_dir
    }

    /// Stops accepting requests and lets those in flight finish, for at most the
    /// options' `drain`: a slow client never holds up the caller's exit.
    pub async fn stop(self) -> Stopped {
        stop(self.shutdown, self.task, self.options.drain).await
    }

    /// Stops the server, throws its database away and starts again on a fresh copy of
    /// the organization (on a new port when the options ask for port 0).
    pub async fn reset(self) -> Result<Self> {
        let Self {
            options,
            closing,
            shutdown,
            task,
            ..
        } = self;
        stop(shutdown, task, options.drain).await;
        tokio::time::timeout(CLOSE_TIMEOUT, closing.wait())
            .await
            .map_err(|_| {
                Error::Internal(
                    "the local server's database is still in use; try the reset again".into(),
                )
            })?;
        let dir = options.data_dir.clone();
        tokio::task::spawn_blocking(move || data_dir::erase(&dir))
            .await
            .map_err(|error| Error::Internal(format!("erasing the data dir: {error}")))??;
        Self::start(options).await
    }
}

async fn stop(shutdown: oneshot::Sender<()>, mut task: JoinHandle<()>, drain: Duration) -> Stopped {
    let _ = shutdown.send(());
    // The server's own drain ends at `drain`; this is the backstop.
    match tokio::time::timeout(drain + DRAIN_MARGIN, &mut task).await {
        Ok(_) => {
            tracing::info!("local server stopped");
            Stopped::Cleanly
        }
        Err(_) => {
            task.abort();
            tracing::warn!(?drain, "the local server did not stop in time; dropped");
            Stopped::Abandoned
        }
    }
}

/// The first active human owner, whom the embedding program signs in as.
async fn owner(store: &Store) -> Result<Owner> {
    let users = store.read(realm_users).await?;
    users
        .into_iter()
        .find(|user| user.role == Role::Owner && user.bot_type.is_none() && user.is_active)
        .map(|user| Owner {
            email: user.email,
            api_key: user.api_key,
        })
        .ok_or_else(|| Error::Seed("the organization has no active owner to sign in as".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DEMO_OWNER_EMAIL;

    async fn get(url: &str, owner: &Owner) -> (u16, String) {
        // A plain HTTP/1.1 request over loopback: the crate has no HTTP client.
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let address = url.trim_start_matches("http://");
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let auth = base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            format!("{}:{}", owner.email, owner.api_key),
        );
        let request = format!(
            "GET /api/v1/users/me HTTP/1.1\r\nHost: {address}\r\nAuthorization: Basic {auth}\r\n\
             Connection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).await.unwrap();
        let status = response[9..12].parse().unwrap();
        (status, response)
    }

    #[tokio::test]
    async fn starts_the_demo_signs_its_owner_in_resets_and_stops() {
        let dir = tempfile::tempdir().unwrap();
        let options = Options::new(dir.path().join("server"), Organization::Demo);
        let server = Server::start(options).await.unwrap();
        assert!(server.address().ip().is_loopback() && server.address().port() != 0);
        assert_eq!(server.owner().email, DEMO_OWNER_EMAIL);
        assert!(!format!("{:?}", server.owner()).contains(&server.owner().api_key));
        let (status, body) = get(server.url(), server.owner()).await;
        assert_eq!(status, 200, "{body}");

        // A reset makes a new organization: new keys, the old one refused.
        let before = server.owner().clone();
        let server = server.reset().await.unwrap();
        assert_eq!(server.owner().email, DEMO_OWNER_EMAIL);
        assert_ne!(server.owner().api_key, before.api_key);
        assert_eq!(get(server.url(), server.owner()).await.0, 200);
        assert_eq!(get(server.url(), &before).await.0, 401);

        let url = server.url().to_owned();
        assert_eq!(server.stop().await, Stopped::Cleanly);
        let refused = tokio::net::TcpStream::connect(url.trim_start_matches("http://")).await;
        assert!(refused.is_err(), "still listening after stop");
    }

    #[tokio::test]
    async fn a_seed_without_an_owner_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let seed = crate::Seed::from_json(
            r#"{"realm": {"name": "R", "url": "http://r.localhost"},
                "users": [{"email": "m@r.test", "full_name": "Morgan", "role": "member"}],
                "streams": []}"#,
        )
        .unwrap();
        let options = Options::new(dir.path(), Organization::Seed(seed));
        let error = Server::start(options).await.unwrap_err();
        assert!(error.to_string().contains("no active owner"), "{error}");
    }
}
