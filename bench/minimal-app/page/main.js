// Tells the process the page is up, as Weir's UI does with its first status request.
window.__TAURI__.core.invoke("ready");
