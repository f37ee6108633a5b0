//! Rules 10.0 (supply, with its example), 11.0 (reinforcements), 12.0 (HQ special
//! rules, with the 12.7 relocation example) on the test scenario and the tests' own maps.

#![allow(clippy::many_single_char_names)]

mod common;

use avl::rules::{hq as hq_rules, supply, zoc::ZoneOfControl};
use avl::{Action, Chit, Event, Location, Nationality::*, Phase, Side, Supply};
use common::{T, all_but, foot, hq, mini, walk};
use engine::{Game, Seat, ToMove};
use hexmap::Direction::*;

fn in_supply(t: &T, side: Side, label: &str) -> bool {
    let g = supply::supplied(&t.s, side);
    g[t.s.map().board_index(t.hex(label))]
}

/// The 10.0 example, on this test's own corridor map: the 298 cannot trace through a
/// hex in enemy ZOC; the 15Lw is cut off by water; the Tot negates the ZOC in its hex so
/// the PADA traces through it.
#[test]
fn rule_10_0_supply_example() {
    let (c, r) = (5, 8);
    let src = "0301";
    let c1 = walk(c, r, src, &[SE]);
    let u = walk(c, r, &c1, &[E]);
    let z = walk(c, r, &c1, &[SW]);
    let island = "0508";
    let mut sc = mini(c, r);
    let land = [src, c1.as_str(), u.as_str(), z.as_str(), island, "0101"];
    sc.map.terrain.insert("water".into(), all_but(c, r, &land));
    sc.map.supply.axis = vec![src.into()];
    sc.map.supply.soviet = vec!["0101".into()];
    sc.units = vec![
        foot("298", German, 3, Some(1), &u),
        foot("15Lw", German, 2, None, island),
        foot("S", Soviet, 3, Some(1), &z),
        foot("Tot", German, 3, Some(1), "0101"),
    ];
    // The Tot starts elsewhere (on the Soviet source, out of the way); moved in later.
    sc.units[3].hex = Some(src.into());
    let mut t = T::new(sc);
    let zoc = ZoneOfControl::of(&t.s, Side::Soviet);
    assert!(zoc.contains(t.hex(&c1)));
    assert!(
        !in_supply(&t, Side::Axis, &u),
        "298: its line runs through an enemy ZOC"
    );
    assert!(!in_supply(&t, Side::Axis, island), "15Lw: water all around");
    let mut ev = Vec::new();
    supply::supply_phase(&mut t.s, &mut ev);
    let (p298, lw) = (t.id("298"), t.id("15Lw"));
    assert_eq!(t.s.piece(p298).supply, Supply::OutOfSupply);
    assert_eq!(t.s.piece(lw).supply, Supply::OutOfSupply);
    // 10.1.3: out of supply again: isolated; isolated stays isolated.
    supply::supply_phase(&mut t.s, &mut ev);
    assert_eq!(t.s.piece(p298).supply, Supply::Isolated);
    supply::supply_phase(&mut t.s, &mut ev);
    assert_eq!(t.s.piece(p298).supply, Supply::Isolated);
    // A friendly unit in the ZOC hex negates the ZOC for supply: back in supply.
    t.put("Tot", &c1);
    assert!(in_supply(&t, Side::Axis, &u));
    supply::supply_phase(&mut t.s, &mut ev);
    assert_eq!(t.s.piece(p298).supply, Supply::InSupply);
    assert!(ev.contains(&Event::SupplyChanged {
        piece: p298,
        supply: Supply::InSupply
    }));
}

#[test]
fn rule_10_1_2_supply_lines_and_rivers() {
    // No unbridged major river; bridged is fine.
    let mut sc = mini(6, 3);
    sc.map.supply.axis = vec!["0102".into()];
    sc.map.supply.soviet = vec!["0602".into()];
    sc.map.major_rivers = [
        ("0301", "0401"),
        ("0302", "0401"),
        ("0302", "0402"),
        ("0303", "0402"),
        ("0303", "0403"),
    ]
    .iter()
    .map(|(a, b)| [(*a).to_string(), (*b).to_string()])
    .collect();
    sc.units = vec![foot("G", German, 3, None, "0402")];
    let t = T::new(sc.clone());
    assert!(!in_supply(&t, Side::Axis, "0402"));
    sc.map.roads = vec![vec!["0302".into(), "0402".into()]];
    let t = T::new(sc);
    assert!(in_supply(&t, Side::Axis, "0402"));
}

/// The 12.7 example, on this test's own 20x5 map. The 1PzA HQ at 1403 is overrun; the
/// Axis supply source is 0103. (1) hexes farther from the source are out; (2) 1001,
/// 1002, 1101 are four hexes away but in enemy ZOCs; (3) 1003-1005 are free of ZOCs but
/// cannot trace supply; (4) so no hex four hexes away qualifies; (5) 0903 and 0904,
/// five away, are in enemy ZOCs; (6) 0905 cannot trace supply; (7) 0901 and 0902 are
/// the only choices.
#[test]
fn rule_12_7_hq_relocation_example() {
    let mut sc = mini(20, 5);
    sc.map.terrain.insert(
        "water".into(),
        vec!["0804".into(), "0805".into(), "1105".into()],
    );
    sc.map.supply.axis = vec!["0103".into()];
    sc.map.supply.soviet = vec!["2003".into()];
    sc.units = vec![
        foot("A", Soviet, 2, None, "1102"),
        foot("B", Soviet, 2, None, "1203"),
        foot("C", Soviet, 2, None, "0803"),
        foot("Ov", Soviet, 2, None, "1503"),
    ];
    sc.hqs = vec![hq("1PzA", German, 4, "1403")];
    let mut t = T::new(sc);
    t.activate(Side::Soviet, &[], &["Ov"], Phase::Movement);
    let ev = t.play(Action::Move {
        piece: t.id("Ov"),
        to: t.hex("1403"),
    });
    let pz = t.id("1PzA");
    assert!(ev.contains(&Event::Overrun {
        hq: pz,
        by: t.id("Ov")
    }));
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(0)));
    let zoc = ZoneOfControl::of(&t.s, Side::Soviet);
    for h in ["1001", "1002", "1101", "0903", "0904"] {
        assert!(zoc.contains(t.hex(h)), "{h} in ZOC");
    }
    for h in ["1003", "1004", "1005", "0905"] {
        assert!(
            !zoc.contains(t.hex(h)) && !in_supply(&t, Side::Axis, h),
            "{h} cut off"
        );
    }
    let from = t.hex("1403");
    let options = hq_rules::relocation_hexes(&t.s, pz, from);
    assert_eq!(t.labels(&options), vec!["0901", "0902"]);
    assert_eq!(
        t.s.legal_actions(),
        vec![
            Action::Relocate {
                hq: pz,
                to: t.hex("0901")
            },
            Action::Relocate {
                hq: pz,
                to: t.hex("0902")
            }
        ]
    );
    assert_eq!(
        t.refused(Action::Relocate {
            hq: pz,
            to: t.hex("1001")
        }),
        "12.7"
    );
    let ev = t.play(Action::Relocate {
        hq: pz,
        to: t.hex("0902"),
    });
    assert!(ev.contains(&Event::Relocated {
        hq: pz,
        to: t.hex("0902")
    }));
    // Back to the Soviet mover.
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(1)));
}

#[test]
fn rule_12_7_an_hq_that_cannot_be_relocated_arrives_next_turn() {
    let mut sc = mini(6, 1);
    sc.map.supply.axis = vec!["0101".into()];
    sc.map.supply.soviet = vec!["0601".into()];
    sc.units = vec![foot("Ov", Soviet, 2, None, "0301")];
    sc.hqs = vec![hq("H", German, 4, "0201")];
    let mut t = T::new(sc);
    t.activate(Side::Soviet, &[], &["Ov"], Phase::Movement);
    let ev = t.play(Action::Move {
        piece: t.id("Ov"),
        to: t.hex("0201"),
    });
    let h = t.id("H");
    assert!(ev.contains(&Event::RelocationFailed { hq: h }));
    assert_eq!(t.s.location(h), Location::Arriving(3));
}

#[test]
fn rule_12_2_and_12_3_hqs_in_combat() {
    let mut sc = mini(12, 5);
    sc.map.supply.axis = vec!["0103".into()];
    sc.map.supply.soviet = vec!["1203".into()];
    sc.units = vec![
        foot("G", German, 1, None, "0803"),
        foot("S", Soviet, 9, Some(4), "0903"),
    ];
    sc.hqs = vec![hq("H", German, 3, "0803")];
    // 12.3: the HQ retreats with its stack.
    let mut t = T::new(sc.clone());
    t.activate(Side::Soviet, &[], &["S"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("S"),
        target: t.hex("0803"),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 1 }); // DR
    let g = t.id("G");
    let to = match t.s.legal_actions()[0] {
        Action::Retreat { to, .. } => to,
        a => panic!("{a:?}"),
    };
    t.play(Action::Retreat { piece: g, to });
    let h = t.id("H");
    assert_eq!(t.s.legal_actions(), vec![Action::Retreat { piece: h, to }]);
    t.play(Action::Retreat { piece: h, to });
    assert_eq!(t.s.location(h), Location::Map(to));
    // 12.2: the HQ's stack is eliminated: it is relocated.
    let mut t = T::new(sc);
    t.activate(Side::Soviet, &[], &["S"], Phase::Combat);
    t.play(Action::Attack {
        unit: t.id("S"),
        target: t.hex("0803"),
    });
    t.play(Action::Resolve);
    t.play(Action::Die { value: 3 }); // "1": the one-step G is eliminated
    assert_eq!(t.s.location(h), Location::Removed);
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(0)));
    assert!(
        t.s.legal_actions()
            .iter()
            .all(|a| matches!(a, Action::Relocate { .. }))
    );
}

#[test]
fn rule_11_1_reinforcements_by_railroad() {
    let mut t = T::new(common::scenario());
    t.jump_to_supply_phase(2);
    assert_eq!(t.s.phase(), Phase::Reinforcement(Side::Axis));
    let pz = t.id("17Pz");
    let mut places: Vec<_> =
        t.s.legal_actions()
            .into_iter()
            .filter_map(|a| match a {
                Action::Place { piece, to } if piece == pz => Some(to),
                _ => None,
            })
            .collect();
    places.sort();
    // Along the railroad 0107-0607; 0707 is in the ZOC of the 38G and blocks the line.
    assert_eq!(
        t.labels(&places),
        vec!["0107", "0207", "0307", "0407", "0507", "0607"]
    );
    // A Manstein chit arrived (turn 2).
    assert!(t.s.position().inactive[0].contains(&Chit::Manstein(0)));
    t.play(Action::Place {
        piece: pz,
        to: t.hex("0607"),
    });
    // Then the Soviet player places his.
    assert_eq!(t.s.phase(), Phase::Reinforcement(Side::Soviet));
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(1)));
}

#[test]
fn rule_11_1_3_reinforcements_that_cannot_enter_are_eliminated() {
    let mut t = T::new(common::scenario());
    // Axis units in the ZOC of both Soviet sources' railroad hexes.
    t.put("335", "1102");
    t.put("R5", "1108");
    t.jump_to_supply_phase(2);
    let Some(&place) = t.s.legal_actions().first() else {
        panic!()
    };
    let ev = t.play(place);
    let tk = t.id("25Tk");
    let popov = t.id("Popov");
    assert!(
        ev.contains(&Event::ReinforcementLost { piece: tk }),
        "{ev:?}"
    );
    assert!(ev.contains(&Event::HqRemoved { hq: popov }));
    assert_eq!(t.s.location(tk), Location::Eliminated);
}

#[test]
fn rule_11_2_reinforcement_boxes_and_arriving_chits() {
    let mut t = T::new(common::scenario());
    t.jump_to_supply_phase(3);
    let (q, u, fp) = (t.id("1PzA"), t.id("3Pz"), t.id("F-Pico"));
    assert_eq!(t.s.location(q), Location::Box(0));
    assert_eq!(t.s.location(u), Location::Box(0));
    // 11.2.1: the 1PzA chit comes with its HQ into the box; F-Pico's when placed.
    assert!(t.s.position().inactive[0].contains(&Chit::Hq(q)));
    assert!(!t.s.position().inactive[0].contains(&Chit::Hq(fp)));
    let Some(Action::Place { to, .. }) =
        t.s.legal_actions()
            .into_iter()
            .find(|a| matches!(a, Action::Place { piece, .. } if *piece == fp))
    else {
        panic!("F-Pico has nowhere to go")
    };
    t.play(Action::Place { piece: fp, to });
    assert!(t.s.position().inactive[0].contains(&Chit::Hq(fp)));
}

#[test]
fn rule_11_3_hqs_without_friendly_units_in_range_are_removed() {
    let mut t = T::new(common::scenario());
    // The Hungarian H2A (0301, range 3) keeps the H1Tk in range unless it leaves; an
    // Italian unit does not count for a Hungarian HQ.
    t.put("H1Tk", "1201");
    t.put("Cos", "0302");
    let h2a = t.id("H2A");
    t.edit(|p| p.inactive[0].retain(|&c| c != Chit::Hq(h2a)));
    t.edit(|p| p.cup.push(Chit::Hq(h2a)));
    let ev = t.jump_to_supply_phase(1);
    assert!(ev.contains(&Event::HqRemoved { hq: h2a }), "{ev:?}");
    assert_eq!(t.s.location(h2a), Location::Removed);
    assert!(!t.s.position().inactive[0].contains(&Chit::Hq(h2a)));
}

#[test]
fn rule_12_5_unsupplied_hqs_are_relocated() {
    // The Soviet unit at 0502 cuts the 3-row map: the HQ at 0902 is out of supply.
    let mut sc = mini(12, 3);
    sc.map.supply.axis = vec!["0102".into()];
    sc.map.supply.soviet = vec!["1202".into()];
    sc.units = vec![
        foot("S", Soviet, 3, None, "0502"),
        foot("G", German, 3, None, "0902"),
    ];
    sc.hqs = vec![hq("H", German, 3, "0902")];
    let mut t = T::new(sc);
    t.jump_to_supply_phase(2);
    let h = t.id("H");
    assert_eq!(t.s.location(h), Location::Removed);
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(0)));
    // Four hexes away: in ZOC or enemy-held; five away: 0403 only.
    assert_eq!(
        t.s.legal_actions(),
        vec![Action::Relocate {
            hq: h,
            to: t.hex("0403")
        }]
    );
    t.play(Action::Relocate {
        hq: h,
        to: t.hex("0403"),
    });
    assert_eq!(t.s.piece(h).supply, Supply::InSupply);
    assert_eq!(t.s.piece(t.id("G")).supply, Supply::OutOfSupply);
}
