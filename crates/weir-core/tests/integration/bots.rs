//! Bot keys against servers answering as Zulip 10 and 11 (keys in `GET /bots`) and
//! Zulip 12 (keys only from `GET /bots/{id}/api_key`, feature level 463; listings without
//! them, 474). Answers follow Zulip's documented examples.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use crate::support::{EMAIL, KEY, Reply, Stub, client, fast_config, user_json};
use axum::http::Method;
use serde_json::{Value, json};
use weir_core::{AccountStore, Accounts, MemoryStore, NewAccount, Secret};

const BOT_KEY: &str = "4Xa2ZwlzXyYxm7ZmP9m3Z8zP7aBcDeF1";

fn bot_json() -> Value {
    let mut bot = user_json(50, "hook-bot@zulip.com", "Hook");
    bot["is_bot"] = json!(true);
    bot["bot_type"] = json!(2);
    bot["bot_owner_id"] = json!(8);
    bot
}

/// A server at `level` whose `GET /bots` lists the bot as `listed`.
fn stub_server(stub: &Stub, level: u32, listed: Value) {
    stub.server_settings(level).users_me(EMAIL, KEY);
    stub.route(Method::GET, "/api/v1/users", |_, _| {
        Reply::success(json!({"members": [user_json(8, EMAIL, "Iago"), bot_json()]}))
    });
    stub.route(Method::GET, "/api/v1/bots", move |_, _| {
        Reply::success(json!({ "bots": [listed.clone()] }))
    });
}

async fn accounts_for(stub: &Stub) -> (tempfile::TempDir, Accounts, weir_core::Account) {
    let dir = tempfile::tempdir().unwrap();
    let store = AccountStore::open(&dir.path().join("weir.db")).unwrap();
    let accounts = Accounts::new(store, Arc::new(MemoryStore::new()), fast_config());
    let account = accounts
        .add_account(NewAccount::new(&stub.url, EMAIL, Secret::new(KEY)))
        .await
        .unwrap();
    (dir, accounts, account)
}

#[tokio::test]
async fn on_zulip_12_the_key_comes_from_the_bot_key_endpoint() {
    let stub = Stub::start().await;
    // Zulip 12's listing: no key (nor, from 474, most other fields).
    stub_server(
        &stub,
        500,
        json!({"username": "hook-bot@zulip.com", "avatar_url": null}),
    );
    stub.route(Method::GET, "/api/v1/bots/50/api_key", |_, _| {
        Reply::success(json!({ "api_key": BOT_KEY }))
    });
    let (_dir, accounts, account) = accounts_for(&stub).await;
    let bots = accounts.bots(account, client(&stub));

    let listed = bots.list().await.unwrap();
    assert_eq!(listed.len(), 1, "the bot is listed without its key");
    assert!(!listed[0].key_stored);
    assert_eq!(bots.key(50).await.unwrap().expose(), BOT_KEY);
    assert_eq!(stub.requests_to("/api/v1/bots/50/api_key").len(), 1);
    // Stored in the keyring: the next reveal asks nobody.
    assert_eq!(bots.key(50).await.unwrap().expose(), BOT_KEY);
    assert_eq!(stub.requests_to("/api/v1/bots/50/api_key").len(), 1);
    assert!(bots.list().await.unwrap()[0].key_stored);
}

/// Zulip 10 (372) and 11 (421) list bots with their keys; neither has the key endpoint
/// (463), so nothing may ask it.
#[tokio::test]
async fn on_zulip_10_and_11_the_key_comes_from_the_listing() {
    for level in [372, 421] {
        let stub = Stub::start().await;
        stub_server(
            &stub,
            level,
            json!({"username": "hook-bot@zulip.com", "full_name": "Hook", "api_key": BOT_KEY,
                "avatar_url": null, "default_sending_stream": null,
                "default_events_register_stream": null, "default_all_public_streams": false}),
        );
        let (_dir, accounts, account) = accounts_for(&stub).await;
        let bots = accounts.bots(account, client(&stub));

        let listed = bots.list().await.unwrap();
        assert!(listed[0].key_stored, "{level}: stored from the listing");
        assert_eq!(bots.key(50).await.unwrap().expose(), BOT_KEY, "{level}");
        assert!(
            stub.requests_to("/api/v1/bots/50/api_key").is_empty(),
            "{level}"
        );
    }
}
