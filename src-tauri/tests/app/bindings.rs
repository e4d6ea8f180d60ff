//! The committed TypeScript bindings in `ui/src/lib/bindings/` must equal what the
//! commands' signatures generate (`weir_app::bindings`). Regenerate with
//! `WEIR_UPDATE_BINDINGS=1 cargo test -p weir --test app bindings`.

use std::collections::BTreeSet;
use std::path::PathBuf;

#[test]
fn typescript_bindings_are_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(weir_app::bindings::DIRECTORY);
    let update = std::env::var_os("WEIR_UPDATE_BINDINGS").is_some();
    if update {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let mut expected_files = BTreeSet::new();
    let mut stale = Vec::new();
    for (file, text) in weir_app::bindings::typescript().unwrap() {
        let path = dir.join(&file);
        expected_files.insert(file.clone());
        if update {
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(file);
        }
    }
    let extra: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                .filter(|name| !expected_files.contains(name))
                .collect()
        })
        .unwrap_or_default();
    if update {
        for name in &extra {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
        return;
    }
    assert!(
        stale.is_empty() && extra.is_empty(),
        "TypeScript bindings are stale (changed: {stale:?}, not generated: {extra:?}); \
         run `WEIR_UPDATE_BINDINGS=1 cargo test -p weir --test app bindings` and commit the result"
    );
}
