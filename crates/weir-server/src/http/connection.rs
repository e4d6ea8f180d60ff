//! The HTTP/1 server loop, with limits on slow and numerous clients.
//!
//! `axum::serve` has none: a client sending half a request line, or a body a byte at a
//! time, held its connection and buffers forever, and any number of them could. Here a
//! request's head must arrive within [`Limits::header_timeout`] (which also closes idle
//! kept-alive connections), its body within [`Limits::body_timeout`], at most
//! [`Limits::max_connections`] are served at once, and shutdown waits for requests in
//! flight at most [`Limits::drain_timeout`].

use std::error::Error as StdError;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use http_body::{Body as HttpBody, Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use crate::error::ApiError;
use crate::http::head_timer::HeadTimer;
use crate::http::host::{self, AllowedHosts};
use crate::http::protocol_errors::JsonErrors;

type BoxError = Box<dyn StdError + Send + Sync>;

/// How long clients may take, and how many may be connected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Time to send a request's head; also how long an idle connection is kept open.
    pub header_timeout: Duration,
    /// Time to send a request's body, counted from its head.
    pub body_timeout: Duration,
    /// Connections served at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// Once shutdown starts, how long requests in flight may still take.
    pub drain_timeout: Duration,
}

impl Default for Limits {
    /// Generous for any real client on loopback or a LAN (a 5 MiB body in 30 s is
    /// 170 KiB/s), tight enough that a slow client cannot hold resources for long.
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            max_connections: 512,
            drain_timeout: Duration::from_secs(10),
        }
    }
}

/// Serves `app` on `listener` to requests naming one of the `hosts` (see `host.rs`)
/// until `shutdown` completes, then lets requests in flight finish for at most
/// `limits.drain_timeout`.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    hosts: AllowedHosts,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let hosts = Arc::new(hosts);
    // Each connection holds a receiver: once all are dropped, every connection is done.
    let (stop, stopping) = watch::channel(false);
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failed(&error).await;
                    continue;
                }
            },
        };
        match Arc::clone(&slots).try_acquire_owned() {
            Ok(slot) => {
                let connection = Connection {
                    app: app.clone(),
                    hosts: Arc::clone(&hosts),
                    peer,
                    limits: limits.clone(),
                };
                tokio::spawn(connection.run(stream, stopping.clone(), slot));
            }
            Err(_) => {
                tokio::spawn(refuse(stream));
            }
        }
    }
    drop(listener);
    drop(stopping);
    let _ = stop.send(true);
    if tokio::time::timeout(limits.drain_timeout, stop.closed())
        .await
        .is_err()
    {
        tracing::warn!(
            drain_timeout = ?limits.drain_timeout,
            "stopping with requests still in flight"
        );
    }
    Ok(())
}

/// Accept errors are the listener's problem, not a reason to stop: a client that gave
/// up is skipped, and running out of file descriptors waits for some to close.
async fn accept_failed(error: &std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::error!(%error, "accepting a connection failed");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// Over the connection cap: a Zulip-shaped 503, then close.
async fn refuse(mut stream: TcpStream) {
    let body = ApiError::bad_request("Too many connections; try again shortly")
        .status(StatusCode::SERVICE_UNAVAILABLE)
        .json_text();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(response.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

struct Connection {
    app: Router,
    hosts: Arc<AllowedHosts>,
    peer: SocketAddr,
    limits: Limits,
}

impl Connection {
    async fn run(
        self,
        stream: TcpStream,
        mut stopping: watch::Receiver<bool>,
        _slot: OwnedSemaphorePermit,
    ) {
        let Self {
            app,
            hosts,
            peer,
            limits,
        } = self;
        let body_timeout = limits.body_timeout;
        let service = hyper::service::service_fn(move |request: Request<Incoming>| {
            let refused = host::refusal(&hosts, request.headers());
            let mut request = request.map(|body| Body::new(DeadlineBody::new(body, body_timeout)));
            request.extensions_mut().insert(ConnectInfo(peer));
            let app = app.clone();
            async move {
                match refused {
                    Some(refused) => Ok(refused),
                    None => app.oneshot(request).await,
                }
            }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .max_buf_size(READ_BUFFER_BYTES)
            .timer(HeadTimer::new())
            .header_read_timeout(limits.header_timeout);
        let io = TokioIo::new(JsonErrors::new(stream));
        let mut connection = pin!(builder.serve_connection(io, service));
        tokio::select! {
            outcome = connection.as_mut() => {
                if let Err(error) = outcome {
                    tracing::debug!(%error, %peer, "connection ended");
                }
            }
            () = stop_requested(&mut stopping) => {
                connection.as_mut().graceful_shutdown();
                let _ = connection.as_mut().await;
            }
        }
    }
}

/// The most a connection buffers from its socket at once (hyper's default is ~400 KiB).
/// Bodies arrive in pieces of at most this size, so forty clients uploading at once hold
/// 5 MiB between them rather than 16 or more. It also bounds a request's head, above
/// the 64 KiB URI that hyper answers 414.
const READ_BUFFER_BYTES: usize = 128 * 1024;

/// Completes when shutdown starts (or the server is gone).
async fn stop_requested(stopping: &mut watch::Receiver<bool>) {
    let _ = stopping.wait_for(|stop| *stop).await.map(|_| ());
}

/// The error a body reports once its time is up.
#[derive(Debug, thiserror::Error)]
#[error("the request body was not received in time")]
pub struct BodyTimedOut;

/// What reading a request body failed with, as the API reports it: 408 when the client
/// was too slow, else 400.
pub fn body_error(error: axum::Error) -> ApiError {
    if error.into_inner().downcast_ref::<BodyTimedOut>().is_some() {
        return ApiError::bad_request("Request body not received in time")
            .status(StatusCode::REQUEST_TIMEOUT);
    }
    ApiError::bad_request("The request body could not be read")
}

/// A request body that fails with [`BodyTimedOut`] once its deadline has passed. The
/// timer is only set up when the body does not arrive at once.
struct DeadlineBody {
    inner: Incoming,
    deadline: Instant,
    timer: Option<Pin<Box<Sleep>>>,
}

impl DeadlineBody {
    fn new(inner: Incoming, timeout: Duration) -> Self {
        Self {
            inner,
            deadline: Instant::now() + timeout,
            timer: None,
        }
    }
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|frame| frame.map_err(BoxError::from)));
        }
        let deadline = self.deadline;
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimedOut)))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
