//! How the web view paints. WebKitGTK composites through OpenGL by default; on a machine
//! with no GPU (a VM, a remote desktop, a virtual display) Mesa emulates OpenGL on the CPU
//! (llvmpipe), and WebKit rasterizes on the main thread through that emulation. Measured
//! with `weir-bench grid` on such a machine, the memberships grid drew a frame every
//! 160–240 ms (p95) while scrolling; without compositing, every 42–58 ms, and the app held
//! about 100 MB less. So without a GPU Weir asks WebKit not to composite;
//! `WEIR_HARDWARE_ACCELERATION=always|never` decides instead of the detection.
//! (WebKitWebDriver's screenshots can hang in that mode, so the end-to-end suite runs its
//! full script with `always` and only its first steps with `never`.)

/// The environment variable that overrides the detection.
pub const OVERRIDE_VAR: &str = "WEIR_HARDWARE_ACCELERATION";

/// What Weir asks of WebKit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acceleration {
    /// WebKit's default: composite through the GPU.
    Default,
    /// Paint without compositing.
    Never,
}

/// What the machine says about its GPU.
#[derive(Debug, Clone, Copy)]
pub struct Machine<'a> {
    /// `WEIR_HARDWARE_ACCELERATION`, when set.
    pub requested: Option<&'a str>,
    /// `LIBGL_ALWAYS_SOFTWARE` asks Mesa for its software renderer.
    pub software_gl_forced: bool,
    /// A DRM render node (`/dev/dri/renderD*`): a GPU driver that can render.
    pub has_render_node: bool,
}

/// The choice for this machine; an override that is not understood is ignored.
pub fn choose(machine: Machine<'_>) -> Acceleration {
    match machine.requested.map(str::trim) {
        Some("never") => return Acceleration::Never,
        Some("always") => return Acceleration::Default,
        _ => {}
    }
    if machine.software_gl_forced || !machine.has_render_node {
        Acceleration::Never
    } else {
        Acceleration::Default
    }
}

/// Reads the machine: the environment and `/dev/dri`.
#[cfg(target_os = "linux")]
pub fn detect() -> Acceleration {
    let requested = std::env::var(OVERRIDE_VAR).ok();
    let software_gl_forced = std::env::var("LIBGL_ALWAYS_SOFTWARE")
        .is_ok_and(|value| !matches!(value.trim(), "" | "0" | "false"));
    let has_render_node = std::fs::read_dir("/dev/dri").is_ok_and(|entries| {
        entries
            .flatten()
            .any(|entry| entry.file_name().to_string_lossy().starts_with("renderD"))
    });
    choose(Machine {
        requested: requested.as_deref(),
        software_gl_forced,
        has_render_node,
    })
}

/// Applies the choice to a window's web view (Linux only: elsewhere the platform's own
/// web view decides).
pub fn apply<R: tauri::Runtime>(window: &tauri::WebviewWindow<R>) {
    #[cfg(target_os = "linux")]
    {
        let choice = detect();
        tracing::info!(?choice, "web view acceleration");
        if choice == Acceleration::Never {
            let applied = window.with_webview(|webview| {
                use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
                if let Some(settings) = webview.inner().settings() {
                    settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
                }
            });
            if let Err(error) = applied {
                tracing::warn!(%error, "cannot set the web view's acceleration");
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(requested: Option<&str>, forced: bool, render_node: bool) -> Machine<'_> {
        Machine {
            requested,
            software_gl_forced: forced,
            has_render_node: render_node,
        }
    }

    #[test]
    fn a_gpu_keeps_webkits_default() {
        assert_eq!(choose(machine(None, false, true)), Acceleration::Default);
    }

    #[test]
    fn no_render_node_or_software_gl_means_no_compositing() {
        assert_eq!(choose(machine(None, false, false)), Acceleration::Never);
        assert_eq!(choose(machine(None, true, true)), Acceleration::Never);
    }

    #[test]
    fn the_override_decides_and_a_wrong_one_is_ignored() {
        assert_eq!(
            choose(machine(Some("always"), true, false)),
            Acceleration::Default
        );
        assert_eq!(
            choose(machine(Some(" never "), false, true)),
            Acceleration::Never
        );
        assert_eq!(
            choose(machine(Some("sometimes"), false, true)),
            Acceleration::Default
        );
        assert_eq!(choose(machine(Some(""), false, false)), Acceleration::Never);
    }
}
