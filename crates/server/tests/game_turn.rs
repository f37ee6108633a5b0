//! The game lists' turn comes from `Session::game_turn`, read after every action
//! because it is cheap; it must say exactly what a spectator's view says
//! (`position.turn` or its `number`) at every step of a game of each family. At each
//! step `Session::legal_described` (what the referee lists) is also checked against
//! `legal` and `describe_legal`, and the JSON text a state answer sends as it is
//! (`legal_described_text`, `view_text` for a spectator and every seat) against the
//! `Value` forms.

use engine::{NewGame, Seed};
use protocol::{Catalog, SessionConfig};
use serde_json::Value;

/// The turn as a spectator's view shows it.
fn view_turn(view: &Value) -> Option<u64> {
    let turn = &view["position"]["turn"];
    turn.as_u64().or_else(|| turn["number"].as_u64())
}

fn plays_along(game: &str, preset: &str, steps: usize) {
    let catalog = Catalog::new().with::<viktory::Viktory>().with::<avl::Avl>();
    let entry = catalog.get(game).expect("a game of the catalog");
    let request = NewGame {
        preset: Some(preset.into()),
        ..NewGame::default()
    };
    let config = SessionConfig {
        game_id: "turns".into(),
        seed: Seed::from_u64(25),
        scripted_chance: false,
        seat_names: vec![],
    };
    let mut session = entry.create(&request, config).expect("a new game");
    session.resolve_chance();
    let mut turns = std::collections::BTreeSet::new();
    for step in 0..steps {
        let shown = view_turn(&session.view(None));
        let turn = session.game_turn().map(u64::from);
        assert_eq!(turn, shown, "{game}/{preset}, step {step}");
        turns.insert(turn);
        let legal = session.legal();
        // What a state answer lists: the same actions, with their texts, in one pass.
        assert_eq!(
            session.legal_described(),
            (legal.clone(), session.describe_legal()),
            "{game}/{preset}, step {step}"
        );
        let (actions, texts) = session.legal_described_text();
        let parse = |text: &serde_json::value::RawValue| -> Value {
            serde_json::from_str(text.get()).expect("JSON text")
        };
        assert_eq!(
            parse(&actions),
            Value::from(legal.clone()),
            "{game}/{preset}, step {step}"
        );
        assert_eq!(parse(&texts), serde_json::json!(session.describe_legal()));
        let seats = (0..session.seats()).map(|s| Some(engine::Seat(s)));
        for audience in std::iter::once(None).chain(seats) {
            assert_eq!(
                parse(&session.view_text(audience)),
                session.view(audience),
                "{game}/{preset}, step {step}, {audience:?}"
            );
        }
        if legal.is_empty() {
            break;
        }
        // Mostly the last choice (an end of phase in VIKTORY's lists), so turns go by.
        let pick = if step % 4 == 0 { 0 } else { legal.len() - 1 };
        session.apply(legal[pick].clone()).expect("a legal action");
    }
    assert!(
        turns.len() > 1,
        "{game}/{preset}: the turn never moved ({turns:?})"
    );
}

#[test]
fn viktory_lists_the_turn_its_views_show() {
    plays_along("viktory", "classic", 600);
}

#[test]
fn a_victory_lost_lists_the_turn_its_views_show() {
    plays_along("avl", "demo", 600);
}
