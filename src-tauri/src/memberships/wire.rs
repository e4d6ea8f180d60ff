//! The grid as it crosses IPC: one binary answer (a `tauri::ipc::Response` body, an
//! `ArrayBuffer` in the web view), sized for the largest organizations. At 100,000 people ×
//! 2,000 channels, bitsets for every channel were 25 MB and the people as JSON objects
//! 19 MB, and carrying bytes from the app to its page is the slow part (~25 ms per MB), so
//! every set of people crosses in whichever of two forms is smaller, and the people cross
//! as columns (`ui/src/lib/memberships/wire.ts` reads it all back).
//!
//! Layout, little-endian: `"WGR2"`, a `u32` header length `H`, `H` bytes of JSON
//! ([`GridHeader`]: the [`MembershipGrid`] without its people and member lists, and the
//! people as [`PeopleColumns`]), then the sets: each stream's subscribers in `streams`
//! order, then each group's direct members and members in `groups` order. A set is a `u8`
//! form, a `u32` length `L` and `L` bytes: form 0 is a bitset of `ceil(people / 8)` bytes
//! (bit `p & 7` of byte `p >> 3` is person `p`), form 1 the ascending person indices as
//! LEB128 gaps (the first index, then each index minus the previous one, minus one).

use serde::Serialize;
use tauri::ipc::{InvokeResponseBody, IpcResponse};
use ts_rs::{TS, TypeVisitor};
use weir_core::memberships::Matrix;
use weir_core::memberships::permissions::PersonClass;
use weir_core::organization::Role;

use super::dto::{self, GridPerson, MembershipGrid};
use crate::error::{AppError, AppResult};

pub const MAGIC: &[u8; 4] = b"WGR2";
/// A set's form: a bitset over the people.
pub const BITSET: u8 = 0;
/// A set's form: ascending indices as LEB128 gaps.
pub const GAPS: u8 = 1;

/// The most bytes one grid's bitsets may take in the page (people × streams / 8):
/// 1,000,000 people × 4,000 streams. Far above the largest Zulip organizations; a bound so
/// that a server's answer cannot make the app or its page allocate without limit.
pub const MAX_BITSET_BYTES: usize = 500 * 1024 * 1024;

/// The JSON part of the answer.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GridHeader {
    /// The grid, with `people` empty and each group's member lists empty (they follow).
    pub grid: MembershipGrid,
    pub people: PeopleColumns,
}

/// The grid's people, one array per field: a person is the same index in each.
#[derive(Debug, Clone, Default, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PeopleColumns {
    #[ts(type = "number[]")]
    pub user_id: Vec<i64>,
    pub email: Vec<String>,
    pub full_name: Vec<String>,
    pub role: Vec<Role>,
    pub is_bot: Vec<bool>,
    #[ts(type = "(number | null)[]")]
    pub bot_owner_id: Vec<Option<i64>>,
    pub is_active: Vec<bool>,
    pub kind: Vec<PersonClass>,
}

impl From<Vec<GridPerson>> for PeopleColumns {
    fn from(people: Vec<GridPerson>) -> Self {
        let mut columns = Self::default();
        for person in people {
            columns.user_id.push(person.user_id);
            columns.email.push(person.email);
            columns.full_name.push(person.full_name);
            columns.role.push(person.role);
            columns.is_bot.push(person.is_bot);
            columns.bot_owner_id.push(person.bot_owner_id);
            columns.is_active.push(person.is_active);
            columns.kind.push(person.kind);
        }
        columns
    }
}

/// The encoded grid: `load_memberships`'s answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridAnswer(pub Vec<u8>);

/// Encodes the grid; refuses one whose bitsets would pass [`MAX_BITSET_BYTES`] in the page.
pub fn encode(matrix: &Matrix) -> AppResult<GridAnswer> {
    let width = matrix.people().len().div_ceil(8);
    let streams = matrix.channels().len();
    width
        .checked_mul(streams)
        .filter(|bytes| *bytes <= MAX_BITSET_BYTES)
        .ok_or_else(|| {
            AppError::InvalidInput(format!(
                "the organization is too large for the grid ({} people × {streams} channels)",
                matrix.people().len()
            ))
        })?;
    let mut grid = dto::grid(matrix);
    let people = PeopleColumns::from(std::mem::take(&mut grid.people));
    let group_sets: Vec<[Vec<u32>; 2]> = grid
        .groups
        .iter_mut()
        .map(|group| {
            [
                std::mem::take(&mut group.direct_members),
                std::mem::take(&mut group.members),
            ]
        })
        .collect();
    let header = serde_json::to_vec(&GridHeader { grid, people })
        .map_err(|error| AppError::Internal(format!("encoding the grid: {error}")))?;
    let mut out = Vec::with_capacity(8 + header.len() + matrix.subscription_count() * 2);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&length(header.len())?.to_le_bytes());
    out.extend_from_slice(&header);
    for channel in matrix.channels() {
        write_set(&mut out, &channel.subscribers, width)?;
    }
    for set in group_sets.iter().flatten() {
        write_set(&mut out, set, width)?;
    }
    Ok(GridAnswer(out))
}

fn length(bytes: usize) -> AppResult<u32> {
    u32::try_from(bytes).map_err(|_| AppError::Internal("a part of the grid passes 4 GB".into()))
}

/// Appends `set` (person indices, ascending) in the smaller form; a set that is not
/// ascending goes as a bitset, which takes any order.
fn write_set(out: &mut Vec<u8>, set: &[u32], width: usize) -> AppResult<()> {
    match gaps_length(set).filter(|bytes| *bytes < width) {
        Some(bytes) => {
            out.push(GAPS);
            out.extend_from_slice(&length(bytes)?.to_le_bytes());
            let mut next = 0;
            for &index in set {
                write_leb128(out, index - next);
                next = index + 1;
            }
        }
        None => {
            out.push(BITSET);
            out.extend_from_slice(&length(width)?.to_le_bytes());
            let start = out.len();
            out.resize(start + width, 0);
            let row = out.get_mut(start..).unwrap_or_default();
            for &index in set {
                if let Some(byte) = row.get_mut(index as usize >> 3) {
                    *byte |= 1 << (index & 7);
                }
            }
        }
    }
    Ok(())
}

/// The bytes of `set` as gaps; `None` when it is not strictly ascending.
fn gaps_length(set: &[u32]) -> Option<usize> {
    let mut next = 0u32;
    let mut bytes = 0;
    for &index in set {
        bytes += leb128_length(index.checked_sub(next)?);
        next = index.checked_add(1)?;
    }
    Some(bytes)
}

fn leb128_length(value: u32) -> usize {
    (32 - value.leading_zeros() as usize).max(1).div_ceil(7)
}

fn write_leb128(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push((value & 0x7f) as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

impl IpcResponse for GridAnswer {
    fn body(self) -> tauri::Result<InvokeResponseBody> {
        Ok(InvokeResponseBody::Raw(self.0))
    }
}

/// An `ArrayBuffer` in TypeScript; the types it carries, [`GridHeader`] (and through it
/// [`MembershipGrid`], what the page decodes it to), get their files.
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
        visitor.visit::<GridHeader>();
    }
}

/// Reads an answer back as the JSON grid, each stream with its `subscribers` (person
/// indices) and each group with its lists, checking every count and bound: the app's
/// integration tests read the grid with it.
pub fn decode_json(bytes: &[u8]) -> Result<serde_json::Value, String> {
    let mut reader = Reader { bytes, at: 0 };
    if reader.take(4)? != MAGIC {
        return Err("not a grid".into());
    }
    let header_length = reader.u32()? as usize;
    let header: serde_json::Value =
        serde_json::from_slice(reader.take(header_length)?).map_err(|e| e.to_string())?;
    let mut grid = header["grid"].clone();
    let columns = &header["people"];
    let count = columns["userId"].as_array().map_or(0, Vec::len);
    let people: Vec<serde_json::Value> = (0..count)
        .map(|p| {
            let field = |name: &str| columns[name][p].clone();
            serde_json::json!({
                "userId": field("userId"), "email": field("email"),
                "fullName": field("fullName"), "role": field("role"), "isBot": field("isBot"),
                "botOwnerId": field("botOwnerId"), "isActive": field("isActive"),
                "kind": field("kind"),
            })
        })
        .collect();
    grid["people"] = people.into();
    let width = count.div_ceil(8);
    for stream in grid["streams"].as_array_mut().into_iter().flatten() {
        let subscribers = reader.set(count, width)?;
        if stream["subscriberCount"] != serde_json::json!(subscribers.len()) {
            return Err(format!("{stream}: {} subscribers", subscribers.len()));
        }
        stream["subscribers"] = subscribers.into();
    }
    for group in grid["groups"].as_array_mut().into_iter().flatten() {
        group["directMembers"] = reader.set(count, width)?.into();
        group["members"] = reader.set(count, width)?.into();
    }
    if reader.at != bytes.len() {
        return Err("bytes after the last set".into());
    }
    Ok(grid)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Result<&'a [u8], String> {
        let slice = self
            .bytes
            .get(self.at..self.at.saturating_add(count))
            .ok_or("cut short")?;
        self.at += count;
        Ok(slice)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let mut word = [0; 4];
        word.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(word))
    }

    fn set(&mut self, people: usize, width: usize) -> Result<Vec<usize>, String> {
        let form = self.take(1)?[0];
        let length = self.u32()? as usize;
        let bytes = self.take(length)?;
        let set: Vec<usize> = match form {
            BITSET if length == width => (0..people)
                .filter(|p| bytes.get(p >> 3).is_some_and(|b| b & (1 << (p & 7)) != 0))
                .collect(),
            GAPS => {
                let (mut set, mut next, mut value, mut shift) = (Vec::new(), 0, 0, 0);
                for byte in bytes {
                    if shift > 28 {
                        return Err("a gap past 32 bits".into());
                    }
                    value |= usize::from(byte & 0x7f) << shift;
                    shift += 7;
                    if byte & 0x80 == 0 {
                        set.push(next + value);
                        next += value + 1;
                        (value, shift) = (0, 0);
                    }
                }
                if shift != 0 {
                    return Err("a gap cut off".into());
                }
                set
            }
            _ => return Err(format!("a set of form {form} and {length} bytes")),
        };
        match set.last() {
            Some(last) if *last >= people => Err(format!("person {last} of {people}")),
            _ => Ok(set),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weir_core::memberships::{Snapshot, SnapshotStream};
    use zulip_api::User;

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
        users[0].role = zulip_api::Role::Owner;
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
                    settings: Default::default(),
                })
                .collect(),
            ..Default::default()
        })
        .unwrap()
    }

    /// The bytes after the header.
    fn sets(answer: &GridAnswer) -> &[u8] {
        let length = u32::from_le_bytes(answer.0[4..8].try_into().unwrap()) as usize;
        &answer.0[8 + length..]
    }

    #[test]
    fn each_set_in_the_smaller_form() {
        // 20 people: bitsets of 3 bytes. One subscriber: 1 byte of gaps; four: a bitset.
        let everyone: Vec<i64> = (1..=20).collect();
        let grid = matrix(
            20,
            vec![vec![10], vec![], everyone[..4].to_vec(), vec![9, 12]],
        );
        let answer = encode(&grid).unwrap();
        assert_eq!(&answer.0[..4], b"WGR2");
        #[rustfmt::skip]
        let expected = [
            GAPS, 1, 0, 0, 0, 9,
            GAPS, 0, 0, 0, 0,
            BITSET, 3, 0, 0, 0, 0b1111, 0, 0,
            GAPS, 2, 0, 0, 0, 8, 2,
        ];
        assert_eq!(sets(&answer), expected);
        let decoded = decode_json(&answer.0).unwrap();
        let lists: Vec<_> = decoded["streams"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["subscribers"].clone())
            .collect();
        assert_eq!(
            lists,
            [json!([9]), json!([]), json!([0, 1, 2, 3]), json!([8, 11])]
        );
    }

    #[test]
    fn gaps_past_one_byte_and_indices_past_a_u16() {
        let mut out = Vec::new();
        write_set(&mut out, &[127, 128, 300, 70_000], 10_000).unwrap();
        assert_eq!(out[0], GAPS);
        assert_eq!(out[5..], [127, 0, 171, 1, 195, 160, 4]);
        assert_eq!(
            Reader { bytes: &out, at: 0 }.set(80_000, 10_000).unwrap(),
            [127, 128, 300, 70_000]
        );
        assert_eq!(gaps_length(&[3, 2]), None, "not ascending");
        assert_eq!(leb128_length(0), 1);
        assert_eq!(leb128_length(u32::MAX), 5);
    }

    #[test]
    fn people_cross_as_columns_and_read_back_as_records() {
        let answer = encode(&matrix(3, vec![vec![1, 2, 3]])).unwrap();
        let length = u32::from_le_bytes(answer.0[4..8].try_into().unwrap()) as usize;
        let header: serde_json::Value = serde_json::from_slice(&answer.0[8..8 + length]).unwrap();
        assert_eq!(header["people"]["userId"], json!([1, 2, 3]));
        assert_eq!(
            header["people"]["role"],
            json!(["owner", "member", "member"])
        );
        assert_eq!(header["grid"]["people"], json!([]));
        assert_eq!(header["grid"]["streams"][0]["subscriberCount"], 3);
        let decoded = decode_json(&answer.0).unwrap();
        assert_eq!(decoded["people"][1]["email"], "u2@x.test");
        assert_eq!(decoded["people"][0]["kind"], "me");
    }

    #[test]
    fn a_grid_without_streams_is_its_header_alone() {
        let answer = encode(&matrix(3, Vec::new())).unwrap();
        assert!(sets(&answer).is_empty());
        assert_eq!(decode_json(&answer.0).unwrap()["streams"], json!([]));
    }

    #[test]
    fn damaged_answers_are_refused() {
        // 20 people, one subscriber: a set of one gap, the answer's last byte.
        let answer = encode(&matrix(20, vec![vec![10]])).unwrap().0;
        assert_eq!(answer[answer.len() - 6..], [GAPS, 1, 0, 0, 0, 9]);
        assert!(decode_json(&answer[..answer.len() - 1]).is_err());
        let mut extra = answer.clone();
        extra.push(0);
        assert!(decode_json(&extra).is_err());
        let mut outside = answer;
        let last = outside.len() - 1;
        outside[last] = 50; // the gap now lands past the 20th person
        assert!(decode_json(&outside).is_err());
        outside[last] = 0x81; // ... or says that more bytes follow
        assert!(decode_json(&outside).is_err());
    }

    use serde_json::json;
}
