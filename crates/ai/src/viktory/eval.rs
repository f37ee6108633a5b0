//! The VIKTORY evaluation: each seat's share of the win, from a material and position
//! count.
//!
//! Units are neither won nor lost for good in VIKTORY: a unit hit in battle goes to its
//! owner's reserve, and every player always has exactly the units his towns and cities
//! support (8.0, the unit accounting). So material is towns and cities (which is also
//! the 5.3 empire score that ends a game at the turn limit, R-19), and units are worth
//! where they stand. For each seat the evaluation adds up:
//!
//! - **towns and cities**: a town 10, a city 20 (its two supported units included), the
//!   own capital held 8 more (without it a player cannot build, 7.1, 14.0);
//! - **units**: a little for each unit on the map (more for cavalry and artillery),
//!   less for one in reserve;
//! - **garrisons**: a bonus for the first (and second) defender of a town or city,
//!   double at the capital;
//! - **threats**: for each town or city, the chance that the strongest enemy force
//!   within reach (land units two hexes away, cavalry three) takes it, by the exact
//!   battle odds ([`super::battle::attack_odds`]), times what it is worth: lost in part by its
//!   owner, gained in part by the threatening player;
//! - **battles**: a battle begun or about to be fought by the player moving counts at
//!   its odds: the town at stake changes hands with the attacker's chance of winning,
//!   and expected losses send units to the reserve;
//! - **advance**: land units outside towns lose a little per hex to the nearest enemy
//!   town or city, so idle armies march;
//! - **exploration**: revealed land hexes where the seat could build its next town
//!   (7.21: two or three hexes from its own, none adjacent to any town), up to three.
//!
//! The sums become shares: `m^k / Σ m^k` with a sharpness `k`, so that a clear lead
//! reads as a likely win. A finished game scores its outcome; an eliminated seat 0.

use std::cell::RefCell;

use engine::Seat;
use hexmap::{Board, Hex, HexagonBoard};
use viktory::state::Stage;
use viktory::{Terrain, UnitId, UnitKind, Viktory};

/// Unit kinds from the most to the least wanted in an attack (the most dice first).
const STRENGTH_ORDER: [UnitKind; 3] = [UnitKind::Cavalry, UnitKind::Artillery, UnitKind::Infantry];

use super::battle::{Asker, battle_odds, with_odds};

/// The evaluation's weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// A town.
    pub town: f64,
    /// A city.
    pub city: f64,
    /// The own capital held, on top of its town or city.
    pub capital: f64,
    /// Someone else's capital held, on top of its town or city.
    pub foreign_capital: f64,
    /// A unit on the map, by kind (infantry, cavalry, artillery, frigate).
    pub unit: [f64; 4],
    /// A unit in reserve, as a share of its worth on the map.
    pub reserve: f64,
    /// The first defender of a town or city (doubled at the capital).
    pub garrison_first: f64,
    /// The second defender.
    pub garrison_second: f64,
    /// Share of a threatened town's worth its owner loses per unit of capture chance.
    pub threat: f64,
    /// Share of it the threatening player gains.
    pub threat_gain: f64,
    /// Share of it the threatening player gains when he is moving now, instead of
    /// `threat_gain`, at the odds of the unit now moving if it can go on into the town
    /// (R-9, 9.11).
    pub threat_now: f64,
    /// Lost per hex between a land unit outside towns and the nearest enemy town.
    pub advance: f64,
    /// A place for the next town.
    pub site: f64,
    /// Sites counted at most.
    pub sites_max: usize,
    /// The exponent that turns material into win shares.
    pub sharpness: f64,
}

impl Weights {
    /// The weights the bots play with: learnt by play (SPSA, greedy bots, 2-player
    /// classic to turn 30), as written to `data/ai/viktory-weights.json` (a test keeps
    /// the two equal). First from [`Weights::HAND`] with `hexwar tune --seed 2`
    /// (2026-11-27, kept in `data/ai/viktory-weights-2026-11-27.json`: 56.8 % against
    /// the hand weights over 800 games); learnt again from those with `hexwar tune
    /// --seed 3 --start data/ai/viktory-weights-2026-11-27.json` (2026-12-07) after
    /// `threat_now` came to count only the unit now moving: greedy bots with them
    /// scored 56.8 % of 800 games against the weights before, MCTS 58.3 % of 240
    /// (docs/ai.md).
    pub const DEFAULT: Weights = Weights {
        town: 10.0,
        city: 16.634_439_760_310_79,
        capital: 6.566_246_918_586_333,
        foreign_capital: 3.015_577_327_511_935,
        unit: [
            1.122_723_988_131_082_4,
            1.662_464_417_378_832,
            1.589_680_633_098_507_4,
            1.055_710_915_214_823,
        ],
        reserve: 0.644_334_902_313_529_3,
        garrison_first: 0.540_522_805_223_238_6,
        garrison_second: 0.198_183_725_066_159_14,
        threat: 0.277_132_327_050_960_64,
        threat_gain: 0.130_987_331_112_233_54,
        threat_now: 0.749_430_273_351_541_3,
        advance: 0.031_386_753_354_756_68,
        site: 0.966_715_091_102_485_2,
        sites_max: 3,
        sharpness: 2.197_647_374_565_202,
    };

    /// The weights set by hand before any tuning: the baseline `hexwar tune` starts
    /// from and is measured against.
    pub const HAND: Weights = Weights {
        town: 10.0,
        city: 20.0,
        capital: 8.0,
        foreign_capital: 3.0,
        unit: [1.0, 1.6, 1.4, 1.2],
        reserve: 0.6,
        garrison_first: 0.6,
        garrison_second: 0.3,
        threat: 0.5,
        threat_gain: 0.25,
        threat_now: 0.5,
        advance: 0.06,
        site: 1.0,
        sites_max: 3,
        sharpness: 2.0,
    };

    /// The names of the weights, in [`Weights::values`]' order (the field names).
    pub const NAMES: [&'static str; 18] = [
        "town",
        "city",
        "capital",
        "foreign_capital",
        "unit_infantry",
        "unit_cavalry",
        "unit_artillery",
        "unit_frigate",
        "reserve",
        "garrison_first",
        "garrison_second",
        "threat",
        "threat_gain",
        "threat_now",
        "advance",
        "site",
        "sites_max",
        "sharpness",
    ];

    /// The weights as numbers, in [`Weights::NAMES`]' order.
    pub fn values(&self) -> [f64; 18] {
        let [inf, cav, art, fri] = self.unit;
        [
            self.town,
            self.city,
            self.capital,
            self.foreign_capital,
            inf,
            cav,
            art,
            fri,
            self.reserve,
            self.garrison_first,
            self.garrison_second,
            self.threat,
            self.threat_gain,
            self.threat_now,
            self.advance,
            self.site,
            self.sites_max as f64,
            self.sharpness,
        ]
    }

    /// The weights from numbers in [`Weights::NAMES`]' order; `None` unless there are
    /// exactly that many, all finite and none negative. `sites_max` is rounded.
    pub fn from_values(v: &[f64]) -> Option<Weights> {
        let v: &[f64; 18] = v.try_into().ok()?;
        if v.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return None;
        }
        Some(Weights {
            town: v[0],
            city: v[1],
            capital: v[2],
            foreign_capital: v[3],
            unit: [v[4], v[5], v[6], v[7]],
            reserve: v[8],
            garrison_first: v[9],
            garrison_second: v[10],
            threat: v[11],
            threat_gain: v[12],
            threat_now: v[13],
            advance: v[14],
            site: v[15],
            sites_max: v[16].round().min(64.0) as usize,
            sharpness: v[17],
        })
    }
}

/// Each seat's share of the win (index = seat), summing to 1.
pub fn evaluate(s: &Viktory, w: &Weights) -> Vec<f64> {
    let n = usize::from(s.rules().players);
    if let Some(o) = s.outcome() {
        let mut r = vec![0.0; n];
        let share = 1.0 / o.winners.len().max(1) as f64;
        for x in &o.winners {
            if let Some(v) = r.get_mut(x.index()) {
                *v = share;
            }
        }
        if o.winners.is_empty() {
            r.fill(1.0 / n as f64);
        }
        return r;
    }
    let m = material(s, w);
    let alive: Vec<bool> = (0..n)
        .map(|p| !s.player(Seat(p as u8)).eliminated)
        .collect();
    let powered: Vec<f64> = m
        .iter()
        .zip(&alive)
        .map(|(&x, &live)| {
            if live {
                x.max(0.5).powf(w.sharpness)
            } else {
                0.0
            }
        })
        .collect();
    let total: f64 = powered.iter().sum();
    if total <= 0.0 {
        return vec![1.0 / n as f64; n];
    }
    powered.into_iter().map(|x| x / total).collect()
}

/// What a town or city is worth to a seat holding it.
fn town_worth(t: viktory::state::Town, w: &Weights) -> f64 {
    let base = match (t.city, t.metropolis) {
        (true, Some(_)) => w.city * 1.5,
        (true, None) => w.city,
        _ => w.town,
    };
    base + match t.capital_of {
        Some(c) if c == t.owner => w.capital,
        Some(_) => w.foreign_capital,
        None => 0.0,
    }
}

/// The raw material and position count per seat.
pub fn material(s: &Viktory, w: &Weights) -> Vec<f64> {
    let mut m = vec![0.0f64; usize::from(s.rules().players)];
    let towns: Vec<(Hex, viktory::state::Town)> = s.towns().collect();
    let mut contested: Vec<Hex> = s.turn().pending_battles.clone();
    if let Some(b) = s.battle()
        && !b.naval
        && b.step != viktory::state::BattleStep::Retreating
    {
        contested.push(b.hex);
    }
    add_holdings(s, &towns, w, &mut m);
    with_odds(s, |asker| {
        add_garrisons_and_threats(s, asker, &towns, &contested, w, &mut m);
        add_battles(s, asker, &contested, w, &mut m);
    });
    add_advance(s, &towns, w, &mut m);
    if s.turn().stage != Stage::Opening && !towns.is_empty() {
        add_sites(s, &towns, w, &mut m);
    }
    m
}

/// Towns and cities, units on the map and in reserve.
fn add_holdings(s: &Viktory, towns: &[(Hex, viktory::state::Town)], w: &Weights, m: &mut [f64]) {
    for &(_, t) in towns {
        m[t.owner.index()] += town_worth(t, w);
    }
    for u in s.units() {
        m[u.owner.index()] += w.unit[u.kind.index()];
    }
    for (p, sum) in m.iter_mut().enumerate() {
        let r = s.player(Seat(p as u8)).reserve;
        for k in UnitKind::ALL {
            *sum += f64::from(r.get(k)) * w.unit[k.index()] * w.reserve;
        }
    }
}

/// The defenders of each town or city, and the strongest enemy force that threatens
/// one not already fought over (`contested`).
#[allow(clippy::many_single_char_names)] // s, w, m, n, p, o, e: the state, weights, sums and seats
fn add_garrisons_and_threats(
    s: &Viktory,
    asker: &mut Asker<'_, '_>,
    towns: &[(Hex, viktory::state::Town)],
    contested: &[Hex],
    w: &Weights,
    m: &mut [f64],
) {
    let n = m.len();
    let active = s.turn().active;
    // Land units that can threaten a town (not aboard), the strongest kinds first: each
    // enemy's force within reach of a town keeps this order.
    let mut strikers: Vec<(u32, Seat, UnitKind, UnitId, Hex)> = s
        .units()
        .iter()
        .filter(|u| u.kind.is_land() && u.aboard.is_none() && u.owner.index() < 8)
        .map(|u| {
            // Its place in STRENGTH_ORDER, then its id, in one number to sort by.
            let rank = STRENGTH_ORDER
                .iter()
                .position(|&k| k == u.kind)
                .map_or(0, |i| i as u32 + 1);
            (rank << 16 | u32::from(u.id.0), u.owner, u.kind, u.id, u.hex)
        })
        .collect();
    // Unit ids are unique, so the unstable sort gives the one order.
    strikers.sort_unstable_by_key(|&(order, ..)| order);
    // Each town's defenders (its owner's land units there, not aboard), counted in one
    // pass over the units rather than a pass per town.
    let mut defenders = vec![0usize; towns.len()];
    for u in s.units() {
        if u.kind.is_land()
            && u.aboard.is_none()
            && s.town(u.hex).is_some_and(|t| t.owner == u.owner)
            && let Some(k) = towns.iter().position(|(h, _)| *h == u.hex)
        {
            defenders[k] += 1;
        }
    }
    let mut forces: [Vec<UnitId>; 8] = Default::default();
    for (&(hex, t), &defenders) in towns.iter().zip(&defenders) {
        let o = t.owner;
        let capital = if t.capital_of == Some(o) { 2.0 } else { 1.0 };
        if defenders >= 1 {
            m[o.index()] += w.garrison_first * capital;
        }
        if defenders >= 2 {
            m[o.index()] += w.garrison_second * capital;
        }
        if contested.contains(&hex) {
            continue;
        }
        // Each enemy's units within reach (land units two hexes, cavalry three).
        forces.iter_mut().for_each(Vec::clear);
        for &(_, owner, kind, id, at) in &strikers {
            if owner == o {
                continue;
            }
            let reach = if kind == UnitKind::Cavalry { 3 } else { 2 };
            let d = at.distance(hex);
            if d >= 1 && d <= reach {
                forces[owner.index()].push(id);
            }
        }
        let mut worst: Option<(usize, f64)> = None;
        for (e, ids) in forces.iter().enumerate().take(n) {
            if ids.is_empty() {
                continue;
            }
            let Some(odds) = asker.attack_odds(hex, ids) else {
                continue;
            };
            let p = odds.attacker_wins;
            if worst.is_none_or(|(_, q)| p > q) {
                worst = Some((e, p));
            }
        }
        if let Some((e, p)) = worst {
            let worth = town_worth(t, w);
            m[o.index()] -= worth * p * w.threat;
            m[e] += worth * p * w.threat_gain;
            // The player moving can strike now: with the unit now moving, if it can
            // go on into the town, and at the start of a turn that begins with movement
            // with every unit that can get there. Not with the units yet to move once one
            // is moving: counting them for as long as the phase lasted made ending it
            // cost up to a town's worth, which idle moves kept, so the bots spent every
            // movement point going out and back before they ended the phase. Once one
            // unit moves, the others' share is gone whatever it does.
            if Seat(e as u8) == active && s.turn().stage == Stage::Move {
                let now = strike_now_odds(s, asker, hex, &forces[e], p);
                m[e] += worth * now * (w.threat_now - w.threat_gain);
            }
        }
    }
}

/// Rule 9.0: the odds of the units of `force` (the moving player's units within
/// reach of the town at `hex`, `odds` their odds together) that can strike it in this
/// movement phase, each with the movement points to go on into the town (9.11), not
/// done and not having attacked (10.6): the unit now moving alone, if it is one of them;
/// under the Expansion's reordered turn (movement first), before any unit has moved,
/// every such unit of the force. 0 if none can.
///
/// A turn that begins with movement begins where the search's tree ends (the root
/// player's next turn): counting no unit there, as none was moving, made `normal` lose
/// to `easy` on the `expansion` and `online` presets (docs/ai.md, "Strike now at the
/// turn's start"). On classic the movement phase follows building, and counting every
/// unit at its start made greedy go out and back more (1.65 round trips a phase
/// against 0.72), so there the unit moving alone counts, as before.
fn strike_now_odds(
    s: &Viktory,
    asker: &mut Asker<'_, '_>,
    hex: Hex,
    force: &[UnitId],
    odds: f64,
) -> f64 {
    let can_strike = |id: UnitId| {
        s.unit(id).is_some_and(|u| {
            !u.done && !u.attacked && u.mp > 0 && u.hex.distance(hex) <= u32::from(u.mp)
        })
    };
    // The whole force's odds are known; a part's are asked.
    let mut odds_of = |strikers: &[UnitId]| {
        if strikers.len() == force.len() {
            odds
        } else {
            (asker.attack_odds(hex, strikers)).map_or(0.0, |o| o.attacker_wins)
        }
    };
    match s.turn().moving {
        Some(id) if force.contains(&id) && can_strike(id) => odds_of(&[id]),
        None if s.rules().build_after_moving && s.turn().battle_hexes.is_empty() => {
            let free: Vec<UnitId> = force.iter().copied().filter(|&id| can_strike(id)).collect();
            if free.is_empty() { 0.0 } else { odds_of(&free) }
        }
        Some(_) | None => 0.0,
    }
}

/// Battles begun or due (`contested`), at their odds.
fn add_battles(
    s: &Viktory,
    asker: &mut Asker<'_, '_>,
    contested: &[Hex],
    w: &Weights,
    m: &mut [f64],
) {
    let active = s.turn().active;
    for &hex in contested {
        let attacker = s
            .battle()
            .filter(|b| b.hex == hex)
            .map_or(active, |b| b.attacker);
        let odds = if s.battle().is_some_and(|b| b.hex == hex) {
            battle_odds(s, hex)
        } else {
            // Before the battle starts, units that can still join it this turn count
            // too: the first unit in is valued by the attack it begins.
            let mut joining: Vec<UnitId> = s
                .units_at(hex)
                .filter(|u| u.owner == attacker && u.aboard.is_none())
                .map(|u| u.id)
                .collect();
            let land = s.terrain(hex).is_some_and(Terrain::is_land);
            joining.extend(
                s.units()
                    .iter()
                    .filter(|u| {
                        land && u.owner == attacker
                            && u.kind.is_land()
                            && u.aboard.is_none()
                            && !u.done
                            && !u.attacked
                            && u.mp > 0
                            && u.hex != hex
                            && u.hex.distance(hex) <= u32::from(u.mp)
                    })
                    .map(|u| u.id),
            );
            asker.attack_odds(hex, &joining)
        };
        let Some(odds) = odds else {
            continue;
        };
        let defender = s
            .units_at(hex)
            .find(|u| u.owner != attacker && u.aboard.is_none())
            .map(|u| u.owner)
            .or_else(|| s.town(hex).map(|t| t.owner));
        let Some(defender) = defender.filter(|&d| d != attacker) else {
            continue;
        };
        let unit_loss = w.unit[0] * (1.0 - w.reserve);
        m[attacker.index()] -= odds.expected_attacker_losses * unit_loss;
        m[defender.index()] -= odds.expected_defender_losses * unit_loss;
        if let Some(t) = s.town(hex).filter(|t| t.owner == defender) {
            let stake = town_worth(t, w) * odds.attacker_wins;
            m[defender.index()] -= stake;
            m[attacker.index()] += stake;
        }
    }
}

/// Land units outside their own towns, by the hexes to the nearest enemy town or city.
fn add_advance(s: &Viktory, towns: &[(Hex, viktory::state::Town)], w: &Weights, m: &mut [f64]) {
    for u in s.units() {
        if !u.kind.is_land() {
            continue;
        }
        let mut nearest = u32::MAX;
        let mut home = false;
        for (h, t) in towns {
            if t.owner == u.owner {
                home |= *h == u.hex;
            } else {
                nearest = nearest.min(h.distance(u.hex));
            }
        }
        if !home && nearest != u32::MAX {
            m[u.owner.index()] -= w.advance * f64::from(nearest.min(10));
        }
    }
}

/// The hexes within three of a town, as offsets, and whether they are next to it.
static OFFSETS: std::sync::LazyLock<Vec<(Hex, bool)>> = std::sync::LazyLock::new(|| {
    Hex::ORIGIN
        .range(3)
        .into_iter()
        .map(|d| (d, d.distance(Hex::ORIGIN) <= 1))
        .collect()
});

/// Rule 7.21 (as an estimate: distance only, no path): each seat's revealed land hexes
/// two or three hexes from one of its towns and not next to any town, up to the cap.
///
/// Where such hexes can be depends only on the board and the towns, which rarely
/// change between the positions a search evaluates: the hexes are worked out again only
/// when those differ from the last call's on this thread ([`SiteMemo`]); whether each
/// is revealed land is asked every time (a search's determinizations differ in the
/// hidden tiles).
fn add_sites(s: &Viktory, towns: &[(Hex, viktory::state::Town)], w: &Weights, m: &mut [f64]) {
    SITES.with(|memo| {
        let mut memo = memo.borrow_mut();
        let board = s.board();
        let same = memo.board == Some(board)
            && memo.towns.len() == towns.len()
            && memo
                .towns
                .iter()
                .zip(towns)
                .all(|(&(h, o), (hex, t))| h == *hex && o == t.owner);
        if !same {
            memo.board = Some(board);
            memo.towns.clear();
            memo.towns.extend(towns.iter().map(|(h, t)| (*h, t.owner)));
            site_cells(board, towns, &mut memo.cells);
        }
        let mut count = [0usize; 8];
        for &(hex, bits) in &memo.cells {
            if !s.terrain(hex).is_some_and(Terrain::is_land) {
                continue;
            }
            for (p, c) in count.iter_mut().enumerate() {
                if bits & (1u16 << p) != 0 {
                    *c += 1;
                }
            }
        }
        for (sum, c) in m.iter_mut().zip(count) {
            *sum += w.site * c.min(w.sites_max) as f64;
        }
    });
}

/// The towns the site hexes of [`add_sites`] were last worked out for, on this thread,
/// and those hexes.
#[derive(Default)]
struct SiteMemo {
    board: Option<HexagonBoard>,
    towns: Vec<(Hex, Seat)>,
    /// The hexes of the board, off its edge, next to no town and two or three hexes
    /// from some town, each with bit `k` set when seat `k` has a town two or three away.
    cells: Vec<(Hex, u16)>,
}

thread_local! {
    static SITES: RefCell<SiteMemo> = RefCell::default();
}

/// The site hexes of `towns` on `board` (see [`SiteMemo::cells`]) into `cells`.
///
/// The marks live in a square of axial coordinates padded by three hexes around the
/// board, so a town's offsets are fixed index steps with no bounds to check, and only
/// the hexes some town marked are looked at again.
fn site_cells(
    board: HexagonBoard,
    towns: &[(Hex, viktory::state::Town)],
    cells: &mut Vec<(Hex, u16)>,
) {
    const PAD: i32 = 3;
    cells.clear();
    let reach = i32::try_from(board.radius()).unwrap_or(i32::MAX / 4) + PAD;
    let side = 2 * reach + 1;
    let at = |h: Hex| usize::try_from((h.q + reach) + (h.r + reach) * side).ok();
    let steps: Vec<(isize, bool)> = OFFSETS
        .iter()
        .map(|&(d, near)| ((d.q + d.r * side) as isize, near))
        .collect();
    // Per hex: bit 15 = a town within one hex; bit k = seat k has a town 2–3 away.
    let mut marks = vec![0u16; usize::try_from(side * side).unwrap_or(0)];
    let mut touched: Vec<usize> = Vec::with_capacity(towns.len() * steps.len());
    for (hex, t) in towns {
        let Some(base) = at(*hex) else { continue };
        let bit = 1u16 << t.owner.0.min(14);
        for &(step, near) in &steps {
            let i = base.wrapping_add_signed(step);
            let Some(cell) = marks.get_mut(i) else {
                continue;
            };
            if *cell == 0 {
                touched.push(i);
            }
            *cell |= if near { 0x8000 } else { bit };
        }
    }
    for i in touched {
        let bits = marks[i];
        if bits & 0x8000 != 0 {
            continue;
        }
        let i = i32::try_from(i).unwrap_or(0);
        let hex = Hex::new(i % side - reach, i / side - reach);
        if board.contains(hex) && !board.is_perimeter(hex) {
            cells.push((hex, bits));
        }
    }
}
