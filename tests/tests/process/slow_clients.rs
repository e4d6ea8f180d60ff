//! Slow and numerous clients cannot hold the server's resources (issue 11, finding 4):
//! a request's head and body must arrive in time, connections are capped, and a
//! webhook's key is checked before its body is read.
//!
//! The server runs with two-second timeouts here; a test only fails when the server
//! keeps a connection for [`BOUND`], far beyond them.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use weir_tests::*;

/// Far beyond the two-second timeouts: only a connection held forever takes this long.
const BOUND: Duration = Duration::from_secs(30);

fn start(extra: &[&str]) -> TestServer {
    let mut args = vec!["--header-timeout", "2", "--body-timeout", "2"];
    args.extend_from_slice(extra);
    TestServer::spawn_standard_with(&args)
}

async fn connect(server: &TestServer) -> TcpStream {
    let address = server.base_url.trim_start_matches("http://");
    TcpStream::connect(address)
        .await
        .unwrap_or_else(|error| panic!("connect to {address}: {error}"))
}

/// Everything the server sends until it closes the connection, within [`BOUND`].
async fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let read = tokio::time::timeout(BOUND, stream.read_to_end(&mut received)).await;
    assert!(
        read.is_ok(),
        "the server kept the connection open for {BOUND:?}; it sent {:?}",
        String::from_utf8_lossy(&received)
    );
    String::from_utf8_lossy(&received).into_owned()
}

/// The status line's code and the JSON body of a raw HTTP response.
fn parse_response(raw: &str) -> (u16, Value) {
    let status = raw
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP response: {raw:?}"));
    let body = raw.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_partial_request_line_is_closed() {
    let _alone = alone();
    let server = start(&[]);
    let mut stream = connect(&server).await;

    stream.write_all(b"GET /api/v1/server_sett").await.unwrap();

    read_until_closed(&mut stream).await;
    server.anon().get("/server_settings", &[]).await.ok();
}

/// The head timer is shared by a connection's requests (`http/head_timer.rs`): after
/// answered requests, a later head trickled in a byte at a time is still cut off.
#[tokio::test]
async fn a_trickled_head_after_answered_requests_is_closed() {
    let _alone = alone();
    let server = start(&[]);
    let mut stream = connect(&server).await;
    let request = b"GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\n\r\n";
    let mut chunk = [0u8; 4096];
    for _ in 0..2 {
        stream.write_all(request).await.unwrap();
        let read = stream.read(&mut chunk).await.unwrap();
        assert!(String::from_utf8_lossy(&chunk[..read]).starts_with("HTTP/1.1 200"));
        // Between requests, so that the next head's deadline is later than the first's.
        tokio::time::sleep(Duration::from_millis(700)).await;
    }

    let (mut reader, mut writer) = stream.into_split();
    let trickle = tokio::spawn(async move {
        // A byte every 200 ms of a head that never ends.
        for byte in b"GET /api/v1/server_settings HTTP/1.1\r\nX-Slow: "
            .iter()
            .cycle()
        {
            if writer.write_all(&[*byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    let closed = tokio::time::timeout(BOUND, async {
        loop {
            match reader.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await;
    trickle.abort();
    assert!(closed.is_ok(), "a head trickling in was read for {BOUND:?}");
}

#[tokio::test]
async fn a_slowly_sent_body_is_cut_with_a_408() {
    let _alone = alone();
    let server = start(&[]);
    let mut stream = connect(&server).await;
    let head = format!(
        "POST /api/v1/external/helloworld?api_key={}&stream=Verona HTTP/1.1\r\n\
         Host: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n",
        WEBHOOK_BOT.key
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let trickle = tokio::spawn(async move {
        // A byte every 200 ms: 100,000 bytes would take hours.
        while writer.write_all(b" ").await.is_ok() {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });

    let mut received = Vec::new();
    let mut chunk = [0u8; 4096];
    let answered = tokio::time::timeout(BOUND, async {
        while !String::from_utf8_lossy(&received).contains("}") {
            match reader.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&chunk[..n]),
            }
        }
    })
    .await;
    trickle.abort();

    assert!(
        answered.is_ok(),
        "a body trickling in was read for {BOUND:?}"
    );
    let (status, body) = parse_response(&String::from_utf8_lossy(&received));
    assert_eq!(status, 408, "{body}");
    assert_eq!(body["result"], "error", "{body}");
    assert_eq!(body["msg"], "Request body not received in time", "{body}");
}

#[tokio::test]
async fn an_unknown_webhook_key_is_refused_before_the_body_is_sent() {
    let _alone = alone();
    let server = start(&[]);
    let mut stream = connect(&server).await;
    // Announces 5 MB and sends none of it: the answer must not wait for the body.
    let head = "POST /api/v1/external/helloworld?api_key=abcdefghijklmnopqrstuvwxyz012345 HTTP/1.1\r\n\
                Host: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();

    let mut received = Vec::new();
    let mut chunk = [0u8; 4096];
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        while !String::from_utf8_lossy(&received).contains('}') {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&chunk[..n]),
            }
        }
    })
    .await;

    assert!(read.is_ok(), "no answer before the body was sent");
    let (status, body) = parse_response(&String::from_utf8_lossy(&received));
    assert_eq!(
        (status, &body["code"], &body["msg"]),
        (401, &json!("INVALID_API_KEY"), &json!("Invalid API key")),
        "{body}"
    );
}

#[tokio::test]
async fn a_webhook_without_a_key_in_the_url_or_a_form_is_refused_before_its_body() {
    let _alone = alone();
    let server = start(&[]);
    let mut stream = connect(&server).await;
    let head = "POST /api/v1/external/helloworld HTTP/1.1\r\nHost: localhost\r\n\
                Content-Type: application/json\r\nContent-Length: 5000000\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();

    let raw = read_until_closed(&mut stream).await;

    let (status, body) = parse_response(&raw);
    assert_eq!(
        (status, &body["var_name"]),
        (400, &json!("api_key")),
        "{body}"
    );
}

#[tokio::test]
async fn connections_beyond_the_cap_are_answered_503_and_the_rest_keep_working() {
    let _alone = alone();
    let server = start(&["--max-connections", "4"]);
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut stream = connect(&server).await;
        // A complete request keeps each connection open (kept alive) and proves it is served.
        stream
            .write_all(b"GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .await
            .unwrap();
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(String::from_utf8_lossy(&chunk[..n]).starts_with("HTTP/1.1 200"));
        held.push(stream);
    }

    let mut extra = connect(&server).await;
    let raw = read_until_closed(&mut extra).await;
    let (status, body) = parse_response(&raw);
    assert_eq!((status, &body["result"]), (503, &json!("error")), "{raw}");

    drop(held);
    // Closed connections free their places (the server notices at once; allow a moment).
    let mut served = false;
    for _ in 0..50 {
        let mut stream = connect(&server).await;
        stream
            .write_all(b"GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        if read_until_closed(&mut stream)
            .await
            .starts_with("HTTP/1.1 200")
        {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        served,
        "no connection was served after the held ones closed"
    );
}

/// Requests the HTTP layer itself refuses (a malformed request line or header, a URI
/// or headers too long) still get a Zulip-shaped JSON error (issue 11, finding 10).
#[tokio::test]
async fn protocol_errors_are_zulip_shaped_json() {
    let _alone = alone();
    let server = start(&[]);
    let long_uri = format!(
        "GET /api/v1/{} HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "a".repeat(70_000)
    );
    // More headers than the server takes (a long header would leave bytes unread, and
    // the close would then reset the connection before the answer is read).
    let many_headers: String = (0..200).map(|n| format!("X-{n}: a\r\n")).collect();
    let long_header =
        format!("GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\n{many_headers}\r\n");
    for (request, status) in [
        ("GARBAGE\r\n\r\n".to_owned(), 400),
        (
            "GET /api/v1/server_settings HTTP/1.1\r\nHost: localhost\r\nBroken header\r\n\r\n"
                .to_owned(),
            400,
        ),
        (long_uri, 414),
        (long_header, 431),
    ] {
        let mut stream = connect(&server).await;
        // The server may answer and close before all of a long request is sent.
        let _ = stream.write_all(request.as_bytes()).await;
        let raw = read_until_closed(&mut stream).await;
        let (got, body) = parse_response(&raw);
        assert_eq!(got, status, "{raw}");
        assert_eq!(body["result"], "error", "{raw}");
        assert_eq!(body["code"], "BAD_REQUEST", "{raw}");
        assert!(
            raw.to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{raw}"
        );
    }
}
