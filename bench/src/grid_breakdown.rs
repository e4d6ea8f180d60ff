//! Where the grid's data path spends its time, step by step: the server's `register`
//! answer (request to last byte, and its size), decoding it, building the matrix, and
//! encoding what the app sends its window (people and channels with their subscribers).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use base64::Engine;
use hyper::{Method, Uri};
use weir_core::memberships::{Matrix, Snapshot};

use crate::Result;
use crate::http::Connection;

/// The parameters Weir's client sends (`ZulipClient::register_snapshot`).
const REGISTER_FORM: &str = "fetch_event_types=%5B%22realm_user%22%2C%22subscription%22%5D\
    &event_types=%5B%22realm_user%22%2C%22subscription%22%5D\
    &include_subscribers=true&client_gravatar=true";

/// Prints one line: each step's median over `rounds`.
pub async fn print(
    address: SocketAddr,
    email: &str,
    key: &str,
    me: i64,
    rounds: u32,
) -> Result<()> {
    let authorization = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{email}:{key}"))
    );
    let uri: Uri = format!("http://{address}/api/v1/register").parse()?;
    let mut steps: [Vec<Duration>; 4] = Default::default();
    let mut bytes = 0;
    let mut encoded = 0;
    for _ in 0..rounds.max(1) {
        let mut connection = Connection::open(address).await?;
        let started = Instant::now();
        let (status, body) = connection
            .send_form(
                Method::POST,
                uri.clone(),
                &authorization,
                REGISTER_FORM.into(),
            )
            .await?;
        steps[0].push(started.elapsed());
        if !status.is_success() {
            return Err(format!("register answered {status}").into());
        }
        bytes = body.len();
        let (decode, build, encode, size) = tokio::task::spawn_blocking(move || {
            let started = Instant::now();
            let register: zulip_api::RegisterResponse = serde_json::from_slice(&body)?;
            let decode = started.elapsed();
            let started = Instant::now();
            let matrix = Matrix::build(Snapshot::from_register(register, me))?;
            let build = started.elapsed();
            let started = Instant::now();
            let size = serde_json::to_vec(&(matrix.people(), matrix.channels()))?.len();
            Ok::<_, crate::Error>((decode, build, started.elapsed(), size))
        })
        .await??;
        steps[1].push(decode);
        steps[2].push(build);
        steps[3].push(encode);
        encoded = size;
    }
    let median = |samples: &mut Vec<Duration>| {
        samples.sort();
        samples[samples.len() / 2].as_secs_f64() * 1_000.0
    };
    println!(
        "data path, step by step (median of {} rounds): register answered in {:.0} ms \
         ({:.1} MB of JSON), decoded in {:.0} ms, matrix built in {:.0} ms; the grid as JSON \
         for the window (people and subscriber indices, {:.1} MB) encoded in {:.0} ms",
        rounds.max(1),
        median(&mut steps[0]),
        bytes as f64 / 1e6,
        median(&mut steps[1]),
        median(&mut steps[2]),
        encoded as f64 / 1e6,
        median(&mut steps[3]),
    );
    Ok(())
}
