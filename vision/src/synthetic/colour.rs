//! Colours of the synthetic table: the cloth, the floor, the ink and the paper.

/// A colour, red-green-blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Green baize.
    pub const CLOTH: Rgb = Rgb(86, 120, 70);
    /// The floor beyond the table.
    pub const FLOOR: Rgb = Rgb(58, 52, 48);
    /// Tag ink.
    pub const INK: Rgb = Rgb(22, 22, 24);
    /// Tag paper.
    pub const PAPER: Rgb = Rgb(236, 234, 228);
}
