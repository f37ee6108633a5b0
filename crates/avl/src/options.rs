//! Rule 15.0: the play balance options, all off by default.

use serde::{Deserialize, Serialize};

/// Rule 15.0: the optional play-balance rules.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// Rule 15.0.1, Soviet help: each eliminated German mechanized unit is worth 5 VPs.
    pub german_mech_5vp: bool,
    /// Rule 15.0.1, Soviet help: administrative movement (+1 MP away from enemy ZOCs).
    pub administrative_movement: bool,
    /// Rule 15.0.1, Soviet help: the 1st Panzer Army (the Axis reinforcement boxes)
    /// arrives one turn later (Turn 5 in the campaign).
    pub late_first_panzer: bool,
    /// Rule 15.0.2, Axis help: Manstein chits arrive in the Command Chit Selection Phase.
    pub early_manstein: bool,
    /// Rule 15.0.2, Axis help: the Soviet player selects his chits one turn in advance.
    pub soviet_selects_ahead: bool,
    /// Rule 15.0.2, Axis help: after the Special Combat Segment the Axis player names
    /// one of his selected chits as the first one drawn.
    pub axis_first_chit: bool,
}

impl Options {
    /// The option names and descriptions, for presets.
    pub fn describe() -> Vec<(&'static str, &'static str)> {
        vec![
            (
                "german_mech_5vp",
                "15.0.1: each eliminated German mechanized unit is worth 5 Soviet VPs",
            ),
            (
                "administrative_movement",
                "15.0.1: a Soviet unit that neither starts in nor enters an enemy ZOC gets one more MP",
            ),
            (
                "late_first_panzer",
                "15.0.1: the 1st Panzer Army arrives one turn later",
            ),
            (
                "early_manstein",
                "15.0.2: Manstein chits arrive in the Command Chit Selection Phase",
            ),
            (
                "soviet_selects_ahead",
                "15.0.2: the Soviet player selects his chits one turn in advance",
            ),
            (
                "axis_first_chit",
                "15.0.2: after the Turn 1 Special Combat Segment the Axis player names the first chit drawn",
            ),
        ]
    }
}
