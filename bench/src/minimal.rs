//! The servers that weir-server is compared against, each run as its own process and
//! announcing itself with weir-server's `listening on http://HOST:PORT` line:
//!
//! - `baseline-server`: a minimal axum app with weir's webhook route that reads the body
//!   and answers Zulip's success JSON, storing nothing;
//! - `durable-server` (`durable.rs`): the same, committing each body to SQLite first;
//! - `null-server`: a raw TCP responder with a canned answer, no HTTP library at all, to
//!   show what the load client itself can drive on this machine.

use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;

use axum::Router;
use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::post;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::Result;

/// The answer of a successful webhook, as weir-server sends it.
pub const SUCCESS_JSON: &str = r#"{"result":"success","msg":""}"#;

#[derive(Debug, clap::Args)]
pub struct ServerArgs {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub listen: SocketAddr,
}

pub fn run_baseline(args: ServerArgs) -> Result<ExitCode> {
    crate::runtime()?.block_on(async {
        let app = Router::new().route("/api/v1/external/{integration}", post(receive));
        let listener = bind(args.listen).await?;
        axum::serve(listener, app).await?;
        Ok(ExitCode::SUCCESS)
    })
}

async fn receive(body: Bytes) -> impl IntoResponse {
    drop(body);
    ([(CONTENT_TYPE, "application/json")], SUCCESS_JSON)
}

pub fn run_null(args: ServerArgs) -> Result<ExitCode> {
    crate::runtime()?.block_on(async {
        let listener = bind(args.listen).await?;
        loop {
            let (stream, _) = listener.accept().await?;
            tokio::spawn(async move {
                let _ = answer_raw(stream).await;
            });
        }
    })
}

/// Binds and prints the `listening on` line that the bench waits for.
pub async fn bind(address: SocketAddr) -> Result<TcpListener> {
    let listener = TcpListener::bind(address).await?;
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "listening on http://{}", listener.local_addr()?)?;
    stdout.flush()?;
    Ok(listener)
}

/// Answers every complete request on the connection with the canned success response.
async fn answer_raw(mut stream: TcpStream) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let response = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{}",
        SUCCESS_JSON.len(),
        SUCCESS_JSON
    );
    let mut buffer = bytes::BytesMut::with_capacity(16 * 1024);
    loop {
        while let Some(length) = complete_request(&buffer) {
            let _ = buffer.split_to(length);
            stream.write_all(response.as_bytes()).await?;
        }
        if stream.read_buf(&mut buffer).await? == 0 {
            return Ok(());
        }
    }
}

/// Length of the first complete request in `buffer` (head and `Content-Length` body).
fn complete_request(buffer: &[u8]) -> Option<usize> {
    let head_end = buffer.windows(4).position(|window| window == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(buffer.get(..head_end)?).ok()?;
    let body_length = head
        .split("\r\n")
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let total = head_end + body_length;
    (buffer.len() >= total).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::complete_request;

    #[test]
    fn requests_are_complete_once_their_body_is_in() {
        let request = b"POST /x HTTP/1.1\r\nhost: a\r\nContent-Length: 3\r\n\r\nabc";
        assert_eq!(complete_request(request), Some(request.len()));
        assert_eq!(complete_request(&request[..request.len() - 1]), None);
        assert_eq!(complete_request(b"GET / HTTP/1.1\r\n\r\nG"), Some(18));
        assert_eq!(complete_request(b"GET / HTTP/1.1\r\n"), None);
    }
}
