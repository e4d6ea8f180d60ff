//! The baseline of `weir-bench app`: one window, one page, one command. Whatever Weir
//! costs beyond this is Weir's own.

/// Printed on stderr when the page has loaded, the same marker Weir logs.
#[tauri::command]
fn ready() {
    eprintln!("ui ready: first status request");
}

fn main() {
    let app = tauri::Builder::default()
        .invoke_handler(tauri::generate_handler![ready])
        .build(tauri::generate_context!());
    match app {
        Ok(app) => app.run(|_, _| {}),
        Err(error) => {
            eprintln!("minimal app: cannot start: {error}");
            std::process::exit(1);
        }
    }
}
