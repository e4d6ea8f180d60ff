//! CSV export and import of a people × columns grid: the memberships grid (one column per
//! stream) and the groups page (one column per group) share the file format and the
//! import rules; each names its columns through an [`Axis`].
//!
//! ```text
//! user_id,email,full_name,general,"design, ux"
//! 8,iago@example.com,Iago,1,
//! ```
//!
//! A cell is `1` when subscribed (a member) and empty when not (import also reads `0`,
//! `x`, `yes`, `no`, `true`, `false`). Import never applies anything: it returns the
//! difference between the file and the server's state, to be staged for review. Only the
//! people and columns present in the file are compared, so a filtered export round-trips.

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
    #[error("the header needs a user_id or email column before the {noun} columns")]
    NoIdentityColumn { noun: &'static str },
    #[error(
        "line {line}, {noun} '{column}': '{value}' is neither yes (1, x, yes) nor no (empty, 0, no)"
    )]
    BadValue {
        line: u64,
        noun: &'static str,
        column: String,
        value: String,
    },
}

/// One kind of column: how columns are found, what a cell's state is on the server, and
/// whether the account may change it. Columns are addressed by their index in the
/// grid's own list, so export reads cells without hashing.
pub(super) trait Axis {
    type Change;
    type Denied;
    /// How messages name a column ("channel", "group").
    const NOUN: &'static str;
    /// How many columns the grid has.
    fn count(&self) -> usize;
    /// A column's index, by id.
    fn index_of(&self, id: i64) -> Option<u32>;
    /// A column's id and name, by index.
    fn column(&self, at: u32) -> Option<(i64, &str)>;
    /// A column's id by the name a file's header gives it.
    fn named(&self, name: &str) -> Option<i64>;
    /// Whether the cell is on at the server (both by index).
    fn is_on(&self, person: u32, column: u32) -> bool;
    /// The cell's state at the server, by ids.
    fn state(&self, user_id: i64, column_id: i64) -> Option<bool>;
    /// The change that sets the cell to `on`, or why the account may not make it.
    fn change(
        &self,
        user_id: i64,
        column_id: i64,
        on: bool,
    ) -> Result<Self::Change, (Self::Change, Self::Denied)>;
}

/// Streams as columns: the memberships grid.
struct Streams<'a>(&'a Matrix);

impl Axis for Streams<'_> {
    type Change = Change;
    type Denied = Denied;
    const NOUN: &'static str = "channel";

    fn count(&self) -> usize {
        self.0.channels().len()
    }

    fn index_of(&self, id: i64) -> Option<u32> {
        self.0.channel(id).map(|(at, _)| at)
    }

    fn column(&self, at: u32) -> Option<(i64, &str)> {
        let channel = self.0.channels().get(at as usize)?;
        Some((channel.stream_id, channel.name.as_str()))
    }

    fn named(&self, name: &str) -> Option<i64> {
        self.0.channel_named(name).map(|channel| channel.stream_id)
    }

    fn is_on(&self, person: u32, column: u32) -> bool {
        self.0.is_subscribed_at(person, column)
    }

    fn state(&self, user_id: i64, column_id: i64) -> Option<bool> {
        self.0.is_subscribed(user_id, column_id)
    }

    fn change(&self, user_id: i64, stream_id: i64, on: bool) -> Result<Change, (Change, Denied)> {
        let change = Change {
            user_id,
            stream_id,
            subscribe: on,
        };
        match self.0.may_toggle(user_id, stream_id) {
            Ok(_) => Ok(change),
            Err(denied) => Err((change, denied)),
        }
    }
}

/// Which part of the grid to export; `None` means all.
#[derive(Debug, Clone, Default)]
pub struct ExportScope<'a> {
    pub user_ids: Option<&'a [i64]>,
    pub stream_ids: Option<&'a [i64]>,
    /// Staged changes shown as the state they will have.
    pub staged: &'a [Change],
}

/// Writes the memberships grid (or its scope) as CSV.
pub fn export_csv(
    matrix: &Matrix,
    scope: &ExportScope<'_>,
    out: impl Write,
) -> Result<(), CsvError> {
    let staged = scope
        .staged
        .iter()
        .map(|change| ((change.user_id, change.stream_id), change.subscribe))
        .collect();
    write_table(
        matrix,
        &Streams(matrix),
        scope.user_ids,
        scope.stream_ids,
        &staged,
        out,
    )
}

/// Reads a CSV and compares it with the memberships in `matrix`.
pub fn import_csv(matrix: &Matrix, input: impl Read) -> Result<CsvImport, CsvError> {
    read_table(matrix, &Streams(matrix), input)
}

/// Writes people × columns; `staged` maps (user id, column id) to the state to show.
pub(super) fn write_table<A: Axis>(
    matrix: &Matrix,
    axis: &A,
    user_ids: Option<&[i64]>,
    column_ids: Option<&[i64]>,
    staged: &HashMap<(i64, i64), bool>,
    out: impl Write,
) -> Result<(), CsvError> {
    let people: Vec<u32> = match user_ids {
        Some(ids) => ids
            .iter()
            .filter_map(|id| matrix.person(*id))
            .map(|(i, _)| i)
            .collect(),
        None => (0..matrix.people().len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect(),
    };
    let columns: Vec<(u32, i64, &str)> = match column_ids {
        Some(ids) => ids
            .iter()
            .filter_map(|id| axis.index_of(*id))
            .collect::<Vec<u32>>(),
        None => (0..axis.count())
            .filter_map(|i| u32::try_from(i).ok())
            .collect(),
    }
    .into_iter()
    .filter_map(|at| axis.column(at).map(|(id, name)| (at, id, name)))
    .collect();

    let mut writer = csv::Writer::from_writer(out);
    let mut header: Vec<&str> = IDENTITY_COLUMNS.to_vec();
    header.extend(columns.iter().map(|(_, _, name)| *name));
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
        for (column_at, column_id, _) in &columns {
            let on = staged
                .get(&(person.user_id, *column_id))
                .copied()
                .unwrap_or_else(|| axis.is_on(*person_at, *column_at));
            record.push(if on { "1" } else { "" }.to_string());
        }
        writer.write_record(&record)?;
    }
    writer.flush()?;
    Ok(())
}

/// What an imported file would change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvImport<C = Change, D = Denied> {
    /// The differences the account may make: to be staged.
    pub changes: Vec<C>,
    /// Differences the account may not make, with the reason.
    pub denied: Vec<(C, D)>,
    /// Rows whose person is not in the grid (their user_id or e-mail).
    pub unknown_people: Vec<String>,
    /// Header columns that name no stream (or group) of the grid.
    pub unknown_columns: Vec<String>,
}

impl<C, D> Default for CsvImport<C, D> {
    fn default() -> Self {
        Self {
            changes: Vec::new(),
            denied: Vec::new(),
            unknown_people: Vec::new(),
            unknown_columns: Vec::new(),
        }
    }
}

/// Reads a CSV and compares it with the server's state as `axis` tells it.
pub(super) fn read_table<A: Axis>(
    matrix: &Matrix,
    axis: &A,
    input: impl Read,
) -> Result<CsvImport<A::Change, A::Denied>, CsvError> {
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
        return Err(CsvError::NoIdentityColumn { noun: A::NOUN });
    }
    let emails: HashMap<String, i64> = matrix
        .people()
        .iter()
        .map(|person| (person.email.to_lowercase(), person.user_id))
        .collect();

    let mut result = CsvImport::default();
    let mut columns: Vec<Option<(i64, &str)>> = Vec::new();
    for name in header.iter().skip(identity_count) {
        match axis.named(name) {
            Some(id) => columns.push(Some((id, name))),
            None => {
                result.unknown_columns.push(name.to_string());
                columns.push(None);
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
        for (offset, column) in columns.iter().enumerate() {
            let Some((column_id, name)) = column else {
                continue;
            };
            let value = row.get(identity_count + offset).unwrap_or("");
            let wanted = parse_cell(value).ok_or_else(|| CsvError::BadValue {
                line,
                noun: A::NOUN,
                column: (*name).to_string(),
                value: value.to_string(),
            })?;
            if axis.state(user_id, *column_id) == Some(wanted) {
                continue;
            }
            match axis.change(user_id, *column_id, wanted) {
                Ok(change) => result.changes.push(change),
                Err(denied) => result.denied.push(denied),
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
