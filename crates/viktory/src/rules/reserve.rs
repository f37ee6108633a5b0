//! 13.0 Reserve Placement: capacities by town, city and terrain (13.11, 13.12), the
//! adjacent-enemy restriction (13.2), frigates beside forest cities or in the nearest
//! water (13.3), the capital exception (13.4), the frigate placement naval battle
//! (13.5), and the lost-capital limits (14.0).

use engine::Seat;
use hexmap::Hex;

use crate::board::Terrain;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{LostCapital, battle, exploration, fog, subjugation};
use crate::state::{Placed, Town, Viktory};
use crate::unit::{Unit, UnitId, UnitKind};

/// Puts a reserve unit on the map at `hex`; like any unit entering a hex it reveals the
/// neighbours (9.2; ruling H-2).
pub fn put_on_map(
    s: &mut Viktory,
    seat: Seat,
    kind: UnitKind,
    hex: Hex,
    ev: &mut Vec<Event>,
) -> UnitId {
    *s.players[seat.index()].reserve.get_mut(kind) -= 1;
    let id = s.new_unit_id();
    let at = s.units.partition_point(|u| u.id < id);
    s.units.insert(
        at,
        Unit {
            id,
            owner: seat,
            kind,
            hex,
            aboard: None,
            mp: 0,
            done: true,
            attacked: false,
            transported: false,
            entered_from: None,
            loads: 0,
            drop: None,
            boarded: false,
            pillages: 0,
            road_run: 0,
        },
    );
    // The hex only gained a unit (not cargo) of the seat: the cheap half of a refresh.
    s.occupy(hex, seat);
    ev.push(Event::UnitPlaced {
        seat,
        unit: id,
        kind,
        hex,
    });
    exploration::unit_placed(s, hex, ev);
    id
}

/// Rule 13.3: the water hexes a frigate may be placed in through `town`: the adjacent
/// water, or, if none, the nearest revealed water hexes (that the player explored,
/// H-23).
pub fn frigate_hexes(s: &Viktory, town: Hex) -> Vec<Hex> {
    frigate_hexes_for(s, s.turn.active, town)
}

/// [`frigate_hexes`] for `seat`.
pub fn frigate_hexes_for(s: &Viktory, seat: Seat, town: Hex) -> Vec<Hex> {
    let water = |h: &Hex| fog::known_terrain(s, seat, *h) == Some(Terrain::Water);
    let adjacent: Vec<Hex> = town.neighbors().into_iter().filter(water).collect();
    if !adjacent.is_empty() {
        let mut a = adjacent;
        a.sort();
        return a;
    }
    let radius = s.board.radius() * 2;
    for r in 2..=radius {
        let mut ring: Vec<Hex> = town.ring(r).into_iter().filter(water).collect();
        if !ring.is_empty() {
            ring.sort();
            return ring;
        }
    }
    vec![]
}

/// Rule 13.4 (and the online rules' nearest water): the water hexes a frigate may be
/// placed in through `seat`'s capital.
pub fn capital_frigate_hexes(s: &Viktory, seat: Seat, capital: Hex) -> Vec<Hex> {
    let mut v: Vec<Hex> = capital
        .neighbors()
        .into_iter()
        .filter(|&h| fog::known_terrain(s, seat, h) == Some(Terrain::Water))
        .collect();
    if v.is_empty() || s.rules.capital_frigates_nearest_water {
        v.extend(frigate_hexes_for(s, seat, capital));
    }
    v.sort();
    v.dedup();
    v
}

/// 15.64: the nearest water to `town` free of Alliance partners' frigates, when every
/// hex a frigate would normally go to through it holds some; otherwise nothing.
pub fn alliance_fallback_hexes(s: &Viktory, seat: Seat, town: Hex, capital: bool) -> Vec<Hex> {
    if !s.rules.subjugation {
        return vec![];
    }
    let usual = if capital {
        capital_frigate_hexes(s, seat, town)
    } else {
        frigate_hexes_for(s, seat, town)
    };
    let blocked = |h: &Hex| allied_frigates_at(s, seat, *h);
    if usual.is_empty() || !usual.iter().all(blocked) {
        return vec![];
    }
    let radius = s.board.radius() * 2;
    for r in 1..=radius {
        let mut ring: Vec<Hex> = town
            .ring(r)
            .into_iter()
            .filter(|&h| fog::known_terrain(s, seat, h) == Some(Terrain::Water) && !blocked(&h))
            .collect();
        if !ring.is_empty() {
            ring.sort();
            return ring;
        }
    }
    vec![]
}

/// 15.64: frigates of `seat`'s Alliance partners at `hex` (a frigate placed there would
/// start a battle among allies, which the Alliance does not allow).
pub fn allied_frigates_at(s: &Viktory, seat: Seat, hex: Hex) -> bool {
    s.rules.subjugation
        && s.units_at(hex)
            .any(|u| u.kind == UnitKind::Frigate && subjugation::allied(s, seat, u.owner))
}

/// Rule 13.2: an enemy military unit (land or naval) next to `town` (Alliance units do
/// not count, 15.64).
fn enemy_adjacent(s: &Viktory, seat: Seat, town: Hex) -> bool {
    town.neighbors()
        .iter()
        .any(|&n| subjugation::hostile_units_at(s, n, seat))
}

/// Rule 13.0–13.4, 14.0: may the active player place a `kind` through `town` at `to`?
pub fn check_place(s: &Viktory, kind: UnitKind, town: Hex, to: Hex) -> Result<(), RuleError> {
    match place_refusal(s, kind, town, to, &mut PlaceMemo::default()) {
        None => Ok(()),
        Some(why) => Err(why.error(kind, town, to)),
    }
}

/// Whether [`check_place`] allows the placement: the same rules, without writing a
/// refusal (for the legal actions, which try every reserve kind through every town).
pub fn can_place(s: &Viktory, kind: UnitKind, town: Hex, to: Hex) -> bool {
    place_refusal(s, kind, town, to, &mut PlaceMemo::default()).is_none()
}

/// Cache (issue 28): 13.2's answers ([`enemy_adjacent`]) and 13.3's water
/// ([`frigate_hexes`]) for the towns the last [`placements`] asked about, with all they
/// are read from: the seat, where its enemies stand, and the terrain it knows. A
/// placing phase lists the placements again at every decision, and placing a unit
/// moves no enemy and reveals no water next to a town that the seat did not know.
/// `tests::placements_are_the_candidates_check_place_allows` compares the placements
/// listed with it, decision after decision, with `check_place` asked without it.
pub(crate) type NearMemo = crate::legal::Kept<Near>;

/// [`NearMemo`]'s answers and what they are read from.
pub(crate) struct Near {
    seat: Seat,
    /// The occupancy's bits of `seat`'s enemies (all but its own and its Alliance's),
    /// hex by hex: an answer of [`enemy_adjacent`] reads nothing else.
    enemies: Vec<u8>,
    /// Each town asked about, and whether an enemy stands next to it.
    towns: Vec<(Hex, bool)>,
    /// The terrain `seat` knows ([`fog::known_terrain`]): the state's shared terrain
    /// and, with independent exploration, who explored what. A frigate's water reads
    /// nothing else.
    known: Option<KnownTerrain>,
    /// Each town asked about, and the water its frigates go to.
    water: Vec<(Hex, Vec<Hex>)>,
}

/// What [`Near::known`] holds.
type KnownTerrain = (
    std::sync::Arc<hexmap::Grid<crate::state::Cell>>,
    Option<hexmap::Grid<u8>>,
);

impl Near {
    /// Keeps 13.2's answers if they were read from the same enemies for `seat` in `s`,
    /// and 13.3's water if from the same terrain known to `seat`; else forgets them,
    /// ready to be filled.
    fn refresh(&mut self, s: &Viktory, seat: Seat) {
        let explored = || {
            (s.fog.as_ref())
                .filter(|_| s.rules.independent_exploration)
                .map(|f| &f.explored)
        };
        let knows_the_same = self.seat == seat
            && self
                .known
                .as_ref()
                .is_some_and(|(cells, e)| *cells == s.cells && e.as_ref() == explored());
        if !knows_the_same {
            self.known = Some((s.cells.clone(), explored().cloned()));
            self.water.clear();
        }
        #[cfg(test)]
        if knows_the_same && !self.water.is_empty() {
            tests::WATER_MEMO_HITS.set(tests::WATER_MEMO_HITS.get() + 1);
        }
        let hostile = !subjugation::alliance_mask(s, seat);
        // Without stopping at the first difference: a loop over many bytes at once.
        let same = self.seat == seat
            && self.enemies.len() == s.occupancy.len()
            && (self.enemies.iter().zip(s.occupancy.iter()))
                .fold(0, |diff, (&was, &now)| diff | (was ^ (now & hostile)))
                == 0;
        if same {
            #[cfg(test)]
            tests::NEAR_MEMO_HITS.set(tests::NEAR_MEMO_HITS.get() + 1);
        } else {
            self.seat = seat;
            self.enemies.clear();
            self.enemies
                .extend(s.occupancy.iter().map(|&b| b & hostile));
            self.towns.clear();
        }
    }
}

/// What the rules of placement ask of the active player's towns, kept while one
/// position's placements are judged (issue 28): every kind in the reserve asks of the
/// same towns. Each answer is worked out when first asked.
#[derive(Default)]
pub(crate) struct PlaceMemo {
    /// Whether the active player holds his capital (14.0).
    held: Option<bool>,
    /// 13.2: per town, whether an enemy unit stands next to it ([`enemy_adjacent`]).
    near: Vec<(Hex, bool)>,
    /// 13.3: per town, the water its frigates go to ([`frigate_hexes`]).
    water: Vec<(Hex, Vec<Hex>)>,
}

impl PlaceMemo {
    /// Whether the active player holds his capital.
    fn held(&mut self, s: &Viktory) -> bool {
        *self
            .held
            .get_or_insert_with(|| s.holds_capital(s.turn.active))
    }

    /// Whether an enemy unit stands next to `town` (of the active player).
    fn near(&mut self, s: &Viktory, town: Hex) -> bool {
        if let Some(&(_, near)) = self.near.iter().find(|(t, _)| *t == town) {
            return near;
        }
        let near = enemy_adjacent(s, s.turn.active, town);
        self.near.push((town, near));
        near
    }

    /// [`frigate_hexes`] of `town`.
    fn water(&mut self, s: &Viktory, town: Hex) -> &[Hex] {
        let i = (self.water.iter().position(|(t, _)| *t == town)).unwrap_or_else(|| {
            self.water.push((town, frigate_hexes(s, town)));
            self.water.len() - 1
        });
        &self.water[i].1
    }
}

/// Why [`check_place`] refuses a placement, before the message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlaceRefusal {
    NotInReserve,
    NotYourTown,
    NotWater,
    AllianceFrigates,
    Reorganizing,
    WrongHex,
    NoPlacement,
    CapitalLost,
    Pillaged,
    EnemyAdjacent,
    /// 13.11, with the town's capacity for the kind.
    Capacity(usize),
    FrigateHex,
}

impl PlaceRefusal {
    /// The refusal as `check_place` reports it.
    fn error(self, kind: UnitKind, town: Hex, to: Hex) -> RuleError {
        let (code, rule, message) = match self {
            Self::Reorganizing => return subjugation::check_may_attack_refusal(),
            Self::NotInReserve => (
                "not_in_reserve",
                "13.0",
                format!("you have no {kind} in your reserve"),
            ),
            Self::NotYourTown => (
                "not_your_town",
                "13.1",
                format!("{town} holds none of your towns or cities"),
            ),
            Self::NotWater => (
                "not_water",
                "13.3",
                format!("frigates are placed on water; {to} is not"),
            ),
            Self::AllianceFrigates => (
                "alliance_frigates",
                "15.64",
                format!("Alliance frigates are at {to}"),
            ),
            Self::WrongHex => (
                "wrong_hex",
                "13.1",
                format!("land units are placed in the town or city itself, not {to}"),
            ),
            Self::NoPlacement => (
                "capital_lost",
                "R-1",
                "without your capital you place no units (original VIKTORY)".into(),
            ),
            Self::CapitalLost => (
                "capital_lost",
                "14.0",
                format!("without your capital, your {kind} stays in reserve"),
            ),
            Self::Pillaged => (
                "pillaged",
                "Expansion",
                format!("a pillaged hex is next to {town}"),
            ),
            Self::EnemyAdjacent => (
                "enemy_adjacent",
                "13.2",
                format!("enemy units are next to {town}"),
            ),
            Self::Capacity(0) => (
                "capacity",
                "13.11",
                format!("a {kind} cannot be placed through {town}"),
            ),
            Self::Capacity(_) => (
                "capacity",
                "13.11",
                format!("{town} takes no more {kind} this turn"),
            ),
            Self::FrigateHex => (
                "frigate_hex",
                "13.3",
                format!("{to} is not next to {town}, nor the nearest water to it"),
            ),
        };
        RuleError::new(code, rule, message)
    }
}

/// The rules of [`check_place`], in its order: the first that refuses the placement.
fn place_refusal(
    s: &Viktory,
    kind: UnitKind,
    town: Hex,
    to: Hex,
    memo: &mut PlaceMemo,
) -> Option<PlaceRefusal> {
    use PlaceRefusal as R;
    let seat = s.turn.active;
    if s.players[seat.index()].reserve.get(kind) == 0 {
        return Some(R::NotInReserve);
    }
    let Some(t) = s.town(town).filter(|t| t.owner == seat) else {
        return Some(R::NotYourTown);
    };
    let frigate = kind == UnitKind::Frigate;
    let capital = t.capital_of == Some(seat);
    let fallback = frigate && alliance_fallback_hexes(s, seat, town, capital).contains(&to);
    if frigate {
        if fog::known_terrain(s, seat, to) != Some(Terrain::Water) {
            return Some(R::NotWater);
        }
        if allied_frigates_at(s, seat, to) {
            return Some(R::AllianceFrigates);
        }
        if subjugation::hostile_units_at(s, to, seat) && !subjugation::may_attack(s, seat) {
            return Some(R::Reorganizing);
        }
    } else if to != town {
        return Some(R::WrongHex);
    }
    // 13.4: anything, any number, frigates in the adjacent water; no 13.2. A frigate
    // going elsewhere (a landlocked forest-city capital, 13.3) follows the usual rules.
    if capital && (!frigate || to.distance(town) == 1 || fallback) {
        return None;
    }
    // Online rules: the capital's frigates may go to the nearest water too.
    if capital
        && frigate
        && s.rules.capital_frigates_nearest_water
        && memo.water(s, town).contains(&to)
    {
        return None;
    }
    if let Some(why) = town_refusal(s, t, town, kind, memo) {
        return Some(why);
    }
    if frigate && !fallback && !memo.water(s, town).contains(&to) {
        return Some(R::FrigateHex);
    }
    None
}

/// The rules of [`check_place`] on the own town `t` at `town` that places a `kind`
/// (not through the capital's "anything, any number", 13.4), in its order: 14.0
/// without the capital, pillage, 13.2's enemy next to it, 13.11's capacity.
fn town_refusal(
    s: &Viktory,
    t: Town,
    town: Hex,
    kind: UnitKind,
    memo: &mut PlaceMemo,
) -> Option<PlaceRefusal> {
    use PlaceRefusal as R;
    let held = memo.held(s);
    if !held && s.rules.lost_capital == LostCapital::NoPlacement {
        return Some(R::NoPlacement);
    }
    if !held && kind != UnitKind::Infantry {
        return Some(R::CapitalLost);
    }
    if crate::rules::pillage::next_to_pillage(s, town) {
        return Some(R::Pillaged);
    }
    if s.rules.adjacent_enemy_restriction && memo.near(s, town) {
        return Some(R::EnemyAdjacent);
    }
    // 14.0: cities act as towns while the capital is lost.
    let terrain = s.terrain(town).unwrap_or(Terrain::Plains);
    let capacity = t.supports(&s.rules, terrain, held, kind);
    if placed_through(s, town, kind) >= capacity {
        return Some(R::Capacity(capacity));
    }
    None
}

/// Places the unit; a frigate meeting an enemy frigate will fight after placement (13.5).
pub fn apply_place(s: &mut Viktory, kind: UnitKind, town: Hex, to: Hex, ev: &mut Vec<Event>) {
    let seat = s.turn.active;
    let unit = put_on_map(s, seat, kind, to, ev);
    s.turn.placed.push(Placed {
        town,
        kind,
        unit: Some(unit),
    });
    if kind == UnitKind::Frigate
        && subjugation::hostile_units_at(s, to, seat)
        && let Err(i) = s.turn.placement_battles.binary_search(&to)
    {
        s.turn.placement_battles.insert(i, to);
    }
}

/// Every placement the active player may make now: exactly those [`check_place`]
/// allows, town by town (in no particular order), each town looked up once. A land unit
/// goes only to its town: through the capital anything (13.4), elsewhere what the
/// town's rules allow (14.0, pillage, 13.2, 13.11, asked as [`check_place`] asks them). A frigate's candidates (the water next to the town or
/// nearest to it) each go through all of [`check_place`]'s rules.
pub fn placements(s: &Viktory) -> Vec<(UnitKind, Hex, Hex)> {
    let seat = s.turn.active;
    // 13.2's answers as the last placements left them, while the enemies stand where
    // they stood then.
    let mut near = s.near_memo.take().unwrap_or_else(|| {
        Box::new(Near {
            seat,
            enemies: Vec::new(),
            towns: Vec::new(),
            known: None,
            water: Vec::new(),
        })
    });
    near.refresh(s, seat);
    let mut memo = PlaceMemo {
        near: std::mem::take(&mut near.towns),
        water: std::mem::take(&mut near.water),
        ..PlaceMemo::default()
    };
    let v = placements_with(s, &mut memo);
    near.towns = memo.near;
    near.water = memo.water;
    s.near_memo.put(near);
    v
}

/// [`placements`], with what `memo` holds.
fn placements_with(s: &Viktory, memo: &mut PlaceMemo) -> Vec<(UnitKind, Hex, Hex)> {
    let seat = s.turn.active;
    let reserve = s.players[seat.index()].reserve;
    let mut v = Vec::new();
    for (town, t) in s.towns().filter(|(_, t)| t.owner == seat) {
        let capital = t.capital_of == Some(seat);
        // The town's own rules, asked once for every kind (issue 28).
        let placing = TownPlacing::of(s, town, memo);
        for kind in UnitKind::ALL.into_iter().filter(|&k| reserve.get(k) > 0) {
            if kind == UnitKind::Frigate {
                let ok = FrigatePlacing::of(s, t, town, capital, &placing);
                for to in frigate_candidates(s, town, memo) {
                    if ok.allows(s, town, to, memo) {
                        v.push((kind, town, to));
                    }
                }
            } else if capital || placing.allows(s, t, town, kind) {
                v.push((kind, town, town));
            }
        }
    }
    v
}

/// [`town_refusal`]'s rules for an own town, the ones that do not depend on the kind
/// asked once: `allows(kind)` is `town_refusal(kind).is_none()`.
struct TownPlacing {
    /// Refused whatever the kind: no placement without the capital (14.0), a
    /// pillaged hex next to it, an enemy next to it (13.2).
    blocked: bool,
    /// Whether the active player holds his capital (14.0).
    held: bool,
    terrain: Terrain,
}

impl TownPlacing {
    fn of(s: &Viktory, town: Hex, memo: &mut PlaceMemo) -> TownPlacing {
        let held = memo.held(s);
        let blocked = (!held && s.rules.lost_capital == LostCapital::NoPlacement)
            || crate::rules::pillage::next_to_pillage(s, town)
            || (s.rules.adjacent_enemy_restriction && memo.near(s, town));
        TownPlacing {
            blocked,
            held,
            terrain: s.terrain(town).unwrap_or(Terrain::Plains),
        }
    }

    /// `town_refusal(s, t, town, kind, _).is_none()`.
    fn allows(&self, s: &Viktory, t: Town, town: Hex, kind: UnitKind) -> bool {
        !self.blocked
            && (self.held || kind == UnitKind::Infantry)
            && placed_through(s, town, kind) < t.supports(&s.rules, self.terrain, self.held, kind)
    }
}

/// The units of `kind` placed through `town` this turn (13.11).
fn placed_through(s: &Viktory, town: Hex, kind: UnitKind) -> usize {
    s.turn
        .placed
        .iter()
        .filter(|p| p.town == town && p.kind == kind)
        .count()
}

/// [`place_refusal`] of a frigate through an own town, the rules of the town asked once
/// for all its candidate hexes: `allows(to)` is `place_refusal(Frigate, town, to)
/// .is_none()` while a frigate is in the reserve.
struct FrigatePlacing {
    capital: bool,
    /// 15.64: the Alliance fallback hexes of the town.
    fallbacks: Vec<Hex>,
    /// [`town_refusal`] of a frigate passes.
    town_allows: bool,
}

impl FrigatePlacing {
    fn of(s: &Viktory, t: Town, town: Hex, capital: bool, placing: &TownPlacing) -> Self {
        let seat = s.turn.active;
        FrigatePlacing {
            capital,
            fallbacks: alliance_fallback_hexes(s, seat, town, capital),
            town_allows: placing.allows(s, t, town, UnitKind::Frigate),
        }
    }

    /// `place_refusal(s, Frigate, town, to, memo).is_none()`, in its order.
    fn allows(&self, s: &Viktory, town: Hex, to: Hex, memo: &mut PlaceMemo) -> bool {
        let seat = s.turn.active;
        let fallback = self.fallbacks.contains(&to);
        if fog::known_terrain(s, seat, to) != Some(Terrain::Water)
            || allied_frigates_at(s, seat, to)
            || (subjugation::hostile_units_at(s, to, seat) && !subjugation::may_attack(s, seat))
        {
            return false;
        }
        if self.capital && (to.distance(town) == 1 || fallback) {
            return true;
        }
        if self.capital
            && s.rules.capital_frigates_nearest_water
            && memo.water(s, town).contains(&to)
        {
            return true;
        }
        self.town_allows && (fallback || memo.water(s, town).contains(&to))
    }
}

/// Placements worth checking: each reserve kind through each own town, frigates to the
/// water next to it or nearest to it. [`placements`] keeps those
/// [`check_place`] allows; the legal actions' plain listing, which tests it, checks
/// these.
pub(crate) fn candidates(s: &Viktory, memo: &mut PlaceMemo) -> Vec<(UnitKind, Hex, Hex)> {
    let seat = s.turn.active;
    let reserve = s.players[seat.index()].reserve;
    let towns: Vec<Hex> = s
        .towns()
        .filter(|(_, t)| t.owner == seat)
        .map(|(h, _)| h)
        .collect();
    let mut v = Vec::new();
    for kind in UnitKind::ALL.into_iter().filter(|&k| reserve.get(k) > 0) {
        for &town in &towns {
            if kind == UnitKind::Frigate {
                let hexes = frigate_candidates(s, town, memo);
                v.extend(hexes.into_iter().map(|h| (kind, town, h)));
            } else {
                v.push((kind, town, town));
            }
        }
    }
    v
}

/// The hexes worth checking for a frigate placed through `town`, sorted: the water its
/// frigates go to (13.3), the Alliance fallbacks (15.64), and the water next to it as
/// the active player knows it.
///
/// The water next to the town as the player knows it is among [`frigate_hexes`]
/// already: they are that water, sorted, whenever there is any.
fn frigate_candidates(s: &Viktory, town: Hex, memo: &mut PlaceMemo) -> Vec<Hex> {
    let seat = s.turn.active;
    let mut hexes = memo.water(s, town).to_vec();
    let before = hexes.len();
    hexes.extend(alliance_fallback_hexes(s, seat, town, true));
    hexes.extend(alliance_fallback_hexes(s, seat, town, false));
    if hexes.len() > before {
        hexes.sort();
        hexes.dedup();
    }
    debug_assert!(hexes.is_sorted());
    debug_assert!(
        town.neighbors()
            .into_iter()
            .filter(|h| fog::known_terrain(s, seat, *h) == Some(Terrain::Water))
            .all(|h| hexes.contains(&h))
    );
    hexes
}

/// Whether any placement is possible (otherwise the phase ends by itself).
pub fn any_placement(s: &Viktory) -> bool {
    let mut memo = PlaceMemo::default();
    redeployable(s).next().is_some()
        || candidates(s, &mut memo)
            .into_iter()
            .any(|(k, t, h)| place_refusal(s, k, t, h, &mut memo).is_none())
}

/// Rule 13.5: starts the next frigate placement naval battle, if any is left. It has no
/// retreat (H-11).
pub fn start_placement_battle(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    let seat = s.turn.active;
    while let Some(hex) = s.turn.placement_battles.first().copied() {
        s.turn.placement_battles.remove(0);
        let mine = s
            .units
            .iter()
            .any(|u| u.hex == hex && u.owner == seat && u.kind == UnitKind::Frigate);
        if mine && subjugation::hostile_units_at(s, hex, seat) {
            battle::start(s, hex, seat, true, ev);
            return true;
        }
    }
    false
}

/// Whether `unit` was placed in this placement phase.
fn placed_now(s: &Viktory, unit: UnitId) -> bool {
    s.turn.placed.iter().any(|p| p.unit == Some(unit))
}

/// Expansion, Redeployment (H-20): the active player's units he may take back into
/// his reserve now: every one of his units on the map but those placed in this phase.
/// None when the rule is off. Exactly the units [`check_redeploy`] accepts (the legal
/// actions list them without asking it).
pub fn redeployable(s: &Viktory) -> impl Iterator<Item = UnitId> + '_ {
    let seat = s.turn.active;
    s.units
        .iter()
        .filter(move |u| s.rules.redeployment && u.owner == seat && !placed_now(s, u.id))
        .map(|u| u.id)
}

/// Expansion, Redeployment: may the active player take `unit` back into his reserve?
/// Not a unit he placed in this phase (H-20): it was not on the map when his turn
/// ended, and taking it back and placing it again would never end.
pub fn check_redeploy(s: &Viktory, unit: UnitId) -> Result<(), RuleError> {
    if !s.rules.redeployment {
        return refuse(
            "not_enabled",
            "Expansion",
            "redeployment is not in these rules",
        );
    }
    match s.unit(unit) {
        Some(u) if u.owner == s.turn.active => {}
        _ => {
            return refuse(
                "not_your_unit",
                "Expansion",
                format!("unit {unit} is not one of yours on the map"),
            );
        }
    }
    if placed_now(s, unit) {
        return refuse(
            "placed_this_phase",
            "H-20",
            format!(
                "unit {unit} was placed in this phase; only units already on the map may be redeployed"
            ),
        );
    }
    Ok(())
}

/// Takes the unit (and a frigate's cargo) off the map into the reserve, for placement.
pub fn apply_redeploy(s: &mut Viktory, unit: UnitId, ev: &mut Vec<Event>) {
    let seat = s.turn.active;
    let leaving: Vec<(UnitId, UnitKind, Hex)> = s
        .units
        .iter()
        .filter(|u| u.id == unit || u.aboard == Some(unit))
        .map(|u| (u.id, u.kind, u.hex))
        .collect();
    for &(id, kind, hex) in &leaving {
        s.players[seat.index()].reserve.gain(kind);
        ev.push(Event::Redeployed {
            unit: id,
            kind,
            hex,
        });
    }
    s.units.retain(|u| u.id != unit && u.aboard != Some(unit));
    // Only the hexes the units left changed (a frigate's cargo stands on its hex).
    let mut left: Vec<Hex> = leaving.iter().map(|&(.., hex)| hex).collect();
    left.dedup();
    s.refresh_occupancy_at(&left);
    if s.turn.moving == Some(unit) {
        s.turn.moving = None;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::movement::tests::{each_position, random_step};
    use crate::state::Stage;
    use engine::{Game, GameRng, ToMove};

    thread_local! {
        /// Placement listings that found 13.2's answers kept ([`NearMemo`]).
        pub(crate) static NEAR_MEMO_HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        /// Listings that kept 13.3's water from the listing before ([`Near::water`]).
        pub(crate) static WATER_MEMO_HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// `placements`, which asks the rules on a town once for every land kind, lists
    /// exactly the candidates `check_place` allows, at every placing decision of seeded
    /// random games with pillage and 13.2's adjacent-enemy restriction: as played, and
    /// with the active player's capital given to another player under each 14.0 rule
    /// (cities as towns, no placement), which random games seldom reach. Fails when
    /// the capital's "anything, any number" (13.4) is left out or given to every town,
    /// or when the 13.2 answers kept from the decision before ([`NearMemo`]) are kept
    /// where an enemy stands elsewhere now, or the water kept where the seat knows
    /// other terrain now (a revealed tile; with independent exploration, a tile it
    /// explored).
    /// (Both lists take a frigate's hexes from `frigate_candidates`, the one kept and
    /// the other worked out, so this tests the water kept, not which water the rules
    /// allow: `rule_13_3_*` do.)
    #[test]
    fn placements_are_the_candidates_check_place_allows() {
        let game = crate::rules::fog::tests::game;
        let on = ["pillage", "adjacent_enemy_restriction"];
        let games = [
            game("classic", 4, &on, 30),
            game("online", 4, &on, 30),
            game("expansion", 4, &["pillage", "subjugation"], 30),
            game("online", 3, &["dark", "independent_exploration"], 30),
        ];
        let rules = [LostCapital::CitiesAsTowns, LostCapital::NoPlacement];
        // Placements listed with the capital held, and without it.
        let mut listed = [0; 2];
        NEAR_MEMO_HITS.set(0);
        WATER_MEMO_HITS.set(0);
        each_position(&games, 3, 5, |g, seed, s| {
            let placing = matches!(
                s.turn.stage,
                Stage::Place | Stage::BuildAndPlace | Stage::SetupPlace
            );
            if placing && matches!(s.to_move(), ToMove::Seat(_)) {
                let seat = s.turn.active;
                let mut variants = vec![s.clone()];
                for rule in rules {
                    let mut v = s.clone();
                    v.rules.lost_capital = rule;
                    let other = Seat((seat.0 + 1) % v.rules.players);
                    for (_, t) in std::sync::Arc::make_mut(&mut v.towns) {
                        if t.capital_of == Some(seat) {
                            t.owner = other;
                        }
                    }
                    variants.push(v);
                }
                for (i, v) in variants.iter().enumerate() {
                    // The game's own position keeps its caches from decision to
                    // decision (a clone starts without them).
                    let mut got = placements(if i == 0 { s } else { v });
                    got.sort();
                    let mut want: Vec<_> = candidates(v, &mut PlaceMemo::default())
                        .into_iter()
                        .filter(|&(k, t, h)| check_place(v, k, t, h).is_ok())
                        .collect();
                    want.sort();
                    assert_eq!(got, want, "game {g}, seed {seed}");
                    listed[usize::from(!v.holds_capital(seat))] += got.len();
                }
            }
        });
        assert!(
            listed[0] > 1_000 && listed[1] > 1_000,
            "{listed:?} placements"
        );
        assert!(
            NEAR_MEMO_HITS.get() > 1_000 && WATER_MEMO_HITS.get() > 1_000,
            "{} listings with 13.2 kept, {} with 13.3's water",
            NEAR_MEMO_HITS.get(),
            WATER_MEMO_HITS.get()
        );
    }
    /// The water kept for a town's frigates ([`Near::water`]) is worked out again when
    /// the seat knows other terrain under the same face-up tiles: with independent
    /// exploration, when it explored other hexes. At placing decisions of seeded random
    /// games, the seat forgets the hexes it explored next to its towns between two
    /// listings. Fails when the memo's key leaves out the exploration.
    #[test]
    fn the_water_kept_follows_what_the_seat_explored() {
        let first = crate::rules::fog::tests::game("online", 3, &["independent_exploration"], 30);
        // Decisions where forgetting changed the placements listed.
        let mut changed = 0;
        for seed in 0..3 {
            let mut s = first.clone();
            let mut rng = GameRng::from_u64(seed);
            while !s.to_move().is_over() {
                let seat = s.turn.active;
                if matches!(s.turn.stage, Stage::Place | Stage::BuildAndPlace)
                    && matches!(s.to_move(), ToMove::Seat(_))
                    && s.players[seat.index()].reserve.get(UnitKind::Frigate) > 0
                {
                    // The memo filled as it was.
                    let before = placements(&s);
                    let board = s.board;
                    let towns: Vec<Hex> = (s.towns().filter(|(_, t)| t.owner == seat))
                        .map(|(h, _)| h)
                        .collect();
                    let fog = s.fog.as_mut().expect("independent exploration keeps a fog");
                    let was = fog.explored.clone();
                    for h in towns.iter().flat_map(|t| t.neighbors()) {
                        if let Some(b) = fog.explored.get_hex_mut(&board, h) {
                            *b &= !subjugation::bit(seat);
                        }
                    }
                    let mut got = placements(&s);
                    let mut want: Vec<_> = candidates(&s, &mut PlaceMemo::default())
                        .into_iter()
                        .filter(|&(k, t, h)| check_place(&s, k, t, h).is_ok())
                        .collect();
                    got.sort();
                    want.sort();
                    assert_eq!(got, want, "seed {seed}");
                    changed += usize::from(got.len() != before.len());
                    s.fog.as_mut().expect("as above").explored = was;
                }
                random_step(&mut s, &mut rng);
            }
        }
        assert!(changed > 20, "{changed} listings changed by forgetting");
    }
}
