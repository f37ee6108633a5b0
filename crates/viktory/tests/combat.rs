//! Scenario tests for 10.0 Combat, 11.0 Bombard Attacks and 12.0 Battle Attacks, with the
//! rulebook's worked examples, R-12, R-13, R-14, R-15, R-16.

mod common;

use common::*;
use engine::{Game, Seat, ToMove};
use viktory::board::Terrain;
use viktory::event::DiePurpose;
use viktory::state::Stage;
use viktory::{Action, Event, UnitId, UnitKind};

fn bombard(unit: u16, q: i32, r: i32) -> Action {
    Action::Bombard {
        unit: UnitId(unit),
        target: h(q, r),
    }
}

fn lost(unit: u16, owner: u8, kind: UnitKind, chosen_by: u8) -> Event {
    Event::UnitLost {
        unit: UnitId(unit),
        owner: Seat(owner),
        kind,
        chosen_by: Seat(chosen_by),
    }
}

fn rolled(seat: u8, purpose: DiePurpose, value: u8) -> Event {
    Event::DieRolled {
        seat: Seat(seat),
        purpose,
        value,
    }
}

fn casualty(unit: u16) -> Action {
    Action::Casualty { unit: UnitId(unit) }
}

/// The example after 11.4: red's artillery, three hexes from yellow's frigate, moves one
/// hex across grassland, bombards at two hexes tracing through the plains beside the
/// mountain, rolls a 1, sinks the frigate, and can move no further.
#[test]
fn rule_11_4_bombard_example() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(0, 0), Terrain::Grassland)
        .terrain(h(1, 0), Terrain::Mountain)
        .terrain(h(0, 1), Terrain::Plains)
        .terrain(h(1, 1), Terrain::Water)
        .unit(1, 0, UnitKind::Artillery, h(-1, 0))
        .unit(9, 1, UnitKind::Frigate, h(1, 1))
        .build();
    assert_eq!(refused(&s, bombard(1, 1, 1)), ("range", "11.0"));
    act(&mut s, mv(1, 0, 0));
    let events = act(&mut s, bombard(1, 1, 1));
    assert_eq!(
        events,
        vec![Event::Bombarded {
            unit: UnitId(1),
            target: h(1, 1)
        }]
    );
    assert_eq!(s.to_move(), ToMove::Chance);
    let events = dice(&mut s, &[1]);
    assert_eq!(
        events,
        vec![
            rolled(0, DiePurpose::Bombard, 1),
            lost(9, 1, UnitKind::Frigate, 0)
        ]
    );
    assert_eq!(s.player(Seat(1)).reserve.frigate, 1);
    // 10.7: the attack ended the artillery's movement though it had a point left.
    assert_eq!(refused(&s, mv(1, 1, -1)), ("attacked", "10.7"));
}

/// 11.2, R-12: two-hex bombardment "along a hexside" needs one of the two hexes between
/// free of blocking terrain (forest, mountain, any town or city); range 1 is never blocked.
#[test]
fn rule_11_2_line_of_sight() {
    let base = || {
        Pos::new(2, Stage::Move)
            .terrain(h(1, 0), Terrain::Mountain)
            .unit(1, 0, UnitKind::Artillery, h(0, 0))
            .unit(9, 1, UnitKind::Infantry, h(1, 1))
    };
    let s = base().terrain(h(0, 1), Terrain::Forest).build();
    assert_eq!(refused(&s, bombard(1, 1, 1)), ("line_of_sight", "11.2"));
    let s = base().town(h(0, 1), 1, false, false).build();
    assert_eq!(refused(&s, bombard(1, 1, 1)), ("line_of_sight", "11.2"));
    let mut s = base().build();
    act(&mut s, bombard(1, 1, 1));
    // Straight two-hex line: the single hex between decides.
    let s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Forest)
        .unit(1, 0, UnitKind::Artillery, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(2, 0))
        .unit(8, 1, UnitKind::Infantry, h(1, 0))
        .build();
    assert_eq!(refused(&s, bombard(1, 2, 0)), ("line_of_sight", "11.2"));
    assert!(s.legal_actions().contains(&bombard(1, 1, 0)));
}

/// bombarding water hits only frigates; bombarding land never hits frigates.
#[test]
fn r13_bombard_targets() {
    let s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Water)
        .unit(1, 0, UnitKind::Artillery, h(0, 0))
        .unit(9, 1, UnitKind::Frigate, h(1, 0))
        .cargo(8, 1, UnitKind::Infantry, 9)
        .unit(7, 1, UnitKind::Infantry, h(0, 1))
        .build();
    let targets: Vec<_> = s
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Bombard { .. }))
        .collect();
    assert_eq!(targets, vec![bombard(1, 1, 0), bombard(1, 0, 1)]);
    let s = Pos::new(2, Stage::Move)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .build();
    assert_eq!(refused(&s, bombard(1, 1, 0)), ("cannot_bombard", "11.0"));
}

/// 10.1: a 1 lets the roller choose the casualty; a 2 or 3 lets the owner choose.
#[test]
fn rule_10_1_who_chooses_the_casualty() {
    let pos = || {
        Pos::new(2, Stage::Move)
            .unit(1, 0, UnitKind::Artillery, h(0, 0))
            .unit(9, 1, UnitKind::Infantry, h(1, 0))
            .unit(8, 1, UnitKind::Cavalry, h(1, 0))
    };
    let mut s = pos().build();
    act(&mut s, bombard(1, 1, 0));
    dice(&mut s, &[1]);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(s.legal_actions(), vec![casualty(8), casualty(9)]);
    assert_eq!(
        act(&mut s, casualty(8)),
        vec![lost(8, 1, UnitKind::Cavalry, 0)]
    );
    let mut s = pos().build();
    act(&mut s, bombard(1, 1, 0));
    dice(&mut s, &[3]);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(1)));
    assert_eq!(
        act(&mut s, casualty(9)),
        vec![lost(9, 1, UnitKind::Infantry, 1)]
    );
    // A 4 misses.
    let mut s = pos().build();
    act(&mut s, bombard(1, 1, 0));
    assert_eq!(dice(&mut s, &[4]), vec![rolled(0, DiePurpose::Bombard, 4)]);
    assert_eq!(s.units().len(), 3);
}

/// with `auto_casualties`, the owner's own choice is made by the fixed policy
/// (infantry first).
#[test]
fn r14_auto_casualties() {
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| r.auto_casualties = true)
        .unit(1, 0, UnitKind::Artillery, h(0, 0))
        .unit(9, 1, UnitKind::Cavalry, h(1, 0))
        .unit(8, 1, UnitKind::Infantry, h(1, 0))
        .build();
    act(&mut s, bombard(1, 1, 0));
    assert_eq!(dice(&mut s, &[2])[1], lost(8, 1, UnitKind::Infantry, 1));
}

/// 10.6: one attack per unit per turn.
#[test]
fn rule_10_6_one_attack_per_turn() {
    let mut s = Pos::new(2, Stage::Move)
        .unit(1, 0, UnitKind::Artillery, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .unit(8, 1, UnitKind::Infantry, h(2, 0))
        .build();
    act(&mut s, bombard(1, 1, 0));
    dice(&mut s, &[6]);
    assert_eq!(refused(&s, bombard(1, 2, 0)), ("attacked", "10.6"));
    assert_eq!(refused(&s, mv(1, 1, 0)), ("attacked", "10.7"));
}

/// The Battle Attack example after 12.3: red takes yellow's mountain city.
///
/// Yellow (seat 1) holds a mountain city at (0,0) with two infantry and an artillery; its
/// frigate lies at (0,1), one of two water hexes beside the city ((1,-1) and (0,1)) whose
/// other common neighbour is the grassland (1,0). Red (seat 0) has two infantry and a
/// cavalry on the plains two hexes away at (-2,0), and a frigate at (2,-1) beside the
/// forest (2,-2) where two artillery and an infantry wait.
#[test]
fn rule_12_3_battle_example() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(0, 0), Terrain::Mountain)
        .terrain(h(1, 0), Terrain::Grassland)
        .terrain(h(1, -1), Terrain::Water)
        .terrain(h(0, 1), Terrain::Water)
        .terrain(h(2, -1), Terrain::Water)
        .terrain(h(2, -2), Terrain::Forest)
        .terrain(h(-2, 3), Terrain::Forest)
        .town(h(0, 0), 1, true, false)
        .town(h(-2, 3), 1, true, true)
        .town(h(-3, 0), 0, false, true)
        .unit(20, 1, UnitKind::Infantry, h(0, 0))
        .unit(21, 1, UnitKind::Infantry, h(0, 0))
        .unit(22, 1, UnitKind::Artillery, h(0, 0))
        .unit(23, 1, UnitKind::Frigate, h(0, 1))
        .unit(1, 0, UnitKind::Infantry, h(-2, 0))
        .unit(2, 0, UnitKind::Infantry, h(-2, 0))
        .unit(3, 0, UnitKind::Cavalry, h(-2, 0))
        .unit(4, 0, UnitKind::Frigate, h(2, -1))
        .unit(5, 0, UnitKind::Artillery, h(2, -2))
        .unit(6, 0, UnitKind::Artillery, h(2, -2))
        .unit(7, 0, UnitKind::Infantry, h(2, -2))
        .build();
    // The frigate loads and sails beside the city.
    play(
        &mut s,
        &[
            Action::Embark {
                unit: UnitId(5),
                frigate: UnitId(4),
            },
            Action::Embark {
                unit: UnitId(6),
                frigate: UnitId(4),
            },
            Action::Embark {
                unit: UnitId(7),
                frigate: UnitId(4),
            },
            mv(4, 1, -1),
        ],
    );
    // Its bombardment of yellow's frigate is traced through the grassland (the city
    // blocks the other way) and misses with a 5.
    act(&mut s, bombard(4, 0, 1));
    assert_eq!(dice(&mut s, &[5]), vec![rolled(0, DiePurpose::Bombard, 5)]);
    // The cargo lands in the city (an amphibious attack) and the plains force marches in.
    play(
        &mut s,
        &[
            Action::Disembark {
                unit: UnitId(5),
                to: h(0, 0),
            },
            Action::Disembark {
                unit: UnitId(6),
                to: h(0, 0),
            },
            Action::Disembark {
                unit: UnitId(7),
                to: h(0, 0),
            },
            mv(1, -1, 0),
            mv(1, 0, 0),
            mv(2, -1, 0),
            mv(2, 0, 0),
            mv(3, -1, 0),
            mv(3, 0, 0),
        ],
    );
    assert_eq!(ids_at(&s, h(0, 0)), [1, 2, 3, 5, 6, 7, 20, 21, 22]);
    let mut events = act(&mut s, Action::Fight { hex: h(0, 0) });
    // Pre-battle fire: a miss, then a 1 (tactical victory): red picks the artillery.
    events.extend(dice(&mut s, &[6, 1]));
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    events.extend(act(&mut s, casualty(22)));
    // Attacker's fire: four dice (infantry 1, cavalry 2, artillery 1); three hits, one a 1.
    events.extend(dice(&mut s, &[1, 2, 3, 6]));
    // One hit beyond the two defenders suppresses the defender's single unit die: he
    // rolls three (two for the mountain city, one naval support), all hits, two 1s.
    events.extend(dice(&mut s, &[1, 1, 3]));
    // Yellow's two tactical victories: the cavalry and an artillery.
    assert_eq!(s.to_move(), ToMove::Seat(Seat(1)));
    events.extend(act(&mut s, casualty(3)));
    events.extend(act(&mut s, casualty(5)));
    // Red assigns the last hit: an infantry.
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    events.extend(act(&mut s, casualty(7)));
    assert_eq!(
        events,
        vec![
            Event::BattleStarted {
                hex: h(0, 0),
                attacker: Seat(0),
                defender: Seat(1)
            },
            rolled(0, DiePurpose::PreBattle, 6),
            rolled(0, DiePurpose::PreBattle, 1),
            lost(22, 1, UnitKind::Artillery, 0),
            Event::RoundStarted { round: 1 },
            rolled(0, DiePurpose::Attack, 1),
            rolled(0, DiePurpose::Attack, 2),
            rolled(0, DiePurpose::Attack, 3),
            rolled(0, DiePurpose::Attack, 6),
            Event::Suppressed { dice: 1 },
            rolled(1, DiePurpose::Defense, 1),
            rolled(1, DiePurpose::Defense, 1),
            rolled(1, DiePurpose::Defense, 3),
            // Casualties are chosen once both sides have fired, then removed together:
            // red's 1 picks an infantry (both alike), the other hits take the other.
            lost(20, 1, UnitKind::Infantry, 0),
            lost(21, 1, UnitKind::Infantry, 1),
            lost(3, 0, UnitKind::Cavalry, 1),
            lost(5, 0, UnitKind::Artillery, 1),
            lost(7, 0, UnitKind::Infantry, 0),
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
            Event::UnitGained {
                seat: Seat(0),
                kind: UnitKind::Infantry
            },
            Event::UnitGained {
                seat: Seat(0),
                kind: UnitKind::Artillery
            },
            Event::Disbanded {
                seat: Seat(1),
                kind: UnitKind::Infantry,
                unit: None,
                hex: None
            },
            Event::Disbanded {
                seat: Seat(1),
                kind: UnitKind::Artillery,
                unit: None,
                hex: None
            },
        ]
    );
    // Red holds the city with two infantry and an artillery.
    assert_eq!(ids_at(&s, h(0, 0)), [1, 2, 6]);
    assert_eq!(s.town(h(0, 0)).unwrap().owner, Seat(0));
    // Economic adjustment: yellow keeps one infantry of his three losses; red's reserve
    // holds his three losses and the city's two units.
    let yellow = s.player(Seat(1)).reserve;
    assert_eq!((yellow.infantry, yellow.artillery), (1, 0));
    let red = s.player(Seat(0)).reserve;
    assert_eq!((red.infantry, red.cavalry, red.artillery), (2, 1, 2));
    // Yellow's frigate beside the city stops red reinforcing it (13.2).
    act(&mut s, Action::EndPhase);
    assert_eq!(
        refused(
            &s,
            Action::Place {
                kind: UnitKind::Infantry,
                town: h(0, 0),
                to: h(0, 0)
            }
        ),
        ("enemy_adjacent", "13.2")
    );
}

/// 12.3 step 2, "For Example": an undefended mountain town with an adjacent frigate still
/// fights one round: the defender rolls two terrain dice and one naval support die.
#[test]
fn rule_12_3_undefended_mountain_town_example() {
    let pos = || {
        Pos::new(2, Stage::Move)
            .terrain(h(1, 0), Terrain::Mountain)
            .terrain(h(2, 0), Terrain::Water)
            .terrain(h(-2, 3), Terrain::Forest)
            .town(h(1, 0), 1, false, false)
            .town(h(-2, 3), 1, true, true)
            .reserve(1, UnitKind::Infantry, 2)
            .unit(9, 1, UnitKind::Frigate, h(2, 0))
            .unit(1, 0, UnitKind::Infantry, h(0, 0))
            .unit(2, 0, UnitKind::Infantry, h(0, 1))
    };
    let mut s = pos().build();
    play(
        &mut s,
        &[mv(1, 1, 0), mv(2, 1, 0), Action::Fight { hex: h(1, 0) }],
    );
    // The attacker has nothing to shoot at; the defender's three dice come at once. One
    // hit: one attacker survives the round and takes the town.
    let events = dice(&mut s, &[4, 2, 6]);
    assert_eq!(
        events,
        vec![
            rolled(1, DiePurpose::Defense, 4),
            rolled(1, DiePurpose::Defense, 2),
            rolled(1, DiePurpose::Defense, 6),
            lost(1, 0, UnitKind::Infantry, 0),
            Event::BattleEnded {
                hex: h(1, 0),
                winner: Seat(0)
            },
            Event::Captured {
                hex: h(1, 0),
                from: Seat(1),
                to: Seat(0),
                city: false
            },
            Event::UnitGained {
                seat: Seat(0),
                kind: UnitKind::Infantry
            },
            Event::Disbanded {
                seat: Seat(1),
                kind: UnitKind::Infantry,
                unit: None,
                hex: None
            },
        ]
    );
    assert_eq!(s.town(h(1, 0)).unwrap().owner, Seat(0));
    // Three hits kill both attackers: the defender keeps the town.
    let mut s = pos().build();
    play(
        &mut s,
        &[mv(1, 1, 0), mv(2, 1, 0), Action::Fight { hex: h(1, 0) }],
    );
    let events = dice(&mut s, &[1, 2, 3]);
    assert!(events.contains(&Event::BattleEnded {
        hex: h(1, 0),
        winner: Seat(1)
    }));
    assert_eq!(s.town(h(1, 0)).unwrap().owner, Seat(1));
    assert_eq!(s.player(Seat(0)).reserve.infantry, 2);
    assert_eq!(s.player(Seat(1)).reserve.infantry, 2);
}

/// 12.3 step 0: outside a town, a defence wiped out by pre-battle fire loses at once.
#[test]
fn rule_12_3_step_0_pre_battle_fire_can_end_the_battle() {
    let mut s = Pos::new(2, Stage::Move)
        .unit(1, 0, UnitKind::Artillery, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .build();
    play(
        &mut s,
        &[mv(1, 1, 0), mv(2, 1, 0), Action::Fight { hex: h(1, 0) }],
    );
    let events = dice(&mut s, &[2]);
    assert_eq!(
        events,
        vec![
            rolled(0, DiePurpose::PreBattle, 2),
            lost(9, 1, UnitKind::Infantry, 1),
            Event::BattleEnded {
                hex: h(1, 0),
                winner: Seat(0)
            },
        ]
    );
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
}

/// 12.31 / R-15 (classic): suppression takes only the defender's unit dice, never the
/// terrain or naval support dice.
#[test]
fn rule_12_31_suppression_spares_terrain_dice() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Forest)
        .unit(1, 0, UnitKind::Cavalry, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .build();
    play(
        &mut s,
        &[mv(1, 1, 0), mv(2, 1, 0), Action::Fight { hex: h(1, 0) }],
    );
    // Three dice (infantry 1, cavalry 2), three hits on one defender: two excess hits
    // remove the infantry die; the forest die remains.
    let events = dice(&mut s, &[2, 2, 2]);
    assert_eq!(events.last(), Some(&Event::Suppressed { dice: 1 }));
    let events = dice(&mut s, &[5]);
    assert!(events.contains(&Event::BattleEnded {
        hex: h(1, 0),
        winner: Seat(0)
    }));
}

/// 12.33: a frigate supports only a hex holding defending land units or a town or city;
/// such an empty hex can be moved through freely.
#[test]
fn rule_12_33_naval_support_limitation() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(2, 0), Terrain::Water)
        .unit(9, 1, UnitKind::Frigate, h(2, 0))
        .unit(1, 0, UnitKind::Cavalry, h(0, 0))
        .build();
    play(&mut s, &[mv(1, 1, 0), mv(1, 1, 1)]);
    assert!(s.turn().pending_battles.is_empty());
    // With a defending infantry there, the frigate adds its die: two in all.
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(2, 0), Terrain::Water)
        .unit(9, 1, UnitKind::Frigate, h(2, 0))
        .unit(8, 1, UnitKind::Infantry, h(1, 0))
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .build();
    play(&mut s, &[mv(1, 1, 0), Action::Fight { hex: h(1, 0) }]);
    dice(&mut s, &[6]);
    dice(&mut s, &[6, 6]);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)), "the retreat option");
}

/// 12.3 step 3: retreat only to hexes the attack came from, all units, onto frigates
/// for land units that came by sea; the defender wins; R-16: no second battle there.
#[test]
fn rule_12_3_step_3_retreat() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(1, 1), Terrain::Water)
        .unit(4, 0, UnitKind::Frigate, h(1, 1))
        .cargo(5, 0, UnitKind::Infantry, 4)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(3, 0, UnitKind::Infantry, h(-1, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .unit(8, 1, UnitKind::Infantry, h(1, 0))
        .build();
    play(
        &mut s,
        &[
            mv(1, 1, 0),
            Action::Disembark {
                unit: UnitId(5),
                to: h(1, 0),
            },
            Action::Fight { hex: h(1, 0) },
        ],
    );
    // One die a side (one unit type each); both miss: retreat or fight on.
    dice(&mut s, &[6]);
    dice(&mut s, &[6]);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    let mut legal = s.legal_actions();
    legal.sort();
    assert_eq!(
        legal,
        vec![
            Action::Continue,
            Action::Retreat {
                unit: UnitId(1),
                to: h(0, 0)
            },
            Action::Retreat {
                unit: UnitId(1),
                to: h(1, 1)
            },
            Action::Retreat {
                unit: UnitId(5),
                to: h(0, 0)
            },
            Action::Retreat {
                unit: UnitId(5),
                to: h(1, 1)
            },
        ]
    );
    act(
        &mut s,
        Action::Retreat {
            unit: UnitId(5),
            to: h(1, 1),
        },
    );
    assert_eq!(refused(&s, Action::Continue), ("retreating", "12.3"));
    let events = act(
        &mut s,
        Action::Retreat {
            unit: UnitId(1),
            to: h(0, 0),
        },
    );
    assert_eq!(
        events,
        vec![
            Event::Retreated {
                unit: UnitId(1),
                to: h(0, 0)
            },
            Event::BattleEnded {
                hex: h(1, 0),
                winner: Seat(1)
            },
        ]
    );
    assert_eq!(s.unit(UnitId(5)).unwrap().aboard, Some(UnitId(4)));
    // no second battle at (1,0) this turn; the retreated units cannot move.
    let mut s2 = s.clone();
    act(&mut s2, mv(3, 0, 0));
    assert_eq!(refused(&s2, mv(3, 1, 0)), ("battle_fought", "12.2"));
}

/// 12.3 step 3: no retreat when the defence is gone; repeated rounds until one side is
/// left.
#[test]
fn rule_12_3_rounds_repeat_until_one_side_is_left() {
    let mut s = Pos::new(2, Stage::Move)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .build();
    play(&mut s, &[mv(1, 1, 0), Action::Fight { hex: h(1, 0) }]);
    dice(&mut s, &[5, 5]);
    act(&mut s, Action::Continue);
    let events = dice(&mut s, &[3, 2]);
    assert!(
        events.contains(&Event::BattleEnded {
            hex: h(1, 0),
            winner: Seat(1)
        }),
        "both die: the defender prevails"
    );
    assert!(s.units().is_empty());
}

/// Naval battles: one die a side; a frigate's cargo sinks with it.
#[test]
fn rule_12_3_naval_battle() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(0, 0), Terrain::Water)
        .terrain(h(1, 0), Terrain::Water)
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .unit(9, 1, UnitKind::Frigate, h(1, 0))
        .cargo(8, 1, UnitKind::Cavalry, 9)
        .build();
    play(&mut s, &[mv(1, 1, 0), Action::Fight { hex: h(1, 0) }]);
    let events = dice(&mut s, &[2, 4]);
    assert_eq!(
        events,
        vec![
            rolled(0, DiePurpose::Attack, 2),
            rolled(1, DiePurpose::Defense, 4),
            lost(9, 1, UnitKind::Frigate, 1),
            lost(8, 1, UnitKind::Cavalry, 0),
            Event::BattleEnded {
                hex: h(1, 0),
                winner: Seat(0)
            },
        ]
    );
}

/// after a won battle the hex may be entered as ordinary movement.
#[test]
fn r16_entering_a_won_battle_hex() {
    let mut s = Pos::new(2, Stage::Move)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, 1))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .build();
    play(&mut s, &[mv(1, 1, 0), Action::Fight { hex: h(1, 0) }]);
    dice(&mut s, &[2, 6]);
    act(&mut s, mv(2, 1, 0));
    assert_eq!(ids_at(&s, h(1, 0)), [1, 2]);
}

/// 12.32: one frigate supports every adjacent hex under attack, battle after battle.
#[test]
fn rule_12_32_a_frigate_supports_every_adjacent_battle() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Water)
        .unit(9, 1, UnitKind::Frigate, h(1, 0))
        .unit(8, 1, UnitKind::Infantry, h(1, -1))
        .unit(7, 1, UnitKind::Infantry, h(0, 1))
        .unit(1, 0, UnitKind::Infantry, h(0, -1))
        .unit(2, 0, UnitKind::Infantry, h(-1, 1))
        .build();
    for (unit, target) in [(1, h(1, -1)), (2, h(0, 1))] {
        play(
            &mut s,
            &[
                Action::Move {
                    unit: UnitId(unit),
                    to: target,
                },
                Action::Fight { hex: target },
            ],
        );
        dice(&mut s, &[6]);
        // Infantry die plus the frigate's naval support die: two dice each time.
        let events = dice(&mut s, &[6, 6]);
        assert_eq!(events.len(), 2, "{events:?}");
        act(
            &mut s,
            Action::Retreat {
                unit: UnitId(unit),
                to: if unit == 1 { h(0, -1) } else { h(-1, 1) },
            },
        );
    }
}

/// 11.3: a frigate with cargo may bombard, and then still drop its cargo from that hex.
#[test]
fn rule_11_3_frigate_with_cargo_bombards_then_unloads() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(0, 0), Terrain::Water)
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .cargo(2, 0, UnitKind::Infantry, 1)
        .unit(9, 1, UnitKind::Infantry, h(2, -1))
        .build();
    act(&mut s, bombard(1, 2, -1));
    dice(&mut s, &[5]);
    assert_eq!(refused(&s, mv(1, 1, 0)), ("attacked", "10.7"));
    act(
        &mut s,
        Action::Disembark {
            unit: UnitId(2),
            to: h(1, -1),
        },
    );
    assert_eq!(ids_at(&s, h(1, -1)), [2]);
}
