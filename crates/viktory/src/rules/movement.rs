//! 9.0 Movement: one unit at a time, land movement, slow terrain (9.12, R-10),
//! roads (9.13, R-11), exploration on entry (9.2), frigate movement and port transit
//! (9.3, 9.32); entering an enemy hex ends the move and starts a battle (12.0, R-16).

use engine::Seat;
use hexmap::Hex;

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::exploration;
use crate::state::Viktory;
use crate::unit::{Unit, UnitId, UnitKind};

/// Rule 9.32: the frigate now in a port, which must leave it before anything else.
pub fn frigate_in_port(s: &Viktory) -> Option<UnitId> {
    let id = s.turn.moving?;
    let u = s.unit(id)?;
    (u.kind == UnitKind::Frigate && s.terrain(u.hex).is_some_and(Terrain::is_land)).then_some(id)
}

/// Rule 9.32: nothing else happens while a frigate sits in a port.
pub fn check_port_clear(s: &Viktory) -> Result<(), RuleError> {
    match frigate_in_port(s) {
        Some(f) => refuse(
            "frigate_in_port",
            "9.32",
            format!("frigate {f} is in port and must leave it first"),
        ),
        None => Ok(()),
    }
}

/// acting with `unit` ends the movement of the unit that was moving before,
/// which a frigate in port may not do (9.32).
pub fn check_switch(s: &Viktory, unit: UnitId) -> Result<(), RuleError> {
    match frigate_in_port(s) {
        Some(f) if f != unit => refuse(
            "frigate_in_port",
            "9.32",
            format!("frigate {f} is in port and must leave it first"),
        ),
        _ => Ok(()),
    }
}

/// R-9, H-3: makes `unit` the moving unit, ending the previous one's movement.
pub fn switch_to(s: &mut Viktory, unit: UnitId, ev: &mut Vec<Event>) {
    if let Some(prev) = s.turn.moving
        && prev != unit
        && let Some(i) = s.units.iter().position(|u| u.id == prev)
    {
        let p = &mut s.units[i];
        if !p.done {
            p.done = true;
            p.mp = 0;
            ev.push(Event::MovementEnded { unit: prev });
        }
    }
    s.turn.moving = Some(unit);
}

/// The own unit `id` of the active player, not cargo, free to act.
pub fn own_unit(s: &Viktory, id: UnitId) -> Result<&Unit, RuleError> {
    let seat = s.turn.active;
    match s.unit(id) {
        Some(u) if u.owner == seat => Ok(u),
        Some(_) => refuse("not_your_unit", "9.0", format!("unit {id} is not yours")),
        None => refuse("no_unit", "9.0", format!("there is no unit {id}")),
    }
}

/// Whether `seat` may pass freely through slow terrain at `hex` (9.12, R-10): its own
/// town or city stands there, or one of its land units began the turn there.
fn slow_exception(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    s.town(hex).is_some_and(|t| t.owner == seat) || s.turn.started_here.binary_search(&hex).is_ok()
}

/// Rule 9.12, R-10: entering `hex` stops a land unit.
/// Under 15.1 (terrain leveling) terrain never slows.
/// With the Expansion's Cavalry Changes cavalry is never stopped.
fn stops_in(s: &Viktory, seat: Seat, kind: UnitKind, hex: Hex) -> bool {
    s.rules.slow_terrain
        && !s.rules.terrain_leveling
        && !(kind == UnitKind::Cavalry && s.rules.cavalry_ignores_slow_terrain)
        && s.terrain(hex).is_some_and(Terrain::is_slow)
        && !slow_exception(s, seat, hex)
}

/// Rule 9.13, R-11: an own town or city usable as a road end this turn (towns built
/// this turn are not; captured ones are).
fn road_end(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    s.town(hex).is_some_and(|t| t.owner == seat) && s.turn.built != Some(hex)
}

/// a land hex on a road path: revealed land without enemy units.
/// With the Road/Ferry Movement Enhancement (Expansion) water hexes carry roads too.
fn road_hex(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    s.terrain(hex)
        .is_some_and(|t| t.is_land() || s.rules.road_ferries)
        && !s.enemy_units_at(hex, seat)
}

/// Rule 9.13, R-11: a road runs from `from` to `to` (2 or 3 land hexes apart, some
/// path through land free of enemy units).
pub fn road_between(s: &Viktory, seat: Seat, from: Hex, to: Hex) -> bool {
    if !s.rules.roads
        || !road_end(s, seat, from)
        || !road_end(s, seat, to)
        || s.enemy_units_at(to, seat)
    {
        return false;
    }
    short_path(from, to, |h| road_hex(s, seat, h))
}

/// Whether `a` and `b`, 2 or 3 hexes apart, are joined by a path of 2 or 3 steps whose
/// hexes between them all pass `ok` (roads, R-11; building reach, R-7).
pub fn short_path(a: Hex, b: Hex, ok: impl Fn(Hex) -> bool) -> bool {
    if !(2..=3).contains(&a.distance(b)) {
        return false;
    }
    // Geometry first (cheap), the hexes' contents only for steps that can reach `b`.
    a.neighbors().into_iter().any(|x| match x.distance(b) {
        1 => ok(x),
        2 => {
            ok(x)
                && x.neighbors()
                    .into_iter()
                    .any(|y| y != a && y.distance(b) == 1 && ok(y))
        }
        _ => false,
    })
}

/// Rule 9.0–9.3: may `unit` step (or take a road) to `to` now?
pub fn check_move(s: &Viktory, id: UnitId, to: Hex) -> Result<(), RuleError> {
    let u = own_unit(s, id)?;
    check_mover(s, u)?;
    check_step(s, u, to)
}

/// Rule 9.0, 9.43, 10.7, R-9: whether the unit may move on at all this turn (the part of
/// [`check_move`] that does not depend on the destination).
pub fn check_mover(s: &Viktory, u: &Unit) -> Result<(), RuleError> {
    let id = u.id;
    if u.is_cargo() {
        return refuse(
            "cargo",
            "9.43",
            format!("unit {id} is cargo; its frigate moves it"),
        );
    }
    check_switch(s, id)?;
    if u.attacked {
        return refuse(
            "attacked",
            "10.7",
            format!("unit {id} has attacked this turn and can move no further"),
        );
    }
    if u.done || u.mp == 0 {
        return refuse(
            "no_movement",
            "9.0",
            format!("unit {id} has no movement left this turn"),
        );
    }
    if u.transported {
        return refuse(
            "transported",
            "9.43",
            format!("unit {id} was transported this turn"),
        );
    }
    Ok(())
}

/// Rule 9.1–9.32, 12.2: whether a unit free to move may step (or take a road) to `to`.
pub fn check_step(s: &Viktory, u: &Unit, to: Hex) -> Result<(), RuleError> {
    let seat = u.owner;
    let Some(terrain) = crate::rules::fog::known_terrain(s, seat, to) else {
        return refuse("unexplored", "9.2", format!("{to} is not explored"));
    };
    let distance = u.hex.distance(to);
    if u.kind.is_land() {
        if distance != 1 {
            if road_between(s, seat, u.hex, to) {
                return Ok(());
            }
            return refuse(
                "not_adjacent",
                "9.13",
                format!("{to} is neither adjacent nor along a road from {}", u.hex),
            );
        }
        if !terrain.is_land() {
            return refuse(
                "water",
                "9.1",
                format!("land units stay on land; {to} is water"),
            );
        }
    } else {
        if distance != 1 {
            return refuse(
                "not_adjacent",
                "9.3",
                format!("{to} is not adjacent to {}", u.hex),
            );
        }
        let in_port = s.terrain(u.hex).is_some_and(Terrain::is_land);
        if terrain.is_land() {
            if in_port {
                return refuse("port_to_port", "9.32", "a frigate leaves a port into water");
            }
            if !road_end(s, seat, to) || s.enemy_units_at(to, seat) {
                return refuse(
                    "not_a_port",
                    "9.32",
                    format!("{to} is not one of your ports"),
                );
            }
            if u.mp < 2 {
                return refuse(
                    "port_transit",
                    "9.32",
                    "entering and leaving a port takes two movement points",
                );
            }
            return Ok(());
        }
    }
    if s.turn.battle_hexes.contains(&to) && s.is_enemy_hex(to, seat) {
        return refuse(
            "battle_fought",
            "12.2",
            format!("a battle was already fought at {to} this turn"),
        );
    }
    Ok(())
}

/// Whether a step of `u` to `to` ends its movement: an enemy hex (12.0), or slow
/// terrain entered by land but not along a road (9.12).
pub fn move_ends_at(s: &Viktory, u: &Unit, to: Hex) -> bool {
    s.is_enemy_hex(to, u.owner)
        || (u.kind.is_land() && u.hex.distance(to) == 1 && stops_in(s, u.owner, u.kind, to))
}

/// Moves the unit (cargo with it), reveals around the new hex, and ends its move where
/// the rules say: slow terrain (9.12) and enemy hexes (12.0).
pub fn apply_move(s: &mut Viktory, id: UnitId, to: Hex, ev: &mut Vec<Event>) {
    switch_to(s, id, ev);
    let seat = s.turn.active;
    let (from, kind) = {
        let u = s.unit(id).expect("checked");
        (u.hex, u.kind)
    };
    let road = kind.is_land() && from.distance(to) > 1;
    let enemy = s.is_enemy_hex(to, seat);
    let stop = kind.is_land() && !road && stops_in(s, seat, kind, to);
    for u in s
        .units
        .iter_mut()
        .filter(|u| u.id == id || u.aboard == Some(id))
    {
        u.hex = to;
    }
    s.refresh_occupancy();
    let u = s.unit_mut(id);
    u.mp -= 1;
    ev.push(Event::Moved {
        unit: id,
        from,
        to,
        road,
    });
    if enemy {
        let u = s.unit_mut(id);
        u.entered_from = Some(from);
        u.mp = 0;
        u.done = true;
        if let Err(i) = s.turn.pending_battles.binary_search(&to) {
            s.turn.pending_battles.insert(i, to);
        }
        ev.push(Event::MovementEnded { unit: id });
    } else if stop {
        s.unit_mut(id).mp = 0;
        ev.push(Event::MovementEnded { unit: id });
    }
    exploration::unit_entered(s, to, ev);
}
