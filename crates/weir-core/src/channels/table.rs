//! [`ChannelTable`]: channels × permission settings for one account, built from one
//! `register` snapshot and the organization's groups; each cell says what the setting
//! names and whether the account may change it.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use ts_rs::TS;
use zulip_api::{RegisterResponse, Stream};

use super::settings::{KnownSetting, SettingRules, supported_settings};
use crate::client::UserGroup;
use crate::memberships::GroupSetting;
use crate::organization::Role;

/// The Channels page's table for the active account.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelTable {
    pub viewer: ChannelViewer,
    /// The columns: the settings the server has, in order.
    pub settings: Vec<PermissionSetting>,
    /// Every active group a cell may show or a picker may offer.
    pub groups: Vec<GroupOption>,
    pub channels: Vec<ChannelRow>,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelViewer {
    #[ts(type = "number")]
    pub user_id: i64,
    pub role: Role,
    pub feature_level: u32,
}

/// One column: a channel setting that names a group.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PermissionSetting {
    /// Zulip's parameter name (`can_remove_subscribers_group`).
    pub name: String,
    /// The column's heading ("Who can remove subscribers").
    pub label: String,
    /// Why no cell of the column can change (the server is too old to change it through
    /// its API); `null`: cells follow the account's permissions.
    pub read_only: Option<String>,
    /// The groups the setting may name, by id (ids of `groups`).
    #[ts(type = "number[]")]
    pub choices: Vec<i64>,
}

/// A group as a cell shows it and a picker offers it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GroupOption {
    #[ts(type = "number")]
    pub group_id: i64,
    /// Zulip's name (`role:members` for system groups).
    pub name: String,
    /// What to show ("Members" for `role:members`).
    pub label: String,
    pub is_system_group: bool,
}

/// A channel's privacy as Zulip's settings page names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Privacy {
    Public,
    WebPublic,
    /// Private, new subscribers see the whole history.
    PrivateSharedHistory,
    /// Private, new subscribers see messages from when they joined.
    PrivateProtectedHistory,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelRow {
    #[ts(type = "number")]
    pub stream_id: i64,
    pub name: String,
    pub description: String,
    pub privacy: Privacy,
    pub is_archived: bool,
    /// Whether the account is subscribed.
    pub subscribed: bool,
    /// One per column of [`ChannelTable::settings`], in its order.
    pub cells: Vec<ChannelCell>,
}

/// One channel's value of one setting.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelCell {
    pub setting: String,
    /// The value as Zulip gives it; `null` when the server did not send it.
    pub value: Option<GroupSetting>,
    /// What the value names, for the cell ("Platform team", "Ada, Grace + backend").
    pub label: String,
    /// Why the account may not change it; `null`: it may.
    pub denied: Option<String>,
}

/// Why a cell may not be changed; the text is shown on the disabled cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ChannelDenied {
    #[error("This server cannot change this setting through its API (it needs feature level {0}).")]
    ServerTooOld(u32),
    #[error("Guests cannot change channel settings.")]
    Guest,
    #[error(
        "Only organization administrators and this channel's administrators can change its settings."
    )]
    NotAdministrator,
    #[error(
        "Changing who can join or add subscribers needs access to the channel's content: subscribe to it first."
    )]
    NoContentAccess,
}

/// The people and groups a table resolves names and memberships with.
#[derive(Debug, Default)]
pub(crate) struct Directory {
    names: HashMap<i64, String>,
    groups: HashMap<i64, UserGroup>,
}

impl Directory {
    fn new(register: &RegisterResponse, groups: Vec<UserGroup>) -> Self {
        let names = register
            .realm_users
            .iter()
            .chain(&register.realm_non_active_users)
            .map(|user| (user.user_id, user.full_name.clone()))
            .collect();
        let groups = groups
            .into_iter()
            .filter(|group| !group.deactivated)
            .map(|group| (group.id, group))
            .collect();
        Self { names, groups }
    }

    /// Whether the user is in the group, directly or through subgroups (each visited
    /// once: a cycle must not loop).
    fn group_holds(&self, group_id: i64, user_id: i64) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![group_id];
        while let Some(next) = stack.pop() {
            if !seen.insert(next) {
                continue;
            }
            let Some(group) = self.groups.get(&next) else {
                continue;
            };
            if group.members.contains(&user_id) {
                return true;
            }
            stack.extend(&group.direct_subgroup_ids);
        }
        false
    }

    /// Whether the setting's value includes the user.
    pub(crate) fn holds(&self, value: &GroupSetting, user_id: i64) -> bool {
        match value {
            GroupSetting::Named(id) => self.group_holds(*id, user_id),
            GroupSetting::Anonymous {
                direct_members,
                direct_subgroups,
            } => {
                direct_members.contains(&user_id)
                    || direct_subgroups
                        .iter()
                        .any(|id| self.group_holds(*id, user_id))
            }
        }
    }

    pub(crate) fn group(&self, group_id: i64) -> Option<&UserGroup> {
        self.groups.get(&group_id)
    }

    fn group_label(&self, group_id: i64) -> String {
        match self.groups.get(&group_id) {
            Some(group) if group.is_system_group => system_label(&group.name),
            Some(group) => group.name.clone(),
            None => format!("Group {group_id}"),
        }
    }

    /// What a value names, groups first, at most three names and a count of the rest.
    pub(crate) fn label(&self, value: &GroupSetting) -> String {
        const SHOWN: usize = 3;
        match value {
            GroupSetting::Named(id) => self.group_label(*id),
            GroupSetting::Anonymous {
                direct_members,
                direct_subgroups,
            } => {
                let names: Vec<String> = direct_subgroups
                    .iter()
                    .map(|id| self.group_label(*id))
                    .chain(direct_members.iter().map(|id| {
                        self.names
                            .get(id)
                            .cloned()
                            .unwrap_or_else(|| format!("User {id}"))
                    }))
                    .collect();
                match names.len() {
                    0 => "Nobody".to_owned(),
                    n if n <= SHOWN => names.join(", "),
                    n => format!("{} + {} more", names[..SHOWN].join(", "), n - SHOWN),
                }
            }
        }
    }
}

/// How Zulip's web app names its system groups.
pub fn system_label(name: &str) -> String {
    match name {
        "role:internet" => "Everyone on the internet",
        "role:everyone" => "Everyone, guests included",
        "role:members" => "Members",
        "role:fullmembers" => "Full members",
        "role:moderators" => "Moderators",
        "role:administrators" => "Administrators",
        "role:owners" => "Owners",
        "role:nobody" => "Nobody",
        other => other,
    }
    .to_owned()
}

/// A column's setting with its rules, as the planner checks values against them.
#[derive(Debug, Clone)]
pub(crate) struct Column {
    pub(crate) known: &'static KnownSetting,
    pub(crate) rules: SettingRules,
}

/// What the account is, for the permission rules.
#[derive(Debug, Clone, Copy)]
struct Account {
    user_id: i64,
    role: zulip_api::Role,
    feature_level: u32,
}

/// The table with what planning needs beside it (the directory and each column's rules).
#[derive(Debug)]
pub struct LoadedChannels {
    pub table: ChannelTable,
    pub(crate) directory: Directory,
    pub(crate) columns: Vec<Column>,
}

impl LoadedChannels {
    /// Builds the table from a `register` snapshot (`realm`, `realm_user`,
    /// `subscription`), the caller's id and role, and the groups (none when the account
    /// may not list them). Archived channels are shown as the server sends them.
    pub fn build(
        register: RegisterResponse,
        user_id: i64,
        role: zulip_api::Role,
        groups: Vec<UserGroup>,
    ) -> Self {
        let account = Account {
            user_id,
            role,
            feature_level: register.zulip_feature_level,
        };
        let columns: Vec<Column> = supported_settings(
            register.server_supported_permission_settings.as_ref(),
            account.feature_level,
        )
        .into_iter()
        .map(|(known, rules)| Column { known, rules })
        .collect();
        let directory = Directory::new(&register, groups);
        let mut options: Vec<GroupOption> = directory
            .groups
            .values()
            .map(|group| GroupOption {
                group_id: group.id,
                name: group.name.clone(),
                label: directory.group_label(group.id),
                is_system_group: group.is_system_group,
            })
            .collect();
        // System groups first, from the widest, then the others by name.
        options.sort_by(|a, b| {
            (!a.is_system_group, a.label.to_lowercase(), a.group_id).cmp(&(
                !b.is_system_group,
                b.label.to_lowercase(),
                b.group_id,
            ))
        });
        let settings = columns
            .iter()
            .map(|column| PermissionSetting {
                name: column.known.name.to_owned(),
                label: column.known.label.to_owned(),
                read_only: (account.feature_level < column.known.changed_since)
                    .then(|| ChannelDenied::ServerTooOld(column.known.changed_since).to_string()),
                choices: options
                    .iter()
                    .filter(|group| column.rules.allows(&group.name, group.is_system_group))
                    .map(|group| group.group_id)
                    .collect(),
            })
            .collect();
        let subscribed: Vec<(Stream, bool)> = register
            .subscriptions
            .into_iter()
            .map(|subscription| (subscription.stream, true))
            .chain(
                register
                    .unsubscribed
                    .into_iter()
                    .map(|subscription| (subscription.stream, false)),
            )
            .chain(register.never_subscribed.into_iter().map(|s| (s, false)))
            .collect();
        let mut seen = HashSet::new();
        let mut channels: Vec<ChannelRow> = subscribed
            .into_iter()
            .filter(|(stream, _)| seen.insert(stream.stream_id))
            .map(|(stream, subscribed)| row(&stream, subscribed, &columns, &directory, account))
            .collect();
        channels.sort_by(|a, b| {
            (a.name.to_lowercase(), a.stream_id).cmp(&(b.name.to_lowercase(), b.stream_id))
        });
        Self {
            table: ChannelTable {
                viewer: ChannelViewer {
                    user_id,
                    role: role.into(),
                    feature_level: account.feature_level,
                },
                settings,
                groups: options,
                channels,
            },
            directory,
            columns,
        }
    }

    /// The column of a setting, by Zulip's name.
    pub(crate) fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|column| column.known.name == name)
    }
}

fn privacy(stream: &Stream) -> Privacy {
    match (stream.is_web_public, stream.invite_only) {
        (true, _) => Privacy::WebPublic,
        (false, false) => Privacy::Public,
        (false, true) if stream.history_public_to_subscribers => Privacy::PrivateSharedHistory,
        (false, true) => Privacy::PrivateProtectedHistory,
    }
}

fn row(
    stream: &Stream,
    subscribed: bool,
    columns: &[Column],
    directory: &Directory,
    account: Account,
) -> ChannelRow {
    let values: HashMap<&str, GroupSetting> = stream
        .group_settings()
        .into_iter()
        .filter_map(|(name, value)| Some((name, GroupSetting::from_value(value)?)))
        .collect();
    let cells = columns
        .iter()
        .map(|column| {
            let value = values.get(column.known.name).cloned();
            let label = value
                .as_ref()
                .map_or_else(|| "Not set".to_owned(), |value| directory.label(value));
            let denied = may_change(
                stream,
                subscribed,
                column.known,
                &values,
                directory,
                account,
            )
            .err()
            .map(|denied| denied.to_string());
            ChannelCell {
                setting: column.known.name.to_owned(),
                value,
                label,
                denied,
            }
        })
        .collect();
    ChannelRow {
        stream_id: stream.stream_id,
        name: stream.name.clone(),
        description: stream.description.clone(),
        privacy: privacy(stream),
        is_archived: stream.is_archived,
        subscribed,
        cells,
    }
}

/// Zulip 10's rules for changing one setting of one channel: organization administrators
/// and members of `can_administer_channel_group` (never guests); the settings that let
/// people in also need access to the channel's content (subscribed, a public channel, or
/// a member of one of those settings).
fn may_change(
    stream: &Stream,
    subscribed: bool,
    setting: &KnownSetting,
    values: &HashMap<&str, GroupSetting>,
    directory: &Directory,
    account: Account,
) -> Result<(), ChannelDenied> {
    if account.feature_level < setting.changed_since {
        return Err(ChannelDenied::ServerTooOld(setting.changed_since));
    }
    if account.role == zulip_api::Role::Guest {
        return Err(ChannelDenied::Guest);
    }
    let holds = |name: &str| {
        values
            .get(name)
            .is_some_and(|value| directory.holds(value, account.user_id))
    };
    if !account.role.is_org_admin() && !holds("can_administer_channel_group") {
        return Err(ChannelDenied::NotAdministrator);
    }
    let content_access = subscribed
        || !stream.invite_only
        || holds("can_add_subscribers_group")
        || holds("can_subscribe_group");
    if setting.needs_content_access && !content_access {
        return Err(ChannelDenied::NoContentAccess);
    }
    Ok(())
}
