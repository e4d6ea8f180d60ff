//! Channel folders (Zulip 11, feature levels 389 and 414): `POST /channel_folders/create`,
//! `GET /channel_folders`, `PATCH /channel_folders/{id}` and `PATCH /channel_folders`
//! (reordering), with Zulip's rules and texts (`zerver/views/channel_folders.py`).

use axum::extract::{Path, State};
use rusqlite::Connection;
use serde_json::{Value, json};
use zulip_api::ZulipErrorCode;

use super::{ApiResult, success};
use crate::AppState;
use crate::clock::now_unix;
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::store::{self, FolderRow, UserRow};

/// Folders, their endpoints, `folder_id` and `register`'s `channel_folders`.
pub const FOLDERS_LEVEL: u32 = 389;
/// A folder's `order`, reordering, and listings sorted by it.
pub const ORDER_LEVEL: u32 = 414;
/// Zulip's `ChannelFolder.MAX_NAME_LENGTH` and `MAX_DESCRIPTION_LENGTH`.
pub const MAX_FOLDER_NAME_CHARS: usize = 60;
pub const MAX_FOLDER_DESCRIPTION_CHARS: usize = 1024;

/// Below [`FOLDERS_LEVEL`] the endpoints do not exist.
fn check_level(state: &AppState) -> Result<u32, ApiError> {
    let level = state.feature_level();
    if level < FOLDERS_LEVEL {
        return Err(ApiError::not_found());
    }
    Ok(level)
}

/// Zulip's `require_realm_admin`.
fn require_admin(caller: &UserRow) -> Result<(), ApiError> {
    if caller.is_org_admin() {
        return Ok(());
    }
    Err(
        ApiError::bad_request("Must be an organization administrator")
            .code(ZulipErrorCode::UnauthorizedPrincipal),
    )
}

fn check_length(name: &str, value: &str, limit: usize) -> Result<(), ApiError> {
    if value.chars().count() > limit {
        return Err(ApiError::bad_request(format!(
            "{name} is too long (limit: {limit} characters)"
        )));
    }
    Ok(())
}

/// Zulip's `check_channel_folder_name`: not blank, printable, not taken (archived
/// folders included, whatever the case).
fn check_name(conn: &Connection, name: &str) -> Result<(), Error> {
    if name.trim().is_empty() {
        return Err(ApiError::bad_request("Channel folder name can't be empty.").into());
    }
    if let Some(position) = name.chars().position(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "Invalid character in channel folder name, at position {}.",
            position + 1
        ))
        .into());
    }
    if store::folder_name_taken(conn, name)? {
        return Err(
            ApiError::bad_request(format!("Channel folder '{name}' already exists")).into(),
        );
    }
    Ok(())
}

/// Zulip's `get_channel_folder_by_id`.
pub fn folder(conn: &Connection, folder_id: i64) -> Result<FolderRow, Error> {
    store::folder_by_id(conn, folder_id)?
        .ok_or_else(|| ApiError::bad_request("Invalid channel folder ID").into())
}

/// A folder as the API shows it at `level`.
pub fn folder_json(folder: &FolderRow, level: u32) -> Value {
    let mut value = json!({
        "id": folder.folder_id,
        "name": folder.name,
        "description": folder.description,
        "rendered_description": super::dto::rendered_description(&folder.description),
        "creator_id": folder.creator_id,
        "date_created": folder.date_created,
        "is_archived": folder.is_archived,
    });
    if level >= ORDER_LEVEL
        && let Some(fields) = value.as_object_mut()
    {
        fields.insert("order".into(), json!(folder.order));
    }
    value
}

/// The folders as a listing shows them: by id, or from [`ORDER_LEVEL`] by order.
pub fn folders_json(
    conn: &Connection,
    include_archived: bool,
    level: u32,
) -> Result<Vec<Value>, Error> {
    let mut folders: Vec<FolderRow> = store::all_folders(conn)?
        .into_iter()
        .filter(|folder| include_archived || !folder.is_archived)
        .collect();
    if level >= ORDER_LEVEL {
        folders.sort_by_key(|folder| (folder.order, folder.folder_id));
    }
    Ok(folders
        .iter()
        .map(|folder| folder_json(folder, level))
        .collect())
}

pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    check_level(&state)?;
    require_admin(&caller)?;
    let description = params.require_str("description")?;
    let name = params.require_str("name")?;
    check_length("description", &description, MAX_FOLDER_DESCRIPTION_CHARS)?;
    check_length("name", &name, MAX_FOLDER_NAME_CHARS)?;
    let creator = caller.user_id;
    let folder_id = state
        .store()
        .write(move |conn| {
            check_name(conn, &name)?;
            store::insert_folder(conn, &name, &description, creator, now_unix())
        })
        .await?;
    success(
        json!({ "channel_folder_id": folder_id }),
        params.into_ignored(),
    )
}

pub async fn list(State(state): State<AppState>, _caller: Caller, mut params: Params) -> ApiResult {
    let level = check_level(&state)?;
    let include_archived = params.take_bool("include_archived", false)?;
    let folders = state
        .store()
        .read(move |conn| folders_json(conn, include_archived, level))
        .await?;
    success(json!({ "channel_folders": folders }), params.into_ignored())
}

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(folder_id): Path<String>,
    mut params: Params,
) -> ApiResult {
    check_level(&state)?;
    require_admin(&caller)?;
    let folder_id: i64 = folder_id.parse().map_err(|_| ApiError::not_found())?;
    let description = params.take_str("description");
    let is_archived = if params.has("is_archived") {
        Some(params.take_bool("is_archived", false)?)
    } else {
        None
    };
    let name = params.take_str("name");
    if let Some(description) = &description {
        check_length("description", description, MAX_FOLDER_DESCRIPTION_CHARS)?;
    }
    if let Some(name) = &name {
        check_length("name", name, MAX_FOLDER_NAME_CHARS)?;
    }
    state
        .store()
        .write(move |conn| {
            let mut folder = folder(conn, folder_id)?;
            if let Some(name) = name.as_ref().filter(|name| **name != folder.name) {
                check_name(conn, name)?;
                folder.name = name.clone();
            }
            if let Some(description) = &description {
                folder.description = description.clone();
            }
            if let Some(archive) = is_archived.filter(|archive| *archive != folder.is_archived) {
                if archive && store::folder_in_use(conn, folder_id)? {
                    return Err(ApiError::bad_request(
                        "You need to remove all the channels from this folder to archive it.",
                    )
                    .into());
                }
                folder.is_archived = archive;
            }
            store::update_folder(conn, &folder)
        })
        .await?;
    success(Value::Null, params.into_ignored())
}

/// `PATCH /channel_folders`: `order` lists every folder's id in the new order.
pub async fn reorder(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let level = check_level(&state)?;
    if level < ORDER_LEVEL {
        return Err(ApiError::not_found().into());
    }
    require_admin(&caller)?;
    let order = super::group_access::int_list(
        "order",
        Some(params.require_json("order")?),
        crate::rules::limits::MAX_SUBSCRIPTIONS,
    )?;
    state
        .store()
        .write(move |conn| {
            let folders = store::all_folders(conn)?;
            if folders
                .iter()
                .any(|folder| !order.contains(&folder.folder_id))
            {
                return Err(ApiError::bad_request("Invalid order mapping.").into());
            }
            for folder in &folders {
                if let Some(position) = order.iter().position(|id| *id == folder.folder_id) {
                    store::set_folder_order(conn, folder.folder_id, position as i64)?;
                }
            }
            Ok::<_, Error>(())
        })
        .await?;
    success(Value::Null, params.into_ignored())
}
