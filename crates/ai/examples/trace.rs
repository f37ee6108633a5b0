#![allow(clippy::all, clippy::pedantic, missing_docs)]
//! Development trace: one game, printing seat 0's decisions and the evaluation.
//! `cargo run --release -p ai --example trace -- greedy random 12 1`

use ai::{AiGame, Bot, Greedy, RandomBot};
use engine::{Game, NewGame, ToMove};
use viktory::Viktory;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let turns: u64 = args[2].parse().unwrap();
    let seed: u64 = args[3].parse().unwrap();
    let mut options = serde_json::Map::new();
    options.insert("max_turns".into(), turns.into());
    let setup = Viktory::new_setup(&NewGame {
        preset: Some("classic".into()),
        options,
        players: Some(2),
    })
    .unwrap();
    let mut s = Viktory::from_setup(&setup).unwrap();
    let mk = |n: &str| -> Box<dyn Bot<Viktory>> {
        if n == "greedy" {
            Box::new(Greedy::default())
        } else {
            Box::new(RandomBot)
        }
    };
    let mut bots = [mk(&args[0]), mk(&args[1])];
    let mut step = 0;
    loop {
        match s.to_move() {
            ToMove::Over(o) => {
                println!("over: {o:?}");
                break;
            }
            ToMove::Chance => {
                let a = s.sample_chance(&mut ai::arena::chance_rng(seed, step));
                s.apply_unchecked(a);
            }
            ToMove::Seat(seat) => {
                let legal = s.legal_actions();
                let view = s.view(Some(seat));
                let i =
                    bots[seat.index()].choose(&view, &legal, &mut ai::arena::bot_rng(seed, step));
                if seat.0 == 0 {
                    let m = ai::viktory::eval::material(&s, &ai::viktory::eval::Weights::DEFAULT);
                    println!(
                        "t{} {:?} {}: {} of {} | material {:.1?} eval {:.3?}",
                        s.turn().number,
                        s.turn().stage,
                        seat,
                        s.describe_action(&legal[i]),
                        legal.len(),
                        m,
                        s.evaluate()
                    );
                }
                s.apply_unchecked(legal[i]);
            }
        }
        step += 1;
    }
}
