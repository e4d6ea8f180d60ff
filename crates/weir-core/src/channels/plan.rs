//! Staged channel-setting changes → one `PATCH /streams/{id}` per channel, each setting
//! sent with the value the table showed as `old`, so that the server refuses a change
//! someone else made meanwhile instead of overwriting it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::settings::same_value;
use super::table::LoadedChannels;
use crate::memberships::GroupSetting;

/// One staged cell: set `setting` of channel `stream_id` to `value`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelSettingChange {
    #[ts(type = "number")]
    pub stream_id: i64,
    /// Zulip's parameter name (`can_remove_subscribers_group`).
    pub setting: String,
    pub value: GroupSetting,
}

/// One setting of a planned request, with the value it replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedSetting {
    pub setting: &'static str,
    pub new: GroupSetting,
    pub old: Option<GroupSetting>,
}

/// One `PATCH /streams/{stream_id}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelRequest {
    pub stream_id: i64,
    pub settings: Vec<PlannedSetting>,
}

/// Why a staged change is left out; `NoOp` is shown as no reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChannelSkip {
    #[error("The channel already has this value.")]
    NoOp,
    #[error("{0}")]
    Denied(String),
    #[error("This channel is not in the organization's list.")]
    UnknownChannel,
    #[error("This server has no such channel setting.")]
    UnknownSetting,
    #[error("{0} cannot be chosen for this setting.")]
    NotAllowed(String),
    #[error("A group this value names does not exist or is deactivated.")]
    UnknownGroup,
}

impl ChannelSkip {
    /// The reason to show; `None` for a change that is already so.
    pub fn reason(&self) -> Option<String> {
        match self {
            Self::NoOp => None,
            other => Some(other.to_string()),
        }
    }
}

/// The requests to send, in channel-id order, and the changes left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChannelPlan {
    pub requests: Vec<ChannelRequest>,
    pub skipped: Vec<(ChannelSettingChange, ChannelSkip)>,
}

impl ChannelPlan {
    /// How many settings the requests change.
    pub fn change_count(&self) -> usize {
        self.requests.iter().map(|r| r.settings.len()).sum()
    }
}

/// Plans staged changes against the table the user saw; a cell staged twice keeps its
/// last change.
pub fn plan_channel_settings(
    loaded: &LoadedChannels,
    changes: &[ChannelSettingChange],
) -> ChannelPlan {
    let mut last: BTreeMap<(i64, &str), &ChannelSettingChange> = BTreeMap::new();
    for change in changes {
        last.insert((change.stream_id, change.setting.as_str()), change);
    }
    let mut per_channel: BTreeMap<i64, Vec<PlannedSetting>> = BTreeMap::new();
    let mut skipped = Vec::new();
    for change in last.into_values() {
        match check(loaded, change) {
            Ok(planned) => per_channel
                .entry(change.stream_id)
                .or_default()
                .push(planned),
            Err(skip) => skipped.push((change.clone(), skip)),
        }
    }
    ChannelPlan {
        requests: per_channel
            .into_iter()
            .map(|(stream_id, settings)| ChannelRequest {
                stream_id,
                settings,
            })
            .collect(),
        skipped,
    }
}

fn check(
    loaded: &LoadedChannels,
    change: &ChannelSettingChange,
) -> Result<PlannedSetting, ChannelSkip> {
    let column = loaded
        .column(&change.setting)
        .ok_or(ChannelSkip::UnknownSetting)?;
    let row = loaded
        .table
        .channels
        .iter()
        .find(|row| row.stream_id == change.stream_id)
        .ok_or(ChannelSkip::UnknownChannel)?;
    let cell = row
        .cells
        .iter()
        .find(|cell| cell.setting == change.setting)
        .ok_or(ChannelSkip::UnknownSetting)?;
    if cell
        .value
        .as_ref()
        .is_some_and(|current| same_value(current, &change.value))
    {
        return Err(ChannelSkip::NoOp);
    }
    if let Some(denied) = &cell.denied {
        return Err(ChannelSkip::Denied(denied.clone()));
    }
    match &change.value {
        GroupSetting::Named(id) => {
            let group = loaded
                .directory
                .group(*id)
                .ok_or(ChannelSkip::UnknownGroup)?;
            if !column.rules.allows(&group.name, group.is_system_group) {
                return Err(ChannelSkip::NotAllowed(
                    loaded.directory.label(&change.value),
                ));
            }
        }
        GroupSetting::Anonymous {
            direct_subgroups, ..
        } => {
            if direct_subgroups
                .iter()
                .any(|id| loaded.directory.group(*id).is_none())
            {
                return Err(ChannelSkip::UnknownGroup);
            }
        }
    }
    Ok(PlannedSetting {
        setting: column.known.name,
        new: change.value.clone(),
        old: cell.value.clone(),
    })
}
