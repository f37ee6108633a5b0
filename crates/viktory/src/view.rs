//! What a seat sees. In the classic rules everything on the table is public except the
//! face-down tiles, which the state never holds: a tile's terrain is drawn from the bank
//! only when it is revealed, so no view can leak it. With map customization the
//! tiles drawn and not yet laid are seen only by their drawer. With the online Dark and
//! Independent exploration options a seat sees only what [`crate::rules::fog`] lets it.

use engine::{Seat, ToMove};
use hexmap::{Board, Hex};
use serde::{Deserialize, Serialize};

use crate::rules::{fog, sequence};
use crate::state::{Setup, Viktory};

/// One seat's (or a spectator's) view of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The seat this view is for; `None` for spectators.
    pub seat: Option<Seat>,
    /// Who must decide now.
    pub to_move: ToMove,
    /// Each seat's empire points (5.3); `None` where the seat cannot know them (Dark).
    pub scores: Vec<Option<u16>>,
    /// The board's side S: the map is the hexagon of side S, whose outer ring is
    /// the sea (drawn by clients; the tiles inside are in `position`).
    pub board_side: u8,
    /// The position as the seat may see it.
    pub position: Setup,
    /// Colorblind (online rules): show every other seat as the same enemy.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub colorblind: bool,
    /// Dark: the hexes this seat sees into now (elsewhere it sees no enemy units, and
    /// enemy towns only as remembered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<Vec<Hex>>,
}

/// The view of `seat`.
pub fn view(s: &Viktory, seat: Option<Seat>) -> View {
    let mut position = s.to_setup();
    // Map customization: the tiles in the drawer's hand are his secret until laid; to
    // everyone else they are still part of the unknown pile.
    if seat != Some(s.actor()) && !position.drawn.is_empty() {
        let mut bank = position.bank.unwrap_or_default();
        for t in std::mem::take(&mut position.drawn) {
            *bank.get_mut(t) += 1;
        }
        position.bank = Some(bank);
    }
    fog::redact(s, seat, &mut position);
    let dark = s.rules.dark;
    View {
        seat,
        to_move: sequence::to_move(s),
        scores: (0..s.rules.players)
            .map(Seat)
            .map(|p| (!dark || seat == Some(p)).then(|| s.score(p)))
            .collect(),
        colorblind: s.rules.colorblind,
        board_side: s.rules.side(),
        sight: match seat {
            Some(q) if dark => Some(s.board.hexes().filter(|&h| fog::sees(s, q, h)).collect()),
            _ => None,
        },
        position,
    }
}
