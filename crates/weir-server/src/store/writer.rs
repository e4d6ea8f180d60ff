//! The writer: a task that owns the only write connection and commits jobs in groups.
//!
//! It runs on the async runtime rather than on a thread of its own: handing every job to
//! another thread and its answer back cost as much CPU as the SQLite work itself (two
//! futex wake-ups and context switches per group, measured with a no-op job). A group's
//! SQLite work is short: in WAL mode at `synchronous = NORMAL` a commit appends to the
//! log without syncing. Checkpoints, which sync, run beside it (see `checkpoint.rs`).

use std::sync::Arc;

use rusqlite::Connection;
use tokio::sync::mpsc;

use super::cache::UserCache;
use super::checkpoint::{self, Checkpoints, Step};
use super::group_cache::GroupCache;
use super::realm_cache::RealmCache;
use super::targets::PostTargets;
use crate::error::Storage;

/// How many queued jobs one commit may carry: bounds how long one group occupies a
/// runtime thread, and the latency of its first job.
const MAX_GROUP: usize = 64;

/// One request's work. It may run twice: when a job fails after changing rows, the
/// group is rolled back and run again with a savepoint around each job.
pub trait Job: Send {
    /// Runs the work and keeps its outcome; says whether it succeeded.
    fn run(&mut self, conn: &Connection) -> bool;
    /// Whether the work may take long enough to hold up other requests.
    fn is_heavy(&self) -> bool {
        false
    }
    /// Answers the request: the kept outcome if the group committed, else an error.
    fn finish(self: Box<Self>, commit: Commit);
}

/// What the writer empties after a commit that changed what they remember.
/// How a job's group ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commit {
    Done,
    /// Nothing was saved; when the disk refused the commit, why.
    RolledBack(Option<Storage>),
}

pub struct Caches {
    pub users: Arc<UserCache>,
    pub targets: Arc<PostTargets>,
    pub groups: Arc<GroupCache>,
    pub realm: Arc<RealmCache>,
}

pub async fn run(
    mut conn: Connection,
    mut queue: mpsc::Receiver<Box<dyn Job>>,
    caches: Caches,
    mut checkpoints: Checkpoints,
) {
    let mut group = Vec::with_capacity(MAX_GROUP);
    while let Some(first) = queue.recv().await {
        group.push(first);
        // Under load, other requests are a step away from their own write: yielding
        // lets them queue it, so that one commit serves them all, and yielding again
        // while that brings more grows the group further (one async thread: 12.6 jobs
        // per commit with a single yield, and 9% more ingest when repeated). Idle, the
        // first yield returns at once and finds nothing.
        loop {
            tokio::task::yield_now().await;
            let before = group.len();
            while group.len() < MAX_GROUP {
                match queue.try_recv() {
                    Ok(job) => group.push(job),
                    Err(_) => break,
                }
            }
            if group.len() == before || group.len() == MAX_GROUP {
                break;
            }
        }
        let heavy = group.iter().any(|job| job.is_heavy());
        let commit = match off_async_threads(heavy, || run_group(&conn, &mut group)) {
            Ok(true) => Commit::Done,
            Ok(false) => Commit::RolledBack(None),
            Err(error) => {
                tracing::error!(%error, "commit failed; the group's changes were rolled back");
                if !conn.is_autocommit() {
                    let _ = control(&conn, "ROLLBACK");
                }
                Commit::RolledBack(Storage::of(&error))
            }
        };
        caches.users.invalidate_if_dirty();
        caches.targets.clear_if_stale();
        caches.groups.invalidate_if_dirty();
        caches.realm.invalidate_if_dirty();
        for job in group.drain(..) {
            job.finish(commit);
        }
        if checkpoints.after_commit().await == Step::CatchUp {
            match checkpoint::run(conn).await {
                Some(back) => conn = back,
                None => return,
            }
        }
    }
    // The queue is closed: no connection may outlive the writer (see `Store::closing`).
    checkpoints.finish().await;
}

/// Runs `work` here, or, when `heavy`, with this async thread's other tasks handed to
/// another thread first (`block_in_place`), so that a long write never holds up the
/// requests that do not need the writer. A current-thread runtime (some tests) has no
/// other thread to hand them to, so there the work runs inline.
pub(super) fn off_async_threads<T>(heavy: bool, work: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    let multi_thread = Handle::try_current()
        .is_ok_and(|handle| handle.runtime_flavor() == RuntimeFlavor::MultiThread);
    if heavy && multi_thread {
        tokio::task::block_in_place(work)
    } else {
        work()
    }
}

/// Runs the jobs in one transaction; says whether it committed.
fn run_group(conn: &Connection, group: &mut [Box<dyn Job>]) -> rusqlite::Result<bool> {
    control(conn, "BEGIN IMMEDIATE")?;
    if let [job] = group {
        // Alone in its group, a job needs no savepoint: the transaction is its own.
        let succeeded = job.run(conn);
        control(conn, if succeeded { "COMMIT" } else { "ROLLBACK" })?;
        return Ok(succeeded);
    }
    // Optimistically without savepoints, which cost a twentieth of the ingest CPU: a
    // job that fails before changing anything (the usual way to fail) needs none.
    let mut clean = true;
    for job in group.iter_mut() {
        let changes = conn.total_changes();
        if !job.run(conn) && conn.total_changes() != changes {
            clean = false;
            break;
        }
    }
    if !clean {
        control(conn, "ROLLBACK")?;
        control(conn, "BEGIN IMMEDIATE")?;
        for job in group.iter_mut() {
            control(conn, "SAVEPOINT job")?;
            if !job.run(conn) {
                control(conn, "ROLLBACK TO job")?;
            }
            control(conn, "RELEASE job")?;
        }
    }
    control(conn, "COMMIT")?;
    Ok(true)
}

/// Transaction control through the statement cache: the writer runs these for every
/// group, and parsing them each time showed in profiles.
fn control(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::error::{Error, Result};
    use crate::store::{DATABASE_FILE, Store};

    async fn store_with_table() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store
            .write(|conn| Ok::<_, Error>(conn.execute_batch("CREATE TABLE t (x INTEGER)")?))
            .await
            .unwrap();
        (dir, store)
    }

    fn insert(x: i64, then_fail: bool) -> impl Fn(&rusqlite::Connection) -> Result<()> {
        move |conn| {
            conn.execute("INSERT INTO t VALUES (?1)", [x])?;
            if then_fail {
                return Err(Error::Internal(format!("job {x} fails after writing")));
            }
            Ok(())
        }
    }

    async fn values(store: &Store) -> Vec<i64> {
        store
            .read(|conn| {
                let mut statement = conn.prepare("SELECT x FROM t ORDER BY x")?;
                let rows = statement.query_map([], |row| row.get(0))?;
                Ok::<_, Error>(rows.collect::<rusqlite::Result<Vec<i64>>>()?)
            })
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_failing_job_in_a_group_leaves_nothing_and_the_others_commit() {
        let (_dir, store) = store_with_table().await;
        // Queued before the writer runs, the three jobs share one transaction.
        let (a, b, c) = tokio::join!(
            store.write(insert(1, false)),
            store.write(insert(2, true)),
            store.write(insert(3, false)),
        );
        assert!(a.is_ok() && c.is_ok());
        assert!(b.unwrap_err().to_string().contains("job 2 fails"));
        assert_eq!(values(&store).await, [1, 3]);
    }

    #[tokio::test]
    async fn only_a_failure_that_changed_rows_makes_the_group_run_again() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicUsize, Ordering};

        let (_dir, store) = store_with_table().await;
        let runs = Arc::new(AtomicUsize::new(0));
        let counted = |x: i64| {
            let runs = Arc::clone(&runs);
            move |conn: &rusqlite::Connection| {
                runs.fetch_add(1, Ordering::SeqCst);
                insert(x, false)(conn)
            }
        };
        let refuse = |_: &rusqlite::Connection| -> Result<()> {
            Err(Error::Internal("refused before writing".into()))
        };
        let (a, b, c) = tokio::join!(
            store.write(counted(1)),
            store.write(refuse),
            store.write(counted(2)),
        );
        assert!(a.is_ok() && b.is_err() && c.is_ok());
        assert_eq!(runs.swap(0, Ordering::SeqCst), 2, "each job ran once");

        let (a, b, c) = tokio::join!(
            store.write(counted(3)),
            store.write(insert(4, true)),
            store.write(counted(5)),
        );
        assert!(a.is_ok() && b.is_err() && c.is_ok());
        // The first job ran again after the rollback; the last one only ran then.
        assert_eq!(runs.load(Ordering::SeqCst), 3, "rolled back and run again");
        assert_eq!(values(&store).await, [1, 2, 3, 5]);
    }

    #[tokio::test]
    async fn a_failing_job_alone_is_rolled_back() {
        let (_dir, store) = store_with_table().await;
        assert!(store.write(insert(7, true)).await.is_err());
        store.write(insert(8, false)).await.unwrap();
        assert_eq!(values(&store).await, [8]);
    }

    /// With one async thread, a heavy job blocks it unless its group runs off it: here
    /// the job waits until a task spawned after it has run, which can only happen if
    /// the async thread is free. The job gives up after 10 s, failing the test.
    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn a_heavy_job_leaves_the_async_thread_to_other_tasks() {
        use std::sync::mpsc;
        use std::time::Duration;

        let (_dir, store) = store_with_table().await;
        let (started, has_started) = mpsc::channel::<()>();
        let (go, may_go) = mpsc::channel::<()>();
        let heavy = tokio::spawn({
            let store = store.clone();
            async move {
                store
                    .write_weighted(true, move |_| {
                        let _ = started.send(());
                        may_go
                            .recv_timeout(Duration::from_secs(10))
                            .map_err(|_| Error::Internal("the other task never ran".into()))
                    })
                    .await
            }
        });
        has_started.recv().unwrap();
        let other = tokio::spawn(async { "served" }).await.unwrap();
        go.send(()).unwrap();
        assert_eq!(other, "served");
        heavy.await.unwrap().unwrap();
    }

    /// The WAL header's checkpoint sequence number, which goes up each time the log
    /// starts over (bytes 12..16, big-endian).
    fn log_restarts(dir: &std::path::Path) -> u32 {
        let header = std::fs::read(dir.join(format!("{DATABASE_FILE}-wal"))).unwrap();
        u32::from_be_bytes(header[12..16].try_into().unwrap())
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn under_steady_writes_the_log_is_copied_into_the_database_and_starts_over() {
        let (dir, store) = store_with_table().await;
        let file = dir.path().join(DATABASE_FILE);
        let size_before = std::fs::metadata(&file).unwrap().len();
        let restarts_before = log_restarts(dir.path());
        let cycle = i64::from(super::checkpoint::COMMITS_PER_CHECKPOINT);
        // Commits never wait for the helper's passes, so how many a cycle takes
        // depends on the disk; two restarts must come well within ten cycles.
        let mut first_restart = None;
        let mut commits = 0;
        while log_restarts(dir.path()) < restarts_before + 2 && commits < 10 * cycle {
            store.write(insert(commits, false)).await.unwrap();
            commits += 1;
            if first_restart.is_none() && log_restarts(dir.path()) > restarts_before {
                first_restart = Some(commits);
            }
        }
        assert!(
            log_restarts(dir.path()) >= restarts_before + 2,
            "{commits} commits"
        );
        // The table's creation is the first commit of the first cycle, so the loop's
        // own commits reach the cycle one commit early.
        assert!(
            first_restart.unwrap() >= cycle - 1,
            "a cycle starts after its commits"
        );
        assert!(std::fs::metadata(&file).unwrap().len() > size_before);
        assert_eq!(values(&store).await.len() as i64, commits);
    }
}
