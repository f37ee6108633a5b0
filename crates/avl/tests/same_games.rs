//! The same games: seeded random playouts (those of `campaign_plain_timing`, and some of
//! the test scenario) must play exactly the same actions to exactly the same positions
//! as the engine did before its speed-ups. The fingerprints (FNV-1a over every action
//! and every position after it, as JSON) were taken with the engine at `17f1181`.

mod common;

use avl::{Avl, Scenario, Setup};
use engine::{Game, GameRng, ToMove};

const CAMPAIGN: &str = include_str!("../../../data/avl/campaign.toml");

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Plays `games` seeded random playouts from `start` (seeds from 0) and returns the
/// fingerprint and the number of actions.
fn fingerprint(start: &Avl, games: u64) -> (u64, usize) {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let mut actions = 0;
    for seed in 0..games {
        let mut rng = GameRng::from_u64(seed);
        let mut s = start.clone();
        loop {
            let a = match s.to_move() {
                ToMove::Over(_) => break,
                ToMove::Chance => s.sample_chance(&mut rng),
                ToMove::Seat(_) => {
                    let legal = s.legal_actions();
                    legal[rng.below(legal.len() as u32) as usize]
                }
            };
            s.apply(a).expect("a legal action");
            h.add(format!("{a:?}").as_bytes());
            h.add(&serde_json::to_vec(s.position()).expect("the position serialises"));
            actions += 1;
        }
    }
    (h.0, actions)
}

#[test]
fn campaign_playouts_are_the_same_games() {
    let start = <Avl as Game>::from_setup(&Setup {
        scenario: Scenario::from_toml(CAMPAIGN).expect("campaign.toml parses"),
        options: avl::Options::default(),
        position: None,
    })
    .expect("campaign.toml starts");
    let (f, n) = fingerprint(&start, 4);
    eprintln!("campaign: {n} actions, fingerprint {f:#018x}");
    assert_eq!((f, n), (0x8efc_bc8d_84be_60a6, 5296));
}

#[test]
fn test_scenario_playouts_are_the_same_games() {
    let (f, n) = fingerprint(&common::start(), 40);
    eprintln!("test scenario: {n} actions, fingerprint {f:#018x}");
    assert_eq!((f, n), (0xcc28_8654_5837_e141, 21_055));
}
