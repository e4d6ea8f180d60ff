//! Issue 11, finding 7: the `Host` header. A web page can point a name of its own at
//! 127.0.0.1 (DNS rebinding) and read a local server's answers through the browser;
//! the server therefore answers only requests naming a loopback name or its own address
//! (or a name given with `--allowed-host`), and refuses the rest with Zulip's JSON 400.

use std::io::{Read, Write};

use weir_tests::*;

const REFUSED: &str = "Invalid Host header: this server only answers to its own address \
                       (start it with --allowed-host NAME to accept another name)";

fn port(server: &TestServer) -> String {
    server.base_url.rsplit(':').next().unwrap().to_string()
}

/// `GET /users/me` as the owner with this `Host`.
async fn as_host(server: &TestServer, host: &str) -> Resp {
    let api = server.as_user(&OWNER);
    let rb = api
        .request(Method::GET, "/users/me")
        .header(reqwest::header::HOST, host);
    api.send(rb, &format!("GET /users/me with Host: {host}"))
        .await
}

#[tokio::test]
async fn requests_naming_another_host_are_refused_with_json() {
    let _shared = shared();
    let server = TestServer::spawn_standard();
    let port = port(&server);
    for host in [
        format!("attacker.test:{port}"),
        "attacker.test".to_string(),
        format!("127.0.0.1.attacker.test:{port}"),
        format!("localhost:{port}.attacker.test"),
        "localhost.attacker.test".to_string(),
    ] {
        let r = as_host(&server, &host).await;
        r.bad_request(REFUSED);
        r.assert_json_content_type();
    }
    // Unauthenticated endpoints too: a page could read the organization's settings.
    let api = server.anon();
    let rb = api
        .request_unauthenticated(Method::GET, "/api/v1/server_settings")
        .header(reqwest::header::HOST, "attacker.test");
    api.send(rb, "server_settings").await.bad_request(REFUSED);
}

#[tokio::test]
async fn the_servers_own_names_are_accepted() {
    let _shared = shared();
    let server = TestServer::spawn_standard();
    let port = port(&server);
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        format!("[::1]:{port}"),
        // Any port, as in Django: a page cannot make a browser send a loopback name.
        "localhost".to_string(),
    ] {
        let r = as_host(&server, &host).await;
        assert_eq!(r.ok()["email"], OWNER.email, "{}", r.debug());
    }
}

#[tokio::test]
async fn allowed_host_adds_names_for_a_deliberate_lan_server() {
    let _shared = shared();
    let server = TestServer::spawn_standard_with(&[
        "--allowed-host",
        "weir.lan",
        "--allowed-host",
        "Proxy.Test:443",
    ]);
    let port = port(&server);
    for host in [
        "weir.lan".to_string(),
        format!("weir.lan:{port}"),
        "proxy.test:443".to_string(),
        format!("localhost:{port}"),
    ] {
        as_host(&server, &host).await.ok();
    }
    for host in ["proxy.test:444", "other.lan", "sub.weir.lan"] {
        as_host(&server, host).await.bad_request(REFUSED);
    }
}

#[tokio::test]
async fn a_request_without_host_is_refused() {
    let _shared = shared();
    let server = TestServer::spawn_standard();
    let address = server.base_url.trim_start_matches("http://").to_string();
    let response = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        stream
            .write_all(b"GET /api/v1/server_settings HTTP/1.0\r\n\r\n")
            .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    })
    .await
    .unwrap();
    assert!(response.starts_with("HTTP/1.0 400"), "{response}");
    assert!(response.contains(r#""code":"BAD_REQUEST""#), "{response}");
}

#[test]
fn a_malformed_allowed_host_is_a_usage_error() {
    let _shared = shared();
    let done = run_server_to_exit(
        &[
            "--listen".into(),
            "127.0.0.1:0".into(),
            "--allowed-host".into(),
            "http://weir.lan/".into(),
        ],
        std::time::Duration::from_secs(30),
    );
    assert!(
        done.status.is_some_and(|s| !s.success()),
        "{}",
        done.describe()
    );
    assert!(
        done.stderr.contains("--allowed-host"),
        "{}",
        done.describe()
    );
}
