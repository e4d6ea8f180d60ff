//! Routes of the REST API, one module per domain.

mod bots;
mod messages;
mod principals;
mod reads;
mod register;
mod subscribe;
mod unsubscribe;
mod webhooks;

use axum::Json;
use axum::Router;
use axum::middleware;
use axum::routing::{get, post};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::AppState;
use crate::auth::require_auth;
use crate::error::{ApiError, Error};

pub fn routes(state: AppState) -> Router {
    let authenticated = Router::new()
        .route("/users", get(reads::get_users))
        .route("/users/me", get(reads::get_own_user))
        .route("/streams", get(reads::get_streams))
        .route(
            "/streams/{stream_id}/members",
            get(reads::get_stream_members),
        )
        .route("/get_stream_id", get(reads::get_stream_id))
        .route(
            "/users/me/subscriptions",
            get(reads::get_subscriptions)
                .post(subscribe::subscribe)
                .delete(unsubscribe::unsubscribe),
        )
        .route("/bots", get(bots::list_bots).post(bots::create_bot))
        .route(
            "/bots/{bot_id}/api_key/regenerate",
            post(bots::regenerate_bot_key),
        )
        .route(
            "/users/me/api_key/regenerate",
            post(bots::regenerate_own_key),
        )
        .route("/register", post(register::register))
        .route("/messages", get(messages::get_messages))
        .route("/messages/render", post(messages::render_message))
        .route("/integrations", get(webhooks::list_integrations))
        .route_layer(middleware::from_fn_with_state(state.clone(), require_auth));
    let api = Router::new()
        .route(
            "/server_settings",
            get(reads::server_settings).post(reads::server_settings),
        )
        .route("/external/{integration}", post(webhooks::receive))
        .merge(authenticated);
    Router::new()
        .nest("/api/v1", api)
        .fallback(|| async { ApiError::not_found() })
        .method_not_allowed_fallback(|| async {
            ApiError::bad_request("Method Not Allowed")
                .status(axum::http::StatusCode::METHOD_NOT_ALLOWED)
        })
        .with_state(state)
}

pub type ApiResult = Result<Json<Value>, Error>;

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
