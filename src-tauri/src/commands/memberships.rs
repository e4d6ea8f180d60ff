//! The memberships grid: load, plan, apply (progress over a channel, through weir-core's
//! pipeline), cancel, history, undo, CSV. Each command parses, calls `weir_core::memberships` and maps the answer;
//! CPU-heavy steps (planning, CSV, building the grid's answer) run off the async workers.

use std::path::{Path, PathBuf};

use tauri::State;
use tauri::ipc::Channel;
use weir_core::Account;
use weir_core::memberships::{
    self as core, Change, ExportScope, JournalAccount, Limits, export_csv, import_csv,
};
use weir_core::pipeline::{Memberships, StagedKind};

use super::{PathRequest, command};
use crate::error::{AppError, AppResult};
use crate::memberships::MembershipsState;
use crate::memberships::dto::{
    ApplyOutcome, ApplyProgress, ApplySummary, ChangesRequest, CopyRequest, CsvExportRequest,
    CsvImportResult, GroupSyncRequest, MAX_CHANGES, MAX_COPY_TARGETS, PlanPreview, UndoRequest,
};
use crate::memberships::wire::{self, GridAnswer};
use crate::state::Session;

/// How many applies the history shows.
const HISTORY_LENGTH: usize = 200;
/// Grids whose answer passes this (some 10,000 people) return the heap their load left
/// free; smaller loads leave too little to be worth a walk of every arena.
const RELEASE_HEAP_ABOVE_BYTES: usize = 1024 * 1024;

pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> AppResult<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| AppError::Internal(format!("background task failed: {error}")))
}

/// A request's changes, refused beyond [`MAX_CHANGES`].
pub(super) fn bounded<T>(changes: Vec<T>) -> AppResult<Vec<T>> {
    if changes.len() > MAX_CHANGES {
        return Err(AppError::InvalidInput(format!(
            "too many changes at once ({}; at most {MAX_CHANGES})",
            changes.len()
        )));
    }
    Ok(changes)
}

fn changes(request: ChangesRequest) -> AppResult<Vec<core::Change>> {
    bounded(request.changes)
}

/// Loads the grid from the server (`register`, `users/me` and `user_groups`); answers it
/// in binary (`memberships::wire`).
#[command]
pub async fn load_memberships(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
) -> AppResult<GridAnswer> {
    let matrix = memberships.reload(&session).await?;
    let answer = blocking(move || {
        let started = std::time::Instant::now();
        let answer = wire::encode(&matrix)?;
        // Its size is most of what the page waits for at 100,000 people.
        tracing::info!(
            people = matrix.people().len(),
            streams = matrix.channels().len(),
            bytes = answer.0.len(),
            ms = started.elapsed().as_millis(),
            "grid encoded"
        );
        AppResult::Ok(answer)
    })
    .await??;
    if answer.0.len() > RELEASE_HEAP_ABOVE_BYTES {
        // The load's peak (the server's answer and its decoded form) is free by now; the
        // walk over every arena runs beside the answer's way to the page, not before it.
        tokio::task::spawn_blocking(|| {
            let started = std::time::Instant::now();
            let released = weir_malloc_trim::release_free_pages();
            let ms = started.elapsed().as_millis();
            tracing::info!(released, ms, "heap left free by the grid's load returned");
        });
    }
    Ok(answer)
}

/// The calls an apply of these changes would make.
#[command]
pub async fn plan_membership_changes(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: ChangesRequest,
) -> AppResult<PlanPreview> {
    let changes = changes(request)?;
    let matrix = memberships.matrix(&session).await?;
    blocking(move || PlanPreview::from(&core::plan(&matrix, &changes, &Limits::default()))).await
}

/// Applies the changes, reporting progress on `on_progress`, and journals the outcome.
#[command]
pub async fn apply_membership_changes(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: ChangesRequest,
    on_progress: Channel<ApplyProgress>,
) -> AppResult<ApplyOutcome> {
    let changes = changes(request)?;
    let account = session.account()?;
    let client = session.client().await?;
    let matrix = memberships.matrix(&session).await?;
    let applied = memberships
        .pipeline()
        .run::<Memberships>(
            &client,
            &journal_account(&account),
            matrix,
            changes,
            || memberships.forget(),
            |progress| {
                // A closed channel (the page went away) must not stop the apply.
                let _ = on_progress.send(ApplyProgress::from(progress));
            },
        )
        .await?;
    Ok(ApplyOutcome::new(&applied.report, applied.journal_id))
}

/// Who applies, as the journal records it.
pub(super) fn journal_account(account: &Account) -> JournalAccount<'_> {
    JournalAccount {
        account_id: account.id,
        site: &account.site,
        email: &account.email,
    }
}

/// Stops the running apply before its next request (any page's: one apply runs at a
/// time).
#[command]
pub fn cancel_membership_apply(memberships: State<'_, MembershipsState>) -> bool {
    memberships.cancel()
}

/// The active account's applies, newest first.
#[command]
pub fn list_membership_applies(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
) -> AppResult<Vec<ApplySummary>> {
    applies_of::<Memberships>(&session, &memberships)
}

/// The reverse of an apply (the latest when no id is given), for the UI to stage.
#[command]
pub fn undo_membership_apply(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: UndoRequest,
) -> AppResult<Vec<Change>> {
    undo_of::<Memberships>(&session, &memberships, request.id)
}

/// The active account's applies of one kind (one page's), newest first: what each
/// page's history command answers.
pub(super) fn applies_of<K: StagedKind>(
    session: &Session,
    memberships: &MembershipsState,
) -> AppResult<Vec<ApplySummary>> {
    let account = session.account()?;
    Ok(memberships
        .pipeline()
        .history::<K>(account.id, HISTORY_LENGTH)?
        .into_iter()
        .map(Into::into)
        .collect())
}

/// The changes that reverse one kind's apply (the latest when `id` is `None`), from the
/// journal, for the page to stage; `NotFound` when the journal has no such apply.
pub(super) fn undo_of<K: StagedKind>(
    session: &Session,
    memberships: &MembershipsState,
    id: Option<i64>,
) -> AppResult<Vec<K::Change>> {
    let account = session.account()?;
    memberships
        .pipeline()
        .undo::<K>(account.id, id)?
        .ok_or_else(|| AppError::NotFound("no such apply to undo".into()))
}

/// A CSV file to write, buffered.
pub(super) fn create_file(path: &Path) -> AppResult<std::io::BufWriter<std::fs::File>> {
    let file = std::fs::File::create(path)
        .map_err(AppError::io(format!("cannot write {}", path.display())))?;
    Ok(std::io::BufWriter::new(file))
}

/// A CSV file to read.
pub(super) fn open_file(path: &Path) -> AppResult<std::fs::File> {
    std::fs::File::open(path).map_err(AppError::io(format!("cannot read {}", path.display())))
}

/// Writes the grid (or its filtered part) as CSV.
#[command]
pub async fn export_memberships_csv(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: CsvExportRequest,
) -> AppResult<()> {
    let user_ids = request.user_ids.map(bounded).transpose()?;
    let stream_ids = request.stream_ids.map(bounded).transpose()?;
    let staged = bounded(request.staged)?;
    let matrix = memberships.matrix(&session).await?;
    let path = PathBuf::from(request.path.trim());
    blocking(move || -> AppResult<()> {
        let scope = ExportScope {
            user_ids: user_ids.as_deref(),
            stream_ids: stream_ids.as_deref(),
            staged: &staged,
        };
        export_csv(&matrix, &scope, create_file(&path)?).map_err(weir_core::CoreError::from)?;
        Ok(())
    })
    .await?
}

/// Reads a CSV and returns what it would change; nothing is applied.
#[command]
pub async fn import_memberships_csv(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: PathRequest,
) -> AppResult<CsvImportResult> {
    let matrix = memberships.matrix(&session).await?;
    let path = PathBuf::from(request.path.trim());
    blocking(move || -> AppResult<CsvImportResult> {
        let import = import_csv(&matrix, open_file(&path)?).map_err(weir_core::CoreError::from)?;
        Ok(import.into())
    })
    .await?
}

/// The changes that make a channel's subscribers a group's members, for the UI to stage
/// (nothing is applied).
#[command]
pub async fn plan_group_sync(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: GroupSyncRequest,
) -> AppResult<Vec<Change>> {
    let matrix = memberships.matrix(&session).await?;
    blocking(move || {
        matrix
            .sync_changes(request.stream_id, request.group_id, request.keep)
            .map_err(|error| AppError::from(weir_core::CoreError::from(error)))
    })
    .await?
}

/// The changes that copy someone's channels (or every public channel) onto other
/// people, for the UI to stage.
#[command]
pub async fn copy_memberships(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: CopyRequest,
) -> AppResult<Vec<Change>> {
    if request.to.len() > MAX_COPY_TARGETS {
        return Err(AppError::InvalidInput(format!(
            "too many people at once ({}; at most {MAX_COPY_TARGETS})",
            request.to.len()
        )));
    }
    let matrix = memberships.matrix(&session).await?;
    blocking(move || {
        match request.from {
            Some(from) => matrix.copy_changes(from, &request.to),
            None => matrix.public_channels_changes(&request.to),
        }
        .map_err(|error| AppError::from(weir_core::CoreError::from(error)))
    })
    .await?
}
