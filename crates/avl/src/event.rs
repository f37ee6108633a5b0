//! What happened, for logs, animation and per-seat delivery.

use hexmap::Hex;
use serde::{Deserialize, Serialize};

use crate::crt::CrtResult;
use crate::state::{Chit, PieceId, Supply};
use crate::unit::Side;

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// Rule 3.0: the Soviet player chose a chit (the chit is seen only by him).
    ChitChosen {
        /// The chit (`Hidden` for the Axis).
        chit: Chit,
    },
    /// Rule 7.1.2: a side put a chit in the cup (seen only by that side).
    ChitSelected {
        /// Whose.
        side: Side,
        /// Which (`Hidden` for the other side).
        chit: Chit,
    },
    /// Rule 15.0.2: a Soviet chit noted for next turn (seen only by him).
    ChitNoted {
        /// Which (`Hidden` for the Axis).
        chit: Chit,
    },
    /// Rule 7.2.1: a chit was drawn.
    ChitDrawn {
        /// Which.
        chit: Chit,
    },
    /// Rule 7.2.2: a Manstein chit went back into the cup.
    MansteinRejected,
    /// Rule 7.3: a side activated HQs and combat units.
    Activated {
        /// The active side.
        side: Side,
        /// The HQs.
        hqs: Vec<PieceId>,
        /// The combat units.
        units: Vec<PieceId>,
    },
    /// Rule 8.1: a piece moved one hex.
    Moved {
        /// The piece.
        piece: PieceId,
        /// To.
        to: Hex,
        /// MPs spent in all, in halves.
        spent: u16,
    },
    /// Rule 12.1: a lone HQ was overrun.
    Overrun {
        /// The HQ.
        hq: PieceId,
        /// By.
        by: PieceId,
    },
    /// Rule 9.3: a combat's odds.
    Odds {
        /// Attacked hex.
        target: Hex,
        /// Total attack strength.
        attack: u32,
        /// Total defense strength.
        defense: u32,
        /// The column used, e.g. "3-1".
        column: String,
    },
    /// Rule 9.4: a combat result.
    CombatResult {
        /// The die.
        die: u8,
        /// The result.
        result: CrtResult,
    },
    /// Rule 9.4.2: a unit lost a step.
    StepLost {
        /// The unit.
        unit: PieceId,
        /// It was eliminated.
        eliminated: bool,
    },
    /// Rule 9.5: a piece retreated one hex.
    Retreated {
        /// The piece.
        piece: PieceId,
        /// To.
        to: Hex,
    },
    /// Rule 9.5.8: a unit could not retreat and was eliminated.
    EliminatedInRetreat {
        /// The unit.
        unit: PieceId,
    },
    /// Rule 9.6: a piece advanced one hex.
    Advanced {
        /// The piece.
        piece: PieceId,
        /// To.
        to: Hex,
    },
    /// Rule 12.7: a HQ was relocated.
    Relocated {
        /// The HQ.
        hq: PieceId,
        /// To.
        to: Hex,
    },
    /// Rule 12.7: a HQ that could not be relocated arrives next turn.
    RelocationFailed {
        /// The HQ.
        hq: PieceId,
    },
    /// Rule 10.1.3: a supply marker changed.
    SupplyChanged {
        /// The piece.
        piece: PieceId,
        /// Its new status.
        supply: Supply,
    },
    /// Rule 11.1: a reinforcement was placed.
    Placed {
        /// The piece.
        piece: PieceId,
        /// Where.
        to: Hex,
    },
    /// Rule 11.2: a reinforcement went into its box.
    EnteredBox {
        /// The piece.
        piece: PieceId,
    },
    /// Rule 11.1.3: a reinforcement could not enter and is eliminated.
    ReinforcementLost {
        /// The piece.
        piece: PieceId,
    },
    /// Rule 11.1.2: a chit arrived in a side's pool.
    ChitArrived {
        /// The chit.
        chit: Chit,
    },
    /// Rule 11.3: a HQ and its chit left the game.
    HqRemoved {
        /// The HQ.
        hq: PieceId,
    },
    /// Rule 14.0.1: a Victory City changed hands.
    CityTaken {
        /// Index of the city.
        city: u8,
        /// The new owner.
        by: Side,
    },
    /// Rule 4.3 (3): a new turn began.
    TurnBegan {
        /// The turn.
        turn: u8,
    },
    /// Rule 14.0.2: the game ended.
    GameOver {
        /// The winner, if not a draw.
        winner: Option<Side>,
        /// Axis and Soviet VPs.
        vp: [i32; 2],
    },
}
