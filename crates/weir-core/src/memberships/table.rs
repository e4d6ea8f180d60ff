//! CSV export and import of memberships: one row per person, one column per stream.
//!
//! ```text
//! user_id,email,full_name,general,"design, ux"
//! 8,iago@example.com,Iago,1,
//! ```
//!
//! A cell is `1` when subscribed and empty when not (import also reads `0`, `x`, `yes`,
//! `no`, `true`, `false`). Import never applies anything: it returns the difference
//! between the file and the server's state, to be staged for review. Only the people and
//! streams present in the file are compared, so a filtered export round-trips.

use std::collections::HashMap;
use std::io::{Read, Write};

use super::matrix::Matrix;
use super::permissions::Denied;
use super::plan::Change;

/// The largest file import reads.
pub const MAX_CSV_BYTES: u64 = 64 * 1024 * 1024;

const IDENTITY_COLUMNS: [&str; 3] = ["user_id", "email", "full_name"];

#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    #[error("CSV: {0}")]
    Csv(#[from] csv::Error),
    #[error("CSV: {0}")]
    Io(#[from] std::io::Error),
    #[error("the file is larger than {} MB", MAX_CSV_BYTES / 1024 / 1024)]
    TooLarge,
    #[error("the header needs a user_id or email column before the channel columns")]
    NoIdentityColumn,
    #[error(
        "line {line}, channel '{stream}': '{value}' is neither subscribed (1, x, yes) nor not (empty, 0, no)"
    )]
    BadValue {
        line: u64,
        stream: String,
        value: String,
    },
}

/// Which part of the grid to export; `None` means all.
#[derive(Debug, Clone, Default)]
pub struct ExportScope<'a> {
    pub user_ids: Option<&'a [i64]>,
    pub stream_ids: Option<&'a [i64]>,
    /// Staged changes shown as the state they will have.
    pub staged: &'a [Change],
}

/// Writes the grid (or its scope) as CSV.
pub fn export_csv(
    matrix: &Matrix,
    scope: &ExportScope<'_>,
    out: impl Write,
) -> Result<(), CsvError> {
    let people: Vec<u32> = match scope.user_ids {
        Some(ids) => ids
            .iter()
            .filter_map(|id| matrix.person(*id))
            .map(|(i, _)| i)
            .collect(),
        None => (0..matrix.people().len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect(),
    };
    let channels: Vec<u32> = match scope.stream_ids {
        Some(ids) => ids
            .iter()
            .filter_map(|id| matrix.channel(*id))
            .map(|(i, _)| i)
            .collect(),
        None => (0..matrix.channels().len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect(),
    };
    let staged: HashMap<(i64, i64), bool> = scope
        .staged
        .iter()
        .map(|change| ((change.user_id, change.stream_id), change.subscribe))
        .collect();

    let mut writer = csv::Writer::from_writer(out);
    let mut header: Vec<&str> = IDENTITY_COLUMNS.to_vec();
    header.extend(
        channels
            .iter()
            .filter_map(|c| matrix.channels().get(*c as usize))
            .map(|channel| channel.name.as_str()),
    );
    writer.write_record(&header)?;
    let mut record: Vec<String> = Vec::with_capacity(header.len());
    for person_at in &people {
        let Some(person) = matrix.people().get(*person_at as usize) else {
            continue;
        };
        record.clear();
        record.push(person.user_id.to_string());
        record.push(person.email.clone());
        record.push(person.full_name.clone());
        for channel_at in &channels {
            let Some(channel) = matrix.channels().get(*channel_at as usize) else {
                continue;
            };
            let subscribed = staged
                .get(&(person.user_id, channel.stream_id))
                .copied()
                .unwrap_or_else(|| matrix.is_subscribed_at(*person_at, *channel_at));
            record.push(if subscribed { "1" } else { "" }.to_string());
        }
        writer.write_record(&record)?;
    }
    writer.flush()?;
    Ok(())
}

/// What an imported file would change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CsvImport {
    /// The differences the account may make: to be staged.
    pub changes: Vec<Change>,
    /// Differences the account may not make, with the reason.
    pub denied: Vec<(Change, Denied)>,
    /// Rows whose person is not in the grid (their user_id or e-mail).
    pub unknown_people: Vec<String>,
    /// Columns whose stream is not in the grid.
    pub unknown_streams: Vec<String>,
}

/// Reads a CSV and compares it with the server's state in `matrix`.
pub fn import_csv(matrix: &Matrix, input: impl Read) -> Result<CsvImport, CsvError> {
    let mut limited = input.take(MAX_CSV_BYTES + 1);
    let mut bytes = Vec::new();
    limited.read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_CSV_BYTES {
        return Err(CsvError::TooLarge);
    }
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(bytes.as_slice());
    let header = reader.headers()?.clone();
    let identity_count = header
        .iter()
        .take_while(|name| IDENTITY_COLUMNS.contains(&name.trim().to_lowercase().as_str()))
        .count();
    let column = |wanted: &str| {
        header
            .iter()
            .take(identity_count)
            .position(|name| name.trim().eq_ignore_ascii_case(wanted))
    };
    let id_column = column("user_id");
    let email_column = column("email");
    if id_column.is_none() && email_column.is_none() {
        return Err(CsvError::NoIdentityColumn);
    }
    let emails: HashMap<String, i64> = matrix
        .people()
        .iter()
        .map(|person| (person.email.to_lowercase(), person.user_id))
        .collect();

    let mut result = CsvImport::default();
    let mut streams: Vec<Option<(i64, String)>> = Vec::new();
    for name in header.iter().skip(identity_count) {
        match matrix.channel_named(name) {
            Some(channel) => streams.push(Some((channel.stream_id, channel.name.clone()))),
            None => {
                result.unknown_streams.push(name.to_string());
                streams.push(None);
            }
        }
    }

    for row in reader.records() {
        let row = row?;
        let line = row.position().map_or(0, csv::Position::line);
        let by_id = id_column
            .and_then(|i| row.get(i))
            .and_then(|text| text.trim().parse::<i64>().ok())
            .filter(|id| matrix.person(*id).is_some());
        let by_email = email_column
            .and_then(|i| row.get(i))
            .and_then(|text| emails.get(&text.trim().to_lowercase()).copied());
        let Some(user_id) = by_id.or(by_email) else {
            let shown = id_column
                .and_then(|i| row.get(i))
                .filter(|text| !text.trim().is_empty())
                .or_else(|| email_column.and_then(|i| row.get(i)))
                .unwrap_or("");
            result.unknown_people.push(shown.to_string());
            continue;
        };
        for (offset, stream) in streams.iter().enumerate() {
            let Some((stream_id, name)) = stream else {
                continue;
            };
            let value = row.get(identity_count + offset).unwrap_or("");
            let wanted = parse_cell(value).ok_or_else(|| CsvError::BadValue {
                line,
                stream: name.clone(),
                value: value.to_string(),
            })?;
            if matrix.is_subscribed(user_id, *stream_id) == Some(wanted) {
                continue;
            }
            let change = Change {
                user_id,
                stream_id: *stream_id,
                subscribe: wanted,
            };
            match matrix.may_toggle(user_id, *stream_id) {
                Ok(_) => result.changes.push(change),
                Err(denied) => result.denied.push((change, denied)),
            }
        }
    }
    Ok(result)
}

fn parse_cell(value: &str) -> Option<bool> {
    match value.trim().to_lowercase().as_str() {
        "1" | "x" | "yes" | "y" | "true" => Some(true),
        "" | "0" | "no" | "n" | "false" => Some(false),
        _ => None,
    }
}
