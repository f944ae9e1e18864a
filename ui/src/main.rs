//! The `vedette` binary: a thin shell over [`vedette_ui::cli`].

fn main() -> std::process::ExitCode {
    vedette_ui::cli::main()
}
