//! 15.6 Subjugation (with 5.2 Subjugation Conquest and the Expansion's Optional
//! Subjugation Victory Condition): a captured capital makes its owner a Vassal of the
//! captor instead of costing him the capital (14.0 no longer applies).
//!
//! - 15.61: the Vassal enters a forced Alliance with his Ruler and the Ruler's other
//!   Vassals.
//! - 15.62: the Ruler at once moves his units out of the returned capital into adjacent
//!   hexes (battles there are fought at once), then the Vassal may reinforce his capital
//!   from his reserve (H-25).
//! - 15.63: the Vassal may not attack anyone on his next turn.
//! - 15.64: Alliance members move through each other's hexes without stopping there
//!   (like a frigate through a port, H-26); a Ruler may attack his Vassal; Alliance units
//!   and towns help with slow terrain and roads and do not restrict placement.
//! - 15.65: the Alliance breaks when the Ruler attacks his Vassal, loses his own capital,
//!   or the Vassal takes a capital.
//! - 15.66, 5.2: a player wins when every other player still in the game is his Vassal.

use engine::Seat;
use hexmap::Hex;
use serde::{Deserialize, Serialize};

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{battle, exploration, fog, reserve, victory};
use crate::state::Viktory;
use crate::unit::{UnitId, UnitKind};

/// Where the hand-over of a returned capital stands (15.62).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandoverStep {
    /// The Ruler moves his units out of the capital, one at a time.
    Evacuate,
    /// The Ruler fights the battles his relocated units started.
    Battles,
    /// The Vassal places reserve units in his capital.
    Reinforce,
    /// The Vassal's frigate placement battles (13.5), then the hand-over is over.
    PlacementBattles,
}

/// A capital being handed back to its owner, now a Vassal (15.62).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handover {
    /// The capital.
    pub hex: Hex,
    /// The new Ruler (the player whose turn it is).
    pub ruler: Seat,
    /// The new Vassal.
    pub vassal: Seat,
    /// The step.
    pub step: HandoverStep,
    /// Hexes where relocated units must fight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battles: Vec<Hex>,
    /// Water hexes where the Vassal's placed frigates met enemy frigates (13.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement_battles: Vec<Hex>,
}

/// `seat`'s bit in the per-hex seat masks (the occupancy, Dark sight, exploration).
#[inline]
pub(crate) fn bit(seat: Seat) -> u8 {
    1u8 << seat.0
}

/// The Ruler of `seat`, if it is a Vassal.
pub fn ruler_of(s: &Viktory, seat: Seat) -> Option<Seat> {
    s.players[seat.index()].ruler
}

/// Whether `a` and `b` are different members of one Alliance (15.61).
pub fn allied(s: &Viktory, a: Seat, b: Seat) -> bool {
    if a == b || !s.rules.subjugation {
        return false;
    }
    let (ra, rb) = (ruler_of(s, a), ruler_of(s, b));
    ra == Some(b) || rb == Some(a) || (ra.is_some() && ra == rb)
}

/// `seat` and its Alliance partners, as seat bits.
#[inline]
pub fn alliance_mask(s: &Viktory, seat: Seat) -> u8 {
    if s.rules.subjugation {
        alliance_mask_of_vassals(s, seat)
    } else {
        bit(seat)
    }
}

/// [`alliance_mask`] under 15.6 Subjugation.
fn alliance_mask_of_vassals(s: &Viktory, seat: Seat) -> u8 {
    let mut m = bit(seat);
    for p in (0..s.rules.players).map(Seat) {
        if allied(s, seat, p) {
            m |= bit(p);
        }
    }
    m
}

/// Whether `hex` holds units of a player at war with `seat` (not itself, not an ally).
pub fn hostile_units_at(s: &Viktory, hex: Hex, seat: Seat) -> bool {
    s.occupancy
        .get_hex(&s.board, hex)
        .is_some_and(|&bits| bits & !alliance_mask(s, seat) != 0)
}

/// Whether `hex` holds an Alliance partner's units, town or city (for `seat`).
pub fn alliance_hex(s: &Viktory, hex: Hex, seat: Seat) -> bool {
    s.rules.subjugation
        && (s
            .occupancy
            .get_hex(&s.board, hex)
            .is_some_and(|&bits| bits & alliance_mask(s, seat) & !bit(seat) != 0)
            || s.town(hex).is_some_and(|t| allied(s, seat, t.owner)))
}

/// Whether `hex` is an enemy hex for `seat` that entering means a battle: units or a
/// town of a player outside its Alliance.
pub fn hostile_hex(s: &Viktory, hex: Hex, seat: Seat) -> bool {
    // The hex's index once, for both of its caches.
    hexmap::Board::index(&s.board, hex).is_some_and(|i| hostile_at(s, i, seat))
}

/// [`hostile_hex`] of the hex of board index `i` (below the board's length).
#[inline]
pub(crate) fn hostile_at(s: &Viktory, i: usize, seat: Seat) -> bool {
    s.occupancy[i] & !alliance_mask(s, seat) != 0
        || s.town_at_index(i)
            .is_some_and(|t| t.owner != seat && !allied(s, seat, t.owner))
}

/// 15.64: Alliance towns and land units ease slow terrain for `seat`'s units.
pub fn eases_slow_terrain(s: &Viktory, hex: Hex, seat: Seat) -> bool {
    s.rules.subjugation
        && (s.town(hex).is_some_and(|t| allied(s, seat, t.owner))
            || s.units_at(hex)
                .any(|u| u.kind.is_land() && u.aboard.is_none() && allied(s, seat, u.owner)))
}

/// 15.63: `seat` lost its capital and may not attack on this turn.
pub fn check_may_attack(s: &Viktory, seat: Seat) -> Result<(), RuleError> {
    if !may_attack(s, seat) {
        return Err(check_may_attack_refusal());
    }
    Ok(())
}

/// The refusal of [`check_may_attack`].
pub fn check_may_attack_refusal() -> RuleError {
    RuleError::new(
        "reorganizing",
        "15.63",
        "a player who lost his capital may not attack on his next turn",
    )
}

/// 15.63: whether `seat` may attack this turn (see [`check_may_attack`]).
pub fn may_attack(s: &Viktory, seat: Seat) -> bool {
    !s.players[seat.index()].reorganizing
}

/// 15.64, H-26: the moving unit stands in an Alliance partner's hex and must move on
/// before anything else happens.
pub fn unit_in_transit(s: &Viktory) -> Option<UnitId> {
    if !s.rules.subjugation {
        return None;
    }
    let id = s.turn.moving?;
    let u = s.unit(id)?;
    (u.aboard.is_none()
        && !s.turn.pending_battles.contains(&u.hex)
        && alliance_hex(s, u.hex, u.owner))
    .then_some(id)
}

/// 15.64, 15.65: may `unit` enter the Alliance hex `to` to fight there? Only a Ruler
/// against his own Vassal ("stabbed in the back").
pub fn check_attack(s: &Viktory, unit: UnitId, to: Hex) -> Result<(), RuleError> {
    let seat = s.turn.active;
    let u = crate::rules::movement::own_unit(s, unit)?;
    crate::rules::movement::check_mover(s, u)?;
    check_may_attack(s, seat)?;
    if u.hex.distance(to) != 1 {
        return refuse(
            "not_adjacent",
            "15.64",
            format!("{to} is not next to unit {unit}"),
        );
    }
    let victim = s
        .units_at(to)
        .filter(|x| x.aboard.is_none())
        .map(|x| x.owner)
        .find(|&o| o != seat)
        .or_else(|| s.town(to).map(|t| t.owner).filter(|&o| o != seat));
    match victim {
        Some(v) if ruler_of(s, v) == Some(seat) => {}
        _ => {
            return refuse(
                "not_your_vassal",
                "15.64",
                format!("{to} holds none of your Vassal's units, towns or cities"),
            );
        }
    }
    let probe = crate::unit::Unit {
        mp: u.mp.max(2),
        ..u.clone()
    };
    crate::rules::movement::check_step(s, &probe, to)
}

/// 15.65 (1): a battle or bombardment by a Ruler against his Vassal frees the Vassal.
pub fn attacked(s: &mut Viktory, attacker: Seat, defender: Seat, ev: &mut Vec<Event>) {
    if ruler_of(s, defender) == Some(attacker) {
        free(s, defender, ev);
    }
}

fn free(s: &mut Viktory, seat: Seat, ev: &mut Vec<Event>) {
    s.players[seat.index()].ruler = None;
    ev.push(Event::Freed { seat });
}

/// Whether capturing the town at `hex` from `loser` subjugates him instead (15.6).
pub fn applies(s: &Viktory, hex: Hex, loser: Seat) -> bool {
    s.rules.subjugation
        && s.town(hex)
            .is_some_and(|t| t.owner == loser && t.capital_of == Some(loser))
}

/// 15.61, 15.65: `ruler` took `vassal`'s capital at `hex`; the hand-over begins.
pub fn subjugate(s: &mut Viktory, hex: Hex, ruler: Seat, vassal: Seat, ev: &mut Vec<Event>) {
    ev.push(Event::Subjugated { hex, vassal, ruler });
    // 15.65 (2): the Vassal's own Vassals go free; (3): a Vassal who takes a capital
    // is free and a Ruler.
    for p in (0..s.rules.players).map(Seat) {
        if ruler_of(s, p) == Some(vassal) {
            free(s, p, ev);
        }
    }
    if ruler_of(s, ruler).is_some() {
        free(s, ruler, ev);
    }
    let v = &mut s.players[vassal.index()];
    v.ruler = Some(ruler);
    v.reorganizing = true;
    v.subjugated = 0;
    s.players[ruler.index()].subjugated |= bit(vassal);
    if s.town(hex).is_some_and(|t| t.city) {
        // 5.5 counts the city as captured, though it is handed back.
        crate::rules::capital::start_doomsday(s, ev);
    }
    s.handover = Some(Handover {
        hex,
        ruler,
        vassal,
        step: HandoverStep::Evacuate,
        battles: vec![],
        placement_battles: vec![],
    });
}

/// 15.62: the hexes a Ruler's unit in the capital may move to: adjacent land (whoever
/// is there), or aboard his own frigate with room in adjacent water.
pub fn evacuation_hexes(s: &Viktory, unit: UnitId) -> Vec<Hex> {
    let Some(h) = &s.handover else { return vec![] };
    let Some(u) = s.unit(unit) else { return vec![] };
    if u.owner != h.ruler || u.hex != h.hex || u.aboard.is_some() || !u.kind.is_land() {
        return vec![];
    }
    let mut v: Vec<Hex> = h
        .hex
        .neighbors()
        .into_iter()
        .filter(|&n| match fog::known_terrain(s, h.ruler, n) {
            Some(t) if t.is_land() => true,
            Some(Terrain::Water) => battle::frigate_with_room(s, h.ruler, n).is_some(),
            _ => false,
        })
        .collect();
    v.sort();
    v
}

/// Checks an evacuation move.
pub fn check_evacuate(s: &Viktory, unit: UnitId, to: Hex) -> Result<(), RuleError> {
    if evacuation_hexes(s, unit).contains(&to) {
        Ok(())
    } else {
        refuse(
            "evacuation",
            "15.62",
            format!("unit {unit} cannot move out of the returned capital to {to}"),
        )
    }
}

/// Moves a Ruler's unit out of the returned capital; entering enemy or Vassal units or
/// towns means a battle there, fought before anything else (15.62).
pub fn apply_evacuate(s: &mut Viktory, unit: UnitId, to: Hex, ev: &mut Vec<Event>) {
    let Some(h) = s.handover.clone() else { return };
    let water = s.terrain(to).is_some_and(|t| !t.is_land());
    let frigate = if water {
        battle::frigate_with_room(s, h.ruler, to)
    } else {
        None
    };
    let fight =
        !water && (s.enemy_units_at(to, h.ruler) || s.town(to).is_some_and(|t| t.owner != h.ruler));
    let u = s.unit_mut(unit);
    u.hex = to;
    u.aboard = frigate;
    u.mp = 0;
    u.done = true;
    if fight {
        u.entered_from = Some(h.hex);
    }
    if let Some(f) = frigate {
        let f = s.unit_mut(f);
        f.loads = f.loads.saturating_add(1);
    }
    s.refresh_occupancy();
    ev.push(Event::Moved {
        unit,
        from: h.hex,
        to,
        road: false,
    });
    if fight {
        let ho = s.handover.as_mut().expect("handover");
        if !ho.battles.contains(&to) {
            ho.battles.push(to);
        }
        if let Err(i) = s.turn.pending_battles.binary_search(&to) {
            s.turn.pending_battles.insert(i, to);
        }
    }
    exploration::unit_entered(s, to, ev);
}

/// The water hexes the Vassal may place a frigate in through his capital: the
/// capital's own frigate hexes (13.3, 13.4) without other Alliance members' frigates, or,
/// if they all hold some, the nearest such water (15.62, 15.64).
pub fn vassal_frigate_hexes(s: &Viktory, vassal: Seat, capital: Hex) -> Vec<Hex> {
    let free = |h: &Hex| {
        !s.units_at(*h)
            .any(|u| u.kind == UnitKind::Frigate && allied(s, vassal, u.owner))
    };
    let usual = reserve::capital_frigate_hexes(s, vassal, capital);
    let open: Vec<Hex> = usual.iter().copied().filter(free).collect();
    if !open.is_empty() || usual.is_empty() {
        return open;
    }
    let radius = s.board.radius() * 2;
    for r in 1..=radius {
        let mut ring: Vec<Hex> = capital
            .ring(r)
            .into_iter()
            .filter(|&h| fog::known_terrain(s, vassal, h) == Some(Terrain::Water))
            .filter(free)
            .collect();
        if !ring.is_empty() {
            ring.sort();
            return ring;
        }
    }
    vec![]
}

/// 15.62: may the Vassal place this reserve unit into his returned capital now?
pub fn check_reinforce(s: &Viktory, kind: UnitKind, town: Hex, to: Hex) -> Result<(), RuleError> {
    let Some(h) = &s.handover else {
        return refuse("no_handover", "15.62", "no capital is being handed back");
    };
    if town != h.hex {
        return refuse(
            "capital_only",
            "15.62",
            "a Vassal reinforces only his capital at this time",
        );
    }
    if s.players[h.vassal.index()].reserve.get(kind) == 0 {
        return refuse(
            "not_in_reserve",
            "13.0",
            format!("you have no {kind} in your reserve"),
        );
    }
    let ok = if kind == UnitKind::Frigate {
        vassal_frigate_hexes(s, h.vassal, h.hex).contains(&to)
    } else {
        to == h.hex
    };
    if ok {
        Ok(())
    } else {
        refuse(
            "wrong_hex",
            "15.62",
            format!("a {kind} cannot be placed at {to} through the capital"),
        )
    }
}

/// Places a reserve unit of the Vassal; a frigate meeting enemy frigates will fight
/// (13.5).
pub fn apply_reinforce(s: &mut Viktory, kind: UnitKind, to: Hex, ev: &mut Vec<Event>) {
    let Some(h) = s.handover.clone() else { return };
    reserve::put_on_map(s, h.vassal, kind, to, ev);
    if kind == UnitKind::Frigate && hostile_units_at(s, to, h.vassal) {
        let ho = s.handover.as_mut().expect("handover");
        if !ho.placement_battles.contains(&to) {
            ho.placement_battles.push(to);
        }
    }
}

/// The Vassal is done reinforcing.
pub fn end_reinforcement(s: &mut Viktory) {
    if let Some(h) = s.handover.as_mut() {
        h.step = HandoverStep::PlacementBattles;
    }
}

/// Runs the hand-over on by itself where no decision is due. Returns whether anything
/// changed.
pub fn advance(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    let Some(h) = s.handover.clone() else {
        return false;
    };
    match h.step {
        HandoverStep::Evacuate => {
            let left: Vec<UnitId> = s
                .units
                .iter()
                .filter(|u| u.owner == h.ruler && u.hex == h.hex && u.aboard.is_none())
                .map(|u| u.id)
                .collect();
            if left.is_empty() {
                s.handover.as_mut().expect("handover").step = HandoverStep::Battles;
                return true;
            }
            // A unit with nowhere to go is lost to the reserve (H-25).
            if let Some(&stuck) = left.iter().find(|&&id| evacuation_hexes(s, id).is_empty()) {
                crate::rules::casualties::remove(s, stuck, h.ruler, false, ev);
                return true;
            }
            false
        }
        HandoverStep::Battles => {
            let pending: Vec<Hex> = h
                .battles
                .iter()
                .copied()
                .filter(|b| s.turn.pending_battles.contains(b))
                .collect();
            if !pending.is_empty() {
                return false;
            }
            let reserve = s.players[h.vassal.index()].reserve;
            let ho = s.handover.as_mut().expect("handover");
            ho.battles.clear();
            ho.step = if reserve.total() > 0 {
                HandoverStep::Reinforce
            } else {
                HandoverStep::PlacementBattles
            };
            true
        }
        HandoverStep::Reinforce => false,
        HandoverStep::PlacementBattles => {
            finish(s, ev);
            true
        }
    }
}

/// After the Vassal's reinforcement: his placement battles, then the victory checks.
fn finish(s: &mut Viktory, ev: &mut Vec<Event>) {
    let Some(h) = s.handover.clone() else { return };
    if let Some(&hex) = h.placement_battles.first() {
        s.handover
            .as_mut()
            .expect("handover")
            .placement_battles
            .remove(0);
        let mine = s
            .units
            .iter()
            .any(|u| u.hex == hex && u.owner == h.vassal && u.kind == UnitKind::Frigate);
        if mine && hostile_units_at(s, hex, h.vassal) {
            battle::start(s, hex, h.vassal, true, ev);
        }
        return;
    }
    s.handover = None;
    victory::after_capture(s, h.vassal, true, ev);
}
