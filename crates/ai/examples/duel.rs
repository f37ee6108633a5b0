#![allow(clippy::all, clippy::pedantic, missing_docs)]
//! Quick duel for development: `cargo run --release -p ai --example duel -- greedy random 10 15`.

use ai::arena::{self, play_game};
use ai::{Bot, Budget, Greedy, Mcts, MctsConfig, RandomBot};
use engine::{Game, NewGame};
use viktory::Viktory;

fn bot(name: &str) -> Box<dyn Bot<Viktory>> {
    match name {
        "random" => Box::new(RandomBot),
        "greedy" => Box::new(Greedy::default()),
        n => {
            let it: u32 = n.trim_start_matches("mcts").parse().unwrap_or(200);
            Box::new(Mcts::new(MctsConfig {
                budget: Budget::Iterations(it),
                trees: 1,
                threads: 1,
                ..MctsConfig::default()
            }))
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (a, b) = (&args[0], &args[1]);
    let games: u64 = args[2].parse().unwrap();
    let turns: u64 = args[3].parse().unwrap();
    let mut wins = [0u32; 2];
    for g in 0..games {
        let mut options = serde_json::Map::new();
        options.insert("max_turns".into(), turns.into());
        let setup = Viktory::new_setup(&NewGame {
            preset: Some("classic".into()),
            options,
            players: Some(2),
        })
        .unwrap();
        let state = Viktory::from_setup(&setup).unwrap();
        let first = (g % 2) as usize;
        let mut bots: Vec<Box<dyn Bot<Viktory>>> = vec![bot(a), bot(b)];
        if first == 1 {
            bots.swap(0, 1);
        }
        let t = std::time::Instant::now();
        let p = play_game(state, &mut bots, g, 100_000, ai::viktory::turn_marker);
        let w = arena::winners(&p);
        let o = p.outcome.clone().unwrap();
        for s in &w {
            let who = if s.index() == first { 0 } else { 1 };
            wins[who] += 1;
        }
        println!(
            "game {g}: {a} is seat {first}; winners {:?} ({}), scores {:?}, turn {}, {} decisions, {:.1}s",
            w,
            o.reason,
            o.scores,
            p.state.turn().number,
            p.decisions,
            t.elapsed().as_secs_f64()
        );
    }
    println!("{a} {} – {b} {}", wins[0], wins[1]);
}
