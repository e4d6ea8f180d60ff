fn main() -> std::process::ExitCode {
    weir_server::cli::main()
}
