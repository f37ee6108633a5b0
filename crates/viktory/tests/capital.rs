//! Scenario tests for 14.0 Losing Your Capital, with the accounting of captures (10.2,
//! 10.3, R-17) and elimination.

mod common;

use common::*;
use engine::{Game, Seat, ToMove};
use hexmap::Hex;
use viktory::board::Terrain;
use viktory::event::DiePurpose;
use viktory::state::{Setup, Stage, Town};
use viktory::{Action, Event, Reserve, UnitId, UnitKind, Viktory};

const INF: UnitKind = UnitKind::Infantry;
const CAV: UnitKind = UnitKind::Cavalry;

fn place(kind: UnitKind, q: i32, r: i32) -> Action {
    Action::Place {
        kind,
        town: h(q, r),
        to: h(q, r),
    }
}

fn disband(kind: UnitKind, unit: Option<u16>) -> Action {
    Action::Disband {
        kind,
        unit: unit.map(UnitId),
    }
}

/// A unit given up: from the reserve (`None`), or unit `id` standing at `hex`.
fn disbanded(seat: u8, kind: UnitKind, unit: Option<(u16, Hex)>) -> Event {
    Event::Disbanded {
        seat: Seat(seat),
        kind,
        unit: unit.map(|(id, _)| UnitId(id)),
        hex: unit.map(|(_, hex)| hex),
    }
}

fn gained(seat: u8, kind: UnitKind) -> Event {
    Event::UnitGained {
        seat: Seat(seat),
        kind,
    }
}

fn defense(value: u8) -> Event {
    Event::DieRolled {
        seat: Seat(1),
        purpose: DiePurpose::Defense,
        value,
    }
}

/// Seat 0's unit `unit` steps from (1,0) into the undefended enemy town or city at (0,0)
/// and starts the battle; the town's terrain dice then roll `misses`, all misses.
fn take_0_0(s: &mut Viktory, unit: u16, misses: &[u8]) -> Vec<Event> {
    act(s, mv(unit, 0, 0));
    act(s, Action::Fight { hex: h(0, 0) });
    dice(s, misses)
}

/// The defender's dice in the first round when seat 1's infantry attacks seat 0's
/// plains or mountain city at (0,0), held by one infantry, with seat 0 holding his
/// capital or not.
fn defence_dice(holds_capital: bool, terrain: Terrain) -> usize {
    let mut pos = Pos::new(2, Stage::Move)
        .active(1)
        .terrain(h(0, 0), terrain)
        .town(h(0, 0), 0, true, false)
        .unit(1, 0, INF, h(0, 0))
        .town(h(3, -1), 1, false, true)
        .unit(2, 1, INF, h(1, 0));
    pos = if holds_capital {
        pos.town(h(-3, 1), 0, false, true)
    } else {
        pos.captured_capital(h(-3, 1), 1, false, 0)
    };
    let mut s = pos.build();
    act(&mut s, mv(2, 0, 0));
    act(&mut s, Action::Fight { hex: h(0, 0) });
    let events = dice(&mut s, &[5]);
    assert_eq!(
        events,
        vec![Event::DieRolled {
            seat: Seat(1),
            purpose: DiePurpose::Attack,
            value: 5
        }]
    );
    let to_roll = usize::from(s.battle().expect("battle").to_roll);
    let events = dice(&mut s, &vec![6; to_roll]);
    let rolled = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::DieRolled {
                    seat: Seat(0),
                    purpose: DiePurpose::Defense,
                    ..
                }
            )
        })
        .count();
    assert_eq!(rolled, to_roll);
    assert_eq!(
        s.to_move(),
        ToMove::Seat(Seat(1)),
        "both sides remain: retreat or fight on"
    );
    rolled
}

/// 14.0 (with 7.1): a player whose capital is in enemy hands cannot build; his turn's
/// building phase passes by itself.
#[test]
fn rule_14_0_no_building_without_the_capital() {
    // Seat 1 ends his movement; with nothing in reserve his turn ends there.
    let mut s = Pos::new(2, Stage::Move)
        .active(1)
        .captured_capital(h(0, 0), 1, false, 0)
        .town(h(-3, 1), 0, false, false)
        .town(h(3, -1), 1, false, true)
        .build();
    let events = act(&mut s, Action::EndPhase);
    assert_eq!(
        events,
        vec![
            Event::PhaseStarted {
                stage: Stage::Place
            },
            Event::TurnStarted {
                seat: Seat(0),
                turn: 2
            },
            Event::PhaseStarted {
                stage: Stage::Build
            },
            Event::PhaseStarted { stage: Stage::Move },
        ]
    );
    assert_eq!(s.turn().active, Seat(0));
    assert!(!s.turn().can_build);
    assert_eq!(s.turn().stage, Stage::Move);
}

/// 14.0: without his capital a player's cities defend with one terrain die, as towns;
/// with it, two (12.3 step 2: one infantry die plus the terrain dice).
#[test]
fn rule_14_0_cities_defend_as_towns_without_the_capital() {
    assert_eq!(defence_dice(true, Terrain::Plains), 3);
    assert_eq!(defence_dice(false, Terrain::Plains), 2);
}

/// 14.0 only lowers the city: a mountain hex still gives its own two terrain dice.
#[test]
fn rule_14_0_a_mountain_city_keeps_its_mountain_dice() {
    assert_eq!(defence_dice(false, Terrain::Mountain), 3);
}

/// 14.0: without his capital a player places only infantry, one in each town or city;
/// the rest stays in the reserve, and the phase then ends by itself.
#[test]
fn rule_14_0_only_one_infantry_per_town_or_city_without_the_capital() {
    let mut s = Pos::new(2, Stage::Place)
        .terrain(h(0, 2), Terrain::Grassland)
        .captured_capital(h(-3, 1), 1, false, 0)
        .town(h(0, 0), 0, true, false)
        .town(h(0, 2), 0, true, false)
        .town(h(3, -1), 1, false, true)
        .reserve(0, INF, 3)
        .reserve(0, CAV, 1)
        .build();
    assert_eq!(refused(&s, place(CAV, 0, 2)), ("capital_lost", "14.0"));
    assert_eq!(refused(&s, place(INF, -3, 1)), ("not_your_town", "13.1"));
    act(&mut s, place(INF, 0, 0));
    assert_eq!(refused(&s, place(INF, 0, 0)), ("capacity", "13.11"));
    let events = act(&mut s, place(INF, 0, 2));
    assert_eq!(
        events,
        vec![
            Event::UnitPlaced {
                seat: Seat(0),
                unit: UnitId(1),
                kind: INF,
                hex: h(0, 2)
            },
            Event::TurnStarted {
                seat: Seat(1),
                turn: 1
            },
            Event::PhaseStarted {
                stage: Stage::Build
            },
        ]
    );
    assert_eq!(
        s.player(Seat(0)).reserve,
        Reserve {
            infantry: 1,
            cavalry: 1,
            ..Reserve::default()
        }
    );
}

/// 14.0: another player's captured capital is an ordinary town for its conqueror: no
/// 13.4 exception there.
#[test]
fn rule_14_0_a_captured_capital_is_a_normal_town_for_the_conqueror() {
    let mut s = Pos::new(2, Stage::Place)
        .town(h(-3, 1), 0, false, true)
        .captured_capital(h(0, 0), 0, false, 1)
        .town(h(3, -1), 1, false, false)
        .reserve(0, INF, 2)
        .reserve(0, CAV, 1)
        .build();
    assert!(s.holds_capital(Seat(0)));
    assert!(!s.holds_capital(Seat(1)));
    assert_eq!(refused(&s, place(CAV, 0, 0)), ("capacity", "13.11"));
    act(&mut s, place(INF, 0, 0));
    assert_eq!(refused(&s, place(INF, 0, 0)), ("capacity", "13.11"));
}

/// 14.0: retaking the capital gives back everything: the capital's own placement
/// (13.4), cities placing their second unit, and building from the next turn on.
#[test]
fn rule_14_0_a_recaptured_capital_restores_everything() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(-3, 1), Terrain::Grassland)
        .captured_capital(h(0, 0), 1, false, 0)
        .town(h(-3, 1), 0, true, false)
        .unit(1, 0, INF, h(1, 0))
        .reserve(0, CAV, 1)
        .town(h(3, -2), 1, false, true)
        .reserve(1, INF, 2)
        .build();
    assert!(!s.holds_capital(Seat(0)));
    let events = take_0_0(&mut s, 1, &[5]);
    assert_eq!(
        events,
        vec![
            defense(5),
            Event::BattleEnded {
                hex: h(0, 0),
                winner: Seat(0)
            },
            Event::Captured {
                hex: h(0, 0),
                from: Seat(1),
                to: Seat(0),
                city: false
            },
            gained(0, INF),
            // Only the reserve can pay the town's infantry: no choice to make.
            disbanded(1, INF, None),
        ]
    );
    assert_eq!(
        s.town(h(0, 0)),
        Some(Town {
            owner: Seat(0),
            city: false,
            capital_of: Some(Seat(0)),
            metropolis: None,
        })
    );
    assert!(s.holds_capital(Seat(0)));

    assert_eq!(
        act(&mut s, Action::EndPhase),
        vec![Event::PhaseStarted {
            stage: Stage::Place
        }]
    );
    // The grassland city takes its cavalry again; the capital takes anything.
    assert!(s.legal_actions().contains(&place(CAV, -3, 1)));
    act(&mut s, place(CAV, -3, 1));
    let events = act(&mut s, place(INF, 0, 0));
    assert_eq!(
        events[1],
        Event::TurnStarted {
            seat: Seat(1),
            turn: 1
        }
    );

    // Seat 1 passes his turn, keeping his infantry in reserve.
    play(
        &mut s,
        &[Action::EndPhase, Action::EndPhase, Action::EndPhase],
    );
    assert_eq!(s.turn().active, Seat(0));
    assert_eq!(s.turn().number, 2);
    assert!(s.turn().can_build);
    assert_eq!(s.turn().stage, Stage::Build);
}

/// Seat 1 defends the empty town at (0,0) with one infantry on his capital (unit 2) and
/// one in his reserve; seat 0's infantry 1 takes the town.
fn loser_with_a_choice() -> Viktory {
    let mut s = Pos::new(2, Stage::Move)
        .town(h(-3, 1), 0, false, true)
        .unit(1, 0, INF, h(1, 0))
        .town(h(0, 0), 1, false, false)
        .town(h(3, -2), 1, false, true)
        .unit(2, 1, INF, h(3, -2))
        .reserve(1, INF, 1)
        .build();
    let events = take_0_0(&mut s, 1, &[5]);
    assert_eq!(
        events,
        vec![
            defense(5),
            Event::BattleEnded {
                hex: h(0, 0),
                winner: Seat(0)
            },
            Event::Captured {
                hex: h(0, 0),
                from: Seat(1),
                to: Seat(0),
                city: false
            },
            gained(0, INF),
        ]
    );
    s
}

/// 10.2, R-17: the loser of a town decides whether its infantry comes from his reserve
/// or from the map; nothing else happens until he has.
#[test]
fn rule_10_2_the_loser_chooses_from_reserve_or_map() {
    let mut s = loser_with_a_choice();
    assert_eq!(s.to_move(), ToMove::Seat(Seat(1)));
    assert_eq!(
        s.legal_actions(),
        vec![disband(INF, None), disband(INF, Some(2))]
    );
    assert_eq!(refused(&s, Action::EndPhase), ("disband_pending", "10.2"));
    assert_eq!(refused(&s, disband(CAV, None)), ("not_owed", "10.2"));
    assert_eq!(
        act(&mut s, disband(INF, Some(2))),
        vec![disbanded(1, INF, Some((2, h(3, -2))))]
    );
    assert!(s.unit(UnitId(2)).is_none());
    assert_eq!(s.player(Seat(1)).reserve.infantry, 1);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(s.turn().stage, Stage::Move);
}

/// 10.2, R-17: the same choice, paid from the reserve.
#[test]
fn rule_10_2_the_loser_may_pay_from_the_reserve() {
    let mut s = loser_with_a_choice();
    assert_eq!(
        act(&mut s, disband(INF, None)),
        vec![disbanded(1, INF, None)]
    );
    assert_eq!(s.player(Seat(1)).reserve.infantry, 0);
    assert_eq!(ids_at(&s, h(3, -2)), vec![2]);
    // 10.3: the winner holds the town's infantry in his reserve.
    assert_eq!(s.player(Seat(0)).reserve.infantry, 1);
}

/// 10.2, 10.3: a captured grassland city gives the winner an infantry and a cavalry and
/// costs the loser the same; where only one unit can pay, it is taken without asking.
#[test]
fn rule_10_3_a_captured_city_moves_both_its_units() {
    let mut s = Pos::new(2, Stage::Move)
        .town(h(-3, 1), 0, false, true)
        .unit(1, 0, INF, h(1, 0))
        .terrain(h(0, 0), Terrain::Grassland)
        .town(h(0, 0), 1, true, false)
        .town(h(3, -2), 1, false, true)
        .unit(2, 1, INF, h(3, -2))
        .unit(3, 1, CAV, h(2, -3))
        .reserve(1, INF, 1)
        .build();
    // A city whose owner holds his capital rolls two terrain dice.
    let events = take_0_0(&mut s, 1, &[5, 6]);
    assert_eq!(
        events,
        vec![
            defense(5),
            defense(6),
            Event::BattleEnded {
                hex: h(0, 0),
                winner: Seat(0)
            },
            Event::Captured {
                hex: h(0, 0),
                from: Seat(1),
                to: Seat(0),
                city: true
            },
            gained(0, INF),
            gained(0, CAV),
        ]
    );
    assert_eq!(
        s.player(Seat(0)).reserve,
        Reserve {
            infantry: 1,
            cavalry: 1,
            ..Reserve::default()
        }
    );
    assert_eq!(s.capture().map(|c| c.owed.clone()), Some(vec![INF, CAV]));
    // The infantry is a choice; the cavalry then has one way only.
    assert_eq!(
        act(&mut s, disband(INF, None)),
        vec![
            disbanded(1, INF, None),
            disbanded(1, CAV, Some((3, h(2, -3))))
        ]
    );
    assert!(s.capture().is_none());
    assert_eq!(
        s.on_hand(Seat(1)),
        Reserve {
            infantry: 1,
            ..Reserve::default()
        }
    );
    assert_eq!(s.on_hand(Seat(1)), s.supported(Seat(1)));
}

/// a player who loses his last town or city is out of the game; later turns pass
/// him by.
#[test]
fn rule_r18_losing_the_last_town_eliminates() {
    let mut s = Pos::new(3, Stage::Move)
        .town(h(-3, 1), 0, false, true)
        .unit(1, 0, INF, h(1, 0))
        .town(h(0, 0), 1, false, true)
        .unit(2, 1, INF, h(0, -2))
        .town(h(3, -3), 2, false, true)
        .build();
    let events = take_0_0(&mut s, 1, &[5]);
    assert_eq!(
        events,
        vec![
            defense(5),
            Event::BattleEnded {
                hex: h(0, 0),
                winner: Seat(0)
            },
            Event::Captured {
                hex: h(0, 0),
                from: Seat(1),
                to: Seat(0),
                city: false
            },
            gained(0, INF),
            // No choice of units to give up: everything leaves the game.
            Event::Eliminated { seat: Seat(1) },
        ]
    );
    assert!(s.player(Seat(1)).eliminated);
    assert!(s.units().iter().all(|u| u.owner != Seat(1)));
    assert_eq!(s.player(Seat(1)).reserve, Reserve::default());
    assert!(s.outcome().is_none(), "two players are left");
    assert_eq!(
        s.town(h(0, 0)),
        Some(Town {
            owner: Seat(0),
            city: false,
            capital_of: Some(Seat(1)),
            metropolis: None,
        })
    );

    // Seat 0 keeps the new infantry in reserve; the turn passes to seat 2, not seat 1.
    play(&mut s, &[Action::EndPhase, Action::EndPhase]);
    assert_eq!(s.turn().active, Seat(2));
    assert_eq!(s.turn().number, 1);
}

/// 7.1, loading a position: `can_build` means the active player held his capital when
/// his turn began, and nobody loses his capital in his own turn, so a turn that may
/// build while he holds none is refused; without the flag the same position loads.
#[test]
fn rule_7_1_a_turn_that_builds_without_the_capital_does_not_load() {
    let mut pos = Pos::new(2, Stage::Move)
        .captured_capital(h(0, 0), 1, false, 0)
        .town(h(-3, 1), 0, false, false)
        .town(h(3, -2), 1, false, true);
    pos.setup.turn.can_build = true;
    pos.setup.units_as_given = true;
    let problems = Viktory::from_setup(&pos.setup).expect_err("refused").0;
    assert!(
        problems
            .iter()
            .any(|p| p.code == "turn" && p.rule.as_deref() == Some("7.1")),
        "{problems:?}"
    );
    pos.setup.turn.can_build = false;
    assert!(Viktory::from_setup(&pos.setup).is_ok());
}

/// 8.0, one-to-one: each player's units on the map and in reserve are what his towns and
/// cities support. Loading refuses a position that breaks it (no game reaches one), unless
/// the setup says its units are hand-made (`units_as_given`).
#[test]
fn rule_8_0_units_the_towns_do_not_support_do_not_load() {
    let pos = |extra: u8| {
        let mut setup = Pos::new(2, Stage::Move)
            .town(h(-3, 1), 0, false, true)
            .town(h(3, -3), 1, false, true)
            .unit(1, 0, INF, h(-3, 1))
            .unit(2, 1, INF, h(3, -3))
            .reserve(0, INF, extra)
            .finish();
        setup.units_as_given = false;
        setup
    };
    assert!(Viktory::from_setup(&pos(0)).is_ok());
    let problems = Viktory::from_setup(&pos(1)).expect_err("refused").0;
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(
        (problems[0].code.as_str(), problems[0].rule.as_deref()),
        ("units", Some("8.0"))
    );
    assert!(
        problems[0].message.starts_with("Seat 1 has 2 infantry"),
        "{problems:?}"
    );
    let hand_made = Setup {
        units_as_given: true,
        ..pos(1)
    };
    let s = Viktory::from_setup(&hand_made).expect("a hand-made position loads");
    assert!(s.to_setup().units_as_given, "it saves as it was loaded");
}
