//! Exploration: a new town reveals the adjacent hexes, a new city the hexes two away
//! (7.3); a unit entering a hex reveals its neighbours (9.2). Each reveal is a chance
//! action that draws one tile from the bank of face-down tiles.

use hexmap::Hex;

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::state::Viktory;

/// Queues every face-down hex of `hexes` for revealing, in order, once each.
pub fn queue(s: &mut Viktory, hexes: impl IntoIterator<Item = Hex>) {
    for h in hexes {
        if s.cell(h).is_some_and(|c| c.terrain.is_none()) && !s.reveals.contains(&h) {
            s.reveals.push(h);
        }
    }
}

/// Rule 9.2: a unit entering `hex` reveals the tiles in all adjacent hexes.
pub fn unit_entered(s: &mut Viktory, hex: Hex) {
    queue(s, hex.neighbors());
}

/// Rule 7.3: a new town reveals the adjacent hexes.
pub fn town_built(s: &mut Viktory, hex: Hex) {
    queue(s, hex.neighbors());
}

/// Rule 7.3: a new city reveals all hexes two hexes away.
pub fn city_built(s: &mut Viktory, hex: Hex) {
    queue(s, hex.ring(2));
}

/// The possible tiles for the next waiting hex, weighted by the tiles left.
pub fn outcomes(s: &Viktory) -> Vec<(Hex, Terrain, u32)> {
    let Some(&hex) = s.reveals.first() else {
        return vec![];
    };
    Terrain::ALL
        .iter()
        .filter(|&&t| s.bank.get(t) > 0)
        .map(|&t| (hex, t, u32::from(s.bank.get(t))))
        .collect()
}

/// Checks a reveal: the first waiting hex, a terrain with tiles left.
pub fn check_reveal(s: &Viktory, hex: Hex, terrain: Terrain) -> Result<(), RuleError> {
    if s.reveals.first() != Some(&hex) {
        return refuse(
            "reveal_order",
            "7.3",
            format!("the next hex to reveal is not {hex}"),
        );
    }
    if s.bank.get(terrain) == 0 {
        return refuse(
            "no_tile",
            "R-4",
            format!("no face-down {terrain} tile is left"),
        );
    }
    Ok(())
}

/// Reveals the first waiting hex.
pub fn apply_reveal(s: &mut Viktory, hex: Hex, terrain: Terrain, ev: &mut Vec<Event>) {
    s.reveals.remove(0);
    *s.bank.get_mut(terrain) -= 1;
    s.cell_mut(hex).terrain = Some(terrain);
    ev.push(Event::Revealed { hex, terrain });
}
