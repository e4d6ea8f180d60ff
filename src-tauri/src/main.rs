// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

/// A large organization's grid loads through a peak of transient allocations (at 100,000
/// people × 2,000 channels, a 61 MB answer and its decoded form) that glibc's malloc kept
/// as fragmented heap after they were freed; mimalloc returns freed pages to the system.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    weir_app::run();
}
