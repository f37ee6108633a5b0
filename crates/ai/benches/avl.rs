//! Bot speed on A Victory Lost: MCTS iterations per second on one core, and the time of
//! one greedy decision and of one evaluation, from mid-game positions of the test
//! scenario and of the bundled campaign (`data/avl/campaign.toml`).
//!
//! `cargo bench -p ai --bench avl` (add `-- --quick` for shorter runs). A plain timing
//! loop: each measurement runs at least its time, three times, and the median is
//! printed. Nothing here asserts on time.

use std::hint::black_box;
use std::time::{Duration, Instant};

use ai::{AiGame, Bot, Budget, Greedy, Mcts, MctsConfig};
use avl::{Avl, Phase, Scenario, Setup};
use engine::{Game, GameRng, ToMove};

/// The allocator of the `hexwar` binary (crates/cli), so the figures are what it gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const CAMPAIGN: &str = include_str!("../../../data/avl/campaign.toml");

/// A game of `scenario` played by greedy bots up to the first Movement Segment decision
/// of game turn `turn` with more than five legal actions.
fn position(scenario: &str, turn: u8) -> Avl {
    let setup = Setup {
        scenario: Scenario::from_toml(scenario).expect("the scenario parses"),
        options: avl::Options::default(),
        position: None,
    };
    let mut s = <Avl as Game>::from_setup(&setup).expect("the scenario starts");
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
                if s.turn().0 >= turn && s.phase() == Phase::Movement && legal.len() > 5 {
                    return s;
                }
                let view = s.view(Some(seat));
                let i = Bot::<Avl>::choose(
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

/// Runs `f` for at least `run`, three times; the median of the per-call times in ms.
fn time_ms(run: Duration, mut f: impl FnMut(u64) -> u64) -> (f64, Vec<f64>) {
    let mut rates = Vec::new();
    for r in 0..3u64 {
        let start = Instant::now();
        let mut n = 0u64;
        let mut k = 0;
        while start.elapsed() < run {
            n += f(r * 1000 + k);
            k += 1;
        }
        rates.push(start.elapsed().as_secs_f64() * 1e3 / n.max(1) as f64);
    }
    (median(rates.clone()), rates)
}

fn bench(name: &str, s: &Avl, run: Duration, iterations: u32) {
    let seat = s.to_move().seat().expect("a seat decides");
    let view = s.view(Some(seat));
    let legal = s.legal_actions();
    // The same position again: the threats are looked up (`eval::forget_threats`), the
    // supply traces kept.
    let (ms, _) = time_ms(run, |_| {
        black_box(s.evaluate());
        1
    });
    let (cold, _) = time_ms(run, |_| {
        ai::avl::eval::forget_threats();
        black_box(s.evaluate());
        1
    });
    println!(
        "eval/{name}: {:.1} µs per evaluation of the same position again, {:.1} µs with its threats worked out",
        ms * 1e3,
        cold * 1e3
    );
    let (ms, _) = time_ms(run, |k| {
        black_box(Bot::<Avl>::choose(
            &mut Greedy::default(),
            &view,
            &legal,
            &mut GameRng::from_u64(k),
        ));
        1
    });
    println!(
        "greedy/{name}: {ms:.2} ms per decision ({} legal actions; median of 3 runs)",
        legal.len()
    );
    let (ms, runs) = time_ms(run, |k| {
        let mut bot = Mcts::new(MctsConfig {
            budget: Budget::Iterations(iterations),
            trees: 1,
            threads: 1,
            ..MctsConfig::default()
        });
        black_box(Bot::<Avl>::choose(
            &mut bot,
            &view,
            &legal,
            &mut GameRng::from_u64(k),
        ));
        bot.last.map_or(0, |l| l.iterations)
    });
    let rate = |ms: f64| 1e3 / ms;
    println!(
        "mcts/{name}: {:.0} iterations/s on one core (median of 3 runs of ≥{run:?}, \
         {iterations}-iteration searches; {} legal actions at the root; runs {:.0}–{:.0})",
        rate(ms),
        legal.len(),
        runs.iter().copied().map(rate).fold(f64::INFINITY, f64::min),
        runs.iter().copied().map(rate).fold(0.0, f64::max),
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let run = Duration::from_millis(if quick { 300 } else { 3000 });
    bench("test-turn2", &position(avl::DEMO_SCENARIO, 2), run, 100);
    bench("campaign-turn2", &position(CAMPAIGN, 2), run, 10);
}
