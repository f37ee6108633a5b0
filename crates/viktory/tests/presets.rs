//! The presets the lobby offers (`Rules::presets`): each lists only the options of its
//! own rulebook and of those it builds on, each option in a group, and every option a
//! preset lists is one its games accept.

use engine::{Game, NewGame, Preset};
use serde_json::Value;
use viktory::{Rules, Viktory};

fn preset(name: &str) -> Preset {
    Rules::presets()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("a preset {name}"))
}

fn names(p: &Preset) -> Vec<&str> {
    p.options.iter().map(|o| o.name.as_str()).collect()
}

fn victory_choices(p: &Preset) -> Vec<Value> {
    p.options
        .iter()
        .find(|o| o.name == "victory")
        .expect("victory")
        .choices
        .clone()
}

/// The Expansion's options (an "Expansion:" text, or the Expansion's victory points) and
/// the online rules' ones.
const EXPANSION_ONLY: &[&str] = &[
    "build_after_moving",
    "build_actions",
    "combat_supply",
    "map_customization",
    "quick_victory_points",
    "metropolis",
    "road_ferry_network",
];
const ONLINE_ONLY: &[&str] = &["dark", "independent_exploration", "colorblind"];

#[test]
fn classic_and_original_offer_no_expansion_or_online_option() {
    for name in ["classic", "viktory1"] {
        let p = preset(name);
        let offered = names(&p);
        for option in EXPANSION_ONLY.iter().chain(ONLINE_ONLY) {
            assert!(!offered.contains(option), "{name} offers {option}");
        }
        for o in &p.options {
            assert!(
                !o.description.starts_with("Expansion") && !o.description.starts_with("Online"),
                "{name} offers {}: {}",
                o.name,
                o.description
            );
        }
        // VIKTORY II's own rules and optional rules stay.
        for option in [
            "victory",
            "max_turns",
            "suppression",
            "subjugation",
            "movement",
        ] {
            assert!(offered.contains(&option), "{name} lacks {option}");
        }
        let victories = victory_choices(&p);
        assert!(!victories.contains(&Value::from("quicker_victory")));
        assert!(!victories.contains(&Value::from("two_vassals")));
        assert!(victories.contains(&Value::from("doomsday_clock")));
    }
}

#[test]
fn expansion_offers_its_own_options_but_not_the_online_ones() {
    let p = preset("expansion");
    let offered = names(&p);
    for option in EXPANSION_ONLY {
        assert!(offered.contains(option), "expansion lacks {option}");
    }
    for option in ONLINE_ONLY {
        assert!(!offered.contains(option), "expansion offers {option}");
    }
    assert!(victory_choices(&p).contains(&Value::from("two_vassals")));
}

#[test]
fn online_offers_every_option() {
    let p = preset("online");
    let offered = names(&p);
    for option in EXPANSION_ONLY.iter().chain(ONLINE_ONLY) {
        assert!(offered.contains(option), "online lacks {option}");
    }
    assert_eq!(victory_choices(&p).len(), 7);
}

#[test]
fn every_option_has_a_group() {
    for p in Rules::presets() {
        for o in &p.options {
            let group = o.group.as_deref().unwrap_or("");
            assert!(
                ["variants", "victory", "advanced"].contains(&group),
                "{}: {} has group {group:?}",
                p.name,
                o.name
            );
        }
        let group_of = |n: &str| {
            p.options
                .iter()
                .find(|o| o.name == n)
                .and_then(|o| o.group.clone())
        };
        assert_eq!(group_of("max_turns").as_deref(), Some("victory"));
        assert_eq!(group_of("terrain_leveling").as_deref(), Some("variants"));
        assert_eq!(group_of("suppression").as_deref(), Some("variants"));
        assert_eq!(group_of("movement").as_deref(), Some("advanced"));
    }
}

/// Every option a preset lists, set to its default, makes a game of that preset.
#[test]
fn every_listed_option_is_accepted_by_its_preset() {
    for p in Rules::presets() {
        for o in p.options.iter().filter(|o| o.name != "players") {
            let mut options = serde_json::Map::new();
            options.insert(o.name.clone(), o.default.clone());
            let request = NewGame {
                preset: Some(p.name.clone()),
                options,
                players: Some(p.min_players),
            };
            assert!(
                Viktory::new_setup(&request).is_ok(),
                "{} refuses its own {}",
                p.name,
                o.name
            );
        }
    }
}
