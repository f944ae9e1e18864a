//! The text colours the views share.

use egui::Color32;

/// Text that matters less: grey.
pub const DIM: Color32 = Color32::from_rgb(150, 150, 150);

/// Text that warns: amber.
pub const WARN: Color32 = Color32::from_rgb(255, 190, 40);
