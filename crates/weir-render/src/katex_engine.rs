//! The thread that owns QuickJS with KaTeX loaded, and its bounded queue of formulas.
//!
//! One engine for the process (loading KaTeX costs a hundred milliseconds and megabytes,
//! so not one per rendering thread). Each formula runs under QuickJS's interrupt handler
//! with its own time limit, so nothing keeps the engine busy past it; a job whose caller
//! has given up is dropped unrun. The engine's heap is capped, and after a formula that
//! was interrupted or failed inside the engine (out of memory, stack overflow), or when
//! its heap stays large after a collection, the runtime is dropped and rebuilt, and the
//! freed memory handed back to the system.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, OnceLock, Weak};
use std::time::{Duration, Instant};

use rquickjs::{Context, Function, Runtime};

/// Formulas waiting for the engine: callers beyond this wait to enqueue (the render pool
/// is bounded, so in practice the queue holds one formula per rendering thread).
const QUEUE_CAPACITY: usize = 32;

/// The engine thread's stack: room for QuickJS's own limit below, with margin.
const THREAD_STACK_BYTES: usize = 16 * 1024 * 1024;

/// QuickJS's stack limit: deep enough for KaTeX on any formula a person writes; deeper
/// input ends in a stack-overflow error, not a crash.
const JS_STACK_BYTES: usize = 4 * 1024 * 1024;

/// The engine's heap: KaTeX loaded takes a few megabytes; a formula that wants more
/// than this fails (and the runtime is rebuilt).
const MEMORY_BYTES: usize = 64 * 1024 * 1024;

/// Heap kept after a formula and a collection beyond which the runtime is rebuilt.
const RETAINED_BYTES: i64 = 24 * 1024 * 1024;

/// Formulas between two looks at the heap's size (a look walks the whole heap).
const MEMORY_CHECK_EVERY: usize = 32;

/// How long loading KaTeX may take before math is given up for the process.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// While waiting for room in the queue, how often to look again.
const ENQUEUE_POLL: Duration = Duration::from_millis(2);

/// KaTeX itself, and the function the engine calls: Zulip's options are KaTeX's
/// defaults (HTML and MathML output, untrusted input, `maxExpand` 1000) with errors
/// thrown rather than drawn in red. A TeX error answers `null`; anything else (out of
/// memory, stack overflow) is an engine failure.
const KATEX_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/katex.min.js"));
const ENTRY_JS: &str = "globalThis.weirKatex = function (tex, display) {\
    try {\
        return katex.renderToString(tex, { displayMode: display, throwOnError: true, trust: false });\
    } catch (error) {\
        if (error instanceof katex.ParseError) { return null; }\
        throw error;\
    }\
};";

/// What a caller gets back for one formula.
pub(crate) struct Answer {
    /// KaTeX's HTML; `None` for a TeX error, a formula interrupted at its limit, or an
    /// engine failure.
    pub html: Option<String>,
    /// How long the engine worked on it (its wait in the queue excluded).
    pub ran: Duration,
}

struct Job {
    tex: String,
    display: bool,
    limit: Duration,
    /// Gone once the caller has given up: the job is then dropped unrun.
    caller: Weak<()>,
    reply: SyncSender<Answer>,
}

/// The queue into the engine thread.
pub(crate) struct Queue(SyncSender<Job>);

/// The engine's queue, started on first use (the first caller waits for KaTeX to load);
/// `None` if it cannot start.
pub(crate) fn queue() -> Option<&'static Queue> {
    static QUEUE: OnceLock<Option<Queue>> = OnceLock::new();
    QUEUE.get_or_init(start).as_ref()
}

impl Queue {
    /// Runs `tex` within `limit` of engine time, waiting for the engine until `give_up`
    /// at the latest; `None` when the wait reached `give_up` (the job is then dropped).
    pub(crate) fn run(
        &self,
        tex: &str,
        display: bool,
        limit: Duration,
        give_up: Instant,
    ) -> Option<Answer> {
        let ticket = Arc::new(());
        let (reply, answer) = mpsc::sync_channel(1);
        let mut job = Job {
            tex: tex.to_owned(),
            display,
            limit,
            caller: Arc::downgrade(&ticket),
            reply,
        };
        loop {
            match self.0.try_send(job) {
                Ok(()) => break,
                Err(TrySendError::Full(back)) => {
                    if Instant::now() >= give_up {
                        return None;
                    }
                    job = back;
                    std::thread::sleep(ENQUEUE_POLL);
                }
                Err(TrySendError::Disconnected(_)) => return None,
            }
        }
        let answer = answer
            .recv_timeout(give_up.saturating_duration_since(Instant::now()))
            .ok();
        drop(ticket);
        answer
    }
}

fn start() -> Option<Queue> {
    let (jobs, queue) = mpsc::sync_channel::<Job>(QUEUE_CAPACITY);
    let (ready, loaded) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("weir-katex".into())
        .stack_size(THREAD_STACK_BYTES)
        .spawn(move || {
            let engine = Engine::start();
            let works = engine
                .as_ref()
                .is_some_and(|engine| engine.run("x", false, START_TIMEOUT).html.is_some());
            let _ = ready.send(works);
            if works {
                serve(engine, &queue);
            }
        })
        .ok()?;
    loaded
        .recv_timeout(START_TIMEOUT)
        .ok()
        .filter(|works| *works)
        .map(|_| Queue(jobs))
}

/// The engine thread's loop: answers each job still wanted, then rebuilds the runtime
/// when that job left it in doubt or heavy.
fn serve(mut engine: Option<Engine>, queue: &Receiver<Job>) {
    let mut served = 0usize;
    for job in queue {
        if job.caller.strong_count() == 0 {
            continue;
        }
        if engine.is_none() {
            engine = Engine::start();
        }
        let Some(current) = engine.as_ref() else {
            let _ = job.reply.send(Answer {
                html: None,
                ran: Duration::ZERO,
            });
            continue;
        };
        let outcome = current.run(&job.tex, job.display, job.limit);
        let _ = job.reply.send(Answer {
            html: outcome.html,
            ran: outcome.ran,
        });
        served = served.wrapping_add(1);
        if outcome.failed
            || (served.is_multiple_of(MEMORY_CHECK_EVERY) && current.retains_too_much())
        {
            // Dropping the runtime frees its whole heap; glibc keeps freed pages until
            // asked, so ask.
            drop(engine.take());
            weir_malloc_trim::release_free_pages();
            engine = Engine::start();
        }
    }
}

/// One formula's run on the engine.
struct Outcome {
    html: Option<String>,
    ran: Duration,
    /// Interrupted, or failed inside the engine rather than with a TeX error.
    failed: bool,
}

/// QuickJS with KaTeX loaded, and the deadline its interrupt handler enforces.
struct Engine {
    runtime: Runtime,
    context: Context,
    /// Nanoseconds after `epoch` past which the running formula is interrupted.
    deadline: Arc<AtomicU64>,
    interrupted: Arc<AtomicBool>,
    epoch: Instant,
}

impl Engine {
    fn start() -> Option<Self> {
        let runtime = Runtime::new().ok()?;
        runtime.set_memory_limit(MEMORY_BYTES);
        runtime.set_max_stack_size(JS_STACK_BYTES);
        let epoch = Instant::now();
        let deadline = Arc::new(AtomicU64::new(u64::MAX));
        let interrupted = Arc::new(AtomicBool::new(false));
        let (at, flag) = (Arc::clone(&deadline), Arc::clone(&interrupted));
        runtime.set_interrupt_handler(Some(Box::new(move || {
            let late = nanos_since(epoch) > at.load(Ordering::Relaxed);
            if late {
                flag.store(true, Ordering::Relaxed);
            }
            late
        })));
        let context = Context::full(&runtime).ok()?;
        let loaded = context.with(|ctx| {
            ctx.eval::<(), _>(KATEX_JS)?;
            ctx.eval::<(), _>(ENTRY_JS)
        });
        loaded.ok()?;
        Some(Self {
            runtime,
            context,
            deadline,
            interrupted,
            epoch,
        })
    }

    /// One KaTeX call, interrupted once `limit` has passed.
    fn run(&self, tex: &str, display: bool, limit: Duration) -> Outcome {
        let started = Instant::now();
        let limit_nanos = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX);
        self.interrupted.store(false, Ordering::Relaxed);
        self.deadline.store(
            nanos_since(self.epoch).saturating_add(limit_nanos),
            Ordering::Relaxed,
        );
        let result = self.context.with(|ctx| {
            let entry: Function = ctx.globals().get("weirKatex")?;
            entry.call::<_, Option<String>>((tex, display))
        });
        self.deadline.store(u64::MAX, Ordering::Relaxed);
        let ran = started.elapsed();
        match result {
            Ok(html) if !self.interrupted.load(Ordering::Relaxed) => Outcome {
                html,
                ran,
                failed: false,
            },
            _ => Outcome {
                html: None,
                ran,
                failed: true,
            },
        }
    }

    /// Whether the heap stays large after a collection (KaTeX's own caches and a
    /// formula's leftovers are a few megabytes; more means something is held).
    fn retains_too_much(&self) -> bool {
        if self.runtime.memory_usage().malloc_size <= RETAINED_BYTES {
            return false;
        }
        self.runtime.run_gc();
        self.runtime.memory_usage().malloc_size > RETAINED_BYTES
    }
}

fn nanos_since(epoch: Instant) -> u64 {
    u64::try_from(epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::start().expect("KaTeX loads")
    }

    #[test]
    fn a_formula_past_its_limit_is_interrupted_and_the_engine_recovers() {
        let engine = engine();
        let bomb = format!("\\def\\a{{{}}}{}", "x".repeat(150), "\\a".repeat(1_000));
        let outcome = engine.run(&bomb, false, Duration::from_millis(50));
        // Interrupted, not a TeX error: KaTeX takes seconds over it.
        assert!(outcome.html.is_none() && outcome.failed);
        assert!(
            outcome.ran < Duration::from_millis(500),
            "{:?}",
            outcome.ran
        );
        let next = engine.run("a^2", false, Duration::from_secs(5));
        assert!(next.html.is_some() && !next.failed);
    }

    /// KaTeX loaded stays well below the size that triggers a rebuild; a heap that
    /// grows past it does trigger one.
    #[test]
    fn the_retained_heap_decides_a_rebuild() {
        let engine = engine();
        assert!(!engine.retains_too_much());
        let held = format!("globalThis.held = 'x'.repeat({});", RETAINED_BYTES + 1024);
        let grown = engine.context.with(|ctx| ctx.eval::<(), _>(held.as_str()));
        assert!(grown.is_ok());
        assert!(engine.retains_too_much());
    }

    #[test]
    fn tex_errors_are_answers_not_failures() {
        let engine = engine();
        let outcome = engine.run("\\frac{", false, Duration::from_secs(5));
        assert!(outcome.html.is_none() && !outcome.failed);
    }

    #[test]
    fn the_heap_is_capped() {
        let engine = engine();
        let loaded = engine.runtime.memory_usage().malloc_size;
        let room = usize::try_from(loaded).unwrap_or(0) + 2 * 1024 * 1024;
        engine.runtime.set_memory_limit(room);
        // Far more than 2 MiB of parse tree and output: fails inside the engine.
        let huge = "\\text{x}".repeat(20_000);
        let outcome = engine.run(&huge, false, Duration::from_secs(60));
        assert!(outcome.failed, "{:?}", outcome.html.map(|html| html.len()));
    }

    #[test]
    fn a_job_whose_caller_gave_up_is_not_run() {
        let (reply, answer) = mpsc::sync_channel(1);
        let (jobs, queue) = mpsc::sync_channel(4);
        let gone = Arc::new(());
        let job = Job {
            tex: "x".into(),
            display: false,
            limit: Duration::from_secs(1),
            caller: Arc::downgrade(&gone),
            reply,
        };
        drop(gone);
        jobs.send(job).expect("queued");
        drop(jobs);
        serve(None, &queue);
        // Not run: no engine was started for it and no answer sent.
        assert!(answer.try_recv().is_err());
    }
}
