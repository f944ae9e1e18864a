//! One module per subcommand.

pub mod check_move;
pub mod measure;
pub mod rulings;
