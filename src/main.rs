fn main() -> std::process::ExitCode {
    hcl_types::cli::main()
}
