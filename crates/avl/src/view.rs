//! What a seat sees: the map and every unit (the rules have no fog), the victory
//! points, but not the other side's chits in its pool or in the cup (7.1.3), nor the
//! Soviet secret choice (3.0).

use std::fmt;
use std::sync::Arc;

use engine::{Seat, ToMove};
use serde::{Deserialize, Serialize};

use crate::rules::{command, sequence, victory};
use crate::state::{Avl, Chit, Position, Rules};
use crate::unit::Side;

/// One seat's (or a spectator's) view.
///
/// Besides what goes on the wire, a view made in this process carries the game's rules
/// (the scenario and the options, which every seat knows) so that a bot can rebuild
/// full states from it ([`View::rules`]). The rules are not serialised: a view read
/// back from JSON has none until [`View::set_rules`] gives them. Equality compares what
/// the seat sees (seat, who moves, VPs, position), never the rules.
#[derive(Clone, Serialize, Deserialize)]
pub struct View {
    /// The seat this view is for; `None` for spectators.
    pub seat: Option<Seat>,
    /// Who must decide now.
    pub to_move: ToMove,
    /// Axis and Soviet victory points now (14.0.1).
    pub vp: [i32; 2],
    /// The position, with the chits this seat may not see as [`Chit::Hidden`].
    pub position: Position,
    /// The game's rules, in this process only.
    #[serde(skip)]
    rules: Option<Arc<Rules>>,
}

impl View {
    /// The game's rules (scenario, compiled data, options), when this view was made in
    /// this process or given them with [`View::set_rules`]; `None` for a view read back
    /// from JSON.
    pub fn rules(&self) -> Option<&Arc<Rules>> {
        self.rules.as_ref()
    }

    /// Gives a view read back from JSON the rules of its game (public knowledge: the
    /// scenario and the options).
    pub fn set_rules(&mut self, rules: Arc<Rules>) {
        self.rules = Some(rules);
    }
}

impl PartialEq for View {
    fn eq(&self, other: &View) -> bool {
        self.seat == other.seat
            && self.to_move == other.to_move
            && self.vp == other.vp
            && self.position == other.position
    }
}

impl Eq for View {}

impl fmt::Debug for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("View")
            .field("seat", &self.seat)
            .field("to_move", &self.to_move)
            .field("vp", &self.vp)
            .field("position", &self.position)
            .field(
                "rules",
                &self.rules.as_ref().map(|r| r.scenario.name.as_str()),
            )
            .finish()
    }
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
        rules: Some(Arc::clone(s.shared_rules())),
    }
}
