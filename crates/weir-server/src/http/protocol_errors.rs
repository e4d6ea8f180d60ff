//! hyper answers a request it cannot parse (a malformed request line or header, a URI
//! or headers too long) itself, with a status and an empty body. Every other answer of
//! this server is Zulip-shaped JSON, so [`JsonErrors`] sits between hyper and the
//! socket and rewrites those answers, and only those: a `4xx` head with
//! `connection: close` and `content-length: 0`, which the API never sends (its errors
//! always have a body).

use std::io::IoSlice;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use zulip_api::ZulipErrorCode;

use crate::error::ApiError;

/// A connection whose bodiless protocol errors are rewritten as JSON.
pub struct JsonErrors<T> {
    inner: T,
    /// A rewritten answer being written, how much of it is out, and the length of
    /// hyper's original, reported once the rewrite is written.
    rewriting: Option<(Vec<u8>, usize, usize)>,
}

impl<T> JsonErrors<T> {
    pub fn new(inner: T) -> Self {
        Self {
            inner,
            rewriting: None,
        }
    }
}

/// The JSON answer for hyper's bodiless error head `head`, if it is one.
fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let status: u16 = text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()?;
    let bodiless_error = (400..500).contains(&status)
        && text.ends_with("\r\n\r\n")
        && text.contains("\r\nconnection: close\r\n")
        && text.contains("\r\ncontent-length: 0\r\n");
    if !bodiless_error {
        return None;
    }
    let msg = match status {
        414 => "Request URI too long",
        431 => "Request headers too large",
        _ => "Malformed HTTP request",
    };
    let status_code = StatusCode::from_u16(status).ok()?;
    let body = ApiError::new(status_code, ZulipErrorCode::BadRequest, msg).json_text();
    let head = text.replace(
        "\r\ncontent-length: 0\r\n",
        &format!(
            "\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
            body.len()
        ),
    );
    Some([head.as_bytes(), body.as_bytes()].concat())
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    /// Writes the rewritten answer; done reports the original's length as written.
    fn poll_rewriting(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<usize>> {
        while let Some((bytes, written, _)) = &mut self.rewriting {
            if *written == bytes.len() {
                break;
            }
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
                Poll::Pending => return Poll::Pending,
            }
        }
        let reported = self.rewriting.take().map_or(0, |(_, _, reported)| reported);
        Poll::Ready(Ok(reported))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        if self.rewriting.is_none() {
            match rewrite(buf) {
                Some(bytes) => self.rewriting = Some((bytes, 0, buf.len())),
                None => return Pin::new(&mut self.inner).poll_write(cx, buf),
            }
        }
        self.poll_rewriting(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        if self.rewriting.is_none() {
            let mut parts = bufs.iter().filter(|buf| !buf.is_empty());
            let only = match (parts.next(), parts.next()) {
                (Some(first), None) => rewrite(first).map(|bytes| (bytes, first.len())),
                _ => None,
            };
            match only {
                Some((bytes, reported)) => self.rewriting = Some((bytes, 0, reported)),
                None => return Pin::new(&mut self.inner).poll_write_vectored(cx, bufs),
            }
        }
        self.poll_rewriting(cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_bodiless_errors_are_rewritten() {
        let head = "HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\n\
                    content-length: 0\r\ndate: Tue, 24 Nov 2026 05:37:16 GMT\r\n\r\n";
        let rewritten = String::from_utf8(rewrite(head.as_bytes()).unwrap()).unwrap();
        let (new_head, body) = rewritten.split_once("\r\n\r\n").unwrap();
        assert!(new_head.starts_with("HTTP/1.1 431 "), "{new_head}");
        assert!(
            new_head.contains("content-type: application/json"),
            "{new_head}"
        );
        assert!(new_head.contains(&format!("content-length: {}", body.len())));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["result"], "error");
        assert_eq!(json["msg"], "Request headers too large");

        for other in [
            "HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 10\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n{}",
        ] {
            assert!(rewrite(other.as_bytes()).is_none(), "{other}");
        }
    }
}
