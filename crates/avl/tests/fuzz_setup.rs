//! No panic on any setup from outside: randomly perturbed positions are either refused
//! with problems or give a state whose every query works.

mod common;

use avl::state::{Activation, Battle, BattleStage, Retreating};
use avl::{Avl, Chit, Location, Phase, PieceId, Side, Supply};
use engine::{Game, GameRng};
use hexmap::Hex;

fn random_hex(rng: &mut GameRng) -> Hex {
    Hex::new(rng.below(16) as i32 - 2, rng.below(16) as i32 - 8)
}

#[test]
fn perturbed_positions_never_panic() {
    let start = common::start();
    let mut accepted = 0;
    for seed in 0..400u64 {
        let mut rng = GameRng::from_u64(seed);
        let mut setup = start.to_setup();
        let pos = setup.position.as_mut().unwrap();
        let n = pos.pieces.len() as u32;
        for _ in 0..=rng.below(4) {
            let p = rng.below(n) as usize;
            pos.pieces[p].location = match rng.below(5) {
                0 => Location::Map(random_hex(&mut rng)),
                1 => Location::Box(rng.below(3) as u8),
                2 => Location::Arriving(rng.below(9) as u8),
                3 => Location::Eliminated,
                _ => Location::Removed,
            };
            pos.pieces[p].reduced = rng.below(2) == 0;
            pos.pieces[p].supply =
                [Supply::InSupply, Supply::OutOfSupply, Supply::Isolated][rng.below(3) as usize];
        }
        let phases = [
            Phase::Preparation,
            Phase::Selection(Side::Axis),
            Phase::Selection(Side::Soviet),
            Phase::SpecialCombat,
            Phase::FirstChit,
            Phase::Draw,
            Phase::Manstein,
            Phase::Movement,
            Phase::Combat,
            Phase::Reinforcement(Side::Axis),
            Phase::Over,
        ];
        pos.phase = phases[rng.below(phases.len() as u32) as usize];
        pos.turn = avl::unit::Turn(rng.below(8) as u8);
        if rng.below(2) == 0 {
            pos.cup = vec![
                Chit::Stavka,
                Chit::Manstein(rng.below(3) as u8),
                Chit::Hq(PieceId(rng.below(n + 3) as u16)),
            ];
        }
        if rng.below(2) == 0 {
            pos.active = Some(Side::Axis);
            pos.activation = Some(Activation {
                units: vec![PieceId(rng.below(n + 2) as u16)],
                hqs: vec![PieceId(rng.below(n + 2) as u16)],
                ..Activation::default()
            });
        }
        if rng.below(3) == 0 {
            pos.battle = Some(Battle {
                target: random_hex(&mut rng),
                attackers: vec![PieceId(rng.below(n + 2) as u16)],
                stage: [
                    BattleStage::Declaring,
                    BattleStage::Rolling,
                    BattleStage::DefenderLosses,
                    BattleStage::Retreat,
                    BattleStage::Advance,
                ][rng.below(5) as usize],
                defenders: vec![PieceId(rng.below(n) as u16)],
                hq_stacks: vec![],
                odds: None,
                die: Some(rng.below(9) as u8),
                result: avl::crt::CrtResult::parse("1DR2"),
                steps_left: rng.below(3) as u8,
                to_retreat: vec![PieceId(rng.below(n) as u16)],
                retreating: (rng.below(2) == 0).then(|| Retreating {
                    piece: PieceId(rng.below(n + 2) as u16),
                    path: vec![],
                    remaining: 1,
                }),
                retreated: vec![],
                advancing: None,
                advanced: vec![],
            });
        }
        let Ok(s) = <Avl as Game>::from_setup(&setup) else {
            continue;
        };
        accepted += 1;
        let legal = s.legal_actions();
        let _ = s.to_move();
        let _ = s.view(None);
        let _ = s.chance_outcomes();
        for a in legal.iter().take(20) {
            let mut c = s.clone();
            c.apply(*a)
                .unwrap_or_else(|e| panic!("seed {seed}: legal {a:?} refused: {e}"));
            let _ = c.legal_actions();
        }
    }
    assert!(accepted > 0);
}

/// `Avl::from_rules_unchecked` (search's rebuild of positions the game reached) checks
/// the position's shape: a position of another scenario, or with a piece off the map
/// or in a box the scenario lacks, is refused with a problem instead of panicking later.
#[test]
fn an_unchecked_position_of_the_wrong_shape_is_refused() {
    let start = common::start();
    let rules = std::sync::Arc::clone(start.shared_rules());
    let pos = start.position().clone();
    assert!(Avl::from_rules_unchecked(std::sync::Arc::clone(&rules), pos.clone()).is_ok());
    let mut short = pos.clone();
    short.pieces.pop();
    let e = Avl::from_rules_unchecked(std::sync::Arc::clone(&rules), short)
        .expect_err("a piece missing is refused");
    assert!(format!("{e:?}").contains("pieces"), "{e:?}");
    let mut control = pos.clone();
    control.control.push(Side::Axis);
    assert!(Avl::from_rules_unchecked(std::sync::Arc::clone(&rules), control).is_err());
    let mut boxed = pos.clone();
    boxed.pieces[0].location = Location::Box(200);
    let e = Avl::from_rules_unchecked(std::sync::Arc::clone(&rules), boxed)
        .expect_err("a box the scenario lacks is refused");
    assert!(format!("{e:?}").contains("which is none"), "{e:?}");
    let mut off = pos;
    off.pieces[0].location = Location::Map(Hex::new(400, -900));
    let e = Avl::from_rules_unchecked(rules, off).expect_err("a piece off the map is refused");
    assert!(format!("{e:?}").contains("off the map"), "{e:?}");
}
