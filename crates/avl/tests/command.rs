//! Rules 3.0 (preparation, the secret Soviet chit choice), 4.1 (the sequence, the Turn 1
//! Special Combat Segment) and 7.0 (command: chit selection, the cup, STAVKA and
//! Manstein, activation and Command Range), with the views that hide chits.

mod common;

use avl::rules::command;
use avl::{Action, Chit, Event, Location, Nationality::*, Phase, Side};
use common::{T, foot, hq, mini};
use engine::{Game, Seat, ToMove};

fn chosen_start() -> T {
    let mut t = T::started(common::scenario(), avl::Options::default());
    assert_eq!(t.s.phase(), Phase::Preparation);
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(1)));
    for name in ["1GdA", "3GdA", "5TkA", "28A", "Popov"] {
        t.play(Action::ChooseChit {
            chit: Chit::Hq(t.id(name)),
        });
    }
    t
}

#[test]
fn rule_3_0_the_soviet_chit_choice_is_secret() {
    let mut t = T::started(common::scenario(), avl::Options::default());
    // Six Soviet HQs (reinforcements included): choose five.
    assert_eq!(t.s.legal_actions().len(), 6);
    let ev = t.play(Action::ChooseChit {
        chit: Chit::Hq(t.id("Popov")),
    });
    // The Axis player hears that a chit was chosen, not which.
    let axis_sees = t.s.event_for(&ev[0], Some(Seat(0))).unwrap();
    assert_eq!(axis_sees, Event::ChitChosen { chit: Chit::Hidden });
    assert_eq!(t.s.event_for(&ev[0], Some(Seat(1))).unwrap(), ev[0]);
    // Nor does his view show it.
    let v = t.s.view(Some(Seat(0)));
    assert!(v.position.inactive[1].iter().all(|&c| c == Chit::Hidden));
    let v = t.s.view(Some(Seat(1)));
    assert!(v.position.inactive[1].contains(&Chit::Hq(t.id("Popov"))));
    // The Axis pool holds the chits of the Axis HQs on the map (3.0), hidden from the
    // Soviet player.
    let axis_pool = &t.s.position().inactive[0];
    assert_eq!(axis_pool.len(), 4);
    assert!(!axis_pool.contains(&Chit::Hq(t.id("F-Pico"))));
    assert!(
        t.s.view(Some(Seat(1))).position.inactive[0]
            .iter()
            .all(|&c| c == Chit::Hidden)
    );
}

#[test]
fn rule_7_1_2_chit_selection_and_the_cup() {
    let mut t = chosen_start();
    // The Soviet player has STAVKA in the cup and selects three of his five.
    assert_eq!(t.s.phase(), Phase::Selection(Side::Soviet));
    assert!(t.s.position().cup.contains(&Chit::Stavka));
    assert_eq!(t.s.legal_actions().len(), 5);
    for name in ["1GdA", "3GdA", "5TkA"] {
        t.play(Action::SelectChit {
            chit: Chit::Hq(t.id(name)),
        });
    }
    // The Axis selects 3 ("Axis Com" of turn 1) of his 4.
    assert_eq!(t.s.phase(), Phase::Selection(Side::Axis));
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(
        t.refused(Action::SelectChit {
            chit: Chit::Hq(t.id("28A"))
        }),
        "7.1.2"
    );
    for name in ["4PzA", "It8A", "R3A"] {
        t.play(Action::SelectChit {
            chit: Chit::Hq(t.id(name)),
        });
    }
    assert_eq!(t.s.position().cup.len(), 7);
    // 7.1.3: each sees only his own chits in the cup.
    let axis = t.s.view(Some(Seat(0)));
    assert_eq!(
        axis.position
            .cup
            .iter()
            .filter(|&&c| c == Chit::Hidden)
            .count(),
        4
    );
    let spectator = t.s.view(None);
    assert!(spectator.position.cup.iter().all(|&c| c == Chit::Hidden));
    // Turn 1: the Soviet Special Combat Segment comes first.
    assert_eq!(t.s.phase(), Phase::SpecialCombat);
}

#[test]
fn rule_4_1_2_turn_1_special_combat_segment() {
    let mut t = chosen_start();
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
    let p335 = t.id("335");
    let at = t.hex("0805");
    t.edit(|p| p.pieces[usize::from(p335.0)].location = Location::Map(at));
    let cup_before = t.s.position().cup.clone();
    // Any Soviet HQ on the map, even one whose chit is not in the cup (6A).
    let six = t.id("6A");
    assert!(
        t.s.legal_actions()
            .contains(&Action::SpecialCombat { hq: Some(six) })
    );
    assert_eq!(
        t.refused(Action::SpecialCombat {
            hq: Some(t.id("4PzA"))
        }),
        "4.1.2"
    );
    t.play(Action::SpecialCombat {
        hq: Some(t.id("1GdA")),
    });
    // A Combat Segment without movement; no chit is drawn.
    assert_eq!(t.s.phase(), Phase::Combat);
    assert_eq!(t.s.position().cup, cup_before);
    assert_eq!(
        t.refused(Action::Move {
            piece: t.id("4C"),
            to: t.hex("1005")
        }),
        "4.1.2"
    );
    t.play(Action::EndCombat);
    assert_eq!(t.s.phase(), Phase::Draw);
    assert_eq!(t.s.to_move(), ToMove::Chance);
    // 7.2.1: the chance outcomes are the chits in the cup, one each.
    let outcomes = t.s.chance_outcomes();
    assert_eq!(outcomes.len(), cup_before.len());
    assert!(outcomes.iter().all(|(_, w)| *w == 1));
}

#[test]
fn rule_7_2_2_stavka_activates_every_soviet_hq() {
    let mut t = T::new(common::scenario());
    let (q28, u248) = (t.id("28A"), t.id("248"));
    t.edit(|p| {
        p.turn = avl::unit::Turn(2);
        p.phase = Phase::Draw;
        p.cup = vec![Chit::Stavka];
        p.inactive[1].clear();
        p.pieces[usize::from(q28.0)].location = Location::Box(1);
        p.pieces[usize::from(u248.0)].location = Location::Box(1);
    });
    let ev = t.play(Action::DrawChit { chit: Chit::Stavka });
    let Some(Event::Activated { side, hqs, units }) =
        ev.iter().find(|e| matches!(e, Event::Activated { .. }))
    else {
        panic!("{ev:?}")
    };
    assert_eq!(*side, Side::Soviet);
    for name in ["1GdA", "3GdA", "5TkA", "6A", "28A"] {
        assert!(hqs.contains(&t.id(name)), "{name}");
    }
    // Each unit once, the box's included.
    let mut sorted = units.clone();
    sorted.dedup();
    assert_eq!(&sorted, units);
    assert!(units.contains(&u248));
    assert_eq!(t.s.position().played[1], vec![Chit::Stavka]);
}

#[test]
fn rule_7_2_2_a_manstein_chit_may_be_rejected_once() {
    let mut t = T::new(common::scenario());
    t.edit(|p| {
        p.turn = avl::unit::Turn(2);
        p.phase = Phase::Draw;
        p.cup = vec![Chit::Manstein(0), Chit::Manstein(1)];
        p.inactive[0].clear();
    });
    t.play(Action::DrawChit {
        chit: Chit::Manstein(0),
    });
    assert_eq!(t.s.phase(), Phase::Manstein);
    assert_eq!(t.s.to_move(), ToMove::Seat(Seat(0)));
    t.play(Action::RejectManstein);
    assert_eq!(t.s.position().cup.len(), 2);
    t.play(Action::DrawChit {
        chit: Chit::Manstein(1),
    });
    assert_eq!(t.refused(Action::RejectManstein), "7.2.2");
    // It activates any one Axis HQ, an Italian one here.
    let it8a = t.id("It8A");
    t.play(Action::ActivateHq { hq: it8a });
    assert_eq!(t.s.phase(), Phase::Movement);
    let units = &t.s.position().activation.as_ref().unwrap().units;
    // 7.3.5: the Italian HQ activates Italians and Germans only, not the Hungarian H1Tk.
    assert!(units.contains(&t.id("Cos")) && units.contains(&t.id("23Pz")));
    assert!(!units.contains(&t.id("H1Tk")));
}

#[test]
fn rule_7_3_3_command_range_limits() {
    // 7.3.4: not through water, not across impassable hexsides; across an unbridged
    // major river only into the hex beyond.
    let mut sc = mini(9, 3);
    sc.map.supply.axis = vec!["0102".into()];
    sc.map.supply.soviet = vec!["0902".into()];
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
    sc.map.terrain.insert("water".into(), vec!["0201".into()]);
    sc.map.impassable = vec![["0202".into(), "0203".into()]];
    sc.units = vec![
        foot("near", German, 1, None, "0402"),
        foot("beyond", German, 1, None, "0502"),
        foot("south", German, 1, None, "0203"),
    ];
    sc.hqs = vec![hq("H", German, 4, "0202")];
    let t = T::new(sc);
    let units = command::units_activated_by(&t.s, t.id("H"));
    assert!(
        units.contains(&t.id("near")),
        "stops in the hex across the river"
    );
    assert!(
        !units.contains(&t.id("beyond")),
        "cannot extend beyond the river"
    );
    assert!(units.contains(&t.id("south")), "around the impassable side");
    let range = command::command_range(&t.s, t.hex("0202"), 4);
    assert!(!range.contains(&t.hex("0201")), "no water");
    // Range 4 counts hexes: 3 intervening hexes.
    let t2 = T::new(common::scenario());
    let r = command::command_range(&t2.s, t2.hex("0405"), 1);
    assert_eq!(r.len(), 7);
}

#[test]
fn rule_7_3_2_units_may_be_activated_by_several_hqs_in_a_turn() {
    let mut t = T::new(common::scenario());
    let it8a = t.id("It8A");
    let pz = t.id("4PzA");
    t.edit(|p| {
        p.turn = avl::unit::Turn(2);
        p.phase = Phase::Draw;
        p.cup = vec![Chit::Hq(it8a), Chit::Hq(pz)];
        p.inactive[0].retain(|c| *c != Chit::Hq(it8a) && *c != Chit::Hq(pz));
    });
    t.play(Action::DrawChit {
        chit: Chit::Hq(it8a),
    });
    let first = t.s.position().activation.as_ref().unwrap().units.clone();
    t.play(Action::EndMovement);
    if t.s.phase() == Phase::Combat {
        t.play(Action::EndCombat);
    }
    t.play(Action::DrawChit { chit: Chit::Hq(pz) });
    let second = t.s.position().activation.as_ref().unwrap().units.clone();
    assert!(first.iter().any(|u| second.contains(u)));
}

#[test]
fn actions_are_described_with_unit_ids_and_hex_numbers() {
    let t = T::new(common::scenario());
    let a = Action::Move {
        piece: t.id("23Pz"),
        to: t.hex("0404"),
    };
    assert_eq!(t.s.describe_action(&a), "23Pz moves to 0404");
    let c = Action::SelectChit {
        chit: Chit::Manstein(0),
    };
    assert_eq!(t.s.describe_action(&c), "select the Manstein 1 chit");
}
