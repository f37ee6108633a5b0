//! Rule 9.3: the odds the two sides are shown while a combat is fought (`Game::advice`)
//! are the engine's own: the strengths and odds of `rules::combat::odds` while attackers
//! are named, the odds of the roll once resolved, and the CRT row of that column.

mod common;

use avl::Avl;
use avl::rules::combat;
use engine::{Game, GameRng, NewGame, Seat};

#[test]
fn combat_advice_is_the_engines_odds() {
    let setup = Avl::new_setup(&NewGame {
        preset: Some("demo".into()),
        ..NewGame::default()
    })
    .unwrap();
    let mut checked = 0;
    for seed in 0..20 {
        let mut s = Avl::from_setup(&setup).unwrap();
        let mut rng = GameRng::from_u64(seed);
        for _ in 0..20_000 {
            let advice = [s.advice(Seat(0)), s.advice(Seat(1))];
            assert_eq!(advice[0], advice[1], "both sides see the same odds");
            match s.view(None).position.battle.as_ref() {
                Some(b) if !b.attackers.is_empty() => {
                    let c = &advice[0]["combat"];
                    let now = combat::odds(&s, &b.attackers, b.target);
                    assert_eq!(c["attack"], now.attack);
                    assert_eq!(c["defense"], now.defense);
                    let odds = if b.stage == avl::state::BattleStage::Declaring {
                        now.odds
                    } else {
                        b.odds
                    };
                    assert_eq!(c["odds"].is_null(), odds.is_none(), "{c}");
                    let rows = c["results"].as_array().unwrap().len();
                    assert_eq!(rows, if odds.is_some() { 6 } else { 0 }, "{c}");
                    checked += 1;
                }
                _ => assert!(advice[0].is_null(), "no combat, no advice: {}", advice[0]),
            }
            let Some(action) = common::random_step(&s, &mut rng) else {
                break;
            };
            s.apply(action).unwrap();
        }
    }
    assert!(checked > 50, "{checked} combat steps checked");
}
