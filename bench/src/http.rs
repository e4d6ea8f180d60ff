//! A lean HTTP/1.1 client: one keep-alive connection, no pool, no redirects, no TLS.

use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{SendRequest, handshake};
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HOST, HeaderValue};
use hyper::{Method, Request, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use crate::Result;

/// One keep-alive connection to a server.
pub struct Connection {
    sender: SendRequest<Full<Bytes>>,
    host: HeaderValue,
}

impl Connection {
    pub async fn open(address: SocketAddr) -> Result<Self> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) = handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(Self {
            sender,
            host: HeaderValue::from_str(&address.to_string())?,
        })
    }

    /// `POST` of a JSON body; answers the status and the whole response body.
    pub async fn post_json(&mut self, uri: Uri, body: Bytes) -> Result<(StatusCode, Bytes)> {
        let request = Request::builder()
            .method(Method::POST)
            .uri(uri)
            .header(HOST, self.host.clone())
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .body(Full::new(body))?;
        self.send(request).await
    }

    /// `DELETE` without a body or credentials.
    pub async fn delete(&mut self, uri: Uri) -> Result<(StatusCode, Bytes)> {
        let request = Request::builder()
            .method(Method::DELETE)
            .uri(uri)
            .header(HOST, self.host.clone())
            .body(Full::new(Bytes::new()))?;
        self.send(request).await
    }

    /// `GET` with HTTP basic auth.
    pub async fn get(&mut self, uri: Uri, authorization: &str) -> Result<(StatusCode, Bytes)> {
        let request = Request::builder()
            .method(Method::GET)
            .uri(uri)
            .header(HOST, self.host.clone())
            .header(AUTHORIZATION, HeaderValue::from_str(authorization)?)
            .body(Full::new(Bytes::new()))?;
        self.send(request).await
    }

    /// A form-encoded request (`DELETE`/`POST`/...) with HTTP basic auth.
    pub async fn send_form(
        &mut self,
        method: Method,
        uri: Uri,
        authorization: &str,
        body: String,
    ) -> Result<(StatusCode, Bytes)> {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header(HOST, self.host.clone())
            .header(AUTHORIZATION, HeaderValue::from_str(authorization)?)
            .header(
                CONTENT_TYPE,
                HeaderValue::from_static("application/x-www-form-urlencoded"),
            )
            .body(Full::new(Bytes::from(body)))?;
        self.send(request).await
    }

    async fn send(&mut self, request: Request<Full<Bytes>>) -> Result<(StatusCode, Bytes)> {
        self.sender.ready().await?;
        let response = self.sender.send_request(request).await?;
        let status = response.status();
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, body))
    }
}
