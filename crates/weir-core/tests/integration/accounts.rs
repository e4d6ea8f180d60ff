//! The accounts service with an in-memory secret store, a temporary SQLite file and a
//! loopback stand-in for the Zulip server.
// The helpers here unwrap as the tests do, but clippy's allow-unwrap-in-tests and
// allow-expect-in-tests (clippy.toml) reach only the #[test] functions of an integration
// test, not its helpers (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use crate::support::{EMAIL, KEY, Reply, Stub, fast_config, user_json};
use axum::http::Method;
use serde_json::json;
use weir_core::{
    AccountStore, Accounts, IpcErrorCode, KeyringEntry, MemoryStore, NewAccount, Secret,
    SecretStore, delete_zuliprc,
};

struct Fixture {
    _dir: tempfile::TempDir,
    db: std::path::PathBuf,
    secrets: Arc<MemoryStore>,
    accounts: Accounts,
}

fn fixture_with(secrets: MemoryStore) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("weir.db");
    let secrets = Arc::new(secrets);
    let store = AccountStore::open(&db).unwrap();
    let accounts = Accounts::new(store, secrets.clone(), fast_config());
    Fixture {
        _dir: dir,
        db,
        secrets,
        accounts,
    }
}

fn fixture() -> Fixture {
    fixture_with(MemoryStore::new())
}

#[tokio::test]
async fn adding_an_account_checks_credentials_then_stores_key_and_row() {
    let stub = Stub::start().await;
    stub.users_me(EMAIL, KEY);
    let f = fixture();

    let account = f
        .accounts
        .add_account(NewAccount::new(&stub.url, EMAIL, Secret::new(KEY)))
        .await
        .unwrap();

    assert_eq!(account.site, stub.url);
    assert_eq!(account.email, EMAIL);
    assert!(account.label.starts_with("Iago ("), "{}", account.label);
    assert_eq!(f.accounts.list().unwrap(), vec![account.clone()]);
    assert_eq!(
        f.accounts.active().unwrap(),
        Some(account.clone()),
        "first account is active"
    );
    let stored = f
        .secrets
        .get(&KeyringEntry::new(&stub.url, EMAIL))
        .unwrap()
        .unwrap();
    assert_eq!(stored.expose(), KEY);
    assert_eq!(stub.requests_to("/api/v1/users/me").len(), 1);
}

#[tokio::test]
async fn a_rejected_key_stores_nothing() {
    let stub = Stub::start().await;
    stub.users_me(EMAIL, KEY);
    let f = fixture();
    let wrong = Secret::new("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");

    let error = f
        .accounts
        .add_account(NewAccount::new(&stub.url, EMAIL, wrong))
        .await
        .unwrap_err();

    assert_eq!(error.code(), IpcErrorCode::Unauthorized, "{error}");
    assert!(f.accounts.list().unwrap().is_empty());
    assert!(f.secrets.is_empty());
    assert_eq!(f.accounts.active().unwrap(), None);
}

#[tokio::test]
async fn a_malformed_key_is_refused_before_any_request() {
    let stub = Stub::start().await;
    let f = fixture();
    let error = f
        .accounts
        .add_account(NewAccount::new(&stub.url, EMAIL, Secret::new("too-short")))
        .await
        .unwrap_err();
    assert_eq!(error.code(), IpcErrorCode::InvalidInput);
    assert!(!error.to_string().contains("too-short"));
    assert!(stub.requests().is_empty());
}

#[tokio::test]
async fn without_a_keyring_nothing_is_stored_and_the_hint_is_given() {
    let stub = Stub::start().await;
    stub.users_me(EMAIL, KEY);
    let f = fixture_with(MemoryStore::unavailable());
    let error = f
        .accounts
        .add_account(NewAccount::new(&stub.url, EMAIL, Secret::new(KEY)))
        .await
        .unwrap_err();
    assert_eq!(error.code(), IpcErrorCode::KeyringUnavailable);
    assert!(error.to_string().contains("never"), "hint missing: {error}");
    assert!(f.accounts.list().unwrap().is_empty());
}

#[tokio::test]
async fn the_same_account_cannot_be_added_twice() {
    let stub = Stub::start().await;
    stub.users_me(EMAIL, KEY);
    let f = fixture();
    f.accounts
        .add_account(NewAccount::new(&stub.url, EMAIL, Secret::new(KEY)))
        .await
        .unwrap();
    let error = f
        .accounts
        .add_account(NewAccount::new(
            format!("{}/", stub.url),
            "IAGO@zulip.com",
            Secret::new(KEY),
        ))
        .await
        .unwrap_err();
    assert_eq!(error.code(), IpcErrorCode::AccountExists);
    assert_eq!(f.accounts.list().unwrap().len(), 1);
}

#[tokio::test]
async fn a_zuliprc_is_imported_and_can_then_be_deleted() {
    let stub = Stub::start().await;
    stub.users_me(EMAIL, KEY);
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zuliprc");
    std::fs::write(
        &path,
        format!("[api]\nemail={EMAIL}\nkey={KEY}\nsite={}/\n", stub.url),
    )
    .unwrap();

    let imported = f.accounts.import_zuliprc(&path).await.unwrap();

    assert_eq!(imported.account.site, stub.url);
    assert!(imported.can_delete_file);
    assert!(!imported.account.insecure);
    assert_eq!(f.secrets.len(), 1);
    delete_zuliprc(&path).unwrap();
    assert!(!path.exists());
}

#[tokio::test]
async fn an_invalid_zuliprc_is_reported_and_nothing_is_sent() {
    let stub = Stub::start().await;
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zuliprc");
    std::fs::write(&path, format!("[api]\nemail={EMAIL}\nsite={}\n", stub.url)).unwrap();
    let error = f.accounts.import_zuliprc(&path).await.unwrap_err();
    assert_eq!(error.code(), IpcErrorCode::InvalidZuliprc);
    assert!(error.to_string().contains("it has no API key"), "{error}");
    assert!(stub.requests().is_empty());
}

#[tokio::test]
async fn delete_zuliprc_refuses_files_that_are_not_zuliprc() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "not a zuliprc").unwrap();
    let error = delete_zuliprc(&path).unwrap_err();
    assert_eq!(error.code(), IpcErrorCode::InvalidZuliprc);
    assert!(path.exists());
}

#[tokio::test]
async fn removing_an_account_deletes_its_key() {
    let stub = Stub::start().await;
    stub.users_me(EMAIL, KEY);
    let f = fixture();
    let account = f
        .accounts
        .add_account(NewAccount::new(&stub.url, EMAIL, Secret::new(KEY)))
        .await
        .unwrap();

    f.accounts.remove(account.id).await.unwrap();

    assert!(f.secrets.is_empty());
    assert!(f.accounts.list().unwrap().is_empty());
    assert_eq!(f.accounts.active().unwrap(), None);
    assert_eq!(
        f.accounts.remove(account.id).await.unwrap_err().code(),
        IpcErrorCode::NotFound
    );
}

#[tokio::test]
async fn client_for_reads_the_key_from_the_store_after_a_restart() {
    let stub = Stub::start().await;
    stub.users_me(EMAIL, KEY);
    let f = fixture();
    let account = f
        .accounts
        .add_account(NewAccount::new(&stub.url, EMAIL, Secret::new(KEY)))
        .await
        .unwrap();

    // A new service over the same database and keyring, as after restarting the app.
    let reopened = Accounts::new(
        AccountStore::open(&f.db).unwrap(),
        f.secrets.clone(),
        fast_config(),
    );
    assert_eq!(reopened.active().unwrap().map(|a| a.id), Some(account.id));
    let client = reopened.client_for(account.id).await.unwrap();
    assert_eq!(client.get_own_user().await.unwrap().email, EMAIL);
    assert_eq!(
        reopened.client_for(999).await.unwrap_err().code(),
        IpcErrorCode::NotFound
    );

    // The key removed behind Weir's back: a typed error, not a panic.
    f.secrets
        .delete(&KeyringEntry::new(&stub.url, EMAIL))
        .unwrap();
    let fresh = Accounts::new(
        AccountStore::open(&f.db).unwrap(),
        f.secrets.clone(),
        fast_config(),
    );
    assert_eq!(
        fresh.client_for(account.id).await.unwrap_err().code(),
        IpcErrorCode::KeyMissing
    );
}

#[tokio::test]
async fn the_active_account_choice_is_persisted() {
    let stub = Stub::start().await;
    // Any e-mail with the right key is accepted here.
    stub.route(
        Method::GET,
        "/api/v1/users/me",
        |request, _| match request.basic_auth() {
            Some((email, key)) if key == KEY => Reply::success(user_json(9, &email, "Someone")),
            _ => Reply::error(401, "UNAUTHORIZED", "Invalid API key", json!({})),
        },
    );
    let f = fixture();
    let first = f
        .accounts
        .add_account(NewAccount::new(&stub.url, EMAIL, Secret::new(KEY)))
        .await
        .unwrap();
    let second = f
        .accounts
        .add_account(NewAccount::new(
            &stub.url,
            "hamlet@zulip.com",
            Secret::new(KEY),
        ))
        .await
        .unwrap();
    assert_eq!(f.accounts.active().unwrap().map(|a| a.id), Some(first.id));

    f.accounts.set_active(Some(second.id)).unwrap();

    let reopened = Accounts::new(
        AccountStore::open(&f.db).unwrap(),
        f.secrets.clone(),
        fast_config(),
    );
    assert_eq!(reopened.active().unwrap().map(|a| a.id), Some(second.id));
    assert_eq!(
        reopened.set_active(Some(12345)).unwrap_err().code(),
        IpcErrorCode::NotFound
    );
}

#[tokio::test]
async fn a_missing_zuliprc_is_unreadable_not_invalid() {
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-zuliprc");
    let error = f.accounts.import_zuliprc(&path).await.unwrap_err();
    assert_eq!(error.code(), IpcErrorCode::ZuliprcUnreadable);
    assert!(error.to_string().contains("there is no file at"), "{error}");
    assert_eq!(f.secrets.len(), 0);
}
