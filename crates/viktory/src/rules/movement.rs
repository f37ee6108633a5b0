//! 9.0 Movement: one unit at a time, land movement, slow terrain (9.12, R-10),
//! roads (9.13, R-11), exploration on entry (9.2), frigate movement and port transit
//! (9.3, 9.32); entering an enemy hex ends the move and starts a battle (12.0, R-16).

use engine::Seat;
use hexmap::{Grid, Hex};

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{exploration, subjugation};
use crate::state::{Town, Viktory};
use crate::unit::{Unit, UnitId, UnitKind};

/// Rule 9.32: the frigate now in a port, which must leave it before anything else.
pub fn frigate_in_port(s: &Viktory) -> Option<UnitId> {
    let id = s.turn.moving?;
    let u = s.unit(id)?;
    (u.kind == UnitKind::Frigate && s.terrain(u.hex).is_some_and(Terrain::is_land)).then_some(id)
}

/// Rule 9.32: nothing else happens while a frigate sits in a port; 15.64, H-26: nor
/// while a unit passes through an Alliance partner's hex.
pub fn check_port_clear(s: &Viktory) -> Result<(), RuleError> {
    check_switch(s, UnitId(u16::MAX))
}

/// acting with `unit` ends the movement of the unit that was moving before,
/// which a frigate in port may not do (9.32), nor a unit passing through an Alliance
/// hex (15.64).
pub fn check_switch(s: &Viktory, unit: UnitId) -> Result<(), RuleError> {
    Switch::now(s)
        .wait_for(unit)
        .map_or(Ok(()), |w| Err(w.error()))
}

/// The units [`check_switch`] makes every other unit wait for, worked out once for a
/// search over many units (legal moves): a unit on a ferry, a frigate in port, a unit
/// passing through an Alliance hex, cavalry riding through an enemy hex, in the order
/// `check_switch` names them.
pub(crate) struct Switch([Option<UnitId>; 4]);

impl Switch {
    /// The position's waits.
    pub(crate) fn now(s: &Viktory) -> Switch {
        Switch([
            on_ferry(s),
            frigate_in_port(s),
            subjugation::unit_in_transit(s),
            cavalry_passing(s),
        ])
    }

    /// Whether [`check_switch`] lets `unit` act: every unit waited for is `unit` itself.
    pub(crate) fn allows(&self, unit: UnitId) -> bool {
        self.0.iter().flatten().all(|&f| f == unit)
    }

    /// What [`check_switch`] makes `unit` wait for: the first unit waited for that is
    /// another.
    pub(crate) fn wait_for(&self, unit: UnitId) -> Option<Wait> {
        self.0.iter().enumerate().find_map(|(why, w)| {
            w.filter(|&w| w != unit)
                .map(|waiting| Wait { why, unit: waiting })
        })
    }
}

/// A unit the others wait for, and why: the index of its wait in [`Switch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wait {
    why: usize,
    unit: UnitId,
}

impl Wait {
    /// [`check_switch`]'s refusal.
    pub(crate) fn error(self) -> RuleError {
        let waiting = self.unit;
        let (code, rule, message) = match self.why {
            0 => (
                "on_ferry",
                "Expansion",
                format!("unit {waiting} is on a ferry and must go ashore first"),
            ),
            1 => (
                "frigate_in_port",
                "9.32",
                format!("frigate {waiting} is in port and must leave it first"),
            ),
            2 => (
                "alliance_transit",
                "15.64",
                format!("unit {waiting} cannot stop in an Alliance hex and must move on first"),
            ),
            _ => (
                "riding_through",
                "Expansion",
                format!("cavalry {waiting} is riding through an enemy hex and must move on first"),
            ),
        };
        RuleError::new(code, rule, message)
    }
}

/// R-9, H-3: makes `unit` the moving unit, ending the previous one's movement.
/// [`Event::MovementEnded`] announces exactly this: a unit becoming `done` as it moves.
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

/// Road/Ferry Network: whether `hex` carries a road or ferry that `seat` may use now: a
/// town's own hex or one next to a town, explored, not pillaged, and not contested (next
/// to an enemy town or city) unless one of the moving player's units began the turn in
/// it (the pathfinder).
#[inline]
pub fn network_hex(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    // Asked of every step: the rule's switch first, without a call.
    s.rules.road_ferry_network && usable_network_hex(s, seat, hex)
}

/// [`network_hex`] with the Road/Ferry Network in play.
fn usable_network_hex(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    if crate::rules::fog::known_terrain(s, seat, hex).is_none()
        || crate::rules::pillage::pillaged(s, hex)
    {
        return false;
    }
    let around = || std::iter::once(hex).chain(hex.neighbors());
    if !around().any(|h| s.town(h).is_some()) {
        return false;
    }
    let contested = around().any(|h| {
        s.town(h)
            .is_some_and(|t| t.owner != seat && !subjugation::allied(s, seat, t.owner))
    });
    let pathfinder = seat == s.turn.active && s.turn.started_here.binary_search(&hex).is_ok();
    !contested || pathfinder
}

/// Road/Ferry Network: a land unit's step from one usable network hex to the next
/// (never into a battle).
#[inline]
fn road_step(s: &Viktory, u: &Unit, to: Hex) -> bool {
    s.rules.road_ferry_network
        && u.kind.is_land()
        && u.hex.distance(to) == 1
        && network_hex(s, u.owner, u.hex)
        && network_hex(s, u.owner, to)
        && !subjugation::hostile_hex(s, to, u.owner)
}

/// Road/Ferry Network: whether a land unit taking the road step onto the ferry `to`
/// can step ashore from there with the movement it will have left.
fn can_go_ashore(s: &Viktory, u: &Unit, to: Hex) -> bool {
    let (mp, road_run) = if u.road_run > 0 {
        (u.mp, u.road_run - 1)
    } else {
        (u.mp.saturating_sub(1), 2)
    };
    let afloat = Unit {
        hex: to,
        mp,
        road_run,
        ..u.clone()
    };
    (mp > 0 || road_run > 0)
        && to.neighbors().into_iter().any(|n| {
            crate::rules::fog::known_terrain(s, u.owner, n).is_some_and(Terrain::is_land)
                && can_step(s, &afloat, n)
        })
}

/// Road/Ferry Network: a land unit on a ferry only moves on (it may not end its move on
/// the water, so it bombards, pillages or boards nothing from there).
pub fn check_ashore(s: &Viktory, u: &Unit) -> Result<(), RuleError> {
    if afloat_on_ferry(s, u) {
        return Err(ashore_refusal(u.id));
    }
    Ok(())
}

/// [`check_ashore`]'s refusal of unit `id`.
pub(crate) fn ashore_refusal(id: UnitId) -> RuleError {
    RuleError::new(
        "on_ferry",
        "Expansion",
        format!("unit {id} is on a ferry and must go ashore first"),
    )
}

/// Road/Ferry Network: whether the land unit `u` stands on a ferry (water), where
/// [`check_ashore`] refuses it anything but moving on.
pub(crate) fn afloat_on_ferry(s: &Viktory, u: &Unit) -> bool {
    u.kind.is_land() && u.aboard.is_none() && s.terrain(u.hex).is_some_and(|t| !t.is_land())
}

/// Road/Ferry Network: the moving land unit is on a ferry (water) and must go ashore
/// before anything else.
pub fn on_ferry(s: &Viktory) -> Option<UnitId> {
    if !s.rules.road_ferry_network {
        return None;
    }
    let id = s.turn.moving?;
    let u = s.unit(id)?;
    afloat_on_ferry(s, u).then_some(id)
}

/// Cavalry Characteristics: the moving cavalry stands in an enemy hex it is riding
/// through (no battle there) and must move on first.
pub fn cavalry_passing(s: &Viktory) -> Option<UnitId> {
    if !s.rules.cavalry_characteristics {
        return None;
    }
    let id = s.turn.moving?;
    let u = s.unit(id)?;
    (u.kind == UnitKind::Cavalry
        && subjugation::hostile_hex(s, u.hex, u.owner)
        && !s.turn.pending_battles.contains(&u.hex))
    .then_some(id)
}

/// Cavalry Characteristics: may the cavalry ride through the adjacent enemy hex `to`
/// (two movement points, and it must be able to ride on)?
pub fn check_bypass(s: &Viktory, id: UnitId, to: Hex) -> Result<(), RuleError> {
    let u = own_unit(s, id)?;
    if !s.rules.cavalry_characteristics || u.kind != UnitKind::Cavalry {
        return refuse(
            "not_cavalry",
            "Expansion",
            "only cavalry ride through enemy hexes, with the Cavalry Characteristics",
        );
    }
    check_mover(s, u)?;
    if u.hex.distance(to) != 1
        || !crate::rules::fog::known_terrain(s, u.owner, to).is_some_and(Terrain::is_land)
        || !subjugation::hostile_hex(s, to, u.owner)
    {
        return refuse(
            "bypass",
            "Expansion",
            format!("{to} is not an adjacent enemy land hex"),
        );
    }
    let through = Unit {
        hex: to,
        mp: u.mp.saturating_sub(2),
        ..u.clone()
    };
    let onward = through.mp > 0
        && to.neighbors().into_iter().any(|n| {
            n != u.hex && !subjugation::hostile_hex(s, n, u.owner) && can_step(s, &through, n)
        });
    if !onward {
        return refuse(
            "bypass",
            "Expansion",
            format!("the cavalry needs two points to ride through {to} and one to ride on"),
        );
    }
    Ok(())
}

/// Rides through: two movement points, no battle, no stop.
pub fn apply_bypass(s: &mut Viktory, id: UnitId, to: Hex, ev: &mut Vec<Event>) {
    switch_to(s, id, ev);
    let from = s.unit(id).expect("checked").hex;
    let u = s.unit_mut(id);
    u.hex = to;
    u.mp = u.mp.saturating_sub(2);
    s.refresh_occupancy();
    ev.push(Event::Moved {
        unit: id,
        from,
        to,
        road: false,
    });
    exploration::unit_entered(s, to, ev);
}

/// Whether `seat` may pass freely through slow terrain at `hex` (9.12, R-10): its own
/// town or city stands there, or one of its land units began the turn there. Under the
/// online rules' Movement ("difficult terrain at the start of a turn will remain
/// difficult for the remainder of the turn") a town taken this turn does not count: a
/// town the active player owns in a hex fought over this turn is one he took.
fn slow_exception(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    let taken_this_turn =
        s.rules.slow_terrain_fixed_for_the_turn && s.turn.battle_hexes.contains(&hex);
    s.town(hex)
        .is_some_and(|t| t.owner == seat && !taken_this_turn)
        || s.turn.started_here.binary_search(&hex).is_ok()
        || subjugation::eases_slow_terrain(s, hex, seat)
}

/// Rule 9.12, R-10: entering `hex` stops a land unit.
/// Under 15.1 (terrain leveling) terrain never slows.
/// With the Expansion's Cavalry Changes cavalry is never stopped.
pub(crate) fn stops_in(s: &Viktory, seat: Seat, kind: UnitKind, hex: Hex) -> bool {
    !ignores_slow_terrain(s, kind) && slows(s, seat, hex)
}

/// Whether units of `kind` are never stopped by slow terrain: the Expansion's Cavalry
/// Changes (part of [`stops_in`]).
pub(crate) fn ignores_slow_terrain(s: &Viktory, kind: UnitKind) -> bool {
    kind == UnitKind::Cavalry && s.rules.cavalry_ignores_slow_terrain
}

/// Whether entering `hex` stops `seat`'s land units of a kind that slow terrain stops
/// (the rest of [`stops_in`]: 9.12, R-10, 15.1).
pub(crate) fn slows(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    s.rules.slow_terrain
        && !s.rules.terrain_leveling
        && s.terrain(hex).is_some_and(Terrain::is_slow)
        && !slow_exception(s, seat, hex)
}

/// Rule 9.13, R-11: an own town or city usable as a road end this turn (towns built
/// this turn are not; captured ones are).
pub(crate) fn road_end(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    s.town(hex).is_some_and(|t| road_end_town(s, seat, hex, t))
}

/// [`road_end`] of the town or city `t` at `hex`.
pub(crate) fn road_end_town(s: &Viktory, seat: Seat, hex: Hex, t: Town) -> bool {
    t.owner == seat && s.turn.built != Some(hex)
}

/// Whether a road of `seat`'s land units may start or end at `hex` now, as
/// [`road_between`] asks of both ends (9.13, R-11): 15.64, an Alliance partner's town or
/// city serves as a road end too.
pub(crate) fn land_road_end(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    s.town(hex)
        .is_some_and(|t| land_road_end_town(s, seat, hex, t))
}

/// [`land_road_end`] of the town or city `t` at `hex`, without looking it up again: an
/// own one not built this turn ([`road_end`]), or an Alliance partner's.
pub(crate) fn land_road_end_town(s: &Viktory, seat: Seat, hex: Hex, t: Town) -> bool {
    road_end_town(s, seat, hex, t) || subjugation::allied(s, seat, t.owner)
}

/// a land hex on a road path: revealed land without enemy units.
/// With the Road/Ferry Movement Enhancement (Expansion) water hexes carry roads too.
fn road_hex(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    s.terrain(hex)
        .is_some_and(|t| t.is_land() || s.rules.road_ferries)
        && !subjugation::hostile_units_at(s, hex, seat)
        && !crate::rules::pillage::pillaged(s, hex)
}

/// Rule 9.13, R-11: a road runs from `from` to `to` (2 or 3 land hexes apart, some
/// path through land free of enemy units).
pub fn road_between(s: &Viktory, seat: Seat, from: Hex, to: Hex) -> bool {
    // With the Road/Ferry Network the network replaces 9.13's road moves.
    if !s.rules.roads
        || s.rules.road_ferry_network
        || !land_road_end(s, seat, from)
        || !land_road_end(s, seat, to)
        || subjugation::hostile_units_at(s, to, seat)
    {
        return false;
    }
    short_path(from, to, |h| road_hex(s, seat, h))
}

/// Every road between two of `ends` (each a [`land_road_end`] of `seat`'s), as pairs from
/// one end to the other: the pairs of which [`road_between`] holds, with the path
/// between two ends looked for once. The path is the same both ways (a path of two or
/// three steps read backwards); only the end a road runs into must hold no hostile unit.
pub(crate) fn roads_among(s: &Viktory, seat: Seat, ends: &[Hex]) -> Vec<(Hex, Hex)> {
    let mut roads = Vec::new();
    // With the Road/Ferry Network the network replaces 9.13's road moves.
    if !s.rules.roads || s.rules.road_ferry_network {
        return roads;
    }
    for (k, &a) in ends.iter().enumerate() {
        debug_assert!(land_road_end(s, seat, a), "{a} is no road end");
        for &b in &ends[k + 1..] {
            if !(2..=3).contains(&a.distance(b)) {
                continue;
            }
            let into_b = !subjugation::hostile_units_at(s, b, seat);
            let into_a = !subjugation::hostile_units_at(s, a, seat);
            if (into_a || into_b) && short_path(a, b, |h| road_hex(s, seat, h)) {
                if into_b {
                    roads.push((a, b));
                }
                if into_a {
                    roads.push((b, a));
                }
            }
        }
    }
    roads
}

/// [`road_between`]'s answers kept for a search that asks for the same roads again and
/// again (legal moves: every unit in a town asks for the roads out of it; the Dark
/// reach). Kept only while the [`World`] is the same: a road reads nothing else (it is
/// part of [`can_step`]), so the legal moves and the Dark reach keep them with their
/// world from one decision to the next (issue 28).
#[derive(Clone, Debug, Default)]
pub(crate) struct Roads(Vec<(Seat, Hex, Hex, bool)>);

impl Roads {
    /// [`road_between`], from the answers kept when it was asked before.
    pub(crate) fn between(&mut self, s: &Viktory, seat: Seat, from: Hex, to: Hex) -> bool {
        let key = (seat, from, to);
        if let Some(&(.., road)) = self.0.iter().find(|&&(q, f, t, _)| (q, f, t) == key) {
            return road;
        }
        let road = road_between(s, seat, from, to);
        self.0.push((seat, from, to, road));
        road
    }
}

/// Everything [`can_step`] and [`move_ends_at`] read for `seat`'s units besides the
/// unit itself: while it is the same, what a unit may do by these rules is the same (the
/// Dark reach, [`crate::rules::fog`]; the legal moves, [`crate::legal`]). The seat's own
/// units are not in it (they never bar or ease an own unit's step); the other seats' are,
/// by hex, as the occupancy has them, and (with subjugation, whose Alliance units ease
/// slow terrain) unit by unit.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct World {
    seat: Seat,
    active: Seat,
    /// The state's own shared terrain (`Viktory::cells`): unchanged, it compares by its
    /// address.
    cells: std::sync::Arc<hexmap::Grid<crate::state::Cell>>,
    explored: Option<Grid<u8>>,
    others: Vec<u8>,
    others_units: Vec<OtherUnit>,
    /// The state's own shared list: unchanged, it compares by its address.
    towns: std::sync::Arc<Vec<(Hex, crate::state::Town)>>,
    players: Vec<crate::state::Player>,
    started_here: Vec<Hex>,
    built: Option<Hex>,
    battle_hexes: Vec<Hex>,
    pillaged: Vec<Hex>,
}

/// Another seat's unit as [`World`] holds it: where, what, whose, and whether cargo.
type OtherUnit = (Hex, UnitKind, Seat, bool);

impl World {
    /// The world of `seat`'s units in `s`.
    pub(crate) fn of(s: &Viktory, seat: Seat) -> World {
        let own = subjugation::bit(seat);
        World {
            seat,
            active: s.turn.active,
            cells: s.cells.clone(),
            explored: s.fog.as_ref().map(|f| f.explored.clone()),
            others: s.occupancy.iter().map(|b| b & !own).collect(),
            others_units: Self::others_units(s, seat).collect(),
            towns: s.towns.clone(),
            players: s.players.clone(),
            started_here: s.turn.started_here.clone(),
            built: s.turn.built,
            battle_hexes: s.turn.battle_hexes.clone(),
            pillaged: s.pillaged.clone(),
        }
    }

    /// Whether this is the world of `seat`'s units in `s`: `*self == World::of(s, seat)`
    /// without copying `s`'s lists (asked at every decision of a movement phase).
    pub(crate) fn matches(&self, s: &Viktory, seat: Seat) -> bool {
        let own = subjugation::bit(seat);
        let same = self.seat == seat
            && self.active == s.turn.active
            && self.built == s.turn.built
            && self.cells == s.cells
            && self.explored.as_ref() == s.fog.as_ref().map(|f| &f.explored)
            && self.others.len() == s.occupancy.len()
            // Without stopping at the first difference: a loop the compiler runs on
            // many bytes at once.
            && (self.others.iter().zip(s.occupancy.iter()))
                .fold(0, |diff, (&a, &b)| diff | (a ^ (b & !own)))
                == 0
            && self.others_units.iter().copied().eq(Self::others_units(s, seat))
            && self.towns == s.towns
            && self.players == s.players
            && self.started_here == s.turn.started_here
            && self.battle_hexes == s.turn.battle_hexes
            && self.pillaged == s.pillaged;
        debug_assert_eq!(
            same,
            *self == World::of(s, seat),
            "World::matches and World::of"
        );
        same
    }

    /// The other seats' units, with subjugation (none without it: only Alliance units
    /// ease slow terrain, 15.64).
    fn others_units(s: &Viktory, seat: Seat) -> impl Iterator<Item = OtherUnit> + '_ {
        // Without subjugation the units are not looked at, one by one or at all.
        let units = if s.rules.subjugation {
            &s.units[..]
        } else {
            &[]
        };
        units
            .iter()
            .filter(move |u| u.owner != seat)
            .map(|u| (u.hex, u.kind, u.owner, u.aboard.is_some()))
    }
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
    if let Some(why @ MoverRefusal::Cargo) = mover_refusal(s, u) {
        return Err(why.error(u));
    }
    check_switch(s, u.id)?;
    mover_refusal(s, u).map_or(Ok(()), |why| Err(why.error(u)))
}

/// Whether [`check_mover`] lets the unit move on: the same rules, without writing a
/// refusal, the position's [`Switch`] worked out once (for searches over many units:
/// legal moves, the Dark reach).
pub(crate) fn can_move_on(s: &Viktory, u: &Unit, switch: &Switch) -> bool {
    mover_refusal(s, u).is_none() && switch.allows(u.id)
}

/// Why [`check_mover`] refuses a unit, by the unit alone (R-9's switch aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoverRefusal {
    Cargo,
    Attacked,
    NoMovement,
    Transported,
}

impl MoverRefusal {
    /// The refusal as `check_mover` reports it for `u`.
    fn error(self, u: &Unit) -> RuleError {
        let id = u.id;
        let (code, rule, message) = match self {
            Self::Cargo => (
                "cargo",
                "9.43",
                format!("unit {id} is cargo; its frigate moves it"),
            ),
            Self::Attacked => (
                "attacked",
                "10.7",
                format!("unit {id} has attacked this turn and can move no further"),
            ),
            Self::NoMovement => (
                "no_movement",
                "9.0",
                format!("unit {id} has no movement left this turn"),
            ),
            Self::Transported => (
                "transported",
                "9.43",
                format!("unit {id} was transported this turn"),
            ),
        };
        RuleError::new(code, rule, message)
    }
}

/// The rules of [`check_mover`] on the unit itself, in its order: the first that
/// refuses.
fn mover_refusal(s: &Viktory, u: &Unit) -> Option<MoverRefusal> {
    if u.is_cargo() {
        return Some(MoverRefusal::Cargo);
    }
    // Frigate Characteristics: a frigate need not stop after attacking.
    let frigate_goes_on = s.rules.frigate_characteristics && u.kind == UnitKind::Frigate;
    if u.attacked && !frigate_goes_on {
        return Some(MoverRefusal::Attacked);
    }
    if u.done || (u.mp == 0 && u.road_run == 0) {
        return Some(MoverRefusal::NoMovement);
    }
    if u.transported && !s.rules.frigate_characteristics {
        return Some(MoverRefusal::Transported);
    }
    None
}

/// Rule 9.1–9.32, 12.2: whether a unit free to move may step (or take a road) to `to`.
pub fn check_step(s: &Viktory, u: &Unit, to: Hex) -> Result<(), RuleError> {
    match step_refusal(s, u, to, None) {
        None => Ok(()),
        Some(why) => Err(why.error(u, to)),
    }
}

/// Whether [`check_step`] allows the step: the same rules, without building the
/// refusal's message (for searches that try many steps: legal moves, Dark sight).
pub fn can_step(s: &Viktory, u: &Unit, to: Hex) -> bool {
    step_refusal(s, u, to, None).is_none()
}

/// [`can_step`], with the roads asked about kept in `roads` for the next steps tried in
/// the same position.
pub(crate) fn can_step_on(s: &Viktory, u: &Unit, to: Hex, roads: &mut Roads) -> bool {
    step_refusal(s, u, to, Some(roads)).is_none()
}

/// Why [`check_step`] refuses a step, before the message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StepRefusal {
    Unexplored,
    LandNotAdjacent,
    NetworkStepsOnly,
    Water,
    SeaNotAdjacent,
    PortToPort,
    NotAPort,
    PortTransit,
    BattleFought,
    Reorganizing,
    Attacked,
    AllianceStop,
}

impl StepRefusal {
    /// The refusal as `check_step` reports it, for unit `u` stepping to `to`.
    fn error(self, u: &Unit, to: Hex) -> RuleError {
        let (code, rule, message) = match self {
            Self::Unexplored => ("unexplored", "9.2", format!("{to} is not explored")),
            Self::LandNotAdjacent => (
                "not_adjacent",
                "9.13",
                format!("{to} is neither adjacent nor along a road from {}", u.hex),
            ),
            Self::NetworkStepsOnly => (
                "no_movement",
                "9.0",
                format!("unit {} has only network steps left", u.id),
            ),
            Self::Water => (
                "water",
                "9.1",
                format!("land units stay on land; {to} is water"),
            ),
            Self::SeaNotAdjacent => (
                "not_adjacent",
                "9.3",
                format!("{to} is not adjacent to {}", u.hex),
            ),
            Self::PortToPort => (
                "port_to_port",
                "9.32",
                "a frigate leaves a port into water".into(),
            ),
            Self::NotAPort => (
                "not_a_port",
                "9.32",
                format!("{to} is not one of your ports"),
            ),
            Self::PortTransit => (
                "port_transit",
                "9.32",
                "entering and leaving a port takes two movement points".into(),
            ),
            Self::BattleFought => (
                "battle_fought",
                "12.2",
                format!("a battle was already fought at {to} this turn"),
            ),
            Self::Reorganizing => (
                "reorganizing",
                "15.63",
                "a player who lost his capital may not attack on his next turn".into(),
            ),
            Self::Attacked => (
                "attacked",
                "10.6",
                format!("unit {} has already attacked this turn", u.id),
            ),
            Self::AllianceStop => (
                "alliance_stop",
                "15.64",
                format!("a unit may pass through the Alliance hex {to} but not stop there"),
            ),
        };
        RuleError::new(code, rule, message)
    }
}

/// The rules of [`check_step`], in its order: the first that refuses the step. Roads
/// are looked up in `roads` when given.
fn step_refusal(s: &Viktory, u: &Unit, to: Hex, roads: Option<&mut Roads>) -> Option<StepRefusal> {
    use StepRefusal as R;
    let seat = u.owner;
    // The hex's index once, for its terrain and its enemies.
    let Some(i) = hexmap::Board::index(&s.board, to) else {
        return Some(R::Unexplored);
    };
    let Some(terrain) = crate::rules::fog::known_terrain_at(s, seat, to, i) else {
        return Some(R::Unexplored);
    };
    let distance = u.hex.distance(to);
    if u.kind.is_land() {
        let road = |roads: Option<&mut Roads>| match roads {
            Some(roads) => roads.between(s, seat, u.hex, to),
            None => road_between(s, seat, u.hex, to),
        };
        if distance != 1 && !road(roads) {
            return Some(R::LandNotAdjacent);
        }
        if u.mp == 0 && !road_step(s, u, to) {
            return Some(R::NetworkStepsOnly);
        }
        let ferry = || road_step(s, u, to) && can_go_ashore(s, u, to);
        if !(terrain.is_land() || ferry()) {
            return Some(R::Water);
        }
    } else {
        if distance != 1 {
            return Some(R::SeaNotAdjacent);
        }
        let in_port = s.terrain(u.hex).is_some_and(Terrain::is_land);
        if terrain.is_land() {
            if in_port {
                return Some(R::PortToPort);
            }
            if !road_end(s, seat, to) || s.enemy_units_at(to, seat) {
                return Some(R::NotAPort);
            }
            if u.mp < 2 {
                return Some(R::PortTransit);
            }
            return None;
        }
    }
    let hostile = subjugation::hostile_at(s, i, seat);
    if hostile && s.turn.battle_hexes.contains(&to) {
        return Some(R::BattleFought);
    }
    if hostile {
        if !subjugation::may_attack(s, seat) {
            return Some(R::Reorganizing);
        }
        if u.attacked {
            // Frigate Characteristics: a frigate moving on after an attack makes no other.
            return Some(R::Attacked);
        }
    } else if s.rules.subjugation && subjugation::alliance_hex(s, to, seat) {
        // 15.64, H-26: through an Alliance hex, never stopping in it.
        let left = u.mp.saturating_sub(1);
        let slowed = u.kind.is_land() && distance == 1 && stops_in(s, seat, u.kind, to);
        let through = Unit {
            hex: to,
            mp: left,
            ..u.clone()
        };
        if left == 0 || slowed || !can_leave(s, &through) {
            return Some(R::AllianceStop);
        }
    }
    None
}

/// 15.64: whether a unit passing through an Alliance hex can step on from it into a
/// hex that is not one.
fn can_leave(s: &Viktory, u: &Unit) -> bool {
    let seat = u.owner;
    let roads = s
        .towns()
        .filter(|(h, _)| (2..=3).contains(&h.distance(u.hex)))
        .map(|(h, _)| h);
    u.hex
        .neighbors()
        .into_iter()
        .chain(roads)
        .filter(|&n| !subjugation::alliance_hex(s, n, seat))
        .any(|n| can_step(s, u, n))
}

/// Whether a step of `u` to `to` ends its movement: an enemy hex (12.0), or slow
/// terrain entered by land but not along a road (9.12).
pub fn move_ends_at(s: &Viktory, u: &Unit, to: Hex) -> bool {
    subjugation::hostile_hex(s, to, u.owner)
        || (u.kind.is_land()
            && u.hex.distance(to) == 1
            && stops_in(s, u.owner, u.kind, to)
            && !rides_through_slow(s, u)
            && !network_hex(s, u.owner, to))
}

/// Cavalry Characteristics: a cavalry with two points left pays one more to go through
/// slow terrain instead of stopping there.
fn rides_through_slow(s: &Viktory, u: &Unit) -> bool {
    s.rules.cavalry_characteristics && u.kind == UnitKind::Cavalry && u.mp >= 2
}

/// Moves the unit (cargo with it), reveals around the new hex, and ends its move where
/// the rules say: slow terrain (9.12) and enemy hexes (12.0).
pub fn apply_move(s: &mut Viktory, id: UnitId, to: Hex, ev: &mut Vec<Event>) {
    enter(s, id, to, false, ev);
}

/// 15.64, 15.65: a Ruler's unit enters his Vassal's hex to fight there.
pub fn apply_attack(s: &mut Viktory, id: UnitId, to: Hex, ev: &mut Vec<Event>) {
    enter(s, id, to, true, ev);
}

fn enter(s: &mut Viktory, id: UnitId, to: Hex, attack: bool, ev: &mut Vec<Event>) {
    switch_to(s, id, ev);
    let seat = s.turn.active;
    let (from, kind, owner, cargo) = {
        let u = s.unit(id).expect("checked");
        (u.hex, u.kind, u.owner, u.aboard.is_some())
    };
    let road = kind.is_land() && from.distance(to) > 1;
    let enemy = attack || subjugation::hostile_hex(s, to, seat);
    let on_road = !attack && s.unit(id).is_some_and(|u| road_step(s, u, to));
    // Road/Ferry Network: the network's roads ignore slow terrain.
    let slow = kind.is_land() && !road && stops_in(s, seat, kind, to) && !network_hex(s, seat, to);
    let ride_on = slow && s.unit(id).is_some_and(|u| rides_through_slow(s, u));
    let stop = slow && !ride_on;
    for u in s
        .units
        .iter_mut()
        .filter(|u| u.id == id || u.aboard == Some(id))
    {
        u.hex = to;
    }
    // Only the units of `from` moved, and only to `to`: `to` gains the mover's seat
    // (its cargo is not counted), `from` is worked out again.
    s.refresh_occupancy_at(&[from]);
    if !cargo {
        s.occupy(to, owner);
    }
    let u = s.unit_mut(id);
    if on_road && u.road_run > 0 {
        // Road/Ferry Network: up to three network hexes for one point.
        u.road_run -= 1;
    } else if on_road {
        u.mp = u.mp.saturating_sub(1);
        u.road_run = 2;
    } else {
        u.mp = u.mp.saturating_sub(1 + u8::from(ride_on));
        u.road_run = 0;
    }
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
        // 9.12: slow terrain stops the unit, but it is not `done`: it may still act
        // where it stands (a pillage, say) until another unit moves, and its end is
        // announced then, by `switch_to`, like a unit's that spent its last point.
        s.unit_mut(id).mp = 0;
    }
    exploration::unit_entered(s, to, ev);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use engine::{Game, GameRng, ToMove};

    /// A game of `preset` for `players`, 30 turns, with `on` switched on.
    fn start(preset: &str, players: u8, on: &[&str]) -> Viktory {
        crate::rules::fog::tests::game(preset, players, on, 30)
    }

    /// One step of a seeded random game: chance is sampled, a seat plays one of its
    /// legal actions at random.
    pub(crate) fn random_step(s: &mut Viktory, rng: &mut GameRng) {
        let action = if s.to_move() == ToMove::Chance {
            s.sample_chance(rng)
        } else {
            let legal = s.legal_actions();
            legal[rng.below(legal.len() as u32) as usize]
        };
        s.apply(action).expect("a legal action applies");
    }

    /// Plays `seeds` seeded random games ([`random_step`]) from each of `games` to their
    /// end, showing `visit` every position on the way with the game's index `g` and the
    /// seed: game `g`, seed `seed` draws from `GameRng::from_u64(seed * spread + g)`.
    pub(crate) fn each_position(
        games: &[Viktory],
        seeds: u64,
        spread: u64,
        mut visit: impl FnMut(usize, u64, &Viktory),
    ) {
        for (g, first) in games.iter().enumerate() {
            for seed in 0..seeds {
                let mut s = first.clone();
                let mut rng = GameRng::from_u64(seed * spread + g as u64);
                while !s.to_move().is_over() {
                    visit(g, seed, &s);
                    random_step(&mut s, &mut rng);
                }
            }
        }
    }

    /// [`check_switch`] as it was written before it asked [`Switch`] (issue 28): the
    /// reference its refusals are compared with, word for word.
    pub(crate) fn check_switch_reference(s: &Viktory, unit: UnitId) -> Result<(), RuleError> {
        if let Some(f) = on_ferry(s)
            && f != unit
        {
            return refuse(
                "on_ferry",
                "Expansion",
                format!("unit {f} is on a ferry and must go ashore first"),
            );
        }
        match (
            frigate_in_port(s),
            subjugation::unit_in_transit(s),
            cavalry_passing(s),
        ) {
            (Some(f), _, _) if f != unit => refuse(
                "frigate_in_port",
                "9.32",
                format!("frigate {f} is in port and must leave it first"),
            ),
            (_, Some(t), _) if t != unit => refuse(
                "alliance_transit",
                "15.64",
                format!("unit {t} cannot stop in an Alliance hex and must move on first"),
            ),
            (_, _, Some(c)) if c != unit => refuse(
                "riding_through",
                "Expansion",
                format!("cavalry {c} is riding through an enemy hex and must move on first"),
            ),
            _ => Ok(()),
        }
    }

    /// `Switch` answers as `check_switch` does for every unit (and for a unit id no unit
    /// has), at every position of seeded random games whose rules make units wait: the
    /// Road/Ferry Network's ferries, frigates in port, cavalry riding through. (A unit
    /// passing through an Alliance hex needs a Vassal, which these random games do not
    /// make; `Switch` asks the same `unit_in_transit` as `check_switch`.) Fails when the
    /// ferry's wait is left out of `Switch`.
    #[test]
    fn switch_agrees_with_check_switch() {
        let every = [
            "frigate_characteristics",
            "cavalry_characteristics",
            "road_ferry_network",
            "pillage",
        ];
        let games = [
            start("classic", 4, &[]),
            start("expansion", 4, &every),
            start("classic", 4, &["subjugation"]),
        ];
        let (mut positions, mut waiting) = (0, 0);
        each_position(&games, 6, 31, |g, seed, s| {
            let switch = Switch::now(s);
            positions += 1;
            waiting += usize::from(switch.0.iter().any(Option::is_some));
            let ids = s.units.iter().map(|u| u.id).chain([UnitId(u16::MAX)]);
            for id in ids {
                let checked = check_switch(s, id);
                assert_eq!(
                    checked,
                    check_switch_reference(s, id),
                    "game {g}, seed {seed}, unit {id}"
                );
                assert_eq!(
                    switch.allows(id),
                    checked.is_ok(),
                    "game {g}, seed {seed}, unit {id}"
                );
            }
        });
        assert!(
            waiting > 100,
            "{waiting} of {positions} positions made units wait"
        );
    }

    /// [`roads_among`] finds the roads [`road_between`] finds between every pair of the
    /// moving seat's road ends, at every movement decision of seeded random games
    /// (classic; the Expansion's road ferries; subjugation's Alliance road ends), and
    /// again with another seat's unit put into each road end in turn, which a road may
    /// run out of but not into (9.13). Fails when a road is taken to run both ways
    /// whatever stands at its ends.
    #[test]
    fn roads_among_road_ends_are_the_roads_between_them() {
        let games = [
            start("classic", 4, &[]),
            start("expansion", 4, &["road_ferries"]),
            start("classic", 4, &["subjugation"]),
        ];
        let roads = |s: &Viktory, seat: Seat, ends: &[Hex]| {
            let mut among = roads_among(s, seat, ends);
            let mut between: Vec<(Hex, Hex)> = (ends.iter())
                .flat_map(|&a| ends.iter().map(move |&b| (a, b)))
                .filter(|&(a, b)| road_between(s, seat, a, b))
                .collect();
            among.sort_unstable();
            between.sort_unstable();
            (among, between)
        };
        let (mut found, mut one_way) = (0, 0);
        each_position(&games, 3, 17, |g, seed, s| {
            let seat = s.turn.active;
            if s.turn.stage == crate::state::Stage::Move {
                let ends: Vec<Hex> = s
                    .towns()
                    .filter(|&(h, t)| land_road_end_town(s, seat, h, t))
                    .map(|(h, _)| h)
                    .collect();
                let (among, between) = roads(s, seat, &ends);
                assert_eq!(among, between, "game {g}, seed {seed}");
                found += among.len();
                for &end in &ends {
                    let mut blocked = s.clone();
                    let mut enemy = s.units[0].clone();
                    enemy.id = UnitId(u16::MAX);
                    enemy.owner = Seat((seat.0 + 1) % s.rules.players);
                    enemy.kind = UnitKind::Infantry;
                    enemy.hex = end;
                    enemy.aboard = None;
                    blocked.units.push(enemy);
                    blocked.refresh_occupancy_at(&[end]);
                    let (among, between) = roads(&blocked, seat, &ends);
                    assert_eq!(among, between, "game {g}, seed {seed}, enemy at {end}");
                    one_way += among
                        .iter()
                        .filter(|&&(a, b)| !among.contains(&(b, a)))
                        .count();
                }
            }
        });
        assert!(
            found > 10_000 && one_way > 10_000,
            "{found} roads, {one_way} one way"
        );
    }

    /// Steps tried with one [`Roads`] shared over a whole position (as the legal moves
    /// share it over every unit) are answered as [`can_step`] answers each alone, for
    /// every own unit of the seat to move at each of its neighbours and the road ends two
    /// or three hexes away, at every decision of seeded random games with roads, with
    /// the Alliance's road ends (subjugation) and in the Dark. Fails when the memo keys
    /// a road by its start alone.
    #[test]
    fn steps_with_kept_roads_agree_with_each_step_alone() {
        let games = [
            start("classic", 4, &[]),
            start("classic", 3, &["subjugation"]),
            start("online", 3, &["dark", "independent_exploration"]),
        ];
        let (mut tried, mut roads) = (0, 0);
        each_position(&games, 4, 13, |g, seed, s| {
            if let ToMove::Seat(seat) = s.to_move() {
                let mut kept = Roads::default();
                let ends: Vec<Hex> = s.towns().map(|(h, _)| h).collect();
                for u in s.units.iter().filter(|u| u.owner == seat) {
                    let far = ends
                        .iter()
                        .copied()
                        .filter(|h| (2..=3).contains(&h.distance(u.hex)));
                    for to in u.hex.neighbors().into_iter().chain(far) {
                        let alone = can_step(s, u, to);
                        assert_eq!(
                            can_step_on(s, u, to, &mut kept),
                            alone,
                            "game {g}, seed {seed}, unit {}, {to}",
                            u.id
                        );
                        tried += 1;
                        roads += usize::from(alone && u.hex.distance(to) > 1);
                    }
                }
            }
        });
        assert!(roads > 100, "{roads} road moves of {tried} steps tried");
    }
}
