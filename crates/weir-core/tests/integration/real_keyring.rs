//! `KeyringStore` against the real system keyring.
//!
//! On Linux this needs a Secret Service on the session bus. The project's test command
//! runs it as:
//!
//! ```sh
//! dbus-run-session -- bash -c 'export XDG_DATA_HOME=$(mktemp -d);
//!   echo -n pass | gnome-keyring-daemon --foreground --unlock --components=secrets &
//!   sleep 1; cargo test -p weir-core --test integration real_keyring'
//! ```
//!
//! Without a reachable keyring the test FAILS (it is not skipped) with a message saying
//! how to provide one.

use weir_core::keyring::{DEBUG_SERVICE, RELEASE_SERVICE};
use weir_core::{KeyringEntry, KeyringStore, Secret, SecretError, SecretStore};

fn unique() -> String {
    let nanos = weir_core::clock::since_epoch().as_nanos();
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
             sleep 1; cargo test -p weir-core --test integration real_keyring'\n"
        ),
        other => panic!("keyring {operation} failed: {other}"),
    }
}

#[test]
fn keyring_store_writes_reads_and_deletes_a_secret() {
    let service = format!("weir-test-{}", unique());
    let store = KeyringStore::with_service(&service);
    let account = KeyringEntry::new(
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
fn each_build_kind_has_its_own_service_and_they_do_not_share_keys() {
    // Tests are debug builds, like the app the e2e suite drives.
    let expected = if cfg!(debug_assertions) {
        "weir-dev"
    } else {
        "weir"
    };
    assert_eq!(KeyringStore::new().service(), expected);
    assert_eq!((RELEASE_SERVICE, DEBUG_SERVICE), ("weir", "weir-dev"));

    // The same entry under the two names of one (throwaway) pair is two keys.
    let base = format!("weir-test-{}", unique());
    let release = KeyringStore::with_service(&base);
    let debug = KeyringStore::with_service(format!("{base}-dev"));
    let entry = KeyringEntry::new("https://weir.invalid", "builds@example.com");
    debug
        .set(&entry, &Secret::new("dev-key"))
        .unwrap_or_else(|e| no_keyring("write", e));
    let seen = release
        .get(&entry)
        .unwrap_or_else(|e| no_keyring("read", e));
    debug
        .delete(&entry)
        .unwrap_or_else(|e| no_keyring("delete", e));
    assert!(
        seen.is_none(),
        "a debug build's key is visible to a release build"
    );
}
