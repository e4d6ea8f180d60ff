//! Checkpoints that keep the log short without holding up commits.
//!
//! A checkpoint copies the log into the database file and syncs both; at ingest rates
//! one covering 1024 commits took 30-40 ms, and a writer that waited for it stalled
//! every request for that long, about a tenth of the time. A checkpoint on a second
//! connection runs beside the writer's commits, but the log only starts over once a
//! checkpoint has copied all of it, which one racing a steady stream of commits never
//! does. So the helper's passes do the bulk, each covering what the previous one left,
//! and when a pass leaves little behind the writer checkpoints that rest itself: a short
//! pause after which its next transaction starts the log over.

use rusqlite::Connection;
use tokio::task::JoinHandle;

/// Commits between checkpoint cycles. A commit appends a few pages to the log, so it
/// stays within tens of MiB.
pub const COMMITS_PER_CHECKPOINT: u32 = 1024;

/// A pass that saw at most this many commits beside it leaves few enough pages for the
/// writer to copy itself in a few milliseconds.
const CATCH_UP_COMMITS: u32 = 32;

/// Passes per cycle before the writer copies the rest whatever its size: each pass
/// covers less than the previous one, but a slow disk must not keep the log growing.
const MAX_PASSES: u32 = 4;

/// What the writer does after a commit.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    Continue,
    /// Checkpoint on the writer's own connection (see [`run`]) before the next group.
    CatchUp,
}

/// The helper connection and where it is in the cycle.
pub struct Checkpoints {
    helper: Helper,
    /// Commits since the cycle ended, or since the running pass started.
    commits: u32,
    passes: u32,
}

enum Helper {
    Idle(Connection),
    Busy(JoinHandle<Connection>),
    /// The helper's thread is gone (the runtime is shutting down): the writer
    /// checkpoints every cycle itself.
    Gone,
}

impl Checkpoints {
    pub fn new(helper: Connection) -> Self {
        Self {
            helper: Helper::Idle(helper),
            commits: 0,
            passes: 0,
        }
    }

    /// Counts a commit, starts or continues a cycle, and says whether the writer must
    /// catch up now.
    pub async fn after_commit(&mut self) -> Step {
        self.commits += 1;
        match std::mem::replace(&mut self.helper, Helper::Gone) {
            Helper::Idle(conn) if self.commits >= COMMITS_PER_CHECKPOINT => {
                self.passes = 0;
                self.start_pass(conn);
                Step::Continue
            }
            Helper::Busy(pass) if pass.is_finished() => match pass.await {
                Ok(conn) if self.commits > CATCH_UP_COMMITS && self.passes < MAX_PASSES => {
                    self.start_pass(conn);
                    Step::Continue
                }
                Ok(conn) => self.catch_up(Helper::Idle(conn)),
                Err(_) => self.catch_up(Helper::Gone),
            },
            Helper::Gone if self.commits >= COMMITS_PER_CHECKPOINT => self.catch_up(Helper::Gone),
            helper => {
                self.helper = helper;
                Step::Continue
            }
        }
    }

    /// Waits for a pass in progress and closes the helper connection.
    pub async fn finish(self) {
        if let Helper::Busy(pass) = self.helper {
            let _ = pass.await;
        }
    }

    fn start_pass(&mut self, conn: Connection) {
        self.passes += 1;
        self.commits = 0;
        self.helper = Helper::Busy(tokio::task::spawn_blocking(move || {
            passive(&conn);
            conn
        }));
    }

    fn catch_up(&mut self, helper: Helper) -> Step {
        self.helper = helper;
        self.commits = 0;
        Step::CatchUp
    }
}

/// The writer's own checkpoint, on a blocking thread. `None` if the runtime is shutting
/// down (the connection is gone with the thread; SQLite's recovery reads the log at the
/// next start).
pub async fn run(conn: Connection) -> Option<Connection> {
    let done = tokio::task::spawn_blocking(move || {
        passive(&conn);
        conn
    });
    done.await.ok()
}

/// PASSIVE: readers in the middle of a query are not waited for; what they still need
/// is copied next time.
fn passive(conn: &Connection) {
    let outcome = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
    if let Err(error) = outcome {
        tracing::warn!(%error, "WAL checkpoint failed; the next one will retry");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoints() -> (tempfile::TempDir, Checkpoints) {
        let dir = tempfile::tempdir().unwrap();
        let conn = Connection::open(dir.path().join("db")).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        (dir, Checkpoints::new(conn))
    }

    async fn pass_finished(checkpoints: &Checkpoints) {
        loop {
            match &checkpoints.helper {
                Helper::Busy(pass) if pass.is_finished() => return,
                Helper::Busy(_) => tokio::time::sleep(std::time::Duration::from_millis(1)).await,
                _ => panic!("no pass is running"),
            }
        }
    }

    async fn start_cycle(checkpoints: &mut Checkpoints) {
        for _ in 1..COMMITS_PER_CHECKPOINT {
            assert_eq!(checkpoints.after_commit().await, Step::Continue);
            assert!(matches!(checkpoints.helper, Helper::Idle(_)));
        }
        assert_eq!(checkpoints.after_commit().await, Step::Continue);
        assert_eq!(checkpoints.passes, 1);
    }

    #[tokio::test]
    async fn a_pass_that_saw_few_commits_lets_the_writer_finish_the_cycle() {
        let (_dir, mut checkpoints) = checkpoints();
        start_cycle(&mut checkpoints).await;
        pass_finished(&checkpoints).await;
        checkpoints.commits = CATCH_UP_COMMITS - 1;
        assert_eq!(checkpoints.after_commit().await, Step::CatchUp);
        assert!(matches!(checkpoints.helper, Helper::Idle(_)));
        assert_eq!(checkpoints.commits, 0, "the next cycle counts from here");
    }

    #[tokio::test]
    async fn passes_follow_each_other_while_commits_keep_coming_but_not_forever() {
        let (_dir, mut checkpoints) = checkpoints();
        start_cycle(&mut checkpoints).await;
        for pass in 2..=MAX_PASSES {
            pass_finished(&checkpoints).await;
            checkpoints.commits = CATCH_UP_COMMITS;
            assert_eq!(checkpoints.after_commit().await, Step::Continue);
            assert_eq!(checkpoints.passes, pass);
        }
        pass_finished(&checkpoints).await;
        checkpoints.commits = 10 * CATCH_UP_COMMITS;
        assert_eq!(checkpoints.after_commit().await, Step::CatchUp);
    }
}
