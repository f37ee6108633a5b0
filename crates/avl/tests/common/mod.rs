//! Helpers for scenario tests: the test scenario, positions, scripted actions.
#![allow(dead_code, unreachable_pub)]

use avl::{Avl, Scenario, Setup};
use engine::Game;

/// The test scenario file.
pub fn scenario() -> Scenario {
    Scenario::from_toml(include_str!("../data/test.toml")).expect("test scenario parses")
}

/// The start of a game on the test scenario.
pub fn start() -> Avl {
    <Avl as Game>::from_setup(&Setup {
        scenario: scenario(),
        options: avl::Options::default(),
        position: None,
    })
    .expect("test scenario is valid")
}
