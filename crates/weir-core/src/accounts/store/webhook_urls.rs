//! Webhook URLs Weir built, remembered without their keys: when a bot's key is
//! regenerated, every URL built with the old one stops working, and the rotation
//! assistant lists these so the user knows what to re-paste.

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;

use super::AccountStore;
use crate::clock::unix_seconds;
use crate::error::CoreError;
use crate::webhook_url::WebhookUrlSpec;

/// URLs kept per bot; building one more forgets the least recently built.
pub const MAX_URLS_PER_BOT: i64 = 100;

/// One remembered URL: its spec (no key) and when it was built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RememberedUrl {
    pub id: i64,
    pub bot_user_id: i64,
    pub spec: WebhookUrlSpec,
    /// Unix seconds.
    pub created_at: i64,
    pub last_built_at: i64,
}

const COLUMNS: &str = "id, bot_user_id, spec, created_at, last_built_at";

impl AccountStore {
    /// Remembers that `spec` was built for a bot (again: only its time changes).
    pub fn remember_url(
        &self,
        account_id: i64,
        bot_user_id: i64,
        spec: &WebhookUrlSpec,
    ) -> Result<RememberedUrl, CoreError> {
        let spec = spec.normalized();
        let text = serde_json::to_string(&spec)
            .map_err(|error| CoreError::Internal(format!("cannot encode a URL spec: {error}")))?;
        let now = unix_seconds();
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let id: i64 = tx.query_row(
            "INSERT INTO webhook_urls (account_id, bot_user_id, spec, created_at, last_built_at)
             VALUES (?1, ?2, ?3, ?4, ?4)
             ON CONFLICT (account_id, bot_user_id, spec)
             DO UPDATE SET last_built_at = excluded.last_built_at
             RETURNING id",
            params![account_id, bot_user_id, text, now],
            |row| row.get(0),
        )?;
        tx.execute(
            "DELETE FROM webhook_urls WHERE account_id = ?1 AND bot_user_id = ?2 AND id NOT IN (
                 SELECT id FROM webhook_urls WHERE account_id = ?1 AND bot_user_id = ?2
                 ORDER BY last_built_at DESC, id DESC LIMIT ?3)",
            params![account_id, bot_user_id, MAX_URLS_PER_BOT],
        )?;
        let url = tx.query_row(
            &format!("SELECT {COLUMNS} FROM webhook_urls WHERE id = ?1"),
            [id],
            url_from_row,
        )?;
        tx.commit()?;
        Ok(url)
    }

    /// A bot's remembered URLs, most recently built first.
    pub fn remembered_urls(
        &self,
        account_id: i64,
        bot_user_id: i64,
    ) -> Result<Vec<RememberedUrl>, CoreError> {
        let conn = self.conn();
        let mut statement = conn.prepare(&format!(
            "SELECT {COLUMNS} FROM webhook_urls WHERE account_id = ?1 AND bot_user_id = ?2
             ORDER BY last_built_at DESC, id DESC"
        ))?;
        let rows = statement.query_map([account_id, bot_user_id], url_from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// One remembered URL of an account.
    pub fn remembered_url(
        &self,
        account_id: i64,
        id: i64,
    ) -> Result<Option<RememberedUrl>, CoreError> {
        Ok(self
            .conn()
            .query_row(
                &format!("SELECT {COLUMNS} FROM webhook_urls WHERE account_id = ?1 AND id = ?2"),
                [account_id, id],
                url_from_row,
            )
            .optional()?)
    }

    /// Forgets one remembered URL; `false` if there was none.
    pub fn forget_url(&self, account_id: i64, id: i64) -> Result<bool, CoreError> {
        Ok(self.conn().execute(
            "DELETE FROM webhook_urls WHERE account_id = ?1 AND id = ?2",
            [account_id, id],
        )? > 0)
    }
}

fn url_from_row(row: &Row<'_>) -> rusqlite::Result<RememberedUrl> {
    let text: String = row.get(2)?;
    let spec = serde_json::from_str(&text).map_err(|error| {
        rusqlite::Error::FromSqlConversionFailure(2, rusqlite::types::Type::Text, Box::new(error))
    })?;
    Ok(RememberedUrl {
        id: row.get(0)?,
        bot_user_id: row.get(1)?,
        spec,
        created_at: row.get(3)?,
        last_built_at: row.get(4)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::AccountRecord;
    use crate::client::TlsOptions;

    fn store_with_account() -> (AccountStore, i64) {
        let store = AccountStore::open_in_memory().unwrap();
        let account = store
            .insert(&AccountRecord {
                site: "https://chat.example.com".into(),
                email: "iago@example.com".into(),
                label: "Example".into(),
                is_demo: false,
                tls: TlsOptions::default(),
            })
            .unwrap();
        (store, account.id)
    }

    fn spec(stream: &str) -> WebhookUrlSpec {
        WebhookUrlSpec {
            integration: "helloworld".into(),
            stream: Some(stream.into()),
            ..WebhookUrlSpec::default()
        }
    }

    #[test]
    fn building_the_same_url_twice_remembers_it_once() {
        let (store, account) = store_with_account();
        let first = store.remember_url(account, 7, &spec("dev")).unwrap();
        let again = store.remember_url(account, 7, &spec(" dev ")).unwrap();
        store.remember_url(account, 7, &spec("ops")).unwrap();
        store.remember_url(account, 8, &spec("dev")).unwrap();
        assert_eq!(first.id, again.id);
        let urls = store.remembered_urls(account, 7).unwrap();
        assert_eq!(urls.len(), 2);
        assert_eq!(urls[0].spec.stream.as_deref(), Some("ops"));
        assert_eq!(
            store.remembered_url(account, first.id).unwrap(),
            Some(again)
        );
        assert_eq!(store.remembered_url(account + 1, first.id).unwrap(), None);
    }

    #[test]
    fn old_urls_beyond_the_limit_are_forgotten() {
        let (store, account) = store_with_account();
        for index in 0..=MAX_URLS_PER_BOT {
            store
                .remember_url(account, 7, &spec(&format!("s{index}")))
                .unwrap();
        }
        let urls = store.remembered_urls(account, 7).unwrap();
        assert_eq!(urls.len() as i64, MAX_URLS_PER_BOT);
        assert!(
            urls.iter()
                .all(|url| url.spec.stream.as_deref() != Some("s0"))
        );
    }

    #[test]
    fn forgetting_and_removing_the_account_drop_urls() {
        let (store, account) = store_with_account();
        let url = store.remember_url(account, 7, &spec("dev")).unwrap();
        store.remember_url(account, 7, &spec("ops")).unwrap();
        assert!(store.forget_url(account, url.id).unwrap());
        assert!(!store.forget_url(account, url.id).unwrap());
        store.delete(account).unwrap();
        assert!(store.remembered_urls(account, 7).unwrap().is_empty());
    }
}
