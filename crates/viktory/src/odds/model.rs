//! The exact battle computation: a forward pass of probability mass over the battle's
//! states (the units left on each side), from the highest-numbered state down.
//!
//! A state is the number of units of each type left on each side. Within a type the
//! casualty policy always loses the same unit first (R-14: the emptiest frigate, then
//! the lowest id), so the units left of a type are always the last ones of its
//! [`Roster`] list; that fixes their entry hex sides too (hex-side bonus dice). States
//! are numbered in mixed radix, so a casualty always leads to a lower number and one
//! pass from the top settles every state; a round without casualties (a state to
//! itself) is summed as a geometric series.

use std::collections::BTreeMap;

use engine::GameRng;
use hexmap::Hex;

use super::{Outcome, Policy, RetreatPolicy, TacticalPolicy};
use crate::options::Rules;
use crate::rules::battle::RetreatWays;
use crate::rules::battle_dice::{self, Field};
use crate::rules::casualties::POLICY_ORDER;
use crate::state::Hits;
use crate::unit::{PerKind, UnitKind};

/// The largest number of states one computation may visit.
pub(crate) const MAX_STATES: usize = 4_000_000;

/// Unit counts by type, indexed by [`UnitKind::index`].
pub(crate) type Counts = [u8; 4];

/// One side's units fighting in the battle: per type (by [`UnitKind::index`]), the hex
/// each entered the battle hex from, in the order the casualty policy loses them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Roster {
    pub(crate) sides: [Vec<Option<Hex>>; 4],
}

impl Roster {
    pub(crate) fn counts(&self) -> Counts {
        let mut c = [0u8; 4];
        for (k, v) in self.sides.iter().enumerate() {
            c[k] = v.len().min(usize::from(u8::MAX)) as u8;
        }
        c
    }
}

fn total(c: Counts) -> u32 {
    c.iter().map(|&n| u32::from(n)).sum()
}

fn per_kind(c: Counts) -> PerKind {
    PerKind {
        infantry: c[UnitKind::Infantry.index()],
        cavalry: c[UnitKind::Cavalry.index()],
        artillery: c[UnitKind::Artillery.index()],
        frigate: c[UnitKind::Frigate.index()],
    }
}

/// Where the mass of one state goes: on to the start of a fire round in another state,
/// or to the end of the battle. States are the units left on each side (attacker,
/// defender).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Next {
    /// The start of a fire round (12.3 step 1) with these units left.
    Round(Counts, Counts),
    /// The battle ends this way, with these units left.
    End(Outcome, Counts, Counts),
}

/// The probability of each (tactical, regular) hit count from some dice.
type HitDist = Vec<(Hits, f64)>;

/// Mixed-radix numbering of one side's counts.
#[derive(Clone, Debug)]
struct Radix {
    full: Counts,
    stride: [usize; 4],
    len: usize,
}

impl Radix {
    fn new(full: Counts) -> Radix {
        let mut stride = [0usize; 4];
        let mut len = 1usize;
        for k in 0..4 {
            stride[k] = len;
            len = len.saturating_mul(usize::from(full[k]) + 1);
        }
        Radix { full, stride, len }
    }

    fn index(&self, c: Counts) -> usize {
        (0..4).map(|k| usize::from(c[k]) * self.stride[k]).sum()
    }

    fn counts(&self, mut i: usize) -> Counts {
        let mut c = [0u8; 4];
        for (n, &full) in c.iter_mut().zip(&self.full) {
            let base = usize::from(full) + 1;
            *n = (i % base) as u8;
            i /= base;
        }
        c
    }
}

/// Hit probabilities for `n` dice that hit at `hit_max` or less (10.1): a 1 is a
/// tactical hit, 2 to `hit_max` a regular one.
fn hit_dist(n: u8, hit_max: u8) -> HitDist {
    let h = f64::from(hit_max.clamp(1, 6));
    let (p1, p2, p0): (f64, f64, f64) = (1.0 / 6.0, (h - 1.0) / 6.0, (6.0 - h) / 6.0);
    let n = u32::from(n);
    // Binomial coefficients by Pascal's triangle, exact in f64 for any dice count here.
    let mut row = vec![1.0f64];
    let mut rows = vec![row.clone()];
    for _ in 0..n {
        let mut next = vec![1.0; row.len() + 1];
        for i in 1..row.len() {
            next[i] = row[i - 1] + row[i];
        }
        row = next;
        rows.push(row.clone());
    }
    let mut out = Vec::new();
    for t in 0..=n {
        for r in 0..=(n - t) {
            let m = n - t - r;
            let ways = rows[n as usize][t as usize] * rows[(n - t) as usize][r as usize];
            let p = ways * p1.powi(t as i32) * p2.powi(r as i32) * p0.powi(m as i32);
            if p > 0.0 {
                out.push((
                    Hits {
                        tactical: t as u8,
                        regular: r as u8,
                    },
                    p,
                ));
            }
        }
    }
    out
}

/// Hits already scored plus those of `left` dice still to roll.
pub(crate) fn hit_dist_from(known: Hits, left: u8, hit_max: u8) -> HitDist {
    hit_dist(left, hit_max)
        .into_iter()
        .map(|(h, p)| {
            (
                Hits {
                    tactical: h.tactical.saturating_add(known.tactical),
                    regular: h.regular.saturating_add(known.regular),
                },
                p,
            )
        })
        .collect()
}

/// How the hits of one fire step come about: rolled already, or dice still to roll on
/// top of the hits rolled so far (10.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Dice {
    /// The hits are known.
    Fixed(Hits),
    /// `dice` dice still to roll, hitting at `hit_max` or less, added to `known`.
    Roll {
        /// The hits rolled so far in this step (sure hits of 15.4 included).
        known: Hits,
        /// The dice still to roll.
        dice: u8,
        /// The highest die that hits.
        hit_max: u8,
    },
}

impl Dice {
    /// `dice` dice to roll, nothing rolled yet.
    pub(crate) fn roll(dice: u8, hit_max: u8) -> Dice {
        Dice::Roll {
            known: Hits::default(),
            dice,
            hit_max,
        }
    }

    /// How many different hit counts these dice can give (the length of their
    /// distribution).
    fn outcomes(self) -> u64 {
        match self {
            Dice::Fixed(_) => 1,
            Dice::Roll { dice, hit_max, .. } => outcomes(dice, hit_max),
        }
    }
}

/// The number of (tactical, regular) hit counts of `n` dice with a chance above zero:
/// every die hits at 6, only 1s hit at 1.
fn outcomes(n: u8, hit_max: u8) -> u64 {
    let n = u64::from(n);
    if hit_max >= 6 || hit_max <= 1 {
        n + 1
    } else {
        (n + 1) * (n + 2) / 2
    }
}

/// Where a battle's odds start: the step it stands at (12.3) and what is rolled already.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Entry {
    /// The pre-battle segment from its start: each side's artillery fires, if any.
    PreBattle,
    /// Overwatch with these hits on the attacker, then his pre-battle fire (Expansion,
    /// Artillery Characteristics).
    Overwatch(Dice),
    /// Both sides' pre-battle fire with these hits, casualties removed together.
    PreBattleFire {
        /// Defending units at the start of the pre-battle segment.
        defenders_before: u32,
        /// The attacker's pre-battle hits on the defender.
        on_defender: Dice,
        /// The defender's pre-battle hits on the attacker.
        on_attacker: Dice,
    },
    /// A fire round's exchange (12.3 steps 1–4): the attacker's hits, then the
    /// defender's (his dice after suppression, when `None`).
    Exchange {
        /// Defending units at the start of the exchange, marked casualties included.
        defenders_before: u32,
        /// The attacker's hits.
        on_defender: Dice,
        /// The defender's hits, when his dice are known already.
        on_attacker: Option<Dice>,
    },
    /// The attacker decides whether to retreat (12.3 step 3).
    RetreatOption,
    /// The attacker is retreating.
    Retreating,
}

/// Everything one battle's odds depend on.
pub(crate) struct Model<'r> {
    pub(crate) rules: &'r Rules,
    pub(crate) field: Field,
    /// The attacker's and the defender's highest hitting die (10.1, Combat Supply).
    pub(crate) attacker_hit_max: u8,
    pub(crate) defender_hit_max: u8,
    pub(crate) attackers: Roster,
    pub(crate) defenders: Roster,
    /// The retreat routes, `None` when the attacker may not retreat (13.5).
    pub(crate) retreat: Option<RetreatWays>,
    pub(crate) policy: Policy,
}

impl Model<'_> {
    /// The policy's retreat decision at the retreat option (12.3 step 3).
    fn retreats(&self, a: Counts) -> bool {
        let Some(ways) = self.retreat else {
            return false;
        };
        let RetreatPolicy::WhenFewerThan(n) = self.policy.retreat else {
            return false;
        };
        let frigates = usize::from(a[UnitKind::Frigate.index()]);
        let land = total(a) as usize - frigates;
        total(a) < u32::from(n) && ways.allow(self.rules.retreat, land, frigates)
    }

    /// After both sides' casualties of a fire round are removed (12.3 steps 2–4).
    /// `defenders_before`: defending units at the start of the exchange.
    pub(crate) fn after_round(&self, defenders_before: u32, a: Counts, d: Counts) -> Next {
        if total(a) == 0 {
            if total(d) == 0 && defenders_before > 0 {
                Next::End(Outcome::BothDestroyed, a, d)
            } else {
                Next::End(Outcome::DefenderHolds, a, d)
            }
        } else if total(d) == 0 {
            Next::End(Outcome::AttackerWins, a, d)
        } else {
            self.retreat_option(a, d)
        }
    }

    /// Rule 12.3 step 3: retreat now, or fight another round.
    pub(crate) fn retreat_option(&self, a: Counts, d: Counts) -> Next {
        if self.retreats(a) {
            Next::End(Outcome::AttackerRetreats, a, d)
        } else {
            Next::Round(a, d)
        }
    }

    /// After pre-battle casualties (12.3 step 0): outside a town or city a defence wiped
    /// out loses at once; an attack wiped out is over.
    pub(crate) fn after_pre_battle(&self, defenders_before: u32, a: Counts, d: Counts) -> Next {
        if total(a) == 0 {
            self.after_round(defenders_before, a, d)
        } else if total(d) == 0 && !self.field.town_held {
            Next::End(Outcome::AttackerWins, a, d)
        } else {
            Next::Round(a, d)
        }
    }

    /// Rule 12.3 step 2: the defender's dice with the units `c` left (no suppression):
    /// what a tactical hit on him weighs ([`TacticalPolicy::MostDice`]).
    pub(crate) fn defender_dice(&self, c: Counts) -> u8 {
        battle_dice::defender_dice(
            self.rules,
            &self.field,
            per_kind(c),
            u8::try_from(total(c)).unwrap_or(u8::MAX),
            0,
        )
        .0
    }

    /// The defender's units `d` after `hits` (10.1, R-14).
    pub(crate) fn lose_def(&self, d: Counts, hits: Hits) -> Counts {
        lose(d, hits, false, self.policy.tactical, &|c| {
            self.defender_dice(c)
        })
    }

    /// Rule 12.3 steps 1–2: the attacker's dice with the units `a` left (the last ones
    /// of each type's roster, with their hex sides), when defending units are left.
    pub(crate) fn attacker_dice(&self, c: Counts) -> u8 {
        let sides: Vec<Hex> = (0..4)
            .flat_map(|k| {
                let all = &self.attackers.sides[k];
                all[all.len() - usize::from(c[k])..]
                    .iter()
                    .flatten()
                    .copied()
            })
            .collect();
        battle_dice::attacker_dice(self.rules, &self.field, per_kind(c), &sides)
    }
}

/// What the forward pass adds up.
pub(crate) struct Tally {
    pub(crate) outcomes: [f64; 4],
    pub(crate) attackers: Vec<(Counts, f64)>,
    pub(crate) defenders: Vec<(Counts, f64)>,
}

/// The solver for one model: state numbering and per-state tables.
pub(crate) struct Solver<'m, 'r> {
    m: &'m Model<'r>,
    att: Radix,
    def: Radix,
    /// Attacker dice per attacker state (when defending units are left).
    att_dice: Vec<u8>,
    /// Hit tables by dice count, for each side.
    att_hits: Vec<HitDist>,
    def_hits: Vec<HitDist>,
}

impl<'m, 'r> Solver<'m, 'r> {
    /// `None` when the battle has more states than `limit`.
    pub(crate) fn with_limit(m: &'m Model<'r>, limit: usize) -> Option<Solver<'m, 'r>> {
        let att = Radix::new(m.attackers.counts());
        let def = Radix::new(m.defenders.counts());
        if att.len.saturating_mul(def.len) > limit.min(MAX_STATES) {
            return None;
        }
        let att_dice: Vec<u8> = (0..att.len)
            .map(|i| m.attacker_dice(att.counts(i)))
            .collect();
        let full_def = def.full;
        let max_att = att_dice.iter().copied().max().unwrap_or(0);
        let (max_def, _) = battle_dice::defender_dice(
            m.rules,
            &m.field,
            per_kind(full_def),
            u8::try_from(total(full_def)).unwrap_or(u8::MAX),
            0,
        );
        let att_hits = (0..=max_att)
            .map(|n| hit_dist(n, m.attacker_hit_max))
            .collect();
        let def_hits = (0..=max_def)
            .map(|n| hit_dist(n, m.defender_hit_max))
            .collect();
        Some(Solver {
            m,
            att,
            def,
            att_dice,
            att_hits,
            def_hits,
        })
    }

    fn split(&self, state: usize) -> (Counts, Counts) {
        (
            self.att.counts(state / self.def.len),
            self.def.counts(state % self.def.len),
        )
    }

    /// Hits of the attacker's dice (`n` of them).
    pub(crate) fn attacker_hits(&self, n: u8) -> HitDist {
        self.att_hits
            .get(usize::from(n))
            .cloned()
            .unwrap_or_else(|| hit_dist(n, self.m.attacker_hit_max))
    }

    /// Hits of the defender's dice (`n` of them).
    pub(crate) fn defender_hits(&self, n: u8) -> HitDist {
        self.def_hits
            .get(usize::from(n))
            .cloned()
            .unwrap_or_else(|| hit_dist(n, self.m.defender_hit_max))
    }

    /// The attacker's units `a` after `hits` (10.1, R-14), his dice read from the
    /// table of every state.
    fn lose_att(&self, a: Counts, hits: Hits, overwatch: bool) -> Counts {
        lose(a, hits, overwatch, self.m.policy.tactical, &|c| {
            self.att_dice[self.att.index(c)]
        })
    }

    /// The defender's units `d` after `hits` (10.1, R-14).
    fn lose_def(&self, d: Counts, hits: Hits) -> Counts {
        self.m.lose_def(d, hits)
    }

    /// The hits of `dice` as a distribution.
    fn dist(dice: Dice) -> HitDist {
        match dice {
            Dice::Fixed(h) => vec![(h, 1.0)],
            Dice::Roll {
                known,
                dice,
                hit_max,
            } => hit_dist_from(known, dice, hit_max),
        }
    }

    /// The battle from `entry` with units `a` and `d` left: where its mass goes first.
    pub(crate) fn start(&self, entry: Entry, a: Counts, d: Counts) -> Vec<(Next, f64)> {
        match entry {
            Entry::PreBattle => self.pre_battle_fresh(a, d),
            Entry::Overwatch(on_attacker) => self.overwatch(a, d, &Self::dist(on_attacker)),
            Entry::PreBattleFire {
                defenders_before,
                on_defender,
                on_attacker,
            } => self.pre_battle(
                defenders_before,
                a,
                d,
                &Self::dist(on_defender),
                &Self::dist(on_attacker),
            ),
            Entry::Exchange {
                defenders_before,
                on_defender,
                on_attacker,
            } => {
                let mut out = Vec::new();
                let on_attacker = on_attacker.map(Self::dist);
                self.exchange(
                    defenders_before,
                    a,
                    d,
                    &Self::dist(on_defender),
                    on_attacker.as_deref(),
                    &mut out,
                );
                out
            }
            Entry::RetreatOption => vec![(self.m.retreat_option(a, d), 1.0)],
            Entry::Retreating => vec![(Next::End(Outcome::AttackerRetreats, a, d), 1.0)],
        }
    }

    /// Both sides' pre-battle fire with these hit distributions, casualties removed
    /// together (12.3 step 0; Expansion, Artillery Pre-Battle Fire Enhancement).
    pub(crate) fn pre_battle(
        &self,
        defenders_before: u32,
        a: Counts,
        d: Counts,
        on_defender: &[(Hits, f64)],
        on_attacker: &[(Hits, f64)],
    ) -> Vec<(Next, f64)> {
        let mut out = Vec::new();
        for &(hd, p) in on_defender {
            let d2 = self.lose_def(d, hd);
            for &(ha, q) in on_attacker {
                let a2 = self.lose_att(a, ha, false);
                out.push((self.m.after_pre_battle(defenders_before, a2, d2), p * q));
            }
        }
        out
    }

    /// The pre-battle segment from its start: each side's artillery fires (if any).
    pub(crate) fn pre_battle_fresh(&self, a: Counts, d: Counts) -> Vec<(Next, f64)> {
        let naval = self.m.field.naval;
        let art = UnitKind::Artillery.index();
        let pa = battle_dice::attacker_pre_battle_dice(self.m.rules, naval, a[art]);
        let pd = battle_dice::defender_pre_battle_dice(self.m.rules, naval, d[art]);
        if pa == 0 && pd == 0 {
            return vec![(Next::Round(a, d), 1.0)];
        }
        self.pre_battle(
            total(d),
            a,
            d,
            &self.attacker_hits(pa),
            &self.defender_hits(pd),
        )
    }

    /// Overwatch with these hits on the attacker, then his pre-battle fire with the
    /// artillery he has left (Expansion, Artillery Characteristics).
    pub(crate) fn overwatch(
        &self,
        a: Counts,
        d: Counts,
        on_attacker: &[(Hits, f64)],
    ) -> Vec<(Next, f64)> {
        let mut out = Vec::new();
        for &(h, p) in on_attacker {
            let a2 = self.lose_att(a, h, true);
            if total(a2) == 0 {
                out.push((Next::End(Outcome::DefenderHolds, a2, d), p));
            } else {
                out.extend(
                    self.pre_battle_fresh(a2, d)
                        .into_iter()
                        .map(|(n, q)| (n, p * q)),
                );
            }
        }
        out
    }

    /// A fire round's exchange: the hits on the defender, then the defender's dice (after
    /// suppression) unless `on_attacker` is given, both sides' casualties, and what
    /// follows (12.3 steps 1–4). `defenders_before`: defending units at the start of the
    /// exchange, casualties already marked included.
    pub(crate) fn exchange(
        &self,
        defenders_before: u32,
        a: Counts,
        d: Counts,
        on_defender: &[(Hits, f64)],
        on_attacker: Option<&[(Hits, f64)]>,
        out: &mut Vec<(Next, f64)>,
    ) {
        let dn = total(d);
        let present = per_kind(d);
        // The defender's casualties and dice depend on the attacker's hits only through
        // the units left and the hit total: gather the outcomes that agree on both.
        let mut on_def: Vec<(Counts, u8, f64)> = Vec::with_capacity(8);
        for &(hd, p) in on_defender {
            let d2 = self.lose_def(d, hd);
            let dice = if on_attacker.is_some() {
                0
            } else {
                battle_dice::defender_dice(
                    self.m.rules,
                    &self.m.field,
                    present,
                    u8::try_from(dn).unwrap_or(u8::MAX),
                    hd.tactical.saturating_add(hd.regular),
                )
                .0
            };
            match on_def.iter_mut().find(|(x, n, _)| *x == d2 && *n == dice) {
                Some(e) => e.2 += p,
                None => on_def.push((d2, dice, p)),
            }
        }
        // The attacker's casualties for each number of defender dice, gathered alike.
        let mut on_att: Vec<(u8, Vec<(Counts, f64)>)> = Vec::with_capacity(4);
        for &(d2, dice, p) in &on_def {
            let k = if let Some(k) = on_att.iter().position(|(n, _)| *n == dice) {
                k
            } else {
                let computed;
                let hits: &[(Hits, f64)] = if let Some(given) = on_attacker {
                    given
                } else if let Some(table) = self.def_hits.get(usize::from(dice)) {
                    table
                } else {
                    computed = hit_dist(dice, self.m.defender_hit_max);
                    &computed
                };
                let mut losses: Vec<(Counts, f64)> = Vec::with_capacity(8);
                for &(ha, q) in hits {
                    let a2 = self.lose_att(a, ha, false);
                    match losses.iter_mut().find(|(x, _)| *x == a2) {
                        Some(e) => e.1 += q,
                        None => losses.push((a2, q)),
                    }
                }
                on_att.push((dice, losses));
                on_att.len() - 1
            };
            for &(a2, q) in &on_att[k].1 {
                out.push((self.m.after_round(defenders_before, a2, d2), p * q));
            }
        }
    }

    /// A fire round from its start with units `a` and `d` (12.3 step 1).
    fn round(&self, a: Counts, d: Counts, out: &mut Vec<(Next, f64)>) {
        let dice = if total(d) == 0 {
            0
        } else {
            self.att_dice[self.att.index(a)]
        };
        let on_def = &self.att_hits[usize::from(dice)];
        self.exchange(total(d), a, d, on_def, None, out);
    }

    /// The forward pass from `start` to the end of the battle.
    pub(crate) fn solve(&self, start: &[(Next, f64)]) -> Tally {
        let n = self.att.len * self.def.len;
        let mut mass = vec![0.0f64; n];
        let mut outcomes = [0.0f64; 4];
        let mut ends = vec![0.0f64; n];
        let (att, def) = (&self.att, &self.def);
        let index = |a: Counts, d: Counts| att.index(a) * def.len + def.index(d);
        let mut place = |next: Next, p: f64, mass: &mut Vec<f64>| match next {
            Next::Round(a, d) => mass[index(a, d)] += p,
            Next::End(o, a, d) => {
                outcomes[o as usize] += p;
                ends[index(a, d)] += p;
            }
        };
        for &(next, p) in start {
            place(next, p, &mut mass);
        }
        let mut out = Vec::new();
        for state in (0..n).rev() {
            let m = mass[state];
            if m <= 0.0 {
                continue;
            }
            out.clear();
            let (a, d) = self.split(state);
            self.round(a, d, &mut out);
            let stay: f64 = out
                .iter()
                .filter(|(next, _)| *next == Next::Round(a, d))
                .map(|(_, p)| p)
                .sum();
            if stay >= 1.0 - 1e-12 {
                // Neither side can ever score a hit (only with house dice rules): the
                // attacker never takes the hex.
                place(Next::End(Outcome::DefenderHolds, a, d), m, &mut mass);
                continue;
            }
            let scale = m / (1.0 - stay);
            for &(next, p) in &out {
                if next != Next::Round(a, d) {
                    place(next, p * scale, &mut mass);
                }
            }
        }
        let mut attackers = vec![0.0f64; self.att.len];
        let mut defenders = vec![0.0f64; self.def.len];
        for (state, &p) in ends.iter().enumerate() {
            if p > 0.0 {
                attackers[state / self.def.len] += p;
                defenders[state % self.def.len] += p;
            }
        }
        let collect = |v: Vec<f64>, radix: &Radix| -> Vec<(Counts, f64)> {
            v.into_iter()
                .enumerate()
                .filter(|&(_, p)| p > 0.0)
                .map(|(i, p)| (radix.counts(i), p))
                .collect()
        };
        Tally {
            outcomes,
            attackers: collect(attackers, &self.att),
            defenders: collect(defenders, &self.def),
        }
    }
}

/// The unit counts a side of `units` units can come down to: casualties always take
/// the first unit of the policy's order, so the units left are always the last
/// ones of that order, one count for each number left; when the firer's 1s take the
/// strongest units instead, units go from both ends of the order.
fn reach(units: u64, strongest: bool) -> u64 {
    if strongest {
        (units + 1) * (units + 2) / 2
    } else {
        units + 1
    }
}

/// Σ over the counts a side of `units` units can come down to of
/// `min(cap, reach(those units))`: how many distinct casualties the side can suffer,
/// summed over its states, each at most `cap` (the outcomes of the dice against it).
fn reach_sum(units: u64, cap: u64, strongest: bool) -> u64 {
    (0..=units)
        .map(|left| {
            // States with `left` units left: one, or (units - left + 1) from both ends.
            let ways = if strongest { units - left + 1 } else { 1 };
            ways.saturating_mul(reach(left, strongest).min(cap))
        })
        .fold(0u64, u64::saturating_add)
}

/// An estimate of the work of the exact method for the battle of `m` entered at
/// `entry`, in steps of its inner loops (about a nanosecond each on the machine the
/// limit was measured on, docs/odds.md). It bounds the work from above, term by term:
///
/// - each fire round, in each state the battle can reach (see [`reach`]): every
///   outcome of the attacker's dice, looked up among the distinct casualties of the
///   defender; for each distinct number of defender dice, every outcome of them,
///   looked up among the distinct casualties of the attacker; and every pair of
///   distinct casualties. The attacker's dice are most with all his units there
///   (combined arms and hex sides only grow with units), the defender's too;
/// - a pass over every numbered state (reachable or not), and the attacker's dice of
///   each of his states;
/// - the entry step and the pre-battle fire or Overwatch it leads to: every pair of
///   outcomes of the two sides' dice, each taking casualties unit by unit.
pub(crate) fn exact_cost(m: &Model<'_>, entry: Entry) -> u64 {
    let (a, d) = (m.attackers.counts(), m.defenders.counts());
    let len = |c: Counts| -> u64 { c.iter().map(|&n| u64::from(n) + 1).product() };
    let (att_len, def_len) = (len(a), len(d));
    let (ua, ud) = (u64::from(total(a)), u64::from(total(d)));
    // The firer's choice of type spreads the states a side can reach: from both ends
    // of the order (Strongest), or any type (MostDice: at most every state, below).
    let strongest = m.policy.tactical != TacticalPolicy::OwnersOrder;
    let max_att = m.attacker_dice(a);
    let (max_def, _) = battle_dice::defender_dice(
        m.rules,
        &m.field,
        per_kind(d),
        u8::try_from(ud).unwrap_or(u8::MAX),
        0,
    );
    let att_out = outcomes(max_att, m.attacker_hit_max);
    let def_out = outcomes(max_def, m.defender_hit_max);
    let dice_counts = (u64::from(max_att) + 1).min(u64::from(max_def) + 1);
    let (mut att_states, mut def_states) = (reach(ua, strongest), reach(ud, strongest));
    let mut on_def = reach_sum(ud, att_out, strongest);
    let mut on_att = reach_sum(ua, def_out, strongest);
    if m.policy.tactical == TacticalPolicy::MostDice {
        // Any type can go: every state of a side, each with at most all of them next.
        att_states = att_states.max(att_len);
        def_states = def_states.max(def_len);
        on_def = on_def.max(def_len.saturating_mul(att_out.min(def_len)));
        on_att = on_att.max(att_len.saturating_mul(def_out.min(att_len)));
    }
    let rounds = att_states
        .saturating_mul(on_def)
        .saturating_mul(att_out)
        .saturating_add(
            def_states
                .saturating_mul(on_att)
                .saturating_mul(def_out)
                .saturating_mul(dice_counts),
        )
        .saturating_add(on_def.saturating_mul(on_att));
    // Two sums of probability kept for every numbered state and a pass over them all.
    let numbered = att_len
        .saturating_mul(def_len)
        .saturating_mul(8)
        .saturating_add(att_len.saturating_mul(8 + ua));
    let art = UnitKind::Artillery.index();
    let naval = m.field.naval;
    // A pair of outcomes takes casualties from both sides, a unit at a time, and
    // leaves an entry to be placed.
    let pair = 2 * (8 + ua + ud);
    let pre = |att_art: u8, def_art: u8| -> u64 {
        let pa = battle_dice::attacker_pre_battle_dice(m.rules, naval, att_art);
        let pd = battle_dice::defender_pre_battle_dice(m.rules, naval, def_art);
        outcomes(pa, m.attacker_hit_max)
            .saturating_mul(outcomes(pd, m.defender_hit_max))
            .saturating_mul(pair)
    };
    let start = match entry {
        Entry::PreBattle => pre(a[art], d[art]),
        Entry::Overwatch(on_attacker) => on_attacker.outcomes().saturating_mul(pre(a[art], d[art])),
        Entry::PreBattleFire {
            on_defender,
            on_attacker,
            ..
        } => on_defender
            .outcomes()
            .saturating_mul(on_attacker.outcomes())
            .saturating_mul(pair),
        Entry::Exchange {
            on_defender,
            on_attacker,
            ..
        } => on_defender
            .outcomes()
            .saturating_mul(on_attacker.map_or(def_out, Dice::outcomes))
            .saturating_mul(pair),
        Entry::RetreatOption | Entry::Retreating => 1,
    };
    rounds.saturating_add(numbered).saturating_add(start)
}

/// The Monte Carlo estimate: battles played from the same entry with the same rules
/// and policy as the exact method, the hits of each fire step drawn from the same
/// exact distribution of its dice ([`hit_dist`]) with a [`GameRng`] seeded from the
/// battle itself, so that one battle always gets the same estimate.
pub(crate) struct Sampler<'m, 'r> {
    m: &'m Model<'r>,
    rng: GameRng,
    /// The attacker's dice by units left, as computed.
    att_dice: BTreeMap<Counts, u8>,
    /// The hit distributions drawn from, by dice and hit number, as cumulative
    /// probabilities.
    tables: BTreeMap<(u8, u8), Vec<(Hits, f64)>>,
}

impl<'m, 'r> Sampler<'m, 'r> {
    /// A sampler for `m` whose draws follow `seed`.
    pub(crate) fn new(m: &'m Model<'r>, seed: u64) -> Sampler<'m, 'r> {
        Sampler {
            m,
            rng: GameRng::from_u64(seed),
            att_dice: BTreeMap::new(),
            tables: BTreeMap::new(),
        }
    }

    /// The hits of `n` dice hitting at `hit_max` or less (10.1), drawn from their
    /// distribution: one draw, whatever the number of dice.
    fn roll(&mut self, n: u8, hit_max: u8) -> Hits {
        if n == 0 {
            return Hits::default();
        }
        let table = self.tables.entry((n, hit_max)).or_insert_with(|| {
            let mut sum = 0.0;
            hit_dist(n, hit_max)
                .into_iter()
                .map(|(h, p)| {
                    sum += p;
                    (h, sum)
                })
                .collect()
        });
        // A uniform draw in [0, 1) from the top 53 bits.
        let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let i = table.partition_point(|&(_, cum)| cum <= u);
        table
            .get(i)
            .or(table.last())
            .map_or_else(Hits::default, |&(h, _)| h)
    }

    fn hits(&mut self, dice: Dice) -> Hits {
        match dice {
            Dice::Fixed(h) => h,
            Dice::Roll {
                known,
                dice,
                hit_max,
            } => {
                let h = self.roll(dice, hit_max);
                Hits {
                    tactical: h.tactical.saturating_add(known.tactical),
                    regular: h.regular.saturating_add(known.regular),
                }
            }
        }
    }

    /// The attacker's units `a` after `hits` (10.1, R-14).
    fn lose_att(&self, a: Counts, hits: Hits, overwatch: bool) -> Counts {
        lose(a, hits, overwatch, self.m.policy.tactical, &|c| {
            self.m.attacker_dice(c)
        })
    }

    /// The defender's units `d` after `hits` (10.1, R-14).
    fn lose_def(&self, d: Counts, hits: Hits) -> Counts {
        self.m.lose_def(d, hits)
    }

    /// One sample of where the battle goes from `entry` (as [`Solver::start`]).
    fn start(&mut self, entry: Entry, a: Counts, d: Counts) -> Next {
        match entry {
            Entry::PreBattle => self.pre_battle_fresh(a, d),
            Entry::Overwatch(on_attacker) => {
                let h = self.hits(on_attacker);
                let a2 = self.lose_att(a, h, true);
                if total(a2) == 0 {
                    Next::End(Outcome::DefenderHolds, a2, d)
                } else {
                    self.pre_battle_fresh(a2, d)
                }
            }
            Entry::PreBattleFire {
                defenders_before,
                on_defender,
                on_attacker,
            } => {
                let (hd, ha) = (self.hits(on_defender), self.hits(on_attacker));
                let d2 = self.lose_def(d, hd);
                let a2 = self.lose_att(a, ha, false);
                self.m.after_pre_battle(defenders_before, a2, d2)
            }
            Entry::Exchange {
                defenders_before,
                on_defender,
                on_attacker,
            } => self.exchange(defenders_before, a, d, on_defender, on_attacker),
            Entry::RetreatOption => self.m.retreat_option(a, d),
            Entry::Retreating => Next::End(Outcome::AttackerRetreats, a, d),
        }
    }

    fn pre_battle_fresh(&mut self, a: Counts, d: Counts) -> Next {
        let art = UnitKind::Artillery.index();
        let naval = self.m.field.naval;
        let pa = battle_dice::attacker_pre_battle_dice(self.m.rules, naval, a[art]);
        let pd = battle_dice::defender_pre_battle_dice(self.m.rules, naval, d[art]);
        if pa == 0 && pd == 0 {
            return Next::Round(a, d);
        }
        let entry = Entry::PreBattleFire {
            defenders_before: total(d),
            on_defender: Dice::roll(pa, self.m.attacker_hit_max),
            on_attacker: Dice::roll(pd, self.m.defender_hit_max),
        };
        self.start(entry, a, d)
    }

    /// A fire round's exchange (as [`Solver::exchange`]).
    fn exchange(
        &mut self,
        defenders_before: u32,
        a: Counts,
        d: Counts,
        on_defender: Dice,
        on_attacker: Option<Dice>,
    ) -> Next {
        let hd = self.hits(on_defender);
        let d2 = self.lose_def(d, hd);
        let on_attacker = on_attacker.unwrap_or_else(|| {
            let (dice, _) = battle_dice::defender_dice(
                self.m.rules,
                &self.m.field,
                per_kind(d),
                u8::try_from(total(d)).unwrap_or(u8::MAX),
                hd.total(),
            );
            Dice::roll(dice, self.m.defender_hit_max)
        });
        let ha = self.hits(on_attacker);
        let a2 = self.lose_att(a, ha, false);
        self.m.after_round(defenders_before, a2, d2)
    }

    /// A fire round from its start (12.3 step 1).
    fn round(&mut self, a: Counts, d: Counts) -> Next {
        let dice = if total(d) == 0 {
            0
        } else if let Some(&n) = self.att_dice.get(&a) {
            n
        } else {
            let n = self.m.attacker_dice(a);
            self.att_dice.insert(a, n);
            n
        };
        let on_defender = Dice::roll(dice, self.m.attacker_hit_max);
        self.exchange(total(d), a, d, on_defender, None)
    }

    /// `samples` battles from `entry` with units `a` and `d`; `None` when they would
    /// take more than `max_rounds` fire rounds in all (a battle of hundreds of units
    /// hitting on 1s only).
    pub(crate) fn run(
        &mut self,
        entry: Entry,
        a: Counts,
        d: Counts,
        samples: u32,
        max_rounds: u64,
    ) -> Option<Tally> {
        let mut outcomes = [0u32; 4];
        let mut attackers: BTreeMap<Counts, u32> = BTreeMap::new();
        let mut defenders: BTreeMap<Counts, u32> = BTreeMap::new();
        let mut rounds = 0u64;
        for _ in 0..samples {
            let mut next = self.start(entry, a, d);
            loop {
                match next {
                    Next::End(o, a2, d2) => {
                        outcomes[o as usize] += 1;
                        *attackers.entry(a2).or_default() += 1;
                        *defenders.entry(d2).or_default() += 1;
                        break;
                    }
                    Next::Round(a2, d2) => {
                        rounds += 1;
                        if rounds > max_rounds {
                            return None;
                        }
                        next = self.round(a2, d2);
                    }
                }
            }
        }
        let share = |n: u32| f64::from(n) / f64::from(samples);
        let list = |m: BTreeMap<Counts, u32>| m.into_iter().map(|(c, n)| (c, share(n))).collect();
        Some(Tally {
            outcomes: outcomes.map(share),
            attackers: list(attackers),
            defenders: list(defenders),
        })
    }
}

/// Rule 10.1, R-14: `hits` taken by a side with `units`: each tactical hit (a 1) by
/// the firer's `tactical` policy, then each other hit by the owner's fixed policy
/// (infantry, artillery, cavalry, frigates); hits beyond the units there are lost.
/// Overwatch's tactical hits never take cavalry (Expansion, Artillery Characteristics).
/// `dice(c)` is the number of dice the side would roll with the units `c` left, for
/// [`TacticalPolicy::MostDice`].
pub(crate) fn lose(
    units: Counts,
    hits: Hits,
    overwatch: bool,
    tactical: TacticalPolicy,
    dice: &dyn Fn(Counts) -> u8,
) -> Counts {
    let mut c = units;
    let owner = POLICY_ORDER;
    let mut strongest = POLICY_ORDER;
    strongest.reverse();
    for _ in 0..hits.tactical {
        let allowed = |k: UnitKind| c[k.index()] > 0 && !(overwatch && k == UnitKind::Cavalry);
        let pick = match tactical {
            TacticalPolicy::OwnersOrder => owner.iter().copied().find(|&k| allowed(k)),
            TacticalPolicy::Strongest => strongest.iter().copied().find(|&k| allowed(k)),
            TacticalPolicy::MostDice => most_dice_pick(c, allowed, dice),
        };
        match pick {
            Some(k) => c[k.index()] -= 1,
            None => break,
        }
    }
    for _ in 0..hits.regular {
        match owner.iter().find(|&&k| c[k.index()] > 0) {
            Some(&k) => c[k.index()] -= 1,
            None => break,
        }
    }
    c
}

/// [`TacticalPolicy::MostDice`]: the type among those `allowed` (with units in `c`)
/// whose loss costs the side most dice (`dice(c)`: its dice with `c` left), then the one
/// with the fewest units left, then the strongest (frigates, cavalry, artillery,
/// infantry).
pub(crate) fn most_dice_pick(
    c: Counts,
    allowed: impl Fn(UnitKind) -> bool,
    dice: &dyn Fn(Counts) -> u8,
) -> Option<UnitKind> {
    let now = dice(c);
    let mut strongest = POLICY_ORDER;
    strongest.reverse();
    // The first best wins, so ties fall to the strongest.
    let mut best: Option<(UnitKind, u8, u8)> = None;
    for k in strongest
        .into_iter()
        .filter(|&k| c[k.index()] > 0 && allowed(k))
    {
        let mut after = c;
        after[k.index()] -= 1;
        let lost = now.saturating_sub(dice(after));
        if best.is_none_or(|(_, l, n)| {
            (lost, std::cmp::Reverse(c[k.index()])) > (l, std::cmp::Reverse(n))
        }) {
            best = Some((k, lost, c[k.index()]));
        }
    }
    best.map(|(k, _, _)| k)
}

/// A bombardment's shots one after another (11.0, 10.1, R-13, R-14): each hits at
/// `hit_max` or less and takes one unit, the firer choosing on a 1 and the owner
/// otherwise, by the policy. Returns the distribution of the units left, fewest first.
pub(crate) fn bombard(
    units: Counts,
    shots: u8,
    hit_max: u8,
    tactical: TacticalPolicy,
    dice: &dyn Fn(Counts) -> u8,
) -> Vec<(Counts, f64)> {
    let shot = hit_dist(1, hit_max);
    let mut dist: Vec<(Counts, f64)> = vec![(units, 1.0)];
    for _ in 0..shots {
        let mut next: Vec<(Counts, f64)> = Vec::new();
        for &(c, p) in &dist {
            for &(h, q) in &shot {
                let c2 = lose(c, h, false, tactical, dice);
                match next.iter_mut().find(|(x, _)| *x == c2) {
                    Some(e) => e.1 += p * q,
                    None => next.push((c2, p * q)),
                }
            }
        }
        dist = next;
    }
    dist.sort_by(|x, y| total(x.0).cmp(&total(y.0)).then_with(|| x.0.cmp(&y.0)));
    dist
}

/// Counts as a [`PerKind`].
pub(crate) fn to_per_kind(c: Counts) -> PerKind {
    per_kind(c)
}

/// The number of units in counts.
pub(crate) fn count(c: Counts) -> u32 {
    total(c)
}
