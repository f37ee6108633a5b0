//! The A Victory Lost evaluation: each side's share of the win, from a count of victory
//! points and what the position promises, in victory-point equivalents ("VP-eq").
//!
//! The game is won on victory points (14.0): 5 per Victory City held, and points for
//! eliminated enemy units (3 per German mechanized unit, 1 per other German unit, 1 per
//! Soviet mechanized unit; 5 per German mechanized unit with the 15.0.1 option); a lead
//! of the scenario's margin (30) at the end of a turn wins at once (14.0.2); otherwise
//! the most VPs after the last turn wins, counting units out of supply or isolated then
//! as eliminated (14.0.1). For each side the evaluation adds up ([`Terms`]):
//!
//! - **vp**: its victory points now (14.0.1).
//! - **material**: its combat units' worth: the mean of attack and defense strength
//!   (2.2.2; after step losses, 2.2.3) times a weight that falls from the first turn to
//!   the last, since units win nothing by themselves at the end. A unit with an Out of
//!   Supply marker keeps 85 % (10.2.2: attack halved), an isolated one 60 % (10.2.3:
//!   everything halved); one that cannot trace a supply line now (10.1.2, traced as the
//!   rules do) loses a further quarter, since it will be marked at the next Supply
//!   Phase; one outside the Command Range of every friendly HQ it can obey (7.3.3,
//!   7.3.5; as hex distance) loses 15 %, since nothing can activate it. Units still to
//!   arrive (11.0) or in a reinforcement box (11.2) count 85 %.
//! - **end**: on the last turn, the VPs it gets for enemy units that will count as
//!   eliminated (14.0.1): those marked after the Supply Phase, or before it those that
//!   cannot trace a supply line (at 80 %); on earlier turns the same at 80 % divided by
//!   the square of the turns left plus one.
//! - **threats**: for each hex of its combat units next to enemy combat units (not
//!   across impassable hexsides, 9.1.6), the enemy's expected gain from attacking it
//!   with all of them, by the real odds (9.3: rivers, supply, isolation, terrain shifts;
//!   [`avl::rules::combat::odds`]) averaged over the six die rolls of the CRT (9.4;
//!   [`super::combat::expected_gain`]): steps lost (each step costs what the owner
//!   loses: the worth given up by flipping or eliminating the unit, plus the VPs an
//!   elimination gives the enemy), 0.3 per hex of retreat, and a Victory City's VPs if
//!   the hex empties. It is subtracted at 30 %, or at 70 % when the enemy is the active
//!   player now and the units that can still attack this Combat Segment are activated
//!   (7.3.2, 9.1.1, 9.1.4). Attacks the enemy would lose on are not counted. The
//!   enemy units two hexes off can close in at his next activation (8.1): an attack by
//!   them and the adjacent ones together counts at 20 % if that is more, so units are
//!   not left where the enemy can mass against them, nor only where he already has.
//! - **battle**: the combat being declared counts for the active player at its full
//!   expected gain, with the activated units next to the target that have not attacked
//!   yet counted as joining it (so the first unit named is valued by the attack it
//!   opens). A declared attack that cannot be resolved even with them (9.3.4), or that
//!   the attacker expects to lose on, scores the active player a certain loss: ending
//!   the segment is always open instead, and a one-ply bot must not declare it only to
//!   withdraw it (H-108) over and over (the bots never withdraw an attack, see
//!   [`crate::AiGame::is_retraction`]). Once the die is rolled, what the result still
//!   has to do counts as done: steps to lose (cheapest first, 9.4.2), the defenders'
//!   retreat (9.5), the advance into an emptied Victory City (9.6, H-106).
//! - **cities**: a Victory City the side holds without a combat unit in it loses 70 %
//!   of its VPs times 0.5 if an enemy combat unit is adjacent, 50 % at two hexes, 25 % at
//!   three or four, 10 % at five or six; half that if a friendly unit is nearer than the
//!   enemy (14.0.1, H-106: control passes when an enemy combat unit enters). An empty
//!   one on the enemy's railroad net loses 90 % of its VPs while the enemy still has
//!   pieces to place this turn (11.1.1: they can be railed in), and at least 50 % when
//!   the enemy has pieces arriving next turn and the net reaches it then (through the
//!   Stalingrad Pocket once it opens, 13.0).
//! - **command**: 1.5 off for each HQ on the map with no unit within its Command Range
//!   (11.3, 12.6: it will leave the game with its chit), 0.4 for a HQ alone in an enemy
//!   ZOC (12.1: it may be overrun); and for each Command Chit the side holds, 0.02 per
//!   combat unit its HQ would activate now (STAVKA: every Soviet HQ's, 7.2.2; Manstein:
//!   the best Axis HQ's), 0.03 more when it was selected for this turn (in the cup or
//!   played, 7.1.2). This is what makes the chit choice (3.0) and the selection (7.1.2)
//!   prefer the HQs that command the most units.
//! - **area**: 8 times the share of the map's land hexes from which it can trace a
//!   supply line: lines of units and their ZOCs (6.0, 10.1.2) push the enemy's supply
//!   area back, and a pocket shrinks it.
//! - **advance**: −0.02 per hex (at most 12) between each of its combat units and the
//!   nearest enemy combat unit or enemy-held Victory City, so idle units march.
//!
//! The balance `d` (Axis total − Soviet total) becomes the Axis share
//! `1 / (1 + e^(−d/σ))`, with σ from 60 % of the sudden death margin on the first turn
//! down to 25 % on the last (a lead is surer late). Within 5 VPs of the margin, each
//! VP of lead counts double (sudden death, 14.0.2). A finished game scores its outcome.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::rc::Rc;

use avl::rules::{combat as rules_combat, victory};
use avl::state::BattleStage;
use avl::{Avl, Chit, Location, Nationality, Phase, PieceId, Side, Supply};
use foldhash::fast::FixedState;
use hexmap::{Board, Hex};

use super::combat::{Stakes, expected_gain};
use super::snapshot::{OnMap, Snapshot};
use super::topology::{self, IMPASSABLE, NONE, Topology, piece_bit, zoc_bit};

/// The evaluation's weights (VP-equivalents unless said otherwise).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Worth of one strength point on the map on the first turn …
    pub strength_start: f64,
    /// … and on the last.
    pub strength_end: f64,
    /// Share of its worth a unit still to arrive or in a box keeps.
    pub reinforcement: f64,
    /// Share a unit with an Out of Supply marker keeps (10.2.2).
    pub out_of_supply: f64,
    /// Share an isolated unit keeps (10.2.3).
    pub isolated: f64,
    /// Share a unit that cannot trace a supply line now loses (10.1.2).
    pub cut_off: f64,
    /// Share of its elimination VPs a unit cut off on the last turn gives (14.0.1).
    pub cut_off_end: f64,
    /// Share of an enemy attack's expected gain counted as a threat …
    pub threat: f64,
    /// … and when the enemy can make it in his current activation.
    pub threat_now: f64,
    /// Share of the expected gain of an attack by the enemy units next to a hex and two
    /// hexes from it (those that can close in at his next activation).
    pub threat_near: f64,
    /// Lost per hex of retreat (9.5).
    pub retreat: f64,
    /// Share of a Victory City's VPs at stake when it is empty and threatened.
    pub city_threat: f64,
    /// Share of a Victory City's VPs at stake when it is empty, on the enemy's railroad
    /// net, and the enemy still has reinforcements to place this turn (11.1.1).
    pub rail_threat: f64,
    /// The same when the enemy's reinforcements come next turn (11.0, 13.0).
    pub rail_threat_next: f64,
    /// Share of its worth a unit out of every HQ's Command Range loses (7.3.3).
    pub uncommanded: f64,
    /// A HQ with no unit in its Command Range (11.3).
    pub hq_orphan: f64,
    /// A HQ alone in an enemy ZOC (12.1).
    pub hq_exposed: f64,
    /// Per combat unit the HQ of a chit the side holds would activate (7.2).
    pub chit_held: f64,
    /// More per unit when the chit was selected for this turn (7.1.2).
    pub chit_selected: f64,
    /// The whole map's land traced for supply (10.1.2).
    pub area: f64,
    /// Per hex between a combat unit and its nearest objective.
    pub advance: f64,
    /// Hexes counted at most for `advance`.
    pub advance_cap: u32,
    /// σ of the win share on the first turn, as a share of the sudden death margin.
    pub scale_start: f64,
    /// σ on the last turn.
    pub scale_end: f64,
    /// Extra weight per VP of lead within 5 VPs of the sudden death margin (14.0.2).
    pub sudden_death: f64,
}

impl Weights {
    /// The weights the bots play with: the hand weights. Weights learnt by
    /// `hexwar tune --game avl --preset demo` won 61.6 % against them on the test
    /// scenario but 47.1 % on the campaign (docs/ai.md), so they were not taken.
    pub const DEFAULT: Weights = Weights::HAND;

    /// The weights set by hand (see `docs/ai.md`): the baseline `hexwar tune --game avl`
    /// starts from and is measured against.
    pub const HAND: Weights = Weights {
        strength_start: 0.4,
        strength_end: 0.1,
        reinforcement: 0.85,
        out_of_supply: 0.85,
        isolated: 0.6,
        cut_off: 0.25,
        cut_off_end: 0.8,
        threat: 0.3,
        threat_now: 0.7,
        threat_near: 0.2,
        retreat: 0.3,
        city_threat: 0.5,
        rail_threat: 0.9,
        rail_threat_next: 0.5,
        uncommanded: 0.15,
        hq_orphan: 1.5,
        hq_exposed: 0.4,
        chit_held: 0.02,
        chit_selected: 0.03,
        area: 8.0,
        advance: 0.02,
        advance_cap: 12,
        scale_start: 0.6,
        scale_end: 0.25,
        sudden_death: 1.0,
    };

    /// The names of the weights, in [`Weights::values`]' order (the field names).
    pub const NAMES: [&'static str; 25] = [
        "strength_start",
        "strength_end",
        "reinforcement",
        "out_of_supply",
        "isolated",
        "cut_off",
        "cut_off_end",
        "threat",
        "threat_now",
        "threat_near",
        "retreat",
        "city_threat",
        "rail_threat",
        "rail_threat_next",
        "uncommanded",
        "hq_orphan",
        "hq_exposed",
        "chit_held",
        "chit_selected",
        "area",
        "advance",
        "advance_cap",
        "scale_start",
        "scale_end",
        "sudden_death",
    ];

    /// The weights `hexwar tune` keeps as they are: `advance_cap` is a count, and the
    /// two σ only turn the balance into a share, which a greedy bot's choice does not
    /// depend on (it takes the best balance).
    pub const FIXED: [&'static str; 3] = ["advance_cap", "scale_start", "scale_end"];

    /// The weights as numbers, in [`Weights::NAMES`]' order.
    pub fn values(&self) -> [f64; 25] {
        [
            self.strength_start,
            self.strength_end,
            self.reinforcement,
            self.out_of_supply,
            self.isolated,
            self.cut_off,
            self.cut_off_end,
            self.threat,
            self.threat_now,
            self.threat_near,
            self.retreat,
            self.city_threat,
            self.rail_threat,
            self.rail_threat_next,
            self.uncommanded,
            self.hq_orphan,
            self.hq_exposed,
            self.chit_held,
            self.chit_selected,
            self.area,
            self.advance,
            f64::from(self.advance_cap),
            self.scale_start,
            self.scale_end,
            self.sudden_death,
        ]
    }

    /// The weights from numbers in [`Weights::NAMES`]' order; `None` unless there are
    /// exactly that many, all finite and none negative. `advance_cap` is rounded (at
    /// most 64 hexes).
    pub fn from_values(v: &[f64]) -> Option<Weights> {
        let v: &[f64; 25] = v.try_into().ok()?;
        if v.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return None;
        }
        Some(Weights {
            strength_start: v[0],
            strength_end: v[1],
            reinforcement: v[2],
            out_of_supply: v[3],
            isolated: v[4],
            cut_off: v[5],
            cut_off_end: v[6],
            threat: v[7],
            threat_now: v[8],
            threat_near: v[9],
            retreat: v[10],
            city_threat: v[11],
            rail_threat: v[12],
            rail_threat_next: v[13],
            uncommanded: v[14],
            hq_orphan: v[15],
            hq_exposed: v[16],
            chit_held: v[17],
            chit_selected: v[18],
            area: v[19],
            advance: v[20],
            advance_cap: v[21].round().min(64.0) as u32,
            scale_start: v[22],
            scale_end: v[23],
            sudden_death: v[24],
        })
    }
}

/// The evaluation's parts per side (index: [`Side::index`]), each in VP-equivalents,
/// higher better for that side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Terms {
    /// Victory points now (14.0.1).
    pub vp: [f64; 2],
    /// Combat units' worth (2.2, 10.2, 7.3).
    pub material: [f64; 2],
    /// VPs for enemy units that will count as eliminated at the end (14.0.1).
    pub end: [f64; 2],
    /// Expected losses to enemy attacks (negative, 9.3–9.4).
    pub threats: [f64; 2],
    /// The combat being fought (9.2–9.4).
    pub battle: [f64; 2],
    /// Empty Victory Cities at risk (negative, 14.0.1).
    pub cities: [f64; 2],
    /// HQs and chits (7.0, 11.3, 12.1).
    pub command: [f64; 2],
    /// Land traced for supply (10.1.2).
    pub area: [f64; 2],
    /// Distance to the enemy (negative).
    pub advance: [f64; 2],
}

impl Terms {
    /// One side's total.
    pub fn total(&self, side: Side) -> f64 {
        let i = side.index();
        self.vp[i]
            + self.material[i]
            + self.end[i]
            + self.threats[i]
            + self.battle[i]
            + self.cities[i]
            + self.command[i]
            + self.area[i]
            + self.advance[i]
    }

    /// Axis total minus Soviet total.
    pub fn balance(&self) -> f64 {
        self.total(Side::Axis) - self.total(Side::Soviet)
    }
}

/// Each seat's share of the win (Axis, Soviet), summing to 1.
pub fn evaluate(s: &Avl, w: &Weights) -> Vec<f64> {
    if let Some(r) = &s.position().result {
        return match r.winner {
            Some(Side::Axis) => vec![1.0, 0.0],
            Some(Side::Soviet) => vec![0.0, 1.0],
            None => vec![0.5, 0.5],
        };
    }
    let parts = terms(s, w);
    let margin = f64::from(s.rules().scenario.sudden_death_margin.max(1));
    let lead = parts.vp[0] - parts.vp[1];
    let near = (lead.abs() - (margin - 5.0)).clamp(0.0, 10.0);
    let balance = parts.balance() + lead.signum() * w.sudden_death * near;
    let frac = turns_left_share(s);
    let sigma = margin * (w.scale_end + (w.scale_start - w.scale_end) * frac);
    let p = 1.0 / (1.0 + (-balance / sigma.max(1e-6)).exp());
    vec![p, 1.0 - p]
}

/// The share of the game still to play: 1 on the first turn, 0 on the last.
fn turns_left_share(s: &Avl) -> f64 {
    let turns = s.rules().scenario.turns.max(1);
    let left = turns.saturating_sub(s.turn().0);
    f64::from(left) / f64::from(turns.saturating_sub(1).max(1))
}

/// The worth of one strength point now: from `strength_start` on the first turn to
/// `strength_end` on the last.
fn strength_weight(s: &Avl, w: &Weights) -> f64 {
    w.strength_end + (w.strength_start - w.strength_end) * turns_left_share(s)
}

/// The mean of attack and defense strength, current side (2.2.2, 2.2.3).
fn strength(s: &Avl, p: PieceId) -> f64 {
    let st = s.strengths(p);
    f64::from(st.attack.0 + st.defense.0) / 2.0
}

/// Rule 14.0.1: the VPs the enemy gets when this combat unit is eliminated.
pub fn elimination_vp(s: &Avl, p: PieceId) -> f64 {
    let v = &s.rules().scenario.victory;
    let mech = s.mechanized(p);
    f64::from(match s.nationality(p) {
        Nationality::German if mech && s.options().german_mech_5vp => {
            v.german_mechanized_soviet_help
        }
        Nationality::German if mech => v.german_mechanized,
        Nationality::German => v.german_other,
        Nationality::Soviet if mech => v.soviet_mechanized,
        _ => 0,
    })
}

/// Rule 9.4.2: what each step of the unit costs its owner: flipping it (the strength
/// it loses), then eliminating it (what is left, and the enemy's VPs).
fn push_steps(s: &Avl, p: PieceId, point: f64, out: &mut Vec<f64>) {
    let elim = elimination_vp(s, p);
    let now = point * strength(s, p);
    match (s.steps(p), s.unit_info(p).and_then(|u| u.reduced)) {
        (2, Some(r)) => {
            let reduced = point * f64::from(r.attack.0 + r.defense.0) / 2.0;
            out.push((now - reduced).max(0.0));
            out.push(reduced + elim);
        }
        _ => out.push(now + elim),
    }
}

/// The steps of these units, cheapest first.
fn step_costs(s: &Avl, units: impl Iterator<Item = PieceId>, point: f64) -> Vec<f64> {
    let mut out = Vec::new();
    for p in units {
        push_steps(s, p, point, &mut out);
    }
    out.sort_by(f64::total_cmp);
    out
}

/// The evaluation's parts.
pub fn terms(s: &Avl, w: &Weights) -> Terms {
    let snap = Snapshot::of(s);
    let mut t = Terms::default();
    let vp = victory::vp(s, false);
    t.vp = [f64::from(vp[0]), f64::from(vp[1])];
    let point = strength_weight(s, w);
    let commanded = command(s, &snap, w, &mut t);
    material(s, &snap, w, point, &commanded, &mut t);
    threats(s, &snap, w, point, &mut t);
    battle(s, &snap, w, point, &mut t);
    // Each side's combat units, by column: the nearest of them to a city and to a unit.
    let units = Side::BOTH.map(|side| Nearest::new(combat_hexes(&snap, |s| s == side)));
    cities(s, &snap, w, &units, &mut t);
    let land = snap.topo.land_count.max(1) as f64;
    for side in Side::BOTH {
        t.area[side.index()] = w.area * snap.traced_count[side.index()] as f64 / land;
    }
    advance(s, &snap, w, &units, &mut t);
    t
}

/// A HQ on the map, with the combat units within its Command Range.
struct HqReach {
    piece: OnMap,
    range: u32,
    nationality: Nationality,
    units: u32,
}

/// Whether a HQ of `hq` nationality activates a unit of `unit` nationality (7.3.5).
fn obeys(hq: Nationality, unit: Nationality) -> bool {
    hq.side() == unit.side() && hq.compatible(unit)
}

/// Rules 7.0, 11.3, 12.1: HQs, their reach, the chits; returns, per piece id, whether
/// a HQ it obeys has it in Command Range (7.3.5).
fn command(s: &Avl, snap: &Snapshot, w: &Weights, t: &mut Terms) -> Vec<bool> {
    let topo = &snap.topo;
    let mut hqs: Vec<HqReach> = snap
        .pieces
        .iter()
        .filter(|p| p.hq)
        .filter_map(|p| {
            s.hq_info(p.id).map(|h| HqReach {
                piece: *p,
                range: u32::from(h.range),
                nationality: h.nationality,
                units: 0,
            })
        })
        .collect();
    // Each combat unit against each HQ once: the HQs' units (7.3.5), the units some
    // HQ commands, and the Soviet units a STAVKA chit would activate (7.2.2).
    // The HQs by column: one `dq` columns from a unit is at least `dq` hexes from it,
    // so only the columns within the longest Command Range are looked at.
    let mut by_column: Vec<(i32, usize)> = (hqs.iter().enumerate())
        .map(|(k, h)| (topo.hexes[h.piece.at as usize].q, k))
        .collect();
    by_column.sort_unstable();
    let columns = Columns::new(by_column.iter().map(|&(q, _)| q));
    let longest = hqs.iter().map(|h| h.range).max().unwrap_or(0);
    let longest = i32::try_from(longest).unwrap_or(i32::MAX);
    let mut commanded = vec![false; s.piece_count()];
    let mut soviet_all = 0usize;
    for u in snap.pieces.iter().filter(|u| !u.hq) {
        let nat = s.nationality(u.id);
        let here = topo.hexes[u.at as usize];
        let mut by_soviet_hq = false;
        let first = columns.first(here.q.saturating_sub(longest));
        for &(q, k) in &by_column[first..] {
            if q > here.q.saturating_add(longest) {
                break;
            }
            let h = &mut hqs[k];
            if topology::distance(here, topo.hexes[h.piece.at as usize]) > h.range {
                continue;
            }
            if obeys(h.nationality, nat) {
                h.units += 1;
                commanded[usize::from(u.id.0)] = true;
            }
            by_soviet_hq |= h.piece.side == Side::Soviet;
        }
        soviet_all += usize::from(by_soviet_hq && u.side == Side::Soviet);
    }
    let soviet_all = soviet_all as f64;
    for h in &hqs {
        let i = h.piece.side.index();
        if h.units == 0 {
            t.command[i] -= w.hq_orphan;
        }
        let alone = snap.units_at(h.piece.at).next().is_none();
        let zoc = snap.grid[h.piece.at as usize] & zoc_bit(h.piece.side.enemy()) != 0;
        if alone && zoc {
            t.command[i] -= w.hq_exposed;
        }
    }
    // What each HQ's chit would activate now (7.2.2, 7.3.2, 11.2.3).
    let power = |hq: PieceId| -> f64 {
        match s.location(hq) {
            Location::Map(_) => hqs
                .iter()
                .find(|h| h.piece.id == hq)
                .map_or(0.0, |h| f64::from(h.units)),
            Location::Box(b) => s
                .piece_ids()
                .filter(|&u| !s.is_hq(u) && s.location(u) == Location::Box(b))
                .count() as f64,
            _ => 0.0,
        }
    };
    let best_axis = hqs
        .iter()
        .filter(|h| h.piece.side == Side::Axis)
        .map(|h| f64::from(h.units))
        .fold(0.0, f64::max);
    let chit_power = |c: Chit| match c {
        Chit::Stavka => soviet_all,
        Chit::Manstein(_) => best_axis,
        Chit::Hq(p) if usize::from(p.0) < s.piece_count() => power(p),
        _ => 0.0,
    };
    let pos = s.position();
    for side in Side::BOTH {
        let i = side.index();
        let mine = |c: &&Chit| avl::rules::command::chit_side(s, **c) == Some(side);
        for c in pos
            .cup
            .iter()
            .chain(&pos.played[i])
            .chain(&pos.drawn)
            .filter(mine)
        {
            t.command[i] += (w.chit_held + w.chit_selected) * chit_power(*c);
        }
        for c in &pos.inactive[i] {
            t.command[i] += w.chit_held * chit_power(*c);
        }
    }
    commanded
}

/// Rules 2.2, 10.2, 7.3, 14.0.1: the units' worth and the end-of-game VPs.
fn material(s: &Avl, snap: &Snapshot, w: &Weights, point: f64, commanded: &[bool], t: &mut Terms) {
    let last = s.turn().0 >= s.rules().scenario.turns;
    let marked_final = last && matches!(s.phase(), Phase::Reinforcement(_) | Phase::Over);
    let left = f64::from(s.rules().scenario.turns.saturating_sub(s.turn().0));
    let end_weight = w.cut_off_end / ((left + 1.0) * (left + 1.0));
    for p in s.piece_ids().filter(|&p| !s.is_hq(p)) {
        let side = s.side(p);
        let own = side.index();
        let worth = point * strength(s, p);
        match s.location(p) {
            Location::Map(_) => {
                let at = snap.hex_of[usize::from(p.0)];
                if at == NONE {
                    continue;
                }
                let marker = s.piece(p).supply;
                let mut v = worth
                    * match marker {
                        Supply::InSupply => 1.0,
                        Supply::OutOfSupply => w.out_of_supply,
                        Supply::Isolated => w.isolated,
                    };
                let supplied = snap.supplied(side, at);
                if !supplied {
                    v *= 1.0 - w.cut_off;
                }
                if !commanded[usize::from(p.0)] {
                    v *= 1.0 - w.uncommanded;
                }
                t.material[own] += v;
                let enemy = side.enemy().index();
                if marked_final {
                    if marker != Supply::InSupply {
                        t.end[enemy] += elimination_vp(s, p);
                    }
                } else if !supplied {
                    t.end[enemy] += end_weight * elimination_vp(s, p);
                }
            }
            Location::Box(_) | Location::Arriving(_) => t.material[own] += worth * w.reinforcement,
            Location::Eliminated | Location::Removed => {}
        }
    }
}

/// The activated units of `side` that may still attack this Combat Segment (7.3.2,
/// 9.1.1), if it is `side`'s activation.
fn ready(s: &Avl, side: Side) -> Option<Vec<PieceId>> {
    let pos = s.position();
    if pos.active != Some(side) || !matches!(pos.phase, Phase::Movement | Phase::Combat) {
        return None;
    }
    let a = pos.activation.as_ref()?;
    let busy = pos
        .battle
        .as_ref()
        .map_or(&[][..], |b| b.attackers.as_slice());
    Some(
        a.units
            .iter()
            .copied()
            .filter(|u| !a.attacked.contains(u) && !busy.contains(u))
            .collect(),
    )
}

/// The enemy combat units next to hex index `at` that could attack it (9.1.6).
fn adjacent_enemies(snap: &Snapshot, at: u32, side: Side) -> Vec<PieceId> {
    let topo = &snap.topo;
    let i = at as usize;
    let mut out = Vec::new();
    for (k, &j) in topo.neighbors[i].iter().enumerate() {
        if j != NONE && topo.edges[i][k] & IMPASSABLE == 0 {
            enemies_at(snap, j, side, &mut out);
        }
    }
    out
}

/// The enemy combat units two hexes from hex index `at` (not next to it): those that can
/// step next to it and join an attack on it at the enemy's next activation (8.1, 6.0: a
/// unit may always enter the enemy ZOC around the target). Hexsides on the way are not
/// looked at.
fn nearby_enemies(snap: &Snapshot, at: u32, side: Side) -> Vec<PieceId> {
    let mut out = Vec::new();
    for &k in &snap.topo.ring2[at as usize] {
        if k != NONE {
            enemies_at(snap, k, side, &mut out);
        }
    }
    out
}

/// Appends to `out` the combat units of `side`'s enemy in hex index `at`. The grid's
/// piece bits are checked first: most hexes hold no enemy piece, and `units_at` is a
/// binary search.
fn enemies_at(snap: &Snapshot, at: u32, side: Side, out: &mut Vec<PieceId>) {
    let enemy = side.enemy();
    if snap.grid[at as usize] & piece_bit(enemy) != 0 {
        out.extend(snap.units_at(at).filter(|u| u.side == enemy).map(|u| u.id));
    }
}

/// The Victory City VPs a side loses when the hex at `at` empties, if it holds one there.
fn city_stake(s: &Avl, hex: Hex, holder: Side) -> f64 {
    stake_of(s, s.map().at(hex).and_then(|i| i.city), holder)
}

/// [`city_stake`] of the Victory City `city`, if any.
fn stake_of(s: &Avl, city: Option<u8>, holder: Side) -> f64 {
    let Some(c) = city else {
        return 0.0;
    };
    if s.position().control.get(usize::from(c)) == Some(&holder) {
        f64::from(s.rules().scenario.victory.city)
    } else {
        0.0
    }
}

/// What an attack by `attackers` on the hex at `at` (held by `holder`) is worth to the
/// attacker; `None` when it is impossible (9.3.4).
fn attack(
    s: &Avl,
    snap: &Snapshot,
    w: &Weights,
    point: f64,
    attackers: &[PieceId],
    at: u32,
    holder: Side,
) -> Option<f64> {
    let hex = snap.topo.hexes[at as usize];
    let defenders = snap.units_at(at).map(|u| u.id);
    attack_on(s, w, point, attackers, hex, holder, defenders)
}

/// [`attack`] for the `defenders` on `hex`.
fn attack_on(
    s: &Avl,
    w: &Weights,
    point: f64,
    attackers: &[PieceId],
    hex: Hex,
    holder: Side,
    defenders: impl Iterator<Item = PieceId>,
) -> Option<f64> {
    let odds = rules_combat::odds(s, attackers, hex).odds?;
    let stakes = Stakes {
        defender_steps: step_costs(s, defenders, point),
        attacker_steps: step_costs(s, attackers.iter().copied(), point),
        hex: city_stake(s, hex, holder),
        retreat: w.retreat,
    };
    Some(expected_gain(&s.rules().data.crt, odds, &stakes))
}

/// Rules 9.2, 9.3.4, H-108: whether declaring an attack on `target` now is futile: it
/// cannot be resolved even with every activated unit next to the target that may still
/// attack, or the attacker expects to lose on it. Such a declaration could only be
/// withdrawn; the evaluation scores it a certain loss, and MCTS does not try it.
pub fn futile_attack(s: &Avl, w: &Weights, target: Hex) -> bool {
    let pos = s.position();
    let Some(active) = pos.active else {
        return false;
    };
    if pos.battle.is_some() || pos.phase != Phase::Combat {
        return false;
    }
    let Some(ready) = ready(s, active) else {
        return false;
    };
    let map = s.map();
    let attackers: Vec<PieceId> = ready
        .into_iter()
        .filter(|&u| {
            s.hex_of(u)
                .is_some_and(|h| h.is_adjacent(target) && !map.side(h, target).impassable)
        })
        .collect();
    let point = strength_weight(s, w);
    let defenders = s.units_at(target);
    !attack_on(s, w, point, &attackers, target, active.enemy(), defenders).is_some_and(|g| g > 0.0)
}

/// Rules 9.1–9.4: each side's hexes under enemy attack.
fn threats(s: &Avl, snap: &Snapshot, w: &Weights, point: f64, t: &mut Terms) {
    let pos = s.position();
    let target = pos.battle.as_ref().map(|b| b.target);
    let ready = [ready(s, Side::Axis), ready(s, Side::Soviet)];
    let attacked = pos
        .activation
        .as_ref()
        .map_or(&[][..], |a| a.attacked_hexes.as_slice());
    let topo = &snap.topo;
    THREATS.with(|memo| {
        let mut memo = memo.borrow_mut();
        memo.prepare(topo, w);
        let memo = &mut *memo;
        memo.units.mark(s, snap, &ready);
        let mut last: Option<u32> = None;
        for u in snap.pieces.iter().filter(|p| !p.hq) {
            if last == Some(u.at) {
                continue;
            }
            last = Some(u.at);
            let hex = topo.hexes[u.at as usize];
            if target == Some(hex) {
                continue;
            }
            // The enemy's combat units around the hex, as the units' hashes: next to it
            // (not across impassable hexsides, 9.1.6), then two hexes off.
            let i = u.at as usize;
            let enemy = u.side.enemy();
            let around = memo.units.around(topo, i, enemy, w.threat_near > 0.0);
            if around.iter().all(|&h| h == 0) {
                continue;
            }
            // The enemy's units that may still attack this Combat Segment, if the hex
            // can be attacked in it.
            let now = ready[enemy.index()]
                .as_deref()
                .filter(|_| !attacked.contains(&hex));
            // Every piece on the hex: the defense reads the rules' own list of them.
            let key = threat_key(
                u.at,
                u.side,
                point,
                stake_of(s, topo.city[i], u.side),
                memo.units.pieces[i],
                &around,
                now.is_some(),
            );
            let value = *memo.values.entry(key).or_insert_with(|| {
                let attackers = adjacent_enemies(snap, u.at, u.side);
                let near = if w.threat_near > 0.0 {
                    nearby_enemies(snap, u.at, u.side)
                } else {
                    Vec::new()
                };
                Threat {
                    at: u.at,
                    holder: u.side,
                    attackers: &attackers,
                    near: &near,
                    now,
                }
                .value(s, snap, w, point)
            });
            t.threats[u.side.index()] -= value;
        }
    });
}

/// A hash of everything [`Threat::value`] reads but the map and the weights (the
/// [`ThreatMemo`]'s own): the hex, its holder, the worth of a strength point (the
/// turn), the Victory City VPs at stake there (`stake`), the hash of every piece on the
/// hex with its step and supply marker (`pieces`, [`UnitHashes`]), the hashes of the
/// enemy's combat units next to it and two hexes off
/// (`around`, [`UnitHashes::around`]: each with its step, supply marker and whether it
/// may still attack now, by the direction it lies in), and whether the hex may be
/// attacked now.
fn threat_key(
    at: u32,
    holder: Side,
    point: f64,
    stake: f64,
    pieces: u64,
    around: &[u64; 18],
    now: bool,
) -> u64 {
    FixedState::with_seed(0x7423).hash_one((
        (
            at,
            holder.index(),
            point.to_bits(),
            now,
            stake.to_bits(),
            pieces,
        ),
        around,
    ))
}

/// Per hex, a hash of each side's combat units in it (0: none), for one evaluation:
/// each unit's id, step, supply marker and whether it may still attack now; and one of
/// every piece in it (HQs too), with its id, step and supply marker.
#[derive(Default)]
struct UnitHashes {
    /// Per side, per hex index.
    hashes: [Vec<u64>; 2],
    /// Per hex index: every piece.
    pieces: Vec<u64>,
    /// The hex indexes set, to clear (each piece's).
    set: Vec<u32>,
}

impl UnitHashes {
    /// Hashes the combat units of `snap`; `ready`: per side, the units that may still
    /// attack now ([`ready`]).
    fn mark(&mut self, s: &Avl, snap: &Snapshot, ready: &[Option<Vec<PieceId>>; 2]) {
        self.clear();
        let len = snap.topo.len();
        for table in self.hashes.iter_mut().chain([&mut self.pieces]) {
            if table.len() != len {
                *table = vec![0; len];
            }
        }
        for u in &snap.pieces {
            let st = s.piece(u.id);
            let slot = &mut self.pieces[u.at as usize];
            *slot = (slot.rotate_left(29)
                ^ FixedState::with_seed(0x7ace).hash_one((u.id.0, st.reduced, st.supply as u8)))
                | 1;
            self.set.push(u.at);
            if u.hq {
                continue;
            }
            let now = ready[u.side.index()]
                .as_deref()
                .is_some_and(|r| r.contains(&u.id));
            let h =
                FixedState::with_seed(0x5eed).hash_one((u.id.0, st.reduced, st.supply as u8, now));
            let slot = &mut self.hashes[u.side.index()][u.at as usize];
            // The pieces come by id within a hex: the same units give the same hash.
            *slot = (slot.rotate_left(29) ^ h) | 1;
        }
    }

    /// The hashes of `side`'s combat units next to hex index `i` (0 across an impassable
    /// hexside, 9.1.6) and, if `near`, two hexes off (0 otherwise).
    fn around(&self, topo: &Topology, i: usize, side: Side, near: bool) -> [u64; 18] {
        let hashes = &self.hashes[side.index()];
        let mut out = [0; 18];
        for (k, &j) in topo.neighbors[i].iter().enumerate() {
            if j != NONE && topo.edges[i][k] & IMPASSABLE == 0 {
                out[k] = hashes[j as usize];
            }
        }
        if near {
            for (k, &j) in topo.ring2[i].iter().enumerate() {
                if j != NONE {
                    out[6 + k] = hashes[j as usize];
                }
            }
        }
        out
    }

    /// Clears what [`UnitHashes::mark`] set last.
    fn clear(&mut self) {
        for &at in &self.set {
            self.hashes[0][at as usize] = 0;
            self.hashes[1][at as usize] = 0;
            self.pieces[at as usize] = 0;
        }
        self.set.clear();
    }
}

/// The enemy's threat to one hex: what [`threats`] counts for it.
struct Threat<'a> {
    /// The hex index.
    at: u32,
    /// The side whose units hold it.
    holder: Side,
    /// The enemy combat units next to it that could attack it (9.1.6).
    attackers: &'a [PieceId],
    /// The enemy combat units two hexes off.
    near: &'a [PieceId],
    /// The enemy units that may still attack this Combat Segment, if the hex may be
    /// attacked in it.
    now: Option<&'a [PieceId]>,
}

impl Threat<'_> {
    /// The threat's worth to the enemy (at most the share `w` gives it, 0 if none).
    fn value(&self, s: &Avl, snap: &Snapshot, w: &Weights, point: f64) -> f64 {
        let (at, holder) = (self.at, self.holder);
        let all = if self.attackers.is_empty() {
            0.0
        } else {
            attack(s, snap, w, point, self.attackers, at, holder).unwrap_or(0.0)
        };
        let mut value = w.threat * all.max(0.0);
        if !self.near.is_empty() {
            let gathered: Vec<PieceId> = self.attackers.iter().chain(self.near).copied().collect();
            let later = attack(s, snap, w, point, &gathered, at, holder).unwrap_or(0.0);
            value = value.max(w.threat_near * later);
        }
        if let Some(r) = self.now {
            let now: Vec<PieceId> = self
                .attackers
                .iter()
                .copied()
                .filter(|a| r.contains(a))
                .collect();
            let gain = if now.len() == self.attackers.len() {
                all
            } else if now.is_empty() {
                0.0
            } else {
                attack(s, snap, w, point, &now, at, holder).unwrap_or(0.0)
            };
            value = value.max(w.threat_now * gain);
        }
        value
    }
}

/// Entries a [`ThreatMemo`] holds before it starts again.
const THREAT_MEMO_SIZE: usize = 1 << 16;

/// The threats worked out on this thread, by [`threat_key`], for one map and one set
/// of weights. The bots score positions that differ by a move one after another
/// (greedy's whole moves, a search's siblings), and a move changes the threat to the
/// few hexes within two of where the piece left and arrived: the others are looked up.
/// A threat is the same function of its key's contents on every call, so a value
/// looked up is the one worked out again (up to a collision of 64-bit hashes).
#[derive(Default)]
struct ThreatMemo {
    topo: Option<Rc<Topology>>,
    weights: Option<Weights>,
    values: HashMap<u64, f64, FixedState>,
    /// The units around each hex, hashed once per evaluation.
    units: UnitHashes,
}

impl ThreatMemo {
    /// Forgets every value if the map or the weights are not the last call's, or when
    /// full.
    fn prepare(&mut self, topo: &Rc<Topology>, w: &Weights) {
        let same = self.topo.as_ref().is_some_and(|t| Rc::ptr_eq(t, topo))
            && self.weights.as_ref() == Some(w);
        if !same || self.values.len() >= THREAT_MEMO_SIZE {
            self.values.clear();
            self.topo = Some(Rc::clone(topo));
            self.weights = Some(*w);
        }
    }
}

thread_local! {
    static THREATS: RefCell<ThreatMemo> = RefCell::new(ThreatMemo::default());
}

/// Forgets the threats the evaluation keeps on this thread to look up: the next
/// evaluation works every threat out again (for tests and measurements; the values are
/// the same).
pub fn forget_threats() {
    THREATS.with(|memo| *memo.borrow_mut() = ThreatMemo::default());
}

/// Rules 9.2–9.6: the combat being fought: the declared attack at its expected gain
/// (an impossible one at a loss, so that it is not declared only to be withdrawn), then
/// what its result still has to do: steps to lose (9.4.2), the defenders' retreat
/// (9.5) and the attacker's advance into an emptied Victory City (9.6, H-106).
fn battle(s: &Avl, snap: &Snapshot, w: &Weights, point: f64, t: &mut Terms) {
    let pos = s.position();
    let (Some(fight), Some(active)) = (&pos.battle, pos.active) else {
        return;
    };
    let Some(at) = s.map().board.index(fight.target).map(|i| i as u32) else {
        return;
    };
    let (att, def) = (active.index(), active.enemy().index());
    let alive = |v: &[PieceId]| -> Vec<PieceId> {
        v.iter()
            .copied()
            .filter(|&u| matches!(s.location(u), Location::Map(_)))
            .collect()
    };
    let city = city_stake(s, fight.target, active.enemy());
    let result = fight.result.unwrap_or_default();
    // Steps the defender still loses, of those left.
    let defender_steps = |due: u8| {
        let costs = step_costs(s, alive(&fight.defenders).into_iter(), point);
        let lost: f64 = costs.iter().take(usize::from(due)).sum();
        (lost, costs.len() > usize::from(due))
    };
    match fight.stage {
        BattleStage::Declaring => {
            let mut attackers = fight.attackers.clone();
            if let Some(r) = ready(s, active) {
                let near = adjacent_enemies(snap, at, active.enemy());
                attackers.extend(r.into_iter().filter(|u| near.contains(u)));
            }
            // An attack that cannot be resolved or would lose (9.3.4) is never worth
            // declaring: ending the segment is always open instead.
            match attack(s, snap, w, point, &attackers, at, active.enemy()) {
                Some(gain) if gain > 0.0 => t.battle[att] += gain,
                _ => t.battle[att] = f64::NEG_INFINITY,
            }
        }
        BattleStage::Rolling => {}
        BattleStage::AttackerLosses | BattleStage::DefenderLosses => {
            let due = if fight.stage == BattleStage::AttackerLosses {
                let own = step_costs(s, alive(&fight.attackers).into_iter(), point);
                t.battle[att] -= own.iter().take(usize::from(fight.steps_left)).sum::<f64>();
                result.defender_steps
            } else {
                fight.steps_left
            };
            let (lost, left) = defender_steps(due);
            t.battle[def] -= lost;
            if left && result.retreat > 0 {
                t.battle[def] -= w.retreat * f64::from(result.retreat);
            }
            if !left || result.retreat > 0 {
                t.battle[att] += city;
            }
        }
        BattleStage::Retreat => {
            if !fight.to_retreat.is_empty() || fight.retreating.is_some() {
                t.battle[def] -= w.retreat * f64::from(result.retreat);
            }
            t.battle[att] += city;
        }
        BattleStage::Advance => t.battle[att] += city,
    }
}

/// Rule 11.1.1: whether `side` still has pieces to place by railroad this turn (in its
/// Reinforcement Segment, or waiting in it now).
fn reinforcing(s: &Avl, side: Side) -> bool {
    let turn = s.turn().0;
    match s.phase() {
        Phase::Over => return false,
        Phase::Reinforcement(now) if now == Side::Soviet && side == Side::Axis => return false,
        _ => {}
    }
    s.piece_ids()
        .any(|p| s.side(p) == side && matches!(s.location(p), Location::Arriving(t) if t <= turn))
}

/// Rule 11.1.1: whether `side` has pieces arriving on the next turn (11.0), which it
/// will place by railroad then.
fn reinforcing_next(s: &Avl, side: Side) -> bool {
    let next = s.turn().0.saturating_add(1);
    next <= s.rules().scenario.turns
        && !matches!(s.phase(), Phase::Over)
        && s.piece_ids()
            .any(|p| s.side(p) == side && s.location(p) == Location::Arriving(next))
}

/// Railroad nets already traced for one evaluation, by side and by whether the
/// Pocket is closed (this turn's and next turn's are often the same).
type RailNets = [[Option<Vec<bool>>; 2]; 2];

/// The Victory Cities empty of their holder's pieces, on a railroad hex the enemy's
/// railroad net reaches (11.1.1; through the Stalingrad Pocket unless `pocket_closed`,
/// 13.0), whose enemy is `due` to place pieces.
fn rail_exposed(
    s: &Avl,
    snap: &Snapshot,
    pocket_closed: bool,
    due: impl Fn(Side) -> bool,
    nets: &mut RailNets,
) -> Vec<usize> {
    let topo = &snap.topo;
    let mut out = Vec::new();
    for (c, (hex, _, _)) in s.map().cities.iter().enumerate() {
        let Some(&holder) = s.position().control.get(c) else {
            continue;
        };
        let Some(at) = s.map().board.index(*hex) else {
            continue;
        };
        let enemy = holder.enemy();
        if !topo.rail[at] || !snap.at(at as u32).is_empty() || !due(enemy) {
            continue;
        }
        let net = nets[usize::from(pocket_closed)][enemy.index()].get_or_insert_with(|| {
            let mut net = Vec::new();
            topo.rail_net(&snap.grid, enemy, pocket_closed, &mut net);
            net
        });
        if net[at] {
            out.push(c);
        }
    }
    out
}

/// Rule 11.1.1 (and 13.0's note: once the Pocket opens, reinforcements can appear deep
/// behind the lines): the Victory Cities an enemy reinforcement could be railed into
/// this turn: empty of their holder's pieces, on the enemy's railroad net, with enemy
/// pieces still to place this turn.
pub fn rail_threatened(s: &Avl, snap: &Snapshot) -> Vec<usize> {
    rail_threatened_in(s, snap, &mut RailNets::default())
}

fn rail_threatened_in(s: &Avl, snap: &Snapshot, nets: &mut RailNets) -> Vec<usize> {
    rail_exposed(s, snap, snap.pocket_closed, |e| reinforcing(s, e), nets)
}

/// The same for the next turn: the Victory Cities an enemy reinforcement arriving next
/// turn could be railed into if they stayed as they are, through the Pocket if it is
/// open by then (13.0). The holder has this turn's activations left to garrison them,
/// so they count for less ([`Weights::rail_threat_next`]; a city at risk this turn
/// too counts once, at this turn's weight); without this a bot that marches its
/// garrisons away on turn 4 loses four cities at once when the Pocket opens on turn 5.
pub fn rail_threatened_next(s: &Avl, snap: &Snapshot) -> Vec<usize> {
    rail_threatened_next_in(s, snap, &mut RailNets::default())
}

fn rail_threatened_next_in(s: &Avl, snap: &Snapshot, nets: &mut RailNets) -> Vec<usize> {
    let next = s.turn().0.saturating_add(1);
    let closed = next <= s.rules().scenario.pocket_until_turn;
    rail_exposed(s, snap, closed, |e| reinforcing_next(s, e), nets)
}

/// Rules 14.0.1, H-106, 11.1.1: empty Victory Cities within the enemy's reach, by
/// railroad ([`rail_threatened`]) or on foot.
fn cities(s: &Avl, snap: &Snapshot, w: &Weights, units: &[Nearest; 2], t: &mut Terms) {
    let value = f64::from(s.rules().scenario.victory.city);
    let mut nets = RailNets::default();
    let by_rail = rail_threatened_in(s, snap, &mut nets);
    let by_rail_next = rail_threatened_next_in(s, snap, &mut nets);
    for (c, (hex, _, _)) in s.map().cities.iter().enumerate() {
        let Some(&holder) = s.position().control.get(c) else {
            continue;
        };
        let Some(at) = s.map().board.index(*hex).map(|i| i as u32) else {
            continue;
        };
        if by_rail.contains(&c) {
            t.cities[holder.index()] -= w.rail_threat * value;
            continue;
        }
        if snap.units_at(at).any(|u| u.side == holder) {
            continue;
        }
        // No risk is counted past six hexes, so seven stands for anything farther.
        let nearest = |side: Side| units[side.index()].distance(*hex, 7);
        let enemy = nearest(holder.enemy());
        let mut risk = match enemy {
            0 | 1 => 0.7,
            2 => 0.5,
            3 | 4 => 0.25,
            5 | 6 => 0.1,
            _ => 0.0,
        };
        if nearest(holder) < enemy {
            risk *= 0.5;
        }
        let mut loss = risk * value * w.city_threat;
        if by_rail_next.contains(&c) {
            loss = loss.max(w.rail_threat_next * value);
        }
        t.cities[holder.index()] -= loss;
    }
}

/// Each combat unit's distance to the nearest enemy combat unit (`units`, by side) or
/// enemy-held Victory City.
fn advance(s: &Avl, snap: &Snapshot, w: &Weights, units: &[Nearest; 2], t: &mut Terms) {
    let topo = &snap.topo;
    for side in Side::BOTH {
        let enemies = &units[side.enemy().index()];
        let cities = Nearest::new(
            (s.map().cities.iter())
                .zip(&s.position().control)
                .filter(|&(_, &c)| c != side)
                .map(|((h, _, _), _)| *h)
                .collect(),
        );
        if enemies.hexes.is_empty() && cities.hexes.is_empty() {
            continue;
        }
        for u in snap.pieces.iter().filter(|u| !u.hq && u.side == side) {
            let here = topo.hexes[u.at as usize];
            let d = cities.distance(here, enemies.distance(here, w.advance_cap));
            t.advance[side.index()] -= w.advance * f64::from(d);
        }
    }
}

/// The hexes of the combat units on the map of the sides `which` takes.
fn combat_hexes(snap: &Snapshot, which: impl Fn(Side) -> bool) -> Vec<Hex> {
    (snap.pieces.iter())
        .filter(|u| !u.hq && which(u.side))
        .map(|u| snap.topo.hexes[u.at as usize])
        .collect()
}

/// Hexes sorted by column, for the distance to the nearest of them from a hex: a hex
/// `dq` columns away is at least `dq` steps away, so only the columns nearer than the
/// nearest hex found so far are looked at.
struct Nearest {
    hexes: Vec<Hex>,
    columns: Columns,
}

impl Nearest {
    fn new(mut hexes: Vec<Hex>) -> Nearest {
        hexes.sort_unstable_by_key(|h| (h.q, h.r));
        let columns = Columns::new(hexes.iter().map(|h| h.q));
        Nearest { hexes, columns }
    }

    /// The steps from `from` to the nearest of the hexes, or `cap` if none is nearer.
    fn distance(&self, from: Hex, cap: u32) -> u32 {
        let mut best = cap;
        let i = self.columns.first(from.q);
        for h in &self.hexes[i..] {
            if h.q.abs_diff(from.q) >= best {
                break;
            }
            best = best.min(topology::distance(*h, from));
        }
        for h in self.hexes[..i].iter().rev() {
            if h.q.abs_diff(from.q) >= best {
                break;
            }
            best = best.min(topology::distance(*h, from));
        }
        best
    }
}

/// Where each column starts in a list sorted by column: the index of its first item at
/// or after a column, without a search.
struct Columns {
    /// The first list's column.
    min: i32,
    /// Per column from `min`: the index of the first item in it or after it.
    starts: Vec<u32>,
    /// The list's length.
    len: usize,
}

impl Columns {
    /// The starts of `columns`, the items' columns in ascending order.
    fn new(columns: impl Iterator<Item = i32>) -> Columns {
        let mut starts: Vec<u32> = Vec::new();
        let mut min = 0;
        let mut len = 0usize;
        for q in columns {
            if len == 0 {
                min = q;
            }
            // Every column up to this one, not yet started, starts here.
            let c = usize::try_from(q.saturating_sub(min)).unwrap_or(0);
            while starts.len() <= c {
                starts.push(len as u32);
            }
            len += 1;
        }
        Columns { min, starts, len }
    }

    /// The index of the first item in column `q` or after it (the list's length if
    /// none).
    fn first(&self, q: i32) -> usize {
        if self.len == 0 || q <= self.min {
            return 0;
        }
        usize::try_from(q - self.min)
            .ok()
            .and_then(|c| self.starts.get(c))
            .map_or(self.len, |&i| i as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nearest of a set of hexes, looked for column by column, is as near as the
    /// nearest of them all, up to the cap: random sets of up to 40 hexes within 30
    /// steps of the origin, from every 5th hex within 35, capped at 1, 7, 12 and far.
    #[test]
    fn the_nearest_hex_by_column_is_the_nearest_of_all() {
        let mut rng = engine::GameRng::from_u64(5);
        let area = Hex::ORIGIN.range(30);
        let mut checked = 0;
        for _ in 0..60 {
            let n = rng.below(41) as usize;
            let hexes: Vec<Hex> = (0..n)
                .map(|_| area[rng.below(area.len() as u32) as usize])
                .collect();
            let nearest = Nearest::new(hexes.clone());
            for from in Hex::ORIGIN.range(35).into_iter().step_by(5) {
                for cap in [1, 7, 12, u32::MAX] {
                    let all = hexes.iter().map(|&h| topology::distance(h, from)).min();
                    assert_eq!(
                        nearest.distance(from, cap),
                        all.unwrap_or(cap).min(cap),
                        "from {from:?} to {hexes:?}, cap {cap}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    /// A column's start is where a binary search puts it: for random sorted lists of up
    /// to 30 columns in -20..20 (repeats and gaps included, the empty list too), and
    /// every column from -25 to 25.
    #[test]
    fn a_column_starts_where_a_search_finds_it() {
        let mut rng = engine::GameRng::from_u64(6);
        for _ in 0..500 {
            let n = rng.below(31) as usize;
            let mut qs: Vec<i32> = (0..n).map(|_| rng.below(40) as i32 - 20).collect();
            qs.sort_unstable();
            let columns = Columns::new(qs.iter().copied());
            for q in -25..=25 {
                assert_eq!(
                    columns.first(q),
                    qs.partition_point(|&x| x < q),
                    "{q} in {qs:?}"
                );
            }
        }
    }
}
