//! The groups' membership graph, kept between requests so that permission checks do
//! not read every group and user each time, and built on a reader thread, never on the
//! async threads (in the writer only as a last resort, see `Store::write_with_groups`).
//!
//! Invalidated like the user cache: the writer's update hook notices any change to
//! users, members or subgroups (see [`WATCHED`]), and after that group's commit the
//! graph is dropped and the generation bumped. A graph read before the bump is never
//! kept after it, and a write job uses the graph it was given only if the generation is
//! unchanged and its own transaction changed nothing yet ([`Groups::if_current`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use rusqlite::Connection;

use super::groups::memberships;
use crate::error::Result;
use crate::rules::group_graph::GroupGraph;

/// The tables whose changes the update hook reports as the graph's: users, and the
/// temporary table that triggers count members' and subgroups' changes in (their tables
/// are `WITHOUT ROWID`, which SQLite's update hook does not report).
pub(super) const WATCHED: [&str; 2] = ["users", CHANGES_TABLE];

const CHANGES_TABLE: &str = "weir_group_changes";

/// Creates the temporary triggers on the writer's connection.
pub(super) fn watch_groups(conn: &Connection) -> Result<()> {
    let mut sql = format!(
        "CREATE TEMP TABLE {CHANGES_TABLE} (id INTEGER PRIMARY KEY, count INTEGER NOT NULL);
         INSERT INTO {CHANGES_TABLE} VALUES (1, 0);"
    );
    for table in ["user_group_members", "user_group_subgroups"] {
        for event in ["INSERT", "UPDATE", "DELETE"] {
            sql.push_str(&format!(
                "CREATE TEMP TRIGGER weir_{table}_{event} AFTER {event} ON main.{table}
                     BEGIN UPDATE {CHANGES_TABLE} SET count = count + 1; END;"
            ));
        }
    }
    conn.execute_batch(&sql)?;
    Ok(())
}

#[derive(Default)]
pub struct GroupCache {
    generation: AtomicU64,
    /// Set by the writer's update hook; read after each commit.
    dirty: Arc<AtomicBool>,
    graph: RwLock<Option<(u64, Arc<GroupGraph>)>>,
    /// How many times the graph was read from the database, and how many of them in the
    /// writer (for tests).
    builds: AtomicU64,
    writer_builds: AtomicU64,
}

impl GroupCache {
    pub fn dirty_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.dirty)
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The graph as of the last commit, if it is known.
    fn cached(&self) -> Option<(u64, Arc<GroupGraph>)> {
        let graph = self.graph.read().unwrap_or_else(PoisonError::into_inner);
        graph
            .as_ref()
            .filter(|(generation, _)| *generation == self.generation())
            .map(|(generation, graph)| (*generation, Arc::clone(graph)))
    }

    fn build(&self, conn: &Connection) -> Result<Arc<GroupGraph>> {
        self.builds.fetch_add(1, Ordering::Relaxed);
        Ok(Arc::new(GroupGraph::from(memberships(conn)?)))
    }

    /// Keeps `graph`, read at `generation`, unless the groups changed since.
    fn remember(&self, graph: &Arc<GroupGraph>, generation: u64) {
        let mut kept = self.graph.write().unwrap_or_else(PoisonError::into_inner);
        // Checked under the lock that `invalidate_if_dirty` also takes.
        if self.generation() == generation {
            *kept = Some((generation, Arc::clone(graph)));
        }
    }

    /// Called by the writer after a commit.
    pub fn invalidate_if_dirty(&self) {
        if self.dirty.swap(false, Ordering::AcqRel) {
            let mut kept = self.graph.write().unwrap_or_else(PoisonError::into_inner);
            self.generation.fetch_add(1, Ordering::AcqRel);
            *kept = None;
        }
    }

    #[cfg(test)]
    pub fn builds(&self) -> u64 {
        self.builds.load(Ordering::Relaxed)
    }

    #[cfg(test)]
    pub fn writer_builds(&self) -> u64 {
        self.writer_builds.load(Ordering::Relaxed)
    }
}

/// The graph one request checks permissions against, with its user's groups resolved
/// (`None`: not read yet, see [`Groups::later`]).
#[derive(Clone)]
pub struct Groups {
    graph: Option<Arc<GroupGraph>>,
    generation: u64,
    user_id: i64,
    cache: Arc<GroupCache>,
}

impl Groups {
    /// Called off the async threads (a reader): the cached graph, or one read from
    /// `conn`, with `user_id`'s groups walked.
    pub(super) fn resolve(
        cache: &Arc<GroupCache>,
        conn: &Connection,
        user_id: i64,
    ) -> Result<Self> {
        let (generation, graph) = match cache.cached() {
            Some(cached) => cached,
            None => {
                let generation = cache.generation();
                let graph = cache.build(conn)?;
                cache.remember(&graph, generation);
                (generation, graph)
            }
        };
        graph.groups_of(user_id);
        Ok(Self {
            graph: Some(graph),
            generation,
            user_id,
            cache: Arc::clone(cache),
        })
    }

    /// On the async thread: the cached graph, if it already knows `user_id`'s groups.
    pub(super) fn known(cache: &Arc<GroupCache>, user_id: i64) -> Option<Self> {
        let (generation, graph) = cache.cached()?;
        graph.knows(user_id).then(|| Self {
            graph: Some(graph),
            generation,
            user_id,
            cache: Arc::clone(cache),
        })
    }

    /// On the async thread, for requests that seldom need the groups: the cached graph,
    /// or nothing yet, in which case [`Groups::current`] reads it if the job needs it.
    pub(super) fn later(cache: &Arc<GroupCache>, user_id: i64) -> Self {
        let (generation, graph) = cache
            .cached()
            .map_or((0, None), |(generation, graph)| (generation, Some(graph)));
        Self {
            graph,
            generation,
            user_id,
            cache: Arc::clone(cache),
        }
    }

    /// The graph, for a read job (it need only be as of some recent commit).
    pub fn graph(&self) -> Option<&Arc<GroupGraph>> {
        self.graph.as_ref()
    }

    /// For a read job on a reader's `conn`: the graph known when the request came in,
    /// else the cached one, else one read from `conn` now and kept for the next.
    pub fn on_reader(&self, conn: &Connection) -> Result<Arc<GroupGraph>> {
        if let Some(graph) = &self.graph {
            return Ok(Arc::clone(graph));
        }
        match Self::resolve(&self.cache, conn, self.user_id)?.graph {
            Some(graph) => Ok(graph),
            None => self.cache.build(conn),
        }
    }

    /// For a write job: the graph resolved before the job was queued, if no group or user
    /// changed since (the writer's transaction included).
    pub fn if_current(&self) -> Option<Arc<GroupGraph>> {
        let dirty = self.cache.dirty.load(Ordering::Acquire);
        self.graph
            .as_ref()
            .filter(|_| !dirty && self.cache.generation() == self.generation)
            .map(Arc::clone)
    }

    /// For a write job on the writer's `conn`: the graph resolved before the job was
    /// queued if no group or user changed since (the usual case: nothing to do), else
    /// the graph read again from `conn`, off the async threads.
    pub fn current(&self, conn: &Connection) -> Result<Arc<GroupGraph>> {
        if let Some(graph) = self.if_current() {
            return Ok(graph);
        }
        let dirty = self.cache.dirty.load(Ordering::Acquire);
        self.cache.writer_builds.fetch_add(1, Ordering::Relaxed);
        super::writer::off_async_threads(true, || {
            let generation = self.cache.generation();
            let graph = self.cache.build(conn)?;
            if !dirty {
                self.cache.remember(&graph, generation);
            }
            graph.groups_of(self.user_id);
            Ok(graph)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::error::Error;
    use crate::rules::groups::SettingValue;
    use crate::store::{Store, system};

    async fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store
            .write(|conn| {
                conn.execute_batch(
                    "INSERT INTO users (user_id, email, email_key, full_name, role, api_key,
                                        date_joined)
                         VALUES (1, 'a@x.test', 'a@x.test', 'A', 400, 'k1', '2026-01-01'),
                                (2, 'b@x.test', 'b@x.test', 'B', 600, 'k2', '2026-01-01');
                     INSERT INTO user_groups (group_id, name, name_key) VALUES (20, 'g', 'g');",
                )?;
                Ok::<_, Error>(())
            })
            .await
            .unwrap();
        (dir, store)
    }

    fn add_member(user_id: i64) -> impl Fn(&rusqlite::Connection) -> Result<(), Error> {
        move |conn| {
            conn.execute(
                "INSERT INTO user_group_members (group_id, user_id) VALUES (20, ?1)",
                [user_id],
            )?;
            Ok(())
        }
    }

    #[tokio::test]
    async fn the_graph_is_read_once_until_groups_or_users_change() {
        let (_dir, store) = store().await;
        let first = store.groups_for(1).await.unwrap();
        store.groups_for(1).await.unwrap();
        store.groups_for(2).await.unwrap();
        assert_eq!(store.groups.builds(), 1);
        assert!(first.graph().unwrap().is_member(system::EVERYONE, 1, false));
        // A change elsewhere keeps it.
        store
            .write(|conn| {
                conn.execute(
                    "INSERT INTO streams (stream_id, name, name_key, date_created)
                     VALUES (1, 's', 's', 0)",
                    [],
                )?;
                Ok::<_, Error>(())
            })
            .await
            .unwrap();
        store.groups_for(1).await.unwrap();
        assert_eq!(store.groups.builds(), 1);
        // A member added: the next request reads the graph again.
        store.write(add_member(1)).await.unwrap();
        assert!(
            store
                .groups_for(1)
                .await
                .unwrap()
                .graph()
                .unwrap()
                .is_member(20, 1, true)
        );
        assert_eq!(store.groups.builds(), 2);
        // A user deactivated: read again, and they hold nothing any more.
        store
            .write(|conn| {
                conn.execute("UPDATE users SET is_active = 0 WHERE user_id = 1", [])?;
                Ok::<_, Error>(())
            })
            .await
            .unwrap();
        let after = store.groups_for(2).await.unwrap();
        assert_eq!(store.groups.builds(), 3);
        assert!(
            !after
                .graph()
                .unwrap()
                .holds(&SettingValue::Group(system::EVERYONE), 1)
        );
        assert!(
            after
                .graph()
                .unwrap()
                .holds(&SettingValue::Group(system::EVERYONE), 2)
        );
    }

    #[tokio::test]
    async fn a_write_job_never_checks_against_a_graph_older_than_its_transaction() {
        let (_dir, store) = store().await;
        let before = store.groups_for(2).await.unwrap();
        // Current: the job uses the graph it was given, reading nothing.
        let given = before.clone();
        let same = store
            .write(move |conn| Ok::<_, Error>(given.current(conn)?.is_member(20, 2, true)))
            .await
            .unwrap();
        assert!(!same);
        assert_eq!(store.groups.builds(), 1);
        // Changed since it was resolved: the job reads the graph again.
        store.write(add_member(2)).await.unwrap();
        let given = before.clone();
        let fresh = store
            .write(move |conn| Ok::<_, Error>(given.current(conn)?.is_member(20, 2, true)))
            .await
            .unwrap();
        assert!(fresh);
        // Changed by this very transaction: read again too.
        let given = before;
        let (own, removed) = store
            .write(move |conn| {
                conn.execute("DELETE FROM user_group_members WHERE user_id = 2", [])?;
                let graph = given.current(conn)?;
                Ok::<_, Error>((
                    graph.is_member(20, 2, true),
                    graph.holds(&SettingValue::Group(20), 2),
                ))
            })
            .await
            .unwrap();
        assert!(!own && !removed);
    }

    #[tokio::test]
    async fn a_change_racing_a_request_makes_it_resolve_the_groups_again_not_the_writer() {
        let (_dir, store) = store().await;
        store.groups_for(2).await.unwrap();
        // Queued together, the change and the request share the writer's transaction:
        // the request's graph is stale by the time its job runs.
        let (_, seen) = tokio::join!(
            store.write(add_member(2)),
            store.write_with_groups(2, false, |_conn, graph| {
                Ok::<_, Error>(graph.is_member(20, 2, true))
            })
        );
        assert!(seen.unwrap());
        assert_eq!(
            (store.groups.builds(), store.groups.writer_builds()),
            (2, 0)
        );
    }

    #[tokio::test]
    async fn a_graph_left_for_later_is_read_by_the_job_that_needs_it() {
        let (_dir, store) = store().await;
        let later = store.groups_later(1);
        assert!(later.graph().is_none());
        assert_eq!(store.groups.builds(), 0);
        let held = store
            .write(move |conn| {
                Ok::<_, Error>(later.current(conn)?.is_member(system::EVERYONE, 1, false))
            })
            .await
            .unwrap();
        assert!(held);
        // Read in the job, kept for the requests after it.
        assert!(store.groups_later(1).graph().is_some());
        store.groups_for(1).await.unwrap();
        assert_eq!(store.groups.builds(), 1);
    }
}
