//! One decision at the grain a person makes it, or one chance outcome.

use hexmap::Hex;
use serde::{Deserialize, Serialize};

use crate::state::{Chit, PieceId};

/// An action. Chance actions: [`Action::DrawChit`] and [`Action::Die`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Rule 3.0: the Soviet player secretly chooses one of his HQ chits.
    ChooseChit {
        /// The chit.
        chit: Chit,
    },
    /// Rule 7.1.2: put one available chit in the cup (15.0.2: or note it for next turn).
    SelectChit {
        /// The chit.
        chit: Chit,
    },
    /// Rule 4.1.2: the Turn 1 Soviet Special Combat Segment with this HQ, or none.
    SpecialCombat {
        /// The HQ, or `None` to forgo the segment.
        hq: Option<PieceId>,
    },
    /// Rule 15.0.2: the Axis player names his first chit "drawn".
    FirstChit {
        /// The chit, one of his in the cup.
        chit: Chit,
    },
    /// Rule 7.2.1 (chance): this chit comes out of the cup.
    DrawChit {
        /// The chit.
        chit: Chit,
    },
    /// Rule 7.2.2: the Axis player returns the Manstein chit just drawn to the cup.
    RejectManstein,
    /// Rule 7.2.2: the Manstein chit just drawn activates this Axis HQ.
    ActivateHq {
        /// The HQ.
        hq: PieceId,
    },
    /// Rule 8.1: move one piece one hex (paying the TEC cost).
    Move {
        /// The piece.
        piece: PieceId,
        /// An adjacent hex (or a hex adjacent to its box, 11.2.2).
        to: Hex,
    },
    /// Rule 8.3: move one piece one hex along a road by strategic movement (1/2 MP).
    RoadMove {
        /// The piece.
        piece: PieceId,
        /// The next road hex.
        to: Hex,
    },
    /// Rule 4.1.2: end the Movement Segment.
    EndMovement,
    /// Rule 9.2 (1): this activated unit attacks this hex (the first names the combat).
    Attack {
        /// The unit.
        unit: PieceId,
        /// The attacked hex.
        target: Hex,
    },
    /// Withdraw the attack being declared (nothing was rolled).
    CancelAttack,
    /// Rule 9.2 (2)–(3): the declaration is complete: compute the odds, roll.
    Resolve,
    /// Rule 9.4.1 (chance): the combat die.
    Die {
        /// 1 to 6.
        value: u8,
    },
    /// Rule 9.4.2: remove one step from this unit.
    LoseStep {
        /// The unit.
        unit: PieceId,
    },
    /// Rule 9.5: retreat this piece one hex.
    Retreat {
        /// The piece.
        piece: PieceId,
        /// The hex.
        to: Hex,
    },
    /// Rule 9.6: advance this piece one hex.
    Advance {
        /// The piece.
        piece: PieceId,
        /// The hex.
        to: Hex,
    },
    /// Rule 9.6.2: advance no further; the combat is over.
    EndAdvance,
    /// Rule 4.1.2 (4): end the Combat Segment.
    EndCombat,
    /// Rule 12.7: relocate this HQ to this hex.
    Relocate {
        /// The HQ.
        hq: PieceId,
        /// The hex.
        to: Hex,
    },
    /// Rule 11.1: place this reinforcement on this railroad hex.
    Place {
        /// The piece.
        piece: PieceId,
        /// The hex.
        to: Hex,
    },
}

impl Action {
    /// Whether this is a chance outcome.
    pub const fn is_chance(&self) -> bool {
        matches!(self, Action::DrawChit { .. } | Action::Die { .. })
    }
}
