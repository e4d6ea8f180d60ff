//! The organization as a webhook bot sees it, for the dry run's mentions and channel
//! links, built from the account's copy of it (the memberships grid: people, channels
//! with their subscribers, groups).
//!
//! Why not the server's `POST /messages/render`: it renders as the account, not as the
//! bot, so it would link private channels the bot cannot read; and the dry run renders
//! in-process with the server's own renderer so that it works offline and matches what
//! the local server stores. The copy can be older than the server (a person added since
//! it was loaded renders as plain text until the grid is reloaded), and it holds active
//! groups only, so a deactivated group's mention renders as plain text where Zulip
//! renders it silent.

use std::collections::HashMap;

use weir_core::memberships::Matrix;
use weir_server::render::Directory;
use zulip_api::Role;

/// Names to ids, each map keyed by the lower-cased name (Zulip matches names
/// case-insensitively).
#[derive(Debug, Default)]
pub struct BotDirectory {
    /// Active people (bots included), by name: several when names collide.
    users: HashMap<String, Vec<(i64, String)>>,
    /// Channels the bot may read: public ones (unless it is a guest) and those it is
    /// subscribed to, as Zulip's `#**name**` links only those.
    streams: HashMap<String, (i64, String)>,
    groups: HashMap<String, (i64, String)>,
    realm_url: String,
}

impl BotDirectory {
    /// `bot_user_id`'s view of the organization in `matrix`; `site` is the organization's
    /// URL, whose links Zulip makes relative.
    pub fn new(matrix: &Matrix, bot_user_id: i64, site: &str) -> Self {
        let mut directory = Self {
            realm_url: site.trim_end_matches('/').to_owned(),
            ..Self::default()
        };
        for person in matrix.people().iter().filter(|p| p.is_active) {
            directory
                .users
                .entry(person.full_name.to_lowercase())
                .or_default()
                .push((person.user_id, person.full_name.clone()));
        }
        let bot = matrix.person(bot_user_id);
        let guest = bot.is_some_and(|(_, person)| person.role == Role::Guest);
        for (at, channel) in matrix.channels().iter().enumerate() {
            let subscribed = match (bot, u32::try_from(at)) {
                (Some((person, _)), Ok(at)) => matrix.is_subscribed_at(person, at),
                _ => false,
            };
            if subscribed || (!channel.invite_only && !guest) {
                directory.streams.insert(
                    channel.name.to_lowercase(),
                    (channel.stream_id, channel.name.clone()),
                );
            }
        }
        for group in matrix.groups().list() {
            directory.groups.insert(
                group.name.to_lowercase(),
                (group.group_id, group.name.clone()),
            );
        }
        directory
    }
}

impl Directory for BotDirectory {
    fn user(&self, name: &str, id: Option<i64>) -> Option<(i64, String)> {
        let named = self.users.get(&name.trim().to_lowercase())?;
        match id {
            Some(id) => named.iter().find(|(user_id, _)| *user_id == id).cloned(),
            // A name alone must be unambiguous, as in Zulip.
            None => match named.as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            },
        }
    }

    fn stream(&self, name: &str) -> Option<(i64, String)> {
        self.streams.get(&name.trim().to_lowercase()).cloned()
    }

    fn realm_url(&self) -> Option<String> {
        Some(self.realm_url.clone())
    }

    fn group(&self, name: &str) -> Option<(i64, String)> {
        self.groups.get(&name.to_lowercase()).cloned()
    }
}
