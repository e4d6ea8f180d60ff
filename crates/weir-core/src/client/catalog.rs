//! `register` for the connected server's webhook catalog (`crate::webhook_catalog`).

use reqwest::Method;
use serde_json::Value;

use super::transport::Params;
use super::{ClientError, ZulipClient};
use crate::webhook_catalog::{WebhookCatalog, parse};

impl ZulipClient {
    /// `POST /register` for `realm_incoming_webhook_bots` alone. A server that refuses
    /// the type (HTTP 400) has no catalog; other errors are errors. The event queue Zulip
    /// registers with it is deleted in the background, as for the membership snapshot.
    pub async fn webhook_catalog(&self) -> Result<WebhookCatalog, ClientError> {
        let kinds = vec!["realm_incoming_webhook_bots"];
        let params = Params::new()
            .json("fetch_event_types", kinds.clone())
            .json("event_types", kinds);
        let body: Value = match self.call(Method::POST, "register", params).await {
            Ok(body) => body,
            Err(ClientError::Zulip { status: 400, .. }) => {
                return Ok(WebhookCatalog {
                    feature_level: self.feature_level().await?,
                    integrations: None,
                });
            }
            Err(error) => return Err(error),
        };
        if let Some(queue_id) = body.get("queue_id").and_then(Value::as_str) {
            let client = self.clone();
            let params = Params::new().text("queue_id", queue_id);
            tokio::spawn(async move {
                let deleted = client.call::<Value>(Method::DELETE, "events", params).await;
                if let Err(error) = deleted {
                    tracing::debug!(%error, "could not delete the catalog's event queue");
                }
            });
        }
        Ok(parse(&body))
    }
}
