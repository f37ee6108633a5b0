//! Exact battle odds (`viktory::odds`): hand-computed small cases, the martingale check
//! (the odds at every step of a battle are the average of the odds after its next die,
//! and the odds after the policy's decision), and Monte Carlo cross-checks that play the
//! same battles with the real engine.
//!
//! The Monte Carlo checks play 10⁵ battles per case here; `cargo test -p viktory --test
//! odds -- --ignored` plays 10⁶ per case and holds every probability to 0.01.

mod common;

use common::*;
use engine::{Game, GameRng, Seat, ToMove};
use hexmap::Hex;
use viktory::board::Terrain;
use viktory::odds::{
    self, BattleOdds, BattleSpec, Outcome, Policy, RetreatPolicy, SpecUnit, TacticalPolicy,
};
use viktory::rules::casualties;
use viktory::state::{BattleStep, Stage};
use viktory::{Action, PerKind, Rules, UnitId, UnitKind, Viktory};

const OUTCOMES: [Outcome; 4] = [
    Outcome::AttackerWins,
    Outcome::DefenderHolds,
    Outcome::BothDestroyed,
    Outcome::AttackerRetreats,
];

fn units(infantry: u8, cavalry: u8, artillery: u8, frigate: u8) -> PerKind {
    PerKind {
        infantry,
        cavalry,
        artillery,
        frigate,
    }
}

/// Attackers all across hex side 0.
fn attackers(kinds: &[(UnitKind, u8)]) -> Vec<SpecUnit> {
    kinds
        .iter()
        .flat_map(|&(kind, n)| (0..n).map(move |_| SpecUnit { kind, side: 0 }))
        .collect()
}

fn spec(rules: Rules, att: &[(UnitKind, u8)], def: PerKind) -> BattleSpec {
    BattleSpec {
        attackers: attackers(att),
        defenders: def,
        ..BattleSpec::new(rules)
    }
}

const I: UnitKind = UnitKind::Infantry;
const C: UnitKind = UnitKind::Cavalry;
const A: UnitKind = UnitKind::Artillery;
const F: UnitKind = UnitKind::Frigate;

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() < 1e-12
}

#[track_caller]
fn assert_odds(o: &BattleOdds, win: f64, hold: f64, both: f64, att_losses: f64, def_losses: f64) {
    let ok = close(o.attacker_wins, win)
        && close(o.defender_holds, hold)
        && close(o.both_destroyed, both)
        && close(o.attacker_retreats, 0.0)
        && close(o.expected_attacker_losses, att_losses)
        && close(o.expected_defender_losses, def_losses);
    assert!(
        ok,
        "expected win {win} hold {hold} both {both} losses {att_losses}/{def_losses}, got {o:?}"
    );
}

/// 1 infantry against 1 infantry on plains, classic. Each round both roll one die that
/// hits on 1–3 (1/2); no suppression (one hit is not in excess of one defender). A
/// round ends the battle unless both miss (1/4): attacker only hits 1/4, defender only
/// 1/4, both 1/4. So each outcome has 1/3, and each side loses its unit with 2/3.
#[test]
fn one_infantry_against_one_infantry() {
    let o = spec(Rules::classic(2), &[(I, 1)], units(1, 0, 0, 0))
        .odds()
        .unwrap();
    let third = 1.0 / 3.0;
    assert_odds(&o, third, third, third, 2.0 * third, 2.0 * third);
    assert_eq!(o.attacker_survivors.len(), 2);
    assert!(close(o.attacker_survivors[1].probability, third));
    assert_eq!(o.attacker_survivors[1].units, units(1, 0, 0, 0));
}

/// 1 cavalry against 1 infantry on plains, classic: two attack dice (12.3 step 1).
/// Two hits (1/4): one in excess, the defender's only die is suppressed (12.31): win.
/// One hit (1/2): the defender rolls one die: both destroyed 1/4, win 1/4.
/// No hit (1/4): the defender hits 1/8 (hold), else a new round 1/8.
/// Per decided round: win 1/2, both 1/4, hold 1/8 of 7/8: win 4/7, both 2/7, hold 1/7.
#[test]
fn cavalry_against_infantry_with_suppression() {
    let o = spec(Rules::classic(2), &[(C, 1)], units(1, 0, 0, 0))
        .odds()
        .unwrap();
    assert_odds(&o, 4.0 / 7.0, 1.0 / 7.0, 2.0 / 7.0, 3.0 / 7.0, 6.0 / 7.0);
}

/// An artillery's pre-battle die (12.3 step 0) kills the lone defender outside a town
/// with 1/2 and the battle is over; otherwise it is 1 die against 1 die (1/3 each).
#[test]
fn pre_battle_fire_outside_a_town() {
    let o = spec(Rules::classic(2), &[(A, 1)], units(1, 0, 0, 0))
        .odds()
        .unwrap();
    assert_odds(
        &o,
        0.5 + 1.0 / 6.0,
        1.0 / 6.0,
        1.0 / 6.0,
        1.0 / 3.0,
        5.0 / 6.0,
    );
}

/// An empty town (12.3 step 2, Note): one round of the town's one die; the attacker
/// takes it unless that die hits (1/2).
#[test]
fn an_empty_town_rolls_one_round() {
    let mut s = spec(Rules::classic(2), &[(I, 1)], PerKind::default());
    s.town = Some(false);
    assert_odds(&s.odds().unwrap(), 0.5, 0.5, 0.0, 0.5, 0.0);
}

/// A city: the defender rolls 1 (infantry) + 2 (city) dice, at least one hit with 7/8.
/// Per round: both 7/16, attacker only 1/16, defender only 7/16, neither 1/16; so
/// win 1/15, hold 7/15, both 7/15. The original VIKTORY's "special defense" is the same
/// here (no suppression, but one hit is no excess anyway). Without his capital the
/// classic defender's city is a town (14.0): 2 dice, 3/4: win 1/7, hold 3/7, both 3/7.
#[test]
fn city_dice_and_the_lost_capital() {
    for rules in [Rules::classic(2), Rules::viktory1(2)] {
        let mut s = spec(rules, &[(I, 1)], units(1, 0, 0, 0));
        s.town = Some(true);
        let o = s.odds().unwrap();
        assert_odds(
            &o,
            1.0 / 15.0,
            7.0 / 15.0,
            7.0 / 15.0,
            14.0 / 15.0,
            8.0 / 15.0,
        );
    }
    let mut s = spec(Rules::classic(2), &[(I, 1)], units(1, 0, 0, 0));
    s.town = Some(true);
    s.defender_capital = false;
    let o = s.odds().unwrap();
    assert_odds(&o, 1.0 / 7.0, 3.0 / 7.0, 3.0 / 7.0, 6.0 / 7.0, 4.0 / 7.0);
}

/// Expansion Combat Supply: the attacker hits on 1–4 (2/3), the defender on 1–3 (1/2).
/// Per round: both 1/3, attacker only 1/3, defender only 1/6, neither 1/6: of 5/6,
/// win 2/5, both 2/5, hold 1/5.
#[test]
fn combat_supply_hits_on_four() {
    let mut s = spec(Rules::expansion(2), &[(I, 1)], units(1, 0, 0, 0));
    s.attacker_supply = true;
    let o = s.odds().unwrap();
    assert_odds(&o, 0.4, 0.2, 0.4, 0.6, 0.8);
    // Without the supply cities it is the even battle again.
    let o = spec(Rules::expansion(2), &[(I, 1)], units(1, 0, 0, 0))
        .odds()
        .unwrap();
    let third = 1.0 / 3.0;
    assert_odds(&o, third, third, third, 2.0 * third, 2.0 * third);
}

/// Expansion hex-side bonus: two infantry from two hex sides roll 1 + 1 dice against one
/// infantry. Two hits (1/4) suppress the defender's die (clarified suppression): win;
/// one hit (1/2): win whatever the defender rolls; no hit (1/4): the defender hits half
/// the time, leaving 1 against 1 (1/3 each), else a new round. From the start: win
/// 6/7, then 1/7 of an even battle: win 19/21, hold 1/21, both 1/21.
#[test]
fn hex_side_bonus() {
    let mut s = spec(Rules::expansion(2), &[], units(1, 0, 0, 0));
    s.attackers = vec![SpecUnit { kind: I, side: 0 }, SpecUnit { kind: I, side: 3 }];
    let o = s.odds().unwrap();
    // Attacker losses: a one-hit round (1/2 of 7/8) costs an infantry half the time
    // (2/7 in all); the even battle (1/7) costs one, then the other with 2/3: 11/21.
    let att = 2.0 / 7.0 + 1.0 / 7.0 * (1.0 + 2.0 / 3.0);
    // Defender losses: its unit, except when it holds (1/21).
    assert_odds(&o, 19.0 / 21.0, 1.0 / 21.0, 1.0 / 21.0, att, 20.0 / 21.0);
}

/// One bombardment hits at 1–3; two shots at two units lose 0, 1, 2 with 1/4, 1/2, 1/4.
#[test]
fn bombardment_odds() {
    let s = spec(Rules::classic(2), &[(A, 1)], units(1, 1, 0, 0));
    let b = s.bombard_odds(1).unwrap();
    assert!(close(b.hit_chance, 0.5) && close(b.losses[1], 0.5));
    let b = s.bombard_odds(2).unwrap();
    assert!(close(b.losses[0], 0.25) && close(b.losses[1], 0.5) && close(b.losses[2], 0.25));
    assert!(close(b.expected_losses, 1.0));
    // By default (MostDice) a 1 takes the cavalry: each type brings one die, both have
    // one unit left, and the tie goes to the strongest. A 2 or 3 is the owner's: the
    // infantry. So one shot leaves the cavalry 2/6 and the infantry 1/6.
    let left = |b: &odds::BombardOdds, u: PerKind| {
        b.survivors
            .iter()
            .find(|x| x.units == u)
            .map_or(0.0, |x| x.probability)
    };
    let one = s.bombard_odds(1).unwrap();
    assert!(close(left(&one, units(0, 1, 0, 0)), 2.0 / 6.0));
    assert!(close(left(&one, units(1, 0, 0, 0)), 1.0 / 6.0));
    // The owner's order loses the infantry first: the cavalry is left whenever one hit
    // lands.
    let mut owners = s.clone();
    owners.policy.tactical = TacticalPolicy::OwnersOrder;
    let b = owners.bombard_odds(2).unwrap();
    let cavalry_left = b
        .survivors
        .iter()
        .find(|x| x.units == units(0, 1, 0, 0))
        .unwrap();
    assert!(close(cavalry_left.probability, 0.5));
    // With the strongest-first tactical choice, a 1 takes the cavalry.
    let mut strong = s.clone();
    strong.policy.tactical = TacticalPolicy::Strongest;
    let b = strong.bombard_odds(1).unwrap();
    let infantry_left = b
        .survivors
        .iter()
        .find(|x| x.units == units(1, 0, 0, 0))
        .unwrap();
    assert!(close(infantry_left.probability, 1.0 / 6.0));
}

/// Bad descriptions are errors, not panics.
#[test]
fn bad_specs_are_refused() {
    let s = spec(Rules::classic(2), &[], units(1, 0, 0, 0));
    assert!(s.odds().is_err());
    let s = spec(Rules::classic(2), &[(I, 1)], PerKind::default());
    assert!(s.odds().is_err());
    let s = spec(Rules::classic(2), &[(F, 1)], units(1, 0, 0, 0));
    assert!(s.odds().is_err());
    let mut s = spec(Rules::classic(2), &[(F, 1)], units(0, 0, 0, 1));
    s.terrain = Terrain::Water;
    assert!(s.odds().is_ok());
    s.town = Some(true);
    assert!(s.odds().is_err());
}

// ----- playing battles with the engine -----

/// The policy's decision when the engine asks a seat during a battle.
fn decide(s: &Viktory, policy: Policy, retreating: &mut bool) -> Action {
    if let Some(choice) = casualties::pending(s) {
        // The firer's 1 under MostDice: the type that costs the victim most dice.
        let firer = choice.chooser != choice.victim;
        let wanted = (firer && policy.tactical == TacticalPolicy::MostDice)
            .then(|| odds::most_dice_kind(s, &choice.candidates))
            .flatten();
        let rank = |id: UnitId| {
            let u = s.unit(id).unwrap();
            let mut kind = match u.kind {
                UnitKind::Infantry => 0,
                UnitKind::Artillery => 1,
                UnitKind::Cavalry => 2,
                UnitKind::Frigate => 3,
            };
            if firer && policy.tactical == TacticalPolicy::Strongest {
                kind = 3 - kind;
            }
            if wanted.is_some_and(|k| k != u.kind) {
                kind += 10;
            }
            let cargo = s.units().iter().filter(|c| c.aboard == Some(id)).count();
            (kind, cargo, id)
        };
        let unit = choice
            .candidates
            .iter()
            .copied()
            .min_by_key(|&id| rank(id))
            .unwrap();
        return Action::Casualty { unit };
    }
    let b = s.battle().expect("a battle decision");
    if b.averaging {
        return Action::Average { pairs: 0 };
    }
    let legal = s.legal_actions();
    let retreat = legal
        .iter()
        .find(|a| matches!(a, Action::Retreat { .. }))
        .copied();
    if b.step == BattleStep::Retreating {
        return retreat.expect("a retreat");
    }
    let left = s
        .units()
        .iter()
        .filter(|u| u.hex == b.hex && u.owner == b.attacker && u.aboard.is_none())
        .count();
    match policy.retreat {
        RetreatPolicy::WhenFewerThan(n) if left < usize::from(n) => {
            *retreating = true;
            retreat.expect("a retreat")
        }
        _ => Action::Continue,
    }
}

fn fighting(s: &Viktory, hex: Hex, seat: Seat) -> u32 {
    s.units()
        .iter()
        .filter(|u| u.hex == hex && u.owner == seat && u.aboard.is_none())
        .count() as u32
}

/// Monte Carlo totals.
#[derive(Default, Debug)]
struct Tally {
    battles: u32,
    outcomes: [u32; 4],
    attacker_losses: u64,
    defender_losses: u64,
}

/// Plays the battle waiting at `hex` to its end `n` times with the engine.
fn monte_carlo(start: &Viktory, hex: Hex, policy: Policy, n: u32, seed: u64) -> Tally {
    let mut rng = GameRng::from_u64(seed);
    let mut t = Tally::default();
    let attacker = start.turn().active;
    let defender = start
        .units()
        .iter()
        .find(|u| u.hex == hex && u.owner != attacker)
        .map_or_else(|| start.town(hex).unwrap().owner, |u| u.owner);
    let a0 = fighting(start, hex, attacker);
    let d0 = fighting(start, hex, defender);
    for _ in 0..n {
        let mut s = start.clone();
        s.apply_unchecked(Action::Fight { hex });
        let mut retreating = false;
        let mut retreated: Option<u32> = None;
        let mut defenders_before = d0;
        while let Some(b) = s.battle() {
            if b.rolls.is_empty()
                && matches!(
                    b.step,
                    BattleStep::AttackerFire
                        | BattleStep::PreBattleFire
                        | BattleStep::PreBattleDefense
                        | BattleStep::Overwatch
                )
            {
                defenders_before = fighting(&s, hex, defender);
            }
            let action = match s.to_move() {
                ToMove::Chance => s.sample_chance(&mut rng),
                ToMove::Seat(_) => decide(&s, policy, &mut retreating),
                ToMove::Over(_) => unreachable!("the battle ends first"),
            };
            if retreating && retreated.is_none() {
                retreated = Some(fighting(&s, hex, attacker));
            }
            s.apply_unchecked(action);
        }
        let d_left = fighting(&s, hex, defender);
        let a_left = retreated.unwrap_or_else(|| fighting(&s, hex, attacker));
        let outcome = if retreating {
            Outcome::AttackerRetreats
        } else if a_left > 0 {
            Outcome::AttackerWins
        } else if d_left == 0 && defenders_before > 0 {
            Outcome::BothDestroyed
        } else {
            Outcome::DefenderHolds
        };
        t.battles += 1;
        t.outcomes[outcome as usize] += 1;
        t.attacker_losses += u64::from(a0 - a_left);
        t.defender_losses += u64::from(d0 - d_left);
    }
    t
}

/// Compares exact odds with a Monte Carlo estimate: each probability within `z`
/// standard errors (and within `abs`), each expected loss within 1 % or 0.01 or `z`
/// standard errors (bounded by a unit's loss, so by 1/(2√n) per unit).
#[track_caller]
fn check(name: &str, exact: &BattleOdds, mc: &Tally, z: f64, abs: f64) {
    let n = f64::from(mc.battles);
    let mut worst = 0.0f64;
    for o in OUTCOMES {
        let p = exact.probability(o);
        let est = f64::from(mc.outcomes[o as usize]) / n;
        let se = (p * (1.0 - p) / n).sqrt().max(1.0 / n);
        let d = (est - p).abs();
        worst = worst.max(d);
        assert!(
            d <= z * se && d <= abs,
            "{name}: {o:?} exact {p:.5}, Monte Carlo {est:.5} ({} battles)",
            mc.battles
        );
    }
    let units = f64::from(exact.attackers.total().max(exact.defenders.total()));
    for (label, e, sum) in [
        (
            "attacker",
            exact.expected_attacker_losses,
            mc.attacker_losses,
        ),
        (
            "defender",
            exact.expected_defender_losses,
            mc.defender_losses,
        ),
    ] {
        let est = sum as f64 / n;
        let tol = (0.01 * e).max(0.01).max(z * units / (2.0 * n.sqrt()));
        assert!(
            (est - e).abs() <= tol,
            "{name}: {label} losses exact {e:.5}, Monte Carlo {est:.5}"
        );
    }
    eprintln!(
        "{name}: {} battles, largest probability difference {worst:.5}; win {:.4} hold {:.4} both {:.4} retreat {:.4}",
        mc.battles,
        exact.attacker_wins,
        exact.defender_holds,
        exact.both_destroyed,
        exact.attacker_retreats
    );
}

/// Representative battles for every preset, and one with the extremely optional dice
/// rules.
fn cases() -> Vec<(String, BattleSpec)> {
    let mut v = Vec::new();
    for preset in ["classic", "expansion", "online", "viktory1"] {
        let rules = Rules::preset(preset, 2).unwrap();
        // The rulebook's 12.3 example: 3i 1c 2a against 2i 1a in a mountain city with
        // naval support.
        let mut s = spec(rules.clone(), &[(I, 3), (C, 1), (A, 2)], units(2, 0, 1, 0));
        s.terrain = Terrain::Mountain;
        s.town = Some(true);
        s.naval_support = 1;
        v.push((format!("{preset}: 12.3 example"), s));
        // Combined arms in a forest, two hex sides, against a cavalry and an artillery.
        let mut s = spec(rules.clone(), &[], units(1, 1, 1, 0));
        s.attackers = vec![
            SpecUnit { kind: I, side: 0 },
            SpecUnit { kind: I, side: 1 },
            SpecUnit { kind: C, side: 1 },
            SpecUnit { kind: A, side: 0 },
        ];
        s.terrain = Terrain::Forest;
        s.attacker_supply = preset != "viktory1";
        v.push((format!("{preset}: forest, two sides"), s));
        // A naval battle.
        let mut s = spec(rules.clone(), &[(F, 3)], units(0, 0, 0, 2));
        s.terrain = Terrain::Water;
        v.push((format!("{preset}: naval"), s));
        // A retreating attacker against a town.
        let mut s = spec(rules, &[(I, 2), (C, 2)], units(2, 0, 1, 0));
        s.town = Some(false);
        s.naval_support = 2;
        s.defender_supply = preset == "expansion";
        s.policy.retreat = RetreatPolicy::WhenFewerThan(3);
        s.policy.tactical = TacticalPolicy::Strongest;
        v.push((format!("{preset}: town, retreat below 3"), s));
    }
    // The extremely optional dice rules: Overwatch by the defending artillery, battle
    // dice factors (a die for two defenders), luck averaging declined by the policy.
    let mut rules = Rules::expansion(2);
    rules.artillery_characteristics = true;
    rules.battle_dice_factors = true;
    rules.luck_averaging = true;
    let mut s = spec(rules, &[(I, 2), (C, 1), (A, 2)], units(1, 1, 2, 0));
    s.terrain = Terrain::Forest;
    s.naval_support = 1;
    v.push(("expansion, extremely optional dice".to_owned(), s));
    v
}

fn cross_check(n: u32, z: f64, abs: f64) {
    for (i, (name, spec)) in cases().into_iter().enumerate() {
        let exact = spec.odds().unwrap();
        let total: f64 = OUTCOMES.iter().map(|&o| exact.probability(o)).sum();
        assert!(close(total, 1.0), "{name}: outcomes add up to {total}");
        let start = spec.position().unwrap();
        let mc = monte_carlo(&start, BattleSpec::HEX, spec.policy, n, 1000 + i as u64);
        check(&name, &exact, &mc, z, abs);
    }
}

/// 10⁵ engine battles per case: every probability within 5 standard errors (at most
/// 0.008 for p = 1/2), losses within 1 % or 0.01.
#[test]
fn monte_carlo_cross_check() {
    cross_check(100_000, 5.0, 0.01);
}

/// 10⁶ engine battles per case: every probability within 0.01 (and 5 standard errors).
#[test]
#[ignore = "slow: 10⁶ engine battles per case; run with --ignored"]
fn monte_carlo_cross_check_million() {
    cross_check(1_000_000, 5.0, 0.01);
}

// ----- the odds along a battle -----

/// The odds as the battle goes: at a die, the average of the odds after each face; at a
/// decision, the odds after the policy's choice. Checks every step of `n` battles and
/// returns how many steps it checked.
/// With `free_choices`, casualties are chosen at random instead (the odds then change
/// at a choice, but must still average out at every die).
fn martingale(
    start: &Viktory,
    hex: Hex,
    policy: Policy,
    n: u32,
    seed: u64,
    free_choices: bool,
) -> u32 {
    let mut rng = GameRng::from_u64(seed);
    let mut steps = 0;
    let at = |s: &Viktory| -> Option<[f64; 4]> {
        s.battle().map(|_| {
            let o = odds::battle_odds_with(s, hex, policy).expect("odds");
            OUTCOMES.map(|x| o.probability(x))
        })
    };
    let near = |x: [f64; 4], y: [f64; 4]| (0..4).all(|i| (x[i] - y[i]).abs() < 1e-9);
    assert!(odds::battle_odds_with(start, hex, policy).is_some());
    for _ in 0..n {
        let mut s = start.clone();
        s.apply_unchecked(Action::Fight { hex });
        let mut retreating = false;
        let mut expected: Option<[f64; 4]> = None;
        while s.battle().is_some() {
            let now = at(&s).unwrap();
            if let Some(e) = expected.take() {
                assert!(
                    near(now, e),
                    "a decision changed the odds: {e:?} then {now:?}"
                );
            }
            let (attacker, defender) = (attacker_of(&s), defender_of(&s));
            match s.to_move() {
                ToMove::Chance => {
                    let outcomes = s.chance_outcomes();
                    let weight: u32 = outcomes.iter().map(|(_, w)| w).sum();
                    let defenders_before = fighting(&s, hex, defender);
                    let mut mean = [0.0; 4];
                    for (a, w) in &outcomes {
                        let mut child = s.clone();
                        child.apply_unchecked(*a);
                        let f = f64::from(*w) / f64::from(weight);
                        let after = at(&child).unwrap_or_else(|| {
                            ended(&child, hex, attacker, defender, defenders_before)
                        });
                        for i in 0..4 {
                            mean[i] += f * after[i];
                        }
                    }
                    assert!(
                        near(now, mean),
                        "step {:?}: odds {now:?}, mean after the die {mean:?}",
                        s.battle().unwrap().step
                    );
                    let a = s.sample_chance(&mut rng);
                    s.apply_unchecked(a);
                }
                ToMove::Seat(_) if free_choices && casualties::pending(&s).is_some() => {
                    let legal = s.legal_actions();
                    let a = legal[rng.below(legal.len() as u32) as usize];
                    s.apply_unchecked(a);
                }
                ToMove::Seat(_) => {
                    let a = decide(&s, policy, &mut retreating);
                    s.apply_unchecked(a);
                    expected = Some(now);
                }
                ToMove::Over(_) => unreachable!(),
            }
            steps += 1;
        }
    }
    steps
}

fn attacker_of(s: &Viktory) -> Seat {
    s.battle().unwrap().attacker
}

fn defender_of(s: &Viktory) -> Seat {
    s.battle().unwrap().defender
}

/// The outcome of a battle that just ended, as probabilities by [`OUTCOMES`].
fn ended(s: &Viktory, hex: Hex, attacker: Seat, defender: Seat, defenders_before: u32) -> [f64; 4] {
    let att = fighting(s, hex, attacker);
    let def = fighting(s, hex, defender);
    let outcome = if att > 0 && def == 0 {
        Outcome::AttackerWins
    } else if att == 0 && def == 0 && defenders_before > 0 {
        Outcome::BothDestroyed
    } else if att == 0 {
        Outcome::DefenderHolds
    } else {
        Outcome::AttackerRetreats
    };
    let mut v = [0.0; 4];
    v[outcome as usize] = 1.0;
    v
}

#[test]
fn odds_are_a_martingale_along_battles() {
    for (name, spec) in cases() {
        let start = spec.position().unwrap();
        let steps = martingale(&start, BattleSpec::HEX, spec.policy, 30, 7, false);
        assert!(steps > 30, "{name}: {steps} steps");
        // Casualties chosen against the policy leave other units in the battle (the
        // hex-side dice follow them); the odds from there on must still be exact.
        martingale(&start, BattleSpec::HEX, spec.policy, 10, 8, true);
    }
}

// ----- odds of a real position -----

/// A prospective attack: the odds before moving equal the odds once the units have
/// moved in, and the engine agrees with them.
#[test]
fn attack_odds_before_and_after_moving() {
    let start = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Forest)
        .terrain(h(2, -1), Terrain::Water)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Artillery, h(0, 0))
        .unit(3, 0, UnitKind::Cavalry, h(1, 1))
        .unit(7, 1, UnitKind::Infantry, h(1, 0))
        .unit(8, 1, UnitKind::Cavalry, h(1, 0))
        .unit(9, 1, UnitKind::Frigate, h(2, -1))
        .build();
    let ids = [UnitId(1), UnitId(2), UnitId(3)];
    let before = odds::attack_odds(&start, h(1, 0), &ids).unwrap();
    let mut s = start.clone();
    play(&mut s, &[mv(1, 1, 0), mv(2, 1, 0), mv(3, 1, 0)]);
    let after = odds::battle_odds(&s, h(1, 0)).unwrap();
    assert_eq!(before, after);
    assert_eq!(before.attackers, units(1, 1, 1, 0));
    assert_eq!(before.defenders, units(1, 1, 0, 0));
    let mc = monte_carlo(&s, h(1, 0), Policy::default(), 100_000, 3);
    check("attack_odds", &after, &mc, 5.0, 0.01);
    // Nothing to fight, a unit of the wrong side or kind: no odds.
    assert!(odds::attack_odds(&start, h(-1, 0), &ids).is_none());
    assert!(odds::attack_odds(&start, h(1, 0), &[UnitId(7)]).is_none());
    assert!(odds::attack_odds(&start, h(1, 0), &[UnitId(1), UnitId(7)]).is_none());
    assert!(odds::attack_odds(&start, h(1, 0), &[]).is_none());
    assert!(odds::battle_odds(&start, h(1, 0)).is_none());
}

/// `OddsCache` answers exactly what `attack_odds` answers, over the positions of random
/// games (one memo for all of them, so a stale entry would show: the memo answers a
/// question asked again from everything near its hex, and debug builds also check
/// that answer against the battle's own key). At every movement decision, for every
/// hex holding units or a town, the units of each other player within two hexes that
/// can fight there attack it (frigates on water, land units on land, cargo too).
#[test]
fn the_odds_cache_agrees_with_attack_odds() {
    // No limit below the engine's own: every battle is answered.
    let mut cache = odds::OddsCache::new(usize::MAX);
    let mut asked = 0;
    let mut remembered = 0;
    let every = [
        "accelerator_enhancement",
        "metropolis",
        "battle_dice_factors",
        "frigate_characteristics",
        "artillery_characteristics",
        "pillage",
        "cavalry_characteristics",
        "road_ferry_network",
        "combat_supply",
    ];
    let games: [(&str, u8, u64, &[&str]); 4] = [
        ("classic", 2, 1, &[]),
        ("classic", 3, 2, &[]),
        ("online", 2, 3, &[]),
        ("expansion", 4, 4, &every),
    ];
    for (preset, players, seed, on) in games {
        let mut options = serde_json::Map::new();
        for &o in on {
            options.insert(o.into(), true.into());
        }
        let setup = Viktory::new_setup(&engine::NewGame {
            preset: Some(preset.into()),
            players: Some(players),
            options,
        })
        .unwrap();
        let mut s = Viktory::from_setup(&setup).unwrap();
        let mut rng = GameRng::from_u64(seed);
        for _ in 0..1_500 {
            match s.to_move() {
                ToMove::Over(_) => break,
                ToMove::Chance => {
                    let a = s.sample_chance(&mut rng);
                    s.apply_unchecked(a);
                    continue;
                }
                ToMove::Seat(_) => {}
            }
            if s.turn().stage == Stage::Move && s.battle().is_none() {
                let mut hexes: Vec<Hex> = s.towns().map(|(hex, _)| hex).collect();
                hexes.extend(s.units().iter().map(|u| u.hex));
                hexes.sort_unstable();
                hexes.dedup();
                for hex in hexes {
                    let water = s.terrain(hex).is_some_and(|t| !t.is_land());
                    for p in 0..players {
                        let ids: Vec<UnitId> = s
                            .units()
                            .iter()
                            .filter(|u| {
                                u.owner == Seat(p)
                                    && (u.kind == UnitKind::Frigate) == water
                                    && u.hex.distance(hex) <= 2
                            })
                            .map(|u| u.id)
                            .collect();
                        if ids.is_empty() {
                            continue;
                        }
                        let exact = odds::attack_odds(&s, hex, &ids);
                        assert_eq!(
                            cache.attack_odds(&s, hex, &ids),
                            exact.as_ref(),
                            "{preset} seed {seed}: {ids:?} attacking {hex:?}"
                        );
                        asked += 1;
                        remembered += usize::from(exact.is_some());
                    }
                }
            }
            let legal = s.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            s.apply_unchecked(a);
        }
    }
    assert!(
        asked > 1_000 && remembered > 500,
        "{asked} asked, {remembered} answered"
    );
}

/// Six of each land type a side in a forest town with naval support, the firer's 1s
/// taking the strongest units: some 200 000 states the battle can reach, about 70 million
/// steps of the exact method, past the cost limit.
fn costly_battle() -> BattleSpec {
    let mut b = spec(
        Rules::classic(2),
        &[(I, 6), (C, 6), (A, 6)],
        units(6, 6, 6, 0),
    );
    b.terrain = Terrain::Forest;
    b.town = Some(false);
    b.naval_support = 1;
    b.policy.tactical = TacticalPolicy::Strongest;
    b
}

/// A battle under the cost limit is computed exactly, as it always was; one beyond it
/// is estimated, says so (and how many battles it played), gives the same figures
/// every time (the dice are seeded from the battle), and lies within a few standard
/// errors of the exact odds.
#[test]
fn costly_battles_are_estimated() {
    let small = spec(Rules::classic(2), &[(I, 1)], units(1, 0, 0, 0));
    let s = small.position().unwrap();
    let cost = odds::battle_cost(&s, BattleSpec::HEX, Policy::default()).unwrap();
    assert!(cost <= odds::EXACT_COST_LIMIT);
    let o = small.odds().unwrap();
    assert!(o.exact && o.samples.is_none());
    let json = serde_json::to_value(&o).unwrap();
    assert!(
        json.get("exact").is_none() && json.get("samples").is_none(),
        "{json}"
    );

    let big = costly_battle();
    let s = big.position().unwrap();
    let cost = odds::battle_cost(&s, BattleSpec::HEX, big.policy).unwrap();
    assert!(cost > odds::EXACT_COST_LIMIT, "{cost}");
    let estimate = big.odds().unwrap();
    assert!(!estimate.exact);
    assert_eq!(estimate.samples, Some(odds::ESTIMATE_SAMPLES));
    let json = serde_json::to_value(&estimate).unwrap();
    assert_eq!(json["exact"], false);
    assert_eq!(json["samples"], odds::ESTIMATE_SAMPLES);
    assert_eq!(
        big.odds().unwrap(),
        estimate,
        "the same estimate every time"
    );
    let total: f64 = OUTCOMES.iter().map(|&o| estimate.probability(o)).sum();
    assert!((total - 1.0).abs() < 1e-9);
    let exact = odds::battle_odds_by(&s, BattleSpec::HEX, big.policy, odds::Method::Exact).unwrap();
    assert!(exact.exact);
    let n = f64::from(odds::ESTIMATE_SAMPLES);
    for o in OUTCOMES {
        let p = exact.probability(o);
        let se = (p * (1.0 - p) / n).sqrt().max(1.0 / n);
        assert!(
            (estimate.probability(o) - p).abs() <= 5.0 * se,
            "{o:?}: estimate {} vs exact {p}",
            estimate.probability(o)
        );
    }
    let rel = |x: f64, y: f64| (x - y).abs() <= 0.05 * y.max(0.2);
    assert!(rel(
        estimate.expected_defender_losses,
        exact.expected_defender_losses
    ));
    assert!(rel(
        estimate.expected_attacker_losses,
        exact.expected_attacker_losses
    ));
}

/// The estimate follows the same rules as the exact method from every step of a battle
/// in progress: along a few battles played by the engine, the estimate agrees with the
/// exact odds (forced) within five standard errors at every step.
#[test]
fn estimates_follow_battles_in_progress() {
    let mut rules = Rules::expansion(2);
    rules.defender_pre_battle_fire = true;
    rules.artillery_characteristics = true;
    let mut spec = spec(rules, &[(I, 2), (C, 1), (A, 2)], units(2, 1, 1, 0));
    spec.terrain = Terrain::Forest;
    spec.town = Some(true);
    let hex = BattleSpec::HEX;
    let n = f64::from(odds::ESTIMATE_SAMPLES);
    let policy = Policy::default();
    for seed in 0..3 {
        let mut s = spec.position().unwrap();
        let mut rng = GameRng::from_u64(seed);
        act(&mut s, Action::Fight { hex });
        let mut retreating = false;
        while s.battle().is_some() {
            let exact = odds::battle_odds_by(&s, hex, policy, odds::Method::Exact).unwrap();
            let estimate = odds::battle_odds_by(&s, hex, policy, odds::Method::Estimate).unwrap();
            assert!(!estimate.exact);
            for o in OUTCOMES {
                let p = exact.probability(o);
                let se = (p * (1.0 - p) / n).sqrt().max(1.0 / n);
                assert!(
                    (estimate.probability(o) - p).abs() <= 5.0 * se,
                    "seed {seed}, {:?}: {o:?} estimate {} vs exact {p}",
                    s.battle().map(|b| b.step),
                    estimate.probability(o)
                );
            }
            let action = match s.to_move() {
                ToMove::Chance => s.sample_chance(&mut rng),
                _ => decide(&s, policy, &mut retreating),
            };
            act(&mut s, action);
        }
    }
}

/// The odds cache of the bots computes exactly or not at all: a battle past the cost
/// limit gets no answer from it (the bot asks again with fewer units), where
/// `attack_odds` estimates it. Ten artillery a side firing six pre-battle dice each:
/// every outcome of 60 dice paired with every outcome of the other 60.
#[test]
fn the_odds_cache_does_not_estimate() {
    let artillery = |n: u8| {
        let mut rules = Rules::expansion(2);
        rules.pre_battle_fire = 6;
        let s = spec(rules, &[(A, n)], units(0, 0, n, 0))
            .position()
            .unwrap();
        let ids: Vec<UnitId> = s
            .units()
            .iter()
            .filter(|u| u.owner == Seat(0))
            .map(|u| u.id)
            .collect();
        (s, ids)
    };
    let (s, ids) = artillery(10);
    let mut cache = odds::OddsCache::new(4_000_000);
    assert!(cache.attack_odds(&s, BattleSpec::HEX, &ids).is_none());
    assert!(odds::attack_odds(&s, BattleSpec::HEX, &ids).is_some_and(|o| !o.exact));
    // With three a side the same battle is cheap enough.
    let (s, ids) = artillery(3);
    assert!(
        cache
            .attack_odds(&s, BattleSpec::HEX, &ids)
            .is_some_and(|o| o.exact)
    );
}
