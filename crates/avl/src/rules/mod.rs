//! The rules, one module per rulebook section.

pub mod advance;
pub mod combat;
pub mod command;
pub mod hq;
pub mod movement;
pub mod pocket;
pub mod reinforcements;
pub mod retreat;
pub mod sequence;
pub mod stacking;
pub mod supply;
pub mod victory;
pub mod zoc;
