//! Webhook messages rendered where the request runs, when that is cheaper than the
//! render pool: a message that cannot reach KaTeX or a grammar and is short
//! ([`renders_quickly`]) renders in microseconds, while the pool's hop to a blocking
//! thread and back (two wake-ups, two context switches, a pooled read connection) cost
//! more than twice the rest of a Hello World post on the 2-core machine. A message that
//! names anyone (a mention, a group, a channel link) still goes to the pool, whose
//! lookups read the database; so does everything [`renders_quickly`] turns away.

use std::cell::Cell;
use std::sync::Arc;

use super::{Draft, Outgoing, bounded};
use crate::error::Result;
use crate::render::{Directory, render_for_sender, renders_quickly};
use crate::store::{Store, UserRow};

/// A webhook's drafts rendered as `bot` sees the organization (never translating
/// emoticons): all where the caller runs when each renders quickly and names nobody,
/// else all on the render pool.
pub async fn render_drafts(
    store: &Store,
    bot: &Arc<UserRow>,
    drafts: Vec<Draft>,
) -> Result<Vec<Outgoing>> {
    let drafts = if drafts.iter().all(|draft| renders_quickly(&draft.content)) {
        let realm_url = store.realm_url().await?;
        match render_here(drafts, realm_url.as_deref())? {
            Ok(rendered) => return Ok(rendered),
            Err(drafts) => drafts,
        }
    } else {
        drafts
    };
    let bot = Arc::clone(bot);
    store
        .render(move |conn| {
            drafts
                .into_iter()
                .map(|draft| Outgoing::from_draft(conn, &bot, draft))
                .collect()
        })
        .await
}

/// The drafts rendered with nobody to look up (`Err`: one named someone; the drafts
/// back, to render on the pool). Renders as [`super::Organization`] does for a sender: the
/// realm's links made relative, and every lookup refused only where it was asked for.
fn render_here(
    drafts: Vec<Draft>,
    realm_url: Option<&str>,
) -> Result<std::result::Result<Vec<Outgoing>, Vec<Draft>>> {
    let directory = NoLookups {
        realm_url,
        asked: Cell::new(false),
    };
    let mut rendered = Vec::with_capacity(drafts.len());
    for draft in &drafts {
        let html = render_for_sender(&draft.content, &directory, false);
        if directory.asked.get() {
            return Ok(Err(drafts));
        }
        rendered.push(bounded(html)?);
    }
    Ok(Ok(drafts
        .into_iter()
        .zip(rendered)
        .map(|(draft, rendered)| Outgoing {
            topic: draft.topic,
            content: draft.content,
            rendered,
        })
        .collect()))
}

/// The organization as a render without the database sees it: its URL from memory, and
/// no one else; [`NoLookups::asked`] says whether the render asked for anyone.
struct NoLookups<'a> {
    realm_url: Option<&'a str>,
    asked: Cell<bool>,
}

impl NoLookups<'_> {
    fn refuse<T>(&self) -> Option<T> {
        self.asked.set(true);
        None
    }
}

impl Directory for NoLookups<'_> {
    fn user(&self, _: &str, _: Option<i64>) -> Option<(i64, String)> {
        self.refuse()
    }

    fn stream(&self, _: &str) -> Option<(i64, String)> {
        self.refuse()
    }

    fn realm_url(&self) -> Option<String> {
        self.realm_url.map(str::to_owned)
    }

    fn group(&self, _: &str) -> Option<(i64, String)> {
        self.refuse()
    }

    fn deactivated_group(&self, _: &str) -> Option<(i64, String)> {
        self.refuse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::seed::{Seed, load_seed};
    use crate::store::{migrate_for_tests, user_by_id};

    fn organization() -> (rusqlite::Connection, UserRow) {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        migrate_for_tests(&mut conn).unwrap();
        let seed = Seed::from_json(
            r#"{"realm": {"name": "Quick", "url": "https://chat.example"},
                "users": [
                  {"user_id": 1, "email": "iago@q.test", "full_name": "Iago", "role": "member"},
                  {"user_id": 2, "email": "bot@q.test", "full_name": "Bot", "role": "member",
                   "bot_type": 2, "bot_owner_id": 1}],
                "streams": [{"stream_id": 1, "name": "general", "subscribers": [1, 2]}]}"#,
        )
        .unwrap();
        load_seed(&conn, &seed).unwrap();
        let bot = user_by_id(&conn, 2).unwrap().unwrap();
        (conn, bot)
    }

    fn draft(content: &str) -> Draft {
        Draft::new("topic", content).unwrap()
    }

    /// What renders here equals what the pool renders (`Organization`); what names
    /// someone is handed back for the pool.
    #[test]
    fn a_quick_render_equals_the_pools_and_lookups_go_to_the_pool() {
        let (conn, bot) = organization();
        let realm = store_realm_url(&conn);
        for content in [
            "Hello! :smile: **[Weir](https://en.wikipedia.org/wiki/Weir)**",
            "[narrow](https://chat.example/#narrow/channel/1) and \
             [upload](https://chat.example/user_uploads/1/a.png), <time:2024-01-01T00:00:00Z>",
            "iago@q.test wrote `@**Iago**` > quoted",
        ] {
            let here = render_here(vec![draft(content)], realm.as_deref())
                .unwrap()
                .unwrap();
            let pool = Outgoing::from_draft(&conn, &bot, draft(content)).unwrap();
            assert_eq!(here, [pool], "{content}");
        }
        for content in [
            "hi @**Iago**",
            "see #**general**",
            "@*role:members*",
            "@_**Iago**",
        ] {
            let back = render_here(vec![draft("plain"), draft(content)], realm.as_deref())
                .unwrap()
                .unwrap_err();
            assert_eq!(back, [draft("plain"), draft(content)], "{content}");
        }
    }

    fn store_realm_url(conn: &rusqlite::Connection) -> Option<String> {
        crate::store::realm(conn).unwrap().map(|realm| realm.url)
    }
}
