//! The grid as it crosses IPC: one binary answer (a `tauri::ipc::Response` body, an
//! `ArrayBuffer` in the web view) instead of JSON arrays of subscriber indices. At 100,000
//! people × 2,000 channels those were 5 million numbers to clone, encode, send and parse
//! on the UI's main thread; bitsets are built here in one pass and the UI keeps them as
//! they arrive, without a copy (`ui/src/lib/memberships/wire.ts` reads them).
//!
//! Layout, little-endian: `"WGR1"`, a `u32` header length `H`, `H` bytes of JSON
//! ([`MembershipGrid`], streams with their subscriber counts), then one bitset per stream
//! in `streams` order, each `ceil(people / 8)` bytes: bit `p & 7` of byte `p >> 3` is
//! person `p`.

use tauri::ipc::{InvokeResponseBody, IpcResponse};
use ts_rs::{TS, TypeVisitor};
use weir_core::memberships::Matrix;

use super::dto::{self, MembershipGrid};
use crate::error::{AppError, AppResult};

pub const MAGIC: &[u8; 4] = b"WGR1";

/// The most bytes of bitsets one grid may take (people × streams / 8): 1,000,000 people ×
/// 4,000 streams. Far above the largest Zulip organizations; a bound so that a server's
/// answer cannot make the app allocate without limit.
pub const MAX_BITSET_BYTES: usize = 500 * 1024 * 1024;

/// The encoded grid: `load_memberships`'s answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridAnswer(pub Vec<u8>);

/// Encodes the grid; refuses one whose bitsets would pass [`MAX_BITSET_BYTES`].
pub fn encode(matrix: &Matrix) -> AppResult<GridAnswer> {
    let width = matrix.people().len().div_ceil(8);
    let streams = matrix.channels().len();
    let bits = width
        .checked_mul(streams)
        .filter(|bytes| *bytes <= MAX_BITSET_BYTES)
        .ok_or_else(|| {
            AppError::InvalidInput(format!(
                "the organization is too large for the grid ({} people × {streams} channels)",
                matrix.people().len()
            ))
        })?;
    let header = serde_json::to_vec(&dto::grid(matrix))
        .map_err(|error| AppError::Internal(format!("encoding the grid: {error}")))?;
    let header_length = u32::try_from(header.len())
        .map_err(|_| AppError::Internal("the grid's header is larger than 4 GB".into()))?;
    let mut out = Vec::with_capacity(8 + header.len() + bits);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&header_length.to_le_bytes());
    out.extend_from_slice(&header);
    let start = out.len();
    out.resize(start + bits, 0);
    if width > 0 {
        let rows = out
            .get_mut(start..)
            .unwrap_or_default()
            .chunks_exact_mut(width);
        for (row, channel) in rows.zip(matrix.channels()) {
            for person in &channel.subscribers {
                if let Some(byte) = row.get_mut(*person as usize >> 3) {
                    *byte |= 1 << (person & 7);
                }
            }
        }
    }
    Ok(GridAnswer(out))
}

impl IpcResponse for GridAnswer {
    fn body(self) -> tauri::Result<InvokeResponseBody> {
        Ok(InvokeResponseBody::Raw(self.0))
    }
}

/// An `ArrayBuffer` in TypeScript; its header's type, [`MembershipGrid`], gets its file.
impl TS for GridAnswer {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn name(_: &ts_rs::Config) -> String {
        "ArrayBuffer".to_owned()
    }

    fn inline(config: &ts_rs::Config) -> String {
        Self::name(config)
    }

    fn visit_dependencies(visitor: &mut impl TypeVisitor)
    where
        Self: 'static,
    {
        visitor.visit::<MembershipGrid>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weir_core::memberships::{Snapshot, SnapshotStream};
    use zulip_api::{Role, User};

    fn user(user_id: i64) -> User {
        serde_json::from_value(serde_json::json!({
            "user_id": user_id, "email": format!("u{user_id}@x.test"),
            "full_name": format!("U {user_id}"), "is_active": true, "is_bot": false,
            "role": 400, "is_admin": false, "is_owner": false, "is_guest": false,
            "date_joined": "2024-01-01T00:00:00+00:00", "timezone": "",
        }))
        .unwrap()
    }

    fn matrix(people: i64, streams: Vec<Vec<i64>>) -> Matrix {
        let mut users: Vec<User> = (1..=people).map(user).collect();
        users[0].role = Role::Owner;
        Matrix::build(Snapshot {
            feature_level: 400,
            me: 1,
            users,
            streams: streams
                .into_iter()
                .enumerate()
                .map(|(i, subscribers)| SnapshotStream {
                    stream_id: i as i64 + 10,
                    name: format!("s{i}"),
                    invite_only: false,
                    subscribers,
                })
                .collect(),
        })
        .unwrap()
    }

    fn split(answer: &GridAnswer) -> (serde_json::Value, &[u8]) {
        let bytes = &answer.0;
        assert_eq!(&bytes[..4], MAGIC);
        let length = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
        let header = serde_json::from_slice(&bytes[8..8 + length]).unwrap();
        (header, &bytes[8 + length..])
    }

    #[test]
    fn one_bitset_per_stream_after_the_json_header() {
        // 9 people: two bytes per stream; person 8 (user 9) is bit 0 of the second byte.
        let grid = matrix(9, vec![vec![1, 3, 9], vec![], vec![2, 8]]);
        let answer = encode(&grid).unwrap();
        let (header, bits) = split(&answer);
        assert_eq!(bits, [0b0000_0101, 0b1, 0, 0, 0b1000_0010, 0]);
        let streams = header["streams"].as_array().unwrap();
        let counts: Vec<u64> = streams
            .iter()
            .map(|s| s["subscriberCount"].as_u64().unwrap())
            .collect();
        assert_eq!(counts, [3, 0, 2]);
        assert!(
            streams[0].get("subscribers").is_none(),
            "no index lists in the JSON"
        );
        assert_eq!(header["people"].as_array().unwrap().len(), 9);
    }

    #[test]
    fn a_grid_without_streams_is_its_header_alone() {
        let answer = encode(&matrix(3, Vec::new())).unwrap();
        let (header, bits) = split(&answer);
        assert!(bits.is_empty());
        assert_eq!(header["streams"], serde_json::json!([]));
    }
}
