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

/// Whether `frigate` can take one more land unit now (9.41).
pub fn has_room(s: &Viktory, frigate: UnitId) -> bool {
    let loads = s.unit(frigate).map_or(u8::MAX, |f| f.loads);
    cargo_count(s, frigate) < usize::from(s.rules.frigate_capacity)
        && loads < s.rules.frigate_loads_per_turn
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
    movement::check_switch(s, frigate)?;
    if u.done || u.attacked || u.transported || u.mp < s.rules.movement.get(u.kind) {
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
    let u = s.unit_mut(unit);
    u.aboard = Some(frigate);
    u.hex = fhex;
    u.transported = true;
    u.done = true;
    u.mp = 0;
    s.unit_mut(frigate).loads += 1;
    s.refresh_occupancy();
    ev.push(Event::Embarked { unit, frigate });
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
    if let Some(drop) = s.unit(frigate).and_then(|f| f.drop)
        && drop != to
    {
        return refuse(
            "one_drop_hex",
            "9.46",
            format!("frigate {frigate} already dropped units at {drop} this turn"),
        );
    }
    if s.turn.battle_hexes.contains(&to) && s.is_enemy_hex(to, s.turn.active) {
        return refuse(
            "battle_fought",
            "12.2",
            format!("a battle was already fought at {to} this turn"),
        );
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
    let enemy = s.is_enemy_hex(to, seat);
    {
        let f = s.unit_mut(frigate);
        f.drop = Some(to);
        f.mp = 0;
        f.done = true;
    }
    let u = s.unit_mut(unit);
    u.aboard = None;
    u.hex = to;
    u.transported = true;
    u.done = true;
    u.mp = 0;
    u.entered_from = Some(fhex);
    s.refresh_occupancy();
    ev.push(Event::Disembarked { unit, to });
    if enemy && let Err(i) = s.turn.pending_battles.binary_search(&to) {
        s.turn.pending_battles.insert(i, to);
    }
    exploration::unit_entered(s, to, ev);
}
