//! Expansion (extremely optional): Metropolis City Upgrade. A city whose hex and
//! surrounding hexes hold all five terrains (water, plains, grassland, forest,
//! mountain), or with `metropolis_capital` the capital, may be upgraded during the
//! building phase into a Metropolis: it supports one more unit of the owner's choice (a
//! cavalry, an artillery, a frigate, or two infantry), defends with three terrain dice
//! and is worth 3 points. While its extra unit is in the reserve the owner may switch it
//! for another kind; losing one of several Metropolises, he may switch which of them
//! supported which extra unit (H-29).

use hexmap::Hex;

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::building;
use crate::state::{Stage, Viktory};
use crate::unit::UnitKind;

/// The kinds a Metropolis may support in addition.
pub const EXTRA_KINDS: [UnitKind; 4] = [
    UnitKind::Infantry,
    UnitKind::Cavalry,
    UnitKind::Artillery,
    UnitKind::Frigate,
];

/// The units an extra choice stands for: two infantry, or one of another kind.
pub fn extra_units(kind: UnitKind) -> Vec<UnitKind> {
    if kind == UnitKind::Infantry {
        vec![UnitKind::Infantry; 2]
    } else {
        vec![kind]
    }
}

/// Terrain defence dice of a Metropolis.
pub const DEFENCE_DICE: u8 = 3;

/// Whether the city at `hex` stands among all five terrains (its own hex and the six
/// around it), or is its owner's capital with the capital exception.
pub fn site_ok(s: &Viktory, hex: Hex) -> bool {
    let Some(t) = s.town(hex) else { return false };
    if s.rules.metropolis_capital && t.capital_of == Some(t.owner) {
        return true;
    }
    let mut seen: Vec<Terrain> = std::iter::once(hex)
        .chain(hex.neighbors())
        .filter_map(|h| s.terrain(h))
        .collect();
    seen.sort();
    seen.dedup();
    seen.len() == Terrain::ALL.len()
}

/// May the active player upgrade his city at `hex` into a Metropolis supporting
/// `extra`?
pub fn check_build(s: &Viktory, hex: Hex, extra: UnitKind) -> Result<(), RuleError> {
    if !s.rules.metropolis {
        return refuse(
            "not_enabled",
            "Expansion",
            "Metropolises are not in these rules",
        );
    }
    building::check_upgrade(s, hex)?;
    let seat = s.turn.active;
    match s.town(hex) {
        Some(t) if t.owner == seat && t.city && t.metropolis.is_none() => {}
        Some(t) if t.owner == seat && t.metropolis.is_some() => {
            return refuse(
                "already_metropolis",
                "Expansion",
                format!("{hex} is a Metropolis already"),
            );
        }
        _ => {
            return refuse(
                "not_your_city",
                "Expansion",
                format!("{hex} holds none of your cities"),
            );
        }
    }
    if !site_ok(s, hex) {
        return refuse(
            "five_terrains",
            "Expansion",
            format!(
                "a Metropolis needs water, plains, grassland, forest and mountain on and around {hex}"
            ),
        );
    }
    if !EXTRA_KINDS.contains(&extra) {
        return refuse("extra", "Expansion", "no such unit kind");
    }
    Ok(())
}

/// Upgrades the city; its extra units go to the reserve.
pub fn apply_build(s: &mut Viktory, hex: Hex, extra: UnitKind, ev: &mut Vec<Event>) {
    let seat = s.turn.active;
    if let Some(t) = s.town_mut(hex) {
        t.metropolis = Some(extra);
    }
    ev.push(Event::MetropolisBuilt { seat, hex, extra });
    for kind in extra_units(extra) {
        if s.gain(seat, kind) {
            ev.push(Event::UnitGained { seat, kind });
        }
    }
    building::spend_upgrade(s, ev);
}

/// Whether `seat`'s reserve holds the extra units of `kind`.
fn in_reserve(s: &Viktory, seat: engine::Seat, kind: UnitKind) -> bool {
    let need = extra_units(kind).len();
    usize::from(s.players[seat.index()].reserve.get(kind)) >= need
}

/// May the Metropolis at `hex` support `extra` instead? In the owner's building or
/// placement phase, while its current extra units are in his reserve; or, when he is
/// giving up the units of a lost Metropolis, by exchanging extras with it.
pub fn check_switch(s: &Viktory, hex: Hex, extra: UnitKind) -> Result<(), RuleError> {
    let owner = match &s.capture {
        Some(c) => c.loser,
        None => s.turn.active,
    };
    let current = match s.town(hex) {
        Some(t) if t.owner == owner => t.metropolis,
        _ => None,
    };
    let Some(current) = current else {
        return refuse(
            "not_your_metropolis",
            "Expansion",
            format!("{hex} holds none of your Metropolises"),
        );
    };
    if current == extra || !EXTRA_KINDS.contains(&extra) {
        return refuse(
            "same_extra",
            "Expansion",
            format!("the Metropolis at {hex} supports that already"),
        );
    }
    if let Some(c) = &s.capture {
        // Losing a Metropolis: the lost one's extra, still owed, may be exchanged.
        let owed_extra = c.extra == Some(extra)
            && c.owed.len() >= extra_units(extra).len()
            && c.owed.ends_with(&extra_units(extra));
        if c.relocation || !owed_extra {
            return refuse(
                "no_switch",
                "Expansion",
                "only the lost Metropolis's extra units can be switched now",
            );
        }
        return Ok(());
    }
    if !matches!(
        s.turn.stage,
        Stage::Build | Stage::Place | Stage::BuildAndPlace
    ) {
        return refuse(
            "wrong_phase",
            "Expansion",
            "a Metropolis's extra unit is switched in the building or placement phase",
        );
    }
    if !in_reserve(s, owner, current) {
        return refuse(
            "not_in_reserve",
            "Expansion",
            format!("the {current} the Metropolis supports is not in your reserve"),
        );
    }
    Ok(())
}

/// Switches the extra unit; the reserve follows.
pub fn apply_switch(s: &mut Viktory, hex: Hex, extra: UnitKind, ev: &mut Vec<Event>) {
    let Some(current) = s.town(hex).and_then(|t| t.metropolis) else {
        return;
    };
    if let Some(c) = s.capture.as_mut() {
        // The lost Metropolis's extra becomes this one's; this one's old extra is owed.
        let n = extra_units(extra).len();
        c.owed.truncate(c.owed.len() - n);
        c.owed.extend(extra_units(current));
        c.extra = Some(current);
    } else {
        let seat = s.turn.active;
        for k in extra_units(current) {
            let r = s.players[seat.index()].reserve.get_mut(k);
            *r = r.saturating_sub(1);
        }
        for k in extra_units(extra) {
            s.gain(seat, k);
        }
    }
    if let Some(t) = s.town_mut(hex) {
        t.metropolis = Some(extra);
    }
    ev.push(Event::MetropolisSwitched { hex, extra });
}
