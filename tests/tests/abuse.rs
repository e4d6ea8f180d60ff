//! HTTP-level abuse: random methods, paths, headers, encodings and bodies, generated
//! from a fixed seed so that a failure replays, never get a 5xx or an error that is not
//! Zulip-shaped JSON, and the server keeps serving.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use weir_tests::*;

/// A small deterministic generator (splitmix64): a failing case replays exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn bytes(&mut self, max: usize) -> Vec<u8> {
        let len = self.below(max + 1);
        (0..len).map(|_| self.next() as u8).collect()
    }
}

const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "FOO"];

const PATHS: &[&str] = &[
    "/api/v1/server_settings",
    "/api/v1/users",
    "/api/v1/users/me",
    "/api/v1/streams",
    "/api/v1/streams/11/members",
    "/api/v1/streams/-1/members",
    "/api/v1/streams/99999999999999999999/members",
    "/api/v1/get_stream_id?stream=Verona",
    "/api/v1/users/me/subscriptions",
    "/api/v1/bots",
    "/api/v1/bots/201/api_key/regenerate",
    "/api/v1/users/me/api_key/regenerate",
    "/api/v1/register",
    "/api/v1/messages?anchor=newest&num_before=5&num_after=0",
    "/api/v1/messages/render",
    "/api/v1/integrations",
    "/api/v1/external/helloworld?api_key=RELAYKEY&stream=Engineering",
    "/api/v1/external/bitbucket2?api_key=RELAYKEY&stream=Engineering",
    "/api/v1/external/nonexistent?api_key=RELAYKEY",
    "/api/v1/external/helloworld?api_key=%ZZ",
    "/api/v1/%00",
    "/api/v1/users/me/subscriptions?subscriptions=%5B%22Verona%22%5D",
    "/api/v2/users",
    "/api/v1//users",
    "/api/v1/users/me/../me",
    "/api/v1/",
];

const CONTENT_TYPES: &[Option<&str>] = &[
    None,
    Some("application/x-www-form-urlencoded"),
    Some("application/x-www-form-urlencoded; charset=latin1"),
    Some("application/json"),
    Some("multipart/form-data"),
    Some("multipart/form-data; boundary=zz"),
    Some("multipart/form-data; boundary="),
    Some("text/plain"),
    Some("application/octet-stream"),
    Some(";;;"),
    Some("text/html; charset=\"x\""),
];

const ENCODINGS: &[Option<&str>] = &[
    None,
    Some("gzip"),
    Some("br"),
    Some("deflate"),
    Some("identity"),
    Some("gzip, gzip"),
    Some("x-unknown"),
];

/// A body of one of many shapes: forms with nasty values, JSON, multipart, bytes.
fn body(rng: &mut Rng) -> Vec<u8> {
    const VALUES: &[&str] = &[
        "",
        "[]",
        "[\"Verona\"]",
        "[{\"name\":\"Verona\"}]",
        "[101,102]",
        "[\"olivia@globex.test\"]",
        "null",
        "{",
        "[1e400]",
        "[\"\\ud800\"]",
        "%",
        "%E0%A4%A",
        "true",
        "**bold** #**Verona** @**Olivia Owner**",
        "[\"*\",\"**\",\"[!a-\"]",
    ];
    const NAMES: &[&str] = &[
        "subscriptions",
        "principals",
        "content",
        "full_name",
        "short_name",
        "bot_type",
        "narrow",
        "anchor",
        "num_before",
        "only_events",
        "exclude_events",
        "api_key",
        "",
        "=",
        "a[]",
    ];
    match rng.below(5) {
        0 => Vec::new(),
        1 => {
            let mut form = String::new();
            for index in 0..rng.below(5) {
                if index > 0 {
                    form.push('&');
                }
                let (name, value) = (*rng.pick(NAMES), *rng.pick(VALUES));
                form.push_str(&percent_encode(name));
                form.push('=');
                form.push_str(&percent_encode(value));
            }
            form.into_bytes()
        }
        2 => {
            let value = json!({"featured_title": rng.pick(VALUES), "featured_url": rng.pick(VALUES),
                "actor": {"display_name": rng.pick(VALUES)}, "push": {"changes": []}});
            value.to_string().into_bytes()
        }
        3 => format!(
            "--zz\r\nContent-Disposition: form-data; name=\"{}\"\r\n\r\n{}\r\n--zz{}",
            rng.pick(NAMES),
            rng.pick(VALUES),
            if rng.below(2) == 0 { "--\r\n" } else { "" }
        )
        .into_bytes(),
        _ => rng.bytes(2048),
    }
}

/// One random request; answers the description and the response.
async fn random_request(server: &TestServer, rng: &mut Rng, number: usize) -> Resp {
    let method = Method::from_bytes(rng.pick(METHODS).as_bytes()).unwrap();
    let path = rng.pick(PATHS).replace("RELAYKEY", WEBHOOK_BOT.key);
    let api = match rng.below(4) {
        0 => server.anon(),
        1 => server.as_user(&MEMBER),
        2 => server.as_user(&OWNER),
        _ => server.with_key(OWNER.email, "0000000000000000000000000000000x"),
    };
    let mut request = api.request(method.clone(), &path).body(body(rng));
    if let Some(content_type) = rng.pick(CONTENT_TYPES) {
        request = request.header("Content-Type", *content_type);
    }
    if let Some(encoding) = rng.pick(ENCODINGS) {
        request = request.header("Content-Encoding", *encoding);
    }
    if rng.below(4) == 0 {
        request = request.header("X-Event-Key", "*".repeat(rng.below(300)));
    }
    if rng.below(8) == 0 {
        request = request.header("Accept-Encoding", "gzip, br, *;q=0");
    }
    api.send(request, &format!("#{number}: {method} {path}"))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_requests_never_get_a_5xx_or_a_non_json_error() {
    let server = TestServer::standard();
    let mut rng = Rng(0xab05e);
    let mut statuses = std::collections::BTreeMap::new();
    for number in 0..600 {
        let r = random_request(&server, &mut rng, number).await;
        *statuses.entry(r.status).or_insert(0) += 1;
        r.not_5xx();
        if r.status >= 400 {
            r.any_zulip_error();
        } else {
            assert!(
                r.json["result"] == "success",
                "a non-error answer must be a Zulip success\n{}",
                r.debug()
            );
        }
    }
    println!("statuses: {statuses:?}");
    assert!(statuses.keys().any(|&s| s == 200), "no request got through");
    server.anon().get("/server_settings", &[]).await.ok();
    let stderr = server.stderr();
    assert!(!looks_like_panic(&stderr), "{stderr}");
}
