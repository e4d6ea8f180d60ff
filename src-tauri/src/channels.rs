//! What the Channels page's commands send and receive besides weir-core's own types
//! (the table, a staged change, a cell's outcome), generated into TypeScript by ts-rs.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use weir_core::channels::{
    ChannelApplyReport, ChannelCellResult, ChannelPlan, ChannelSettingChange,
};

/// Staged channel-setting cells.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelChangesRequest {
    pub changes: Vec<ChannelSettingChange>,
}

/// The calls an apply would make: one `PATCH /streams/{id}` per channel.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelPlanPreview {
    pub requests: Vec<PlannedChannelCall>,
    /// How many requests (`requests.length`), for the review's summary.
    pub request_count: usize,
    /// How many settings the requests change.
    pub change_count: usize,
    /// Changes left out: already so (`reason` null), or not possible (the reason).
    pub skipped: Vec<SkippedChannelChange>,
}

/// One planned request: a channel and the settings it changes.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlannedChannelCall {
    #[ts(type = "number")]
    pub stream_id: i64,
    pub settings: Vec<String>,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SkippedChannelChange {
    pub change: ChannelSettingChange,
    pub reason: Option<String>,
}

impl From<&ChannelPlan> for ChannelPlanPreview {
    fn from(plan: &ChannelPlan) -> Self {
        Self {
            requests: plan
                .requests
                .iter()
                .map(|request| PlannedChannelCall {
                    stream_id: request.stream_id,
                    settings: request
                        .settings
                        .iter()
                        .map(|planned| planned.setting.to_owned())
                        .collect(),
                })
                .collect(),
            request_count: plan.requests.len(),
            change_count: plan.change_count(),
            skipped: plan
                .skipped
                .iter()
                .map(|(change, skip)| SkippedChannelChange {
                    change: change.clone(),
                    reason: skip.reason(),
                })
                .collect(),
        }
    }
}

/// What an apply did: per staged cell, whether it is done (`attempted` and no `error`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelApplyOutcome {
    /// The journal entry undo reads; `null` when nothing was sent.
    #[ts(type = "number | null")]
    pub journal_id: Option<i64>,
    pub requests_total: usize,
    pub requests_sent: usize,
    pub cancelled: bool,
    pub results: Vec<ChannelCellResult>,
}

impl ChannelApplyOutcome {
    pub fn new(report: &ChannelApplyReport, journal_id: Option<i64>) -> Self {
        Self {
            journal_id,
            requests_total: report.requests_total,
            requests_sent: report.requests_sent,
            cancelled: report.cancelled,
            results: report.cells.clone(),
        }
    }
}
