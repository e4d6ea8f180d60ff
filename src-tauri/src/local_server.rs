//! The embedded weir-server: started in-process on `127.0.0.1:<random port>` with the
//! demo organization in the app's data dir, reached over loopback HTTP through the same
//! client as a real server.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::net::TcpListener;
use tokio::sync::{Mutex, oneshot};
use weir_core::{ClientConfig, Credentials, Secret, TlsOptions, ZulipClient};
use weir_server::{AppState, Config, RequestLog, Store};

use crate::dto::{LocalServerStatus, RequestLogEntry};
use crate::error::{AppError, AppResult};

struct Running {
    url: String,
    started_at: i64,
    shutdown: oneshot::Sender<()>,
    task: tauri::async_runtime::JoinHandle<()>,
    client: ZulipClient,
}

pub struct LocalServer {
    data_dir: PathBuf,
    log: RequestLog,
    running: Mutex<Option<Running>>,
}

impl LocalServer {
    pub fn new(data_dir: PathBuf) -> Self {
        Self {
            data_dir,
            log: RequestLog::new(),
            running: Mutex::new(None),
        }
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Starts the server (creating the demo organization on first use) unless it runs.
    pub async fn ensure_started(&self) -> AppResult<String> {
        let mut running = self.running.lock().await;
        if let Some(server) = running.as_ref() {
            return Ok(server.url.clone());
        }
        let server = self.start().await?;
        let url = server.url.clone();
        *running = Some(server);
        Ok(url)
    }

    async fn start(&self) -> AppResult<Running> {
        weir_server::cli::prepare_data_dir(&self.data_dir, None, true)?;
        let store = Store::open(&self.data_dir)?;
        let owner_email = weir_server::DEMO_OWNER_EMAIL;
        let owner = store
            .read(move |conn| weir_server::store::user_by_email(conn, owner_email))
            .await?
            .ok_or_else(|| AppError::Internal("the demo organization has no owner".into()))?;
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|error| AppError::Server(error.into()))?;
        let address = listener
            .local_addr()
            .map_err(|error| AppError::Server(error.into()))?;
        let url = format!("http://{address}");
        let state = AppState::with_request_log(store, Config::default(), self.log.clone());
        let (shutdown, stop) = oneshot::channel::<()>();
        let task = tauri::async_runtime::spawn(async move {
            let stopped = async {
                let _ = stop.await;
            };
            if let Err(error) = weir_server::serve(listener, state, stopped).await {
                tracing::error!(%error, "embedded server stopped with an error");
            }
        });
        let credentials = Credentials {
            site: url.clone(),
            email: owner.email,
            key: Secret::new(owner.api_key),
        };
        let client = ZulipClient::new(
            credentials,
            &TlsOptions::default(),
            &ClientConfig::default(),
        )
        .map_err(weir_core::CoreError::from)?;
        tracing::info!(%url, "embedded server started");
        Ok(Running {
            url,
            started_at: now_ms(),
            shutdown,
            task,
            client,
        })
    }

    /// The demo owner's client, starting the server if needed.
    pub async fn demo_client(&self) -> AppResult<ZulipClient> {
        self.ensure_started().await?;
        let running = self.running.lock().await;
        running
            .as_ref()
            .map(|server| server.client.clone())
            .ok_or(AppError::ServerUnavailable)
    }

    pub async fn url(&self) -> Option<String> {
        self.running
            .lock()
            .await
            .as_ref()
            .map(|server| server.url.clone())
    }

    pub async fn stop(&self) {
        let server = self.running.lock().await.take();
        if let Some(server) = server {
            let _ = server.shutdown.send(());
            let _ = server.task.await;
        }
    }

    /// Throws the demo data away and starts again on a fresh demo organization.
    pub async fn reset(&self) -> AppResult<()> {
        self.stop().await;
        for suffix in ["", "-wal", "-shm"] {
            let path = self
                .data_dir
                .join(format!("{}{suffix}", weir_server::store::DATABASE_FILE));
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => return Err(AppError::Server(error.into())),
            }
        }
        self.log.clear();
        self.ensure_started().await?;
        Ok(())
    }

    pub async fn status(&self) -> LocalServerStatus {
        let running = self.running.lock().await;
        LocalServerStatus {
            running: running.is_some(),
            url: running.as_ref().map(|server| server.url.clone()),
            data_dir: self.data_dir.display().to_string(),
            started_at: running.as_ref().map(|server| server.started_at),
            requests: self
                .log
                .newest_first()
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

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as i64)
}
