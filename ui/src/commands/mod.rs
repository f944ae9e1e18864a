//! One module per subcommand.

pub mod bench;
pub mod check_move;
pub mod measure;
pub mod rulings;
