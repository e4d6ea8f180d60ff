//! The memberships grid: load, plan, apply (progress over a channel), cancel, history,
//! undo, CSV. Each command parses, calls `weir_core::memberships` and maps the answer;
//! CPU-heavy steps (planning, CSV, building the grid's answer) run off the async workers.

use std::path::PathBuf;

use tauri::State;
use tauri::ipc::Channel;
use weir_core::memberships::{
    self as core, ApplyOptions, ExportScope, JournalAccount, Limits, apply, export_csv, import_csv,
};

use crate::dto::PathRequest;
use crate::error::{AppError, AppResult};
use crate::memberships::dto::{
    self, ApplyOutcome, ApplyProgress, ApplySummary, ChangesRequest, CsvExportRequest,
    CsvImportResult, MAX_CHANGES, MembershipChange, MembershipGrid, PlanPreview, UndoRequest,
};
use crate::state::WeirState;

/// How many applies the history shows.
const HISTORY_LENGTH: usize = 200;

async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> AppResult<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| AppError::Internal(format!("background task failed: {error}")))
}

fn changes(request: ChangesRequest) -> AppResult<Vec<core::Change>> {
    if request.changes.len() > MAX_CHANGES {
        return Err(AppError::InvalidInput(format!(
            "too many changes at once ({}; at most {MAX_CHANGES})",
            request.changes.len()
        )));
    }
    Ok(request.changes.into_iter().map(Into::into).collect())
}

/// Loads the grid from the server (one `register` and one `users/me`).
#[tauri::command]
pub async fn load_memberships(state: State<'_, WeirState>) -> AppResult<MembershipGrid> {
    let memberships = &state.memberships;
    let matrix = memberships.reload(&state).await?;
    blocking(move || dto::grid(&matrix)).await
}

/// The calls an apply of these changes would make.
#[tauri::command]
pub async fn plan_membership_changes(
    state: State<'_, WeirState>,
    request: ChangesRequest,
) -> AppResult<PlanPreview> {
    let memberships = &state.memberships;
    let changes = changes(request)?;
    let matrix = memberships.matrix(&state).await?;
    blocking(move || PlanPreview::from(&core::plan(&matrix, &changes, &Limits::default()))).await
}

/// Applies the changes, reporting progress on `on_progress`, and journals the outcome.
#[tauri::command]
pub async fn apply_membership_changes(
    state: State<'_, WeirState>,
    request: ChangesRequest,
    on_progress: Channel<ApplyProgress>,
) -> AppResult<ApplyOutcome> {
    let memberships = &state.memberships;
    let changes = changes(request)?;
    let account = state.active_account()?;
    let client = state.active_client().await?;
    let matrix = memberships.matrix(&state).await?;
    let planned = {
        let changes = changes.clone();
        blocking(move || core::plan(&matrix, &changes, &Limits::default())).await?
    };
    let running = memberships.begin_apply()?;
    let report = apply(
        &client,
        &planned,
        &ApplyOptions::default(),
        running.cancel(),
        |progress| {
            // A closed channel (the page went away) must not stop the apply.
            let _ = on_progress.send(ApplyProgress::from(progress));
        },
    )
    .await;
    drop(running);
    memberships.forget();
    let journal_id = if report.cells.is_empty() {
        None
    } else {
        let who = JournalAccount {
            account_id: account.id,
            site: &account.site,
            email: &account.email,
        };
        Some(memberships.journal.record(
            &who,
            &changes,
            &report,
            weir_core::clock::unix_seconds(),
        )?)
    };
    Ok(ApplyOutcome::new(&report, journal_id))
}

/// Stops the running apply before its next request.
#[tauri::command]
pub fn cancel_membership_apply(state: State<'_, WeirState>) -> bool {
    state.memberships.cancel()
}

/// The active account's applies, newest first.
#[tauri::command]
pub fn list_membership_applies(state: State<'_, WeirState>) -> AppResult<Vec<ApplySummary>> {
    let memberships = &state.memberships;
    let account = state.active_account()?;
    Ok(memberships
        .journal
        .list(account.id, HISTORY_LENGTH)?
        .into_iter()
        .map(Into::into)
        .collect())
}

/// The reverse of an apply (the latest when no id is given), for the UI to stage.
#[tauri::command]
pub fn undo_membership_apply(
    state: State<'_, WeirState>,
    request: UndoRequest,
) -> AppResult<Vec<MembershipChange>> {
    let memberships = &state.memberships;
    let account = state.active_account()?;
    let entry = match request.id {
        Some(id) => memberships.journal.get(account.id, id)?,
        None => memberships.journal.last(account.id)?,
    };
    let entry = entry.ok_or_else(|| AppError::NotFound("no such apply to undo".into()))?;
    Ok(entry.reverse().into_iter().map(Into::into).collect())
}

/// Writes the grid (or its filtered part) as CSV.
#[tauri::command]
pub async fn export_memberships_csv(
    state: State<'_, WeirState>,
    request: CsvExportRequest,
) -> AppResult<()> {
    let memberships = &state.memberships;
    let matrix = memberships.matrix(&state).await?;
    let path = PathBuf::from(request.path.trim());
    blocking(move || -> AppResult<()> {
        let staged: Vec<core::Change> = request.staged.into_iter().map(Into::into).collect();
        let scope = ExportScope {
            user_ids: request.user_ids.as_deref(),
            stream_ids: request.stream_ids.as_deref(),
            staged: &staged,
        };
        let file = std::fs::File::create(&path)
            .map_err(AppError::io(format!("cannot write {}", path.display())))?;
        export_csv(&matrix, &scope, std::io::BufWriter::new(file))
            .map_err(weir_core::CoreError::from)?;
        Ok(())
    })
    .await?
}

/// Reads a CSV and returns what it would change; nothing is applied.
#[tauri::command]
pub async fn import_memberships_csv(
    state: State<'_, WeirState>,
    request: PathRequest,
) -> AppResult<CsvImportResult> {
    let memberships = &state.memberships;
    let matrix = memberships.matrix(&state).await?;
    let path = PathBuf::from(request.path.trim());
    blocking(move || -> AppResult<CsvImportResult> {
        let file = std::fs::File::open(&path)
            .map_err(AppError::io(format!("cannot read {}", path.display())))?;
        let import = import_csv(&matrix, file).map_err(weir_core::CoreError::from)?;
        Ok(import.into())
    })
    .await?
}
