//! The webview's Content-Security-Policy allows no inline script or style: injected
//! markup cannot run or restyle the page. The built UI needs none (Svelte compiles every
//! component's styles into the one stylesheet), which this checks too, so that a change
//! needing inline styles fails here rather than silently in the webview.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn csp() -> String {
    let path = root().join("tauri.conf.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let config: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("tauri.conf.json: {error}"));
    config["app"]["security"]["csp"]
        .as_str()
        .unwrap_or_else(|| panic!("tauri.conf.json has no app.security.csp"))
        .to_owned()
}

#[test]
fn the_csp_allows_no_inline_code_or_styles() {
    let csp = csp();
    for directive in ["script-src 'self'", "style-src 'self'", "object-src 'none'"] {
        assert!(csp.contains(directive), "{csp}");
    }
    for unsafe_source in ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'"] {
        assert!(!csp.contains(unsafe_source), "{csp}");
    }
}

#[test]
fn the_built_ui_has_no_inline_styles() {
    let dist = root().join("../ui/dist");
    let html = std::fs::read_to_string(dist.join("index.html")).unwrap();
    assert!(
        !html.contains("<style") && !html.contains("style="),
        "{html}"
    );
    for entry in std::fs::read_dir(dist.join("assets")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "js") {
            let code = std::fs::read_to_string(&path).unwrap();
            // `element.style.cssText = …` is CSSOM, which CSP does not restrict (Svelte's
            // style directive and CodeMirror's editor use it); parsed style attributes and
            // style elements are what `style-src` without 'unsafe-inline' refuses.
            for inline in [r#"setAttribute("style""#, r#"createElement("style")"#] {
                assert!(!code.contains(inline), "{} uses {inline}", path.display());
            }
        }
    }
}
