//! A per-message time budget for the costly parts of rendering (syntax highlighting
//! and KaTeX): 5 s, as Zulip's per-message limit, behind their own limits (bytes and
//! time highlighted per block; 0.5 s, `maxExpand` and a memory cap per formula).
//! Rendering one message runs synchronously on one thread, so the deadline lives in a
//! thread-local set by the entry points in `mod.rs`; once it has passed, code is shown
//! unhighlighted and math as Zulip shows a formula it cannot render, so a hostile
//! message costs at most the budget plus one bounded step.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// How long the costly parts of one message may take in all.
pub(super) const MESSAGE_BUDGET: Duration = Duration::from_secs(5);

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Keeps the deadline set while alive; nested renders share the outer deadline.
pub(super) struct Scope {
    outer: bool,
}

/// Starts the budget of one message, unless one is already running on this thread.
pub(super) fn start() -> Scope {
    DEADLINE.with(|deadline| {
        if deadline.get().is_some() {
            return Scope { outer: false };
        }
        deadline.set(Instant::now().checked_add(MESSAGE_BUDGET));
        Scope { outer: true }
    })
}

impl Drop for Scope {
    fn drop(&mut self) {
        if self.outer {
            DEADLINE.with(|deadline| deadline.set(None));
        }
    }
}

/// Time left for this message; a full budget when called outside a render.
pub(super) fn remaining() -> Duration {
    DEADLINE.with(|deadline| match deadline.get() {
        Some(at) => at.saturating_duration_since(Instant::now()),
        None => MESSAGE_BUDGET,
    })
}

/// Runs `work` (a one-time start-up, such as loading grammars or KaTeX) without
/// charging its time to the running message: the deadline moves by as much.
pub(super) fn excluding<T>(work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = work();
    extend(started.elapsed());
    out
}

/// Gives the running message `more` time: what it spent waiting for others' work.
pub(super) fn extend(more: Duration) {
    DEADLINE.with(|deadline| {
        if let Some(at) = deadline.get() {
            deadline.set(at.checked_add(more).or(Some(at)));
        }
    });
}

/// Whether this message's budget is spent.
pub(super) fn exhausted() -> bool {
    remaining().is_zero()
}

/// Spends the running budget at once (tests of what happens past it).
#[cfg(test)]
pub(super) fn force_exhausted() {
    DEADLINE.with(|deadline| deadline.set(Some(Instant::now())));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_scopes_share_the_outer_deadline() {
        assert_eq!(remaining(), MESSAGE_BUDGET);
        let outer = start();
        let first = remaining();
        {
            let _inner = start();
            assert!(remaining() <= first);
        }
        // The inner scope ending does not clear the outer deadline.
        assert!(DEADLINE.with(Cell::get).is_some());
        drop(outer);
        assert!(DEADLINE.with(Cell::get).is_none());
        assert!(!exhausted());
    }

    #[test]
    fn excluded_work_moves_the_deadline() {
        let _scope = start();
        let before = DEADLINE.with(Cell::get);
        excluding(|| std::thread::sleep(Duration::from_millis(5)));
        let after = DEADLINE.with(Cell::get);
        assert!(after > before);
    }

    #[test]
    fn a_passed_deadline_is_exhausted() {
        let _scope = start();
        DEADLINE.with(|deadline| deadline.set(Some(Instant::now())));
        assert!(exhausted());
    }
}
