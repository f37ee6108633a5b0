//! Expansion (extremely optional): Pillage Attack and repair, with the cavalry's free
//! pillaging (Cavalry Characteristics).
//!
//! A unit pillages the land hex it stands in (a frigate: an adjacent one) if that hex is
//! next to any town or city and free of enemy units and towns; a damage marker goes on
//! it. A pillaged hex acts as if an enemy unit stood in it for roads (no road runs
//! through it), building (no town on or next to it), upgrades and reserve placement
//! (not in a town or city next to it, the capital excepted). Pillaging is the unit's
//! one attack of the turn and ends its movement, except for cavalry with the Cavalry
//! Characteristics (free, up to five a turn). A unit repairs the hex it stands in (a
//! frigate: an adjacent one) by ending its movement there (H-33).

use hexmap::Hex;

use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{movement, subjugation};
use crate::state::Viktory;
use crate::unit::{UnitId, UnitKind};

/// Cavalry's free pillages per turn (Cavalry Characteristics).
pub const CAVALRY_PILLAGES: u8 = 5;

/// Whether `hex` carries a damage marker.
pub fn pillaged(s: &Viktory, hex: Hex) -> bool {
    s.pillaged.binary_search(&hex).is_ok()
}

/// Whether a pillaged hex lies next to `hex`.
pub fn next_to_pillage(s: &Viktory, hex: Hex) -> bool {
    !s.pillaged.is_empty() && hex.neighbors().iter().any(|&n| pillaged(s, n))
}

/// Whether `unit` pillages for free (Cavalry Characteristics).
fn free(s: &Viktory, kind: UnitKind) -> bool {
    kind == UnitKind::Cavalry && s.rules.cavalry_characteristics
}

/// The hex a unit can pillage or repair: its own, or for a frigate an adjacent land hex.
fn reach_ok(s: &Viktory, unit: UnitId, hex: Hex) -> Result<(), RuleError> {
    let u = movement::own_unit(s, unit)?;
    if u.is_cargo() {
        return refuse("cargo", "9.43", format!("unit {unit} is aboard a frigate"));
    }
    movement::check_ashore(s, u)?;
    let ok = if u.kind == UnitKind::Frigate {
        u.hex.distance(hex) == 1 && s.terrain(u.hex).is_some_and(|t| !t.is_land())
    } else {
        u.hex == hex
    };
    if !ok {
        return refuse(
            "pillage_reach",
            "Expansion",
            format!(
                "unit {unit} cannot reach {hex}: land units act in their own hex, frigates next to them"
            ),
        );
    }
    if !s.terrain(hex).is_some_and(crate::board::Terrain::is_land) {
        return refuse("not_land", "Expansion", format!("{hex} is not land"));
    }
    if subjugation::hostile_hex(s, hex, u.owner) {
        return refuse(
            "enemy_hex",
            "Expansion",
            format!("{hex} holds enemy units, a town or a city"),
        );
    }
    movement::check_switch(s, unit)
}

/// May `unit` pillage `hex` now?
pub fn check(s: &Viktory, unit: UnitId, hex: Hex) -> Result<(), RuleError> {
    if !s.rules.pillage {
        return refuse(
            "not_enabled",
            "Expansion",
            "pillaging is not in these rules",
        );
    }
    reach_ok(s, unit, hex)?;
    let u = s.unit(unit).expect("checked");
    subjugation::check_may_attack(s, u.owner)?;
    if pillaged(s, hex) {
        return refuse(
            "pillaged",
            "Expansion",
            format!("{hex} is pillaged already"),
        );
    }
    if !hex.neighbors().iter().any(|&n| s.town(n).is_some()) {
        return refuse(
            "no_town_near",
            "Expansion",
            format!("only hexes next to a town or city can be pillaged; {hex} is not"),
        );
    }
    if free(s, u.kind) {
        if u.pillages >= CAVALRY_PILLAGES {
            return refuse(
                "pillages",
                "Expansion",
                "cavalry pillage at most five hexes a turn",
            );
        }
    } else if u.attacked || u.done || s.turn.pending_battles.contains(&u.hex) {
        return refuse(
            "attacked",
            "10.6",
            format!("unit {unit} has made its one attack, or moved on, this turn"),
        );
    }
    Ok(())
}

/// Puts the damage marker on; the unit's one attack (not for cavalry, which go on).
pub fn apply(s: &mut Viktory, unit: UnitId, hex: Hex, ev: &mut Vec<Event>) {
    movement::switch_to(s, unit, ev);
    let free = s.unit(unit).is_some_and(|u| free(s, u.kind));
    let u = s.unit_mut(unit);
    if free {
        u.pillages = u.pillages.saturating_add(1);
    } else {
        u.attacked = true;
        u.done = true;
        u.mp = 0;
    }
    if let Err(i) = s.pillaged.binary_search(&hex) {
        s.pillaged.insert(i, hex);
    }
    ev.push(Event::Pillaged { unit, hex });
}

/// May `unit` repair the pillaged `hex` (ending its movement)?
pub fn check_repair(s: &Viktory, unit: UnitId, hex: Hex) -> Result<(), RuleError> {
    if !pillaged(s, hex) {
        return refuse(
            "not_pillaged",
            "Expansion",
            format!("{hex} is not pillaged"),
        );
    }
    reach_ok(s, unit, hex)?;
    if s.turn.repairs.contains(&unit) {
        return refuse(
            "repaired",
            "Expansion",
            format!("unit {unit} has repaired a hex this turn"),
        );
    }
    Ok(())
}

/// Takes the marker off; the unit's movement ends.
pub fn apply_repair(s: &mut Viktory, unit: UnitId, hex: Hex, ev: &mut Vec<Event>) {
    movement::switch_to(s, unit, ev);
    let u = s.unit_mut(unit);
    u.done = true;
    u.mp = 0;
    s.turn.repairs.push(unit);
    s.pillaged.retain(|&h| h != hex);
    ev.push(Event::Repaired { unit, hex });
}
