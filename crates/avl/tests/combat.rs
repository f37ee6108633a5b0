//! Rules 1.3 and 9.0 (combat), with every combat example of the rulebook. Where an
//! example depends on the published map, its terrain is built in the test's own small
//! scenario (said in each test).

#![allow(clippy::many_single_char_names)]

mod common;

use avl::crt::Odds;
use avl::rules::combat;
use avl::state::BattleStage;
use avl::{Action, Event, Location, Nationality::*, Phase, Side, Supply};
use common::{T, all_but, foot, mech, mini, walk};
use engine::{Game, Seat, ToMove};
use hexmap::Direction::*;

fn test_scenario_with(f: impl Fn(String) -> String) -> avl::Scenario {
    avl::Scenario::from_toml(&f(include_str!("data/test.toml").to_string())).unwrap()
}

fn odds_event(ev: &[Event]) -> (u32, u32, String) {
    ev.iter()
        .find_map(|e| match e {
            Event::Odds {
                attack,
                defense,
                column,
                ..
            } => Some((*attack, *defense, column.clone())),
            _ => None,
        })
        .expect("an Odds event")
}

#[test]
fn rule_1_3_calculation_conventions_example() {
    // The 27Pz (attack 6 here: the 17Pz of the test scenario) is out of supply and
    // attacks across a minor river hexside: quartered to 1.5, rounded down to 1.
    let mut t = T::new(common::scenario());
    t.put("17Pz", "0304");
    t.put("It8A", "0202");
    t.put("38G", "0403");
    let p = t.id("17Pz");
    t.edit(|pos| pos.pieces[usize::from(p.0)].supply = Supply::OutOfSupply);
    let target = t.hex("0403");
    assert_eq!(combat::attack_strength(&t.s, &[p], target), 1);
    // Stacked units add up before halving: 3 + 3 across the river is 3, not 1 + 1.
    t.put("335", "0305");
    t.put("Cos", "0305");
    let (a, b) = (t.id("335"), t.id("Cos"));
    assert_eq!(combat::attack_strength(&t.s, &[a, b], t.hex("0405")), 3);
}

#[test]
fn rule_9_3_2_combat_ratio_examples() {
    let t = T::new(common::scenario());
    let crt = &t.s.rules().data.crt;
    let name = |a, d| crt.ratio_name(crt.odds(a, d).unwrap());
    assert_eq!(name(15, 5), "3-1");
    assert_eq!(name(26, 9), "2-1");
    assert_eq!(name(12, 7), "1.5-1");
    assert_eq!(name(18, 13), "1-1");
    assert_eq!(name(25, 2), "12-1");
    // 9.3.3: a Rough hex with a Town shifts 3-1 twice to 1.5-1; one shift takes 12-1 to
    // 11-1; above 10-1 the last column is used (9.3.4).
    let three = crt.odds(3, 1).unwrap();
    assert_eq!(crt.ratio_name(Odds(three.0 - 2)), "1.5-1");
    let twelve = crt.odds(12, 1).unwrap();
    assert_eq!(crt.ratio_name(Odds(twelve.0 - 1)), "11-1");
    assert_eq!(crt.column(Odds(twelve.0 - 1)), crt.columns.len() - 1);
    assert!(crt.odds(3, 4).is_none());
}

#[test]
fn rule_9_3_combat_ratio_example_13_to_1_in_kharkov() {
    // The 23Pz and LAH (7 + 6) attack the 4C (reduced: 1) in Kharkov, a city.
    let mut t = T::new(common::scenario());
    t.put("LAH", "0205");
    t.put("23Pz", "0307");
    t.put("4C", "0306");
    let c4 = t.id("4C");
    t.edit(|pos| pos.pieces[usize::from(c4.0)].reduced = true);
    t.activate(Side::Axis, &[], &["23Pz", "LAH"], Phase::Combat);
    let k = t.hex("0306");
    t.play(Action::Attack {
        unit: t.id("23Pz"),
        target: k,
    });
    t.play(Action::Attack {
        unit: t.id("LAH"),
        target: k,
    });
    let ev = t.play(Action::Resolve);
    assert_eq!(odds_event(&ev), (13, 1, "11-1".into()));
    assert_eq!(t.s.to_move(), ToMove::Chance);
    let ev = t.play(Action::Die { value: 1 });
    // Resolved on the 10-1+ column: die 1 there is 2DR2.
    assert!(ev.contains(&Event::CombatResult {
        die: 1,
        result: avl::crt::CrtResult::parse("2DR2").unwrap()
    }));
}

#[test]
fn rule_9_3_4_impossible_combat_ratio_examples() {
    // The 7Tk (4) attacks the 335 (3) in Chuguev, a town: 4:3 is 1-1, shifted below 1-1.
    let mut t = T::new(common::scenario());
    t.put("Cos", "0102");
    t.put("335", "0503");
    t.put("7Tk", "0603");
    t.activate(Side::Soviet, &[], &["7Tk"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("7Tk"),
        target: t.hex("0503"),
    });
    assert_eq!(t.refused(Action::Resolve), "9.3.4");
    // The attack may be withdrawn.
    t.play(Action::CancelAttack);
    // The 17Pz has its attack halved to 3 by the minor river: 3:4 is impossible.
    let mut t = T::new(common::scenario());
    t.put("17Pz", "0304");
    t.put("It8A", "0202");
    t.put("38G", "0403");
    t.activate(Side::Axis, &[], &["17Pz"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("17Pz"),
        target: t.hex("0403"),
    });
    assert_eq!(t.refused(Action::Resolve), "9.3.4");
}

#[test]
fn rule_9_3_5_zero_defense_example() {
    // The 8Lw (defense 1 here) is isolated in Rostov; the Soviet units attack with 6: the
    // defense halves to 0 and the combat is on the 10-1+ column, city shifts ignored.
    let sc = test_scenario_with(|t| {
        t.replace(
            "id = \"8Lw\"\nnationality = \"german\"\nstrength = 2",
            "id = \"8Lw\"\nnationality = \"german\"\nstrength = 1",
        )
    });
    let mut t = T::new(sc);
    t.put("1GM", "1104");
    t.put("8Lw", "1004");
    t.put("4C", "0905");
    t.put("7Tk", "0904");
    let lw = t.id("8Lw");
    t.edit(|pos| pos.pieces[usize::from(lw.0)].supply = Supply::Isolated);
    t.activate(Side::Soviet, &[], &["4C", "7Tk"], Phase::Combat);
    let r = t.hex("1004");
    t.play(Action::Attack {
        unit: t.id("4C"),
        target: r,
    });
    t.play(Action::Attack {
        unit: t.id("7Tk"),
        target: r,
    });
    let ev = t.play(Action::Resolve);
    assert_eq!(odds_event(&ev), (6, 0, "10-1".into()));
}

#[test]
fn rule_9_1_who_attacks_what() {
    let mut t = T::new(common::scenario());
    t.put("7Tk", "0603");
    t.activate(Side::Soviet, &[], &["7Tk"], Phase::Combat);
    let tk = t.id("7Tk");
    // 9.0: an empty hex or a lone HQ cannot be attacked.
    assert_eq!(
        t.refused(Action::Attack {
            unit: tk,
            target: t.hex("0602")
        }),
        "9.0"
    );
    assert_eq!(
        t.refused(Action::Attack {
            unit: tk,
            target: t.hex("0403")
        }),
        "9.0"
    );
    // 9.1.1: non-activated units cannot attack.
    assert_eq!(
        t.refused(Action::Attack {
            unit: t.id("4C"),
            target: t.hex("0504")
        }),
        "9.1.1"
    );
    t.play(Action::Attack {
        unit: tk,
        target: t.hex("0503"),
    });
    // 9.2: one combat at a time.
    assert_eq!(
        t.refused(Action::Attack {
            unit: tk,
            target: t.hex("0504")
        }),
        "9.2"
    );
}

#[test]
fn rule_9_4_2_step_losses_are_the_owners_choice() {
    // Two full-strength Soviet units suffer a 2-step loss: eliminate one or flip both.
    let mut sc = mini(6, 3);
    sc.map.supply.axis = vec!["0102".into()];
    sc.map.supply.soviet = vec!["0602".into()];
    sc.units = vec![
        foot("A", German, 9, Some(4), "0202"),
        foot("B", Soviet, 2, Some(1), "0302"),
        foot("C", Soviet, 2, Some(1), "0302"),
    ];
    let mut t = T::new(sc);
    t.activate(Side::Axis, &[], &["A"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("A"),
        target: t.hex("0302"),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 4 }); // "2"
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(1)));
    let (b, c) = (t.id("B"), t.id("C"));
    assert_eq!(
        t.s.legal_actions(),
        vec![Action::LoseStep { unit: b }, Action::LoseStep { unit: c }]
    );
    t.play(Action::LoseStep { unit: b });
    t.play(Action::LoseStep { unit: b });
    assert_eq!(t.s.location(b), Location::Eliminated);
    assert!(!t.s.piece(c).reduced);
}

#[test]
fn rule_9_4_attacker_losses_and_exchange() {
    // "A1/1DR": the attacker loses a step (his only unit: no choice), then the defender.
    let mut sc = mini(6, 3);
    sc.map.supply.axis = vec!["0102".into()];
    sc.map.supply.soviet = vec!["0602".into()];
    sc.units = vec![
        foot("A", German, 4, Some(2), "0202"),
        foot("B", Soviet, 2, Some(1), "0302"),
    ];
    let mut t = T::new(sc);
    t.activate(Side::Axis, &[], &["A"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("A"),
        target: t.hex("0302"),
    });
    t.play(Action::Resolve);
    let ev = t.play(Action::Die { value: 6 });
    assert!(ev.contains(&Event::StepLost {
        unit: t.id("A"),
        eliminated: false
    }));
    assert!(ev.contains(&Event::StepLost {
        unit: t.id("B"),
        eliminated: false
    }));
    assert!(matches!(
        t.s.position().battle.as_ref().map(|b| b.stage),
        Some(BattleStage::Retreat)
    ));
}

/// The 9.5.2 example: the German 304 must retreat into the one adjacent hex free of
/// Soviet ZOCs. The map is this test's own: a 7x5 clear map.
#[test]
fn rule_9_5_2_retreat_restrictions_example() {
    let (c, r) = (7, 5);
    let x = "0403";
    let att = walk(c, r, x, &[E]);
    let free = walk(c, r, x, &[W]);
    // Soviet units that put the other adjacent hexes in ZOC but not `free`.
    let z1 = walk(c, r, x, &[NW, NE]);
    let z2 = walk(c, r, x, &[SW, SE]);
    let mut sc = mini(c, r);
    sc.map.supply.axis = vec!["0103".into()];
    sc.map.supply.soviet = vec!["0703".into()];
    sc.units = vec![
        foot("304", German, 3, Some(1), x),
        foot("S1", Soviet, 9, Some(4), &att),
        foot("S2", Soviet, 2, Some(1), &z1),
        foot("S3", Soviet, 2, Some(1), &z2),
    ];
    let mut t = T::new(sc);
    t.activate(Side::Soviet, &[], &["S1"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("S1"),
        target: t.hex(x),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 1 }); // DR
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(0)));
    let p = t.id("304");
    assert_eq!(
        t.s.legal_actions(),
        vec![Action::Retreat {
            piece: p,
            to: t.hex(&free)
        }]
    );
    t.play(Action::Retreat {
        piece: p,
        to: t.hex(&free),
    });
    assert!(!t.s.piece(p).reduced);
}

#[test]
fn rule_9_5_2_retreat_closer_to_supply() {
    // With no ZOC around, the 13Tk retreats closer to a friendly supply source.
    let mut sc = mini(7, 5);
    sc.map.supply.axis = vec!["0103".into()];
    sc.map.supply.soviet = vec!["0703".into()];
    sc.units = vec![
        foot("G", German, 9, Some(4), "0303"),
        mech("13Tk", Soviet, 4, 2, "0403"),
    ];
    let mut t = T::new(sc);
    t.activate(Side::Axis, &[], &["G"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("G"),
        target: t.hex("0403"),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 1 });
    let src = t.hex("0703");
    let from = t.hex("0403");
    let options: Vec<_> = t.s.legal_actions();
    assert!(!options.is_empty());
    for a in options {
        let Action::Retreat { to, .. } = a else {
            panic!("{a:?}")
        };
        assert!(to.distance(src) < from.distance(src), "{a:?}");
    }
}

/// The 9.5.4 example. The map is this test's own: a water corridor D - H1 - H2 - H3.
#[test]
fn rule_9_5_4_retreat_stacking_limit_example() {
    let (c, r) = (5, 8);
    let d = "0303";
    let h1 = walk(c, r, d, &[SE]);
    let h2 = walk(c, r, d, &[SE, SE]);
    let h3 = walk(c, r, d, &[SE, SE, SE]);
    let src = walk(c, r, d, &[SE, SE, SE, SE]);
    let a = walk(c, r, d, &[NW]);
    let g = walk(c, r, &h1, &[W]);
    let axis_src = walk(c, r, &a, &[NW]);
    let mut sc = mini(c, r);
    let land = [
        d,
        h1.as_str(),
        h2.as_str(),
        h3.as_str(),
        src.as_str(),
        a.as_str(),
        g.as_str(),
        axis_src.as_str(),
    ];
    sc.map.terrain.insert("water".into(), all_but(c, r, &land));
    sc.map.supply.axis = vec![axis_src.clone()];
    sc.map.supply.soviet = vec![src.clone()];
    sc.units = vec![
        foot("19Pz", German, 9, Some(4), &a),
        foot("320", German, 3, Some(1), &g),
        foot("38G", Soviet, 4, Some(2), d),
        foot("91", Soviet, 3, Some(1), d),
        foot("X1", Soviet, 2, Some(1), &h2),
        foot("X2", Soviet, 2, Some(1), &h2),
    ];
    let mut t = T::new(sc);
    let n91 = t.id("91");
    t.edit(|pos| pos.pieces[usize::from(n91.0)].reduced = true);
    t.activate(Side::Axis, &[], &["19Pz"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("19Pz"),
        target: t.hex(d),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 2 }); // DR2
    let (g38, n91) = (t.id("38G"), t.id("91"));
    // Both must go into hex 1, in the ZOC of the 320: each loses a step.
    let ev = t.play(Action::Retreat {
        piece: n91,
        to: t.hex(&h1),
    });
    assert!(ev.contains(&Event::StepLost {
        unit: n91,
        eliminated: true
    }));
    let ev = t.play(Action::Retreat {
        piece: g38,
        to: t.hex(&h1),
    });
    assert!(ev.contains(&Event::StepLost {
        unit: g38,
        eliminated: false
    }));
    // Hex 2 is full: the 38G retreats one more hex, to hex 3.
    t.play(Action::Retreat {
        piece: g38,
        to: t.hex(&h2),
    });
    assert_eq!(
        t.s.legal_actions(),
        vec![Action::Retreat {
            piece: g38,
            to: t.hex(&h3)
        }]
    );
    t.play(Action::Retreat {
        piece: g38,
        to: t.hex(&h3),
    });
    assert_eq!(t.s.location(g38), Location::Map(t.hex(&h3)));
    assert!(t.s.piece(g38).reduced);
}

/// The 9.5.6 river retreat example, on this test's own map with a major river.
#[test]
fn rule_9_5_6_river_retreat_example() {
    let (c, r) = (8, 5);
    let x = "0403";
    let west = walk(c, r, x, &[W]);
    let att = walk(c, r, x, &[E]);
    let mut sc = mini(c, r);
    sc.map.supply.axis = vec!["0103".into()];
    sc.map.supply.soviet = vec!["0803".into()];
    // A major river along every western side of the defender's hex, and beyond.
    sc.map.major_rivers = [NW, W, SW]
        .iter()
        .map(|&dd| [x.to_string(), walk(c, r, x, &[dd])])
        .collect();
    sc.units = vec![
        foot("G", German, 3, Some(1), x),
        foot("S", Soviet, 9, Some(4), &att),
    ];
    let mut t = T::new(sc);
    t.activate(Side::Soviet, &[], &["S"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("S"),
        target: t.hex(x),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 2 }); // DR2
    let g = t.id("G");
    // Starting beside the unbridged river it may cross it on its first hex.
    let first: Vec<_> = t.s.legal_actions();
    assert!(
        first.contains(&Action::Retreat {
            piece: g,
            to: t.hex(&west)
        }),
        "{first:?}"
    );
    t.play(Action::Retreat {
        piece: g,
        to: t.hex(&west),
    });
    assert_eq!(t.s.location(g), Location::Map(t.hex(&west)));

    // A unit that reaches the river on its second hex may not cross it.
    let mut sc = mini(c, r);
    sc.map.supply.axis = vec!["0103".into()];
    sc.map.supply.soviet = vec!["0803".into()];
    let y = walk(c, r, x, &[E]);
    let att2 = walk(c, r, &y, &[E]);
    sc.map.major_rivers = [NW, W, SW]
        .iter()
        .map(|&dd| [x.to_string(), walk(c, r, x, &[dd])])
        .collect();
    // Water north and south of x so the second hex must cross the river.
    sc.map.terrain.insert(
        "water".into(),
        vec![
            walk(c, r, x, &[NE]),
            walk(c, r, x, &[SE]),
            walk(c, r, &y, &[NE]),
            walk(c, r, &y, &[SE]),
        ],
    );
    sc.units = vec![
        foot("G", German, 3, Some(1), &y),
        foot("S", Soviet, 9, Some(4), &att2),
    ];
    let mut t = T::new(sc);
    t.activate(Side::Soviet, &[], &["S"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("S"),
        target: t.hex(&y),
    });
    t.play(Action::Resolve);
    let ev = t.play(Action::Die { value: 2 }); // DR2: x, then no way on: eliminated (9.5.8)
    let g = t.id("G");
    assert!(
        ev.contains(&Event::EliminatedInRetreat { unit: g }),
        "{ev:?}"
    );
    assert_eq!(t.s.location(g), Location::Eliminated);
}

/// The 9.6 example: hex 1 (non-mechanized: one hex), hex 2 (across an unbridged major
/// river: stop), hex 3 (two mechanized units, up to two hexes each). The map is this
/// test's own.
#[test]
fn rule_9_6_advance_after_combat_example() {
    let (c, r) = (9, 7);
    let mut sc = mini(c, r);
    sc.map.supply.axis = vec!["0101".into()];
    sc.map.supply.soviet = vec!["0904".into()];
    // Hex 1: 1GC (cavalry, non-mechanized) attacks G1.
    let hex1 = "0302";
    let gc = walk(c, r, hex1, &[E]);
    // Hex 2: 1GM attacks G2 across an unbridged major river.
    let hex2 = "0305";
    let gm = walk(c, r, hex2, &[E]);
    sc.map.major_rivers = vec![[hex2.to_string(), gm.clone()]];
    // Hex 3: 10Tk and 25Tk attack G3 from the same hex.
    let hex3 = "0705";
    let tk = walk(c, r, hex3, &[E]);
    sc.units = vec![
        foot("G1", German, 1, None, hex1),
        foot("G2", German, 1, None, hex2),
        foot("G3", German, 1, None, hex3),
        foot("1GC", Soviet, 9, Some(4), &gc),
        mech("1GM", Soviet, 9, 4, &gm),
        mech("10Tk", Soviet, 9, 4, &tk),
        mech("25Tk", Soviet, 9, 4, &tk),
    ];
    let mut t = T::new(sc);
    t.activate(
        Side::Soviet,
        &[],
        &["1GC", "1GM", "10Tk", "25Tk"],
        Phase::Combat,
    );
    let fight = |t: &mut T, units: &[&str], target: &str| {
        for u in units {
            t.play(Action::Attack {
                unit: t.id(u),
                target: t.hex(target),
            });
        }
        t.play(Action::Resolve);
        t.play(Action::Die { value: 4 }) // "2": the one-step defender is eliminated
    };
    fight(&mut t, &["1GC"], hex1);
    let gc_id = t.id("1GC");
    assert_eq!(
        t.s.legal_actions(),
        vec![
            Action::Advance {
                piece: gc_id,
                to: t.hex(hex1)
            },
            Action::EndAdvance
        ]
    );
    t.play(Action::Advance {
        piece: gc_id,
        to: t.hex(hex1),
    });
    // Non-mechanized: one hex only; the combat is over.
    assert!(t.s.position().battle.is_none());

    fight(&mut t, &["1GM"], hex2);
    let gm_id = t.id("1GM");
    t.play(Action::Advance {
        piece: gm_id,
        to: t.hex(hex2),
    });
    assert!(
        t.s.position().battle.is_none(),
        "crossed an unbridged major river: stop"
    );

    fight(&mut t, &["10Tk", "25Tk"], hex3);
    let (a, b) = (t.id("10Tk"), t.id("25Tk"));
    t.play(Action::Advance {
        piece: a,
        to: t.hex(hex3),
    });
    let second = walk(c, r, hex3, &[W]);
    t.play(Action::Advance {
        piece: a,
        to: t.hex(&second),
    });
    t.play(Action::Advance {
        piece: b,
        to: t.hex(hex3),
    });
    let other = walk(c, r, hex3, &[SW]);
    t.play(Action::Advance {
        piece: b,
        to: t.hex(&other),
    });
    assert_eq!(t.s.location(a), Location::Map(t.hex(&second)));
    assert_eq!(t.s.location(b), Location::Map(t.hex(&other)));
    assert!(t.s.position().battle.is_none());
}

#[test]
fn rule_9_1_4_a_hex_is_attacked_once_per_segment() {
    let mut sc = mini(6, 3);
    sc.map.supply.axis = vec!["0102".into()];
    sc.map.supply.soviet = vec!["0602".into()];
    sc.units = vec![
        foot("A", German, 1, None, "0202"),
        foot("A2", German, 1, None, "0301"),
        foot("B", Soviet, 1, None, "0302"),
        foot("B2", Soviet, 1, None, "0401"),
    ];
    let mut t = T::new(sc);
    t.activate(Side::Axis, &[], &["A", "A2"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("A"),
        target: t.hex("0302"),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 5 }); // A1: the attacker's only unit is eliminated
    assert_eq!(t.s.location(t.id("A")), Location::Eliminated);
    assert_eq!(
        t.refused(Action::Attack {
            unit: t.id("A2"),
            target: t.hex("0302")
        }),
        "9.1.4"
    );
}

/// Rule 12.4: a HQ stacked with attacking units may advance with them, two hexes with a
/// mechanized unit that advances two. The map is this test's own.
#[test]
fn rule_12_4_hq_advances_with_its_stack() {
    let (c, r) = (9, 5);
    let mut sc = mini(c, r);
    sc.map.supply.axis = vec!["0103".into()];
    sc.map.supply.soviet = vec!["0903".into()];
    let target = "0503";
    let from = walk(c, r, target, &[W]);
    sc.units = vec![
        foot("D", Soviet, 1, None, target),
        mech("Pz", German, 9, 4, &from),
    ];
    sc.hqs = vec![common::hq("H", German, 3, &from)];
    let mut t = T::new(sc);
    t.activate(Side::Axis, &[], &["Pz"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("Pz"),
        target: t.hex(target),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 4 }); // "2": the defender is eliminated
    let (pz, h) = (t.id("Pz"), t.id("H"));
    // The HQ follows only once a unit of its stack has advanced.
    assert_eq!(
        t.refused(Action::Advance {
            piece: h,
            to: t.hex(target)
        }),
        "9.6.3"
    );
    t.play(Action::Advance {
        piece: pz,
        to: t.hex(target),
    });
    let second = walk(c, r, target, &[E]);
    t.play(Action::Advance {
        piece: pz,
        to: t.hex(&second),
    });
    t.play(Action::Advance {
        piece: h,
        to: t.hex(target),
    });
    t.play(Action::Advance {
        piece: h,
        to: t.hex(&second),
    });
    assert_eq!(t.s.location(h), Location::Map(t.hex(&second)));
}

/// Rule 5.0.4, H-100: an advance may pass through a full attacked hex, but its second
/// hex ends it, so a full or incompatible stack there is out of reach (found by the
/// harness: a Hungarian mechanized unit ended its advance on an Italian unit).
#[test]
fn rule_5_0_4_an_advance_ends_within_the_stacking_limit() {
    let (c, r) = (9, 5);
    let mut sc = mini(c, r);
    sc.map.supply.axis = vec!["0103".into()];
    sc.map.supply.soviet = vec!["0903".into()];
    let target = "0503";
    let from = walk(c, r, target, &[W]);
    let beyond = walk(c, r, target, &[E]);
    sc.units = vec![
        foot("D", Soviet, 1, None, target),
        mech("HTk", Hungarian, 9, 4, &from),
        foot("It", Italian, 1, None, &beyond),
    ];
    let mut t = T::new(sc);
    t.activate(Side::Axis, &[], &["HTk"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("HTk"),
        target: t.hex(target),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 4 });
    let tk = t.id("HTk");
    t.play(Action::Advance {
        piece: tk,
        to: t.hex(target),
    });
    assert_eq!(
        t.refused(Action::Advance {
            piece: tk,
            to: t.hex(&beyond)
        }),
        "9.6.3"
    );
}

/// Rules 9.6.5 and 5.0.4 together (found by the bots on the campaign): a unit may pass
/// through a full attacked hex only if it can go on, and one that enters it across an
/// unbridged major river must stop there, so it may not enter it at all. Before the fix
/// the unit went in, stopped overstacked, and nobody had a legal action.
#[test]
fn rule_9_6_5_no_advance_into_a_full_hex_across_a_major_river() {
    // The campaign as it was when the bots played this position (before its balance
    // tuning added six Soviet divisions).
    let scenario = avl::Scenario::from_toml(include_str!("data/campaign-v1.toml")).unwrap();
    let stuck: avl::state::Position =
        serde_json::from_str(include_str!("data/campaign-stuck-advance.json")).unwrap();
    let load = |position: avl::state::Position| {
        avl::Avl::from_setup(&avl::Setup {
            scenario: scenario.clone(),
            options: avl::Options::default(),
            position: Some(position),
        })
        .unwrap()
    };
    // The position the bots reached: 69 advanced into the full hex across the Donets.
    let s = load(stuck.clone());
    assert!(matches!(s.to_move(), ToMove::Seat(_)));
    assert!(
        s.legal_actions().is_empty(),
        "the position is the stuck one"
    );
    // The moment before: 69 still on its side of the river.
    let b = stuck.battle.as_ref().unwrap();
    let target = b.target;
    let unit = avl::PieceId(69);
    let from = target.neighbors().into_iter().find(|&h| {
        s.map().contains(h) && s.map().is_land(h) && s.map().side(h, target).unbridged_major()
    });
    let from = from.expect("a hex across the major river");
    let mut before = stuck.clone();
    before.pieces[69].location = Location::Map(from);
    let battle = before.battle.as_mut().unwrap();
    battle.advancing = None;
    battle.advanced.retain(|(p, _)| *p != unit);
    let s = load(before);
    assert!(
        !advance_options(&s, unit).contains(&target),
        "69 cannot stop in the full hex"
    );
    let refused = s
        .check(&Action::Advance {
            piece: unit,
            to: target,
        })
        .unwrap_err();
    assert_eq!(refused.rule, "9.6.3");
    assert!(s.legal_actions().contains(&Action::EndAdvance));
}

fn advance_options(s: &avl::Avl, p: avl::PieceId) -> Vec<hexmap::Hex> {
    avl::rules::advance::options(s, p)
}
