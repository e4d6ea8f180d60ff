//! Users by API key, kept in memory so that authenticating a request costs
//! no database round trip. The writer invalidates it: an SQLite update hook notices any
//! change to `users`, and after that group's commit the cache is emptied and its
//! generation bumped. A read that started before the bump never fills the cache, so a
//! regenerated key or a deactivation is never served stale after its commit.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use super::UserRow;

#[derive(Default)]
pub struct UserCache {
    generation: AtomicU64,
    /// Set by the writer's update hook; read after each commit.
    dirty: Arc<AtomicBool>,
    by_key: RwLock<HashMap<String, Arc<UserRow>>>,
}

impl UserCache {
    pub fn dirty_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.dirty)
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    pub fn by_key(&self, api_key: &str) -> Option<Arc<UserRow>> {
        let map = self.by_key.read().unwrap_or_else(PoisonError::into_inner);
        map.get(api_key).cloned()
    }

    /// Remembers `user`, read from the database at `generation`, unless users changed since.
    pub fn remember(&self, user: &Arc<UserRow>, generation: u64) {
        let mut by_key = self.by_key.write().unwrap_or_else(PoisonError::into_inner);
        // Checked under the lock that `invalidate_if_dirty` also takes.
        if self.generation() != generation {
            return;
        }
        by_key.insert(user.api_key.clone(), Arc::clone(user));
    }

    /// Called by the writer after a commit.
    pub fn invalidate_if_dirty(&self) {
        if self.dirty.swap(false, Ordering::AcqRel) {
            let mut by_key = self.by_key.write().unwrap_or_else(PoisonError::into_inner);
            self.generation.fetch_add(1, Ordering::AcqRel);
            by_key.clear();
        }
    }
}
