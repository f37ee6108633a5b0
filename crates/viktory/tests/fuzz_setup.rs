//! Hand-made positions come from outside (the referee's `load`, files): whatever a setup
//! holds, `from_setup` either refuses it with problems or gives a state on which every
//! engine function works without panicking. Property test: perturb mid-game positions
//! at random, then play on.

use engine::{Game, GameRng, NewGame, Seat};
use hexmap::Hex;
use proptest::prelude::*;
use viktory::state::{Battle, BattleStep, Bombardment, Capture, Hits, Stage};
use viktory::{Setup, UnitId, UnitKind, Viktory};

/// A mid-game position reached by seeded random play.
fn midgame(seed: u64, players: u8) -> Setup {
    let mut options = serde_json::Map::new();
    options.insert("max_turns".into(), 20.into());
    let setup = Viktory::new_setup(&NewGame {
        preset: None,
        options,
        players: Some(players),
    })
    .unwrap();
    let mut s = Viktory::from_setup(&setup).unwrap();
    let mut rng = GameRng::from_u64(seed);
    engine::playout(&mut s, &mut rng, 150 + (seed % 300) as usize);
    s.to_setup()
}

const STAGES: [Stage; 7] = [
    Stage::FirstPlayer,
    Stage::Opening,
    Stage::Start,
    Stage::Build,
    Stage::Move,
    Stage::Place,
    Stage::PlacementBattles,
];
const STEPS: [BattleStep; 7] = [
    BattleStep::PreBattleFire,
    BattleStep::PreBattleCasualties,
    BattleStep::AttackerFire,
    BattleStep::DefenderFire,
    BattleStep::Casualties,
    BattleStep::RetreatOption,
    BattleStep::Retreating,
];

fn hex(v: (i8, i8)) -> Hex {
    Hex::new(i32::from(v.0), i32::from(v.1))
}

/// Battle perturbation: step, hex, attacker, defender, dice to roll, two hit counts.
type BattleMut = (usize, (i8, i8), u8, u8, u8, u8, u8);
/// Bombardment perturbation: unit, target, attacker, defender, die.
type BombardMut = (u16, (i8, i8), u8, u8, Option<u8>);
/// Unit perturbation: which, where, kind, aboard, movement points.
type UnitMut = (usize, (i8, i8), usize, Option<u16>, u8);

#[derive(Debug, Clone)]
struct Mutation {
    seed: u64,
    players: u8,
    stage: usize,
    active: u8,
    battle: Option<BattleMut>,
    bombard: Option<BombardMut>,
    capture: Option<((i8, i8), u8, Vec<usize>)>,
    unit_moves: Vec<UnitMut>,
    reveals: Vec<(i8, i8)>,
    pending: Vec<(i8, i8)>,
    moving: Option<u16>,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let coord = || (-5i8..=5, -5i8..=5);
    (
        (0u64..40, 2u8..=4, 0usize..7, 0u8..5),
        proptest::option::of((0usize..7, coord(), 0u8..4, 0u8..4, 0u8..5, 0u8..4, 0u8..4)),
        proptest::option::of((
            0u16..60,
            coord(),
            0u8..4,
            0u8..4,
            proptest::option::of(0u8..8),
        )),
        proptest::option::of((coord(), 0u8..4, proptest::collection::vec(0usize..4, 0..3))),
        proptest::collection::vec(
            (
                0usize..40,
                coord(),
                0usize..4,
                proptest::option::of(0u16..60),
                0u8..6,
            ),
            0..4,
        ),
        proptest::collection::vec(coord(), 0..3),
        proptest::collection::vec(coord(), 0..3),
        proptest::option::of(0u16..60),
    )
        .prop_map(
            |(
                (seed, players, stage, active),
                battle,
                bombard,
                capture,
                unit_moves,
                reveals,
                pending,
                moving,
            )| Mutation {
                seed,
                players,
                stage,
                active,
                battle,
                bombard,
                capture,
                unit_moves,
                reveals,
                pending,
                moving,
            },
        )
}

fn apply(m: &Mutation) -> Setup {
    let mut s = midgame(m.seed, m.players);
    s.turn.stage = STAGES[m.stage];
    s.turn.active = Seat(m.active);
    if let Some((step, h, a, d, to_roll, th, rh)) = m.battle {
        s.battle = Some(Battle {
            hex: hex(h),
            attacker: Seat(a),
            defender: Seat(d),
            naval: false,
            placement: false,
            round: 1,
            step: STEPS[step],
            to_roll,
            rolls: vec![],
            defender_hits: Hits {
                tactical: th,
                regular: rh,
            },
            attacker_hits: Hits {
                tactical: rh,
                regular: th,
            },
            suppressed: 0,
            marked: vec![UnitId(u16::from(th))],
            entries: vec![hex(h).neighbor(hexmap::Direction::E)],
            retreat_to: None,
            averaging: false,
            sure_hits: 0,
        });
    }
    if let Some((u, t, a, d, roll)) = m.bombard {
        s.bombard = Some(Bombardment {
            unit: UnitId(u),
            attacker: Seat(a),
            target: hex(t),
            defender: Seat(d),
            roll,
        });
    }
    if let Some((h, loser, owed)) = &m.capture {
        s.capture = Some(Capture {
            hex: hex(*h),
            loser: Seat(*loser),
            owed: owed.iter().map(|&k| UnitKind::ALL[k]).collect(),
            extra: owed.first().map(|&k| UnitKind::ALL[k]),
            relocation: false,
        });
    }
    for &(i, to, kind, aboard, mp) in &m.unit_moves {
        if s.units.is_empty() {
            break;
        }
        let n = s.units.len();
        let u = &mut s.units[i % n];
        u.hex = hex(to);
        u.kind = UnitKind::ALL[kind];
        u.aboard = aboard.map(UnitId);
        u.mp = mp;
        u.done = false;
    }
    s.reveals.extend(m.reveals.iter().map(|&c| hex(c)));
    s.turn
        .pending_battles
        .extend(m.pending.iter().map(|&c| hex(c)));
    s.turn.moving = m.moving.map(UnitId);
    s
}

static ACCEPTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn hand_made_positions_never_panic(m in mutation()) {
        let setup = apply(&m);
        let loaded = Viktory::from_setup(&setup);
        if let Err(e) = &loaded {
            prop_assert!(!e.0.is_empty(), "a refusal names its problems");
        }
        ACCEPTED.fetch_add(usize::from(loaded.is_ok()), std::sync::atomic::Ordering::Relaxed);
        if let Ok(mut s) = loaded {
            let mut rng = GameRng::from_u64(m.seed);
            for _ in 0..60 {
                let _ = s.view(Some(Seat(0)));
                let legal = s.legal_actions();
                if s.to_move().is_over() {
                    break;
                }
                let action = if s.to_move() == engine::ToMove::Chance {
                    s.sample_chance(&mut rng)
                } else {
                    prop_assert!(!legal.is_empty(), "a seat is to move with no legal action");
                    legal[rng.below(legal.len() as u32) as usize]
                };
                prop_assert!(s.apply(action).is_ok());
            }
        }
    }
}

/// Enough of the perturbed positions load for the property above to mean something.
#[test]
fn some_perturbed_positions_load() {
    let mut accepted = 0;
    for seed in 0..40 {
        let mut m = Mutation {
            seed,
            players: 2 + (seed % 3) as u8,
            stage: 4,
            active: 0,
            battle: None,
            bombard: None,
            capture: None,
            unit_moves: vec![],
            reveals: vec![],
            pending: vec![],
            moving: None,
        };
        if Viktory::from_setup(&apply(&m)).is_ok() {
            accepted += 1;
        }
        m.capture = Some(((0, 0), 1, vec![0]));
        let _ = Viktory::from_setup(&apply(&m));
    }
    assert!(accepted > 10, "only {accepted} of 40 positions loaded");
}
