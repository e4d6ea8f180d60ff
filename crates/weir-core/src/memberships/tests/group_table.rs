//! The groups page as CSV: export, an edit imported as exactly that edit, refusals with
//! the reason, unknown people and groups.

use zulip_api::Role;

use super::super::{
    CsvError, GroupDenied, GroupExportScope, Matrix, export_group_csv, import_group_csv,
};
use super::group_members::{change, org};

fn exported(matrix: &Matrix, scope: &GroupExportScope<'_>) -> String {
    let mut out = Vec::new();
    if let Err(error) = export_group_csv(matrix, scope, &mut out) {
        panic!("export: {error}");
    }
    String::from_utf8(out).unwrap_or_default()
}

#[test]
fn the_export_has_a_column_per_group_and_direct_members_as_1() {
    let matrix = org(Role::Owner);
    let scope = GroupExportScope {
        user_ids: Some(&[1, 2, 4]),
        group_ids: Some(&[10, 11, 13]),
        staged: &[change(4, 10, true)],
    };
    assert_eq!(
        exported(&matrix, &scope),
        "user_id,email,full_name,team,role:members,closed\n\
         1,user1@example.com,P1,,1,\n\
         2,user2@example.com,P2,1,1,\n\
         4,user4@example.com,P4,1,1,1\n"
    );
}

#[test]
fn an_unedited_export_imports_as_no_change() -> Result<(), CsvError> {
    let matrix = org(Role::Owner);
    let text = exported(&matrix, &GroupExportScope::default());
    let imported = import_group_csv(&matrix, text.as_bytes())?;
    assert!(imported.changes.is_empty(), "{:?}", imported.changes);
    assert!(imported.denied.is_empty() && imported.unknown_people.is_empty());
    assert!(imported.unknown_columns.is_empty());
    Ok(())
}

#[test]
fn an_edited_export_stages_exactly_the_edit() -> Result<(), CsvError> {
    let matrix = org(Role::Owner);
    let text = exported(&matrix, &GroupExportScope::default());
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers()?.clone();
    let team = headers.iter().position(|h| h == "team").unwrap_or(0);
    let leads = headers.iter().position(|h| h == "leads").unwrap_or(0);
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&headers)?;
    for record in reader.records() {
        let mut row: Vec<String> = record?.iter().map(str::to_string).collect();
        if row[0] == "3" {
            row[team] = String::new(); // P3 leaves team
            row[leads] = "yes".into(); // and joins leads
        }
        writer.write_record(&row)?;
    }
    let edited = writer
        .into_inner()
        .map_err(|e| CsvError::Io(e.into_error()))?;
    let imported = import_group_csv(&matrix, edited.as_slice())?;
    assert_eq!(
        imported.changes,
        [change(3, 10, false), change(3, 12, true)]
    );
    assert!(imported.denied.is_empty());
    Ok(())
}

#[test]
fn cells_the_account_may_not_change_are_refused_with_the_reason() -> Result<(), CsvError> {
    // A member: manages team (through leads), not closed; nobody edits system groups;
    // a deactivated person's membership is not the page's to change.
    let matrix = org(Role::Member);
    let text = "user_id,team,closed,role:members\n4,1,,1\n2,1,1,\n6,1,,\n";
    let imported = import_group_csv(&matrix, text.as_bytes())?;
    assert_eq!(imported.changes, [change(4, 10, true)]);
    assert_eq!(
        imported.denied,
        [
            (change(4, 13, false), GroupDenied::CannotRemove),
            (change(2, 13, true), GroupDenied::CannotAdd),
            (change(2, 11, false), GroupDenied::SystemGroup),
            (change(6, 10, true), GroupDenied::Deactivated),
        ]
    );
    Ok(())
}

#[test]
fn unknown_people_and_groups_are_reported_and_names_match_case_insensitively()
-> Result<(), CsvError> {
    let matrix = org(Role::Owner);
    let text = "email,TEAM,no such group\nuser4@example.com,x,1\nghost@example.com,1,1\n";
    let imported = import_group_csv(&matrix, text.as_bytes())?;
    assert_eq!(imported.unknown_people, ["ghost@example.com"]);
    assert_eq!(imported.unknown_columns, ["no such group"]);
    assert_eq!(imported.changes, [change(4, 10, true)]);
    Ok(())
}

#[test]
fn a_bad_value_names_the_group_and_line() {
    let matrix = org(Role::Owner);
    let bad = import_group_csv(&matrix, "user_id,team\n2,1\n3,maybe\n".as_bytes());
    match bad {
        Err(error @ CsvError::BadValue { line: 3, .. }) => {
            assert!(error.to_string().contains("group 'team'"), "{error}");
        }
        other => panic!("{other:?}"),
    }
}
