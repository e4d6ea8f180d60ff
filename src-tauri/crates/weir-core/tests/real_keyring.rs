//! `KeyringStore` against the real system keyring.
//!
//! On Linux this needs a Secret Service on the session bus. The project's test command
//! runs it as:
//!
//! ```sh
//! dbus-run-session -- bash -c 'export XDG_DATA_HOME=$(mktemp -d);
//!   echo -n pass | gnome-keyring-daemon --foreground --unlock --components=secrets &
//!   sleep 1; cargo test -p weir-core --test real_keyring'
//! ```
//!
//! Without a reachable keyring the test FAILS (it is not skipped) with a message saying
//! how to provide one.

use std::time::{SystemTime, UNIX_EPOCH};

use weir_core::{AccountKey, KeyringStore, Secret, SecretError, SecretStore};

fn unique() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{}-{nanos}", std::process::id())
}

fn no_keyring(operation: &str, error: SecretError) -> ! {
    match error {
        SecretError::Unavailable { detail, hint } => panic!(
            "\n\nThe real-keyring test cannot reach a system keyring ({operation} failed).\n\
             Platform error: {detail}\n\
             {hint}\n\
             In a terminal or CI, run this test inside a D-Bus session with an unlocked \
             gnome-keyring, e.g.:\n  dbus-run-session -- bash -c 'export XDG_DATA_HOME=$(mktemp -d); \
             echo -n pass | gnome-keyring-daemon --foreground --unlock --components=secrets & \
             sleep 1; cargo test -p weir-core --test real_keyring'\n"
        ),
        other => panic!("keyring {operation} failed: {other}"),
    }
}

#[test]
fn keyring_store_writes_reads_and_deletes_a_secret() {
    let service = format!("weir-test-{}", unique());
    let store = KeyringStore::with_service(&service);
    let account = AccountKey::new(
        "https://weir.invalid",
        format!("keyring-{}@example.com", unique()),
    );
    let key = Secret::new("aB3dEfGhIjKlMnOpQrStUvWxYz012345");

    store
        .set(&account, &key)
        .unwrap_or_else(|e| no_keyring("write", e));

    // Read back through another instance: the value lives in the keyring, not in memory.
    let other = KeyringStore::with_service(&service);
    let read = other
        .get(&account)
        .unwrap_or_else(|e| no_keyring("read", e));
    assert_eq!(read.as_ref().map(Secret::expose), Some(key.expose()));

    let replacement = Secret::new("ZZ3dEfGhIjKlMnOpQrStUvWxYz012345");
    store
        .set(&account, &replacement)
        .unwrap_or_else(|e| no_keyring("overwrite", e));
    let read = store
        .get(&account)
        .unwrap_or_else(|e| no_keyring("read", e));
    assert_eq!(
        read.as_ref().map(Secret::expose),
        Some(replacement.expose())
    );

    store
        .delete(&account)
        .unwrap_or_else(|e| no_keyring("delete", e));
    assert!(
        store
            .get(&account)
            .unwrap_or_else(|e| no_keyring("read", e))
            .is_none()
    );
    // Deleting again is not an error.
    store
        .delete(&account)
        .unwrap_or_else(|e| no_keyring("delete", e));
}

#[test]
fn the_app_service_name_is_weir() {
    assert_eq!(KeyringStore::new().service(), "weir");
}
