//! The webview's Content-Security-Policy allows no inline or evaluated script: injected
//! markup cannot run. Styles may be inline only because the workbench's JSON editor
//! (CodeMirror) injects its layout as a `<style>` element at run time; without it the
//! editor's gutter and layout break. The built HTML itself carries no inline style.

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

/// The sources one directive allows.
fn sources<'a>(csp: &'a str, name: &str) -> Vec<&'a str> {
    csp.split(';')
        .map(str::split_whitespace)
        .find_map(|mut words| (words.next() == Some(name)).then(|| words.collect()))
        .unwrap_or_else(|| panic!("no {name} in {csp}"))
}

#[test]
fn the_csp_allows_no_inline_code_and_only_inline_styles() {
    let csp = csp();
    assert_eq!(sources(&csp, "script-src"), ["'self'"], "{csp}");
    assert_eq!(
        sources(&csp, "style-src"),
        ["'self'", "'unsafe-inline'"],
        "{csp}"
    );
    assert_eq!(sources(&csp, "object-src"), ["'none'"], "{csp}");
    assert_eq!(sources(&csp, "default-src"), ["'self'"], "{csp}");
    assert!(!csp.contains("'unsafe-eval'"), "{csp}");
}

#[test]
fn the_built_html_has_no_inline_styles() {
    let dist = root().join("../ui/dist");
    let html = std::fs::read_to_string(dist.join("index.html")).unwrap();
    assert!(
        !html.contains("<style") && !html.contains("style="),
        "{html}"
    );
}
