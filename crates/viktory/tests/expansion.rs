//! Options of the Expansion Rules 1.0, each on (and, where it differs, off): turn
//! sequence reordered, building phase accelerator, combat supply, redeployment, bombard
//! range limitation, plains cities, road/ferry movement, the adjacent-enemy building
//! restriction, defender suppression clarification (both worked examples), cavalry
//! changes and the hex-side attack bonus.

mod common;

use common::*;
use engine::{Game, Seat, ToMove};
use viktory::board::Terrain;
use viktory::event::DiePurpose;
use viktory::state::Stage;
use viktory::{Action, Event, Suppression, UnitId, UnitKind, Viktory};

fn defence_dice(events: &[Event]) -> usize {
    dice_rolled(events, DiePurpose::Defense)
}

/// Turn Sequence Reordered: movement and combat, then building, then placement.
#[test]
fn expansion_turn_sequence_reordered() {
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| r.build_after_moving = true)
        .town(h(-3, 0), 0, false, true)
        .town(h(3, -3), 1, false, true)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .build();
    let events = act(&mut s, Action::EndPhase);
    assert_eq!(
        events[0],
        Event::PhaseStarted {
            stage: Stage::Build
        }
    );
    act(&mut s, Action::BuildTown { hex: h(-1, 0) });
    // After the build comes placement (the new infantry is waiting in the reserve).
    assert_eq!(s.turn().stage, Stage::Place);
    act(&mut s, Action::EndPhase);
    // Seat 1's turn starts with movement.
    assert_eq!((s.turn().active, s.turn().stage), (Seat(1), Stage::Move));
}

/// Building Phase Accelerator: two build actions; a town costs one, an upgrade two.
#[test]
fn expansion_building_phase_accelerator() {
    let pos = || {
        Pos::new(2, Stage::Build)
            .rules(|r| r.build_actions = 2)
            .town(h(-3, 0), 0, false, true)
            .town(h(3, -3), 1, false, true)
    };
    let mut s = pos().build();
    act(&mut s, Action::BuildTown { hex: h(-1, 0) });
    assert_eq!(s.turn().stage, Stage::Build, "one action left");
    assert_eq!(
        refused(&s, Action::BuildCity { hex: h(-3, 0) }),
        ("build_actions", "Expansion")
    );
    // The second town may be two or three hexes from the first.
    act(&mut s, Action::BuildTown { hex: h(1, -1) });
    assert_eq!(s.turn().stage, Stage::Move);
    let mut s = pos().build();
    act(&mut s, Action::BuildCity { hex: h(-3, 0) });
    assert_eq!(s.turn().stage, Stage::Move, "the upgrade took both actions");
}

/// Combat Supply: a city on each land terrain makes every die hit on 4 or less,
/// bombardment included; losing one of the cities ends it at once.
#[test]
fn expansion_combat_supply() {
    let pos = |supply: bool| {
        let p = Pos::new(2, Stage::Move)
            .rules(|r| r.combat_supply = true)
            .terrain(h(-3, 0), Terrain::Plains)
            .terrain(h(-3, 2), Terrain::Grassland)
            .terrain(h(-1, 2), Terrain::Forest)
            .terrain(h(-1, -2), Terrain::Mountain)
            .town(h(-3, 0), 0, true, true)
            .town(h(-3, 2), 0, true, false)
            .town(h(-1, 2), 0, true, false)
            .unit(1, 0, UnitKind::Artillery, h(0, 0))
            .unit(9, 1, UnitKind::Infantry, h(1, 0));
        p.town(h(-1, -2), 0, supply, false)
    };
    let mut s = pos(true).build();
    assert_eq!(s.hit_max_for(Seat(0)), 4);
    act(
        &mut s,
        Action::Bombard {
            unit: UnitId(1),
            target: h(1, 0),
        },
    );
    let events = dice(&mut s, &[4]);
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::UnitLost {
                unit: UnitId(9),
                ..
            }
        )),
        "{events:?}"
    );
    // With a town (not a city) on the mountain, there is no supply: a 4 misses.
    let mut s = pos(false).build();
    assert_eq!(s.hit_max_for(Seat(0)), 3);
    act(
        &mut s,
        Action::Bombard {
            unit: UnitId(1),
            target: h(1, 0),
        },
    );
    assert_eq!(dice(&mut s, &[4]).len(), 1);
}

/// Redeployment: during placement, units on the map may go back into the reserve, and
/// from there be placed again.
#[test]
fn expansion_redeployment() {
    let mut s = Pos::new(2, Stage::Place)
        .rules(|r| r.redeployment = true)
        .terrain(h(3, 0), Terrain::Water)
        .town(h(-3, 0), 0, false, true)
        .unit(1, 0, UnitKind::Infantry, h(2, -2))
        .unit(2, 0, UnitKind::Infantry, h(2, -1))
        .build();
    let events = act(&mut s, Action::Redeploy { unit: UnitId(1) });
    assert_eq!(
        events,
        vec![Event::Redeployed {
            unit: UnitId(1),
            kind: UnitKind::Infantry,
            hex: h(2, -2),
        }]
    );
    let events = act(
        &mut s,
        Action::Place {
            kind: UnitKind::Infantry,
            town: h(-3, 0),
            to: h(-3, 0),
        },
    );
    let placed = events
        .iter()
        .find_map(|e| match e {
            Event::UnitPlaced { unit, .. } => Some(*unit),
            _ => None,
        })
        .expect("placed");
    // H-20: the unit placed in this phase stays; the capital's unlimited placement
    // (13.4) would otherwise let redeploy-and-place go on for ever.
    assert_eq!(
        refused(&s, Action::Redeploy { unit: placed }),
        ("placed_this_phase", "H-20")
    );
    let s = Pos::new(2, Stage::Place)
        .town(h(-3, 0), 0, false, true)
        .unit(1, 0, UnitKind::Infantry, h(2, -2))
        .reserve(0, UnitKind::Infantry, 1)
        .build();
    assert_eq!(
        refused(&s, Action::Redeploy { unit: UnitId(1) }),
        ("not_enabled", "Expansion")
    );
}

/// H-20: a placement phase with Redeployment ends even for a player who never ends it:
/// each unit on the map goes back at most once, and what he placed stays.
#[test]
fn expansion_redeployment_ends() {
    let mut s = Pos::new(2, Stage::Place)
        .rules(|r| r.redeployment = true)
        .terrain(h(-3, 1), Terrain::Water)
        .town(h(-3, 0), 0, false, true)
        .town(h(3, -3), 1, false, true)
        .unit(1, 0, UnitKind::Infantry, h(2, -2))
        .unit(2, 0, UnitKind::Frigate, h(-3, 1))
        .cargo(3, 0, UnitKind::Cavalry, 2)
        .reserve(0, UnitKind::Artillery, 1)
        .build();
    let mut actions = 0;
    while s.turn().active == Seat(0) && s.turn().stage == Stage::Place {
        let legal = s.legal_actions();
        // Anything but ending the phase: redeploy first, then place.
        let a = legal
            .iter()
            .find(|a| matches!(a, Action::Redeploy { .. }))
            .or_else(|| legal.iter().find(|a| matches!(a, Action::Place { .. })))
            .copied()
            .unwrap_or(Action::EndPhase);
        act(&mut s, a);
        actions += 1;
        assert!(actions <= 20, "the placement phase does not end: {a:?}");
    }
    // Three units back in two redeployments (the cavalry goes with its frigate), four
    // placed; then nothing is left to do and the phase ends by itself.
    assert_eq!(actions, 6);
    assert_eq!(s.units().iter().filter(|u| u.owner == Seat(0)).count(), 4);
}

/// Bombard Attacks: Range Limitation: adjacent hexes only.
#[test]
fn expansion_bombard_range_limitation() {
    let s = Pos::new(2, Stage::Move)
        .rules(|r| r.bombard_range = 1)
        .unit(1, 0, UnitKind::Artillery, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(2, 0))
        .unit(8, 1, UnitKind::Infantry, h(1, -1))
        .build();
    assert_eq!(
        refused(
            &s,
            Action::Bombard {
                unit: UnitId(1),
                target: h(2, 0)
            }
        ),
        ("range", "11.0")
    );
    assert!(s.legal_actions().contains(&Action::Bombard {
        unit: UnitId(1),
        target: h(1, -1)
    }));
}

/// Plains Cities Enhancement: the upgrade of a plains town gives two more infantry, and
/// the city takes three at placement.
#[test]
fn expansion_plains_cities() {
    let mut s = Pos::new(2, Stage::Build)
        .rules(|r| r.plains_city_bonus = true)
        .town(h(-3, 0), 0, false, true)
        .town(h(0, 0), 0, false, false)
        .reserve(0, UnitKind::Infantry, 1)
        .build();
    let events = act(&mut s, Action::BuildCity { hex: h(0, 0) });
    let gained = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::UnitGained {
                    kind: UnitKind::Infantry,
                    ..
                }
            )
        })
        .count();
    assert_eq!(gained, 2);
    act(&mut s, Action::EndPhase);
    let place = Action::Place {
        kind: UnitKind::Infantry,
        town: h(0, 0),
        to: h(0, 0),
    };
    play(&mut s, &[place, place, place]);
    assert_eq!(s.supported(Seat(0)).infantry, 4);
}

/// Road/Ferry Movement Enhancement: a road may cross water.
#[test]
fn expansion_road_ferries() {
    let pos = |ferries: bool| {
        Pos::new(2, Stage::Move)
            .rules(|r| r.road_ferries = ferries)
            .terrain(h(-1, 0), Terrain::Water)
            .terrain(h(0, -1), Terrain::Water)
            .terrain(h(-1, 1), Terrain::Water)
            .town(h(-2, 0), 0, false, false)
            .town(h(0, 0), 0, false, false)
            .unit(1, 0, UnitKind::Infantry, h(-2, 0))
            .build()
    };
    assert!(pos(true).legal_actions().contains(&mv(1, 0, 0)));
    assert_eq!(refused(&pos(false), mv(1, 0, 0)), ("not_adjacent", "9.13"));
}

/// Adjacent Enemy Units Restriction Enhancement: no town built, and no upgrade, next to
/// enemy units.
#[test]
fn expansion_building_next_to_enemy_units() {
    let pos = |on: bool| {
        Pos::new(2, Stage::Build)
            .rules(|r| r.build_adjacent_enemy_restriction = on)
            .town(h(-3, 0), 0, false, true)
            .unit(9, 1, UnitKind::Infantry, h(-2, -1))
            .build()
    };
    let s = pos(true);
    assert_eq!(
        refused(&s, Action::BuildTown { hex: h(-1, -1) }),
        ("enemy_adjacent", "Expansion")
    );
    assert_eq!(
        refused(&s, Action::BuildCity { hex: h(-3, 0) }),
        ("enemy_adjacent", "Expansion")
    );
    let s = pos(false);
    assert!(
        s.legal_actions()
            .contains(&Action::BuildTown { hex: h(-1, -1) })
    );
    assert!(
        s.legal_actions()
            .contains(&Action::BuildCity { hex: h(-3, 0) })
    );
}

fn suppression_battle(town: bool, hits: &[u8]) -> usize {
    let mut p = Pos::new(2, Stage::Move)
        .rules(|r| r.suppression = Suppression::Clarified)
        .terrain(
            h(1, 0),
            if town {
                Terrain::Mountain
            } else {
                Terrain::Forest
            },
        )
        .terrain(h(2, 0), Terrain::Water)
        .unit(8, 1, UnitKind::Frigate, h(2, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Cavalry, h(0, 0))
        .unit(3, 0, UnitKind::Artillery, h(0, 0));
    if town {
        p = p.town(h(1, 0), 1, false, false);
    }
    let mut s = p.build();
    play(
        &mut s,
        &[
            mv(1, 1, 0),
            mv(2, 1, 0),
            mv(3, 1, 0),
            Action::Fight { hex: h(1, 0) },
        ],
    );
    dice(&mut s, &[6]); // pre-battle artillery misses
    dice(&mut s, hits);
    let mut events = Vec::new();
    while s.to_move() == ToMove::Chance {
        events.extend(act(&mut s, Action::Die { value: 6 }));
    }
    defence_dice(&events)
}

/// Defender Suppression Clarification, first example: an infantry in a forest with an
/// adjacent frigate; no dice are off limits, so four hits (one for the infantry, three
/// excess) leave the defender nothing to roll.
#[test]
fn expansion_suppression_clarification_example_1() {
    assert_eq!(suppression_battle(false, &[1, 2, 3, 3]), 0);
}

/// Second example: a mountain town with an adjacent frigate and an infantry: three dice
/// are off limits; three hits kill the infantry and suppress one die: three are rolled.
#[test]
fn expansion_suppression_clarification_example_2() {
    assert_eq!(suppression_battle(true, &[2, 2, 3, 6]), 3);
}

/// Cavalry Changes: cavalry ignores slow terrain and rolls one attack die; attackers
/// gain a die for each further hex side they entered the battle from.
#[test]
fn expansion_cavalry_and_hexside_bonus() {
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| r.cavalry_ignores_slow_terrain = true)
        .terrain(h(1, 0), Terrain::Forest)
        .unit(1, 0, UnitKind::Cavalry, h(0, 0))
        .build();
    play(&mut s, &[mv(1, 1, 0), mv(1, 2, 0)]);
    // Three land units from three hex sides: infantry 1 + cavalry 1 + two extra sides.
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| {
            r.hexside_bonus = true;
            r.attack_dice.cavalry = 1;
        })
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Cavalry, h(1, -1))
        .unit(3, 0, UnitKind::Infantry, h(2, -1))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .build();
    play(
        &mut s,
        &[
            mv(1, 1, 0),
            mv(2, 1, 0),
            mv(3, 1, 0),
            Action::Fight { hex: h(1, 0) },
        ],
    );
    let events = dice(&mut s, &[6, 6, 6, 6]);
    assert_eq!(events.len(), 4);
    assert!(matches!(
        events[3],
        Event::DieRolled {
            purpose: DiePurpose::Attack,
            ..
        }
    ));
    assert!(
        matches!(s.to_move(), ToMove::Chance),
        "the defender's die is next"
    );
}

/// Artillery Pre-Battle Fire Enhancement: the defending artillery fires in the pre-battle
/// segment as well; casualties of both sides are then removed together.
#[test]
fn expansion_defender_pre_battle_fire() {
    let pos = |on: bool| {
        let mut s = Pos::new(2, Stage::Move)
            .rules(|r| r.defender_pre_battle_fire = on)
            .unit(1, 0, UnitKind::Infantry, h(0, 0))
            .unit(2, 0, UnitKind::Artillery, h(0, 0))
            .unit(9, 1, UnitKind::Infantry, h(1, 0))
            .unit(8, 1, UnitKind::Artillery, h(1, 0))
            .build();
        play(
            &mut s,
            &[mv(1, 1, 0), mv(2, 1, 0), Action::Fight { hex: h(1, 0) }],
        );
        s
    };
    let mut s = pos(true);
    let events = dice(&mut s, &[6, 2]);
    assert_eq!(
        events,
        vec![
            Event::DieRolled {
                seat: Seat(0),
                purpose: DiePurpose::PreBattle,
                value: 6
            },
            Event::DieRolled {
                seat: Seat(1),
                purpose: DiePurpose::PreBattle,
                value: 2
            },
        ]
    );
    // A regular hit on the attacker: he picks which of his own units is lost.
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    let events = act(&mut s, Action::Casualty { unit: UnitId(2) });
    assert_eq!(events[1], Event::RoundStarted { round: 1 });
    // Without the option only the attacker's artillery fires before the round.
    let mut s = pos(false);
    let events = dice(&mut s, &[6]);
    assert_eq!(events[1], Event::RoundStarted { round: 1 });
}

/// Optional Quicker Victory Condition: holding his capital, the first player worth the
/// points (1 per town, 2 per city, +2 per enemy capital) wins at once.
#[test]
fn expansion_quicker_victory() {
    let mut s = Pos::new(2, Stage::Build)
        .rules(|r| {
            r.victory = vec![
                viktory::Victory::StandardConquest,
                viktory::Victory::QuickerVictory,
            ];
            r.quick_victory_points = Some(6);
        })
        .town(h(-3, 0), 0, true, true)
        .captured_capital(h(0, 0), 0, false, 1)
        .town(h(3, -3), 1, false, false)
        .build();
    // 2 (capital city) + 1 (town) + 2 (an enemy capital) = 5.
    assert_eq!(viktory::rules::victory::quick_points(&s, Seat(0)), 5);
    let events = act(&mut s, Action::BuildTown { hex: h(-1, -1) });
    assert!(
        matches!(events.last(), Some(Event::GameOver { outcome }) if outcome.winners == [Seat(0)] && outcome.reason == "quicker victory")
    );
    // The default targets follow the rulebook's table.
    let s = Pos::new(4, Stage::Build)
        .rules(|r| r.victory.push(viktory::Victory::QuickerVictory))
        .build();
    assert_eq!(viktory::rules::victory::quick_target(&s), 18);
}

/// Map Exploration & Customization: the hexes a move reveals get tiles drawn from the
/// pile, one chance action per tile, which the mover then lays where he likes; the other
/// seats learn the tiles only as they are laid.
#[test]
fn expansion_map_customization() {
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| r.map_customization = true)
        .face_down(h(2, -1), Terrain::Forest)
        .face_down(h(2, 0), Terrain::Water)
        .face_down(h(1, 1), Terrain::Mountain)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .build();
    act(&mut s, mv(1, 1, 0));
    assert_eq!(s.to_move(), ToMove::Chance);
    let draw = |t| Action::Draw { terrain: t };
    assert_eq!(s.chance_outcomes().len(), 3);
    let events = play(&mut s, &[draw(Terrain::Forest), draw(Terrain::Water)]);
    assert_eq!(
        events[0],
        Event::Drew {
            seat: Seat(0),
            terrain: Some(Terrain::Forest)
        }
    );
    assert_eq!(
        s.event_for(&events[0], Some(Seat(1))),
        Some(Event::Drew {
            seat: Seat(0),
            terrain: None
        })
    );
    act(&mut s, draw(Terrain::Mountain));
    // Seat 1 does not see the hand: the three tiles are still "in the pile" for him.
    assert!(s.view(Some(Seat(1))).position.drawn.is_empty());
    assert_eq!(s.view(Some(Seat(1))).position.bank.unwrap().total(), 3);
    assert_eq!(s.view(Some(Seat(0))).position.drawn.len(), 3);
    // Seat 0 lays them: the mountain where the forest was expected, and so on.
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    let events = act(
        &mut s,
        Action::Arrange {
            hex: h(2, -1),
            terrain: Terrain::Mountain,
        },
    );
    assert_eq!(
        events,
        vec![Event::Revealed {
            hex: h(2, -1),
            terrain: Terrain::Mountain
        }]
    );
    act(
        &mut s,
        Action::Arrange {
            hex: h(1, 1),
            terrain: Terrain::Water,
        },
    );
    // The last tile has one place left: laid at once.
    assert_eq!(s.terrain(h(2, 0)), Some(Terrain::Forest));
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert!(s.legal_actions().contains(&mv(1, 2, -1)));
}

/// Map customization: a draw of nothing but water may have one tile put back and
/// replaced by the first land tile drawn.
#[test]
fn expansion_map_customization_all_water_redraw() {
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| r.map_customization = true)
        .face_down(h(2, -1), Terrain::Water)
        .face_down(h(2, 0), Terrain::Water)
        .face_down(h(3, -3), Terrain::Grassland)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .terrain(h(1, 1), Terrain::Plains)
        .build();
    act(&mut s, mv(1, 1, 0));
    play(
        &mut s,
        &[
            Action::Draw {
                terrain: Terrain::Water,
            },
            Action::Draw {
                terrain: Terrain::Water,
            },
        ],
    );
    assert_eq!(
        s.legal_actions(),
        vec![
            Action::RedrawWater { redraw: false },
            Action::RedrawWater { redraw: true }
        ]
    );
    act(&mut s, Action::RedrawWater { redraw: true });
    assert_eq!(
        s.chance_outcomes(),
        vec![(
            Action::Draw {
                terrain: Terrain::Grassland
            },
            1
        )]
    );
    act(
        &mut s,
        Action::Draw {
            terrain: Terrain::Grassland,
        },
    );
    act(
        &mut s,
        Action::Arrange {
            hex: h(2, 0),
            terrain: Terrain::Grassland,
        },
    );
    assert_eq!(s.terrain(h(2, -1)), Some(Terrain::Water));
    assert_eq!(s.bank().water, 1);
}

/// 7–8 Player Starting Positions (R-5): the centre player (seat 0) goes first with the
/// centre hex and six around it (accelerator: seven hexes); with 8 players two centre
/// groups on ring 2; the perimeter players follow clockwise.
#[test]
fn expansion_seven_and_eight_players() {
    for players in [7u8, 8] {
        let setup = Viktory::new_setup(&engine::NewGame {
            preset: Some("expansion".into()),
            options: serde_json::Map::new(),
            players: Some(players),
        })
        .unwrap();
        let mut s = Viktory::from_setup(&setup).unwrap();
        assert_eq!(s.board().side(), 8);
        assert_eq!(
            s.legal_actions(),
            vec![Action::FirstPlayer { seat: Seat(0) }]
        );
        act(&mut s, Action::FirstPlayer { seat: Seat(0) });
        let waiting = s.pending_reveals().to_vec();
        if players == 7 {
            assert_eq!(waiting.len(), 7);
            assert_eq!(waiting[0], h(0, 0));
        } else {
            assert_eq!(waiting.len(), 5);
            assert!(waiting.iter().all(|x| x.distance(h(0, 0)) == 2));
        }
    }
}

/// Optional Quicker Game Setup (H-28): the map starts face up; after the capitals the
/// players build in turn, one build each, until everyone passes; then each places the
/// units his towns and cities support; then the first player is drawn and turn 1 begins.
#[test]
fn expansion_quicker_game_setup() {
    let setup = Viktory::new_setup(&engine::NewGame {
        preset: Some("classic".into()),
        options: serde_json::from_str(r#"{"quicker_game_setup": true}"#).unwrap(),
        players: Some(2),
    })
    .unwrap();
    let mut s = Viktory::from_setup(&setup).unwrap();
    let mut rng = engine::GameRng::from_u64(3);
    let mut stages = Vec::new();
    let mut builders = Vec::new();
    while s.turn().number == 0 {
        if stages.last() != Some(&s.turn().stage) {
            stages.push(s.turn().stage);
        }
        let action = match s.to_move() {
            ToMove::Chance => s.sample_chance(&mut rng),
            ToMove::Seat(seat) => {
                let legal = s.legal_actions();
                // Build or place whatever comes first; found the first capital offered.
                let pick = legal
                    .iter()
                    .find(|a| !matches!(a, Action::EndPhase))
                    .copied()
                    .unwrap_or(Action::EndPhase);
                if s.turn().stage == Stage::SetupBuild {
                    assert_eq!(s.bank().total(), 0, "the map is face up");
                    if matches!(pick, Action::BuildTown { .. } | Action::BuildCity { .. }) {
                        builders.push(seat);
                    }
                }
                pick
            }
            ToMove::Over(_) => panic!("the setup never ends the game"),
        };
        s.apply(action).unwrap();
    }
    assert_eq!(
        stages,
        vec![
            Stage::FirstPlayer,
            Stage::Opening,
            Stage::SetupBuild,
            Stage::SetupPlace,
            Stage::FirstPlayer
        ]
    );
    // One build per player per round: the builders alternate while both can build.
    assert!(builders.len() >= 4, "{builders:?}");
    assert!(
        builders.windows(2).take(3).all(|w| w[0] != w[1]),
        "{builders:?}"
    );
    // Every supported unit is on the map, and the game is in its first turn.
    for p in [Seat(0), Seat(1)] {
        assert_eq!(s.player(p).reserve.total(), 0, "{p} placed everything");
        assert!(s.towns().filter(|(_, t)| t.owner == p).count() >= 3);
    }
    assert_eq!(s.turn().number, 1);
    assert!(matches!(s.turn().stage, Stage::Build | Stage::Move));
    // It conflicts with exploring options.
    let err = Viktory::new_setup(&engine::NewGame {
        preset: Some("expansion".into()),
        options: serde_json::from_str(r#"{"quicker_game_setup": true}"#).unwrap(),
        players: Some(2),
    })
    .unwrap_err();
    assert_eq!(err.0[0].code, "conflicting_options");
}
