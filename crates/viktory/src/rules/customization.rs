//! Expansion, Map Exploration & Customization (also the online rules' way of exploring):
//! tiles are drawn from the pile as hexes are revealed, as many as the act reveals, and
//! the player who revealed them arranges them on those hexes as he likes (R-4, R-9: one
//! decision per hex). If every tile drawn is water and land is left in the pile, he may
//! put one water tile back and draw until land comes up.

use hexmap::Hex;

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::state::Viktory;

/// Whether exploration works this way in these rules.
pub fn on(s: &Viktory) -> bool {
    s.rules.map_customization
}

/// A tile must still be drawn for the waiting hexes.
pub fn draw_due(s: &Viktory) -> bool {
    on(s) && !s.reveals.is_empty() && s.drawn.len() < s.reveals.len()
}

/// The all-water choice is open: every tile drawn is water, land is left in the pile,
/// and the choice has not been made for this act.
pub fn redraw_open(s: &Viktory) -> bool {
    on(s)
        && !s.reveals.is_empty()
        && !s.redraw_offered
        && s.drawn.len() == s.reveals.len()
        && s.drawn.iter().all(|&t| t == Terrain::Water)
        && crate::rules::fog::land_left_for(s, s.actor())
}

/// Whether any land tile is left in the pile itself.
fn land_in_pile(s: &Viktory) -> bool {
    Terrain::ALL
        .iter()
        .any(|&t| t.is_land() && s.bank.get(t) > 0)
}

/// The possible draws with their weights: the tiles left in the pile (land only when
/// replacing a water tile, unless, with independent exploration, the player hoped for
/// land that others had drawn already: then the water comes back, H-23).
pub fn outcomes(s: &Viktory) -> Vec<(Terrain, u32)> {
    let land_only = s.land_only && land_in_pile(s);
    Terrain::ALL
        .iter()
        .filter(|&&t| s.bank.get(t) > 0 && !(land_only && t == Terrain::Water))
        .map(|&t| (t, u32::from(s.bank.get(t))))
        .collect()
}

/// Checks a draw.
pub fn check_draw(s: &Viktory, terrain: Terrain) -> Result<(), RuleError> {
    if outcomes(s).iter().any(|&(t, _)| t == terrain) {
        Ok(())
    } else {
        refuse(
            "no_tile",
            "R-4",
            format!("no {terrain} tile can be drawn from the pile now"),
        )
    }
}

/// Draws a tile into the player's hand.
pub fn apply_draw(s: &mut Viktory, terrain: Terrain, ev: &mut Vec<Event>) {
    *s.bank.get_mut(terrain) -= 1;
    s.drawn.push(terrain);
    s.drawn.sort();
    s.land_only = false;
    ev.push(Event::Drew {
        seat: s.actor(),
        terrain: Some(terrain),
    });
}

/// Checks the all-water choice.
pub fn check_redraw(s: &Viktory) -> Result<(), RuleError> {
    if redraw_open(s) {
        Ok(())
    } else {
        refuse(
            "no_redraw",
            "Expansion",
            "only a draw of nothing but water may be redrawn",
        )
    }
}

/// Puts one water tile back (or keeps the draw) and marks the choice made.
pub fn apply_redraw(s: &mut Viktory, redraw: bool, ev: &mut Vec<Event>) {
    s.redraw_offered = true;
    if redraw {
        s.drawn.pop();
        s.bank.water += 1;
        s.land_only = true;
        ev.push(Event::WaterReturned {
            seat: s.turn.active,
        });
    }
}

/// Checks an arrangement: a waiting hex, a drawn tile.
pub fn check_arrange(s: &Viktory, hex: Hex, terrain: Terrain) -> Result<(), RuleError> {
    if !s.reveals.contains(&hex) {
        return refuse(
            "not_waiting",
            "Expansion",
            format!("{hex} is not waiting for a tile"),
        );
    }
    if !s.drawn.contains(&terrain) {
        return refuse(
            "not_drawn",
            "Expansion",
            format!("no {terrain} tile was drawn"),
        );
    }
    Ok(())
}

/// Lays a drawn tile on a waiting hex.
pub fn apply_arrange(s: &mut Viktory, hex: Hex, terrain: Terrain, ev: &mut Vec<Event>) {
    if let Some(i) = s.drawn.iter().position(|&t| t == terrain) {
        s.drawn.remove(i);
    }
    s.reveals.retain(|&h| h != hex);
    s.cell_mut(hex).terrain = Some(terrain);
    crate::rules::fog::mark_explored(s, hex);
    ev.push(Event::Revealed { hex, terrain });
    if s.reveals.is_empty() {
        s.redraw_offered = false;
    }
}

/// Lays tiles where there is nothing to choose: every tile in hand is alike.
pub fn advance(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    if !on(s) || s.reveals.is_empty() || draw_due(s) || redraw_open(s) {
        return false;
    }
    let first = s.drawn[0];
    if s.drawn.iter().all(|&t| t == first) {
        let hex = s.reveals[0];
        apply_arrange(s, hex, first, ev);
        return true;
    }
    false
}
