//! 15.6 Subjugation, 5.2 Subjugation Conquest and the Expansion's Optional Subjugation
//! Victory Condition, with scripted dice; and classic 14.0 with the option off.

mod common;

use common::*;
use engine::{Game, Seat, ToMove};
use viktory::board::Terrain;
use viktory::rules::subjugation::HandoverStep;
use viktory::state::Stage;
use viktory::{Action, Event, UnitId, UnitKind, Victory, Viktory};

/// Three players with subjugation: seat 0 (capital (-3,0), infantry 1 and 2 next to
/// seat 1's undefended capital town at (1,0)); seat 1 has an infantry in reserve; seat
/// 2's capital is at (0,-3).
fn pos(players: u8) -> Pos {
    Pos::new(players, Stage::Move)
        .rules(|r| {
            r.subjugation = true;
            r.victory = vec![Victory::SubjugationConquest];
        })
        .town(h(-3, 0), 0, false, true)
        .town(h(1, 0), 1, false, true)
        .reserve(1, UnitKind::Infantry, 1)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, 1))
}

fn three() -> Pos {
    pos(3).town(h(0, -3), 2, false, true)
}

/// Seat 0 takes seat 1's capital at (1,0) with both infantry (the defender's town die
/// misses).
fn take_capital(s: &mut Viktory) -> Vec<Event> {
    play(
        s,
        &[mv(1, 1, 0), mv(2, 1, 0), Action::Fight { hex: h(1, 0) }],
    );
    dice(s, &[6])
}

/// 15.61, 15.62: the captured capital stays its owner's; he becomes the captor's Vassal.
/// The Ruler moves his units out into adjacent hexes, then the Vassal may reinforce the
/// capital from his reserve (out of turn), and the Ruler's turn goes on.
#[test]
fn rule_15_62_the_capital_is_handed_back() {
    let mut s = three().build();
    let events = take_capital(&mut s);
    assert!(events.contains(&Event::Subjugated {
        hex: h(1, 0),
        vassal: Seat(1),
        ruler: Seat(0)
    }));
    assert!(!events.iter().any(|e| matches!(e, Event::Captured { .. })));
    let town = s.town(h(1, 0)).unwrap();
    assert_eq!((town.owner, town.capital_of), (Seat(1), Some(Seat(1))));
    assert_eq!(s.player(Seat(1)).ruler, Some(Seat(0)));
    assert!(s.player(Seat(1)).reorganizing);
    assert_eq!(s.handover().map(|h| h.step), Some(HandoverStep::Evacuate));
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(refused(&s, mv(1, 2, 0)), ("handover_pending", "15.62"));
    act(
        &mut s,
        Action::Evacuate {
            unit: UnitId(1),
            to: h(2, 0),
        },
    );
    act(
        &mut s,
        Action::Evacuate {
            unit: UnitId(2),
            to: h(1, 1),
        },
    );
    assert_eq!(s.handover().map(|h| h.step), Some(HandoverStep::Reinforce));
    assert_eq!(s.to_move(), ToMove::Seat(Seat(1)));
    act(
        &mut s,
        Action::Place {
            kind: UnitKind::Infantry,
            town: h(1, 0),
            to: h(1, 0),
        },
    );
    act(&mut s, Action::EndPhase);
    assert!(s.handover().is_none());
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(s.turn().stage, Stage::Move);
    assert_eq!(ids_at(&s, h(1, 0)).len(), 1);
}

/// 15.62: a relocated unit that enters enemy units fights them at once, before
/// anything else.
#[test]
fn rule_15_62_relocating_into_enemy_units_is_a_battle_at_once() {
    let mut s = three().unit(3, 2, UnitKind::Infantry, h(2, -1)).build();
    take_capital(&mut s);
    act(
        &mut s,
        Action::Evacuate {
            unit: UnitId(1),
            to: h(2, -1),
        },
    );
    act(
        &mut s,
        Action::Evacuate {
            unit: UnitId(2),
            to: h(2, 0),
        },
    );
    assert_eq!(s.handover().map(|h| h.step), Some(HandoverStep::Battles));
    assert_eq!(s.legal_actions(), vec![Action::Fight { hex: h(2, -1) }]);
    act(&mut s, Action::Fight { hex: h(2, -1) });
    assert!(
        s.battle()
            .is_some_and(|b| b.attacker == Seat(0) && b.defender == Seat(2))
    );
}

/// 15.63: a player who lost his capital may not attack on his next turn; then he may.
#[test]
fn rule_15_63_vassal_reorganization() {
    let mut p = three()
        .unit(4, 1, UnitKind::Infantry, h(2, -1))
        .unit(5, 2, UnitKind::Infantry, h(2, -2))
        .unit(6, 1, UnitKind::Artillery, h(2, -1))
        .active(1);
    p.setup.players[1].ruler = Some(Seat(0));
    p.setup.players[1].reorganizing = true;
    let mut s = p.build();
    assert_eq!(refused(&s, mv(4, 2, -2)), ("reorganizing", "15.63"));
    assert_eq!(
        refused(
            &s,
            Action::Bombard {
                unit: UnitId(6),
                target: h(2, -2)
            }
        ),
        ("reorganizing", "15.63")
    );
    // He still moves elsewhere; after his turn he may attack again.
    act(&mut s, mv(4, 3, -1));
    while s.turn().active == Seat(1) {
        act(&mut s, Action::EndPhase);
    }
    assert!(!s.player(Seat(1)).reorganizing);
}

/// 15.64: a Ruler's unit passes through his Vassal's hex without a battle but may not
/// stop there, and nothing else moves until it has left; he may also attack it
/// deliberately, which frees the Vassal (15.65).
#[test]
fn rule_15_64_ruler_moves_through_and_attacks_his_vassal() {
    let vassal = |p: Pos| {
        let mut p = p.unit(7, 1, UnitKind::Infantry, h(1, 1));
        p.setup.players[1].ruler = Some(Seat(0));
        p
    };
    let mut s = vassal(three()).build();
    act(&mut s, mv(2, 1, 1));
    assert!(s.battle().is_none() && s.turn().pending_battles.is_empty());
    assert_eq!(refused(&s, mv(1, -1, 0)), ("alliance_transit", "15.64"));
    assert_eq!(refused(&s, Action::EndPhase), ("alliance_transit", "15.64"));
    act(&mut s, mv(2, 2, 1));
    // With one movement point left a unit cannot pass through.
    act(&mut s, mv(1, 0, 1));
    assert_eq!(refused(&s, mv(1, 1, 1)), ("alliance_stop", "15.64"));
    // Stabbed in the back.
    let mut s = vassal(three()).build();
    act(
        &mut s,
        Action::Attack {
            unit: UnitId(2),
            to: h(1, 1),
        },
    );
    let events = act(&mut s, Action::Fight { hex: h(1, 1) });
    assert!(events.contains(&Event::Freed { seat: Seat(1) }));
    assert_eq!(s.player(Seat(1)).ruler, None);
    // A Vassal never attacks his Alliance.
    let mut p = vassal(three()).active(1);
    p.setup.units.retain(|u| u.id != UnitId(1));
    let s = p.build();
    assert_eq!(
        refused(
            &s,
            Action::Attack {
                unit: UnitId(7),
                to: h(0, 1)
            }
        ),
        ("not_your_vassal", "15.64")
    );
    // It passes through with two movement points, but cannot stop there with one.
    assert!(s.check(&mv(7, 0, 1)).is_ok());
    let mut s = s;
    act(&mut s, mv(7, 0, 2));
    assert_eq!(refused(&s, mv(7, 0, 1)), ("alliance_stop", "15.64"));
}

/// 15.64's example position: seat 1's cavalry in his city at (-2,0), his Ruler's (seat
/// 0's) city three hexes east at (1,0) with an infantry in the mountain beyond it, and
/// seat 2's city at (3,-1); seat 1 is moving. `allied`: seat 1 is seat 0's Vassal.
fn example_15_64(allied: bool, dark: bool) -> Viktory {
    let mut p = Pos::new(3, Stage::Move)
        .rules(|r| {
            r.subjugation = true;
            r.dark = dark;
        })
        .terrain(h(2, 0), Terrain::Mountain)
        .town(h(-2, 0), 1, true, true)
        .town(h(1, 0), 0, true, true)
        .town(h(3, -1), 2, true, true)
        .unit(1, 1, UnitKind::Cavalry, h(-2, 0))
        .unit(2, 0, UnitKind::Infantry, h(2, 0))
        .active(1);
    if allied {
        p.setup.players[1].ruler = Some(Seat(0));
    }
    p.build()
}

/// 15.64's example: a Vassal's cavalry takes the road from his city to his Ruler's city
/// three hexes away (1 MP), moves into an adjacent mountain holding an Alliance unit
/// (1 MP, not stopped by the slow terrain), and on into an enemy city to fight (1 MP).
#[test]
fn rule_15_64_example_vassal_cavalry() {
    let pos = |allied| example_15_64(allied, false);
    let mut s = pos(true);
    act(&mut s, mv(1, 1, 0));
    act(&mut s, mv(1, 2, 0));
    act(&mut s, mv(1, 3, -1));
    assert_eq!(s.turn().pending_battles, vec![h(3, -1)]);
    assert_eq!(s.unit(UnitId(1)).unwrap().mp, 0);
    // Without the Alliance seat 0's city is no road end for seat 1.
    assert_eq!(refused(&pos(false), mv(1, 1, 0)), ("not_adjacent", "9.13"));
}

/// 15.64 under Dark (online rules): a moving seat sees every hex its units can move to
/// and one beyond, its roads to an Alliance partner's city included. The Vassal's
/// cavalry of 15.64's example reaches the enemy city at (3,-1), five hexes off, only by
/// the road to his Ruler's city; without the Alliance it walks three hexes, and the
/// city stays out of sight.
#[test]
fn rule_15_64_dark_sight_takes_the_road_to_an_alliance_city() {
    let pos = |allied| example_15_64(allied, true);
    let s = pos(true);
    assert!(s.check(&mv(1, 1, 0)).is_ok(), "the road is open");
    assert!(viktory::rules::fog::sees(&s, Seat(1), h(3, -1)));
    assert!(
        viktory::rules::fog::sees(&s, Seat(1), h(4, -1)),
        "one beyond"
    );
    let s = pos(false);
    assert!(!viktory::rules::fog::sees(&s, Seat(1), h(3, -1)));
    assert!(
        viktory::rules::fog::sees(&s, Seat(1), h(2, 0)),
        "three hexes on foot, and one beyond"
    );
}

/// 15.64: Alliance units next to a town do not stop reserve placement (13.2).
#[test]
fn rule_15_64_alliance_units_do_not_restrict_placement() {
    let pos = |allied: bool| {
        let mut p = three()
            .town(h(-1, 2), 1, false, false)
            .unit(8, 0, UnitKind::Infantry, h(-1, 3))
            .active(1);
        p.setup.turn.stage = Stage::Place;
        if allied {
            p.setup.players[1].ruler = Some(Seat(0));
        }
        p.build()
    };
    let place = Action::Place {
        kind: UnitKind::Infantry,
        town: h(-1, 2),
        to: h(-1, 2),
    };
    assert!(pos(true).check(&place).is_ok());
    assert_eq!(refused(&pos(false), place), ("enemy_adjacent", "13.2"));
}

/// 15.65 (2) and (3): when a Ruler loses his capital his Vassals go free; a Vassal who
/// takes a capital is free and becomes a Ruler himself.
#[test]
fn rule_15_65_breaking_the_alliance() {
    let mut p = pos(4)
        .town(h(0, -3), 2, false, true)
        .town(h(3, -3), 3, false, true);
    p.setup.players[0].ruler = Some(Seat(3));
    p.setup.players[2].ruler = Some(Seat(1));
    let mut s = p.build();
    let events = take_capital(&mut s);
    assert!(events.contains(&Event::Freed { seat: Seat(2) }));
    assert!(events.contains(&Event::Freed { seat: Seat(0) }));
    assert_eq!(s.player(Seat(0)).ruler, None);
    assert_eq!(s.player(Seat(2)).ruler, None);
    assert_eq!(s.player(Seat(1)).ruler, Some(Seat(0)));
}

/// 15.66, 5.2: a player wins when every other player is his Vassal (after the
/// hand-over).
#[test]
fn rule_5_2_subjugation_conquest() {
    let mut p = three();
    p.setup.players[2].ruler = Some(Seat(0));
    let mut s = p.build();
    take_capital(&mut s);
    assert!(s.outcome().is_none());
    play(
        &mut s,
        &[
            Action::Evacuate {
                unit: UnitId(1),
                to: h(2, 0),
            },
            Action::Evacuate {
                unit: UnitId(2),
                to: h(2, -1),
            },
            Action::EndPhase,
        ],
    );
    let o = s.outcome().expect("game over");
    assert_eq!(
        (o.winners.clone(), o.reason.as_str()),
        (vec![Seat(0)], "subjugation conquest")
    );
}

/// Expansion, Optional Subjugation Victory Condition: Vassals of two different players
/// without losing one's own capital in between (the first one may be free again).
#[test]
fn expansion_two_vassals_victory() {
    let mut p = pos(4)
        .rules(|r| r.victory = vec![Victory::TwoVassals])
        .town(h(0, -3), 2, false, true)
        .town(h(3, -3), 3, false, true);
    p.setup.players[0].subjugated = 1 << 2;
    let mut s = p.build();
    take_capital(&mut s);
    play(
        &mut s,
        &[
            Action::Evacuate {
                unit: UnitId(1),
                to: h(2, 0),
            },
            Action::Evacuate {
                unit: UnitId(2),
                to: h(2, -1),
            },
            Action::EndPhase,
        ],
    );
    let o = s.outcome().expect("game over");
    assert_eq!(
        (o.winners.clone(), o.reason.as_str()),
        (vec![Seat(0)], "two vassals")
    );
    // Losing one's capital starts the count again.
    assert_eq!(s.player(Seat(1)).subjugated, 0);
}

/// With the option off a captured capital changes hands (14.0) and no one is a Vassal.
#[test]
fn rule_14_0_without_subjugation() {
    let mut s = three()
        .rules(|r| {
            r.subjugation = false;
            r.victory = vec![Victory::StandardConquest];
        })
        .build();
    let events = take_capital(&mut s);
    assert!(events.iter().any(|e| matches!(e, Event::Captured { .. })));
    assert_eq!(s.town(h(1, 0)).unwrap().owner, Seat(0));
    assert!(s.handover().is_none());
    assert_eq!(s.player(Seat(1)).ruler, None);
}
