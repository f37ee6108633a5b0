//! Exact battle and bombardment odds (12.0, 11.0): the probability of each way a battle
//! can end and the expected losses of each side, computed exactly by dynamic
//! programming over the battle's states, for every ruleset's dice rules.
//!
//! The dice come from the rules' own functions (`rules::battle_dice`: combined arms,
//! hex-side bonus, terrain, town or city, naval support, suppression, pre-battle and
//! Overwatch fire, battle dice factors) and the hit threshold from
//! [`Viktory::hit_max_for`] (Combat Supply), so the odds follow whatever the engine
//! does. Decisions the rules leave to the players follow a fixed [`Policy`]:
//!
//! - Casualties (10.1, R-14): a hit the owner assigns takes his units in the order of
//!   the engine's `auto_casualties` policy: infantry, then artillery, then cavalry,
//!   frigates last; within a type the emptiest frigate, then the lowest unit id. A 1
//!   lets the firer choose: by default he chooses in the same order
//!   ([`TacticalPolicy::OwnersOrder`]), or he takes the strongest type first
//!   ([`TacticalPolicy::Strongest`]). Hits beyond the units there are lost; Overwatch
//!   never lets the firer take cavalry.
//! - Retreat (12.3 step 3): the attacker fights to the end
//!   ([`RetreatPolicy::FightToTheEnd`]), or retreats at the first retreat option where
//!   fewer than `n` of his units are left and a retreat is possible
//!   ([`RetreatPolicy::WhenFewerThan`]).
//! - Luck averaging (15.4): no pairs of dice are traded for sure hits.
//!
//! Units aboard a sunk frigate are lost with it but not counted in the losses here.

mod advice;
mod model;
mod spec;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use engine::Seat;
use hexmap::Hex;
use serde::{Deserialize, Serialize};

pub use spec::{BattleSpec, SpecError, SpecUnit};

use crate::board::Terrain;
use crate::options::Rules;
use crate::rules::battle;
use crate::rules::{battle_dice, bombard};
use crate::state::{Battle, BattleStep, Hits, Viktory};

/// The most work the exact method may take, in the units of its cost estimate (an
/// upper bound of the steps of its inner loops, [`battle_cost`]); a battle beyond it
/// gets a Monte Carlo estimate instead. Measured on the project's 2-core machine in a
/// release build, a unit took 0.2 to 0.8 ns over battles of every kind, so the exact
/// method stays under some 40 ms (docs/odds.md).
pub const EXACT_COST_LIMIT: u64 = 50_000_000;

/// The battles played for a Monte Carlo estimate: the standard error of a
/// probability is at most 0.5 / √4000 ≈ 0.008.
pub const ESTIMATE_SAMPLES: u32 = 4000;

/// The most fire rounds an estimate may play in all; past them there are no odds
/// (`None`). A round took up to some 140 ns (docs/odds.md), so an estimate stays under
/// some 45 ms; only battles of hundreds of units come near it.
pub const ESTIMATE_MAX_ROUNDS: u64 = 300_000;
use crate::unit::{PerKind, Unit, UnitId, UnitKind};
pub(crate) use advice::advice;
use model::{Counts, Dice, Entry, Model, Roster, Sampler, Solver, Tally};

/// How a battle ends (12.3 step 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Attacking units are left and no defending unit: the attacker takes the hex.
    AttackerWins = 0,
    /// Every attacking unit is lost while defending units are left (or the defender
    /// had none, and his town or city's dice won the round).
    DefenderHolds = 1,
    /// The last units of both sides fall in the same exchange: the defender prevails.
    BothDestroyed = 2,
    /// The attacker retreats (12.3 step 3): the defender prevails.
    AttackerRetreats = 3,
}

/// Rule 12.3 step 3: when the attacker takes his retreat option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetreatPolicy {
    /// Never: the battle goes on until one side has no units left.
    #[default]
    FightToTheEnd,
    /// At the first retreat option where fewer than this many attacking units are
    /// left, if every one of them can retreat (H-7, R-1).
    WhenFewerThan(u8),
}

/// Rule 10.1: how the firing player picks the casualty of a 1 ("tactical victory").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TacticalPolicy {
    /// What players do: the firer takes the unit whose loss costs the other side most
    /// dice in the next fire round (the last unit of a type that brings dice of its
    /// own). Ties go to the type with the fewest units left (the next 1 there costs a
    /// die), then to the strongest type (frigates, cavalry, artillery, infantry).
    #[default]
    MostDice,
    /// R-14's fixed order, the owner's own: infantry, artillery, cavalry, frigates.
    OwnersOrder,
    /// The strongest type first: frigates, cavalry, artillery, infantry.
    Strongest,
}

/// The decisions the odds assume for both players (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Policy {
    /// When the attacker retreats.
    #[serde(default)]
    pub retreat: RetreatPolicy,
    /// How the firer picks the casualty of a 1.
    #[serde(default)]
    pub tactical: TacticalPolicy,
}

/// One possible set of units left at the end, with its probability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Survivors {
    /// The units left, by type (retreated units included).
    pub units: PerKind,
    /// The probability that exactly these are left.
    pub probability: f64,
}

/// The exact odds of a battle (12.0). The four outcome probabilities add up to 1; the
/// defender keeps the hex in every outcome but [`BattleOdds::attacker_wins`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleOdds {
    /// The attacker takes the hex (12.3 step 4).
    pub attacker_wins: f64,
    /// The attacker is destroyed and the defender keeps units or his town's dice won.
    pub defender_holds: f64,
    /// Both sides are destroyed in the same exchange; the defender prevails.
    pub both_destroyed: f64,
    /// The attacker retreats (only with [`RetreatPolicy::WhenFewerThan`]).
    pub attacker_retreats: f64,
    /// Expected number of attacking units lost from now to the end of the battle.
    pub expected_attacker_losses: f64,
    /// Expected number of defending units lost.
    pub expected_defender_losses: f64,
    /// The attacking units whose fate is computed (units already marked as casualties
    /// in a battle in progress included).
    pub attackers: PerKind,
    /// The defending units whose fate is computed.
    pub defenders: PerKind,
    /// The distribution of the attacker's units left at the end, fewest first.
    pub attacker_survivors: Vec<Survivors>,
    /// The distribution of the defender's units left at the end, fewest first.
    pub defender_survivors: Vec<Survivors>,
    /// Whether these figures are exact (up to rounding). `false`: a battle too costly
    /// to compute exactly ([`EXACT_COST_LIMIT`]); the figures are the frequencies in
    /// [`BattleOdds::samples`] battles played with seeded dice. Written only when
    /// `false`, so exact odds read as they always did.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub exact: bool,
    /// The battles an estimate played ([`ESTIMATE_SAMPLES`]); `None` for exact odds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<u32>,
}

fn yes() -> bool {
    true
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_true(b: &bool) -> bool {
    *b
}

impl BattleOdds {
    /// The probability of `outcome`.
    pub fn probability(&self, outcome: Outcome) -> f64 {
        match outcome {
            Outcome::AttackerWins => self.attacker_wins,
            Outcome::DefenderHolds => self.defender_holds,
            Outcome::BothDestroyed => self.both_destroyed,
            Outcome::AttackerRetreats => self.attacker_retreats,
        }
    }
}

/// The exact odds of bombardments of one hex (11.0, 10.1, R-13).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BombardOdds {
    /// Bombardments made one after another.
    pub shots: u8,
    /// The chance that one shot hits (10.1, Combat Supply).
    pub hit_chance: f64,
    /// `losses[k]`: the probability that exactly `k` units are lost (`k` = 0..=shots).
    pub losses: Vec<f64>,
    /// Expected number of units lost.
    pub expected_losses: f64,
    /// The units that can be hit.
    pub targets: PerKind,
    /// The distribution of the units left, fewest first.
    pub survivors: Vec<Survivors>,
}

/// How the odds of a battle are computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Exact when that costs at most [`EXACT_COST_LIMIT`], else estimated.
    #[default]
    Auto,
    /// Exact whatever it costs (up to four million states; `None` beyond).
    Exact,
    /// Estimated ([`ESTIMATE_SAMPLES`] battles with seeded dice).
    Estimate,
}

impl Method {
    /// The most cost computed exactly, and whether an estimate may stand in beyond.
    fn plan(self) -> (u64, bool) {
        match self {
            Method::Auto => (EXACT_COST_LIMIT, true),
            Method::Exact => (u64::MAX, false),
            Method::Estimate => (0, true),
        }
    }
}

/// The odds of the battle pending or in progress at `hex`, from its current step on
/// (mid-battle too: dice already rolled and casualties already chosen count), with the
/// default [`Policy`]. A battle too costly to compute exactly ([`EXACT_COST_LIMIT`])
/// gets a Monte Carlo estimate ([`BattleOdds::exact`] is `false`). `None` when no
/// battle is pending or fought there, or when even the estimate would take too long
/// ([`ESTIMATE_MAX_ROUNDS`]).
pub fn battle_odds(state: &Viktory, hex: Hex) -> Option<BattleOdds> {
    battle_odds_with(state, hex, Policy::default())
}

/// [`battle_odds`] with another policy.
pub fn battle_odds_with(state: &Viktory, hex: Hex, policy: Policy) -> Option<BattleOdds> {
    battle_odds_by(state, hex, policy, Method::Auto)
}

/// [`battle_odds_with`], computed by `method`.
pub fn battle_odds_by(
    state: &Viktory,
    hex: Hex,
    policy: Policy,
    method: Method,
) -> Option<BattleOdds> {
    let (model, entry, a_all, d_all) = battle_model(state, hex, policy)?;
    compute(
        &model,
        entry,
        a_all,
        d_all,
        model::MAX_STATES,
        method.plan(),
    )
}

/// The cost of the exact odds of the battle pending or in progress at `hex` under
/// `policy`, in the units of [`EXACT_COST_LIMIT`] (an upper bound of the steps of the
/// method's inner loops); `None` when there is no battle there.
pub fn battle_cost(state: &Viktory, hex: Hex, policy: Policy) -> Option<u64> {
    let (model, entry, _, _) = battle_model(state, hex, policy)?;
    Some(model::exact_cost(&model, entry))
}

/// The model of the battle pending or in progress at `hex`, where its odds start, and
/// the units whose losses count.
fn battle_model(
    state: &Viktory,
    hex: Hex,
    policy: Policy,
) -> Option<(Model<'_>, Entry, Counts, Counts)> {
    if let Some(b) = state.battle.as_ref().filter(|b| b.hex == hex) {
        return in_progress(state, b, policy);
    }
    if !state.turn.pending_battles.contains(&hex) {
        return None;
    }
    let attacker = state.turn.active;
    let units: Vec<(usize, Option<Hex>)> = fighter_indices(state, hex, attacker)
        .map(|i| (i, state.units[i].entered_from))
        .collect();
    let key = FreshKey::new(state, hex, attacker, &units, policy)?;
    let (m, entry) = key.model(&state.rules);
    let (a, d) = (m.attackers.counts(), m.defenders.counts());
    Some((m, entry, a, d))
}

/// The odds of a prospective attack: `attackers` (units of one player) move into `hex`
/// this turn and fight there, with the default [`Policy`]. Each unit enters from the
/// hex it stands in if that is next to `hex`, else from the neighbour of `hex` on the
/// straight line towards it (this matters for the hex-side bonus and the retreat).
/// Units of the same player already waiting in `hex` to fight join in. `None` when
/// there is nobody to fight there, a unit is missing, belongs to someone else, or
/// cannot fight in that hex (frigates fight in water, land units on land), or the
/// battle is too large even to estimate (see [`battle_odds`]).
pub fn attack_odds(state: &Viktory, hex: Hex, attackers: &[UnitId]) -> Option<BattleOdds> {
    attack_odds_with(state, hex, attackers, Policy::default())
}

/// [`attack_odds`] with another policy.
pub fn attack_odds_with(
    state: &Viktory,
    hex: Hex,
    attackers: &[UnitId],
    policy: Policy,
) -> Option<BattleOdds> {
    let first = state.unit(*attackers.first()?)?;
    let mut units = Vec::with_capacity(attackers.len());
    attack_roster(state, hex, first.owner, attackers, &mut units)?;
    fresh(state, hex, first.owner, &units, policy)
}

/// The units of a prospective attack by `attacker` on `hex` with their entry hexes (see
/// [`attack_odds`]), those already waiting there to fight included, into `units` as
/// indices into the state's units; `None` when a unit is missing, belongs to someone
/// else or cannot fight there.
fn attack_roster(
    state: &Viktory,
    hex: Hex,
    attacker: Seat,
    attackers: &[UnitId],
    units: &mut Vec<(usize, Option<Hex>)>,
) -> Option<()> {
    units.clear();
    let water = !state.terrain(hex)?.is_land();
    for &id in attackers {
        let i = state.units.binary_search_by_key(&id, |u| u.id).ok()?;
        let u = &state.units[i];
        if u.owner != attacker || (u.kind == UnitKind::Frigate) != water {
            return None;
        }
        if units.iter().any(|&(x, _)| x == i) {
            continue;
        }
        let from = if u.hex == hex && u.aboard.is_none() {
            u.entered_from
        } else if u.hex.distance(hex) == 1 {
            Some(u.hex)
        } else if u.hex == hex {
            None
        } else {
            Some(hex.step_towards(u.hex))
        };
        units.push((i, from));
    }
    for i in fighter_indices(state, hex, attacker) {
        if !units.iter().any(|&(x, _)| x == i) {
            units.push((i, state.units[i].entered_from));
        }
    }
    Some(())
}

/// The odds of `shots` bombardments of `target` by the player whose turn it is, one
/// after another, each hitting at his hit number or less (10.1, Combat Supply).
/// `None` when `target` holds nothing a bombardment can hit.
pub fn bombard_odds(state: &Viktory, target: Hex, shots: u8) -> Option<BombardOdds> {
    bombard_odds_with(state, target, shots, Policy::default())
}

/// [`bombard_odds`] with another policy (only its tactical choice matters).
pub fn bombard_odds_with(
    state: &Viktory,
    target: Hex,
    shots: u8,
    policy: Policy,
) -> Option<BombardOdds> {
    let attacker = state.turn.active;
    let defender = bombard::target_owner(state, target, attacker)?;
    let (counts, dice) = bombard_target(state, target, attacker, defender)?;
    let hit_max = state.hit_max_for(attacker);
    // A bombardment's 1s are chosen as a battle's would be: against the dice the
    // target's units would roll defending their hex.
    let dist = model::bombard(counts, shots, hit_max, policy.tactical, &dice);
    let before = model::count(counts);
    let mut losses = vec![0.0; usize::from(shots) + 1];
    let mut expected = 0.0;
    for &(c, p) in &dist {
        let lost = before - model::count(c);
        losses[lost as usize] += p;
        expected += f64::from(lost) * p;
    }
    Some(BombardOdds {
        shots,
        hit_chance: f64::from(hit_max.min(6)) / 6.0,
        losses,
        expected_losses: expected,
        targets: model::to_per_kind(counts),
        survivors: survivors(dist),
    })
}

/// The type of unit a firer takes with a 1 under [`TacticalPolicy::MostDice`], among
/// the types of `candidates` (the victim's units the rules let him pick now, in the
/// battle or bombardment in progress): the one whose loss costs the victim most dice in
/// the next fire round, then the one with the fewest units left, then the strongest
/// (frigates, cavalry, artillery, infantry). The odds assume exactly this choice; bots
/// and tests can play it. `None` when nothing is being fought or no candidate is known.
pub fn most_dice_kind(state: &Viktory, candidates: &[UnitId]) -> Option<UnitKind> {
    let kinds: Vec<UnitKind> = candidates
        .iter()
        .filter_map(|&id| state.unit(id))
        .map(|u| u.kind)
        .collect();
    let victim = state.unit(*candidates.first()?)?.owner;
    let allowed = |k: UnitKind| kinds.contains(&k);
    if let Some(b) = &state.bombard {
        let (counts, dice) = bombard_target(state, b.target, b.attacker, b.defender)?;
        return model::most_dice_pick(counts, allowed, &dice);
    }
    // In a battle: the victim's units not yet marked as this round's casualties.
    let b = state.battle.as_ref()?;
    let (m, _, _, _) = in_progress(state, b, Policy::default())?;
    if victim == b.attacker {
        model::most_dice_pick(m.attackers.counts(), allowed, &|c| m.attacker_dice(c))
    } else {
        model::most_dice_pick(m.defenders.counts(), allowed, &|c| m.defender_dice(c))
    }
}

/// The units of `defender` a bombardment of `target` can hit, by type, and the dice
/// those units would roll defending their hex (what a firer's 1 weighs, 10.1).
fn bombard_target(
    state: &Viktory,
    target: Hex,
    attacker: Seat,
    defender: Seat,
) -> Option<(Counts, impl Fn(Counts) -> u8 + '_)> {
    let water = !state.terrain(target)?.is_land();
    let mut counts: Counts = [0; 4];
    for u in fighters(state, target, defender).filter(|u| (u.kind == UnitKind::Frigate) == water) {
        counts[u.kind.index()] = counts[u.kind.index()].saturating_add(1);
    }
    let field = battle_dice::field(state, target, attacker, defender, water);
    let dice = move |c: Counts| {
        battle_dice::defender_dice(
            &state.rules,
            &field,
            model::to_per_kind(c),
            u8::try_from(model::count(c)).unwrap_or(u8::MAX),
            0,
        )
        .0
    };
    Some((counts, dice))
}

/// Units of `seat` fighting in `hex` (cargo never fights, 9.45).
fn fighters(s: &Viktory, hex: Hex, seat: Seat) -> impl Iterator<Item = &Unit> + '_ {
    s.units
        .iter()
        .filter(move |u| u.hex == hex && u.owner == seat && u.aboard.is_none())
}

/// Where the units of `seat` fighting in `hex` stand in the state's units.
fn fighter_indices(s: &Viktory, hex: Hex, seat: Seat) -> impl Iterator<Item = usize> + '_ {
    s.units
        .iter()
        .enumerate()
        .filter(move |(_, u)| u.hex == hex && u.owner == seat && u.aboard.is_none())
        .map(|(i, _)| i)
}

/// The defender of a battle `attacker` starts at `hex`, as the battle would name him.
fn defender_at(s: &Viktory, hex: Hex, attacker: Seat) -> Option<Seat> {
    s.units
        .iter()
        .find(|u| u.hex == hex && u.owner != attacker && u.aboard.is_none())
        .map(|u| u.owner)
        .or_else(|| s.town(hex).map(|t| t.owner))
        .filter(|&d| d != attacker)
}

/// A side's roster: the units that hits in `hex` can take (frigates in water, land
/// units on land, R-13), each type in the order the casualty policy loses them.
fn roster<'u>(
    s: &Viktory,
    water: bool,
    units: impl IntoIterator<Item = (&'u Unit, Option<Hex>)>,
) -> Roster {
    let mut r = Roster::default();
    fill_roster(&mut r, s, water, units, &mut Vec::new());
    r
}

/// [`roster`] into `r`, reusing its lists and the buffer `keyed`.
fn fill_roster<'u>(
    r: &mut Roster,
    s: &Viktory,
    water: bool,
    units: impl IntoIterator<Item = (&'u Unit, Option<Hex>)>,
    keyed: &mut Vec<(UnitKind, usize, UnitId, Option<Hex>)>,
) {
    keyed.clear();
    keyed.extend(
        units
            .into_iter()
            .filter(|(u, _)| (u.kind == UnitKind::Frigate) == water)
            .map(|(u, from)| {
                let cargo = if u.kind == UnitKind::Frigate {
                    s.units.iter().filter(|c| c.aboard == Some(u.id)).count()
                } else {
                    0
                };
                (u.kind, cargo, u.id, from)
            }),
    );
    // Unit ids are unique, so the unstable sort gives the one order.
    keyed.sort_unstable_by_key(|&(kind, cargo, id, _)| (kind, cargo, id));
    r.sides.iter_mut().for_each(Vec::clear);
    for &(kind, _, _, from) in keyed.iter() {
        r.sides[kind.index()].push(from);
    }
}

/// The model of a battle at `hex`, its rosters and retreat routes still to be set.
fn model(
    s: &Viktory,
    hex: Hex,
    attacker: Seat,
    defender: Seat,
    naval: bool,
    policy: Policy,
) -> Model<'_> {
    Model {
        rules: &s.rules,
        field: battle_dice::field(s, hex, attacker, defender, naval),
        attacker_hit_max: s.hit_max_for(attacker),
        defender_hit_max: s.hit_max_for(defender),
        attackers: Roster::default(),
        defenders: Roster::default(),
        retreat: None,
        policy,
    }
}

/// Everything the odds of a battle about to start depend on, besides the rules: the
/// [`Model`]'s parts and the Overwatch dice the defender fires first. Equal keys under
/// equal rules give equal odds, which is what [`OddsCache`] relies on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct FreshKey {
    field: battle_dice::Field,
    attacker_hit_max: u8,
    defender_hit_max: u8,
    attackers: Roster,
    defenders: Roster,
    retreat: battle::RetreatWays,
    policy: Policy,
    overwatch: u8,
}

/// Buffers a [`FreshKey`] is built with, kept by whoever builds many.
#[derive(Debug, Default)]
struct KeyBuffers {
    keyed: Vec<(UnitKind, usize, UnitId, Option<Hex>)>,
    entries: Vec<Hex>,
}

impl FreshKey {
    /// The key of a battle `attacker` is about to start at `hex` with these units (as
    /// indices into the state's units) and their entry hexes; `None` when there is
    /// nobody to fight.
    fn new(
        s: &Viktory,
        hex: Hex,
        attacker: Seat,
        units: &[(usize, Option<Hex>)],
        policy: Policy,
    ) -> Option<FreshKey> {
        let mut key = FreshKey::default();
        key.fill(s, hex, attacker, units, policy, &mut KeyBuffers::default())
            .then_some(key)
    }

    /// [`FreshKey::new`] in place, reusing this key's lists and `buffers`, so a program
    /// that asks again and again allocates nothing once they have grown; false when
    /// there is nobody to fight (the key is then left half-built).
    fn fill(
        &mut self,
        s: &Viktory,
        hex: Hex,
        attacker: Seat,
        units: &[(usize, Option<Hex>)],
        policy: Policy,
        buffers: &mut KeyBuffers,
    ) -> bool {
        let Some(defender) = defender_at(s, hex, attacker) else {
            return false;
        };
        let Some(terrain) = s.terrain(hex) else {
            return false;
        };
        let water = !terrain.is_land();
        let joining = units.iter().map(|&(i, from)| (&s.units[i], from));
        fill_roster(&mut self.attackers, s, water, joining, &mut buffers.keyed);
        let defending = fighters(s, hex, defender).map(|u| (u, None));
        fill_roster(&mut self.defenders, s, water, defending, &mut buffers.keyed);
        let a = self.attackers.counts();
        if model::count(a) == 0
            || (model::count(self.defenders.counts()) == 0 && s.town(hex).is_none())
        {
            return false;
        }
        let entries = &mut buffers.entries;
        entries.clear();
        entries.extend(units.iter().filter_map(|&(_, from)| from));
        entries.sort_unstable();
        entries.dedup();
        self.overwatch =
            battle_dice::overwatch_dice(s, hex, attacker, defender, model::to_per_kind(a), water);
        self.field = battle_dice::field(s, hex, attacker, defender, water);
        self.attacker_hit_max = s.hit_max_for(attacker);
        self.defender_hit_max = s.hit_max_for(defender);
        self.retreat = battle::retreat_ways(s, attacker, entries);
        self.policy = policy;
        true
    }

    /// Solves the battle by `plan` (see [`compute`]).
    fn solve(&self, rules: &Rules, limit: usize, plan: (u64, bool)) -> Option<BattleOdds> {
        let (m, entry) = self.model(rules);
        let (a, d) = (m.attackers.counts(), m.defenders.counts());
        compute(&m, entry, a, d, limit, plan)
    }

    /// The battle's model and where its odds start.
    fn model<'r>(&self, rules: &'r Rules) -> (Model<'r>, Entry) {
        let m = Model {
            rules,
            field: self.field.clone(),
            attacker_hit_max: self.attacker_hit_max,
            defender_hit_max: self.defender_hit_max,
            attackers: self.attackers.clone(),
            defenders: self.defenders.clone(),
            retreat: Some(self.retreat),
            policy: self.policy,
        };
        let entry = if self.overwatch > 0 {
            Entry::Overwatch(Dice::roll(self.overwatch, m.defender_hit_max))
        } else {
            Entry::PreBattle
        };
        (m, entry)
    }
}

/// A battle about to start with these attacking units and their entry hexes.
fn fresh(
    s: &Viktory,
    hex: Hex,
    attacker: Seat,
    units: &[(usize, Option<Hex>)],
    policy: Policy,
) -> Option<BattleOdds> {
    FreshKey::new(s, hex, attacker, units, policy)?.solve(
        &s.rules,
        model::MAX_STATES,
        Method::Auto.plan(),
    )
}

/// A memo of [`attack_odds`] for programs that ask for the odds of many prospective
/// attacks under one ruleset (the bots ask at every evaluation). Its answers are
/// [`attack_odds`]'s, each distinct battle computed once: the memo is keyed by
/// everything the odds depend on (the units' types, entry hexes and casualty order,
/// the field's dice, the hit numbers, the retreat routes), not by the whole position.
/// A question is first looked up by what lies in and next to its hex (`NearKey`),
/// which is cheaper to gather than the battle's key; only a question not asked before
/// has its battle's key worked out. It forgets everything when the rules change or
/// when it grows past its capacity.
#[derive(Debug)]
pub struct OddsCache {
    rules: Option<Rules>,
    limit: usize,
    /// Each battle asked about, with where its answer is in `answers`.
    memo: HashMap<FreshKey, usize, BuildHasherDefault<KeyHasher>>,
    answers: Vec<Option<BattleOdds>>,
    /// The question being asked, built in place: a battle answered before is looked up
    /// without an allocation.
    asked: FreshKey,
    units: Vec<(usize, Option<Hex>)>,
    buffers: KeyBuffers,
    /// Each question asked, by everything near its hex ([`NearKey`]), with where its
    /// answer is in `answers` ([`NOBODY`]: nobody to fight): a question asked before is
    /// answered without working out its battle's key.
    near: HashMap<NearKey, usize, BuildHasherDefault<KeyHasher>>,
    near_asked: NearKey,
    /// The hexes the attack is entered from that lie beyond the battle hex's neighbours.
    far: Vec<Hex>,
}

/// In [`OddsCache::near`]: the question had nobody to fight.
const NOBODY: usize = usize::MAX;

/// Everything in a state that [`attack_roster`] and [`FreshKey::fill`] (and so the odds
/// of a prospective attack) can read, for one question, packed into words: the battle
/// hex and the attacking seat; each unit asked about; the terrain of the hex and of its
/// neighbours; the town there; the defender and both sides' hit numbers and whether
/// the defender holds his capital; the frigate bombardments of the hex this turn; and
/// every unit in or next to the hex, at a hex the attack is entered from, or aboard a
/// unit asked about. A unit is given by its id, owner, kind, hex, frigate, loads and
/// entry hex, not its movement left nor its flags, which no key reads. Equal near keys
/// under equal rules give equal [`FreshKey`]s; debug builds check each answer the
/// near key gives against the battle's key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct NearKey {
    words: Vec<u64>,
}

impl std::hash::Hash for NearKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for &w in &self.words {
            state.write_u64(w);
        }
    }
}

/// A hex as a word.
fn hex_word(h: Hex) -> u64 {
    u64::from(h.q as u32) | u64::from(h.r as u32) << 32
}

/// A terrain (or none) as a small number.
fn terrain_word(t: Option<Terrain>) -> u64 {
    t.map_or(0, |t| t as u64 + 1)
}

impl NearKey {
    /// Appends a unit's three words (the first never all ones).
    fn push_unit(&mut self, u: &Unit) {
        self.words.push(
            u64::from(u.id.0)
                | u64::from(u.owner.0) << 16
                | (u.kind.index() as u64) << 24
                | u.aboard.map_or(0, |a| u64::from(a.0) + 1) << 32
                | u64::from(u.loads) << 49
                | u64::from(u.entered_from.is_some()) << 57,
        );
        self.words.push(hex_word(u.hex));
        self.words.push(u.entered_from.map_or(0, hex_word));
    }

    /// Builds the key of `attackers` attacking `hex` in place; `None` when
    /// [`attack_roster`] would refuse them for a unit that does not exist (or no units).
    fn fill(
        &mut self,
        s: &Viktory,
        hex: Hex,
        attackers: &[UnitId],
        far: &mut Vec<Hex>,
    ) -> Option<()> {
        let first = s.unit(*attackers.first()?)?;
        let attacker = first.owner;
        self.words.clear();
        far.clear();
        self.words.push(hex_word(hex));
        self.words
            .push(u64::from(attacker.0) | (attackers.len() as u64) << 8);
        let mut frigates = false;
        // Each unit asked about enters from a neighbour of the hex (the first step
        // towards it), or from where it entered the hex, a unit there (below).
        for &id in attackers {
            let u = s.unit(id)?;
            self.push_unit(u);
            frigates |= u.kind == UnitKind::Frigate;
        }
        let mut terrain = terrain_word(s.terrain(hex));
        for (k, n) in hex.neighbors().iter().enumerate() {
            terrain |= terrain_word(s.terrain(*n)) << (3 * (k + 1));
        }
        self.words.push(terrain);
        let town = s.town(hex);
        self.words.push(town.map_or(0, |t| {
            1 | u64::from(t.owner.0) << 1
                | u64::from(t.city) << 9
                | t.capital_of.map_or(0, |c| u64::from(c.0) + 1) << 10
                | t.metropolis.map_or(0, |k| k.index() as u64 + 1) << 19
        }));
        // The units near: in or next to the hex (its fighters, the frigates and
        // artillery next to it, the entry hexes next to it with their frigates' cargo).
        let start = self.words.len();
        self.words.push(0);
        let mut near = 0u64;
        // The defender as `defender_at` names him, found in the same pass.
        let mut defending = None;
        for u in &s.units {
            if u.hex.distance(hex) <= 1 {
                self.push_unit(u);
                near += 1;
                if u.hex == hex {
                    if defending.is_none() && u.owner != attacker && u.aboard.is_none() {
                        defending = Some(u.owner);
                    }
                    if let Some(e) = u.entered_from.filter(|e| e.distance(hex) > 1) {
                        far.push(e);
                    }
                }
            }
        }
        self.words[start] = near;
        let defender = defending
            .or_else(|| town.map(|t| t.owner))
            .filter(|&d| d != attacker);
        debug_assert_eq!(defender, defender_at(s, hex, attacker));
        // Entries beyond the neighbours (roads): their terrain and every unit there.
        far.sort_unstable();
        far.dedup();
        self.words.push(far.len() as u64);
        for &e in far.iter() {
            self.words.push(hex_word(e));
            self.words.push(terrain_word(s.terrain(e)));
        }
        let start = self.words.len();
        self.words.push(0);
        let mut more = 0u64;
        if frigates || !far.is_empty() {
            for u in &s.units {
                let aboard_asked = frigates && u.aboard.is_some_and(|a| attackers.contains(&a));
                if aboard_asked || far.contains(&u.hex) {
                    self.push_unit(u);
                    more += 1;
                }
            }
        }
        self.words[start] = more;
        self.words.push(defender.map_or(0, |d| {
            1 | u64::from(d.0) << 1
                | u64::from(s.hit_max_for(d)) << 9
                | u64::from(s.holds_capital(d)) << 17
        }));
        self.words.push(u64::from(s.hit_max_for(attacker)));
        // Last, the bombardments: each frigate's id and the frigate (all ones, which no
        // unit's first word is, when it is gone).
        for &(id, target) in &s.turn.frigate_bombards {
            if target == hex {
                self.words.push(u64::from(id.0));
                match s.unit(id) {
                    Some(f) => self.push_unit(f),
                    None => self.words.push(u64::MAX),
                }
            }
        }
        Some(())
    }
}

/// A multiplicative hasher for the memo's keys: they describe battles a program asks
/// about, not input chosen to collide, and `SipHash` took a tenth of a bot's search.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_i32(&mut self, n: i32) {
        self.write_u64(u64::from(n as u32));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

impl OddsCache {
    /// Battles remembered at most; past this the memo starts again.
    const CAPACITY: usize = 50_000;

    /// Questions remembered at most ([`NearKey`]); past this they start again.
    const NEAR_CAPACITY: usize = 50_000;

    /// A memo that computes battles of at most `max_states` states (the two sides'
    /// numbers of possible unit counts multiplied) and answers `None` for larger ones,
    /// and for those that cost more than [`EXACT_COST_LIMIT`] (no estimates: a program
    /// asking thousands of times wants the answers fast).
    pub fn new(max_states: usize) -> OddsCache {
        OddsCache {
            rules: None,
            limit: max_states,
            memo: HashMap::default(),
            answers: Vec::new(),
            asked: FreshKey::default(),
            units: Vec::new(),
            buffers: KeyBuffers::default(),
            near: HashMap::default(),
            near_asked: NearKey::default(),
            far: Vec::new(),
        }
    }

    /// [`attack_odds`], remembered; `None` also when the battle has more states than
    /// this memo's limit or is too costly to compute exactly.
    pub fn attack_odds(
        &mut self,
        state: &Viktory,
        hex: Hex,
        attackers: &[UnitId],
    ) -> Option<&BattleOdds> {
        self.check_rules(state);
        self.ask(state, hex, attackers)
    }

    /// Questions about `state` alone, its rules compared with the memo's once for all
    /// of them rather than at each (an evaluation asks about every town).
    pub fn asking<'c, 's>(&'c mut self, state: &'s Viktory) -> Asking<'c, 's> {
        self.check_rules(state);
        Asking { cache: self, state }
    }

    /// Forgets everything if `state`'s rules are not the memo's.
    fn check_rules(&mut self, state: &Viktory) {
        if self.rules.as_ref() != Some(&state.rules) {
            self.rules = Some(state.rules.clone());
            self.forget();
        }
    }

    /// [`OddsCache::attack_odds`] under the memo's rules, which are `state`'s.
    fn ask(&mut self, state: &Viktory, hex: Hex, attackers: &[UnitId]) -> Option<&BattleOdds> {
        self.near_asked.fill(state, hex, attackers, &mut self.far)?;
        if let Some(&i) = self.near.get(&self.near_asked) {
            debug_assert_eq!(i, self.answer_index(state, hex, attackers), "near key");
            return self.answers.get(i).and_then(Option::as_ref);
        }
        let i = self.answer_index(state, hex, attackers);
        if self.near.len() >= Self::NEAR_CAPACITY {
            self.near.clear();
        }
        self.near.insert(self.near_asked.clone(), i);
        self.answers.get(i).and_then(Option::as_ref)
    }

    /// Forgets every battle and question.
    fn forget(&mut self) {
        self.memo.clear();
        self.answers.clear();
        self.near.clear();
    }

    /// Where the answer to the question is in `answers`, the battle worked out and
    /// remembered if it is new; [`NOBODY`] when there is nobody to fight.
    fn answer_index(&mut self, state: &Viktory, hex: Hex, attackers: &[UnitId]) -> usize {
        let Some(first) = attackers.first().and_then(|&id| state.unit(id)) else {
            return NOBODY;
        };
        if attack_roster(state, hex, first.owner, attackers, &mut self.units).is_none() {
            return NOBODY;
        }
        let (asked, units, buffers) = (&mut self.asked, &self.units, &mut self.buffers);
        if !asked.fill(state, hex, first.owner, units, Policy::default(), buffers) {
            return NOBODY;
        }
        if let Some(&i) = self.memo.get(&self.asked) {
            return i;
        }
        if self.memo.len() >= Self::CAPACITY {
            self.forget();
        }
        let odds = self
            .asked
            .solve(&state.rules, self.limit, (EXACT_COST_LIMIT, false));
        self.memo.insert(self.asked.clone(), self.answers.len());
        self.answers.push(odds);
        self.answers.len() - 1
    }
}

/// Questions to an [`OddsCache`] about one state ([`OddsCache::asking`]).
#[derive(Debug)]
pub struct Asking<'c, 's> {
    cache: &'c mut OddsCache,
    state: &'s Viktory,
}

impl Asking<'_, '_> {
    /// [`OddsCache::attack_odds`] of the state asked about.
    pub fn attack_odds(&mut self, hex: Hex, attackers: &[UnitId]) -> Option<&BattleOdds> {
        self.cache.ask(self.state, hex, attackers)
    }
}

/// A battle in progress, from its current step on: its model, where its odds start,
/// and the units whose losses count (the marked casualties included).
fn in_progress<'s>(
    s: &'s Viktory,
    b: &Battle,
    policy: Policy,
) -> Option<(Model<'s>, Entry, Counts, Counts)> {
    let water = !s.terrain(b.hex)?.is_land();
    let unmarked = |seat: Seat| -> Vec<(&Unit, Option<Hex>)> {
        fighters(s, b.hex, seat)
            .filter(|u| !b.marked.contains(&u.id))
            .map(|u| (u, u.entered_from))
            .collect()
    };
    let attackers = roster(s, water, unmarked(b.attacker));
    let defenders = roster(s, water, unmarked(b.defender));
    let built = Model {
        attackers,
        defenders,
        retreat: (!b.placement).then(|| battle::retreat_ways(s, b.attacker, &b.entries)),
        ..model(s, b.hex, b.attacker, b.defender, b.naval, policy)
    };
    let def = built.defenders.counts();
    // Everyone still in the hex, the marked casualties included, for the losses.
    let all = |seat: Seat| -> Counts {
        let mut c = [0u8; 4];
        for u in fighters(s, b.hex, seat).filter(|u| (u.kind == UnitKind::Frigate) == water) {
            c[u.kind.index()] = c[u.kind.index()].saturating_add(1);
        }
        c
    };
    let (a_all, d_all) = (all(b.attacker), all(b.defender));
    let defenders_before = model::count(d_all);
    let att_hit = built.attacker_hit_max;
    let def_hit = built.defender_hit_max;
    // The dice of the step now being rolled: those rolled so far, and the rest.
    let rolling = |hit_max: u8| {
        let mut known = Hits::from_rolls(&b.rolls, hit_max);
        known.regular = known.regular.saturating_add(b.sure_hits);
        Dice::Roll {
            known,
            dice: b.to_roll,
            hit_max,
        }
    };
    let entry = match b.step {
        BattleStep::Overwatch => Entry::Overwatch(rolling(def_hit)),
        BattleStep::OverwatchCasualties => Entry::Overwatch(Dice::Fixed(b.attacker_hits)),
        BattleStep::PreBattleFire => {
            let art = def[UnitKind::Artillery.index()];
            let pd = battle_dice::defender_pre_battle_dice(&s.rules, b.naval, art);
            Entry::PreBattleFire {
                defenders_before,
                on_defender: rolling(att_hit),
                on_attacker: Dice::roll(pd, def_hit),
            }
        }
        BattleStep::PreBattleDefense => Entry::PreBattleFire {
            defenders_before,
            on_defender: Dice::Fixed(b.defender_hits),
            on_attacker: rolling(def_hit),
        },
        BattleStep::PreBattleCasualties => Entry::PreBattleFire {
            defenders_before,
            on_defender: Dice::Fixed(b.defender_hits),
            on_attacker: Dice::Fixed(b.attacker_hits),
        },
        BattleStep::AttackerFire => Entry::Exchange {
            defenders_before,
            on_defender: rolling(att_hit),
            on_attacker: None,
        },
        BattleStep::DefenderFire => Entry::Exchange {
            defenders_before,
            on_defender: Dice::Fixed(b.defender_hits),
            on_attacker: Some(rolling(def_hit)),
        },
        BattleStep::Casualties => Entry::Exchange {
            defenders_before,
            on_defender: Dice::Fixed(b.defender_hits),
            on_attacker: Some(Dice::Fixed(b.attacker_hits)),
        },
        BattleStep::RetreatOption => Entry::RetreatOption,
        BattleStep::Retreating => Entry::Retreating,
    };
    Some((built, entry, a_all, d_all))
}

/// The odds of the battle of `m` from `entry` by `plan` (the most cost to compute
/// exactly, whether to estimate beyond): exact when that costs at most the first and
/// has at most `limit` states, else (if the second) the Monte Carlo estimate.
/// `a_all`, `d_all`: the units whose losses count.
fn compute(
    m: &Model<'_>,
    entry: Entry,
    a_all: Counts,
    d_all: Counts,
    limit: usize,
    (cost_limit, estimate): (u64, bool),
) -> Option<BattleOdds> {
    let (a, d) = (m.attackers.counts(), m.defenders.counts());
    if model::exact_cost(m, entry) <= cost_limit
        && let Some(solver) = Solver::with_limit(m, limit)
    {
        let start = solver.start(entry, a, d);
        return Some(report(solver.solve(&start), a_all, d_all, None));
    }
    if !estimate {
        return None;
    }
    let tally =
        Sampler::new(m, seed(m, entry)).run(entry, a, d, ESTIMATE_SAMPLES, ESTIMATE_MAX_ROUNDS)?;
    Some(report(tally, a_all, d_all, Some(ESTIMATE_SAMPLES)))
}

/// The estimate's seed: a hash of everything the battle's odds depend on (FNV-1a, so
/// that it is the same on every machine and in every build).
fn seed(m: &Model<'_>, entry: Entry) -> u64 {
    use std::hash::Hash;
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    if let Ok(rules) = serde_json::to_vec(m.rules) {
        h.write(&rules);
    }
    m.field.hash(&mut h);
    m.attacker_hit_max.hash(&mut h);
    m.defender_hit_max.hash(&mut h);
    m.attackers.hash(&mut h);
    m.defenders.hash(&mut h);
    m.retreat.hash(&mut h);
    m.policy.hash(&mut h);
    entry.hash(&mut h);
    h.finish()
}

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The odds as reported, from the tally of the exact method or of an estimate of
/// `samples` battles; `a_all`, `d_all`: the units whose losses count.
fn report(tally: Tally, a_all: Counts, d_all: Counts, samples: Option<u32>) -> BattleOdds {
    let left = |v: &[(Counts, f64)]| -> f64 {
        v.iter().map(|&(c, p)| f64::from(model::count(c)) * p).sum()
    };
    let o = tally.outcomes;
    BattleOdds {
        attacker_wins: o[Outcome::AttackerWins as usize],
        defender_holds: o[Outcome::DefenderHolds as usize],
        both_destroyed: o[Outcome::BothDestroyed as usize],
        attacker_retreats: o[Outcome::AttackerRetreats as usize],
        expected_attacker_losses: f64::from(model::count(a_all)) - left(&tally.attackers),
        expected_defender_losses: f64::from(model::count(d_all)) - left(&tally.defenders),
        attackers: model::to_per_kind(a_all),
        defenders: model::to_per_kind(d_all),
        attacker_survivors: survivors(tally.attackers),
        defender_survivors: survivors(tally.defenders),
        exact: samples.is_none(),
        samples,
    }
}

fn survivors(mut v: Vec<(Counts, f64)>) -> Vec<Survivors> {
    v.sort_by(|x, y| {
        model::count(x.0)
            .cmp(&model::count(y.0))
            .then_with(|| x.0.cmp(&y.0))
    });
    v.into_iter()
        .map(|(c, probability)| Survivors {
            units: model::to_per_kind(c),
            probability,
        })
        .collect()
}
