//! The odds a seat is shown while it decides (`Game::advice`): the battles it may start
//! on its turn and the battle it fights, equal to `viktory::odds`, and nothing for a
//! seat that is not involved.

mod common;

use common::*;
use engine::{Game, Seat};
use serde_json::{Value, json};
use viktory::state::Stage;
use viktory::{Action, UnitKind, odds};

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 1e-12
}

#[test]
fn advice_gives_the_odds_of_each_battle_to_start_and_of_the_battle_fought() {
    let mut s = Pos::new(2, Stage::Move)
        .town(h(-3, 0), 0, false, true)
        .unit(1, 0, UnitKind::Infantry, h(-1, 1))
        .unit(2, 0, UnitKind::Cavalry, h(-1, 1))
        .town(h(3, -3), 1, false, true)
        .unit(3, 1, UnitKind::Infantry, h(0, 1))
        .build();
    assert_eq!(s.advice(Seat(0)), Value::Null, "no battle to weigh yet");
    play(&mut s, &[mv(1, 0, 1), mv(2, 0, 1)]);
    let advice = s.advice(Seat(0));
    let battles = advice["battles"].as_array().expect("one battle to start");
    assert_eq!(battles.len(), 1);
    let exact = odds::battle_odds(&s, h(0, 1)).unwrap();
    let b = &battles[0];
    assert_eq!(b["hex"], json!([0, 1]));
    assert_eq!(
        (
            b["attacker"].clone(),
            b["defender"].clone(),
            b["started"].clone()
        ),
        (json!(0), json!(1), json!(false))
    );
    assert!(close(&b["attacker_wins"], exact.attacker_wins));
    assert!(close(
        &b["expected_defender_losses"],
        exact.expected_defender_losses
    ));
    // The defender is told nothing before the battle starts; both sides once it is on.
    assert_eq!(s.advice(Seat(1)), Value::Null);
    act(&mut s, Action::Fight { hex: h(0, 1) });
    for seat in [Seat(0), Seat(1)] {
        let advice = s.advice(seat);
        assert_eq!(advice["battles"][0]["started"], json!(true), "{advice}");
    }
}

#[test]
fn a_third_player_is_not_told_of_a_battle() {
    let mut s = Pos::new(3, Stage::Move)
        .town(h(-3, 0), 0, false, true)
        .unit(1, 0, UnitKind::Infantry, h(-1, 1))
        .town(h(3, -3), 1, false, true)
        .unit(3, 1, UnitKind::Infantry, h(0, 1))
        .town(h(0, 3), 2, false, true)
        .build();
    act(&mut s, mv(1, 0, 1));
    act(&mut s, Action::Fight { hex: h(0, 1) });
    assert_ne!(s.advice(Seat(0)), Value::Null);
    assert_eq!(s.advice(Seat(2)), Value::Null);
}

/// A battle too costly to compute exactly is advised with an estimate, labelled as one
/// (`"exact": false` and the number of battles played); exact advice carries neither.
#[test]
fn costly_battles_are_advised_with_a_labelled_estimate() {
    use viktory::odds::{BattleSpec, SpecUnit, TacticalPolicy};
    use viktory::{PerKind, Rules, Terrain};
    let mut rules = Rules::expansion(2);
    rules.pre_battle_fire = 6;
    let artillery = |n: u8| {
        let spec = BattleSpec {
            attackers: (0..n)
                .map(|_| SpecUnit {
                    kind: UnitKind::Artillery,
                    side: 0,
                })
                .collect(),
            defenders: PerKind {
                artillery: n,
                ..PerKind::default()
            },
            terrain: Terrain::Plains,
            ..BattleSpec::new(rules.clone())
        };
        assert_eq!(spec.policy.tactical, TacticalPolicy::MostDice);
        spec.position().unwrap()
    };
    let advice = artillery(10).advice(Seat(0));
    let b = &advice["battles"][0];
    assert_eq!(b["exact"], json!(false), "{advice}");
    assert_eq!(b["samples"], json!(odds::ESTIMATE_SAMPLES), "{advice}");
    let advice = artillery(2).advice(Seat(0));
    let b = &advice["battles"][0];
    assert!(
        b.get("exact").is_none() && b.get("samples").is_none(),
        "{advice}"
    );
}
