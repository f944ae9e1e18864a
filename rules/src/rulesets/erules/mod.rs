//! eRules Napoleonic Wars' own rules: momentum (digest §1.3).

pub mod momentum;
