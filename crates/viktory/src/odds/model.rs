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
/// or to the end of the battle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Next {
    /// The start of a fire round (12.3 step 1), by state number.
    Round(usize),
    /// The battle ends this way, in this state.
    End(Outcome, usize),
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
    /// `None` when the battle has more states than [`MAX_STATES`].
    pub(crate) fn new(m: &'m Model<'r>) -> Option<Solver<'m, 'r>> {
        Solver::with_limit(m, MAX_STATES)
    }

    /// `None` when the battle has more states than `limit`.
    pub(crate) fn with_limit(m: &'m Model<'r>, limit: usize) -> Option<Solver<'m, 'r>> {
        let att = Radix::new(m.attackers.counts());
        let def = Radix::new(m.defenders.counts());
        if att.len.saturating_mul(def.len) > limit.min(MAX_STATES) {
            return None;
        }
        let att_dice: Vec<u8> = (0..att.len)
            .map(|i| {
                let c = att.counts(i);
                let sides: Vec<Hex> = (0..4)
                    .flat_map(|k| {
                        let all = &m.attackers.sides[k];
                        all[all.len() - usize::from(c[k])..]
                            .iter()
                            .flatten()
                            .copied()
                    })
                    .collect();
                battle_dice::attacker_dice(m.rules, &m.field, per_kind(c), &sides)
            })
            .collect();
        let full_def = def.full;
        let max_att = att_dice.iter().copied().max().unwrap_or(0);
        let (max_def, _) = battle_dice::defender_dice(
            m.rules,
            &m.field,
            per_kind(full_def),
            total(full_def) as u8,
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

    /// The state number of these counts.
    pub(crate) fn state(&self, a: Counts, d: Counts) -> usize {
        self.att.index(a) * self.def.len + self.def.index(d)
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

    fn lose(&self, units: Counts, hits: Hits, overwatch: bool) -> Counts {
        lose(units, hits, overwatch, self.m.policy.tactical)
    }

    /// The policy's retreat decision at the retreat option (12.3 step 3).
    fn retreats(&self, a: Counts) -> bool {
        let Some(ways) = self.m.retreat else {
            return false;
        };
        let RetreatPolicy::WhenFewerThan(n) = self.m.policy.retreat else {
            return false;
        };
        let frigates = usize::from(a[UnitKind::Frigate.index()]);
        let land = total(a) as usize - frigates;
        total(a) < u32::from(n) && ways.allow(self.m.rules.retreat, land, frigates)
    }

    /// After both sides' casualties of a fire round are removed (12.3 steps 2–4).
    /// `defenders_before`: defending units at the start of the exchange.
    pub(crate) fn after_round(&self, defenders_before: u32, a: Counts, d: Counts) -> Next {
        let state = self.state(a, d);
        if total(a) == 0 {
            if total(d) == 0 && defenders_before > 0 {
                Next::End(Outcome::BothDestroyed, state)
            } else {
                Next::End(Outcome::DefenderHolds, state)
            }
        } else if total(d) == 0 {
            Next::End(Outcome::AttackerWins, state)
        } else {
            self.retreat_option(a, d)
        }
    }

    /// Rule 12.3 step 3: retreat now, or fight another round.
    pub(crate) fn retreat_option(&self, a: Counts, d: Counts) -> Next {
        let state = self.state(a, d);
        if self.retreats(a) {
            Next::End(Outcome::AttackerRetreats, state)
        } else {
            Next::Round(state)
        }
    }

    /// After pre-battle casualties (12.3 step 0): outside a town or city a defence wiped
    /// out loses at once; an attack wiped out is over.
    pub(crate) fn after_pre_battle(&self, defenders_before: u32, a: Counts, d: Counts) -> Next {
        let state = self.state(a, d);
        if total(a) == 0 {
            self.after_round(defenders_before, a, d)
        } else if total(d) == 0 && !self.m.field.town_held {
            Next::End(Outcome::AttackerWins, state)
        } else {
            Next::Round(state)
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
            let d2 = self.lose(d, hd, false);
            for &(ha, q) in on_attacker {
                let a2 = self.lose(a, ha, false);
                out.push((self.after_pre_battle(defenders_before, a2, d2), p * q));
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
            return vec![(Next::Round(self.state(a, d)), 1.0)];
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
            let a2 = self.lose(a, h, true);
            if total(a2) == 0 {
                out.push((Next::End(Outcome::DefenderHolds, self.state(a2, d)), p));
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
            let d2 = self.lose(d, hd, false);
            let dice = if on_attacker.is_some() {
                0
            } else {
                battle_dice::defender_dice(
                    self.m.rules,
                    &self.m.field,
                    present,
                    dn as u8,
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
                    let a2 = self.lose(a, ha, false);
                    match losses.iter_mut().find(|(x, _)| *x == a2) {
                        Some(e) => e.1 += q,
                        None => losses.push((a2, q)),
                    }
                }
                on_att.push((dice, losses));
                on_att.len() - 1
            };
            for &(a2, q) in &on_att[k].1 {
                out.push((self.after_round(defenders_before, a2, d2), p * q));
            }
        }
    }

    /// A fire round from its start in `state` (12.3 step 1).
    fn round(&self, state: usize, out: &mut Vec<(Next, f64)>) {
        let (a, d) = self.split(state);
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
        let mut place = |next: Next, p: f64, mass: &mut Vec<f64>| match next {
            Next::Round(s) => mass[s] += p,
            Next::End(o, s) => {
                outcomes[o as usize] += p;
                ends[s] += p;
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
            self.round(state, &mut out);
            let stay: f64 = out
                .iter()
                .filter(|(next, _)| *next == Next::Round(state))
                .map(|(_, p)| p)
                .sum();
            if stay >= 1.0 - 1e-12 {
                // Neither side can ever score a hit (only with house dice rules): the
                // attacker never takes the hex.
                place(Next::End(Outcome::DefenderHolds, state), m, &mut mass);
                continue;
            }
            let scale = m / (1.0 - stay);
            for &(next, p) in &out {
                if next != Next::Round(state) {
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

/// Rule 10.1, R-14: `hits` taken by a side with `units`: each tactical hit (a 1) by
/// the firer's `tactical` policy, then each other hit by the owner's fixed policy
/// (infantry, artillery, cavalry, frigates); hits beyond the units there are lost.
/// Overwatch's tactical hits never take cavalry (Expansion, Artillery Characteristics).
pub(crate) fn lose(units: Counts, hits: Hits, overwatch: bool, tactical: TacticalPolicy) -> Counts {
    let mut c = units;
    let owner = POLICY_ORDER;
    let mut strongest = POLICY_ORDER;
    strongest.reverse();
    let roller = match tactical {
        TacticalPolicy::OwnersOrder => owner,
        TacticalPolicy::Strongest => strongest,
    };
    for _ in 0..hits.tactical {
        let pick = roller
            .iter()
            .find(|&&k| c[k.index()] > 0 && !(overwatch && k == UnitKind::Cavalry));
        match pick {
            Some(&k) => c[k.index()] -= 1,
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

/// A bombardment's shots one after another (11.0, 10.1, R-13, R-14): each hits at
/// `hit_max` or less and takes one unit, the firer choosing on a 1 and the owner
/// otherwise, by the policy. Returns the distribution of the units left, fewest first.
pub(crate) fn bombard(
    units: Counts,
    shots: u8,
    hit_max: u8,
    tactical: TacticalPolicy,
) -> Vec<(Counts, f64)> {
    let shot = hit_dist(1, hit_max);
    let mut dist: Vec<(Counts, f64)> = vec![(units, 1.0)];
    for _ in 0..shots {
        let mut next: Vec<(Counts, f64)> = Vec::new();
        for &(c, p) in &dist {
            for &(h, q) in &shot {
                let c2 = lose(c, h, false, tactical);
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
