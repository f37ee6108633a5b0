//! Bot speed: MCTS iterations per second on one core (as the levels search, and with
//! greedy rollouts), and the time of one greedy decision, from fixed mid-game
//! positions of classic VIKTORY II.
//!
//! `cargo bench -p ai --bench mcts` (add `-- --quick` for shorter runs, and names to run
//! only some figures: `-- --quick --exact mcts/2p-turn8`; `-- --profile` for a fixed,
//! untimed amount of search to profile). A plain timing
//! loop, as in the viktory bench: each measurement runs at least its time, three times,
//! and the median is printed. Nothing here asserts on time.

use std::hint::black_box;
use std::time::{Duration, Instant};

use ai::{AiGame, Bot, Budget, Greedy, Mcts, MctsConfig};
use engine::{Game, GameRng, NewGame, ToMove};
use viktory::Viktory;
use viktory::state::Stage;

/// The allocator of the `hexwar` binary (crates/cli), so the figures are what it gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A classic game for `players`, played by greedy bots up to the first movement
/// decision of game turn `turn`.
fn position(players: u8, turn: u16) -> Viktory {
    let mut options = serde_json::Map::new();
    options.insert("max_turns".into(), 30.into());
    let setup = Viktory::new_setup(&NewGame {
        preset: Some("classic".into()),
        options,
        players: Some(players),
    })
    .expect("preset");
    let mut s = Viktory::from_setup(&setup).expect("setup");
    let mut greedy = Greedy::default();
    let mut step = 0;
    loop {
        match s.to_move() {
            ToMove::Over(_) => panic!("the game ended before turn {turn}"),
            ToMove::Chance => {
                let a = s.sample_chance(&mut ai::arena::chance_rng(7, step));
                s.apply_unchecked(a);
            }
            ToMove::Seat(seat) => {
                let legal = s.legal_actions();
                if s.turn().number >= turn && s.turn().stage == Stage::Move && legal.len() > 5 {
                    return s;
                }
                let view = s.view(Some(seat));
                let i = Bot::<Viktory>::choose(
                    &mut greedy,
                    &view,
                    &legal,
                    &mut ai::arena::bot_rng(7, step),
                );
                s.apply_unchecked(legal[i]);
            }
        }
        step += 1;
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// MCTS iterations per second with `config` (its budget and threads set here).
fn bench_mcts(name: &str, s: &Viktory, run: Duration, config: MctsConfig) {
    let seat = s.to_move().seat().expect("a seat decides");
    let view = s.view(Some(seat));
    let legal = s.legal_actions();
    let mut rates = Vec::new();
    for r in 0..3u64 {
        let start = Instant::now();
        let mut iterations = 0u64;
        let mut k = 0u64;
        while start.elapsed() < run {
            let mut bot = Mcts::new(MctsConfig {
                budget: Budget::Iterations(100),
                trees: 1,
                threads: 1,
                ..config
            });
            // The search itself, at its whole budget (a game's turn would share it out).
            black_box(bot.choose_unpaced::<Viktory>(
                &view,
                &legal,
                &mut GameRng::from_u64(r * 1000 + k),
            ));
            iterations += bot.last.map_or(0, |l| l.iterations);
            k += 1;
        }
        rates.push(iterations as f64 / start.elapsed().as_secs_f64());
    }
    println!(
        "mcts/{name}: {:.0} iterations/s on one core (median of 3 runs of ≥{run:?}, \
         100-iteration searches; {} legal actions at the root; runs {:.0}–{:.0})",
        median(rates.clone()),
        legal.len(),
        rates.iter().copied().fold(f64::INFINITY, f64::min),
        rates.iter().copied().fold(0.0, f64::max),
    );
}

fn bench_greedy(name: &str, s: &Viktory, run: Duration) {
    let seat = s.to_move().seat().expect("a seat decides");
    let view = s.view(Some(seat));
    let legal = s.legal_actions();
    let mut times = Vec::new();
    for r in 0..3u64 {
        let start = Instant::now();
        let mut n = 0u64;
        while start.elapsed() < run {
            let mut bot = Greedy::default();
            black_box(Bot::<Viktory>::choose(
                &mut bot,
                &view,
                &legal,
                &mut GameRng::from_u64(r * 1000 + n),
            ));
            n += 1;
        }
        times.push(start.elapsed().as_secs_f64() * 1e3 / n as f64);
    }
    println!(
        "greedy/{name}: {:.2} ms per decision ({} legal actions; median of 3 runs)",
        median(times),
        legal.len()
    );
}

/// `--profile`: a fixed amount of work for callgrind or `perf`, untimed: at each of the
/// two positions, 20 searches of 100 iterations as the levels search, seeded. Prints
/// the iterations and the actions chosen, which two builds of the same search share.
fn profile() {
    for (players, turn) in [(2u8, 8u16), (4, 6)] {
        let s = position(players, turn);
        let seat = s.to_move().seat().expect("a seat decides");
        let view = s.view(Some(seat));
        let legal = s.legal_actions();
        let level = <Viktory as AiGame>::search_settings(MctsConfig::default());
        let mut iterations = 0;
        let mut chosen = Vec::new();
        for k in 0..20u64 {
            let mut bot = Mcts::new(MctsConfig {
                budget: Budget::Iterations(100),
                trees: 1,
                threads: 1,
                ..level
            });
            chosen.push(bot.choose_unpaced::<Viktory>(&view, &legal, &mut GameRng::from_u64(k)));
            iterations += bot.last.map_or(0, |l| l.iterations);
        }
        println!("profile/{players}p-turn{turn}: {iterations} iterations, chose {chosen:?}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--profile") {
        profile();
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    // Names given (`-- 2p-turn8`, `-- rollouts`) run only the figures whose names contain
    // one of them; with `--exact`, only those named in full (`-- --exact mcts/2p-turn8`).
    let exact = args.iter().any(|a| a == "--exact");
    let names: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let wanted = |name: &str| {
        names.is_empty()
            || names.iter().any(|n| {
                if exact {
                    name == *n
                } else {
                    name.contains(n.as_str())
                }
            })
    };
    let run = Duration::from_millis(if quick { 300 } else { 2000 });
    for (players, turn) in [(2u8, 8u16), (4, 6)] {
        let s = position(players, turn);
        let name = format!("{players}p-turn{turn}");
        // As the levels search (no rollouts in VIKTORY), and with the generic
        // defaults' greedy rollouts.
        let level = <Viktory as AiGame>::search_settings(MctsConfig::default());
        if wanted(&format!("mcts/{name}")) {
            bench_mcts(&name, &s, run, level);
        }
        if wanted(&format!("mcts/{name}-rollouts")) {
            bench_mcts(&format!("{name}-rollouts"), &s, run, MctsConfig::default());
        }
        if wanted(&format!("greedy/{name}")) {
            bench_greedy(&name, &s, run);
        }
    }
}
