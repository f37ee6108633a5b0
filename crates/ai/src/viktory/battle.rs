//! Battle odds for the evaluation: the one place a battle's outcome is estimated.
//!
//! **An approximation**, until `viktory::odds::attack_odds` (exact odds, being written
//! on another branch) is merged: swap the body of [`attack_odds`] for it then. The
//! model here is a Markov chain over the number of units left on each side:
//!
//! - pre-battle fire: one die per attacking artillery (12.3 step 0);
//! - each round the attacker rolls the dice of the unit kinds he has left, the defender
//!   those of his kinds left (less suppressed dice, 12.31 as printed) plus terrain and
//!   naval support dice (12.3 step 2); a die hits on `hit_max` or less;
//! - each side loses its cheapest units first (infantry, then artillery, then cavalry),
//!   so its dice per count of units left are fixed; tactical 1s count as plain hits;
//! - a town or city defended by no unit rolls its terrain dice for one round;
//! - the attacker never retreats; after 12 rounds the defender is taken to hold.
//!
//! Results are cached per thread by the battle's shape.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use engine::Seat;
use hexmap::Hex;
use viktory::{Suppression, Terrain, UnitKind, Viktory};

/// The odds of a battle (the shape of `viktory::odds::BattleOdds`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BattleOdds {
    /// Probability that the attacker wins the hex.
    pub attacker_wins: f64,
    /// Probability that the defender holds it.
    pub defender_holds: f64,
    /// Expected attacking units lost (sent to the reserve).
    pub expected_attacker_losses: f64,
    /// Expected defending units lost.
    pub expected_defender_losses: f64,
}

/// Land units by kind on one side of a battle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Force {
    /// Infantry.
    pub infantry: u8,
    /// Cavalry.
    pub cavalry: u8,
    /// Artillery.
    pub artillery: u8,
}

impl Force {
    /// Adds one unit (frigates do not fight on land: ignored).
    pub fn add(&mut self, kind: UnitKind) {
        match kind {
            UnitKind::Infantry => self.infantry = self.infantry.saturating_add(1),
            UnitKind::Cavalry => self.cavalry = self.cavalry.saturating_add(1),
            UnitKind::Artillery => self.artillery = self.artillery.saturating_add(1),
            UnitKind::Frigate => {}
        }
    }

    /// Units in all.
    pub fn total(&self) -> u8 {
        self.infantry + self.cavalry + self.artillery
    }
}

/// Odds of `attacker` bringing `force` into land hex `hex` against whoever defends it
/// now (the other player's land units there, his town or city, his adjacent
/// frigates). An approximation: see the module text.
pub fn attack_odds(s: &Viktory, hex: Hex, attacker: Seat, force: Force) -> BattleOdds {
    let town = s.town(hex).filter(|t| t.owner != attacker);
    let defender = s
        .units_at(hex)
        .find(|u| u.owner != attacker && u.aboard.is_none() && u.kind.is_land())
        .map(|u| u.owner)
        .or(town.map(|t| t.owner));
    let Some(defender) = defender else {
        return BattleOdds {
            attacker_wins: 1.0,
            ..BattleOdds::default()
        };
    };
    let mut def = Force::default();
    for u in s
        .units_at(hex)
        .filter(|u| u.owner == defender && u.aboard.is_none())
    {
        def.add(u.kind);
    }
    let town = town.filter(|t| t.owner == defender);
    let r = s.rules();
    let mut extra = 0u8;
    let naval = (def.total() > 0 || town.is_some())
        && hex.neighbors().iter().any(|&n| {
            s.units_at(n)
                .any(|u| u.owner == defender && u.kind == UnitKind::Frigate && u.aboard.is_none())
        });
    if naval {
        extra += r.naval_support_dice;
    }
    let terrain = s
        .terrain(hex)
        .filter(|_| r.terrain_defense && !r.terrain_leveling);
    let capital_penalty =
        r.lost_capital == viktory::LostCapital::CitiesAsTowns && !s.holds_capital(defender);
    let city = town.is_some_and(|t| t.city) && !capital_penalty;
    extra += if terrain == Some(Terrain::Mountain) || city {
        r.strong_terrain_dice
    } else if terrain == Some(Terrain::Forest) || town.is_some() {
        r.weak_terrain_dice
    } else {
        0
    };
    let shape = Shape {
        att: clamp(force),
        def: clamp(def),
        extra: extra.min(7),
        town: town.is_some(),
        att_hit: s.hit_max_for(attacker).min(6),
        def_hit: s.hit_max_for(defender).min(6),
        pre: r.pre_battle_fire.min(3),
        suppression: r.suppression != Suppression::None,
        att_dice: [
            r.attack_dice.infantry.min(3),
            r.attack_dice.cavalry.min(3),
            r.attack_dice.artillery.min(3),
        ],
        def_dice: [
            r.defense_dice.infantry.min(3),
            r.defense_dice.cavalry.min(3),
            r.defense_dice.artillery.min(3),
        ],
    };
    cached(&shape)
}

/// Larger battles are estimated as if each kind had at most 5 units.
fn clamp(f: Force) -> Force {
    Force {
        infantry: f.infantry.min(5),
        cavalry: f.cavalry.min(5),
        artillery: f.artillery.min(5),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Shape {
    att: Force,
    def: Force,
    extra: u8,
    town: bool,
    att_hit: u8,
    def_hit: u8,
    pre: u8,
    suppression: bool,
    att_dice: [u8; 3],
    def_dice: [u8; 3],
}

/// A cheap multiplicative hasher for the small cache keys (no need for `SipHash`'s
/// resistance to crafted keys: the keys are battle shapes).
#[derive(Default)]
struct ShapeHasher(u64);

impl Hasher for ShapeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
}

type Cache = HashMap<Shape, BattleOdds, BuildHasherDefault<ShapeHasher>>;

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

fn cached(shape: &Shape) -> BattleOdds {
    if let Some(o) = CACHE.with(|c| c.borrow().get(shape).copied()) {
        return o;
    }
    let o = compute(shape);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() > 100_000 {
            c.clear();
        }
        c.insert(*shape, o);
    });
    o
}

/// Dice rolled by a side with `left` units, losing infantry, then artillery, then
/// cavalry first: index = units left.
fn dice_by_count(f: Force, dice: [u8; 3]) -> Vec<u8> {
    // Units in loss order: infantry (0), artillery (2), cavalry (1).
    let mut order: Vec<usize> = Vec::new();
    order.extend(std::iter::repeat_n(0, usize::from(f.infantry)));
    order.extend(std::iter::repeat_n(2, usize::from(f.artillery)));
    order.extend(std::iter::repeat_n(1, usize::from(f.cavalry)));
    (0..=order.len())
        .map(|left| {
            let kept = &order[order.len() - left..];
            (0..3).filter(|k| kept.contains(k)).map(|k| dice[k]).sum()
        })
        .collect()
}

fn binomial(n: u8, q: f64) -> Vec<f64> {
    let mut p = vec![0.0; usize::from(n) + 1];
    p[0] = 1.0;
    for _ in 0..n {
        for k in (0..p.len()).rev() {
            let stay = p[k] * (1.0 - q);
            let up = if k > 0 { p[k - 1] * q } else { 0.0 };
            p[k] = stay + up;
        }
    }
    p
}

fn compute(sh: &Shape) -> BattleOdds {
    let a0 = usize::from(sh.att.total());
    let d0 = usize::from(sh.def.total());
    let qa = f64::from(sh.att_hit) / 6.0;
    let qd = f64::from(sh.def_hit) / 6.0;
    let att_dice = dice_by_count(sh.att, sh.att_dice);
    let def_dice = dice_by_count(sh.def, sh.def_dice);
    let mut out = BattleOdds::default();
    if a0 == 0 {
        out.defender_holds = 1.0;
        return out;
    }
    // mass[a][d]
    let mut mass = vec![vec![0.0f64; d0 + 1]; a0 + 1];
    // Pre-battle fire.
    let pre = binomial(sh.att.artillery.saturating_mul(sh.pre), qa);
    for (h, p) in pre.iter().enumerate() {
        mass[a0][d0.saturating_sub(h)] += p;
    }
    // No defenders left outside a town: won before the first round.
    if !sh.town {
        out.attacker_wins += mass[a0][0];
        out.expected_defender_losses += mass[a0][0] * d0 as f64;
        mass[a0][0] = 0.0;
    } else if mass[a0][0] > 0.0 {
        // A town without defenders rolls its terrain dice once.
        let p0 = mass[a0][0];
        mass[a0][0] = 0.0;
        for (h, p) in binomial(sh.extra, qd).iter().enumerate() {
            let left = a0.saturating_sub(h);
            let w = p0 * p;
            out.expected_attacker_losses += w * (a0 - left) as f64;
            out.expected_defender_losses += w * d0 as f64;
            if left > 0 {
                out.attacker_wins += w;
            } else {
                out.defender_holds += w;
            }
        }
    }
    for _round in 0..12 {
        let mut next = vec![vec![0.0f64; d0 + 1]; a0 + 1];
        let mut any = false;
        for a in 1..=a0 {
            for d in 1..=d0 {
                let m = mass[a][d];
                if m < 1e-12 {
                    continue;
                }
                any = true;
                let hits_on_def = binomial(att_dice[a], qa);
                for (hd, p1) in hits_on_def.iter().enumerate() {
                    let excess = if sh.suppression {
                        hd.saturating_sub(d) as u8
                    } else {
                        0
                    };
                    let dd = def_dice[d].saturating_sub(excess) + sh.extra;
                    for (ha, p2) in binomial(dd, qd).iter().enumerate() {
                        let w = m * p1 * p2;
                        let a2 = a.saturating_sub(ha);
                        let d2 = d.saturating_sub(hd);
                        if a2 == 0 {
                            out.defender_holds += w;
                            out.expected_attacker_losses += w * a0 as f64;
                            out.expected_defender_losses += w * (d0 - d2) as f64;
                        } else if d2 == 0 {
                            out.attacker_wins += w;
                            out.expected_attacker_losses += w * (a0 - a2) as f64;
                            out.expected_defender_losses += w * d0 as f64;
                        } else {
                            next[a2][d2] += w;
                        }
                    }
                }
            }
        }
        mass = next;
        if !any {
            break;
        }
    }
    // Still fighting after 12 rounds: counted as held.
    for (a, row) in mass.iter().enumerate() {
        for (d, &m) in row.iter().enumerate() {
            out.defender_holds += m;
            out.expected_attacker_losses += m * (a0 - a) as f64;
            out.expected_defender_losses += m * (d0 - d) as f64;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(att: Force, def: Force, extra: u8, town: bool) -> Shape {
        Shape {
            att,
            def,
            extra,
            town,
            att_hit: 3,
            def_hit: 3,
            pre: 1,
            suppression: true,
            att_dice: [1, 2, 1],
            def_dice: [1, 1, 1],
        }
    }

    #[test]
    fn probabilities_add_up_and_order_sensibly() {
        let inf = |n| Force {
            infantry: n,
            ..Force::default()
        };
        let weak = compute(&shape(inf(1), inf(3), 2, true));
        let strong = compute(&shape(
            Force {
                infantry: 3,
                cavalry: 2,
                artillery: 2,
            },
            inf(1),
            0,
            false,
        ));
        for o in [weak, strong] {
            assert!(
                (o.attacker_wins + o.defender_holds - 1.0).abs() < 1e-9,
                "{o:?}"
            );
        }
        assert!(weak.attacker_wins < 0.2, "{weak:?}");
        assert!(strong.attacker_wins > 0.9, "{strong:?}");
        // An empty town on open ground with one die against two infantry.
        let empty = compute(&shape(inf(2), inf(0), 1, true));
        assert!((empty.attacker_wins - 1.0).abs() < 1e-9, "{empty:?}");
        let alone = compute(&shape(inf(1), inf(0), 2, true));
        assert!((alone.attacker_wins - 0.25).abs() < 1e-9, "{alone:?}");
    }
}
