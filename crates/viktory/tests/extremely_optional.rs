//! The Expansion's extremely optional rules, each on and off, with the rulebook's worked
//! examples: the Building Phase Accelerator Enhancement, the Metropolis City Upgrade, the
//! Battle Attacks dice factors, the Frigate Characteristics (the frigate example, the
//! amphibious landing), the Artillery Characteristics (the Overwatch example), the
//! Pillage Attack, the Cavalry Characteristics (the Mountain City example), the
//! Road/Ferry Network (the road and ferry examples), and the sample battle sequence.

mod common;

use common::*;
use engine::{Game, Seat};
use viktory::board::Terrain;
use viktory::event::DiePurpose;
use viktory::state::Stage;
use viktory::{Action, Event, UnitKind, Viktory};

/// Building Phase Accelerator Enhancement: an upgrade takes one build action (so a city
/// can be built on an empty hex in one turn), and a new city reveals nothing two hexes
/// away. Without it an upgrade takes both actions and reveals the ring.
#[test]
fn expansion_accelerator_enhancement() {
    let pos = |enhanced: bool| {
        Pos::new(2, Stage::Build)
            .rules(|r| {
                r.build_actions = 2;
                r.accelerator_enhancement = enhanced;
            })
            .town(h(-3, 0), 0, false, true)
            .town(h(3, -3), 1, false, true)
            .face_down(h(1, -2), Terrain::Plains)
            .build()
    };
    let mut s = pos(true);
    act(&mut s, Action::BuildTown { hex: h(-1, 0) });
    let events = act(&mut s, Action::BuildCity { hex: h(-1, 0) });
    assert!(events.contains(&Event::CityBuilt {
        seat: Seat(0),
        hex: h(-1, 0)
    }));
    assert!(
        s.pending_reveals().is_empty(),
        "nothing two hexes away is revealed"
    );
    assert!(s.town(h(-1, 0)).unwrap().city);
    let mut s = pos(false);
    act(&mut s, Action::BuildTown { hex: h(-1, 0) });
    assert_eq!(
        refused(&s, Action::BuildCity { hex: h(-1, 0) }),
        ("build_actions", "Expansion")
    );
    let mut s = pos(false);
    act(&mut s, Action::BuildCity { hex: h(-3, 0) });
    assert_eq!(s.turn().stage, Stage::Move, "the upgrade took both actions");
}

/// A city at (0,0) with water, grassland, forest and mountain around it on a plains
/// board, for seat 0 (capital at (-3,0)).
fn metropolis_pos(stage: Stage) -> Pos {
    Pos::new(2, stage)
        .rules(|r| r.metropolis = true)
        .terrain(h(1, 0), Terrain::Water)
        .terrain(h(1, -1), Terrain::Grassland)
        .terrain(h(0, -1), Terrain::Forest)
        .terrain(h(-1, 0), Terrain::Mountain)
        .town(h(-3, 0), 0, false, true)
        .town(h(0, 0), 0, true, false)
        .town(h(3, -3), 1, false, true)
}

/// Metropolis City Upgrade: a city among all five terrains becomes a Metropolis
/// supporting one more unit of choice (two infantry here), worth 3 points; elsewhere it
/// cannot, unless it is the capital with the capital exception.
#[test]
fn expansion_metropolis_upgrade() {
    let mut s = metropolis_pos(Stage::Build).build();
    let events = act(
        &mut s,
        Action::BuildMetropolis {
            hex: h(0, 0),
            extra: UnitKind::Infantry,
        },
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(
                e,
                Event::UnitGained {
                    kind: UnitKind::Infantry,
                    ..
                }
            ))
            .count(),
        2
    );
    assert_eq!(s.player(Seat(0)).reserve.get(UnitKind::Infantry), 2);
    assert_eq!(s.score(Seat(0)), 1 + 3);
    // The capital town's infantry, the plains city's two, the Metropolis's two.
    assert_eq!(s.supported(Seat(0)).get(UnitKind::Infantry), 1 + 2 + 2);
    // Not among the five terrains.
    let s = metropolis_pos(Stage::Build)
        .terrain(h(1, 0), Terrain::Plains)
        .build();
    let build = Action::BuildMetropolis {
        hex: h(0, 0),
        extra: UnitKind::Cavalry,
    };
    assert_eq!(refused(&s, build), ("five_terrains", "Expansion"));
    // The capital exception.
    let s = metropolis_pos(Stage::Build)
        .terrain(h(1, 0), Terrain::Plains)
        .rules(|r| r.metropolis_capital = true)
        .town(h(-3, 3), 0, true, false)
        .build();
    let capital = Action::BuildMetropolis {
        hex: h(-3, 0),
        extra: UnitKind::Cavalry,
    };
    assert_eq!(refused(&s, capital), ("not_your_city", "Expansion"));
    let mut p = metropolis_pos(Stage::Build)
        .terrain(h(1, 0), Terrain::Plains)
        .rules(|r| r.metropolis_capital = true);
    p.setup.towns[0].town.city = true;
    assert!(p.build().check(&capital).is_ok());
    // Without the option there is no such upgrade.
    let s = metropolis_pos(Stage::Build)
        .rules(|r| r.metropolis = false)
        .build();
    assert_eq!(refused(&s, build), ("not_enabled", "Expansion"));
}

/// Metropolis: three defence dice (the best terrain die count, not added to others).
#[test]
fn expansion_metropolis_defends_with_three_dice() {
    let mut p = metropolis_pos(Stage::Move)
        .unit(1, 1, UnitKind::Infantry, h(0, 1))
        .unit(2, 1, UnitKind::Infantry, h(-1, 1))
        .active(1);
    p.setup.towns[1].town.metropolis = Some(UnitKind::Cavalry);
    let mut s = p.build();
    play(
        &mut s,
        &[mv(1, 0, 0), mv(2, 0, 0), Action::Fight { hex: h(0, 0) }],
    );
    // No defending units: the attacker's dice are not rolled (H-5); three for the
    // Metropolis.
    let events = dice(&mut s, &[6, 6, 6]);
    let defence = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::DieRolled {
                    purpose: DiePurpose::Defense,
                    ..
                }
            )
        })
        .count();
    assert_eq!(defence, 3, "{events:?}");
}

/// Metropolis: while its extra unit is in the reserve it may be switched for another
/// kind; losing one of two Metropolises, the loser may switch which extra he gives up.
#[test]
fn expansion_metropolis_switching() {
    let mut p = metropolis_pos(Stage::Place).reserve(0, UnitKind::Artillery, 1);
    p.setup.towns[1].town.metropolis = Some(UnitKind::Artillery);
    let mut s = p.build();
    act(
        &mut s,
        Action::SwitchMetropolis {
            hex: h(0, 0),
            extra: UnitKind::Frigate,
        },
    );
    assert_eq!(s.player(Seat(0)).reserve.get(UnitKind::Artillery), 0);
    assert_eq!(s.player(Seat(0)).reserve.get(UnitKind::Frigate), 1);
    assert_eq!(s.town(h(0, 0)).unwrap().metropolis, Some(UnitKind::Frigate));
    // Not when the extra unit is on the map.
    let mut p = metropolis_pos(Stage::Place)
        .unit(5, 0, UnitKind::Artillery, h(0, 0))
        .reserve(0, UnitKind::Infantry, 1);
    p.setup.towns[1].town.metropolis = Some(UnitKind::Artillery);
    let s = p.build();
    assert_eq!(
        refused(
            &s,
            Action::SwitchMetropolis {
                hex: h(0, 0),
                extra: UnitKind::Cavalry
            }
        ),
        ("not_in_reserve", "Expansion")
    );
    // Losing the Metropolis at (0,0) (extra: artillery, in the reserve) while another
    // one supports a frigate: the loser lets the other support the artillery and gives
    // up the frigate instead.
    let mut p = metropolis_pos(Stage::Move)
        .terrain(h(-2, 3), Terrain::Forest)
        .terrain(h(-1, 3), Terrain::Water)
        .town(h(-2, 3), 0, true, false)
        .unit(1, 1, UnitKind::Infantry, h(0, 1))
        .unit(7, 0, UnitKind::Frigate, h(-1, 3))
        .reserve(0, UnitKind::Artillery, 1)
        .reserve(0, UnitKind::Infantry, 1)
        .active(1);
    p.setup.towns[1].town.metropolis = Some(UnitKind::Artillery);
    p.setup.towns[3].town.metropolis = Some(UnitKind::Frigate);
    let mut s: Viktory = p.build();
    play(&mut s, &[mv(1, 0, 0), Action::Fight { hex: h(0, 0) }]);
    dice(&mut s, &[6, 6, 6]);
    assert_eq!(s.capture().map(|c| c.loser), Some(Seat(0)));
    act(
        &mut s,
        Action::SwitchMetropolis {
            hex: h(-2, 3),
            extra: UnitKind::Artillery,
        },
    );
    assert_eq!(
        s.town(h(-2, 3)).unwrap().metropolis,
        Some(UnitKind::Artillery)
    );
    assert_eq!(
        s.capture().map(|c| c.owed.last().copied()),
        Some(Some(UnitKind::Frigate))
    );
}

/// Battle Attacks: Dice Determining Factors, the rulebook's amphibious landing: a
/// frigate bombards an infantry-held plains town (a miss), lands its artillery in it,
/// the artillery's pre-battle die misses, and the attacker rolls two dice, artillery and
/// the frigate that just bombarded; both hit, the infantry falls, its return fire is
/// suppressed, the town's die misses and the town is taken. Without the option (or
/// without the bombardment) the frigate adds no die.
#[test]
fn expansion_battle_dice_factors_amphibious_example() {
    let pos = |factors: bool| {
        Pos::new(2, Stage::Move)
            .rules(|r| r.battle_dice_factors = factors)
            .terrain(h(2, 0), Terrain::Water)
            .town(h(-3, 0), 0, false, true)
            .town(h(1, 0), 1, false, false)
            .town(h(3, -3), 1, false, true)
            .unit(1, 1, UnitKind::Infantry, h(1, 0))
            .unit(5, 0, UnitKind::Frigate, h(2, 0))
            .cargo(6, 0, UnitKind::Artillery, 5)
            .build()
    };
    let attack_dice = |events: &[Event]| dice_rolled(events, DiePurpose::Attack);
    let land = |s: &mut Viktory, bombard: bool| {
        if bombard {
            act(
                s,
                Action::Bombard {
                    unit: viktory::UnitId(5),
                    target: h(1, 0),
                },
            );
            dice(s, &[6]);
        }
        play(
            s,
            &[
                Action::Disembark {
                    unit: viktory::UnitId(6),
                    to: h(1, 0),
                },
                Action::Fight { hex: h(1, 0) },
            ],
        );
        // The artillery's pre-battle die misses.
        dice(s, &[6]);
    };
    let mut s = pos(true);
    land(&mut s, true);
    let events = dice(&mut s, &[2, 3]);
    assert_eq!(attack_dice(&events), 2);
    // The infantry is gone; only the town's die is left, and it misses.
    let events = dice(&mut s, &[6]);
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::DieRolled { .. }))
            .count(),
        1
    );
    assert_eq!(
        s.town(h(1, 0)).map(|t| t.owner),
        Some(Seat(0)),
        "{events:?}"
    );
    // Without the bombardment, or without the option: one die, the artillery's.
    for (factors, bombard) in [(true, false), (false, true)] {
        let mut s = pos(factors);
        land(&mut s, bombard);
        assert_eq!(attack_dice(&dice(&mut s, &[6])), 1);
    }
}

/// Battle Attacks: Dice Determining Factors: the defender rolls one more die with two
/// or more defending units (an adjacent frigate counts).
#[test]
fn expansion_battle_dice_factors_two_defenders() {
    let defence = |factors: bool, frigate: bool| {
        let mut p = Pos::new(2, Stage::Move)
            .rules(|r| r.battle_dice_factors = factors)
            .terrain(h(2, 0), Terrain::Water)
            .town(h(-3, 0), 0, false, true)
            .town(h(3, -3), 1, false, true)
            .unit(1, 1, UnitKind::Infantry, h(1, 0))
            .unit(2, 0, UnitKind::Infantry, h(0, 0));
        if frigate {
            p = p.unit(3, 1, UnitKind::Frigate, h(2, 0));
        }
        let mut s = p.build();
        play(&mut s, &[mv(2, 1, 0), Action::Fight { hex: h(1, 0) }]);
        dice(&mut s, &[6]);
        let mut events = Vec::new();
        while s.to_move() == engine::ToMove::Chance {
            events.extend(dice(&mut s, &[6]));
        }
        events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::DieRolled {
                        purpose: DiePurpose::Defense,
                        ..
                    }
                )
            })
            .count()
    };
    // Infantry alone: one die; with an adjacent frigate: naval support, plus two units.
    assert_eq!(defence(true, false), 1);
    assert_eq!(defence(true, true), 3);
    assert_eq!(defence(false, true), 2);
}

/// A side-7 board of plains with a row of water at r = 0, for frigate tests.
fn sea(stage: Stage, on: bool) -> Pos {
    let mut rules = viktory::Rules::classic(2);
    rules.board_side = 7;
    rules.frigate_characteristics = on;
    let mut p = Pos::with_rules(rules, stage);
    for q in -5..=5 {
        p = p.terrain(h(q, 0), Terrain::Water);
    }
    p.town(h(-4, 4), 0, false, true)
        .town(h(4, -4), 1, false, true)
}

/// Frigate Characteristics, the rulebook's example: three units aboard land (3 MP), the
/// frigate moves one hex (1 MP), loads two units (2 MP) and lands them on its other
/// side (2 MP): all 8 movement points. Units that began the turn aboard may move on
/// after landing; units that boarded this turn stop.
#[test]
fn expansion_frigate_characteristics_example() {
    let mut s = sea(Stage::Move, true)
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .cargo(2, 0, UnitKind::Infantry, 1)
        .cargo(3, 0, UnitKind::Infantry, 1)
        .cargo(4, 0, UnitKind::Artillery, 1)
        .unit(5, 0, UnitKind::Infantry, h(1, -1))
        .unit(6, 0, UnitKind::Cavalry, h(1, -1))
        .build();
    let id = viktory::UnitId;
    assert_eq!(s.unit(id(1)).unwrap().mp, 8);
    let land = |unit, q, r| Action::Disembark {
        unit: id(unit),
        to: h(q, r),
    };
    // Several hexes, no single drop-off hex.
    play(&mut s, &[land(2, 0, -1), land(3, -1, 1), land(4, 0, -1)]);
    play(&mut s, &[mv(1, 1, 0)]);
    for u in [5, 6] {
        act(
            &mut s,
            Action::Embark {
                unit: id(u),
                frigate: id(1),
            },
        );
    }
    play(&mut s, &[land(5, 1, 1), land(6, 1, 1)]);
    assert_eq!(s.unit(id(1)).unwrap().mp, 0);
    assert_eq!(refused(&s, mv(1, 2, 0)), ("no_movement", "9.0"));
    // Boarded this turn: stopped on landing. Began aboard: one more step.
    assert!(s.unit(id(6)).unwrap().done);
    act(&mut s, mv(2, 0, -2));
    assert_eq!(s.unit(id(2)).unwrap().hex, h(0, -2));
    // Without the option: five points, one drop-off hex, landing ends the frigate's move.
    let mut s = sea(Stage::Move, false)
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .cargo(2, 0, UnitKind::Infantry, 1)
        .cargo(3, 0, UnitKind::Infantry, 1)
        .build();
    assert_eq!(s.unit(id(1)).unwrap().mp, 5);
    act(&mut s, land(2, 0, -1));
    assert_eq!(refused(&s, land(3, -1, 1)), ("one_drop_hex", "9.46"));
    assert_eq!(refused(&s, mv(1, 1, 0)), ("no_movement", "9.0"));
}

/// Frigate Characteristics: a unit may move before boarding (one point to board), and
/// an infantry that moved one hex and boarded has nothing left to land with; a frigate
/// need not stop after bombarding, but attacks no more.
#[test]
fn expansion_frigate_characteristics_moves_and_attacks() {
    let mut s = sea(Stage::Move, true)
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, -2))
        .unit(3, 1, UnitKind::Infantry, h(2, -1))
        .unit(4, 1, UnitKind::Frigate, h(3, 0))
        .build();
    let id = viktory::UnitId;
    act(&mut s, mv(2, 0, -1));
    act(
        &mut s,
        Action::Embark {
            unit: id(2),
            frigate: id(1),
        },
    );
    assert_eq!(
        refused(
            &s,
            Action::Disembark {
                unit: id(2),
                to: h(-1, 1)
            }
        ),
        ("no_movement", "Expansion")
    );
    play(&mut s, &[mv(1, 1, 0)]);
    act(
        &mut s,
        Action::Bombard {
            unit: id(1),
            target: h(2, -1),
        },
    );
    dice(&mut s, &[6]);
    act(&mut s, mv(1, 2, 0));
    assert_eq!(s.unit(id(1)).unwrap().hex, h(2, 0));
    assert_eq!(refused(&s, mv(1, 3, 0)), ("attacked", "10.6"));
}

/// The rulebook's amphibious landing with Frigate Characteristics and the battle dice
/// factors together: the artillery boards (1 MP), the frigate sails six hexes (6 MP),
/// bombards the infantry-held town (a miss), lands the artillery in it (1 MP: all 8
/// spent); the pre-battle die misses; two attack dice, artillery and the frigate, both
/// hit; the town's die misses and the town falls.
#[test]
fn expansion_amphibious_landing_example() {
    let mut s = sea(Stage::Move, true)
        .rules(|r| r.battle_dice_factors = true)
        .unit(1, 0, UnitKind::Frigate, h(-4, 0))
        .unit(2, 0, UnitKind::Artillery, h(-4, -1))
        .town(h(3, -1), 1, false, false)
        .unit(3, 1, UnitKind::Infantry, h(3, -1))
        .build();
    let id = viktory::UnitId;
    act(
        &mut s,
        Action::Embark {
            unit: id(2),
            frigate: id(1),
        },
    );
    for q in -3..=2 {
        act(&mut s, mv(1, q, 0));
    }
    act(
        &mut s,
        Action::Bombard {
            unit: id(1),
            target: h(3, -1),
        },
    );
    dice(&mut s, &[6]);
    act(
        &mut s,
        Action::Disembark {
            unit: id(2),
            to: h(3, -1),
        },
    );
    assert_eq!(s.unit(id(1)).unwrap().mp, 0, "all eight points spent");
    act(&mut s, Action::Fight { hex: h(3, -1) });
    dice(&mut s, &[6]); // pre-battle fire
    dice(&mut s, &[2, 3]); // artillery and frigate: two hits
    // The infantry's fire is suppressed; only the town's die is left.
    let defence = dice(&mut s, &[6]);
    assert!(defence.iter().any(|e| matches!(e, Event::UnitLost { .. })));
    assert_eq!(s.town(h(3, -1)).map(|t| t.owner), Some(Seat(0)));
}

/// Artillery Characteristics, the rulebook's Overwatch example: an artillery on a
/// mountain next to its own town fires at the artillery and two infantry attacking the
/// town before their pre-battle fire; a 1 lets its owner take out the attacking
/// artillery, which never fires. Cavalry alone trigger no Overwatch; without the option
/// there is none.
#[test]
fn expansion_artillery_overwatch_example() {
    let pos = |on: bool, cavalry_only: bool| {
        let mut p = Pos::new(2, Stage::Move)
            .rules(|r| r.artillery_characteristics = on)
            .terrain(h(2, -1), Terrain::Mountain)
            .town(h(-3, 0), 0, false, true)
            .town(h(1, 0), 1, false, false)
            .town(h(3, -3), 1, false, true)
            .unit(1, 1, UnitKind::Artillery, h(2, -1));
        p = if cavalry_only {
            p.unit(2, 0, UnitKind::Cavalry, h(0, 0))
        } else {
            p.unit(2, 0, UnitKind::Artillery, h(0, 0))
                .unit(3, 0, UnitKind::Infantry, h(0, 1))
                .unit(4, 0, UnitKind::Infantry, h(1, 1))
        };
        let mut s = p.build();
        let units: Vec<u16> = if cavalry_only { vec![2] } else { vec![2, 3, 4] };
        for u in units {
            act(&mut s, mv(u, 1, 0));
        }
        act(&mut s, Action::Fight { hex: h(1, 0) });
        s
    };
    let purpose = |e: &Event| match e {
        Event::DieRolled { purpose, .. } => Some(*purpose),
        _ => None,
    };
    let mut s = pos(true, false);
    let events = dice(&mut s, &[1]);
    assert_eq!(
        events.iter().filter_map(purpose).collect::<Vec<_>>(),
        vec![DiePurpose::Overwatch]
    );
    // The tactical hit: the defender picks the attacking artillery.
    assert_eq!(s.to_move(), engine::ToMove::Seat(Seat(1)));
    let events = act(
        &mut s,
        Action::Casualty {
            unit: viktory::UnitId(2),
        },
    );
    assert!(s.unit(viktory::UnitId(2)).is_none(), "{events:?}");
    // No pre-battle fire: the next dice are the round's (the town's die, H-5).
    let events = dice(&mut s, &[6]);
    assert_eq!(
        events.iter().filter_map(purpose).collect::<Vec<_>>(),
        vec![DiePurpose::Defense]
    );
    // Without the option, or against cavalry alone: no Overwatch.
    let mut s = pos(false, false);
    let events = dice(&mut s, &[6]);
    assert_eq!(
        events.iter().filter_map(purpose).collect::<Vec<_>>(),
        vec![DiePurpose::PreBattle]
    );
    let mut s = pos(true, true);
    let events = dice(&mut s, &[6]);
    assert_eq!(
        events.iter().filter_map(purpose).collect::<Vec<_>>(),
        vec![DiePurpose::Defense]
    );
}

/// Artillery Characteristics: artillery may bombard after being transported.
#[test]
fn expansion_artillery_bombards_after_transport() {
    let pos = |on: bool| {
        let mut s = sea(Stage::Move, false)
            .rules(|r| r.artillery_characteristics = on)
            .unit(1, 0, UnitKind::Frigate, h(0, 0))
            .cargo(2, 0, UnitKind::Artillery, 1)
            .unit(3, 1, UnitKind::Infantry, h(0, -2))
            .build();
        act(
            &mut s,
            Action::Disembark {
                unit: viktory::UnitId(2),
                to: h(0, -1),
            },
        );
        s
    };
    let bombard = Action::Bombard {
        unit: viktory::UnitId(2),
        target: h(0, -2),
    };
    assert!(pos(true).check(&bombard).is_ok());
    assert_eq!(refused(&pos(false), bombard), ("transported", "9.44"));
}

/// Pillage Attack: an infantry pillages its hex next to an enemy town (its one attack;
/// it stops); the damage keeps the town from taking reserves and from being upgraded,
/// and nothing is built next to it; the capital is excepted. A unit moving in repairs
/// it, ending its movement.
#[test]
fn expansion_pillage_and_repair() {
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| r.pillage = true)
        .town(h(-3, 0), 0, false, true)
        .town(h(1, 0), 1, false, false)
        .town(h(3, -3), 1, false, true)
        .unit(1, 0, UnitKind::Infantry, h(-1, 0))
        .unit(2, 0, UnitKind::Artillery, h(-1, 2))
        .build();
    let id = viktory::UnitId;
    act(&mut s, mv(1, 0, 0));
    act(
        &mut s,
        Action::Pillage {
            unit: id(1),
            hex: h(0, 0),
        },
    );
    assert_eq!(s.to_setup().pillaged, vec![h(0, 0)]);
    assert!(s.unit(id(1)).unwrap().attacked);
    assert_eq!(refused(&s, mv(1, 0, -1)), ("attacked", "10.7"));
    // Not a hex far from towns.
    assert_eq!(
        refused(
            &s,
            Action::Pillage {
                unit: id(2),
                hex: h(-1, 2)
            }
        ),
        ("no_town_near", "Expansion")
    );
    // Seat 1 cannot place in the town next to the damage, but can in its capital.
    let mut p = Pos::new(2, Stage::Place)
        .rules(|r| r.pillage = true)
        .town(h(-3, 0), 0, false, true)
        .town(h(1, 0), 1, false, false)
        .town(h(3, -3), 1, false, true)
        .reserve(1, UnitKind::Infantry, 2)
        .active(1);
    p.setup.pillaged = vec![h(0, 0), h(3, -2)];
    let s1 = p.build();
    let place = |town: hexmap::Hex| Action::Place {
        kind: UnitKind::Infantry,
        town,
        to: town,
    };
    assert_eq!(refused(&s1, place(h(1, 0))), ("pillaged", "Expansion"));
    assert!(
        s1.check(&place(h(3, -3))).is_ok(),
        "the capital is excepted"
    );
    // Repair: the artillery moves in and repairs; its movement ends.
    play(&mut s, &[mv(2, -1, 1), mv(2, 0, 0)]);
    let events = act(
        &mut s,
        Action::Repair {
            unit: id(2),
            hex: h(0, 0),
        },
    );
    assert!(events.contains(&Event::Repaired {
        unit: id(2),
        hex: h(0, 0)
    }));
    assert!(s.to_setup().pillaged.is_empty());
    assert!(s.unit(id(2)).unwrap().done);
    // Without the option there is no pillaging.
    let s = Pos::new(2, Stage::Move)
        .town(h(1, 0), 1, false, false)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .build();
    assert_eq!(
        refused(
            &s,
            Action::Pillage {
                unit: id(1),
                hex: h(0, 0)
            }
        ),
        ("not_enabled", "Expansion")
    );
}

/// Cavalry Characteristics, the rulebook's example: a cavalry rides through an enemy
/// Mountain City held by infantry, cavalry and artillery for two movement points (one
/// to enter, one more for the slow terrain and the enemy together), no battle and no
/// Overwatch; it has four points and pillages for free without stopping.
#[test]
fn expansion_cavalry_characteristics_example() {
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| {
            r.cavalry_characteristics = true;
            r.pillage = true;
            r.artillery_characteristics = true;
        })
        .terrain(h(1, 0), Terrain::Mountain)
        .town(h(-3, 0), 0, false, true)
        .town(h(1, 0), 1, true, false)
        .town(h(3, -3), 1, false, true)
        .unit(1, 0, UnitKind::Cavalry, h(-1, 0))
        .unit(2, 1, UnitKind::Infantry, h(1, 0))
        .unit(3, 1, UnitKind::Cavalry, h(1, 0))
        .unit(4, 1, UnitKind::Artillery, h(1, 0))
        .build();
    let id = viktory::UnitId;
    assert_eq!(s.unit(id(1)).unwrap().mp, 4);
    act(&mut s, mv(1, 0, 0));
    // A free pillage next to the enemy city: the cavalry rides on.
    act(
        &mut s,
        Action::Pillage {
            unit: id(1),
            hex: h(0, 0),
        },
    );
    assert!(!s.unit(id(1)).unwrap().attacked);
    let events = act(
        &mut s,
        Action::Bypass {
            unit: id(1),
            to: h(1, 0),
        },
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::BattleStarted { .. } | Event::DieRolled { .. }))
    );
    assert_eq!(s.unit(id(1)).unwrap().mp, 1);
    // It must ride on before anything else.
    assert_eq!(
        refused(&s, Action::EndPhase),
        ("riding_through", "Expansion")
    );
    act(&mut s, mv(1, 2, 0));
    assert_eq!(s.unit(id(1)).unwrap().hex, h(2, 0));
    // Without the option, cavalry have three points and stop in enemy hexes.
    let s = Pos::new(2, Stage::Move)
        .town(h(1, 0), 1, true, false)
        .unit(1, 0, UnitKind::Cavalry, h(0, 0))
        .build();
    assert_eq!(s.unit(id(1)).unwrap().mp, 3);
    assert_eq!(
        refused(
            &s,
            Action::Bypass {
                unit: id(1),
                to: h(1, 0)
            }
        ),
        ("not_cavalry", "Expansion")
    );
}

/// Cavalry Characteristics: one more movement point takes a cavalry through a forest
/// or mountain without stopping; with one point left it stops there.
#[test]
fn expansion_cavalry_through_slow_terrain() {
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| r.cavalry_characteristics = true)
        .terrain(h(1, 0), Terrain::Forest)
        .terrain(h(2, 0), Terrain::Mountain)
        .unit(1, 0, UnitKind::Cavalry, h(0, 0))
        .build();
    let id = viktory::UnitId;
    act(&mut s, mv(1, 1, 0));
    assert_eq!(s.unit(id(1)).unwrap().mp, 2);
    act(&mut s, mv(1, 2, 0));
    assert_eq!(s.unit(id(1)).unwrap().mp, 0);
}

/// The rulebook's sample battle sequence, with the extremely optional rules: three
/// frigates bombard the yellow Metropolis (three dice); yellow's three artillery fire
/// Overwatch (two in the Metropolis, one in the adjacent mountain a red cavalry rode
/// through); red's three artillery fire before the battle; red rolls eight dice (four
/// unit types counting the bombarding frigates, four extra hex sides); yellow rolls
/// eight (four unit types counting its adjacent frigate, one for two or more units,
/// three for the Metropolis).
#[test]
fn expansion_sample_battle_sequence() {
    use UnitKind::{Artillery, Cavalry, Frigate, Infantry};
    let mut p = Pos::new(2, Stage::Move)
        .rules(|r| {
            r.metropolis = true;
            r.battle_dice_factors = true;
            r.artillery_characteristics = true;
            r.cavalry_characteristics = true;
        })
        .terrain(h(1, -1), Terrain::Mountain)
        .terrain(h(0, 1), Terrain::Water)
        .terrain(h(-1, 1), Terrain::Water)
        .town(h(-3, 0), 0, false, true)
        .town(h(0, 0), 1, true, false)
        .town(h(3, -3), 1, false, true);
    p.setup.towns[1].town.metropolis = Some(Cavalry);
    let yellow = [
        (11, Infantry, h(0, 0)),
        (12, Cavalry, h(0, 0)),
        (13, Artillery, h(0, 0)),
        (14, Artillery, h(0, 0)),
        (15, Artillery, h(1, -1)),
        (16, Frigate, h(0, 1)),
    ];
    let red = [
        (1, Cavalry, h(2, -1)),
        (2, Infantry, h(1, 0)),
        (3, Cavalry, h(1, 0)),
        (4, Infantry, h(0, -1)),
        (5, Artillery, h(-1, 0)),
        (6, Artillery, h(-1, 0)),
        (7, Artillery, h(-1, 0)),
        (8, Infantry, h(-1, 0)),
        (21, Frigate, h(-1, 1)),
        (22, Frigate, h(-1, 1)),
        (23, Frigate, h(-1, 1)),
    ];
    for (id, kind, hex) in yellow {
        p = p.unit(id, 1, kind, hex);
    }
    for (id, kind, hex) in red {
        p = p.unit(id, 0, kind, hex);
    }
    let mut s = p.build();
    let m = h(0, 0);
    let count = dice_rolled;
    // 1–2: three bombardments, all misses.
    let mut bombard_dice = 0;
    for f in [21, 22, 23] {
        act(
            &mut s,
            Action::Bombard {
                unit: viktory::UnitId(f),
                target: m,
            },
        );
        bombard_dice += count(&dice(&mut s, &[6]), DiePurpose::Bombard);
    }
    assert_eq!(bombard_dice, 3);
    // The cavalry rides through the mountain, then everyone moves in.
    act(
        &mut s,
        Action::Bypass {
            unit: viktory::UnitId(1),
            to: h(1, -1),
        },
    );
    for id in [1, 2, 3, 4, 5, 6, 7, 8] {
        act(&mut s, mv(id, 0, 0));
    }
    act(&mut s, Action::Fight { hex: m });
    // 3–4: Overwatch; 5–6: pre-battle fire; 7: attack; 9: defence. All misses.
    assert_eq!(count(&dice(&mut s, &[6; 3]), DiePurpose::Overwatch), 3);
    assert_eq!(count(&dice(&mut s, &[6; 3]), DiePurpose::PreBattle), 3);
    assert_eq!(count(&dice(&mut s, &[6; 8]), DiePurpose::Attack), 8);
    assert_eq!(count(&dice(&mut s, &[6; 8]), DiePurpose::Defense), 8);
    // 11: the attacker may retreat now.
    assert!(s.legal_actions().contains(&Action::Continue));
}

/// Road/Ferry Network: three network hexes for one movement point (slow terrain on the
/// network does not stop), then a full point to move into battle; the rulebook's
/// "three hexes along the road, then a fourth hex to battle at the cost of its second
/// MP". Without the option each hex costs a point.
#[test]
fn expansion_road_network_movement() {
    let pos = |on: bool| {
        Pos::new(2, Stage::Move)
            .rules(|r| r.road_ferry_network = on)
            .terrain(h(0, 0), Terrain::Mountain)
            .town(h(-3, 0), 0, false, true)
            .town(h(0, -1), 0, false, false)
            .town(h(3, -3), 1, false, true)
            .unit(1, 0, UnitKind::Infantry, h(-2, 0))
            .unit(2, 1, UnitKind::Infantry, h(2, -1))
            .build()
    };
    let mut s = pos(true);
    let id = viktory::UnitId;
    // (-1,0), (0,0) (a mountain) and (1,-1) are all next to own towns.
    play(&mut s, &[mv(1, -1, 0), mv(1, 0, 0), mv(1, 1, -1)]);
    assert_eq!(
        s.unit(id(1)).unwrap().mp,
        1,
        "one point for three network hexes"
    );
    act(&mut s, mv(1, 2, -1));
    assert_eq!(s.turn().pending_battles, vec![h(2, -1)]);
    assert_eq!(s.unit(id(1)).unwrap().mp, 0);
    // Without the network: the mountain stops it after two points.
    let mut s = pos(false);
    play(&mut s, &[mv(1, -1, 0), mv(1, 0, 0)]);
    assert_eq!(s.unit(id(1)).unwrap().mp, 0);
}

/// Road/Ferry Network: a hex next to an enemy town is contested and no road for anyone,
/// unless the player began his turn with a unit in it (the pathfinder); the rulebook's
/// ferry example: a frigate that began the turn in the water hex between two enemy
/// towns makes it a ferry for its player's land units, which may not stay on it.
#[test]
fn expansion_ferry_example() {
    let pos = |frigate: bool| {
        let mut p = Pos::new(2, Stage::Move)
            .rules(|r| r.road_ferry_network = true)
            .terrain(h(0, 0), Terrain::Water)
            .terrain(h(0, 1), Terrain::Water)
            .town(h(-3, 0), 0, false, true)
            .town(h(-1, 0), 0, false, false)
            .town(h(1, -1), 1, false, false)
            .town(h(3, -3), 1, false, true)
            .unit(1, 0, UnitKind::Infantry, h(-1, 1));
        if frigate {
            p = p.unit(2, 0, UnitKind::Frigate, h(0, 0));
        }
        p.build()
    };
    // (0,0) is next to seat 0's town at (-1,0) and seat 1's at (1,-1): contested.
    assert_eq!(refused(&pos(false), mv(1, 0, 0)), ("water", "9.1"));
    let mut s = pos(true);
    // The frigate may even sail away: the ferry stays uncontested this turn.
    act(&mut s, mv(2, 0, 1));
    act(&mut s, mv(1, 0, 0));
    assert_eq!(refused(&s, Action::EndPhase), ("on_ferry", "Expansion"));
    act(&mut s, mv(1, 1, 0));
    assert_eq!(s.unit(viktory::UnitId(1)).unwrap().hex, h(1, 0));
    assert!(s.check(&Action::EndPhase).is_ok());
}
