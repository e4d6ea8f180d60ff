//! The groups page's CSV requests and answers (the memberships grid's are in `dto`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use weir_core::memberships::{CsvImport, GroupDenied, GroupMemberChange};

use super::dto::SkippedGroupChange;

/// Export people × groups to `path`: the listed people and groups (all when null),
/// staged cells as staged.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GroupCsvExportRequest {
    pub path: String,
    #[ts(type = "number[] | null")]
    pub user_ids: Option<Vec<i64>>,
    #[ts(type = "number[] | null")]
    pub group_ids: Option<Vec<i64>>,
    pub staged: Vec<GroupMemberChange>,
}

/// What an imported file would change on the groups page, to be staged for review.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GroupCsvImportResult {
    pub changes: Vec<GroupMemberChange>,
    /// Differences the account may not make, each with the reason.
    pub denied: Vec<SkippedGroupChange>,
    pub unknown_people: Vec<String>,
    pub unknown_groups: Vec<String>,
}

impl From<CsvImport<GroupMemberChange, GroupDenied>> for GroupCsvImportResult {
    fn from(import: CsvImport<GroupMemberChange, GroupDenied>) -> Self {
        Self {
            changes: import.changes,
            denied: import
                .denied
                .into_iter()
                .map(|(change, denied)| SkippedGroupChange {
                    change,
                    reason: Some(denied.to_string()),
                })
                .collect(),
            unknown_people: import.unknown_people,
            unknown_groups: import.unknown_columns,
        }
    }
}
