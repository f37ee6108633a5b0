//! Rule 12.0: HQ special rules: overruns (12.1), relocation (12.7, 10.3), removal
//! (11.3, 12.6); and what happens when a piece enters a hex (Victory City control, 14.0).

use hexmap::Hex;

use crate::derived::Derived;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{command, pocket, stacking, supply, zoc::ZoneOfControl};
use crate::state::{Avl, Location, PieceId, Relocation, Supply};

/// Rules 8.1.4, 9.5.7, 9.6.4, 12.1, 14.0.1, H-106: a piece has entered `hex`: a combat
/// unit overruns a lone enemy HQ there (which is relocated) and takes an
/// enemy-controlled Victory City.
pub fn entered(s: &mut Avl, p: PieceId, hex: Hex, ev: &mut Vec<Event>) {
    if s.is_hq(p) {
        return;
    }
    let side = s.side(p);
    if let Some(h) = s.hq_at(hex).filter(|&h| s.side(h) != side) {
        ev.push(Event::Overrun { hq: h, by: p });
        start_relocation(s, h, hex);
    }
    if let Some(c) = s.map().at(hex).and_then(|i| i.city)
        && let Some(ctrl) = s.pos.control.get_mut(usize::from(c))
        && *ctrl != side
    {
        *ctrl = side;
        ev.push(Event::CityTaken { city: c, by: side });
    }
}

/// Rule 12.7: take the HQ off the map; its owner places it (a decision, [`Relocation`]).
pub fn start_relocation(s: &mut Avl, hq: PieceId, from: Hex) {
    s.set_location(hq, Location::Removed);
    s.pos.relocations.push(Relocation { hq, from });
}

/// Rule 12.7: the hexes a HQ relocated from `from` may be placed in: the nearest hexes
/// at least four hexes away that are (2) closer to a friendly supply source than `from`,
/// (3) not in an enemy ZOC, (4) able to trace a supply line; and where it may stack.
/// Distances are hex distances (H-104).
pub fn relocation_hexes(s: &Avl, hq: PieceId, from: Hex) -> Vec<Hex> {
    let side = s.side(hq);
    let map = s.map();
    let sources = map.sources(side);
    let zoc = ZoneOfControl::of(s, side.enemy());
    let traced = supply::supplied(s, side);
    let far = map.board.columns() + map.board.rows() + 2;
    for d in 4..=far {
        let mut out: Vec<Hex> = from
            .ring(d)
            .into_iter()
            .filter(|&h| {
                map.is_land(h)
                    && !pocket::closed(s, h)
                    && sources
                        .iter()
                        .any(|&src| h.distance(src) < from.distance(src))
                    && !zoc.contains(h)
                    && traced[map.board_index(h)]
                    && s.occupant(h).is_none_or(|o| o == side)
                    && stacking::can_stop(s, hq, h)
            })
            .collect();
        if !out.is_empty() {
            out.sort();
            return out;
        }
    }
    Vec::new()
}

/// Rule 12.7: check a relocation.
pub fn check_relocate(s: &Avl, hq: PieceId, to: Hex) -> Result<(), RuleError> {
    check_relocate_in(&Derived::new(s), hq, to)
}

/// [`check_relocate`], with the relocation hexes of `d` (found once for all the
/// candidates of one position).
pub fn check_relocate_in(d: &Derived<'_>, hq: PieceId, to: Hex) -> Result<(), RuleError> {
    let s = d.state();
    let Some(r) = s.pos.relocations.first() else {
        return refuse("no_relocation", "12.7", "no HQ is waiting to be relocated");
    };
    if r.hq != hq {
        return refuse("other_hq", "12.7", "another HQ is being relocated");
    }
    if !d.relocation_hexes().contains(&to) {
        return refuse(
            "relocation_hex",
            "12.7",
            "a relocated HQ goes to the nearest hex at least four hexes away, closer to a friendly supply source, out of enemy ZOCs and in supply",
        );
    }
    Ok(())
}

/// Rule 12.7: place the relocated HQ; its Out of Supply marker is removed.
pub fn apply_relocate(s: &mut Avl, hq: PieceId, to: Hex, ev: &mut Vec<Event>) {
    s.pos.relocations.remove(0);
    s.set_location(hq, Location::Map(to));
    s.piece_mut(hq).supply = Supply::InSupply;
    ev.push(Event::Relocated { hq, to });
}

/// Rule 12.7, H-111: a HQ that cannot be relocated is received as a reinforcement next
/// turn.
pub fn fail_relocation(s: &mut Avl, ev: &mut Vec<Event>) {
    let r = s.pos.relocations.remove(0);
    let turn = s.turn().0.saturating_add(1);
    s.set_location(r.hq, Location::Arriving(turn));
    s.piece_mut(r.hq).supply = Supply::InSupply;
    ev.push(Event::RelocationFailed { hq: r.hq });
}

/// Rules 11.3, 12.6: at the end of the Reinforcement Segment, HQs with no friendly
/// combat unit within Command Range leave the game with their chits (Axis minors' HQs
/// count only German units and their own nationality). A HQ in a reinforcement box
/// counts the units in its box (H-105).
pub fn removals(s: &mut Avl, ev: &mut Vec<Event>) {
    for hq in s.piece_ids().collect::<Vec<_>>() {
        if !s.is_hq(hq) || !matches!(s.location(hq), Location::Map(_) | Location::Box(_)) {
            continue;
        }
        if command::units_activated_by(s, hq).is_empty() {
            s.set_location(hq, Location::Removed);
            command::remove_chit(s, hq);
            ev.push(Event::HqRemoved { hq });
        }
    }
}

#[cfg(test)]
pub(crate) mod reference {
    //! The check of a relocation as first written, to compare with.

    use hexmap::Hex;

    use super::relocation_hexes;
    use crate::error::{RuleError, refuse};
    use crate::state::{Avl, PieceId};

    /// [`super::check_relocate`], the relocation hexes found again.
    pub(crate) fn check_relocate(s: &Avl, hq: PieceId, to: Hex) -> Result<(), RuleError> {
        let Some(r) = s.pos.relocations.first() else {
            return refuse("no_relocation", "12.7", "no HQ is waiting to be relocated");
        };
        if r.hq != hq {
            return refuse("other_hq", "12.7", "another HQ is being relocated");
        }
        if !relocation_hexes(s, hq, r.from).contains(&to) {
            return refuse(
                "relocation_hex",
                "12.7",
                "a relocated HQ goes to the nearest hex at least four hexes away, closer to a friendly supply source, out of enemy ZOCs and in supply",
            );
        }
        Ok(())
    }
}
