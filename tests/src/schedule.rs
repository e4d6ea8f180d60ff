//! Heavy tests run alone. The process-level suites are one test binary, whose tests run
//! in parallel (one per core); a load, a SIGKILL under load, slow clients waiting out
//! timeouts or the app driven end to end must not share the machine with other servers,
//! or their bounds and the machine's two cores make them flaky. So every test of that
//! binary starts by taking a guard: [`alone`] for a heavy test (it waits until no other
//! test holds one, and holds off the others), [`shared`] for the rest (they run beside
//! each other).
//!
//! The guards are a writer-preferring read-write lock of the harness's own: a heavy test
//! that waits is not overtaken by tests that start later. A test takes one guard, first,
//! and keeps it to its end (`let _alone = alone();`); it never takes a second.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

#[derive(Default)]
struct State {
    /// Tests holding [`Shared`].
    shared: usize,
    /// Whether a test holds [`Alone`].
    alone: bool,
    /// Heavy tests waiting for their turn.
    waiting: usize,
}

static STATE: Mutex<State> = Mutex::new(State {
    shared: 0,
    alone: false,
    waiting: 0,
});
static CHANGED: Condvar = Condvar::new();

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

fn wait(guard: MutexGuard<'static, State>) -> MutexGuard<'static, State> {
    CHANGED.wait(guard).unwrap_or_else(PoisonError::into_inner)
}

/// Held by a heavy test: no other guarded test runs meanwhile.
#[must_use = "the test runs alone only while the guard is held"]
pub struct Alone(());

/// Held by an ordinary test: it runs beside other ordinary tests, never beside a heavy one.
#[must_use = "the test is kept apart from heavy tests only while the guard is held"]
pub struct Shared(());

/// Waits until no other test holds a guard, then keeps every other one waiting.
pub fn alone() -> Alone {
    let mut state = state();
    state.waiting += 1;
    while state.alone || state.shared > 0 {
        state = wait(state);
    }
    state.waiting -= 1;
    state.alone = true;
    Alone(())
}

/// Waits while a heavy test runs or waits, then runs beside the other ordinary tests.
pub fn shared() -> Shared {
    let mut state = state();
    while state.alone || state.waiting > 0 {
        state = wait(state);
    }
    state.shared += 1;
    Shared(())
}

impl Drop for Alone {
    fn drop(&mut self) {
        state().alone = false;
        CHANGED.notify_all();
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        state().shared -= 1;
        CHANGED.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn a_heavy_test_never_runs_beside_another_guarded_test() {
        let running = Arc::new(AtomicUsize::new(0));
        let heavy_saw_others = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|n| {
                let (running, heavy_saw_others) = (running.clone(), heavy_saw_others.clone());
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        if n % 4 == 0 {
                            let _alone = alone();
                            if running.fetch_add(1, Ordering::SeqCst) != 0 {
                                heavy_saw_others.fetch_add(1, Ordering::SeqCst);
                            }
                            std::thread::yield_now();
                            running.fetch_sub(1, Ordering::SeqCst);
                        } else {
                            let _shared = shared();
                            running.fetch_add(1, Ordering::SeqCst);
                            std::thread::yield_now();
                            running.fetch_sub(1, Ordering::SeqCst);
                        }
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(heavy_saw_others.load(Ordering::SeqCst), 0);
    }
}
