//! What a seat sees: the map and every unit (the rules have no fog), the victory
//! points, but not the other side's chits in its pool or in the cup (7.1.3), nor the
//! Soviet secret choice (3.0).

use engine::{Seat, ToMove};
use serde::{Deserialize, Serialize};

use crate::rules::{command, sequence, victory};
use crate::state::{Avl, Chit, Position};
use crate::unit::Side;

/// One seat's (or a spectator's) view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The seat this view is for; `None` for spectators.
    pub seat: Option<Seat>,
    /// Who must decide now.
    pub to_move: ToMove,
    /// Axis and Soviet victory points now (14.0.1).
    pub vp: [i32; 2],
    /// The position, with the chits this seat may not see as [`Chit::Hidden`].
    pub position: Position,
}

fn hide(list: &mut [Chit], keep: impl Fn(Chit) -> bool) {
    for c in list.iter_mut() {
        if !keep(*c) {
            *c = Chit::Hidden;
        }
    }
    list.sort();
}

/// The view of `seat`.
pub fn view(s: &Avl, seat: Option<Seat>) -> View {
    let viewer = seat.and_then(Side::of_seat);
    let mut position = s.pos.clone();
    for side in Side::BOTH {
        if viewer != Some(side) {
            hide(&mut position.inactive[side.index()], |_| false);
        }
    }
    hide(&mut position.cup, |c| {
        viewer.is_some() && command::chit_side(s, c) == viewer
    });
    if viewer != Some(Side::Soviet) {
        hide(&mut position.noted, |_| false);
    }
    View {
        seat,
        to_move: sequence::to_move(s),
        vp: victory::vp(s, false),
        position,
    }
}
