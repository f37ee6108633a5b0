//! The numeric options at the ends of their ranges (`viktory::OPTION_RANGES`) with the
//! largest battles a setup can hold: every dice count, hit count and unit count stays
//! in its type, and battles are played to the end without a panic (the test profile
//! checks arithmetic overflow).

use engine::{Game, GameRng, ToMove};
use viktory::event::DiePurpose;
use viktory::odds::{BattleSpec, SpecUnit};
use viktory::{Action, Event, Rules, Terrain, Unit, UnitId, UnitKind, Viktory};

/// The Expansion rules with every numeric option at the top of its range and every
/// option that adds dice on.
fn extreme_rules() -> Rules {
    let mut r = Rules::expansion(2);
    let top = |name: &str| {
        viktory::OPTION_RANGES
            .iter()
            .find(|o| o.name == name)
            .map(|o| u8::try_from(o.max).unwrap())
            .unwrap()
    };
    for kind in UnitKind::ALL {
        *r.attack_dice.get_mut(kind) = top("attack_dice");
        *r.defense_dice.get_mut(kind) = top("defense_dice");
        *r.movement.get_mut(kind) = top("movement");
    }
    r.pre_battle_fire = top("pre_battle_fire");
    r.naval_support_dice = top("naval_support_dice");
    r.strong_terrain_dice = top("strong_terrain_dice");
    r.weak_terrain_dice = top("weak_terrain_dice");
    r.hit_max = top("hit_max");
    r.frigate_capacity = top("frigate_capacity");
    r.frigate_loads_per_turn = top("frigate_loads_per_turn");
    r.build_actions = top("build_actions");
    r.bombard_range = top("bombard_range");
    r.defender_pre_battle_fire = true;
    r.luck_averaging = true;
    r.metropolis = true;
    r
}

fn attackers(per_kind: usize) -> Vec<SpecUnit> {
    (0..per_kind * 3)
        .map(|i| SpecUnit {
            kind: UnitKind::ALL[i % 3],
            side: (i % 5) as u8,
        })
        .collect()
}

/// Plays the battle at the spec's hex from its start to its end with random decisions
/// and seeded dice; returns every event.
fn play_battle(mut s: Viktory, seed: u64) -> Vec<Event> {
    let mut rng = GameRng::from_u64(seed);
    let mut events = Vec::new();
    events.extend(
        s.apply(Action::Fight {
            hex: BattleSpec::HEX,
        })
        .unwrap(),
    );
    for _ in 0..100_000 {
        if s.battle().is_none() {
            return events;
        }
        let action = match s.to_move() {
            ToMove::Chance => s.sample_chance(&mut rng),
            ToMove::Seat(_) => {
                let legal = s.legal_actions();
                assert!(!legal.is_empty(), "a seat is to move with no legal action");
                legal[rng.below(legal.len() as u32) as usize]
            }
            ToMove::Over(_) => return events,
        };
        events.extend(s.apply(action).unwrap());
    }
    panic!("the battle did not end in 100 000 actions");
}

/// The dice of each fire step of one kind, in order: runs of dice rolled by one seat
/// for one purpose.
fn dice(events: &[Event], purpose: DiePurpose) -> Vec<usize> {
    let mut steps = Vec::new();
    let mut run: Option<(engine::Seat, usize)> = None;
    for e in events {
        match (e, run) {
            (
                Event::DieRolled {
                    seat, purpose: p, ..
                },
                Some((by, n)),
            ) if *p == purpose && *seat == by => {
                run = Some((by, n + 1));
            }
            (
                Event::DieRolled {
                    seat, purpose: p, ..
                },
                _,
            ) if *p == purpose => {
                steps.extend(run.map(|(_, n)| n));
                run = Some((*seat, 1));
            }
            (_, Some((_, n))) => {
                steps.push(n);
                run = None;
            }
            _ => {}
        }
    }
    steps.extend(run.map(|(_, n)| n));
    steps
}

/// The largest battle `hexwar odds` and `BattleSpec` take (200 units), under the
/// extreme rules in a mountain city with naval support and combat supply on both
/// sides: played to the end three times, 240 pre-battle dice (40 artillery × 6) in
/// one step.
#[test]
fn extreme_options_battles_play_to_the_end() {
    let mut spec = BattleSpec::new(extreme_rules());
    spec.attackers = attackers(40);
    spec.defenders.infantry = 25;
    spec.defenders.cavalry = 25;
    spec.defenders.artillery = 25;
    spec.terrain = Terrain::Mountain;
    spec.town = Some(true);
    spec.naval_support = 1;
    spec.attacker_supply = true;
    spec.defender_supply = true;
    let s = spec.position().unwrap();
    for seed in 0..3 {
        let events = play_battle(s.clone(), seed);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::BattleEnded { .. })),
            "seed {seed}"
        );
        // 40 artillery fire 6 dice each before the battle: 240 dice in one step.
        let pre = dice(&events, DiePurpose::PreBattle);
        assert_eq!(pre.first(), Some(&240), "seed {seed}: {pre:?}");
    }
}

/// A hand-made position beyond anything `BattleSpec` builds: 255 infantry, cavalry
/// and artillery on each side of a battle (the most a player may have of a kind),
/// each artillery rolling 6 pre-battle dice. The dice of a step stop at 255 rather
/// than wrapping around, the battle is played to the end, and the odds answer with an
/// estimate (the exact method would take hours) without a panic.
#[test]
fn most_units_of_a_kind_fight_without_overflow() {
    let mut spec = BattleSpec::new(extreme_rules());
    spec.attackers = [UnitKind::Infantry, UnitKind::Cavalry, UnitKind::Artillery]
        .map(|kind| SpecUnit { kind, side: 0 })
        .to_vec();
    spec.defenders.infantry = 1;
    spec.defenders.cavalry = 1;
    spec.defenders.artillery = 1;
    let mut setup = spec.position().unwrap().to_setup();
    let model: Vec<Unit> = setup
        .units
        .iter()
        .filter(|u| u.hex == BattleSpec::HEX)
        .cloned()
        .collect();
    let mut next = setup.units.iter().map(|u| u.id.0).max().unwrap() + 1;
    for u in &model {
        for _ in 1..255 {
            let mut c = u.clone();
            c.id = UnitId(next);
            next += 1;
            setup.units.push(c);
        }
    }
    setup.next_unit = Some(next);
    let s = Viktory::from_setup(&setup).unwrap();
    let odds = viktory::odds::battle_odds(&s, BattleSpec::HEX).expect("odds");
    assert!(!odds.exact, "{odds:?}");
    let total = odds.attacker_wins + odds.defender_holds + odds.both_destroyed;
    assert!((total - 1.0).abs() < 1e-9, "{odds:?}");
    let events = play_battle(s, 7);
    let pre = dice(&events, DiePurpose::PreBattle);
    // Both sides' pre-battle fire: 255 × 6 dice each, saturated at 255.
    assert_eq!(pre[..2], [255, 255], "{pre:?}");
}
