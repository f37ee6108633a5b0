//! 9.4 Naval Transport: embarking (9.42), capacity (9.41), land units that neither move
//! before nor after (9.43), one drop-off hex per frigate and turn (9.46), amphibious
//! landings (9.47).

use hexmap::Hex;

use crate::board::Terrain;
use crate::error::RuleError;
use crate::event::Event;
use crate::rules::{exploration, movement, subjugation};
use crate::state::Viktory;
use crate::unit::{Unit, UnitId, UnitKind};

/// Why the rules refuse a land unit boarding a frigate or going ashore from it, before
/// the message is written: [`check_embark`] and [`check_disembark`] write it, the legal
/// actions only ask whether there is one ([`can_embark`], [`can_land`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    NotAFrigate,
    InPort,
    FrigateBattlePending,
    NotLand,
    Cargo,
    Ashore,
    Switch(movement::Wait),
    FrigateMp,
    NoMovement,
    BoardAgain,
    Moved,
    BattlePending,
    NotAdjacent,
    FrigateFull,
    NotCargo,
    LandingNotAdjacent,
    LandingNotLand,
    OneDropHex(Hex),
    BattleFought,
    AllianceStop,
    Reorganizing,
}

impl Refusal {
    /// The refusal as `check_embark` or `check_disembark` reports it: land unit `unit`,
    /// `frigate`, landing at `to` (for a landing).
    fn error(self, unit: UnitId, frigate: UnitId, to: Hex) -> RuleError {
        let (code, rule, message) = match self {
            Self::NotAFrigate => (
                "not_a_frigate",
                "9.4",
                format!("unit {frigate} is not a frigate"),
            ),
            Self::InPort => (
                "in_port",
                "9.32",
                format!("frigate {frigate} is in port and can only leave it"),
            ),
            Self::FrigateBattlePending => (
                "battle_pending",
                "12.0",
                format!("frigate {frigate} must fight its battle first"),
            ),
            Self::NotLand => ("not_land", "9.4", "only land units are transported".into()),
            Self::Cargo => ("cargo", "9.4", format!("unit {unit} is already aboard")),
            Self::Ashore => return movement::ashore_refusal(unit),
            Self::Switch(wait) => return wait.error(),
            Self::FrigateMp => (
                "frigate_mp",
                "Expansion",
                format!("frigate {frigate} has no movement point left to load or unload"),
            ),
            Self::NoMovement => (
                "no_movement",
                "Expansion",
                format!("unit {unit} has no movement point left to board or land"),
            ),
            Self::BoardAgain => (
                "moved",
                "Expansion",
                format!("unit {unit} cannot board again this turn"),
            ),
            Self::Moved => (
                "moved",
                "9.43",
                format!("unit {unit} has moved or acted this turn and cannot embark"),
            ),
            Self::BattlePending => (
                "battle_pending",
                "12.0",
                format!("unit {unit} must fight its battle first"),
            ),
            Self::NotAdjacent => (
                "not_adjacent",
                "9.42",
                format!("frigate {frigate} is not next to unit {unit}"),
            ),
            Self::FrigateFull => (
                "frigate_full",
                "9.41",
                format!("frigate {frigate} can take no more land units this turn"),
            ),
            Self::NotCargo => (
                "not_cargo",
                "9.46",
                format!("unit {unit} is not aboard a frigate"),
            ),
            Self::LandingNotAdjacent => (
                "not_adjacent",
                "9.46",
                format!("{to} is not next to the frigate"),
            ),
            Self::LandingNotLand => ("not_land", "9.46", format!("{to} is not explored land")),
            Self::OneDropHex(drop) => (
                "one_drop_hex",
                "9.46",
                format!("frigate {frigate} already dropped units at {drop} this turn"),
            ),
            Self::BattleFought => (
                "battle_fought",
                "12.2",
                format!("a battle was already fought at {to} this turn"),
            ),
            Self::AllianceStop => (
                "alliance_stop",
                "15.64",
                format!("units may not land in the Alliance hex {to}"),
            ),
            Self::Reorganizing => return subjugation::check_may_attack_refusal(),
        };
        RuleError::new(code, rule, message)
    }
}

/// The rules on the frigate itself: an own frigate on water (not in port), not waiting
/// to fight.
fn frigate_refusal(s: &Viktory, f: &Unit) -> Option<Refusal> {
    if f.kind != UnitKind::Frigate {
        return Some(Refusal::NotAFrigate);
    }
    if s.terrain(f.hex) != Some(Terrain::Water) {
        return Some(Refusal::InPort);
    }
    if s.turn.pending_battles.contains(&f.hex) {
        return Some(Refusal::FrigateBattlePending);
    }
    None
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
fn transfer_cost_refusal(f: &Unit, u: &Unit) -> Option<Refusal> {
    if f.mp == 0 || f.done {
        return Some(Refusal::FrigateMp);
    }
    if u.mp == 0 {
        return Some(Refusal::NoMovement);
    }
    None
}

/// Rule 9.41–9.43: may land unit `unit` board `frigate`? The frigate need not be able
/// to move any more (H-6).
pub fn check_embark(s: &Viktory, unit: UnitId, frigate: UnitId) -> Result<(), RuleError> {
    let f = movement::own_unit(s, frigate)?;
    if let Some(why) = frigate_refusal(s, f) {
        return Err(why.error(unit, frigate, f.hex));
    }
    let u = movement::own_unit(s, unit)?;
    embark_refusal(s, u, f, &movement::Switch::now(s), || has_room(s, frigate))
        .map_or(Ok(()), |why| Err(why.error(unit, frigate, f.hex)))
}

/// Whether the own unit `f` passes the rules on the frigate itself that boarding and
/// landing share (an own frigate on water, not waiting to fight): asked once per
/// frigate when the legal actions are listed, before [`can_embark`] and [`can_land`].
pub(crate) fn frigate_ready(s: &Viktory, f: &Unit) -> bool {
    frigate_refusal(s, f).is_none()
}

/// Whether [`check_embark`] lets the own land unit `u` board the own frigate `f`, which
/// has passed [`frigate_ready`]: the same rules, without writing a refusal, with the
/// position's [`movement::Switch`] worked out once and whether the frigate has room
/// ([`has_room`]) asked only when the rest allow it (for the legal actions).
pub(crate) fn can_embark(
    s: &Viktory,
    u: &Unit,
    f: &Unit,
    switch: &movement::Switch,
    room: impl FnOnce() -> bool,
) -> bool {
    embark_refusal(s, u, f, switch, room).is_none()
}

/// The rules of [`check_embark`] after the frigate's own ([`frigate_refusal`]), in its
/// order; `room`: whether the frigate has room ([`has_room`]), asked last.
fn embark_refusal(
    s: &Viktory,
    u: &Unit,
    f: &Unit,
    switch: &movement::Switch,
    room: impl FnOnce() -> bool,
) -> Option<Refusal> {
    if !u.kind.is_land() {
        return Some(Refusal::NotLand);
    }
    if u.is_cargo() {
        return Some(Refusal::Cargo);
    }
    if movement::afloat_on_ferry(s, u) {
        return Some(Refusal::Ashore);
    }
    if let Some(wait) = switch.wait_for(f.id) {
        return Some(Refusal::Switch(wait));
    }
    if s.rules.frigate_characteristics {
        if let Some(why) = transfer_cost_refusal(f, u) {
            return Some(why);
        }
        if u.attacked || (u.done && u.boarded) {
            return Some(Refusal::BoardAgain);
        }
    } else if u.done || u.attacked || u.transported || u.mp < s.rules.movement.get(u.kind) {
        return Some(Refusal::Moved);
    }
    if s.turn.pending_battles.contains(&u.hex) {
        return Some(Refusal::BattlePending);
    }
    if u.hex.distance(f.hex) != 1 {
        return Some(Refusal::NotAdjacent);
    }
    if !room() {
        return Some(Refusal::FrigateFull);
    }
    None
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
    // Only the hex the unit left changed: cargo is counted through its frigate.
    s.refresh_occupancy_at(&[from]);
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
        return Err(Refusal::NotCargo.error(unit, unit, to));
    };
    let f = movement::own_unit(s, frigate)?;
    let why =
        frigate_refusal(s, f).or_else(|| landing_refusal(s, u, f, to, &movement::Switch::now(s)));
    why.map_or(Ok(()), |why| Err(why.error(unit, frigate, to)))
}

/// Whether [`check_disembark`] lets the own cargo unit `u`, aboard the own frigate `f`
/// (which has passed [`frigate_ready`]), go ashore at `to`: the same rules, without
/// writing a refusal, with the position's [`movement::Switch`] worked out once (for the
/// legal actions).
pub(crate) fn can_land(
    s: &Viktory,
    u: &Unit,
    f: &Unit,
    to: Hex,
    switch: &movement::Switch,
) -> bool {
    landing_refusal(s, u, f, to, switch).is_none()
}

/// The rules of [`check_disembark`] after the frigate's own ([`frigate_refusal`]), in
/// its order.
fn landing_refusal(
    s: &Viktory,
    u: &Unit,
    f: &Unit,
    to: Hex,
    switch: &movement::Switch,
) -> Option<Refusal> {
    if let Some(wait) = switch.wait_for(f.id) {
        return Some(Refusal::Switch(wait));
    }
    if f.hex.distance(to) != 1 {
        return Some(Refusal::LandingNotAdjacent);
    }
    if !s.terrain(to).is_some_and(Terrain::is_land) {
        return Some(Refusal::LandingNotLand);
    }
    let seat = s.turn.active;
    let hostile = subjugation::hostile_hex(s, to, seat);
    // 15.63: a player who lost his capital may not land on an enemy on his next turn.
    let reorganizing = || hostile && !subjugation::may_attack(s, seat);
    if s.rules.frigate_characteristics {
        if let Some(why) = transfer_cost_refusal(f, u) {
            return Some(why);
        }
        if reorganizing() {
            return Some(Refusal::Reorganizing);
        }
    } else if let Some(drop) = f.drop
        && drop != to
    {
        return Some(Refusal::OneDropHex(drop));
    }
    if hostile && s.turn.battle_hexes.contains(&to) {
        return Some(Refusal::BattleFought);
    }
    if subjugation::alliance_hex(s, to, seat) {
        return Some(Refusal::AllianceStop);
    }
    if reorganizing() {
        return Some(Refusal::Reorganizing);
    }
    None
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
    // Only the hex the unit landed on changed: it gained the unit, no longer cargo.
    let owner = u.owner;
    s.occupy(to, owner);
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
