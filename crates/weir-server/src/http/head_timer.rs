//! The timer behind hyper's head-read timeout: one alarm per connection.
//!
//! hyper arms a fresh timer for every request head it waits for and drops it once the
//! head is in. With tokio's own timer (`TokioTimer`) every arming took the timer driver's
//! lock and, most of the time, woke the driver through its eventfd: under webhook load
//! that was a `write` and an extra `epoll_wait` for 95% of requests. Here a connection
//! keeps one tokio alarm. A head's deadline re-arms it only when the alarm would ring
//! after that deadline or has already rung, so on a busy keep-alive connection the
//! alarm is re-armed about once per timeout rather than once per request. An alarm that
//! rings before a head's deadline is harmless: the head checks the clock and re-arms it.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::{Instant, Sleep};

/// A connection's timer, handed to hyper's connection builder.
#[derive(Clone, Default)]
pub struct HeadTimer {
    alarm: Arc<Mutex<Option<Pin<Box<Sleep>>>>>,
}

impl HeadTimer {
    pub fn new() -> Self {
        Self::default()
    }
}

impl hyper::rt::Timer for HeadTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        self.sleep_until(self.now() + duration)
    }

    fn sleep_until(&self, deadline: std::time::Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(HeadDeadline {
            deadline: Instant::from_std(deadline),
            alarm: Arc::clone(&self.alarm),
        })
    }

    /// tokio's clock, so that tests pausing time see the same one the alarm uses.
    fn now(&self) -> std::time::Instant {
        Instant::now().into_std()
    }
}

/// One head's deadline, kept by the connection's shared alarm.
struct HeadDeadline {
    deadline: Instant,
    alarm: Arc<Mutex<Option<Pin<Box<Sleep>>>>>,
}

impl hyper::rt::Sleep for HeadDeadline {}

impl Future for HeadDeadline {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let deadline = self.deadline;
        if Instant::now() >= deadline {
            return Poll::Ready(());
        }
        let mut alarm = self.alarm.lock().unwrap_or_else(PoisonError::into_inner);
        let alarm = alarm.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if alarm.is_elapsed() || alarm.deadline() > deadline {
            alarm.as_mut().reset(deadline);
        }
        if alarm.as_mut().poll(cx).is_pending() {
            return Poll::Pending;
        }
        if alarm.deadline() >= deadline {
            return Poll::Ready(());
        }
        // It rang for an earlier deadline between the clock check and now.
        alarm.as_mut().reset(deadline);
        alarm.as_mut().poll(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::future::poll_fn;

    use hyper::rt::Timer;

    use super::*;

    fn is_ready(sleep: &mut Pin<Box<dyn hyper::rt::Sleep>>) -> bool {
        let waker = std::task::Waker::noop();
        sleep
            .as_mut()
            .poll(&mut Context::from_waker(waker))
            .is_ready()
    }

    #[tokio::test(start_paused = true)]
    async fn a_head_rings_at_its_own_deadline_not_at_an_earlier_heads() {
        let timer = HeadTimer::new();
        let mut first = timer.sleep(Duration::from_secs(10));
        assert!(!is_ready(&mut first));
        drop(first);

        tokio::time::advance(Duration::from_secs(4)).await;
        let mut second = timer.sleep(Duration::from_secs(10));
        assert!(!is_ready(&mut second));
        // The alarm, armed for the first head, rings at 10 s; the second head waits on.
        tokio::time::advance(Duration::from_secs(7)).await;
        assert!(!is_ready(&mut second));
        tokio::time::advance(Duration::from_secs(3)).await;
        assert!(is_ready(&mut second));
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiting_head_is_woken_when_its_deadline_passes() {
        let timer = HeadTimer::new();
        let mut earlier = timer.sleep(Duration::from_secs(1));
        assert!(!is_ready(&mut earlier));
        drop(earlier);
        let mut head = timer.sleep(Duration::from_secs(5));
        let started = Instant::now();
        poll_fn(|cx| head.as_mut().poll(cx)).await;
        assert_eq!(started.elapsed(), Duration::from_secs(5));
    }

    #[tokio::test(start_paused = true)]
    async fn an_earlier_deadline_than_the_alarms_re_arms_it() {
        let timer = HeadTimer::new();
        let mut late = timer.sleep(Duration::from_secs(30));
        assert!(!is_ready(&mut late));
        let mut early = timer.sleep(Duration::from_secs(2));
        let started = Instant::now();
        poll_fn(|cx| early.as_mut().poll(cx)).await;
        assert_eq!(started.elapsed(), Duration::from_secs(2));
        assert!(!is_ready(&mut late));
    }
}
