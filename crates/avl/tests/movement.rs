//! Rules 5.0 (stacking), 6.0 (ZOC), 8.0 (movement, with the 8.2 and 8.3 examples) and
//! 13.0 (the Stalingrad Pocket) on the test scenario and small maps of the tests' own.

#![allow(clippy::many_single_char_names)]

mod common;

use avl::rules::zoc::ZoneOfControl;
use avl::{Action, Event, Location, Nationality::*, Phase, Side};
use common::{T, foot, hq, mech, mini, walk};
use hexmap::Direction::*;

fn spent(ev: &[Event]) -> u16 {
    ev.iter()
        .find_map(|e| match e {
            Event::Moved { spent, .. } => Some(*spent),
            _ => None,
        })
        .expect("a Moved event")
}

#[test]
fn rule_8_1_2_tec_costs_and_minor_rivers() {
    let mut t = T::new(common::scenario());
    t.activate(Side::Axis, &[], &["23Pz", "H1Tk"], Phase::Movement);
    // 0504 to rough 0404: 2 MP (4 half MPs).
    let ev = t.play(Action::Move {
        piece: t.id("23Pz"),
        to: t.hex("0404"),
    });
    assert_eq!(spent(&ev), 4);
    // 8.1.3: across the unbridged minor river 0402-0302 into clear: 1 + 1.
    let ev = t.play(Action::Move {
        piece: t.id("H1Tk"),
        to: t.hex("0302"),
    });
    assert_eq!(spent(&ev), 4);
    // Across the bridged minor river (the road 0303-0403): no extra cost. H1Tk already
    // spent 2 MPs of 6; into 0303 costs 1 (no river between 0302 and 0303).
    let ev = t.play(Action::Move {
        piece: t.id("H1Tk"),
        to: t.hex("0303"),
    });
    assert_eq!(spent(&ev), 6);
    // 8.1.1: the 23Pz's move ended when another unit moved.
    assert_eq!(
        t.refused(Action::Move {
            piece: t.id("23Pz"),
            to: t.hex("0405")
        }),
        "8.1.1"
    );
    // 8.1.5: no water.
    t.activate(Side::Soviet, &[], &["7Tk"], Phase::Movement);
    t.put("7Tk", "0802");
    assert_eq!(
        t.refused(Action::Move {
            piece: t.id("7Tk"),
            to: t.hex("0801")
        }),
        "8.1.5"
    );
    // 8.1.5: no impassable hexside (0802-0902).
    assert_eq!(
        t.refused(Action::Move {
            piece: t.id("7Tk"),
            to: t.hex("0902")
        }),
        "8.1.5"
    );
}

#[test]
fn rule_8_1_2_not_enough_movement_points() {
    let mut t = T::new(common::scenario());
    t.put("8Lw", "0504");
    t.activate(Side::Axis, &[], &["8Lw"], Phase::Movement);
    let p = t.id("8Lw");
    t.play(Action::Move {
        piece: p,
        to: t.hex("0404"),
    }); // rough: 2 of 4 MPs
    t.play(Action::Move {
        piece: p,
        to: t.hex("0405"),
    }); // rough: 4 of 4 MPs
    assert_eq!(
        t.refused(Action::Move {
            piece: p,
            to: t.hex("0505")
        }),
        "8.1.2"
    );
}

#[test]
fn rule_8_1_3_unbridged_major_river() {
    let mut t = T::new(common::scenario());
    t.activate(Side::Axis, &[], &["8Lw", "335"], Phase::Movement);
    // The 8Lw starts beside the river at 0706: it may cross into 0605, then must stop.
    let lw = t.id("8Lw");
    t.play(Action::Move {
        piece: lw,
        to: t.hex("0605"),
    });
    assert_eq!(
        t.refused(Action::Move {
            piece: lw,
            to: t.hex("0505")
        }),
        "8.1.3"
    );
    // A unit that did not start beside the river may not cross it.
    let p = t.id("335");
    t.play(Action::Move {
        piece: p,
        to: t.hex("0604"),
    });
    assert_eq!(
        t.refused(Action::Move {
            piece: p,
            to: t.hex("0704")
        }),
        "8.1.3"
    );
}

/// The 8.2 example: entering and leaving enemy ZOCs costs 2 more MPs each, cumulative.
#[test]
fn rule_8_2_zoc_movement_example() {
    let (c, r) = (8, 5);
    let mut sc = mini(c, r);
    sc.map.supply.axis = vec!["0103".into()];
    sc.map.supply.soviet = vec!["0803".into()];
    let x = "0303";
    let z = walk(c, r, x, &[E, E]);
    sc.units = vec![
        mech("G", German, 6, 4, x),
        foot("S", Soviet, 3, Some(1), &z),
    ];
    let mut t = T::new(sc);
    t.activate(Side::Axis, &[], &["G"], Phase::Movement);
    let g = t.id("G");
    let zoc = ZoneOfControl::of(&t.s, Side::Soviet);
    let a = walk(c, r, x, &[E]);
    assert!(zoc.contains(t.hex(&a)));
    // Into the ZOC: 1 + 2.
    assert_eq!(
        spent(&t.play(Action::Move {
            piece: g,
            to: t.hex(&a)
        })),
        6
    );
    // From ZOC to ZOC: 1 + 2 (leaving) + 2 (entering).
    let b = walk(c, r, &a, &[SE]);
    assert!(zoc.contains(t.hex(&b)));
    assert_eq!(
        spent(&t.play(Action::Move {
            piece: g,
            to: t.hex(&b)
        })),
        16
    );
    // All 8 MPs are spent: leaving would cost 1 + 2 more.
    let out = walk(c, r, &b, &[SW]);
    assert!(!zoc.contains(t.hex(&out)));
    assert_eq!(
        t.refused(Action::Move {
            piece: g,
            to: t.hex(&out)
        }),
        "8.1.2"
    );
}

#[test]
fn rule_8_2_2_no_major_river_crossing_from_zoc_to_zoc() {
    // The railroad bridge 0607-0707 crosses the major river; with enemy ZOCs on both
    // banks it may not be crossed, bridge or not.
    let mut t = T::new(common::scenario());
    t.put("8Lw", "0707");
    t.put("4C", "0608");
    t.activate(Side::Axis, &[], &["8Lw"], Phase::Movement);
    let zoc = ZoneOfControl::of(&t.s, Side::Soviet);
    assert!(zoc.contains(t.hex("0707")) && zoc.contains(t.hex("0607")));
    assert_eq!(
        t.refused(Action::Move {
            piece: t.id("8Lw"),
            to: t.hex("0607")
        }),
        "8.2.2"
    );
}

/// The 8.3 example: the Romanian 5 moves by road at 1/2 MP a hex but must stop before
/// the enemy ZOC; the Romanian 9, starting in an enemy ZOC, cannot use strategic
/// movement. The map is the test scenario's road 0103-1203.
#[test]
fn rule_8_3_strategic_movement_example() {
    let mut t = T::new(common::scenario());
    t.put("R5", "0203");
    t.put("4C", "0902");
    t.activate(Side::Axis, &[], &["R5", "Cos"], Phase::Movement);
    let r5 = t.id("R5");
    let mut spent_now = 0;
    for to in ["0303", "0403", "0503"] {
        if to == "0503" {
            // Chuguev holds the Cos: the road goes on through it.
        }
        spent_now = spent(&t.play(Action::RoadMove {
            piece: r5,
            to: t.hex(to),
        }));
    }
    assert_eq!(spent_now, 3, "three road hexes for 1.5 MPs");
    t.play(Action::RoadMove {
        piece: r5,
        to: t.hex("0603"),
    });
    t.play(Action::RoadMove {
        piece: r5,
        to: t.hex("0703"),
    });
    // 0803 is in the ZOC of the 4C (0902): strategic movement must stop before it.
    assert_eq!(
        t.refused(Action::RoadMove {
            piece: r5,
            to: t.hex("0803")
        }),
        "8.3.1"
    );
    // H-101: a unit moving strategically keeps to it.
    assert_eq!(
        t.refused(Action::Move {
            piece: r5,
            to: t.hex("0803")
        }),
        "H-101"
    );
    // The Cos starts in Chuguev, not in a ZOC: fine; but a unit starting in a ZOC
    // (the Romanian 9 of the example) cannot use strategic movement.
    let mut t = T::new(common::scenario());
    t.put("R5", "0803");
    t.put("4C", "0902");
    t.activate(Side::Axis, &[], &["R5"], Phase::Movement);
    assert_eq!(
        t.refused(Action::RoadMove {
            piece: t.id("R5"),
            to: t.hex("0703")
        }),
        "8.3.1"
    );
    // 8.3.1: strategic movement follows the road.
    let mut t = T::new(common::scenario());
    t.activate(Side::Axis, &[], &["335"], Phase::Movement);
    assert_eq!(
        t.refused(Action::RoadMove {
            piece: t.id("335"),
            to: t.hex("0605")
        }),
        "8.3.1"
    );
}

#[test]
fn rule_8_1_4_overrun_of_a_lone_hq() {
    let mut t = T::new(common::scenario());
    t.put("7Tk", "0404");
    t.activate(Side::Soviet, &[], &["7Tk"], Phase::Movement);
    let ev2 = t.play(Action::Move {
        piece: t.id("7Tk"),
        to: t.hex("0403"),
    });
    let hq = t.id("It8A");
    assert!(ev2.contains(&Event::Overrun {
        hq,
        by: t.id("7Tk")
    }));
    // 12.7: the Axis player must relocate it now.
    assert_eq!(t.s.location(hq), Location::Removed);
    assert_eq!(
        engine::Game::to_move(&t.s),
        engine::ToMove::Seat(engine::Seat(0))
    );
    // 12.1: HQs do not overrun HQs.
    let mut t = T::new(common::scenario());
    t.put("1GdA", "0603");
    t.activate(Side::Soviet, &["1GdA"], &[], Phase::Movement);
    t.put("It8A", "0503");
    t.put("Cos", "0102");
    assert_eq!(
        t.refused(Action::Move {
            piece: t.id("1GdA"),
            to: t.hex("0503")
        }),
        "12.1"
    );
}

#[test]
fn rule_5_0_stacking() {
    let mut t = T::new(common::scenario());
    t.put("LAH", "0504");
    t.activate(
        Side::Axis,
        &[],
        &["335", "Cos", "R5", "LAH"],
        Phase::Movement,
    );
    // 5.0.1: the 335 may pass through 0504 (two units) only because it can go on.
    let p = t.id("335");
    t.play(Action::Move {
        piece: p,
        to: t.hex("0504"),
    });
    // 5.0.4: it cannot end its move there.
    assert_eq!(t.refused(Action::EndMovement), "5.0.4");
    assert_eq!(
        t.refused(Action::Move {
            piece: t.id("Cos"),
            to: t.hex("0603")
        }),
        "5.0.4"
    );
    t.play(Action::Move {
        piece: p,
        to: t.hex("0604"),
    });
    // 5.0.3: Romanians do not stack with Italians.
    let mut t = T::new(common::scenario());
    t.put("R5", "0602");
    t.activate(Side::Axis, &[], &["R5"], Phase::Movement);
    let cos_hex = t.hex("0503");
    assert!(!avl::rules::stacking::can_stop(&t.s, t.id("R5"), cos_hex));
    assert!(
        avl::rules::stacking::stack_ok([(false, Italian), (false, Romanian)].into_iter()).is_err()
    );
    assert!(
        avl::rules::stacking::stack_ok(
            [(false, Italian), (false, German), (true, Italian)].into_iter()
        )
        .is_ok()
    );
    assert!(avl::rules::stacking::stack_ok([(true, German), (true, German)].into_iter()).is_err());
    // 5.0.2: never into enemy units.
    let mut t = T::new(common::scenario());
    t.put("7Tk", "0603");
    t.activate(Side::Soviet, &[], &["7Tk"], Phase::Movement);
    assert_eq!(
        t.refused(Action::Move {
            piece: t.id("7Tk"),
            to: t.hex("0504")
        }),
        "5.0.2"
    );
}

#[test]
fn rule_6_0_zones_of_control() {
    let t = T::new(common::scenario());
    let soviet = ZoneOfControl::of(&t.s, Side::Soviet);
    // 7Tk at 0804: not into water 0801? (not adjacent); the 0802-0902 impassable side.
    let mut t2 = T::new(common::scenario());
    t2.put("7Tk", "0802");
    let z = ZoneOfControl::of(&t2.s, Side::Soviet);
    assert!(!z.contains(t2.hex("0801")), "no ZOC into water");
    assert!(
        !z.contains(t2.hex("0902")),
        "no ZOC across an impassable hexside"
    );
    assert!(z.contains(t2.hex("0803")));
    // Across the unbridged major river: yes (8Lw at 0706 and a Soviet unit at 0705's
    // west bank).
    let mut t3 = T::new(common::scenario());
    t3.put("4C", "0705");
    let z = ZoneOfControl::of(&t3.s, Side::Soviet);
    assert!(z.contains(t3.hex("0604")));
    // HQs exert none: 1GdA at 1005 alone.
    assert!(!soviet.contains(t.hex("1105")) || t.s.units_at(t.hex("1004")).count() > 0);
    let mut t4 = T::new(common::scenario());
    t4.put("1GdA", "0202");
    assert!(!ZoneOfControl::of(&t4.s, Side::Soviet).contains(t4.hex("0203")));
}

#[test]
fn rule_13_0_stalingrad_pocket() {
    let mut t = T::new(common::scenario());
    t.activate(Side::Soviet, &["3GdA"], &[], Phase::Movement);
    // Turn 2 of a pocket lasting to turn 3: no entry.
    assert_eq!(
        t.refused(Action::Move {
            piece: t.id("3GdA"),
            to: t.hex("1009")
        }),
        "13.0"
    );
    t.edit(|p| p.turn = avl::unit::Turn(4));
    t.play(Action::Move {
        piece: t.id("3GdA"),
        to: t.hex("1009"),
    });
    // Command Range is traced through the pocket even while it exists.
    let mut t = T::new(common::scenario());
    let range = avl::rules::command::command_range(&t.s, t.hex("0908"), 2);
    assert!(range.contains(&t.hex("1009")));
    t.edit(|p| p.turn = avl::unit::Turn(1));
    assert!(avl::rules::pocket::closed(&t.s, t.hex("0909")));
}

#[test]
fn rule_11_2_2_units_in_a_box_must_enter_the_map() {
    let mut t = T::new(common::scenario());
    let (q, u) = (t.id("28A"), t.id("248"));
    t.edit(|p| {
        p.pieces[usize::from(q.0)].location = Location::Box(1);
        p.pieces[usize::from(u.0)].location = Location::Box(1);
    });
    t.activate(Side::Soviet, &["28A"], &["248"], Phase::Movement);
    assert_eq!(t.refused(Action::EndMovement), "11.2.2");
    assert_eq!(
        t.refused(Action::Move {
            piece: u,
            to: t.hex("1208")
        }),
        "11.2.2"
    );
    t.play(Action::Move {
        piece: u,
        to: t.hex("1210"),
    });
    t.play(Action::Move {
        piece: q,
        to: t.hex("1209"),
    });
    t.play(Action::EndMovement);
    // A box HQ activates only the units in its box (11.2.3).
    let mut t = T::new(common::scenario());
    t.edit(|p| p.pieces[usize::from(q.0)].location = Location::Box(1));
    assert!(avl::rules::command::units_activated_by(&t.s, q).is_empty());
}

#[test]
fn rule_10_2_3_isolated_units_move_half() {
    let mut sc = mini(8, 3);
    sc.map.supply.axis = vec!["0102".into()];
    sc.map.supply.soviet = vec!["0802".into()];
    sc.units = vec![foot("G", German, 3, Some(1), "0302")];
    sc.hqs = vec![hq("H", German, 3, "0202")];
    let mut t = T::new(sc);
    let g = t.id("G");
    t.edit(|p| p.pieces[usize::from(g.0)].supply = avl::Supply::Isolated);
    assert_eq!(
        avl::rules::movement::allowance(&t.s, g, false),
        avl::unit::HalfMp::whole(2)
    );
}

/// `legal::moves_of` (one piece's legal moves, used by the bots to follow a whole move)
/// is exactly the part of `legal_actions` that moves that piece, in every Movement
/// Segment state of random playouts.
#[test]
fn one_piece_moves_are_its_part_of_the_legal_actions() {
    use engine::Game;
    let mut compared = 0;
    for seed in 0..6 {
        let mut s = common::start();
        let mut rng = engine::GameRng::from_u64(seed);
        for _ in 0..4_000 {
            if s.phase() == Phase::Movement && s.to_move() != engine::ToMove::Chance {
                let legal = s.legal_actions();
                for p in s.piece_ids() {
                    let mine: Vec<Action> = legal
                        .iter()
                        .copied()
                        .filter(|a| {
                            matches!(a, Action::Move { piece, .. } | Action::RoadMove { piece, .. } if *piece == p)
                        })
                        .collect();
                    assert_eq!(
                        avl::legal::moves_of(&s, p),
                        mine,
                        "seed {seed}, piece {p:?}"
                    );
                    compared += mine.len();
                }
            }
            let Some(a) = common::random_step(&s, &mut rng) else {
                break;
            };
            s.apply(a).expect("legal");
        }
    }
    assert!(compared > 500, "only {compared} moves compared");
}
