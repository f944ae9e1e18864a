//! One module per subcommand.

pub mod measure;
