//! `POST /api/v1/external/<integration>`: Zulip's incoming-webhook endpoint.
//!
//! Order, as in Zulip: authenticate the bot; read the body; let the integration
//! (`weir-integrations`, pure code) find the event type, build its message and apply
//! `only_events`/`exclude_events` (a missing event header tells the owner and fails; an
//! unsupported event is a 200 so that services keep the webhook enabled); render the
//! messages as the bot sees the organization (where the request runs when that is
//! quick, else on the render pool: `compose::render_drafts`); then, in one write,
//! resolve the destination and store the messages (one, or one per change of a
//! Bitbucket push, as Zulip sends them) before answering, and the owner's notices in a
//! write after it. Everything between reading the body and rendering is
//! [`crate::webhook::plan`], shared with the dry run.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rusqlite::Connection;
use serde_json::{Value, json};
use weir_integrations::{self as integrations, AuthScheme, Integration};
use zulip_api::ZulipErrorCode;

use crate::AppState;
use crate::clock::now_unix;
use crate::compose::{Destination, Notice, Outgoing, deliver_notices, render_drafts, send};
use crate::error::{ApiError, Error};
use crate::http::auth::{add_quota_headers, authenticate, rate_limited};
use crate::http::auth_failures::{client_key, count_failure, refuse_if_over};
use crate::http::params::{Params, read_body};
use crate::rules::access::{SendAccess, send_access};
use crate::rules::keys::{has_api_key_format, keys_match};
use crate::store::{self, PostTarget, PostTargets, StreamRef, UserRow};
use crate::webhook::notices::missing_channel_notice;
use crate::webhook::plan::{
    ACCEPTED_JSON, Plan, find_integration, is_form, is_stream_id, missing_header_error, plan,
    unsupported_body,
};

/// Payloads up to this size are parsed where they arrive (well under a millisecond);
/// larger ones on a blocking thread. Messages that could render slowly (math, code,
/// long) or name someone render on the render pool (`compose::render_drafts`).
const INLINE_BODY_BYTES: usize = 64 * 1024;

/// Takes the request whole rather than through the `HeaderMap`, `Uri` and `Extension`
/// extractors, which clone what they extract: this runs for every webhook.
pub async fn receive(
    State(state): State<AppState>,
    Path(name): Path<String>,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    // Failed keys count against the client's address, as for the REST API; the key
    // is only worked out while failures are being counted (rate limiting on).
    let client = state.auth_failures().map(|_| client_key(&parts.extensions));
    if let Some(refused) = client.and_then(|client| refuse_if_over(&state, client)) {
        return refused;
    }
    match handle(&state, &name, &parts.headers, &parts.uri, body).await {
        Ok(response) => response,
        Err(error) => {
            if let Some(client) = client
                && error.is_authentication_failure()
            {
                count_failure(&state, client);
            }
            error.into_response()
        }
    }
}

async fn handle(
    state: &AppState,
    name: &str,
    headers: &HeaderMap,
    uri: &axum::http::Uri,
    body: Body,
) -> Result<Response, Error> {
    let integration = find_integration(name)?;
    let mut query = Params::from_query(uri.query().unwrap_or_default());
    // The sender is checked before the body is read whenever the body cannot hold the
    // key, so that nobody without one gets to upload megabytes.
    let known_sender = match integration.auth {
        AuthScheme::BasicAuth => Some(authenticate(state, headers).await?),
        AuthScheme::ApiKey if query.has("api_key") || !is_form(headers) => {
            Some(bot_by_api_key(state, query.take_str("api_key")).await?)
        }
        AuthScheme::ApiKey => None,
    };
    // Before a key is known, the body comes out of the unauthenticated budget, whose
    // share is held until the answer.
    let (body, _share) = match known_sender {
        Some(_) => (read_body(body).await?, None),
        None => {
            let budgeted = state.unauthenticated_bodies().read(headers, body).await?;
            (budgeted.bytes, budgeted.share)
        }
    };
    if is_form(headers) {
        query.merge_missing_form(&body);
    }
    let sender = match known_sender {
        Some(sender) => sender,
        None => bot_by_api_key(state, query.take_str("api_key")).await?,
    };
    let quota = match state.limiter().map(|limiter| limiter.check(sender.user_id)) {
        Some(Err(exceeded)) => return Ok(rate_limited(exceeded)),
        Some(Ok(quota)) => Some(quota),
        None => None,
    };
    let mut response = deliver(
        state,
        integration,
        sender,
        headers,
        uri.path(),
        &body,
        query,
    )
    .await?;
    if let Some(quota) = quota {
        add_quota_headers(response.headers_mut(), quota);
    }
    Ok(response)
}

/// Webhook authentication by `api_key`, with the webhook error codes.
async fn bot_by_api_key(state: &AppState, api_key: Option<String>) -> Result<Arc<UserRow>, Error> {
    let api_key = api_key.ok_or_else(|| ApiError::missing_argument("api_key"))?;
    let invalid =
        |msg: &str| ApiError::new(StatusCode::UNAUTHORIZED, ZulipErrorCode::InvalidApiKey, msg);
    if !has_api_key_format(&api_key) {
        return Err(invalid("Malformed API key").into());
    }
    let user = state
        .store()
        .cached_user_by_api_key(&api_key)
        .await?
        .filter(|user| !user.is_system_bot && keys_match(&api_key, &user.api_key))
        .ok_or_else(|| invalid("Invalid API key"))?;
    if !user.is_active {
        let msg = "Account is deactivated";
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            ZulipErrorCode::UserDeactivated,
            msg,
        )
        .into());
    }
    Ok(user)
}

async fn deliver(
    state: &AppState,
    integration: &'static Integration,
    sender: Arc<UserRow>,
    headers: &HeaderMap,
    path: &str,
    body: &Bytes,
    query: Params,
) -> Result<Response, Error> {
    // Parsing a large payload is CPU work: off the async threads.
    let planned = if body.len() <= INLINE_BODY_BYTES {
        plan(integration, headers, body, query)?
    } else {
        let (headers, body) = (headers.clone(), body.clone());
        tokio::task::spawn_blocking(move || plan(integration, &headers, &body, query))
            .await
            .map_err(|error| Error::Internal(format!("webhook processing stopped: {error}")))??
    };
    let (stream, messages, then) = match planned {
        Plan::Post {
            stream,
            messages,
            then,
        } => (stream, messages, then),
        Plan::Accepted => return Ok(accepted()),
        Plan::Unsupported { event } => return Ok(unsupported_event(integration, &event)),
        Plan::MissingHeader { header } => {
            return Err(missing_event_header(state, integration, sender, path, header).await);
        }
    };
    let messages = render_drafts(state.store(), &sender, messages).await?;
    let via = Via {
        client: integration.client_name(),
        level: state.feature_level(),
    };
    let targets = state.store().post_targets();
    let notices = state
        .store()
        .write(move |conn| {
            let stream = stream.as_deref();
            let mut notices = Vec::new();
            for message in &messages {
                post(conn, &targets, &sender, stream, message, &via, &mut notices)?;
            }
            Ok::<_, Error>(notices)
        })
        .await?;
    deliver_notices(state.store(), notices).await?;
    match then {
        Some(error) => Err(error.into()),
        None => Ok(accepted()),
    }
}

/// How a delivery's messages are sent: the client they are recorded from, and the
/// level whose rules apply.
struct Via {
    client: String,
    level: u32,
}

fn accepted() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], ACCEPTED_JSON).into_response()
}

/// Zulip's answer to an event the integration does not handle: 200, nothing sent.
fn unsupported_event(integration: &Integration, event: &str) -> Response {
    (
        StatusCode::OK,
        axum::Json(unsupported_body(integration, event)),
    )
        .into_response()
}

async fn missing_event_header(
    state: &AppState,
    integration: &Integration,
    sender: Arc<UserRow>,
    path: &str,
    header: &'static str,
) -> Error {
    let text = integration.missing_header_notice(&sender.full_name, path, header);
    let claimed = state
        .store()
        .write(move |conn| {
            let mut notices = Vec::new();
            alert_owner(conn, &sender, &text, now_unix(), &mut notices)?;
            Ok::<_, Error>(notices)
        })
        .await;
    let notified = match claimed {
        Ok(notices) => deliver_notices(state.store(), notices).await,
        Err(error) => Err(error),
    };
    if let Err(error) = notified {
        return error;
    }
    missing_header_error(header).into()
}

/// Who hears about a bot's mistakes: its owner. Humans posting with their own key are
/// not told, as in Zulip.
fn owner_of(sender: &UserRow) -> Option<i64> {
    sender.bot_type.and(sender.bot_owner_id)
}

/// Tells a bot's owner about a failed delivery, at most once per bot every five minutes
/// (Zulip's `send_rate_limited_pm_notification_to_bot_owner`): claims the turn inside
/// the write, and adds the notice to `notices`, to render and store after it.
fn alert_owner(
    conn: &Connection,
    sender: &UserRow,
    text: &str,
    now: i64,
    notices: &mut Vec<Notice>,
) -> Result<(), Error> {
    if let Some(owner) = owner_of(sender)
        && store::claim_bot_owner_alert(conn, sender.user_id, now)?
    {
        notices.push(Notice {
            recipients: vec![owner],
            text: text.to_owned(),
            seen_by: None,
        });
    }
    Ok(())
}

/// Resolves the destination and stores the one message; any owner notice goes to
/// `notices`.
fn post(
    conn: &Connection,
    targets: &PostTargets,
    sender: &UserRow,
    stream: Option<&str>,
    message: &Outgoing,
    via: &Via,
    notices: &mut Vec<Notice>,
) -> Result<(), Error> {
    let client = via.client.as_str();
    let now = now_unix();
    let Some(stream_spec) = stream else {
        // No stream: a direct message to the bot's owner (a human's key: to themself).
        let recipient = owner_of(sender).unwrap_or(sender.user_id);
        send(
            conn,
            sender.user_id,
            Destination::Direct(recipient),
            message,
            client,
            now,
        )?;
        return Ok(());
    };
    let by_id = is_stream_id(stream_spec);
    let found = if by_id {
        match stream_spec.parse() {
            Ok(id) => targets.get(conn, StreamRef::Id(id))?,
            Err(_) => None,
        }
    } else {
        targets.get(conn, StreamRef::Name(stream_spec.trim()))?
    };
    let found = match found {
        Some(stream) => match access(conn, sender, &stream)? {
            SendAccess::Hidden => None,
            access => {
                // `can_send_message_group` first, as Zulip checks it.
                if stream.restricts_posting {
                    super::channel_groups::check_may_post_by_id(conn, sender, stream.stream_id)?;
                }
                if access == SendAccess::Refused {
                    return Err(super::send::not_authorized(&stream.name).into());
                }
                super::topics_policy::check_topic(
                    stream.topics_policy.as_deref(),
                    &message.topic,
                    via.level,
                )?;
                Some(stream)
            }
        },
        None => None,
    };
    let Some(stream) = found else {
        if owner_of(sender).is_some() {
            let text = missing_channel_notice(&sender.email, stream_spec);
            alert_owner(conn, sender, &text, now, notices)?;
        }
        return Ok(());
    };
    send(
        conn,
        sender.user_id,
        Destination::Stream(stream.stream_id),
        message,
        client,
        now,
    )?;
    if owner_of(sender).is_some() && !stream.has_subscribers {
        let text = format!(
            "Your bot `{}` tried to send a message to channel #**{}**. The channel exists but \
             does not have any subscribers.",
            sender.email, stream.name
        );
        alert_owner(conn, sender, &text, now, notices)?;
    }
    Ok(())
}

/// The one sending rule ([`send_access`]), as for `POST /messages`.
fn access(conn: &Connection, sender: &UserRow, stream: &PostTarget) -> Result<SendAccess, Error> {
    // The common case answers without a lookup: anyone but a guest posts to a public
    // stream, whatever the subscriptions say.
    if !stream.invite_only && !sender.is_guest() {
        return Ok(send_access(sender, false, false, false));
    }
    let subscribed = store::is_subscribed(conn, sender.user_id, stream.stream_id)?;
    let owner_subscribed = match sender.bot_owner_id {
        Some(owner) if !subscribed => store::is_subscribed(conn, owner, stream.stream_id)?,
        _ => false,
    };
    Ok(send_access(
        sender,
        stream.invite_only,
        subscribed,
        owner_subscribed,
    ))
}

/// `GET /api/v1/integrations` (Weir extension): the registry, for the preview tools.
pub async fn list_integrations(params: Params) -> super::ApiResult {
    let integrations: Vec<Value> = integrations::registry()
        .iter()
        .map(|integration| {
            let mut value = serde_json::to_value(integration).unwrap_or(Value::Null);
            if let Some(fields) = value.as_object_mut() {
                fields.insert("client_name".into(), json!(integration.client_name()));
                fields.insert(
                    "url_path".into(),
                    json!(format!("/api/v1/external/{}", integration.name)),
                );
            }
            value
        })
        .collect();
    super::success(
        json!({ "integrations": integrations }),
        params.into_ignored(),
    )
}
