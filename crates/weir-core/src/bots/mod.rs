//! The account's bots and their keys.
//!
//! A bot's key goes from the server straight into the keyring (entry `bot-<user id>` on
//! the account's site) and leaves it only through [`BotManager::key`] (an explicit reveal
//! or copy), [`BotManager::zuliprc`], or a URL the user asked for. Keys of bots Weir has
//! not seen yet are fetched from the server and stored the same way: with
//! `GET /bots/{id}/api_key` where the server has it (Zulip 12, feature level 463, whose
//! listings carry no keys), else from `GET /bots`, which offers the keys of the caller's
//! active bots on older servers.

mod send;

use std::collections::HashMap;

use serde::Serialize;
use zulip_api::{BotType, User};

pub use send::{
    MAX_HEADERS, MAX_WEBHOOK_BODY_BYTES, NOTIFICATION_BOT_EMAIL, ResultDestination, ResultMessage,
    WebhookRequest, WebhookResult,
};

use crate::accounts::{Account, Accounts, RememberedUrl};
use crate::client::{BotInfo, NewBot, ZulipClient};
use crate::error::CoreError;
use crate::keyring::KeyringEntry;
use crate::secret::Secret;
use crate::webhook_url::{self, WebhookUrlSpec};
use crate::zuliprc;

/// Zulip's limit on a person's or bot's full name.
pub const MAX_FULL_NAME_CHARS: usize = 100;
/// A generous bound on the short name (the part before `-bot@`).
pub const MAX_SHORT_NAME_CHARS: usize = 100;

/// One bot the account owns. Never with its key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnedBot {
    pub user_id: i64,
    pub full_name: String,
    pub email: String,
    pub bot_type: BotType,
    pub is_active: bool,
    /// Whether the keyring holds its key.
    pub key_stored: bool,
}

/// A URL built for the user: shown masked, copied in full.
#[derive(Debug, Clone)]
pub struct BuiltUrl {
    pub masked: String,
    pub full: Secret,
    pub remembered: RememberedUrl,
}

/// A remembered URL with its masked rendering (for the rotation assistant).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RememberedUrlView {
    #[serde(flatten)]
    pub url: RememberedUrl,
    pub masked: String,
}

/// Bot operations for one account, through that account's client.
pub struct BotManager<'a> {
    accounts: &'a Accounts,
    account: Account,
    client: ZulipClient,
}

impl Accounts {
    /// The bots of `account`, reached through `client` (the local server's for the
    /// demo account, whose site changes at every start).
    pub fn bots(&self, account: Account, client: ZulipClient) -> BotManager<'_> {
        BotManager {
            accounts: self,
            account,
            client,
        }
    }
}

/// The keyring entry of a bot's key: user `bot-<id>` on the account's site. Ids are
/// stable where e-mail addresses may change.
fn entry(account: &Account, user_id: i64) -> KeyringEntry {
    KeyringEntry::new(account.site.clone(), format!("bot-{user_id}"))
}

impl BotManager<'_> {
    pub fn client(&self) -> &ZulipClient {
        &self.client
    }

    /// The account's bots (active and deactivated), sorted by name. Keys the server
    /// offers and the keyring lacks, or holds in an older version, are stored.
    pub async fn list(&self) -> Result<Vec<OwnedBot>, CoreError> {
        let owned = self.owned().await?;
        // Zulip 12's listings carry no keys: they are read one by one when needed.
        let offered = if self.client.supports_bot_key_endpoint().await? {
            HashMap::new()
        } else {
            self.offered_keys().await?
        };
        let mut bots = Vec::with_capacity(owned.len());
        for user in owned {
            let stored = self.stored_key(user.user_id).await?;
            let key_stored = match offered.get(&user.email.to_lowercase()) {
                Some(key) if stored.as_ref() != Some(key) => {
                    self.store_key(user.user_id, key.clone()).await?;
                    true
                }
                _ => stored.is_some(),
            };
            bots.push(owned_bot(&user, key_stored));
        }
        bots.sort_by_key(|bot| bot.full_name.to_lowercase());
        Ok(bots)
    }

    /// Creates an incoming-webhook bot; its key goes straight to the keyring.
    pub async fn create(&self, full_name: &str, short_name: &str) -> Result<OwnedBot, CoreError> {
        let full_name = full_name.trim();
        let short_name = short_name.trim();
        if full_name.is_empty() || full_name.chars().count() > MAX_FULL_NAME_CHARS {
            return Err(CoreError::InvalidInput(format!(
                "the bot's name must have 1 to {MAX_FULL_NAME_CHARS} characters"
            )));
        }
        let short_ok = short_name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if short_name.is_empty() || short_name.chars().count() > MAX_SHORT_NAME_CHARS || !short_ok {
            return Err(CoreError::InvalidInput(
                "the short name may contain only letters, digits, '-', '_' and '.'".into(),
            ));
        }
        let created = self
            .client
            .create_bot(&NewBot {
                full_name: full_name.to_owned(),
                short_name: short_name.to_owned(),
                bot_type: BotType::IncomingWebhook,
            })
            .await?;
        self.store_key(created.user_id, created.api_key).await?;
        let user = self.owned_bot_user(created.user_id).await?;
        Ok(owned_bot(&user, true))
    }

    /// The bot's key: from the keyring, else fetched from the server and stored.
    pub async fn key(&self, user_id: i64) -> Result<Secret, CoreError> {
        if let Some(key) = self.stored_key(user_id).await? {
            return Ok(key);
        }
        let user = self.owned_bot_user(user_id).await?;
        let key = if self.client.supports_bot_key_endpoint().await? {
            self.client.get_bot_key(user_id).await?
        } else {
            self.offered_keys()
                .await?
                .remove(&user.email.to_lowercase())
                .ok_or(CoreError::BotKeyMissing { user_id })?
        };
        if key.is_empty() {
            return Err(CoreError::BotKeyMissing { user_id });
        }
        self.store_key(user_id, key.clone()).await?;
        Ok(key)
    }

    /// The text of a zuliprc for the bot (it holds the key).
    pub async fn zuliprc(&self, user_id: i64) -> Result<Secret, CoreError> {
        let user = self.owned_bot_user(user_id).await?;
        let key = self.key(user_id).await?;
        Ok(zuliprc::render(&user.email, &key, self.client.site()))
    }

    /// Regenerates the key (the old one stops working at once), stores the new one, and
    /// lists the URLs Weir built for this bot: each must be pasted again.
    pub async fn regenerate_key(&self, user_id: i64) -> Result<Vec<RememberedUrlView>, CoreError> {
        self.owned_bot_user(user_id).await?;
        let key = self.client.regenerate_bot_key(user_id).await?;
        self.store_key(user_id, key).await?;
        self.remembered_urls(user_id)
    }

    pub async fn deactivate(&self, user_id: i64) -> Result<(), CoreError> {
        self.owned_bot_user(user_id).await?;
        Ok(self.client.deactivate_bot(user_id).await?)
    }

    pub async fn reactivate(&self, user_id: i64) -> Result<(), CoreError> {
        self.owned_bot_user(user_id).await?;
        Ok(self.client.reactivate_user(user_id).await?)
    }

    /// Builds a URL with the bot's key and remembers its spec (without the key).
    pub async fn build_url(
        &self,
        user_id: i64,
        spec: &WebhookUrlSpec,
    ) -> Result<BuiltUrl, CoreError> {
        let masked = webhook_url::masked(self.client.site(), spec)?;
        let key = self.key(user_id).await?;
        let full = webhook_url::build(self.client.site(), spec, &key)?;
        let remembered = self
            .accounts
            .store()
            .remember_url(self.account.id, user_id, spec)?;
        Ok(BuiltUrl {
            masked,
            full,
            remembered,
        })
    }

    /// The URLs Weir built for a bot, most recent first, masked.
    pub fn remembered_urls(&self, user_id: i64) -> Result<Vec<RememberedUrlView>, CoreError> {
        self.accounts
            .store()
            .remembered_urls(self.account.id, user_id)?
            .into_iter()
            .map(|url| {
                let masked = webhook_url::masked(self.client.site(), &url.spec)?;
                Ok(RememberedUrlView { url, masked })
            })
            .collect()
    }

    /// A remembered URL rebuilt with the bot's current key, for copying.
    pub async fn remembered_url_with_key(&self, id: i64) -> Result<Secret, CoreError> {
        let url = self
            .accounts
            .store()
            .remembered_url(self.account.id, id)?
            .ok_or_else(|| CoreError::NotFound(format!("no remembered webhook URL {id}")))?;
        let key = self.key(url.bot_user_id).await?;
        Ok(webhook_url::build(self.client.site(), &url.spec, &key)?)
    }

    /// A bot of the account and the account's own user (its owner), for previews.
    pub async fn bot_and_owner(&self, user_id: i64) -> Result<(User, User), CoreError> {
        let me = self.client.get_own_user().await?;
        let bot = self
            .client
            .get_users()
            .await?
            .into_iter()
            .find(|user| {
                user.user_id == user_id
                    && user.bot_type.is_some()
                    && user.bot_owner_id == Some(me.user_id)
            })
            .ok_or_else(|| CoreError::NotFound(format!("bot {user_id} is not one of your bots")))?;
        Ok((bot, me))
    }

    /// The account's own bots, from the user list (`GET /bots` on real servers has no
    /// ids, types or deactivated bots).
    async fn owned(&self) -> Result<Vec<User>, CoreError> {
        let me = self.client.get_own_user().await?;
        let users = self.client.get_users().await?;
        Ok(users
            .into_iter()
            .filter(|user| user.bot_type.is_some() && user.bot_owner_id == Some(me.user_id))
            .collect())
    }

    /// One of the account's bots, or [`CoreError::NotFound`]: the commands act only on
    /// bots the account owns.
    async fn owned_bot_user(&self, user_id: i64) -> Result<User, CoreError> {
        self.owned()
            .await?
            .into_iter()
            .find(|user| user.user_id == user_id)
            .ok_or_else(|| CoreError::NotFound(format!("bot {user_id} is not one of your bots")))
    }

    /// Keys `GET /bots` offers, by lower-cased e-mail: none on Zulip 12, whose listings
    /// carry no keys (they are read one by one, on demand, in [`BotManager::key`]).
    async fn offered_keys(&self) -> Result<HashMap<String, Secret>, CoreError> {
        let bots: Vec<BotInfo> = self.client.list_bots().await?;
        Ok(bots
            .into_iter()
            .filter_map(|bot| {
                let key = bot.api_key.filter(|key| !key.is_empty())?;
                Some((bot.email.to_lowercase(), key))
            })
            .collect())
    }

    async fn stored_key(&self, user_id: i64) -> Result<Option<Secret>, CoreError> {
        let target = entry(&self.account, user_id);
        self.accounts
            .with_secrets(move |secrets| secrets.get(&target))
            .await
    }

    async fn store_key(&self, user_id: i64, key: Secret) -> Result<(), CoreError> {
        let target = entry(&self.account, user_id);
        self.accounts
            .with_secrets(move |secrets| secrets.set(&target, &key))
            .await
    }
}

fn owned_bot(user: &User, key_stored: bool) -> OwnedBot {
    OwnedBot {
        user_id: user.user_id,
        full_name: user.full_name.clone(),
        email: user.email.clone(),
        bot_type: user.bot_type.unwrap_or(BotType::Generic),
        is_active: user.is_active,
        key_stored,
    }
}
