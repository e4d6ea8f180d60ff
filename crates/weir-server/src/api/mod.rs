//! Routes of the REST API, one module per domain.

mod bot_status;
mod bots;
mod channel_folders;
mod channel_groups;
mod channel_settings;
mod dto;
mod group_access;
mod group_members;
mod group_mentions;
mod message_fetch;
mod principals;
mod reads;
mod realm_state;
mod register;
mod send;
mod settings;
mod subscribe;
mod topics_policy;
mod unsubscribe;
mod user_groups;
mod webhook_bots;
pub(crate) mod webhooks;

use axum::Json;
use axum::Router;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::AppState;
use crate::error::{ApiError, Error};
use crate::http::auth::require_auth;

/// The API's routes, spelled out under `/api/v1` rather than nested: a nested router
/// rewrites every request's URI, which showed in webhook-ingest profiles.
pub fn routes(state: AppState) -> Router {
    let authenticated = Router::new()
        .route("/api/v1/users", get(reads::get_users))
        .route("/api/v1/users/me", get(reads::get_own_user))
        .route("/api/v1/users/{user_id_or_email}", get(reads::get_user))
        .route("/api/v1/streams", get(reads::get_streams))
        .route(
            "/api/v1/streams/{stream_id}",
            patch(channel_settings::update),
        )
        .route(
            "/api/v1/streams/{stream_id}/members",
            get(reads::get_stream_members),
        )
        .route("/api/v1/get_stream_id", get(reads::get_stream_id))
        .route(
            "/api/v1/channel_folders",
            get(channel_folders::list).patch(channel_folders::reorder),
        )
        .route(
            "/api/v1/channel_folders/create",
            post(channel_folders::create),
        )
        .route(
            "/api/v1/channel_folders/{folder_id}",
            patch(channel_folders::update),
        )
        .route(
            "/api/v1/users/me/subscriptions",
            get(reads::get_subscriptions)
                .post(subscribe::subscribe)
                .delete(unsubscribe::unsubscribe),
        )
        .route("/api/v1/bots", get(bots::list_bots).post(bots::create_bot))
        .route(
            "/api/v1/bots/{bot_id}",
            axum::routing::delete(bot_status::deactivate_bot),
        )
        .route(
            "/api/v1/users/{user_id}/reactivate",
            post(bot_status::reactivate_user),
        )
        .route("/api/v1/bots/{bot_id}/api_key", get(bots::get_bot_key))
        .route(
            "/api/v1/bots/{bot_id}/api_key/regenerate",
            post(bots::regenerate_bot_key),
        )
        .route(
            "/api/v1/users/me/api_key/regenerate",
            post(bots::regenerate_own_key),
        )
        .route("/api/v1/register", post(register::register))
        .route("/api/v1/settings", patch(settings::update_settings))
        .route(
            "/api/v1/events",
            axum::routing::delete(register::delete_queue),
        )
        .route(
            "/api/v1/messages",
            get(message_fetch::get_messages).post(send::send_message),
        )
        .route(
            "/api/v1/messages/render",
            post(message_fetch::render_message),
        )
        .route("/api/v1/integrations", get(webhooks::list_integrations))
        .route("/api/v1/user_groups", get(user_groups::list))
        .route("/api/v1/user_groups/create", post(user_groups::create))
        .route(
            "/api/v1/user_groups/{group_id}",
            axum::routing::patch(user_groups::update),
        )
        .route(
            "/api/v1/user_groups/{group_id}/deactivate",
            post(user_groups::deactivate),
        )
        .route(
            "/api/v1/user_groups/{group_id}/members",
            get(group_members::members).post(group_members::update_members),
        )
        .route(
            "/api/v1/user_groups/{group_id}/members/{user_id}",
            get(group_members::is_member),
        )
        .route(
            "/api/v1/user_groups/{group_id}/subgroups",
            get(group_members::subgroups).post(group_members::update_subgroups),
        )
        .route_layer(middleware::from_fn_with_state(state.clone(), require_auth));
    Router::new()
        .route(
            "/api/v1/server_settings",
            get(reads::server_settings).post(reads::server_settings),
        )
        .route("/api/v1/external/{integration}", post(webhooks::receive))
        .merge(authenticated)
        .fallback(|| async { ApiError::not_found() })
        .method_not_allowed_fallback(|| async {
            ApiError::bad_request("Method Not Allowed")
                .status(axum::http::StatusCode::METHOD_NOT_ALLOWED)
        })
        // Bodies are bounded by `params::read_body`; axum's own 2 MiB default would
        // refuse multipart bodies that form bodies of the same size pass.
        .layer(axum::extract::DefaultBodyLimit::max(
            crate::http::params::MAX_BODY_BYTES,
        ))
        .with_state(state)
}

pub type ApiResult = Result<Json<Value>, Error>;

/// [`success`] for a possibly large answer: when `heavy`, the JSON is built and
/// serialized on a blocking thread (a million subscriptions make megabytes of it).
pub async fn success_weighted<T>(
    heavy: bool,
    data: T,
    ignored: Vec<String>,
) -> Result<Response, Error>
where
    T: Serialize + Send + 'static,
{
    let respond = move || success(data, ignored).map(IntoResponse::into_response);
    if !heavy {
        return respond();
    }
    tokio::task::spawn_blocking(respond)
        .await
        .map_err(|error| Error::Internal(format!("serializing stopped: {error}")))?
}

/// Zulip's success envelope, with `ignored_parameters_unsupported` when there were any.
pub fn success(data: impl Serialize, ignored: Vec<String>) -> ApiResult {
    let mut body = Map::new();
    body.insert("result".into(), json!("success"));
    body.insert("msg".into(), json!(""));
    match serde_json::to_value(data) {
        Ok(Value::Object(fields)) => body.extend(fields),
        Ok(Value::Null) => {}
        Ok(other) => {
            body.insert("data".into(), other);
        }
        Err(error) => return Err(Error::Internal(error.to_string())),
    }
    if !ignored.is_empty() {
        body.insert("ignored_parameters_unsupported".into(), json!(ignored));
    }
    Ok(Json(Value::Object(body)))
}
