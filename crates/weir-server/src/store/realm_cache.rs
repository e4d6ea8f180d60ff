//! The organization's URL, kept in memory: a webhook message with a link needs it to
//! render (Zulip makes links into the organization relative), and reading it cost a
//! trip to a reader thread per message. The writer's update hook marks it stale on any
//! change to `realm`; after that group's commit it is forgotten and its generation
//! bumped, so that a read begun before the change never fills it (as `cache.rs`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

/// The realm's URL as last read: `Some(None)` when there is no realm row.
type Known = Option<Option<Arc<str>>>;

#[derive(Default)]
pub struct RealmCache {
    generation: AtomicU64,
    /// Set by the writer's update hook; read after each commit.
    dirty: Arc<AtomicBool>,
    url: RwLock<Known>,
}

impl RealmCache {
    pub fn dirty_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.dirty)
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The URL if it is known (the outer `None`: read it).
    pub fn url(&self) -> Known {
        self.url
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Remembers `url`, read at `generation`, unless the realm changed since.
    pub fn remember(&self, url: Option<Arc<str>>, generation: u64) {
        let mut known = self.url.write().unwrap_or_else(PoisonError::into_inner);
        // Checked under the lock that `invalidate_if_dirty` also takes.
        if self.generation() == generation {
            *known = Some(url);
        }
    }

    /// Called by the writer after a commit.
    pub fn invalidate_if_dirty(&self) {
        if self.dirty.swap(false, Ordering::AcqRel) {
            let mut known = self.url.write().unwrap_or_else(PoisonError::into_inner);
            self.generation.fetch_add(1, Ordering::AcqRel);
            *known = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_from_before_a_change_is_not_remembered() {
        let cache = RealmCache::default();
        let before = cache.generation();
        cache.dirty_flag().store(true, Ordering::Release);
        cache.invalidate_if_dirty();
        cache.remember(Some("https://old.example".into()), before);
        assert_eq!(cache.url(), None);
        cache.remember(Some("https://new.example".into()), cache.generation());
        assert_eq!(cache.url(), Some(Some("https://new.example".into())));
        cache.dirty_flag().store(true, Ordering::Release);
        cache.invalidate_if_dirty();
        assert_eq!(cache.url(), None);
    }
}
