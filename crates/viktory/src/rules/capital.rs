//! Conquest and its accounting: capturing a town or city (10.3), the loser giving up
//! the units it supported (10.2, R-17), losing and retaking a capital (14.0), and
//! elimination.

use engine::Seat;
use hexmap::Hex;

use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{Victory, casualties, victory};
use crate::state::{Capture, Viktory};
use crate::unit::{UnitId, UnitKind};

/// Rule 10.3: the winner takes the town or city and its units from stock; the loser
/// owes the same units (resolved by [`advance`]). The capital marker stays (14.0).
pub fn capture(s: &mut Viktory, hex: Hex, winner: Seat, loser: Seat, ev: &mut Vec<Event>) {
    let Some(town) = s.town(hex) else { return };
    let terrain = s.terrain(hex).unwrap_or(crate::board::Terrain::Plains);
    if let Some(t) = s.town_mut(hex) {
        t.owner = winner;
    }
    crate::rules::fog::note_capture(s, hex, loser);
    ev.push(Event::Captured {
        hex,
        from: loser,
        to: winner,
        city: town.city,
    });
    let owed: Vec<UnitKind> = town.units(&s.rules, terrain, true);
    for &kind in &owed {
        if s.gain(winner, kind) {
            ev.push(Event::UnitGained { seat: winner, kind });
        }
    }
    if town.city {
        start_doomsday(s, ev);
    }
    s.capture = Some(Capture {
        hex,
        loser,
        owed,
        extra: town.metropolis.filter(|_| town.city),
        relocation: false,
    });
}

/// Rule 5.5: the first city captured starts the doomsday clock.
pub(crate) fn start_doomsday(s: &mut Viktory, ev: &mut Vec<Event>) {
    if !s.doomsday && s.rules.victory.contains(&Victory::DoomsdayClock) {
        s.doomsday = true;
        ev.push(Event::DoomsdayStarted);
    }
}

/// The ways the loser can give up the first owed unit: from the reserve, or any of his
/// units of that type on the map.
pub fn options(s: &Viktory) -> Vec<(UnitKind, Option<UnitId>)> {
    let Some(c) = &s.capture else { return vec![] };
    let Some(&kind) = c.owed.first() else {
        return vec![];
    };
    let mut v = Vec::new();
    if s.players[c.loser.index()].reserve.get(kind) > 0 {
        v.push((kind, None));
    }
    v.extend(
        s.units
            .iter()
            .filter(|u| u.owner == c.loser && u.kind == kind)
            .map(|u| (kind, Some(u.id))),
    );
    v
}

/// Rule 10.2, R-17: may the loser give up this unit now?
pub fn check_disband(s: &Viktory, kind: UnitKind, unit: Option<UnitId>) -> Result<(), RuleError> {
    if options(s).contains(&(kind, unit)) {
        Ok(())
    } else {
        refuse(
            "not_owed",
            "10.2",
            format!("that {kind} is not a unit you can give up now"),
        )
    }
}

/// Gives up one owed unit.
pub fn apply_disband(s: &mut Viktory, kind: UnitKind, unit: Option<UnitId>, ev: &mut Vec<Event>) {
    let Some(c) = s.capture.as_mut() else { return };
    let loser = c.loser;
    c.owed.remove(0);
    let hex = unit.and_then(|id| s.unit(id)).map(|u| u.hex);
    match unit {
        None => *s.players[loser.index()].reserve.get_mut(kind) -= 1,
        Some(id) => {
            // A frigate's cargo goes to the reserve, as when it is sunk (9.45).
            casualties::remove(s, id, loser, false, ev);
            *s.players[loser.index()].reserve.get_mut(kind) -= 1;
        }
    }
    ev.push(Event::Disbanded {
        seat: loser,
        kind,
        unit,
        hex,
    });
}

/// Settles the capture: the loser's choices (made for him when there is only one way),
/// then elimination and the victory conditions.
pub fn advance(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    let Some(c) = s.capture.clone() else {
        return false;
    };
    if !c.owed.is_empty() && !s.towns().any(|(_, t)| t.owner == c.loser) {
        // His last town or city: everything he has leaves the game, so there is
        // nothing to choose.
        s.capture.as_mut().expect("capture").owed.clear();
        return true;
    }
    if c.owed.is_empty() && c.relocation {
        s.capture = None;
        return true;
    }
    if c.owed.is_empty() {
        s.capture = None;
        if !s.towns().any(|(_, t)| t.owner == c.loser) {
            eliminate(s, c.loser, ev);
        }
        let capital_taken = s.town(c.hex).is_some_and(|t| t.capital_of == Some(c.loser));
        victory::after_capture(s, c.loser, capital_taken, ev);
        return true;
    }
    let opts = options(s);
    // A lost Metropolis's extra may be switched with another's first (Expansion).
    let switch = s.rules.metropolis
        && s.towns().any(|(h, t)| {
            t.owner == c.loser
                && t.metropolis.is_some()
                && crate::rules::metropolis::EXTRA_KINDS
                    .into_iter()
                    .any(|k| crate::rules::metropolis::check_switch(s, h, k).is_ok())
        });
    if switch {
        return false;
    }
    match opts.as_slice() {
        [] => {
            // Nothing of that type is left to give (cannot happen while the one-to-one
            // accounting holds); the debt lapses.
            s.capture.as_mut().expect("capture").owed.remove(0);
            true
        }
        [(kind, unit)] => {
            apply_disband(s, *kind, *unit, ev);
            true
        }
        _ => false,
    }
}

/// a player without towns or cities leaves the game with all his units.
pub fn eliminate(s: &mut Viktory, seat: Seat, ev: &mut Vec<Event>) {
    s.units.retain(|u| u.owner != seat);
    s.refresh_occupancy();
    let p = &mut s.players[seat.index()];
    p.reserve = crate::unit::Reserve::default();
    p.eliminated = true;
    ev.push(Event::Eliminated { seat });
}
