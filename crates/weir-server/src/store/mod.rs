//! SQLite storage. All SQL lives below this module.
//!
//! Writes go through one writer task that owns the only write connection: requests
//! never see `SQLITE_BUSY` and never lose an update. The writer commits in groups —
//! jobs share a transaction, yet one job's failure rolls back only that job (see
//! `writer.rs`) — and answers every job only after the group's commit, so a success
//! reply always means the change is on disk. Reads use a small pool of WAL readers and
//! never wait for the writer.

mod cache;
mod checkpoint;
mod folders;
mod group_cache;
mod groups;
mod messages;
mod realm_cache;
mod render_pool;
mod schema;
pub mod seed;
mod seed_groups;
mod settings;
mod streams;
mod targets;
mod users;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OpenFlags};
use tokio::sync::{mpsc, oneshot, watch};

pub use folders::*;
pub use group_cache::Groups;
pub use groups::*;
pub use messages::*;
pub use settings::*;
pub use streams::*;
pub use targets::PostTargets;
pub use users::*;

/// The schema on a bare connection, for unit tests outside `store`.
#[cfg(test)]
pub(crate) use schema::migrate as migrate_for_tests;

use crate::error::{Error, Result};
use crate::rules::group_graph::GroupGraph;

/// File name of the database inside the data dir.
pub const DATABASE_FILE: &str = "weir.sqlite3";

/// The writer's page cache, in KiB (memory is only taken as pages are used).
const WRITER_CACHE_KIB: i64 = 64 * 1024;

/// Read connections kept open between requests.
const MAX_IDLE_READERS: usize = 8;

/// How often [`Store::write_with_groups`] resolves the groups before it lets the writer
/// read them itself: each retry follows a change to the groups that raced the request.
const GROUP_ATTEMPTS: usize = 4;

use writer::{Commit, Job};

/// Handle to the database: cheap to clone, shared by every request.
#[derive(Clone)]
pub struct Store {
    jobs: mpsc::Sender<Box<dyn Job>>,
    readers: Arc<ReaderPool>,
    users: Arc<cache::UserCache>,
    targets: Arc<PostTargets>,
    groups: Arc<group_cache::GroupCache>,
    realm: Arc<realm_cache::RealmCache>,
    /// The render pool's free threads (`render_pool.rs`).
    renderers: Arc<tokio::sync::Semaphore>,
}

/// A job as [`Store::write`] queues it: the work, its latest outcome, and who waits.
struct Pending<T, E, F> {
    work: F,
    heavy: bool,
    outcome: Option<Result<T, E>>,
    reply: oneshot::Sender<Result<T, E>>,
}

impl<T, E, F> Job for Pending<T, E, F>
where
    T: Send,
    E: From<Error> + Send,
    F: Fn(&Connection) -> Result<T, E> + Send,
{
    fn run(&mut self, conn: &Connection) -> bool {
        let outcome = (self.work)(conn);
        let succeeded = outcome.is_ok();
        self.outcome = Some(outcome);
        succeeded
    }

    fn is_heavy(&self) -> bool {
        self.heavy
    }

    fn finish(self: Box<Self>, commit: Commit) {
        // A failed job's own error stands; success counts only once committed.
        let outcome = match (self.outcome, commit) {
            (Some(Err(error)), _) => Err(error),
            (Some(Ok(value)), Commit::Done) => Ok(value),
            (_, Commit::RolledBack(Some(storage))) => Err(E::from(Error::Storage(storage))),
            _ => Err(E::from(Error::WriterStopped)),
        };
        let _ = self.reply.send(outcome);
    }
}

/// See [`Store::closing`].
#[derive(Debug, Clone)]
pub struct Closing(watch::Receiver<()>);

impl Closing {
    /// Resolves once the store's last connection is closed.
    pub async fn wait(mut self) {
        while self.0.changed().await.is_ok() {}
    }
}

struct ReaderPool {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    /// Dropped after every connection is closed (fields drop in order, and the writer
    /// holds the pool until its own connections are gone): see [`Store::closing`].
    open: watch::Sender<()>,
}

impl Store {
    /// Opens (creating and migrating if needed) the database in `data_dir`.
    ///
    /// Must be called inside a tokio runtime: the writer is a task on it.
    pub fn open(data_dir: &Path) -> Result<Self> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            Error::Internal("the store must be opened inside a tokio runtime".into())
        })?;
        crate::embed::data_dir::make_private(data_dir)?;
        let path = data_dir.join(DATABASE_FILE);
        crate::embed::data_dir::create_private_file(&path)?;
        let mut writer = open_connection(&path, false)?;
        schema::migrate(&mut writer)?;
        let users = Arc::new(cache::UserCache::default());
        let targets = Arc::new(PostTargets::default());
        PostTargets::watch_subscriptions(&writer)?;
        group_cache::watch_groups(&writer)?;
        let groups = Arc::new(group_cache::GroupCache::default());
        let (users_changed, targets_changed) = (users.dirty_flag(), targets.stale_flag());
        let groups_changed = groups.dirty_flag();
        let realm = Arc::new(realm_cache::RealmCache::default());
        let realm_changed = realm.dirty_flag();
        writer.update_hook(Some(
            move |_: rusqlite::hooks::Action, _: &str, table: &str, _: i64| {
                use std::sync::atomic::Ordering::Release;
                if table == "users" {
                    users_changed.store(true, Release);
                }
                if PostTargets::is_watched(table) {
                    targets_changed.store(true, Release);
                }
                if group_cache::WATCHED.contains(&table) {
                    groups_changed.store(true, Release);
                }
                if table == "realm" {
                    realm_changed.store(true, Release);
                }
            },
        ));
        let (jobs, queue) = mpsc::channel::<Box<dyn Job>>(1024);
        // Checkpoints run beside the writer, off the async threads (see `checkpoint.rs`).
        writer.pragma_update(None, "wal_autocheckpoint", 0)?;
        let checkpoints = checkpoint::Checkpoints::new(open_connection(&path, false)?);
        let caches = writer::Caches {
            users: Arc::clone(&users),
            targets: Arc::clone(&targets),
            groups: Arc::clone(&groups),
            realm: Arc::clone(&realm),
        };
        let readers = Arc::new(ReaderPool {
            path,
            idle: Mutex::new(Vec::new()),
            open: watch::Sender::new(()),
        });
        let pool = Arc::clone(&readers);
        runtime.spawn(async move {
            writer::run(writer, queue, caches, checkpoints).await;
            drop(pool);
        });
        Ok(Self {
            jobs,
            readers,
            users,
            targets,
            groups,
            realm,
            renderers: render_pool::permits(),
        })
    }

    /// Runs `work` on the writer with the groups' graph and `user_id`'s groups resolved
    /// on a reader first. If the groups changed in between, it resolves them again and
    /// retries, so that no graph is read or walked in the writer; only after
    /// [`GROUP_ATTEMPTS`] such races is the graph read there.
    pub async fn write_with_groups<T, E, F>(
        &self,
        user_id: i64,
        heavy: bool,
        work: F,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<Error> + Send + 'static,
        F: Fn(&Connection, &GroupGraph) -> Result<T, E> + Send + Sync + 'static,
    {
        let work = Arc::new(work);
        for _ in 1..GROUP_ATTEMPTS {
            let groups = self.groups_for(user_id).await?;
            let attempt = Arc::clone(&work);
            let done = self
                .write_weighted(heavy, move |conn| match groups.if_current() {
                    Some(graph) => attempt(conn, &graph).map(Some),
                    None => Ok(None),
                })
                .await?;
            if let Some(value) = done {
                return Ok(value);
            }
        }
        let groups = self.groups_for(user_id).await?;
        self.write_weighted(heavy, move |conn| work(conn, &*groups.current(conn)?))
            .await
    }

    /// Like [`Store::groups_for`] for requests that will not need the groups (an
    /// administrator subscribing people): the cached graph if there is one, else nothing
    /// is read now, and a write job that needs the graph after all reads it (off the
    /// async threads, but in the writer).
    pub fn groups_later(&self, user_id: i64) -> Groups {
        Groups::later(&self.groups, user_id)
    }

    /// The groups' membership graph as of the last commit, with `user_id`'s groups
    /// resolved, for checking that user's permissions: from memory when nothing changed,
    /// else read on a reader thread, so that no walk of the groups runs on the async
    /// threads. A write job takes it with [`Groups::current`].
    pub async fn groups_for(&self, user_id: i64) -> Result<Groups> {
        if let Some(known) = Groups::known(&self.groups, user_id) {
            return Ok(known);
        }
        let cache = Arc::clone(&self.groups);
        self.read(move |conn| Groups::resolve(&cache, conn, user_id))
            .await
    }

    /// The writer's memory of post targets, for write jobs that post to streams.
    pub fn post_targets(&self) -> Arc<PostTargets> {
        Arc::clone(&self.targets)
    }

    /// Tells when every connection to the database is closed: after the last clone of the
    /// store is dropped, the writer has finished its queue and reads in flight are done.
    /// Until then the files must not be removed: a connection closing late would delete
    /// the log of a database created at the same path.
    pub fn closing(&self) -> Closing {
        Closing(self.readers.open.subscribe())
    }

    /// Whether a database already exists in `data_dir` (for `--seed`'s refusal).
    pub fn exists_in(data_dir: &Path) -> bool {
        data_dir.join(DATABASE_FILE).exists()
    }

    /// Runs `work` on the writer; its changes are committed (or, on `Err`, rolled back)
    /// before this returns.
    ///
    /// `work` changes rows, not the schema, and may run twice: the first time inside a
    /// group that is then rolled back because another job failed half-way.
    pub async fn write<T, E, F>(&self, work: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<Error> + Send + 'static,
        F: Fn(&Connection) -> Result<T, E> + Send + 'static,
    {
        self.queue(work, false).await
    }

    /// Like [`Store::write`]; when `heavy` (work on thousands of rows), its group runs
    /// off the async threads, so that other requests are served meanwhile.
    pub async fn write_weighted<T, E, F>(&self, heavy: bool, work: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<Error> + Send + 'static,
        F: Fn(&Connection) -> Result<T, E> + Send + 'static,
    {
        self.queue(work, heavy).await
    }

    async fn queue<T, E, F>(&self, work: F, heavy: bool) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<Error> + Send + 'static,
        F: Fn(&Connection) -> Result<T, E> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel::<Result<T, E>>();
        let job: Box<dyn Job> = Box::new(Pending {
            work,
            heavy,
            outcome: None,
            reply,
        });
        self.jobs
            .send(job)
            .await
            .map_err(|_| E::from(Error::WriterStopped))?;
        answer.await.map_err(|_| E::from(Error::WriterStopped))?
    }

    /// A user by API key, from memory when possible (webhooks authenticate this way).
    pub async fn cached_user_by_api_key(&self, api_key: &str) -> Result<Option<Arc<UserRow>>> {
        if let Some(user) = self.users.by_key(api_key) {
            return Ok(Some(user));
        }
        let api_key = api_key.to_owned();
        self.cache_miss(move |conn| users::user_by_api_key(conn, &api_key))
            .await
    }

    /// The organization's URL (`None`: no realm yet), from memory when nothing changed.
    pub async fn realm_url(&self) -> Result<Option<Arc<str>>> {
        if let Some(known) = self.realm.url() {
            return Ok(known);
        }
        let generation = self.realm.generation();
        let url: Option<Arc<str>> = self
            .read(|conn| Ok::<_, Error>(users::realm(conn)?.map(|realm| realm.url.into())))
            .await?;
        self.realm.remember(url.clone(), generation);
        Ok(url)
    }

    async fn cache_miss<F>(&self, lookup: F) -> Result<Option<Arc<UserRow>>>
    where
        F: FnOnce(&Connection) -> Result<Option<UserRow>> + Send + 'static,
    {
        let generation = self.users.generation();
        let found = self.read(lookup).await?.map(Arc::new);
        if let Some(user) = &found {
            self.users.remember(user, generation);
        }
        Ok(found)
    }

    /// Runs `work` on a pooled read connection, off the async threads.
    pub async fn read<T, E, F>(&self, work: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<Error> + Send + 'static,
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
    {
        let readers = Arc::clone(&self.readers);
        tokio::task::spawn_blocking(move || {
            let conn = readers.take().map_err(E::from)?;
            let outcome = work(&conn);
            readers.give_back(conn);
            outcome
        })
        .await
        .map_err(|_| E::from(Error::WriterStopped))?
    }
}

impl ReaderPool {
    fn take(&self) -> Result<Connection> {
        let pooled = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        match pooled {
            Some(conn) => Ok(conn),
            None => open_connection(&self.path, true),
        }
    }

    /// Keeps a few connections for reuse; a burst beyond that closes its extras rather
    /// than holding one open per blocking thread forever.
    fn give_back(&self, conn: Connection) {
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < MAX_IDLE_READERS
        {
            idle.push(conn);
        }
    }
}

fn open_connection(path: &Path, read_only: bool) -> Result<Connection> {
    match open_wal(path, read_only) {
        Err(Error::Database(error))
            if matches!(
                error.sqlite_error_code(),
                Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly)
            ) && path.is_file()
                && !has_log(path) =>
        {
            open_immutable(path)
        }
        opened => opened,
    }
}

/// Whether a write-ahead log with content lies beside the database.
fn has_log(path: &Path) -> bool {
    let mut log = path.as_os_str().to_owned();
    log.push("-wal");
    std::fs::metadata(log).is_ok_and(|meta| meta.len() > 0)
}

/// A database closed cleanly in a directory the server cannot write (a read-only mount):
/// WAL mode would need to create its shared-memory file beside it, so it is opened as
/// immutable instead. Reads work; every write fails with `SQLITE_READONLY`, which the
/// client hears as a plain 503. (With a log beside it, SQLite reads it as usual.)
fn open_immutable(path: &Path) -> Result<Connection> {
    let escaped = path
        .to_string_lossy()
        .replace('%', "%25")
        .replace('?', "%3f")
        .replace('#', "%23");
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(format!("file:{escaped}?immutable=1"), flags)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    tracing::warn!(path = %path.display(), "the database is read-only: serving reads, refusing writes");
    Ok(conn)
}

fn open_wal(path: &Path, read_only: bool) -> Result<Connection> {
    let flags = if read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
    };
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // WAL + NORMAL: a commit survives a killed process; readers never block the writer.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    if !read_only {
        // A write on a million subscriptions dirties tens of MiB of pages; with SQLite's
        // default 2 MiB cache they spill to the log mid-transaction, and are read back.
        conn.pragma_update(None, "cache_size", -WRITER_CACHE_KIB)?;
    }
    Ok(conn)
}

/// Creates the database in `data_dir` from `seed`, all or nothing: if anything fails,
/// no database is left behind.
pub fn create_seeded(data_dir: &Path, seed: &seed::Seed) -> Result<()> {
    crate::embed::data_dir::make_private(data_dir)?;
    let path = data_dir.join(DATABASE_FILE);
    let outcome = (|| {
        crate::embed::data_dir::create_private_file(&path)?;
        let mut conn = open_connection(&path, false)?;
        schema::migrate(&mut conn)?;
        let tx = conn.transaction()?;
        seed::load_seed(&tx, seed)?;
        tx.commit()?;
        Ok(())
    })();
    if outcome.is_err() {
        let _ = crate::embed::data_dir::erase(data_dir);
    }
    outcome
}
