//! Composing messages, for every endpoint that sends one (`POST /messages`, webhooks,
//! Notification Bot's notices): cut to Zulip's limits ([`Draft`]) and rendered on the
//! render pool before the write ([`Outgoing`], `Store::render`), then stored from inside
//! it ([`send`]). A notice that depends on what a write changed is rendered after it and
//! stored by a write of its own ([`deliver_notices`]). The endpoints live in `api/`, the
//! SQL in `store/messages.rs`.

mod quick;

use rusqlite::Connection;

use crate::clock::now_unix;
use crate::error::{ApiError, Error, Result};
use crate::render::{Directory, render_for_sender, render_markdown};
use crate::rules::access::has_content_access;
use crate::rules::names::check_topic;
use crate::store::{self, MessageInsert, Store, UserRow};

/// Zulip's limits on what a message may carry, and how it cuts what is longer: the
/// integrations' replay of Zulip's tests cuts as the server does, so they live there.
pub use quick::render_drafts;
pub use weir_integrations::limits::{MAX_CONTENT_CHARS, truncate_content, truncate_topic};

/// Zulip refuses a rendering larger than a hundred times the longest message: a few
/// characters can expand a lot (a reference link repeated, deep quotes).
pub const MAX_RENDERED_BYTES: usize = 100 * MAX_CONTENT_CHARS;

/// Zulip's answer when a rendering fails or is too large.
fn unable_to_render() -> ApiError {
    ApiError::bad_request("Unable to render message")
}

/// `html`, unless it is larger than Zulip allows.
fn bounded(html: String) -> Result<String, ApiError> {
    if html.len() > MAX_RENDERED_BYTES {
        return Err(unable_to_render());
    }
    Ok(html)
}

/// `POST /messages/render`: content longer than a message may be is refused rather than
/// rendered (Weir decision: Zulip would truncate it when sending), and so is a rendering
/// beyond [`MAX_RENDERED_BYTES`]. Rendered as `acting`'s messages are: their view of
/// streams and their `translate_emoticons`. Call it on the render pool (`Store::render`).
pub fn render_preview(conn: &Connection, acting: &UserRow, content: &str) -> Result<String> {
    if content.chars().count() > MAX_CONTENT_CHARS {
        return Err(ApiError::bad_request(format!(
            "Message too long (limit: {MAX_CONTENT_CHARS} characters)"
        ))
        .into());
    }
    let translate = store::translate_emoticons(conn, acting.user_id)?;
    let organization = Organization {
        conn,
        acting: Some(acting),
    };
    Ok(bounded(render_for_sender(
        content,
        &organization,
        translate,
    ))?)
}

/// A message's topic (checked as Zulip's `check_stream_topic` checks it: every path
/// that sends goes through here) and body, cut to Zulip's limits and rendered. Prepared before the
/// write, so that the single writer only inserts.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    pub topic: String,
    pub content: String,
    pub rendered: String,
}

/// A message's topic (checked) and body, cut to Zulip's limits, not yet rendered: what
/// a webhook's integration produces on the async worker, to render on the pool.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub topic: String,
    pub content: String,
}

impl Draft {
    pub fn new(topic: &str, content: &str) -> Result<Self, ApiError> {
        check_topic(topic)?;
        Ok(Self {
            topic: truncate_topic(topic),
            content: truncate_content(content),
        })
    }
}

impl Outgoing {
    /// A message rendered for an organization nobody can be mentioned in (the app's
    /// dry run, which has no database).
    pub fn new(topic: &str, content: &str) -> Result<Self, ApiError> {
        Self::without_directory(Draft::new(topic, content)?)
    }

    /// [`Outgoing::new`] for a draft.
    pub fn without_directory(draft: Draft) -> Result<Self, ApiError> {
        let Draft { topic, content } = draft;
        let rendered = bounded(render_markdown(&content))?;
        Ok(Self {
            topic,
            content,
            rendered,
        })
    }

    /// A webhook's message rendered against `directory` instead of the database: the
    /// app's dry run, which resolves names from the account's own copy of the
    /// organization. Never translating emoticons, as for every webhook message.
    pub fn with_directory(draft: Draft, directory: &dyn Directory) -> Result<Self, ApiError> {
        let rendered = bounded(render_for_sender(&draft.content, directory, false))?;
        Ok(Self {
            topic: draft.topic,
            content: draft.content,
            rendered,
        })
    }

    /// A webhook's message, rendered as its bot sees the organization (`@**name**` and
    /// `#**channel**` resolve as for the bot's own messages); never translating
    /// emoticons.
    pub fn from_draft(conn: &Connection, acting: &UserRow, draft: Draft) -> Result<Self> {
        let rendered = bounded(render_for_sender(
            &draft.content,
            &Organization {
                conn,
                acting: Some(acting),
            },
            false,
        ))?;
        Ok(Self {
            topic: draft.topic,
            content: draft.content,
            rendered,
        })
    }

    /// Like [`Outgoing::new`], resolving `@**mentions**` and `#**channel**` links as
    /// `acting` sees them (`None`: a system notice, which may link any stream).
    pub fn with_mentions(
        conn: &Connection,
        acting: Option<&UserRow>,
        topic: &str,
        content: &str,
    ) -> Result<Self> {
        Self::rendered(conn, acting, topic, content, false)
    }

    /// A person's own message (`POST /messages`): [`Outgoing::with_mentions`] as they
    /// see the organization, with their `translate_emoticons`. Notices and webhook
    /// messages never translate emoticons, whoever reads them.
    pub fn from_sender(
        conn: &Connection,
        sender: &UserRow,
        topic: &str,
        content: &str,
    ) -> Result<Self> {
        let translate = store::translate_emoticons(conn, sender.user_id)?;
        Self::rendered(conn, Some(sender), topic, content, translate)
    }

    fn rendered(
        conn: &Connection,
        acting: Option<&UserRow>,
        topic: &str,
        content: &str,
        translate_emoticons: bool,
    ) -> Result<Self> {
        check_topic(topic)?;
        let content = truncate_content(content);
        let rendered = bounded(render_for_sender(
            &content,
            &Organization { conn, acting },
            translate_emoticons,
        ))?;
        Ok(Self {
            topic: truncate_topic(topic),
            content,
            rendered,
        })
    }
}

/// The organization as mentions see it, for one acting user: as in Zulip's
/// `get_stream_name_map`, `#**name**` links only a stream whose content they may read
/// ([`has_content_access`]); any other renders as an unknown name would, so that no
/// rendering reveals a private stream's id.
pub struct Organization<'a> {
    pub conn: &'a Connection,
    /// `None`: a system notice, which may link any stream.
    pub acting: Option<&'a UserRow>,
}

impl Directory for Organization<'_> {
    fn user(&self, name: &str, id: Option<i64>) -> Option<(i64, String)> {
        let named = store::users_named(self.conn, name.trim()).ok()?;
        let user = match id {
            Some(id) => named.into_iter().find(|user| user.user_id == id)?,
            // A name alone must be unambiguous, as in Zulip.
            None => match <[_; 1]>::try_from(named) {
                Ok([user]) => user,
                Err(_) => return None,
            },
        };
        Some((user.user_id, user.full_name))
    }

    fn stream(&self, name: &str) -> Option<(i64, String)> {
        let stream = store::stream_by_name(self.conn, name.trim()).ok()??;
        if let Some(acting) = self.acting {
            let subscribed = store::is_subscribed(self.conn, acting.user_id, stream.stream_id);
            if !has_content_access(acting, &stream, subscribed.ok()?) {
                return None;
            }
        }
        Some((stream.stream_id, stream.name))
    }

    fn realm_url(&self) -> Option<String> {
        Some(store::realm(self.conn).ok()??.url)
    }

    fn group(&self, name: &str) -> Option<(i64, String)> {
        let group = store::group_by_name(self.conn, name).ok()??;
        (!group.deactivated).then_some((group.group_id, group.name))
    }

    fn deactivated_group(&self, name: &str) -> Option<(i64, String)> {
        let group = store::group_by_name(self.conn, name).ok()??;
        group.deactivated.then_some((group.group_id, group.name))
    }
}

/// Where a message goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Destination {
    Stream(i64),
    Direct(i64),
}

/// Stores a prepared message; returns its id.
pub fn send(
    conn: &Connection,
    sender_id: i64,
    destination: Destination,
    message: &Outgoing,
    client: &str,
    now: i64,
) -> Result<i64> {
    let (stream_id, recipient_id, topic) = match destination {
        Destination::Stream(id) => (Some(id), None, message.topic.as_str()),
        Destination::Direct(id) => (None, Some(id), ""),
    };
    store::insert_message(
        conn,
        &MessageInsert {
            sender_id,
            stream_id,
            recipient_id,
            topic,
            content: &message.content,
            rendered_content: &message.rendered,
            client,
            timestamp: now,
        },
    )
}

/// A direct message from Notification Bot that a write decided on: rendered after the
/// write, off the writer, and stored by a write of its own.
#[derive(Debug, Clone)]
pub struct Notice {
    pub recipients: Vec<i64>,
    pub text: String,
    /// Whose view of channels its `#**channel**` links follow: the acting user's (Zulip
    /// renders a notice as its sender's action), or with `None` each recipient's own,
    /// so that a notice never links a private channel its reader cannot see.
    pub seen_by: Option<UserRow>,
}

/// Renders `notices` on the render pool, then stores them in one write.
pub async fn deliver_notices(store: &Store, notices: Vec<Notice>) -> Result<()> {
    if notices.is_empty() {
        return Ok(());
    }
    let rendered = store
        .render(move |conn| render_notices(conn, notices))
        .await?;
    store
        .write(move |conn| {
            let bot = notification_bot(conn)?;
            let now = now_unix();
            for (recipient, message) in &rendered {
                send(
                    conn,
                    bot,
                    Destination::Direct(*recipient),
                    message,
                    "Internal",
                    now,
                )?;
            }
            Ok::<_, Error>(())
        })
        .await
}

/// Each notice rendered for each of its recipients (once for all when one view serves).
fn render_notices(conn: &Connection, notices: Vec<Notice>) -> Result<Vec<(i64, Outgoing)>> {
    let mut out = Vec::new();
    for notice in notices {
        match &notice.seen_by {
            Some(acting) => {
                let message = Outgoing::with_mentions(conn, Some(acting), "", &notice.text)?;
                out.extend(notice.recipients.iter().map(|id| (*id, message.clone())));
            }
            None => {
                for recipient in notice.recipients {
                    let reader = store::user_by_id(conn, recipient)?;
                    let message = Outgoing::with_mentions(conn, reader.as_ref(), "", &notice.text)?;
                    out.push((recipient, message));
                }
            }
        }
    }
    Ok(out)
}

fn notification_bot(conn: &Connection) -> Result<i64> {
    Ok(
        store::user_by_email(conn, store::seed::NOTIFICATION_BOT_EMAIL)?
            .ok_or_else(|| Error::Internal("Notification Bot is missing".into()))?
            .user_id,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rendering_beyond_a_hundred_times_the_longest_message_is_refused() {
        // pulldown-cmark caps reference-link expansion itself, so no 10,000 characters
        // found so far expand this far: the check stands guard for any that would.
        assert!(bounded("x".repeat(MAX_RENDERED_BYTES)).is_ok());
        assert_eq!(
            bounded("x".repeat(MAX_RENDERED_BYTES + 1))
                .err()
                .map(|error| error.msg),
            Some("Unable to render message".to_owned())
        );
        let url = format!("https://a.org/{}", "x".repeat(5_000));
        let content = format!("[a]: {url}\n\n{}", "[a] ".repeat(1_200));
        let expanded = Outgoing::new("t", &content).map(|message| message.rendered.len());
        assert!(
            expanded.as_ref().is_ok_and(|len| *len < MAX_RENDERED_BYTES),
            "{expanded:?}"
        );
    }
}
