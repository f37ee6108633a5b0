//! Rules 6.0, 8.1–8.3, 9.3: what the two sides are shown beside the map
//! (`Game::advice`) is the engine's own: the cost of each legal move as
//! `rules::movement::step` counts it with the enemy ZOC of `ZoneOfControl::of`, the odds
//! of each attack open to the active player as `rules::combat::odds` gives them for the
//! units that may make it, and while a combat is fought its odds now (the roll's once
//! resolved), with every unit that may still join, and the CRT row of that column.

mod common;

use std::collections::BTreeMap;

use avl::rules::zoc::ZoneOfControl;
use avl::rules::{combat, movement};
use avl::{Action, Avl, Phase};
use engine::{Game, GameRng, NewGame, Seat};
use hexmap::Hex;

fn demo() -> avl::Setup {
    Avl::new_setup(&NewGame {
        preset: Some("demo".into()),
        ..NewGame::default()
    })
    .unwrap()
}

fn hex(v: &serde_json::Value) -> Hex {
    serde_json::from_value(v.clone()).unwrap()
}

/// Counts of the advice parts checked over random demo games.
#[derive(Default, Debug)]
struct Checked {
    combat: usize,
    moves: usize,
    attacks: usize,
}

fn check_position(s: &Avl, advice: &serde_json::Value, n: &mut Checked) {
    let pos = &s.view(None).position;
    let legal = s.legal_actions();
    match pos.battle.as_ref() {
        Some(b) if !b.attackers.is_empty() => {
            let c = &advice["combat"];
            let now = combat::odds(s, &b.attackers, b.target);
            assert_eq!(c["attack"], now.attack);
            assert_eq!(c["defense"], now.defense);
            let declaring = b.stage == avl::state::BattleStage::Declaring;
            let odds = if declaring { now.odds } else { b.odds };
            assert_eq!(c["odds"].is_null(), odds.is_none(), "{c}");
            let rows = c["results"].as_array().unwrap().len();
            assert_eq!(rows, if odds.is_some() { 6 } else { 0 }, "{c}");
            let mut all = b.attackers.clone();
            all.extend(legal.iter().filter_map(|a| match *a {
                Action::Attack { unit, .. } => Some(unit),
                _ => None,
            }));
            if declaring && all.len() > b.attackers.len() {
                assert_eq!(c["all"]["attack"], combat::odds(s, &all, b.target).attack);
            } else {
                assert!(c.get("all").is_none(), "{c}");
            }
            n.combat += 1;
        }
        _ => assert!(advice.get("combat").is_none(), "{advice}"),
    }
    if pos.phase == Phase::Movement && pos.battle.is_none() {
        let side = pos.active.unwrap();
        let zoc = ZoneOfControl::of(s, side.enemy());
        let m = &advice["movement"];
        let shown: Vec<Hex> = m["enemy_zoc"].as_array().unwrap().iter().map(hex).collect();
        assert!(shown.iter().all(|&h| zoc.contains(h)));
        let moves = m["moves"].as_array().unwrap();
        let legal_moves = legal
            .iter()
            .filter(|a| matches!(a, Action::Move { .. } | Action::RoadMove { .. }))
            .count();
        assert_eq!(moves.len(), legal_moves, "one entry per legal move");
        for mv in moves {
            let piece = serde_json::from_value(mv["piece"].clone()).unwrap();
            let to = hex(&mv["to"]);
            let road = mv["road"].as_bool().unwrap();
            let before = movement::mover_of(s, piece, &zoc);
            let after = movement::step(s, &before, to, road, &zoc).unwrap();
            assert_eq!(mv["cost"], after.spent.0 - before.spent.0, "{mv}");
            assert_eq!(mv["zoc"], zoc.contains(to), "{mv}");
            assert_eq!(shown.contains(&to), zoc.contains(to), "{mv}");
            n.moves += 1;
        }
    } else {
        assert!(advice.get("movement").is_none(), "{advice}");
    }
    if pos.phase == Phase::Combat && pos.battle.is_none() {
        let mut by_target: BTreeMap<Hex, Vec<avl::PieceId>> = BTreeMap::new();
        for a in &legal {
            if let Action::Attack { unit, target } = *a {
                by_target.entry(target).or_default().push(unit);
            }
        }
        let shown = advice["attacks"].as_array().unwrap();
        assert_eq!(shown.len(), by_target.len(), "one entry per attackable hex");
        for (a, (target, units)) in shown.iter().zip(&by_target) {
            assert_eq!(hex(&a["target"]), *target);
            let most = combat::odds(s, units, *target);
            assert_eq!(a["attack"], most.attack);
            assert_eq!(a["defense"], most.defense);
            assert_eq!(a["odds"].is_null(), most.odds.is_none());
            n.attacks += 1;
        }
    } else {
        assert!(advice.get("attacks").is_none(), "{advice}");
    }
}

#[test]
fn the_advice_is_the_engines_costs_and_odds() {
    let setup = demo();
    let mut n = Checked::default();
    for seed in 0..20 {
        let mut s = Avl::from_setup(&setup).unwrap();
        let mut rng = GameRng::from_u64(seed);
        for _ in 0..20_000 {
            let advice = [s.advice(Seat(0)), s.advice(Seat(1))];
            assert_eq!(advice[0], advice[1], "both sides are shown the same");
            if s.view(None).position.result.is_some() {
                assert!(advice[0].is_null());
            } else {
                check_position(&s, &advice[0], &mut n);
            }
            let Some(action) = common::random_step(&s, &mut rng) else {
                break;
            };
            s.apply(action).unwrap();
        }
    }
    assert!(
        n.combat > 50 && n.moves > 1000 && n.attacks > 50,
        "checked: {n:?}"
    );
}

/// Rule 8.2 (its example): entering an enemy ZOC costs 2 MPs more, and the advice says
/// so: every move into a ZOC hex costs the terrain plus 4 half MPs.
#[test]
fn moves_into_an_enemy_zoc_are_shown_with_their_cost() {
    let setup = demo();
    let mut s = Avl::from_setup(&setup).unwrap();
    let mut rng = GameRng::from_u64(3);
    let mut seen = 0;
    for _ in 0..20_000 {
        let advice = s.advice(Seat(0));
        for mv in advice["movement"]["moves"].as_array().into_iter().flatten() {
            if mv["zoc"] == true && mv["road"] == false {
                let to = hex(&mv["to"]);
                let terrain = 2 * u64::from(s.map().move_cost(to));
                assert!(mv["cost"].as_u64().unwrap() >= terrain + 4, "{mv}");
                seen += 1;
            }
        }
        let Some(action) = common::random_step(&s, &mut rng) else {
            break;
        };
        s.apply(action).unwrap();
    }
    assert!(seen > 0, "no move into a ZOC was offered");
}
