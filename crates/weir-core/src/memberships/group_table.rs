//! The groups page as CSV: people × groups, a cell `1` when the person is a direct
//! member. Same file format and import rules as the memberships grid ([`super::table`]);
//! a group column is named by the group's name (system groups by `role:…`).

use std::collections::HashMap;
use std::io::{Read, Write};

use super::group_members::{GroupDenied, GroupMemberChange};
use super::matrix::Matrix;
use super::table::{Axis, CsvError, CsvImport, read_table, write_table};

/// Groups as columns.
struct GroupColumns<'a>(&'a Matrix);

impl Axis for GroupColumns<'_> {
    type Change = GroupMemberChange;
    type Denied = GroupDenied;
    const NOUN: &'static str = "group";

    fn count(&self) -> usize {
        self.0.groups().list().len()
    }

    fn index_of(&self, id: i64) -> Option<u32> {
        let at = self
            .0
            .groups()
            .list()
            .iter()
            .position(|group| group.group_id == id)?;
        u32::try_from(at).ok()
    }

    fn column(&self, at: u32) -> Option<(i64, &str)> {
        let group = self.0.groups().list().get(at as usize)?;
        Some((group.group_id, group.name.as_str()))
    }

    /// Exactly as named, else case-insensitively (Zulip's names are unique that way).
    fn named(&self, name: &str) -> Option<i64> {
        let list = self.0.groups().list();
        let wanted = name.trim();
        list.iter()
            .find(|group| group.name == wanted)
            .or_else(|| {
                let lower = wanted.to_lowercase();
                list.iter().find(|group| group.name.to_lowercase() == lower)
            })
            .map(|group| group.group_id)
    }

    fn is_on(&self, person: u32, column: u32) -> bool {
        self.0
            .groups()
            .list()
            .get(column as usize)
            .is_some_and(|group| group.direct_members.binary_search(&person).is_ok())
    }

    fn state(&self, user_id: i64, group_id: i64) -> Option<bool> {
        self.0.is_direct_member(user_id, group_id)
    }

    fn change(
        &self,
        user_id: i64,
        group_id: i64,
        member: bool,
    ) -> Result<GroupMemberChange, (GroupMemberChange, GroupDenied)> {
        let change = GroupMemberChange::person(user_id, group_id, member);
        match self.0.may_change_member(user_id, group_id, member) {
            Ok(()) => Ok(change),
            Err(denied) => Err((change, denied)),
        }
    }
}

/// Which part of the groups page to export; `None` means all.
#[derive(Debug, Clone, Default)]
pub struct GroupExportScope<'a> {
    pub user_ids: Option<&'a [i64]>,
    pub group_ids: Option<&'a [i64]>,
    /// Staged changes shown as the state they will have.
    pub staged: &'a [GroupMemberChange],
}

/// Writes people × groups (or the scope) as CSV.
pub fn export_group_csv(
    matrix: &Matrix,
    scope: &GroupExportScope<'_>,
    out: impl Write,
) -> Result<(), CsvError> {
    let staged: HashMap<(i64, i64), bool> = scope
        .staged
        .iter()
        // People's cells; a staged subgroup is not a column of the file.
        .filter(|change| change.subgroup_id.is_none())
        .map(|change| ((change.user_id, change.group_id), change.member))
        .collect();
    write_table(
        matrix,
        &GroupColumns(matrix),
        scope.user_ids,
        scope.group_ids,
        &staged,
        out,
    )
}

/// Reads a CSV of people × groups and compares it with the groups' direct members.
pub fn import_group_csv(
    matrix: &Matrix,
    input: impl Read,
) -> Result<CsvImport<GroupMemberChange, GroupDenied>, CsvError> {
    read_table(matrix, &GroupColumns(matrix), input)
}
