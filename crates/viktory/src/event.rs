//! What happened: the events of every action, for logs, animation and replays.

use engine::{Outcome, Seat};
use hexmap::Hex;
use serde::{Deserialize, Serialize};

use crate::board::Terrain;
use crate::state::Stage;
use crate::unit::{UnitId, UnitKind};

/// Why a die was rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiePurpose {
    /// A bombardment (11.0).
    Bombard,
    /// Attacking artillery before the first round (12.3 step 0).
    PreBattle,
    /// The attacker's fire round (12.3 step 1).
    Attack,
    /// The defender's fire round (12.3 step 2).
    Defense,
    /// The doomsday clock (5.5).
    Doomsday,
    /// Artillery Overwatch (Expansion, Artillery Characteristics).
    Overwatch,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The first player was drawn.
    FirstPlayer {
        /// Who.
        seat: Seat,
    },
    /// A player's turn began.
    TurnStarted {
        /// Whose.
        seat: Seat,
        /// Game turn (0: capitals are being built).
        turn: u16,
    },
    /// A phase began.
    PhaseStarted {
        /// Which.
        stage: Stage,
    },
    /// A tile was revealed.
    Revealed {
        /// Where.
        hex: Hex,
        /// What.
        terrain: Terrain,
    },
    /// Independent exploration: a seat reached a tile someone else laid (H-23); only
    /// that seat hears of it.
    Explored {
        /// Who.
        seat: Seat,
        /// Where.
        hex: Hex,
        /// What.
        terrain: Terrain,
    },
    /// Dark: another player's unit came into sight (from a hex the seat cannot see).
    Appeared {
        /// Which.
        unit: UnitId,
        /// Where it is now.
        hex: Hex,
    },
    /// Dark: another player's unit moved out of sight.
    Vanished {
        /// Which.
        unit: UnitId,
        /// Where it was last seen.
        hex: Hex,
    },
    /// A revealed water hex went back face down, to be replaced by a land tile (15.3).
    Rebalanced {
        /// Who chose it.
        seat: Seat,
        /// The hex.
        hex: Hex,
    },
    /// A tile was drawn from the pile; only its drawer is told which.
    Drew {
        /// The drawer.
        seat: Seat,
        /// The tile (`None` in everyone else's copy).
        terrain: Option<Terrain>,
    },
    /// A drawn water tile went back to the pile (map customization).
    WaterReturned {
        /// Who returned it.
        seat: Seat,
    },
    /// A capital was founded.
    CapitalFounded {
        /// Whose.
        seat: Seat,
        /// Where.
        hex: Hex,
    },
    /// A town was built.
    TownBuilt {
        /// Whose.
        seat: Seat,
        /// Where.
        hex: Hex,
    },
    /// A town or city was moved to an adjacent hex (15.5).
    TownRelocated {
        /// Whose.
        seat: Seat,
        /// From.
        from: Hex,
        /// To.
        to: Hex,
    },
    /// A town became a city.
    CityBuilt {
        /// Whose.
        seat: Seat,
        /// Where.
        hex: Hex,
    },
    /// A unit was added to a reserve (7.4, 10.3).
    UnitGained {
        /// Whose.
        seat: Seat,
        /// What.
        kind: UnitKind,
    },
    /// A reserve unit was placed on the map.
    UnitPlaced {
        /// Whose.
        seat: Seat,
        /// Its new id.
        unit: UnitId,
        /// Its type.
        kind: UnitKind,
        /// Where.
        hex: Hex,
    },
    /// A unit moved.
    Moved {
        /// Which.
        unit: UnitId,
        /// From.
        from: Hex,
        /// To.
        to: Hex,
        /// Along a road (9.13).
        road: bool,
    },
    /// A unit's movement ended for the turn.
    MovementEnded {
        /// Which.
        unit: UnitId,
    },
    /// A land unit boarded a frigate.
    Embarked {
        /// The land unit.
        unit: UnitId,
        /// The frigate.
        frigate: UnitId,
        /// Where the land unit stood (seats that see the hex see it go).
        from: Hex,
    },
    /// A land unit left its frigate.
    Disembarked {
        /// The land unit.
        unit: UnitId,
        /// Into this hex.
        to: Hex,
        /// From the frigate in this hex (seats that see it see the unit go).
        from: Hex,
    },
    /// A bombardment was declared.
    Bombarded {
        /// The bombarding unit.
        unit: UnitId,
        /// The target hex.
        target: Hex,
    },
    /// A die was rolled.
    DieRolled {
        /// Who rolled.
        seat: Seat,
        /// Why.
        purpose: DiePurpose,
        /// The result.
        value: u8,
    },
    /// A unit was hit and went to its owner's reserve (10.2).
    UnitLost {
        /// Which.
        unit: UnitId,
        /// Whose.
        owner: Seat,
        /// Its type.
        kind: UnitKind,
        /// Who chose it.
        chosen_by: Seat,
    },
    /// A battle began.
    BattleStarted {
        /// Where.
        hex: Hex,
        /// The attacker.
        attacker: Seat,
        /// The defender.
        defender: Seat,
    },
    /// A battle round began.
    RoundStarted {
        /// Round number.
        round: u8,
    },
    /// Dice were taken from the defender by suppression (12.31).
    Suppressed {
        /// How many.
        dice: u8,
    },
    /// Dice pairs were traded for sure hits (15.4).
    LuckAveraged {
        /// The roller.
        seat: Seat,
        /// Pairs not rolled.
        pairs: u8,
    },
    /// An attacking unit retreated.
    Retreated {
        /// Which.
        unit: UnitId,
        /// Where to.
        to: Hex,
    },
    /// A battle ended.
    BattleEnded {
        /// Where.
        hex: Hex,
        /// The side that prevailed.
        winner: Seat,
    },
    /// A town or city changed hands (10.3).
    Captured {
        /// Where.
        hex: Hex,
        /// From.
        from: Seat,
        /// To.
        to: Seat,
        /// A city.
        city: bool,
    },
    /// A unit was given up after a capture (10.2).
    Disbanded {
        /// Whose.
        seat: Seat,
        /// Its type.
        kind: UnitKind,
        /// The unit, or `None` if it came from the reserve.
        unit: Option<UnitId>,
        /// Where the unit stood (Dark: seats that see the hex see it go).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hex: Option<Hex>,
    },
    /// A unit went back into its owner's reserve (Expansion, Redeployment).
    Redeployed {
        /// Which.
        unit: UnitId,
        /// Its type.
        kind: UnitKind,
        /// Where it was (seats that see the hex see it go).
        hex: Hex,
    },
    /// The doomsday clock started (5.5).
    DoomsdayStarted,
    /// A coin was placed by a capital (5.5).
    DoomsdayMarked {
        /// Whose capital.
        seat: Seat,
    },
    /// A player left the game.
    Eliminated {
        /// Who.
        seat: Seat,
    },
    /// Expansion: a city became a Metropolis supporting one more unit of this kind.
    MetropolisBuilt {
        /// Whose.
        seat: Seat,
        /// Where.
        hex: Hex,
        /// The extra kind (two infantry, or one of another kind).
        extra: UnitKind,
    },
    /// Expansion: a Metropolis supports another extra unit now.
    MetropolisSwitched {
        /// Where.
        hex: Hex,
        /// The new extra kind.
        extra: UnitKind,
    },
    /// Expansion: a unit pillaged a hex.
    Pillaged {
        /// The unit.
        unit: UnitId,
        /// The hex.
        hex: Hex,
    },
    /// Expansion: a unit repaired a pillaged hex.
    Repaired {
        /// The unit.
        unit: UnitId,
        /// The hex.
        hex: Hex,
    },
    /// 15.61: a capital fell; its owner is now the captor's Vassal.
    Subjugated {
        /// The capital.
        hex: Hex,
        /// Its owner, the new Vassal.
        vassal: Seat,
        /// The captor, the new Ruler.
        ruler: Seat,
    },
    /// 15.65: a Vassal is free of his Alliance.
    Freed {
        /// Who.
        seat: Seat,
    },
    /// The game ended.
    GameOver {
        /// How.
        outcome: Outcome,
    },
}
