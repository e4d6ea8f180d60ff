/// glibc's malloc serialises the server's threads on its arena locks under load (seen in
/// `perf`: futex waits inside malloc); mimalloc keeps per-thread heaps.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    weir_server::embed::cli::main()
}
