//! Texts for people: every action and event of seeded random games on both presets is
//! described in words, with unit IDs and XXYY hex numbers, never in Rust's debug form.

mod common;

use avl::Avl;
use engine::{Game, GameRng, NewGame};

fn words(text: &str) -> bool {
    !text.is_empty() && !text.contains("PieceId") && !text.contains("Hex {") && !text.contains('{')
}

/// Plays `games` seeded random games of `preset` for at most `steps` steps each,
/// checking every text; returns the kinds of event seen.
fn play(preset: &str, games: u64, steps: usize) -> std::collections::BTreeSet<String> {
    let setup = Avl::new_setup(&NewGame {
        preset: Some(preset.into()),
        ..NewGame::default()
    })
    .unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..games {
        let mut s = Avl::from_setup(&setup).unwrap();
        let mut rng = GameRng::from_u64(seed);
        for _ in 0..steps {
            let Some(action) = common::random_step(&s, &mut rng) else {
                break;
            };
            let text = s.describe_action(&action);
            assert!(words(&text), "{preset}: action {action:?} reads {text:?}");
            for e in s.apply(action).unwrap() {
                let text = s.describe_event(&e);
                assert!(words(&text), "{preset}: event {e:?} reads {text:?}");
                kinds.insert(
                    format!("{e:?}")
                        .split([' ', '{'])
                        .next()
                        .unwrap_or("")
                        .to_owned(),
                );
            }
        }
    }
    kinds
}

#[test]
fn actions_and_events_are_told_in_words() {
    let kinds = play("demo", 30, 20_000);
    // Moves, activations, combat, retreats and supply all came up.
    for kind in [
        "Moved",
        "Activated",
        "ChitDrawn",
        "Odds",
        "CombatResult",
        "StepLost",
        "SupplyChanged",
    ] {
        assert!(kinds.contains(kind), "no {kind} in {kinds:?}");
    }
    play("campaign", 1, 1_500);
}
