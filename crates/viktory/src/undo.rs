//! Taking back a move (the server's undo, not a rulebook rule): which actions a player
//! may take back. The rulebooks let a player think aloud with his own units; they do
//! not let him unsee a tile, a die or an enemy unit. So an action can be taken back
//! only when everything it caused is the player's own business: moving, boarding and
//! leaving frigates, placing reserves, building, ending a phase of his own turn. A die
//! roll, a tile draw or reveal, a battle or bombardment, a capture, anything that
//! reaches another player, and (with fog) any hex that came into sight, make the
//! actions before it final.

use engine::{Game, Seat, ToMove};
use hexmap::Board;

use crate::event::Event;
use crate::rules::fog;
use crate::state::Viktory;

/// Whether an event concerns nobody but the player who caused it and teaches him
/// nothing he did not know.
fn private(event: &Event) -> bool {
    matches!(
        event,
        Event::PhaseStarted { .. }
            | Event::CapitalFounded { .. }
            | Event::TownBuilt { .. }
            | Event::TownRelocated { .. }
            | Event::CityBuilt { .. }
            | Event::MetropolisBuilt { .. }
            | Event::MetropolisSwitched { .. }
            | Event::UnitGained { .. }
            | Event::UnitPlaced { .. }
            | Event::Moved { .. }
            | Event::MovementEnded { .. }
            | Event::Embarked { .. }
            | Event::Disembarked { .. }
            | Event::Redeployed { .. }
            | Event::Vanished { .. }
    )
}

/// Whether `seat`, having moved from `before` to `after`, may take that back: every
/// event was its own business, it is still its decision, and (with fog) no hex came
/// into its sight.
pub(crate) fn undoable(before: &Viktory, after: &Viktory, seat: Seat, events: &[Event]) -> bool {
    if !events.iter().all(private) {
        return false;
    }
    if after.to_move() != ToMove::Seat(seat) {
        return false;
    }
    if !fog::on(after) {
        return true;
    }
    after
        .board
        .hexes()
        .all(|hex| fog::sees(before, seat, hex) || !fog::sees(after, seat, hex))
}
