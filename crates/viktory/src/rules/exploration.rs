//! Exploration: a new town reveals the adjacent hexes, a new city the hexes two away
//! (7.3); a unit entering a hex reveals its neighbours (9.2). Each reveal is a chance
//! action that draws one tile from the bank of face-down tiles. With exploration
//! balancing (15.3) an act that reveals two or more water hexes lets its player swap one
//! of them for a land tile (H-16).

use hexmap::Hex;

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::fog;
use crate::state::{Balance, Viktory};

/// Queues every face-down hex of `hexes` for revealing, in order, once each; returns
/// the hexes newly queued. With independent exploration a hex laid already by someone
/// else is explored by the active seat at once (H-23).
pub fn queue(
    s: &mut Viktory,
    hexes: impl IntoIterator<Item = Hex>,
    ev: &mut Vec<Event>,
) -> Vec<Hex> {
    let mut new = Vec::new();
    for h in hexes {
        fog::explore_laid(s, h, ev);
        if s.cell(h).is_some_and(|c| c.terrain.is_none()) && !s.reveals.contains(&h) {
            s.reveals.push(h);
            new.push(h);
        }
    }
    new
}

/// One act of building (7.3) or movement (9.2) exploration, by the active player.
fn act(s: &mut Viktory, hexes: impl IntoIterator<Item = Hex>, ev: &mut Vec<Event>) {
    let new = queue(s, hexes, ev);
    if s.rules.exploration_balancing && new.len() >= 2 {
        s.balance = Some(Balance {
            seat: s.actor(),
            hexes: new,
            land_only: false,
        });
    }
}

/// Rule 9.2: a unit entering `hex` reveals the tiles in all adjacent hexes.
pub fn unit_entered(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    act(s, hex.neighbors(), ev);
}

/// Rule 7.3: a new town reveals the adjacent hexes.
pub fn town_built(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    act(s, hex.neighbors(), ev);
}

/// Rule 7.3: a new city reveals all hexes two hexes away.
pub fn city_built(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    act(s, hex.ring(2), ev);
}

/// A relocated city (15.5) explores as a new town and a new city at once (H-13).
pub fn city_rebuilt(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    act(s, hex.neighbors().into_iter().chain(hex.ring(2)), ev);
}

/// A placed reserve unit reveals its neighbours (H-2); not an act of 15.3.
pub fn unit_placed(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    queue(s, hex.neighbors(), ev);
}

/// Rule 15.3: the water hexes of the last act that its player may swap, once every
/// hex of the act is revealed; empty when there is no choice to make.
pub fn balance_choices(s: &Viktory) -> Vec<Hex> {
    match &s.balance {
        Some(b) if !b.land_only && s.reveals.is_empty() => {
            let water: Vec<Hex> = b
                .hexes
                .iter()
                .copied()
                .filter(|&h| s.terrain(h) == Some(Terrain::Water))
                .collect();
            if water.len() >= 2 && fog::land_left_for(s, b.seat) {
                water
            } else {
                vec![]
            }
        }
        _ => vec![],
    }
}

/// Settles balancing with nothing to decide: the act revealed fewer than two water
/// hexes, or its swap is done. Returns whether anything changed.
pub fn settle_balance(s: &mut Viktory) -> bool {
    if s.balance.is_some() && s.reveals.is_empty() && balance_choices(s).is_empty() {
        s.balance = None;
        return true;
    }
    false
}

/// Rule 15.3: may the player swap `hex` (or decline, `None`)?
pub fn check_rebalance(s: &Viktory, hex: Option<Hex>) -> Result<(), RuleError> {
    let choices = balance_choices(s);
    if choices.is_empty() {
        return refuse(
            "no_balancing",
            "15.3",
            "no exploration balancing choice is open",
        );
    }
    match hex {
        Some(h) if !choices.contains(&h) => refuse(
            "not_revealed_water",
            "15.3",
            format!("{h} is not a water hex this exploration revealed"),
        ),
        _ => Ok(()),
    }
}

/// Rule 15.3, H-16: the water tile goes back among the unused tiles and a land tile is
/// drawn for the hex (a chance action next).
pub fn apply_rebalance(s: &mut Viktory, hex: Option<Hex>, ev: &mut Vec<Event>) {
    let Some(b) = s.balance.as_mut() else { return };
    let seat = b.seat;
    match hex {
        None => s.balance = None,
        Some(h) => {
            b.land_only = true;
            s.cell_mut(h).terrain = None;
            s.bank.water += 1;
            s.reveals.push(h);
            ev.push(Event::Rebalanced { seat, hex: h });
        }
    }
}

/// Whether the next reveal must be land (15.3): the swapped hex takes the first land
/// tile drawn, if any is left (with independent exploration the player may have hoped
/// for land that others drew already, H-23).
fn land_only(s: &Viktory) -> bool {
    s.balance.as_ref().is_some_and(|b| b.land_only)
        && Terrain::ALL
            .iter()
            .any(|&t| t.is_land() && s.bank.get(t) > 0)
}

/// The possible tiles for the next waiting hex, weighted by the tiles left.
pub fn outcomes(s: &Viktory) -> Vec<(Hex, Terrain, u32)> {
    let Some(&hex) = s.reveals.first() else {
        return vec![];
    };
    let land_only = land_only(s);
    Terrain::ALL
        .iter()
        .filter(|&&t| s.bank.get(t) > 0 && !(land_only && t == Terrain::Water))
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
    if terrain == Terrain::Water && land_only(s) {
        return refuse(
            "land_only",
            "15.3",
            "the swapped hex takes the first land tile drawn",
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
    fog::mark_explored(s, hex);
    ev.push(Event::Revealed { hex, terrain });
}
