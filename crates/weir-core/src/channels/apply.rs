//! Runs a [`ChannelPlan`]: one `PATCH /streams/{id}` per channel, in order, with
//! progress, stopping between requests when cancelled; each staged cell's outcome and
//! the value it replaced, from which undo is built.

use std::future::Future;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::plan::{ChannelPlan, ChannelSettingChange};
use crate::client::{ClientError, SettingUpdate, ZulipClient};
use crate::memberships::{Cancel, GroupSetting};

/// The call the applier makes; [`ZulipClient`] is the real one.
pub trait ChannelSettingsApi {
    fn update_channel(
        &self,
        stream_id: i64,
        updates: &[SettingUpdate],
    ) -> impl Future<Output = Result<(), ClientError>> + Send;
}

impl ChannelSettingsApi for ZulipClient {
    async fn update_channel(
        &self,
        stream_id: i64,
        updates: &[SettingUpdate],
    ) -> Result<(), ClientError> {
        self.update_channel_group_settings(stream_id, updates).await
    }
}

/// What happened to one staged cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelCellResult {
    pub change: ChannelSettingChange,
    /// The value the change replaced (what undo sets back); `null`: not known.
    pub old: Option<GroupSetting>,
    /// Whether the channel's request was sent (not when the apply was cancelled first).
    pub attempted: bool,
    /// The server's message when the channel's request failed; `null`: done (if sent).
    pub error: Option<String>,
}

impl ChannelCellResult {
    /// The cell is now as asked.
    pub fn succeeded(&self) -> bool {
        self.attempted && self.error.is_none()
    }
}

/// The outcome of applying a channel plan.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelApplyReport {
    pub requests_total: usize,
    pub requests_sent: usize,
    pub cancelled: bool,
    pub cells: Vec<ChannelCellResult>,
}

impl ChannelApplyReport {
    /// The changes that undo this apply: every cell it changed, set back.
    pub fn reverse(&self) -> Vec<ChannelSettingChange> {
        reverse_channel_cells(&self.cells)
    }

    pub fn failed_count(&self) -> usize {
        self.cells
            .iter()
            .filter(|cell| cell.error.is_some())
            .count()
    }
}

/// The changes that set each succeeded cell back to the value it replaced.
pub fn reverse_channel_cells(cells: &[ChannelCellResult]) -> Vec<ChannelSettingChange> {
    cells
        .iter()
        .filter(|cell| cell.succeeded())
        .filter_map(|cell| {
            Some(ChannelSettingChange {
                value: cell.old.clone()?,
                ..cell.change.clone()
            })
        })
        .collect()
}

/// Sends the plan's requests in order, reporting `(done, total)` after each; stops
/// before the next request once `cancel` is set (the rest are reported not attempted).
pub async fn apply_channel_settings<A: ChannelSettingsApi>(
    api: &A,
    plan: &ChannelPlan,
    cancel: &Cancel,
    mut on_progress: impl FnMut(usize, usize),
) -> ChannelApplyReport {
    let total = plan.requests.len();
    let mut report = ChannelApplyReport {
        requests_total: total,
        ..ChannelApplyReport::default()
    };
    for (done, request) in plan.requests.iter().enumerate() {
        let attempted = !cancel.is_cancelled();
        let error = if attempted {
            let updates: Vec<SettingUpdate> = request
                .settings
                .iter()
                .map(|planned| SettingUpdate {
                    name: planned.setting,
                    new: to_json(&planned.new),
                    old: planned.old.as_ref().map(to_json),
                })
                .collect();
            let outcome = api.update_channel(request.stream_id, &updates).await;
            report.requests_sent += 1;
            on_progress(done + 1, total);
            outcome.err().map(|error| error.to_string())
        } else {
            report.cancelled = true;
            None
        };
        for planned in &request.settings {
            report.cells.push(ChannelCellResult {
                change: ChannelSettingChange {
                    stream_id: request.stream_id,
                    setting: planned.setting.to_owned(),
                    value: planned.new.clone(),
                },
                old: planned.old.clone(),
                attempted,
                error: error.clone(),
            });
        }
    }
    report
}

fn to_json(value: &GroupSetting) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}
