//! `PATCH /settings`: the caller's own settings. Weir keeps the one that changes what
//! the server does, `translate_emoticons` (applied when the caller's messages are
//! rendered); Zulip's other settings are reported back as unsupported.

use axum::extract::State;
use serde_json::json;

use super::{ApiResult, success};
use crate::AppState;
use crate::error::Error;
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::store;

pub async fn update_settings(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let translate = if params.has("translate_emoticons") {
        Some(params.take_bool("translate_emoticons", false)?)
    } else {
        None
    };
    let ignored = params.into_ignored();
    if let Some(on) = translate {
        let user_id = caller.user_id;
        state
            .store()
            .write(move |conn| {
                store::set_translate_emoticons(conn, user_id, on)?;
                Ok::<_, Error>(())
            })
            .await?;
    }
    success(json!({}), ignored)
}
