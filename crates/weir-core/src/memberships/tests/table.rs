use zulip_api::{DEFAULT_FEATURE_LEVEL, Role};

use super::super::{
    ApplyReport, CellResult, CellStatus, CsvError, Denied, ExportScope, Journal, JournalAccount,
    Matrix, Snapshot, export_csv, import_csv,
};
use super::{build, stream, subscribe, unsubscribe, user};

/// Names with commas, quotes, line breaks and non-ASCII, on both axes.
fn tricky(viewer: Role) -> Matrix {
    build(Snapshot {
        feature_level: DEFAULT_FEATURE_LEVEL,
        me: 1,
        users: vec![
            user(1, "Zoë \"Z\" Ångström", viewer),
            user(2, "Smith, John", Role::Member),
            user(3, "李雷\nsecond line", Role::Member),
        ],
        streams: vec![
            stream(10, "design, ux", false, &[1, 2]),
            stream(11, "the \"quoted\" one", false, &[3]),
            stream(12, "café ☕", false, &[]),
        ],
        ..Default::default()
    })
}

fn exported(matrix: &Matrix, scope: &ExportScope<'_>) -> String {
    let mut out = Vec::new();
    if let Err(error) = export_csv(matrix, scope, &mut out) {
        panic!("export: {error}");
    }
    String::from_utf8(out).unwrap_or_default()
}

#[test]
fn an_unedited_export_imports_as_no_change() -> Result<(), CsvError> {
    let matrix = tricky(Role::Owner);
    let text = exported(&matrix, &ExportScope::default());
    assert!(
        text.starts_with(
            "user_id,email,full_name,\"design, ux\",\"the \"\"quoted\"\" one\",café ☕\n"
        ),
        "{text}"
    );
    let imported = import_csv(&matrix, text.as_bytes())?;
    assert!(imported.changes.is_empty());
    assert!(imported.denied.is_empty());
    assert!(imported.unknown_people.is_empty() && imported.unknown_columns.is_empty());
    Ok(())
}

#[test]
fn an_edited_export_stages_exactly_the_edit() -> Result<(), CsvError> {
    let matrix = tricky(Role::Owner);
    let text = exported(&matrix, &ExportScope::default());
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(reader.headers()?)?;
    for record in reader.records() {
        let mut row: Vec<String> = record?.iter().map(str::to_string).collect();
        if row[0] == "2" {
            row[3] = String::new(); // Smith, John leaves "design, ux"
            row[5] = "x".into(); // and joins "café ☕"
        }
        writer.write_record(&row)?;
    }
    let edited = writer
        .into_inner()
        .map_err(|e| CsvError::Io(e.into_error()))?;
    let imported = import_csv(&matrix, edited.as_slice())?;
    assert_eq!(imported.changes, [unsubscribe(2, 10), subscribe(2, 12)]);
    Ok(())
}

#[test]
fn a_filtered_export_round_trips_and_staged_cells_show_their_new_state() -> Result<(), CsvError> {
    let matrix = tricky(Role::Owner);
    let staged = [subscribe(3, 10)];
    let scope = ExportScope {
        user_ids: Some(&[3]),
        stream_ids: Some(&[10]),
        staged: &staged,
    };
    let text = exported(&matrix, &scope);
    assert_eq!(
        text,
        "user_id,email,full_name,\"design, ux\"\n3,user3@example.com,\"李雷\nsecond line\",1\n"
    );
    let imported = import_csv(&matrix, text.as_bytes())?;
    assert_eq!(imported.changes, staged);
    Ok(())
}

#[test]
fn unknown_rows_and_columns_are_reported_and_e_mails_identify_people() -> Result<(), CsvError> {
    let matrix = tricky(Role::Owner);
    let text = "Email,design, ux,nope\nUSER3@example.com,1,1\nghost@example.com,1,1\n";
    // "design" and " ux" are two columns here: neither exists as such.
    let imported = import_csv(&matrix, text.as_bytes())?;
    assert_eq!(imported.unknown_people, ["ghost@example.com"]);
    assert_eq!(imported.unknown_columns, ["design", " ux", "nope"]);
    assert!(imported.changes.is_empty());
    let text = "email,\"DESIGN, UX\"\nuser3@example.com,yes\n";
    assert_eq!(
        import_csv(&matrix, text.as_bytes())?.changes,
        [subscribe(3, 10)]
    );
    Ok(())
}

#[test]
fn changes_the_account_may_not_make_are_not_staged() -> Result<(), CsvError> {
    let matrix = tricky(Role::Member);
    let text = "user_id,\"design, ux\"\n1,0\n2,0\n";
    let imported = import_csv(&matrix, text.as_bytes())?;
    assert_eq!(imported.changes, [unsubscribe(1, 10)]);
    assert_eq!(
        imported.denied,
        [(unsubscribe(2, 10), Denied::NotInRemoveGroup)]
    );
    Ok(())
}

#[test]
fn bad_values_and_headers_are_errors() {
    let matrix = tricky(Role::Owner);
    let bad = import_csv(&matrix, "user_id,\"design, ux\"\n1,maybe\n".as_bytes());
    assert!(
        matches!(bad, Err(CsvError::BadValue { line: 2, .. })),
        "{bad:?}"
    );
    let headless = import_csv(&matrix, "name,\"design, ux\"\nA,1\n".as_bytes());
    assert!(matches!(headless, Err(CsvError::NoIdentityColumn { .. })));
}

#[test]
fn the_journal_keeps_applies_per_account_and_their_reverse() -> Result<(), crate::CoreError> {
    let dir = tempfile::tempdir().map_err(|source| crate::CoreError::Io {
        context: "tempdir".into(),
        source,
    })?;
    let path = dir.path().join("journal.sqlite3");
    let report = ApplyReport {
        requests_total: 1,
        requests_sent: 2,
        cancelled: false,
        cells: vec![
            CellResult {
                change: unsubscribe(2, 10),
                status: CellStatus::Removed,
            },
            CellResult {
                change: unsubscribe(3, 10),
                status: CellStatus::NotRemoved,
            },
            CellResult {
                change: subscribe(2, 11),
                status: CellStatus::Failed {
                    message: "nope".into(),
                },
            },
        ],
    };
    let account = JournalAccount {
        account_id: 7,
        site: "https://chat.example.com",
        email: "iago@example.com",
    };
    let changes = [unsubscribe(2, 10), unsubscribe(3, 10), subscribe(2, 11)];
    {
        let journal = Journal::open(&path)?;
        journal.record(&account, &changes, &report, 1_700_000_000)?;
        journal.record(&account, &changes[..1], &report, 1_700_000_100)?;
    }
    let journal = Journal::open(&path)?;
    let list = journal.list(7, 10)?;
    assert_eq!(list.len(), 2);
    assert_eq!(list[0].applied_at, 1_700_000_100, "newest first");
    assert_eq!(
        (list[1].changed, list[1].failed, list[1].requests_sent),
        (1, 1, 2)
    );
    assert!(journal.list(8, 10)?.is_empty());
    let first = journal.get(7, list[1].id)?;
    let first = first.ok_or_else(|| crate::CoreError::Internal("missing".into()))?;
    assert_eq!(first.changes, changes);
    assert_eq!(first.cells, report.cells);
    assert_eq!(first.reverse(), [subscribe(2, 10)]);
    assert_eq!(journal.get(8, list[1].id)?, None);
    assert_eq!(journal.last(7)?.map(|e| e.summary.id), Some(list[0].id));
    assert_eq!(journal.last(9)?, None);
    Ok(())
}
