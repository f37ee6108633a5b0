//! The engine's own game, Dice Race, run through the conformance harness, replay,
//! verification and perft: this is how the harness itself is tested.

use engine::harness::{Conformance, Invariant};
use engine::toy::{Action, DiceRace, Event, Phase, Setup, Trap};
use engine::{
    Actor, Game, GameRecord, GameRng, NewGame, RecordedAction, ReplayError, Seat, Seed, ToMove,
    VerifyError, perft, replay, state_hash, verify,
};
use hexmap::Hex;

fn new_race() -> DiceRace {
    DiceRace::from_setup(&DiceRace::new_setup(&NewGame::default()).unwrap()).unwrap()
}

fn pawns_on_strip(s: &DiceRace) -> Result<(), String> {
    let p = s.positions();
    if p.iter().all(|&c| c <= s.finish()) {
        Ok(())
    } else {
        Err(format!("pawn off the strip: {p:?}"))
    }
}

fn conformance() -> Conformance<DiceRace> {
    Conformance {
        invariants: vec![Invariant {
            name: "pawns on the strip",
            check: pawns_on_strip,
        }],
        hidden_variant: Some(|s, seat, rng| {
            let other = Seat(1 - seat.0);
            let cell = 1 + rng.below(u32::from(s.finish()) - 1) as u8;
            s.with_hidden_trap(other, cell)
        }),
        candidates: Some(|_| {
            let mut v = vec![
                Action::Spring,
                Action::Spare,
                Action::Roll { value: 0 },
                Action::Roll { value: 7 },
            ];
            v.extend((0..12).map(|cell| Action::SetTrap { cell }));
            v.extend((0..8).map(|steps| Action::Advance { steps }));
            v
        }),
        playouts: 300,
        ..Conformance::default()
    }
}

#[test]
fn harness_passes_on_dice_race() {
    let report = conformance().run(|_| new_race()).unwrap();
    assert_eq!(report.playouts, 300);
    assert_eq!(report.finished, 300, "every race ends");
    assert!(report.chance_actions > 1000);
    assert!(report.hidden_checks > 1000);
    assert!(report.refusals_checked > 10_000);
    assert!(report.seat_changes > 1000);
}

/// The harness must catch a broken game: here, a view that leaks the hidden trap.
#[test]
fn harness_catches_a_leaking_view() {
    let mut c = conformance();
    c.playouts = 5;
    // A "variant" that changes a fact the seat *can* see (its own pawn) must be caught.
    c.hidden_variant = Some(|s, seat, _| {
        let mut setup = s.to_setup();
        if setup.positions[seat.index()] == 0
            && matches!(setup.phase, Phase::Roll | Phase::Move { .. })
        {
            setup.positions[seat.index()] = 1;
            DiceRace::from_setup(&setup).ok()
        } else {
            None
        }
    });
    let err = c.run(|_| new_race()).unwrap_err();
    assert!(err.what.contains("view changes"), "{err}");
}

#[test]
fn harness_catches_a_broken_invariant() {
    let mut c = conformance();
    c.invariants.push(Invariant {
        name: "never past cell 3",
        check: |s| {
            if s.positions().iter().all(|&p| p <= 3) {
                Ok(())
            } else {
                Err("too far".into())
            }
        },
    });
    let err = c.run(|_| new_race()).unwrap_err();
    assert!(err.what.contains("never past cell 3"), "{err}");
}

fn play(state: &mut DiceRace, actions: &[Action]) -> Vec<Event> {
    actions
        .iter()
        .flat_map(|a| state.apply(a.clone()).unwrap())
        .collect()
}

/// A scripted game: traps, dice, a trap revealed on the opponent's decision, a spring.
#[test]
fn scripted_race_with_a_sprung_trap() {
    let mut s = new_race();
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    play(
        &mut s,
        &[Action::SetTrap { cell: 3 }, Action::SetTrap { cell: 4 }],
    );
    assert_eq!(s.to_move(), ToMove::Chance);
    assert_eq!(s.chance_outcomes().len(), 6);
    let events = play(
        &mut s,
        &[Action::Roll { value: 5 }, Action::Advance { steps: 4 }],
    );
    assert_eq!(
        events,
        vec![
            Event::Rolled {
                seat: Seat(0),
                value: 5
            },
            Event::Moved {
                seat: Seat(0),
                from: Hex::new(0, 0),
                to: Hex::new(4, 0)
            },
            Event::TrapRevealed {
                owner: Seat(1),
                cell: 4
            },
        ]
    );
    // The trap's owner, not the mover, decides now.
    assert_eq!(s.to_move(), ToMove::Seat(Seat(1)));
    assert_eq!(s.legal_actions(), vec![Action::Spring, Action::Spare]);
    let events = play(&mut s, &[Action::Spring]);
    assert_eq!(
        events,
        vec![
            Event::TrapSprung { owner: Seat(1) },
            Event::Moved {
                seat: Seat(0),
                from: Hex::new(4, 0),
                to: Hex::new(0, 0)
            },
        ]
    );
    assert_eq!(s.positions(), [0, 0]);
    assert_eq!(s.traps(), [Trap::Hidden(3), Trap::Spent]);
    assert_eq!(s.to_move(), ToMove::Chance);
}

#[test]
fn refused_actions_name_their_rule_and_change_nothing() {
    let mut s = new_race();
    let before = s.clone();
    let err = s.apply(Action::SetTrap { cell: 9 }).unwrap_err();
    assert_eq!(engine::RuleViolation::code(&err), "trap_cell");
    assert_eq!(engine::RuleViolation::rule(&err), Some("traps"));
    assert_eq!(
        s.apply(Action::Spring).unwrap_err().to_string(),
        "that action does not fit the current phase"
    );
    assert_eq!(s, before);
}

#[test]
fn views_hide_the_other_trap_and_events_are_filtered() {
    let mut s = new_race();
    let events = play(&mut s, &[Action::SetTrap { cell: 2 }]);
    assert_eq!(
        s.view(Some(Seat(0))).traps,
        [Some(Trap::Hidden(2)), Some(Trap::Unset)]
    );
    assert_eq!(s.view(Some(Seat(1))).traps, [None, Some(Trap::Unset)]);
    assert_eq!(s.view(None).traps, [None, Some(Trap::Unset)]);
    let hidden = Event::TrapHidden {
        seat: Seat(0),
        cell: None,
    };
    assert_eq!(s.event_for(&events[0], Some(Seat(1))), Some(hidden.clone()));
    assert_eq!(s.event_for(&events[0], None), Some(hidden));
    assert_eq!(
        s.event_for(&events[0], Some(Seat(0))),
        Some(events[0].clone())
    );
}

#[test]
fn setup_reports_every_problem_at_once() {
    let bad = Setup {
        length: 2,
        positions: [0, 9],
        traps: [Trap::Revealed(0), Trap::Unset],
        turn: Seat(3),
        phase: Phase::Roll,
    };
    let errs = DiceRace::from_setup(&bad).unwrap_err();
    let codes: Vec<&str> = errs.0.iter().map(|p| p.code.as_str()).collect();
    assert_eq!(codes, ["length", "position", "trap_cell", "seat"]);
    let errs = DiceRace::new_setup(&NewGame {
        preset: Some("blitz".into()),
        options: serde_json::from_str(r#"{"length": 99, "speed": 2}"#).unwrap(),
        players: Some(3),
    })
    .unwrap_err();
    let codes: Vec<&str> = errs.0.iter().map(|p| p.code.as_str()).collect();
    assert_eq!(
        codes,
        ["unknown_preset", "players", "unknown_option", "length"]
    );
}

/// Perft counts from the start: 8 trap cells for each seat, then 6 rolls, then up to
/// the roll: 8 * 8 * 6 * (1+2+3+4+5+6)/6 ... counted exactly.
#[test]
fn perft_counts() {
    let s = new_race();
    assert_eq!(perft(&s, 0), 1);
    assert_eq!(perft(&s, 1), 8);
    assert_eq!(perft(&s, 2), 64);
    assert_eq!(perft(&s, 3), 384);
    assert_eq!(perft(&s, 4), 64 * 21);
}

fn seeded_record(seed: Seed) -> GameRecord<DiceRace> {
    let mut s = new_race();
    let mut record = GameRecord::new("g1", s.to_setup(), vec!["Ann".into(), "Bob".into()]);
    record.seed_commitment = Some(seed.commitment());
    let mut choices = GameRng::from_u64(77);
    while !s.to_move().is_over() {
        let step = record.actions.len() as u64;
        let (by, action) = match s.to_move() {
            ToMove::Chance => (
                Actor::Chance,
                s.sample_chance(&mut GameRng::for_step(&seed, step)),
            ),
            ToMove::Seat(seat) => {
                let legal = s.legal_actions();
                (
                    Actor::Seat(seat),
                    legal[choices.below(legal.len() as u32) as usize].clone(),
                )
            }
            ToMove::Over(_) => unreachable!(),
        };
        s.apply(action.clone()).unwrap();
        record.actions.push(RecordedAction {
            by,
            action,
            state_hash: Some(state_hash(&s)),
        });
    }
    record.seed = Some(seed);
    record
}

#[test]
fn records_replay_and_verify() {
    let seed = Seed::from_u64(2026);
    let record = seeded_record(seed);
    let (end, events) = replay(&record).unwrap();
    assert!(end.to_move().is_over());
    assert_eq!(events.len(), record.actions.len());
    let rolls = verify(&record).unwrap();
    assert!(rolls > 0);

    // JSON round trip keeps it verifiable.
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(
        verify(&GameRecord::<DiceRace>::from_json(json).unwrap()).unwrap(),
        rolls
    );

    // A forged die is caught by verification even though it is a legal outcome.
    let mut forged = record.clone();
    let i = forged
        .actions
        .iter()
        .position(|a| a.by == Actor::Chance)
        .unwrap();
    let Action::Roll { value } = forged.actions[i].action.clone() else {
        panic!()
    };
    forged.actions[i].action = Action::Roll {
        value: value % 6 + 1,
    };
    forged.actions[i].state_hash = None;
    assert!(
        matches!(verify(&forged), Err(VerifyError::ChanceMismatch { step, .. }) if step == i)
            || matches!(verify(&forged), Err(VerifyError::Replay(_)))
    );

    // A wrong seed does not match the commitment.
    let mut wrong = record.clone();
    wrong.seed = Some(Seed::from_u64(1));
    assert!(matches!(
        verify(&wrong),
        Err(VerifyError::CommitmentMismatch { .. })
    ));

    // Tampered state hashes and illegal steps are reported with their index.
    let mut tampered = record.clone();
    tampered.actions[3].state_hash = Some("00".into());
    assert_eq!(
        replay(&tampered).unwrap_err(),
        ReplayError::HashMismatch { step: 3 }
    );
    let mut illegal = record.clone();
    illegal.actions[0].action = Action::Spring;
    assert!(matches!(
        replay(&illegal),
        Err(ReplayError::Illegal { step: 0, .. })
    ));
    let mut actor = record;
    actor.actions[0].by = Actor::Seat(Seat(1));
    assert!(matches!(
        replay(&actor),
        Err(ReplayError::WrongActor { step: 0, .. })
    ));
}
