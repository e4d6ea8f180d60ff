//! The render pool: Markdown rendering (highlighting, math, mention lookups) runs on
//! blocking threads with a read connection, at most [`threads`] at once, never on the
//! async workers and never inside a write job. A message full of slow formulas then
//! occupies one of these threads for its 5 s at most, and requests that do not render
//! (and the writer) are served meanwhile. Only a webhook message that can reach neither
//! math nor highlighting, names nobody and is short renders without it, where its
//! request runs (`compose/quick.rs`): the hop here costs more than its rendering.

use std::sync::Arc;

use rusqlite::Connection;
use tokio::sync::Semaphore;

use super::Store;
use crate::error::Error;

/// Renderings at once: one per core, at least two (so that one slow message does not
/// hold up every other).
pub(super) fn threads() -> usize {
    std::thread::available_parallelism()
        .map_or(2, std::num::NonZeroUsize::get)
        .max(2)
}

/// The permits of one store's pool.
pub(super) fn permits() -> Arc<Semaphore> {
    Arc::new(Semaphore::new(threads()))
}

impl Store {
    /// Runs `work` (rendering, and the reads it needs) on the render pool with a pooled
    /// read connection; waits for a free thread first.
    pub async fn render<T, E, F>(&self, work: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<Error> + Send + 'static,
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
    {
        // Owned and moved into the work, so that a request given up while rendering
        // still holds its thread's permit until the rendering ends.
        let permit = Arc::clone(&self.renderers)
            .acquire_owned()
            .await
            .map_err(|_| E::from(Error::WriterStopped))?;
        self.read(move |conn| {
            let _permit = permit;
            work(conn)
        })
        .await
    }
}
