//! Embeds KaTeX's `katex.min.js` from the UI's npm package `katex` (pinned in
//! `ui/package.json` and its lock file), so that the server's math HTML and the UI's
//! KaTeX stylesheet and fonts always come from the same release. `WEIR_KATEX_JS` names
//! another copy of the file.

use std::path::PathBuf;
use std::{env, fs};

fn main() {
    println!("cargo:rerun-if-env-changed=WEIR_KATEX_JS");
    let source = match env::var_os("WEIR_KATEX_JS") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../ui/node_modules/katex/dist/katex.min.js"),
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let script = match fs::read_to_string(&source) {
        Ok(script) => script,
        Err(error) => {
            println!(
                "cargo:error=weir-render embeds KaTeX from {} ({error}): run scripts/setup.sh \
                 (or `npm ci` in ui/) first, or set WEIR_KATEX_JS",
                source.display()
            );
            std::process::exit(1);
        }
    };
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default()).join("katex.min.js");
    if let Err(error) = fs::write(&out, script) {
        println!("cargo:error=cannot write {}: {error}", out.display());
        std::process::exit(1);
    }
}
