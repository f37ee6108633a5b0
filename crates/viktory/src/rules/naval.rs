//! 9.4 Naval Transport: embarking (9.42), capacity (9.41), land units that neither move
//! before nor after (9.43), one drop-off hex per frigate and turn (9.46), amphibious
//! landings (9.47).

use hexmap::Hex;

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{exploration, movement};
use crate::state::Viktory;
use crate::unit::{UnitId, UnitKind};

/// The own frigate `id`, on water (not in port), not waiting to fight.
fn working_frigate(s: &Viktory, id: UnitId) -> Result<Hex, RuleError> {
    let f = movement::own_unit(s, id)?;
    if f.kind != UnitKind::Frigate {
        return refuse(
            "not_a_frigate",
            "9.4",
            format!("unit {id} is not a frigate"),
        );
    }
    if s.terrain(f.hex) != Some(Terrain::Water) {
        return refuse(
            "in_port",
            "9.32",
            format!("frigate {id} is in port and can only leave it"),
        );
    }
    if s.turn.pending_battles.contains(&f.hex) {
        return refuse(
            "battle_pending",
            "12.0",
            format!("frigate {id} must fight its battle first"),
        );
    }
    Ok(f.hex)
}

/// Cargo aboard `frigate`.
pub fn cargo_count(s: &Viktory, frigate: UnitId) -> usize {
    s.units.iter().filter(|u| u.aboard == Some(frigate)).count()
}

/// Whether `frigate` can take one more land unit now (9.41; with the Expansion's
/// Frigate Characteristics only the units aboard at a time count).
pub fn has_room(s: &Viktory, frigate: UnitId) -> bool {
    let loads = s.unit(frigate).map_or(u8::MAX, |f| f.loads);
    cargo_count(s, frigate) < usize::from(s.rules.frigate_capacity)
        && (s.rules.frigate_characteristics || loads < s.rules.frigate_loads_per_turn)
}

/// Expansion, Frigate Characteristics: loading or unloading a land unit costs the
/// frigate and the land unit one movement point each.
fn check_transfer_cost(s: &Viktory, frigate: UnitId, unit: UnitId) -> Result<(), RuleError> {
    let f_mp = s.unit(frigate).map_or(0, |f| f.mp);
    let u_mp = s.unit(unit).map_or(0, |u| u.mp);
    if f_mp == 0 || s.unit(frigate).is_some_and(|f| f.done) {
        return refuse(
            "frigate_mp",
            "Expansion",
            format!("frigate {frigate} has no movement point left to load or unload"),
        );
    }
    if u_mp == 0 {
        return refuse(
            "no_movement",
            "Expansion",
            format!("unit {unit} has no movement point left to board or land"),
        );
    }
    Ok(())
}

/// Rule 9.41–9.43: may land unit `unit` board `frigate`? The frigate need not be able
/// to move any more (H-6).
pub fn check_embark(s: &Viktory, unit: UnitId, frigate: UnitId) -> Result<(), RuleError> {
    let fhex = working_frigate(s, frigate)?;
    let u = movement::own_unit(s, unit)?;
    if !u.kind.is_land() {
        return refuse("not_land", "9.4", "only land units are transported");
    }
    if u.is_cargo() {
        return refuse("cargo", "9.4", format!("unit {unit} is already aboard"));
    }
    movement::check_ashore(s, u)?;
    movement::check_switch(s, frigate)?;
    if s.rules.frigate_characteristics {
        check_transfer_cost(s, frigate, unit)?;
        if u.attacked || (u.done && u.boarded) {
            return refuse(
                "moved",
                "Expansion",
                format!("unit {unit} cannot board again this turn"),
            );
        }
    } else if u.done || u.attacked || u.transported || u.mp < s.rules.movement.get(u.kind) {
        return refuse(
            "moved",
            "9.43",
            format!("unit {unit} has moved or acted this turn and cannot embark"),
        );
    }
    if s.turn.pending_battles.contains(&u.hex) {
        return refuse(
            "battle_pending",
            "12.0",
            format!("unit {unit} must fight its battle first"),
        );
    }
    if u.hex.distance(fhex) != 1 {
        return refuse(
            "not_adjacent",
            "9.42",
            format!("frigate {frigate} is not next to unit {unit}"),
        );
    }
    if !has_room(s, frigate) {
        return refuse(
            "frigate_full",
            "9.41",
            format!("frigate {frigate} can take no more land units this turn"),
        );
    }
    Ok(())
}

/// Takes the land unit aboard; its movement for the turn is spent (9.43).
pub fn apply_embark(s: &mut Viktory, unit: UnitId, frigate: UnitId, ev: &mut Vec<Event>) {
    movement::switch_to(s, frigate, ev);
    let fhex = s.unit(frigate).expect("checked").hex;
    let costs = s.rules.frigate_characteristics;
    let from = s.unit(unit).expect("checked").hex;
    let u = s.unit_mut(unit);
    u.aboard = Some(frigate);
    u.hex = fhex;
    u.transported = true;
    if costs {
        // Frigate Characteristics: one point each; the land unit keeps the rest.
        u.mp = u.mp.saturating_sub(1);
        u.boarded = true;
        let f = s.unit_mut(frigate);
        f.mp = f.mp.saturating_sub(1);
    } else {
        u.done = true;
        u.mp = 0;
    }
    let f = s.unit_mut(frigate);
    f.loads = f.loads.saturating_add(1);
    s.refresh_occupancy();
    ev.push(Event::Embarked {
        unit,
        frigate,
        from,
    });
}

/// Rule 9.46, 9.47: may cargo unit `unit` go ashore at `to`?
pub fn check_disembark(s: &Viktory, unit: UnitId, to: Hex) -> Result<(), RuleError> {
    let u = movement::own_unit(s, unit)?;
    let Some(frigate) = u.aboard else {
        return refuse(
            "not_cargo",
            "9.46",
            format!("unit {unit} is not aboard a frigate"),
        );
    };
    let fhex = working_frigate(s, frigate)?;
    movement::check_switch(s, frigate)?;
    if fhex.distance(to) != 1 {
        return refuse(
            "not_adjacent",
            "9.46",
            format!("{to} is not next to the frigate"),
        );
    }
    if !s.terrain(to).is_some_and(Terrain::is_land) {
        return refuse("not_land", "9.46", format!("{to} is not explored land"));
    }
    if s.rules.frigate_characteristics {
        check_transfer_cost(s, frigate, unit)?;
        if crate::rules::subjugation::hostile_hex(s, to, s.turn.active) {
            crate::rules::subjugation::check_may_attack(s, s.turn.active)?;
        }
    } else if let Some(drop) = s.unit(frigate).and_then(|f| f.drop)
        && drop != to
    {
        return refuse(
            "one_drop_hex",
            "9.46",
            format!("frigate {frigate} already dropped units at {drop} this turn"),
        );
    }
    let seat = s.turn.active;
    if s.turn.battle_hexes.contains(&to) && crate::rules::subjugation::hostile_hex(s, to, seat) {
        return refuse(
            "battle_fought",
            "12.2",
            format!("a battle was already fought at {to} this turn"),
        );
    }
    if crate::rules::subjugation::alliance_hex(s, to, seat) {
        return refuse(
            "alliance_stop",
            "15.64",
            format!("units may not land in the Alliance hex {to}"),
        );
    }
    if crate::rules::subjugation::hostile_hex(s, to, seat) {
        crate::rules::subjugation::check_may_attack(s, seat)?;
    }
    Ok(())
}

/// Puts the unit ashore; the frigate's movement ends (9.46); an enemy hex means an
/// amphibious battle (9.47).
pub fn apply_disembark(s: &mut Viktory, unit: UnitId, to: Hex, ev: &mut Vec<Event>) {
    let frigate = s.unit(unit).and_then(|u| u.aboard).expect("checked");
    movement::switch_to(s, frigate, ev);
    let seat = s.turn.active;
    let fhex = s.unit(frigate).expect("checked").hex;
    let enemy = crate::rules::subjugation::hostile_hex(s, to, seat);
    let costs = s.rules.frigate_characteristics;
    {
        let f = s.unit_mut(frigate);
        f.drop = Some(to);
        if costs {
            // Frigate Characteristics: it pays one point and may go on.
            f.mp = f.mp.saturating_sub(1);
        } else {
            f.mp = 0;
            f.done = true;
        }
    }
    // Frigate Characteristics: a unit that began the turn aboard may move on after
    // landing; one that boarded this turn stops.
    let stop_slow = costs && movement::move_ends_at(s, s.unit(unit).expect("checked"), to);
    let u = s.unit_mut(unit);
    u.aboard = None;
    u.hex = to;
    u.transported = true;
    u.entered_from = Some(fhex);
    if costs && !u.boarded && !enemy && !stop_slow {
        u.mp = u.mp.saturating_sub(1);
        u.done = u.mp == 0;
    } else {
        u.done = true;
        u.mp = 0;
    }
    s.refresh_occupancy();
    ev.push(Event::Disembarked {
        unit,
        to,
        from: fhex,
    });
    if enemy && let Err(i) = s.turn.pending_battles.binary_search(&to) {
        s.turn.pending_battles.insert(i, to);
    }
    exploration::unit_entered(s, to, ev);
}
