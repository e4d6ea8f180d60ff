//! What crosses the IPC boundary. TypeScript types are generated from these (ts-rs) into
//! `ui/src/lib/bindings/`; `tests/bindings.rs` fails when the committed files are stale.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
pub use weir_core::organization::{BotSummary, BotType, OrganizationOverview, Role, UserSummary};

mod bots;

pub use bots::*;

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountSummary {
    #[ts(type = "number")]
    pub id: i64,
    pub label: String,
    pub site: String,
    pub email: String,
    pub is_demo: bool,
    pub is_active: bool,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RequestLogEntry {
    #[ts(type = "number")]
    pub id: u64,
    pub method: String,
    pub path: String,
    pub status: u16,
    pub duration_ms: f64,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub at: i64,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RequestLogSinceRequest {
    /// The newest request id the page has.
    #[ts(type = "number")]
    pub since_id: u64,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LocalServerStatus {
    pub running: bool,
    pub url: Option<String>,
    pub data_dir: String,
    /// Unix milliseconds.
    #[ts(type = "number | null")]
    pub started_at: Option<i64>,
    pub requests: Vec<RequestLogEntry>,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KeyringStatus {
    pub available: bool,
    /// How to fix it, when unavailable.
    pub message: Option<String>,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppStatus {
    #[ts(type = "number | null")]
    pub active_account_id: Option<i64>,
    pub accounts: Vec<AccountSummary>,
    pub local_server: LocalServerStatus,
    pub keyring: KeyringStatus,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AddAccountRequest {
    pub site: String,
    pub email: String,
    /// Moves straight into the keyring; never stored or logged elsewhere.
    pub api_key: String,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportZuliprcRequest {
    pub path: String,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportZuliprcResponse {
    pub account: AccountSummary,
    pub path: String,
    pub can_delete_file: bool,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PathRequest {
    pub path: String,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountIdRequest {
    #[ts(type = "number")]
    pub id: i64,
}

/// One IPC type as `(file name, TypeScript)`.
pub(crate) fn one<T: TS + 'static + ?Sized>(config: &ts_rs::Config) -> (String, String) {
    let body = T::export_to_string(config)
        .unwrap_or_else(|error| format!("// failed to export {}: {error}\n", T::name(config)));
    (format!("{}.ts", T::name(config)), body)
}

/// Renders every IPC type as `(file name, TypeScript)`, for the bindings files.
pub fn typescript_bindings() -> Vec<(String, String)> {
    let config = ts_rs::Config::default();
    let mut bindings = vec![
        one::<AccountSummary>(&config),
        one::<RequestLogEntry>(&config),
        one::<LocalServerStatus>(&config),
        one::<RequestLogSinceRequest>(&config),
        one::<KeyringStatus>(&config),
        one::<AppStatus>(&config),
        one::<AddAccountRequest>(&config),
        one::<ImportZuliprcRequest>(&config),
        one::<ImportZuliprcResponse>(&config),
        one::<PathRequest>(&config),
        one::<AccountIdRequest>(&config),
        one::<UserSummary>(&config),
        one::<OrganizationOverview>(&config),
        one::<BotSummary>(&config),
        one::<Role>(&config),
        one::<BotType>(&config),
        one::<CreateBotRequest>(&config),
        one::<BotIdRequest>(&config),
        one::<RememberedIdRequest>(&config),
        one::<WebhookUrlSpec>(&config),
        one::<PreviewUrlRequest>(&config),
        one::<WebhookUrlRequest>(&config),
        one::<RememberedWebhookUrl>(&config),
        one::<UrlOptionSummary>(&config),
        one::<FixtureSummary>(&config),
        one::<IntegrationSummary>(&config),
        one::<WebhookSendRequest>(&config),
        one::<ResultMessage>(&config),
        one::<WebhookSendResult>(&config),
        one::<RenderComparison>(&config),
        one::<DryRunResult>(&config),
        one::<crate::error::IpcError>(&config),
        one::<weir_core::IpcErrorCode>(&config),
        command_names(),
    ];
    bindings.extend(crate::memberships::dto::typescript_bindings(&config));
    bindings
}

/// `CommandName.ts`: the names of [`crate::commands::COMMANDS`] as a union, so that the
/// UI's command table fails to type-check when it lacks one or has one too many.
fn command_names() -> (String, String) {
    let names: Vec<String> = crate::commands::COMMANDS
        .iter()
        .map(|name| format!("\"{name}\""))
        .collect();
    let body = format!(
        "// Generated from src-tauri/src/commands/list.rs by src-tauri/src/dto.rs. Do not edit \
         this file manually.\n\n/**\n * Every IPC command the app registers.\n */\nexport type \
         CommandName = {};\n",
        names.join(" | ")
    );
    ("CommandName.ts".to_owned(), body)
}
