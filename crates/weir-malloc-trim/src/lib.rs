//! Gives the system back the heap that a large load leaves free. glibc keeps what the
//! program frees in its arenas and returns pages only from the top of each, so after the
//! grid of a large organization (a 61 MB `register` answer at 100,000 people, decoded,
//! turned into the matrix and dropped) the app stayed resident near that peak.
//!
//! The workspace's only unsafe code: a crate of its own, so that every other crate keeps
//! `unsafe_code = "forbid"`.

/// Asks glibc to return the free pages of every arena (`malloc_trim(0)`); whether it
/// returned any. It walks and locks each arena in turn, so call it after a burst, off the
/// async workers. Elsewhere (musl, macOS, Windows) it does nothing.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn release_free_pages() -> bool {
    // SAFETY: `malloc_trim` takes no pointers and has no preconditions; glibc serializes it
    // with every other allocator call through each arena's lock.
    unsafe { libc::malloc_trim(0) == 1 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn release_free_pages() -> bool {
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn returns_what_a_burst_left_free() {
        // 64 MB in blocks below glibc's mmap threshold (so from an arena), each followed
        // by a small block that stays: the freed blocks cannot merge into the arena's top,
        // whose trimming glibc does on its own, so only the call gives their pages back.
        let (blocks, pins): (Vec<Vec<u8>>, Vec<Vec<u8>>) = (0..1_000)
            .map(|i| (vec![i as u8; 64 * 1024], vec![i as u8; 32]))
            .unzip();
        drop(blocks);
        let released = super::release_free_pages();
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            assert!(released, "64 MB were free between live blocks");
        }
        drop(pins);
    }
}
