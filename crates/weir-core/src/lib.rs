//! Weir's application core, with no Tauri and no axum inside: accounts (SQLite),
//! secrets (the system keyring), zuliprc files and the Zulip client (reqwest).
//!
//! - [`secret::Secret`]: an API key that does not print and does not serialize.
//! - [`keyring`]: [`SecretStore`] with [`KeyringStore`] and [`MemoryStore`]; a
//!   [`KeyringEntry`] names one key.
//! - [`zuliprc`]: parsing the file Zulip offers for download.
//! - [`client::ZulipClient`]: typed calls, auth, retries, rate limits, feature levels.
//! - [`accounts`]: [`AccountStore`] and the [`Accounts`] service.
//! - [`memberships`]: the people × streams grid: rules, planner, applier, journal, CSV.
//! - [`bots`]: the account's bots, their keys (keyring only) and the webhook workbench.
//! - [`webhook_url`]: incoming-webhook URLs, built and masked.
//! - [`webhook_catalog`]: the connected server's integrations, read from `register`.
//! - [`organization`]: the overview (people, channels with subscribers) and own bots.
//! - [`error::CoreError`]: the crate's error, with a stable [`error::IpcErrorCode`].
//! - [`clock`]: the wall clock as Unix time.

pub mod accounts;
pub mod bots;
pub mod channels;
pub mod client;
pub mod clock;
pub mod error;
pub mod keyring;
pub mod memberships;
pub mod organization;
pub mod pipeline;
pub mod secret;
pub mod site;
mod sqlite;
#[cfg(test)]
mod test_support;
pub mod webhook_catalog;
pub mod webhook_url;
pub mod zuliprc;

pub use accounts::{
    Account, AccountRecord, AccountStore, Accounts, ImportedZuliprc, NewAccount, delete_zuliprc,
};
pub use client::{
    Anchor, BotInfo, ClientConfig, ClientError, CreatedBot, Credentials, MessagesQuery, NarrowTerm,
    NewBot, NewSubscription, Principals, TlsOptions, ZulipClient,
};
pub use error::{CoreError, IpcErrorCode};
pub use secret::Secret;
// `crate::`: a bare `keyring` would also name the keyring crate.
pub use crate::keyring::{KeyringEntry, KeyringStore, MemoryStore, SecretError, SecretStore};
pub use site::{InvalidSite, normalize_site};
pub use zuliprc::{Zuliprc, ZuliprcError};
