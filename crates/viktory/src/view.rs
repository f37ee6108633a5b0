//! What a seat sees. In the classic rules everything on the table is public except the
//! face-down tiles, which the state never holds: a tile's terrain is drawn from the bank
//! only when it is revealed, so no view can leak it. With map customization the
//! tiles drawn and not yet laid are seen only by their drawer.

use engine::{Seat, ToMove};
use serde::{Deserialize, Serialize};

use crate::rules::sequence;
use crate::state::{Setup, Viktory};

/// One seat's (or a spectator's) view of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The seat this view is for; `None` for spectators.
    pub seat: Option<Seat>,
    /// Who must decide now.
    pub to_move: ToMove,
    /// Each seat's empire points (5.3).
    pub scores: Vec<u16>,
    /// The position as the seat may see it.
    pub position: Setup,
    /// Colorblind (online rules): show every other seat as the same enemy.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub colorblind: bool,
}

/// The view of `seat`.
pub fn view(s: &Viktory, seat: Option<Seat>) -> View {
    let mut position = s.to_setup();
    // Map customization: the tiles in the drawer's hand are his secret until laid; to
    // everyone else they are still part of the unknown pile.
    if seat != Some(s.turn.active) && !position.drawn.is_empty() {
        let mut bank = position.bank.unwrap_or_default();
        for t in std::mem::take(&mut position.drawn) {
            *bank.get_mut(t) += 1;
        }
        position.bank = Some(bank);
    }
    View {
        seat,
        to_move: sequence::to_move(s),
        scores: (0..s.rules.players).map(|p| s.score(Seat(p))).collect(),
        colorblind: s.rules.colorblind,
        position,
    }
}
