//! The local server's lifecycle in the app: started on demand with the demo organization
//! in the app's data dir (through `weir_server::embed::local`), reached over loopback
//! HTTP through the same client as a real server, reset on request, stopped at exit.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use tokio::sync::Mutex;
use ts_rs::TS;
use weir_core::{ClientConfig, Credentials, Secret, TlsOptions, ZulipClient};
use weir_server::RequestLog;
use weir_server::embed::local::{Options, Organization, Server};

use crate::error::{AppError, AppResult};

/// One request the local server answered, for the Local server page's log.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RequestLogEntry {
    #[ts(type = "number")]
    pub id: u64,
    pub method: String,
    pub path: String,
    pub status: u16,
    pub duration_ms: f64,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub at: i64,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LocalServerStatus {
    pub running: bool,
    pub url: Option<String>,
    pub data_dir: String,
    /// Unix milliseconds.
    #[ts(type = "number | null")]
    pub started_at: Option<i64>,
    pub requests: Vec<RequestLogEntry>,
}

/// Starts the server into `running` unless it runs; its URL.
async fn start_if_stopped(running: &mut Option<Running>, options: Options) -> AppResult<String> {
    if let Some(running) = running.as_ref() {
        return Ok(running.server.url().to_owned());
    }
    let began = Instant::now();
    let started = Running::new(Server::start(options).await?)?;
    let url = started.server.url().to_owned();
    tracing::info!(
        ms = began.elapsed().as_millis() as u64,
        "local server ready for the app"
    );
    *running = Some(started);
    Ok(url)
}

struct Running {
    server: Server,
    started_at: i64,
    client: ZulipClient,
}

impl Running {
    fn new(server: Server) -> AppResult<Self> {
        let owner = server.owner();
        let credentials = Credentials {
            site: server.url().to_owned(),
            email: owner.email.clone(),
            key: Secret::new(owner.api_key.clone()),
        };
        let client = ZulipClient::new(
            credentials,
            &TlsOptions::default(),
            &ClientConfig::default(),
        )
        .map_err(weir_core::CoreError::from)?;
        Ok(Self {
            server,
            started_at: weir_core::clock::unix_millis(),
            client,
        })
    }
}

pub struct LocalServer {
    data_dir: PathBuf,
    log: RequestLog,
    /// Held by a start under way: whatever needs the server, or its status, waits for it.
    running: Arc<Mutex<Option<Running>>>,
}

impl LocalServer {
    pub fn new(data_dir: PathBuf) -> Self {
        Self {
            data_dir,
            log: RequestLog::new(),
            running: Arc::new(Mutex::new(None)),
        }
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    fn options(&self) -> Options {
        let mut options = Options::new(&self.data_dir, Organization::Demo);
        options.request_log = Some(self.log.clone());
        options
    }

    /// Starts the server (creating the demo organization on first use) unless it runs.
    pub async fn ensure_started(&self) -> AppResult<String> {
        let mut running = self.running.lock().await;
        start_if_stopped(&mut running, self.options()).await
    }

    /// Starts the server on the async runtime and returns at once, so that the window
    /// loads its page meanwhile. The start holds the server's lock from this call on:
    /// every later call (the status included) waits for it and sees it running. A start
    /// that fails is logged; the next call that needs the server tries again and reports
    /// the error.
    pub fn start_in_background(&self) {
        let Ok(mut running) = Arc::clone(&self.running).try_lock_owned() else {
            // Someone holds the lock: a start or a reset is under way already.
            return;
        };
        let options = self.options();
        tauri::async_runtime::spawn(async move {
            if let Err(error) = start_if_stopped(&mut running, options).await {
                tracing::error!(%error, "the local server did not start");
            }
        });
    }

    /// The demo owner's client, starting the server if needed.
    pub async fn demo_client(&self) -> AppResult<ZulipClient> {
        self.ensure_started().await?;
        let running = self.running.lock().await;
        running
            .as_ref()
            .map(|running| running.client.clone())
            .ok_or(AppError::ServerUnavailable)
    }

    pub async fn url(&self) -> Option<String> {
        let running = self.running.lock().await;
        running
            .as_ref()
            .map(|running| running.server.url().to_owned())
    }

    /// Stops the server; requests in flight get a bounded time to finish, so that
    /// quitting the app never hangs on a slow client.
    pub async fn stop(&self) {
        let running = self.running.lock().await.take();
        if let Some(running) = running {
            running.server.stop().await;
        }
    }

    /// Throws the demo data away and starts again on a fresh demo organization.
    pub async fn reset(&self) -> AppResult<()> {
        let mut running = self.running.lock().await;
        let server = match running.take() {
            Some(old) => {
                let reset = old.server.reset().await;
                self.log.clear();
                reset?
            }
            None => {
                weir_server::embed::data_dir::erase(&self.data_dir)?;
                self.log.clear();
                Server::start(self.options()).await?
            }
        };
        *running = Some(Running::new(server)?);
        Ok(())
    }

    pub async fn status(&self) -> LocalServerStatus {
        self.status_since(None).await
    }

    /// The status with only the requests logged after `since` (all of them for `None`),
    /// so that a page following the log receives each entry once.
    pub async fn status_since(&self, since: Option<u64>) -> LocalServerStatus {
        let entries = match since {
            Some(id) => self.log.newer_than(id),
            None => self.log.newest_first(),
        };
        let running = self.running.lock().await;
        LocalServerStatus {
            running: running.is_some(),
            url: running
                .as_ref()
                .map(|running| running.server.url().to_owned()),
            data_dir: self.data_dir.display().to_string(),
            started_at: running.as_ref().map(|running| running.started_at),
            requests: entries
                .into_iter()
                .map(|entry| RequestLogEntry {
                    id: entry.id,
                    method: entry.method,
                    path: entry.path,
                    status: entry.status,
                    duration_ms: entry.duration_ms,
                    at: entry.at,
                })
                .collect(),
        }
    }
}
