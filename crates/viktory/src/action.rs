//! Decisions, one per action, at the grain a player makes them.

use engine::Seat;
use hexmap::Hex;
use serde::{Deserialize, Serialize};

use crate::board::Terrain;
use crate::unit::{UnitId, UnitKind};

/// One VIKTORY decision or chance outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    // ----- chance -----
    /// Chance: this seat plays first (4.0 step 1).
    FirstPlayer {
        /// The first player.
        seat: Seat,
    },
    /// Chance: the face-down tile at `hex` turns out to be `terrain` (7.3, 9.2).
    Reveal {
        /// The hex being revealed (always the first waiting one).
        hex: Hex,
        /// Its terrain, drawn from the tiles left.
        terrain: Terrain,
    },
    /// Chance: the next tile drawn from the pile is `terrain` (map customization).
    Draw {
        /// The tile.
        terrain: Terrain,
    },
    /// Chance: one die shows `value` (battle, bombardment, doomsday).
    Die {
        /// 1 to 6.
        value: u8,
    },

    /// Exploration balancing (15.3): swap this revealed water hex for a land tile, or
    /// keep the map as revealed (`None`).
    Rebalance {
        /// The water hex to swap.
        hex: Option<Hex>,
    },

    /// Map customization: lay a drawn tile on a waiting hex.
    Arrange {
        /// The waiting hex.
        hex: Hex,
        /// The drawn tile.
        terrain: Terrain,
    },
    /// Map customization: after drawing nothing but water, put one back and draw until
    /// land comes up (`true`), or keep the draw.
    RedrawWater {
        /// Whether to redraw.
        redraw: bool,
    },

    // ----- opening -----
    /// Build the capital town here (4.0 step 2).
    FoundCapital {
        /// A revealed land hex of the start group.
        hex: Hex,
    },

    // ----- building -----
    /// Build a town here (7.21).
    BuildTown {
        /// Where.
        hex: Hex,
    },
    /// Upgrade the own town here into a city (7.23).
    BuildCity {
        /// Where.
        hex: Hex,
    },
    /// Move an own town or city to an adjacent hex instead of building (15.5).
    Relocate {
        /// Where it stands.
        from: Hex,
        /// The adjacent hex it moves to.
        to: Hex,
    },

    // ----- movement and combat -----
    /// Move a unit one step to an adjacent hex, or along a road to an own town or city
    /// two or three hexes away (9.0, 9.13, 9.32).
    Move {
        /// The unit.
        unit: UnitId,
        /// Where to.
        to: Hex,
    },
    /// Take a land unit aboard an adjacent own frigate (9.42).
    Embark {
        /// The land unit.
        unit: UnitId,
        /// The frigate.
        frigate: UnitId,
    },
    /// Drop a cargo unit into a land hex adjacent to its frigate (9.46, 9.47).
    Disembark {
        /// The cargo unit.
        unit: UnitId,
        /// The land hex.
        to: Hex,
    },
    /// Bombard enemy units one or two hexes away (11.0).
    Bombard {
        /// The artillery or frigate.
        unit: UnitId,
        /// The target hex.
        target: Hex,
    },
    /// Start the battle in a hex the player's units have entered (12.0).
    Fight {
        /// The battle hex.
        hex: Hex,
    },
    /// Choose a unit to lose as a casualty (10.1).
    Casualty {
        /// The unit lost.
        unit: UnitId,
    },
    /// Fight another battle round instead of retreating (12.3 step 3).
    Continue,
    /// Luck averaging (15.4): leave this many pairs of fire dice unrolled, each for one
    /// sure hit of the opponent's choosing.
    Average {
        /// Pairs not rolled (0 rolls every die).
        pairs: u8,
    },
    /// Retreat one attacking unit (12.3 step 3).
    Retreat {
        /// The unit.
        unit: UnitId,
        /// An adjacent hex an attacking unit entered the battle from.
        to: Hex,
    },
    /// Give up a unit after losing a town or city (10.2, R-17): from the map, or from
    /// the reserve when `unit` is `None`.
    Disband {
        /// The unit type owed.
        kind: UnitKind,
        /// A unit on the map, or `None` for one from the reserve.
        unit: Option<UnitId>,
    },

    // ----- reserve placement -----
    /// Place a reserve unit through an own town or city (13.0): land units into it,
    /// frigates into a water hex beside it (13.3, 13.4).
    Place {
        /// The unit type.
        kind: UnitKind,
        /// The town or city whose capacity it uses.
        town: Hex,
        /// Where the unit goes.
        to: Hex,
    },

    // ----- phases -----
    /// Take a unit on the map back into the reserve during placement (Expansion,
    /// Redeployment).
    Redeploy {
        /// The unit (a frigate takes its cargo along).
        unit: UnitId,
    },

    /// End the current phase: skip building, end movement and combat, end placement.
    EndPhase,

    // ----- subjugation (15.6) -----
    /// Move a unit out of a captured capital handed back to its owner (15.62).
    Evacuate {
        /// The Ruler's unit in the capital.
        unit: UnitId,
        /// An adjacent hex (a water hex: aboard an own frigate there).
        to: Hex,
    },
    /// A Ruler's unit enters a hex of his own Vassal to fight him (15.64, 15.65).
    Attack {
        /// The unit.
        unit: UnitId,
        /// The adjacent Vassal hex.
        to: Hex,
    },

    // ----- Expansion, extremely optional -----
    /// Upgrade an own city into a Metropolis supporting one more unit (Metropolis).
    BuildMetropolis {
        /// The city.
        hex: Hex,
        /// The extra kind: two infantry, or a cavalry, artillery or frigate.
        extra: UnitKind,
    },
    /// Pillage a land hex next to a town or city: the unit's own hex, or for a frigate
    /// an adjacent one (Pillage Attack).
    Pillage {
        /// The unit.
        unit: UnitId,
        /// The hex.
        hex: Hex,
    },
    /// Repair a pillaged hex, ending the unit's movement (Pillage Attack).
    Repair {
        /// The unit.
        unit: UnitId,
        /// The hex.
        hex: Hex,
    },
    /// A cavalry passes into an enemy hex without attacking, paying one more movement
    /// point, and must move on (Cavalry Characteristics).
    Bypass {
        /// The cavalry.
        unit: UnitId,
        /// The adjacent enemy hex.
        to: Hex,
    },
    /// Switch the extra unit a Metropolis supports (Metropolis).
    SwitchMetropolis {
        /// The Metropolis.
        hex: Hex,
        /// The new extra kind.
        extra: UnitKind,
    },
}
