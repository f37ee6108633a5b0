//! Rules 14.0 (victory points, sudden death, the end of the game) and 15.0 (the play
//! balance options).

#![allow(clippy::many_single_char_names)]

mod common;

use avl::rules::victory;
use avl::{Action, Chit, Event, Location, Nationality::*, Options, Phase, Side, Supply};
use common::{T, city, foot, hq, mech, mini};
use engine::{Game, Seat, ToMove};

/// Five Victory Cities, Axis-held; eliminated units to reach the example's 26 to 8.
fn five_cities() -> T {
    let mut sc = mini(12, 3);
    sc.sudden_death_margin = 30;
    sc.map.supply.axis = vec!["0102".into()];
    sc.map.supply.soviet = vec!["1202".into()];
    sc.map.victory_cities = ["0301", "0401", "0501", "0601", "0702"]
        .iter()
        .enumerate()
        .map(|(i, h)| city(h, &format!("C{i}"), Side::Axis))
        .collect();
    sc.units = vec![
        mech("Pz1", German, 4, 2, "0101"),
        mech("Pz2", German, 4, 2, "0103"),
        foot("I1", German, 2, None, "0201"),
        foot("I2", German, 2, None, "0203"),
        mech("T1", Soviet, 4, 2, "1201"),
        mech("T2", Soviet, 4, 2, "0802"),
        foot("R1", Italian, 2, None, "0202"),
    ];
    sc.hqs = vec![hq("H", German, 3, "0102"), hq("S", Soviet, 3, "1202")];
    let mut t = T::new(sc);
    for name in ["Pz1", "Pz2", "I1", "I2", "T1", "R1"] {
        let p = t.id(name);
        t.edit(|pos| pos.pieces[usize::from(p.0)].location = Location::Eliminated);
    }
    t
}

#[test]
fn rule_14_0_1_victory_points_example() {
    // Axis 26 (five cities, one Soviet mechanized unit), Soviets 8 (two German
    // mechanized, two German other; the Italian counts nothing).
    let mut t = five_cities();
    assert_eq!(victory::vp(&t.s, false), [26, 8]);
    // The Soviets capture Rostov (here C4, 0702): Axis 21, Soviets 13.
    t.activate(Side::Soviet, &[], &["T2"], Phase::Movement);
    let ev = t.play(Action::Move {
        piece: t.id("T2"),
        to: t.hex("0702"),
    });
    assert!(ev.contains(&Event::CityTaken {
        city: 4,
        by: Side::Soviet
    }));
    assert_eq!(victory::vp(&t.s, false), [21, 13]);
    // Out of supply units at the end of the game count as eliminated.
    let t2 = t.id("T2");
    t.edit(|p| p.pieces[usize::from(t2.0)].supply = Supply::OutOfSupply);
    assert_eq!(victory::vp(&t.s, true), [22, 13]);
}

#[test]
fn rule_14_0_2_sudden_death_and_the_last_turn() {
    let mut t = five_cities();
    // 26 to 8 is a lead of 18: the game goes on.
    t.jump_to_supply_phase(2);
    while matches!(t.s.to_move(), ToMove::Seat(_)) && t.s.phase() != Phase::Selection(Side::Soviet)
    {
        let a = t.s.legal_actions()[0];
        t.play(a);
    }
    assert_eq!(t.s.turn().0, 3);
    // With Soviet mechanized units worth 12 here, two losses make 25 + 24 to 8: a lead
    // of 30 or more ends the game in the Sudden Death Victory Segment.
    let mut sc = t.s.rules().scenario.clone();
    sc.victory.soviet_mechanized = 12;
    let mut t = T::new(sc);
    for name in ["Pz1", "Pz2", "I1", "I2", "T1", "T2"] {
        let p = t.id(name);
        t.edit(|pos| pos.pieces[usize::from(p.0)].location = Location::Eliminated);
    }
    let ev = t.jump_to_supply_phase(2);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::GameOver {
                winner: Some(Side::Axis),
                ..
            }
        )),
        "{ev:?}"
    );
    let ToMove::Over(outcome) = t.s.to_move() else {
        panic!()
    };
    assert_eq!(outcome.winners, vec![Seat(0)]);
    assert_eq!(outcome.reason, "sudden death");
    // The end of the last turn: the most VPs wins.
    let mut t = five_cities();
    let last = t.s.rules().scenario.turns;
    t.jump_to_supply_phase(last);
    while let ToMove::Seat(_) = t.s.to_move() {
        let a = t.s.legal_actions()[0];
        t.play(a);
    }
    let ToMove::Over(outcome) = t.s.to_move() else {
        panic!()
    };
    assert_eq!(outcome.winners, vec![Seat(0)]);
    assert_eq!(outcome.reason, format!("end of turn {last}"));
}

#[test]
fn rule_15_0_1_german_mechanized_units_worth_5() {
    let t = five_cities();
    let mut setup = t.s.to_setup();
    setup.options.german_mech_5vp = true;
    let s = avl::Avl::from_setup(&setup).unwrap();
    assert_eq!(victory::vp(&s, false), [26, 12]);
}

#[test]
fn rule_15_0_1_administrative_movement() {
    let mut sc = mini(12, 3);
    sc.map.supply.axis = vec!["0102".into()];
    sc.map.supply.soviet = vec!["1202".into()];
    sc.units = vec![
        foot("S", Soviet, 2, None, "0402"),
        foot("G", German, 2, None, "0102"),
    ];
    let opts = Options {
        administrative_movement: true,
        ..Options::default()
    };
    let mut t = T::with_options(sc, opts);
    t.activate(Side::Soviet, &[], &["S"], Phase::Movement);
    let s = t.id("S");
    // Movement allowance 4, plus one: five hexes east away from the German ZOC.
    for to in ["0502", "0602", "0702", "0802", "0902"] {
        t.play(Action::Move {
            piece: s,
            to: t.hex(to),
        });
    }
    assert_eq!(
        t.refused(Action::Move {
            piece: s,
            to: t.hex("1002")
        }),
        "8.1.2"
    );
}

#[test]
fn rule_15_0_1_the_1st_panzer_army_arrives_late() {
    let opts = Options {
        late_first_panzer: true,
        ..Options::default()
    };
    let t = T::with_options(common::scenario(), opts);
    assert_eq!(t.s.location(t.id("3Pz")), Location::Arriving(4));
    assert_eq!(t.s.location(t.id("17Pz")), Location::Arriving(2));
}

#[test]
fn rule_15_0_2_manstein_chits_arrive_for_selection() {
    let opts = Options {
        early_manstein: true,
        ..Options::default()
    };
    let mut t = T::with_options(common::scenario(), opts);
    t.jump_to_supply_phase(1);
    while t.s.turn().0 == 1 {
        let a = t.s.legal_actions()[0];
        t.play(a);
    }
    // Turn 2's Manstein chit is in the pool when turn 2's selection begins.
    assert!(matches!(t.s.phase(), Phase::Selection(_)));
    assert!(t.s.position().inactive[0].contains(&Chit::Manstein(0)));
}

#[test]
fn rule_15_0_2_soviet_selects_one_turn_ahead() {
    let opts = Options {
        soviet_selects_ahead: true,
        ..Options::default()
    };
    let mut t = T::started(common::scenario(), opts);
    for name in ["1GdA", "3GdA", "5TkA", "6A", "Popov"] {
        t.play(Action::ChooseChit {
            chit: Chit::Hq(t.id(name)),
        });
    }
    for name in ["1GdA", "3GdA", "5TkA"] {
        t.play(Action::SelectChit {
            chit: Chit::Hq(t.id(name)),
        });
    }
    // Then he notes three for turn 2 (any of his, including those in the cup).
    assert_eq!(t.s.phase(), Phase::Selection(Side::Soviet));
    let ev = t.play(Action::SelectChit {
        chit: Chit::Hq(t.id("6A")),
    });
    assert!(matches!(ev[0], Event::ChitNoted { .. }));
    assert_eq!(
        t.s.event_for(&ev[0], Some(Seat(0))),
        Some(Event::ChitNoted { chit: Chit::Hidden })
    );
    t.play(Action::SelectChit {
        chit: Chit::Hq(t.id("1GdA")),
    });
    t.play(Action::SelectChit {
        chit: Chit::Hq(t.id("Popov")),
    });
    assert_eq!(t.s.phase(), Phase::Selection(Side::Axis));
    assert!(
        t.s.view(Some(Seat(0)))
            .position
            .noted
            .iter()
            .all(|&c| c == Chit::Hidden)
    );
    // Turn 2: the noted chits go into the cup by themselves.
    t.jump_to_supply_phase(1);
    while t.s.turn().0 == 1 {
        let a = t.s.legal_actions()[0];
        t.play(a);
    }
    let cup = &t.s.position().cup;
    for name in ["6A", "1GdA"] {
        assert!(cup.contains(&Chit::Hq(t.id(name))), "{name}");
    }
}

#[test]
fn rule_15_0_2_the_axis_names_the_first_chit() {
    let opts = Options {
        axis_first_chit: true,
        ..Options::default()
    };
    let mut t = T::started(common::scenario(), opts);
    for name in ["1GdA", "3GdA", "5TkA", "6A", "Popov"] {
        t.play(Action::ChooseChit {
            chit: Chit::Hq(t.id(name)),
        });
    }
    for name in ["1GdA", "3GdA", "5TkA"] {
        t.play(Action::SelectChit {
            chit: Chit::Hq(t.id(name)),
        });
    }
    for name in ["4PzA", "It8A", "R3A"] {
        t.play(Action::SelectChit {
            chit: Chit::Hq(t.id(name)),
        });
    }
    t.play(Action::SpecialCombat { hq: None });
    assert_eq!(t.s.phase(), Phase::FirstChit);
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(
        t.refused(Action::FirstChit { chit: Chit::Stavka }),
        "15.0.2"
    );
    let r3a = t.id("R3A");
    let ev = t.play(Action::FirstChit {
        chit: Chit::Hq(r3a),
    });
    assert!(ev.contains(&Event::ChitDrawn {
        chit: Chit::Hq(r3a)
    }));
    assert_eq!(t.s.position().active, Some(Side::Axis));
}
