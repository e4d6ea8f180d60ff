//! Incoming webhooks without I/O: `plan` turns a request into the messages to send or
//! the answer to give, whoever sent it; the endpoint (`api/webhooks.rs`) adds the sender,
//! the rate limit and the database, and [`dry_run`] previews the plan for the app.

pub mod dry_run;
pub mod notices;
pub(crate) mod plan;
