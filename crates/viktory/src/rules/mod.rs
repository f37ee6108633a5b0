//! The rules, one module per rulebook section.

pub mod battle;
pub(crate) mod battle_dice;
pub mod bombard;
pub mod building;
pub mod capital;
pub mod casualties;
pub mod customization;
pub mod exploration;
pub mod fog;
pub mod metropolis;
pub mod movement;
pub mod naval;
pub mod opening;
pub mod pillage;
pub mod quick_setup;
pub mod reserve;
pub mod sequence;
pub mod subjugation;
pub mod victory;

pub use crate::options::{DicePerKind, LostCapital, Retreat, Suppression, Victory};
