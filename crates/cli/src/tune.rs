//! `hexwar tune`: learns the VIKTORY II evaluation's weights from self-play
//! ([`ai::tune`]), and the weight files `hexwar simulate` plays with (`--bots
//! easy:FILE`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use ai::AiGame;
use ai::tune::{Fit, SelfPlay};
use ai::viktory::eval::Weights;
use engine::Game;
use serde_json::{Value, json};
use viktory::Viktory;

/// `hexwar tune` flags.
#[derive(clap::Args, Debug)]
pub(crate) struct TuneArgs {
    /// `spsa`: tune by play (greedy bots with the weights moved up against them moved
    /// down); `regression`: fit the weights to predict self-play results.
    #[arg(long, default_value = "spsa")]
    method: String,
    /// spsa: steps.
    #[arg(long, default_value_t = 500)]
    steps: usize,
    /// spsa: games per step (a multiple of the players; seat-swapped on each seed).
    #[arg(long, default_value_t = 16)]
    step_games: usize,
    /// spsa: how far the weights are moved up and down, in quarters of each weight
    /// (decaying slowly over the steps).
    #[arg(long, default_value_t = 1.0)]
    perturbation: f64,
    /// spsa: the step's size per unit of score difference (decaying over the steps).
    #[arg(long, default_value_t = 2.0)]
    gain: f64,
    /// Games of the tuned weights against the start at the end (0: none).
    #[arg(long, default_value_t = 400)]
    check_games: usize,
    /// regression: self-play games (every fifth is held out to test the fit).
    #[arg(long, default_value_t = 300)]
    games: usize,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// The VIKTORY preset (default classic).
    #[arg(long)]
    preset: Option<String>,
    /// Game turns before the empires are scored; default 30.
    #[arg(long)]
    max_turns: Option<u16>,
    /// Seed of the games (game i: seed·1000003 + i) and so of the whole run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// regression: percent of the self-play decisions taken at random.
    #[arg(long, default_value_t = 5)]
    random_percent: u32,
    /// regression: passes of the coordinate descent at most.
    #[arg(long, default_value_t = 8)]
    passes: usize,
    /// Threads (games played at once, then shares of the positions).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The weights to start from and to play the games with: `hand`, `default` or a
    /// file written by `hexwar tune` (default: `default`).
    #[arg(long, default_value = "default")]
    start: String,
    /// Write the tuned weights here (JSON), for `hexwar simulate --bots easy:FILE`.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub(crate) fn run(args: &TuneArgs) -> ExitCode {
    match tune(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexwar tune: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Largest weight file read, in bytes (a file of 18 weights is under 1 KiB).
const MAX_FILE: u64 = 1 << 20;

/// The weights a name stands for in a family whose evaluation has weights: `hand` (as
/// set by hand) and `default` (what the bots play with).
pub(crate) fn named_weights<G: AiGame>(name: &str) -> Option<Vec<f64>> {
    if G::NAME != Viktory::NAME {
        return None;
    }
    match name {
        "hand" => Some(Weights::HAND.values().to_vec()),
        "default" => Some(Weights::DEFAULT.values().to_vec()),
        _ => None,
    }
}

/// Reads weights for `G`'s evaluation: `hand`, `default`, or a JSON file whose
/// `"weights"` object names each of [`AiGame::weights`] once with a number at least 0.
pub(crate) fn read_weights<G: AiGame>(spec: &str) -> Result<Arc<[f64]>, String> {
    let names = G::weights();
    if names.is_empty() {
        return Err(format!("the {} evaluation has no weights to set", G::NAME));
    }
    if let Some(v) = named_weights::<G>(spec) {
        return Ok(v.into());
    }
    let path = std::path::Path::new(spec);
    let size = std::fs::metadata(path)
        .map_err(|e| format!("weights {spec:?}: not hand, default or a readable file ({e})"))?
        .len();
    if size > MAX_FILE {
        return Err(format!(
            "{spec}: {size} bytes; a weight file is at most {MAX_FILE}"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{spec}: {e}"))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{spec}: not JSON: {e}"))?;
    let Some(given) = doc.get("weights").and_then(Value::as_object) else {
        return Err(format!("{spec}: no \"weights\" object"));
    };
    if let Some(game) = doc.get("game").and_then(Value::as_str)
        && game != G::NAME
    {
        return Err(format!("{spec}: weights for {game}, not {}", G::NAME));
    }
    if let Some(unknown) = given.keys().find(|k| !names.iter().any(|(n, _)| n == k)) {
        return Err(format!(
            "{spec}: no weight {unknown:?}; the weights are {}",
            names.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
        ));
    }
    let mut values = Vec::with_capacity(names.len());
    for (name, _) in &names {
        let v = given
            .get(*name)
            .ok_or_else(|| format!("{spec}: weight {name:?} missing"))?
            .as_f64()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| format!("{spec}: weight {name:?} must be a number at least 0"))?;
        values.push(v);
    }
    Ok(values.into())
}

/// The weights as a JSON object, by name.
fn weights_json<G: AiGame>(values: &[f64]) -> Value {
    let map: serde_json::Map<String, Value> = G::weights()
        .iter()
        .zip(values)
        .map(|((name, _), v)| ((*name).to_owned(), json!(v)))
        .collect();
    Value::Object(map)
}

fn tune(args: &TuneArgs) -> Result<(), String> {
    let preset = args.preset.clone().unwrap_or_else(|| "classic".into());
    let max_turns = args.max_turns.unwrap_or(30);
    let start_state =
        crate::simulate::viktory_start(&preset, max_turns, serde_json::Map::new(), args.players)?;
    let start = read_weights::<Viktory>(&args.start)?;
    println!(
        "{} tuning, preset {preset}, {} players, max turns {max_turns}, seed {}, from {}",
        args.method, args.players, args.seed, args.start
    );
    let mut doc = json!({
        "game": Viktory::NAME,
        "command": std::env::args().collect::<Vec<_>>().join(" "),
        "method": args.method,
        "preset": preset,
        "players": args.players,
        "max_turns": max_turns,
        "seed": args.seed,
        "start": weights_json::<Viktory>(&start),
    });
    let tuned = match args.method.as_str() {
        "spsa" => by_play(args, &start_state, &start, &mut doc)?,
        "regression" => by_prediction(args, &start_state, &start, &mut doc)?,
        other => {
            return Err(format!(
                "no method {other:?}; the methods are spsa, regression"
            ));
        }
    };
    print_weights(&start, &tuned);
    doc["weights"] = weights_json::<Viktory>(&tuned);
    if args.check_games > 0 {
        let clock = std::time::Instant::now();
        let tuned_arc: Arc<[f64]> = tuned.clone().into();
        let share = ai::tune::match_score(
            &start_state,
            &tuned_arc,
            &start,
            args.check_games,
            args.seed.wrapping_add(0xc4ec),
            args.threads.max(1),
            20_000,
        );
        let games = args.check_games.div_ceil(usize::from(args.players.max(1)))
            * usize::from(args.players.max(1));
        println!(
            "check: the tuned weights scored {:.1} % against the start in {games} games \
             (greedy bots, seat-swapped seeds): {:.0} s",
            share * 100.0,
            clock.elapsed().as_secs_f64()
        );
        doc["check"] = json!({"games": games, "share": share});
    }
    if let Some(path) = &args.out {
        let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
        println!("tuned weights written to {}", path.display());
    }
    Ok(())
}

/// The first step of each weight: a quarter of it (at least 0.05), except the town,
/// which is the scale (win shares depend on the ratios of the sums), and the site cap,
/// a count: those two stay.
fn scales(start: &[f64]) -> Vec<f64> {
    Weights::NAMES
        .iter()
        .zip(start)
        .map(|(name, v)| match *name {
            "town" | "sites_max" => 0.0,
            _ => (v.abs() * 0.25).max(0.05),
        })
        .collect()
}

fn by_play(
    args: &TuneArgs,
    start_state: &Viktory,
    start: &Arc<[f64]>,
    doc: &mut Value,
) -> Result<Vec<f64>, String> {
    if args.steps == 0 || args.step_games == 0 {
        return Err("--steps and --step-games must be at least 1".into());
    }
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if !positive(args.perturbation) || !positive(args.gain) {
        return Err("--perturbation and --gain must be numbers above 0".into());
    }
    let plan = ai::tune::Spsa {
        steps: args.steps,
        games: args.step_games,
        seed: args.seed,
        threads: args.threads.max(1),
        a: args.gain,
        c: args.perturbation,
        ..ai::tune::Spsa::default()
    };
    let clock = std::time::Instant::now();
    let mut shares = Vec::with_capacity(args.steps);
    let tuned = ai::tune::spsa(start_state, start, &scales(start), &plan, &mut |k, step| {
        shares.push(step.up_share);
        if (k + 1) % 25 == 0 || k + 1 == args.steps {
            eprintln!(
                "step {}/{}: {:.0} s",
                k + 1,
                args.steps,
                clock.elapsed().as_secs_f64()
            );
        }
    });
    println!(
        "{} steps of {} games: {:.0} s",
        args.steps,
        plan.games,
        clock.elapsed().as_secs_f64()
    );
    doc["steps"] = json!(args.steps);
    doc["step_games"] = json!(plan.games);
    doc["perturbation"] = json!(plan.c);
    doc["gain"] = json!(plan.a);
    doc["up_shares"] = json!(shares);
    Ok(tuned)
}

fn by_prediction(
    args: &TuneArgs,
    start_state: &Viktory,
    start: &Arc<[f64]>,
    doc: &mut Value,
) -> Result<Vec<f64>, String> {
    if args.games < 5 {
        return Err("--games must be at least 5 (every fifth game is held out)".into());
    }
    let threads = args.threads.max(1);
    let clock = std::time::Instant::now();
    let samples = ai::tune::self_play(
        start_state,
        &SelfPlay {
            games: args.games,
            seed: args.seed,
            random_percent: args.random_percent.min(100),
            max_decisions: 20_000,
            threads,
            weights: Some(Arc::clone(start)),
        },
    );
    let games_done = {
        let mut g: Vec<usize> = samples.iter().map(|s| s.game).collect();
        g.dedup();
        g.len()
    };
    let held = samples.iter().filter(|s| s.held_out()).count();
    println!(
        "{} positions from {games_done} of {} games ({held} held out): {:.0} s",
        samples.len(),
        args.games,
        clock.elapsed().as_secs_f64()
    );
    if samples.len() == held || held == 0 {
        return Err("too few finished games to train and test on".into());
    }
    let clock = std::time::Instant::now();
    let fit = ai::tune::fit(&samples, start, &scales(start), args.passes, threads);
    print_fit(&fit);
    println!(
        "{} loss evaluations, {:.0} s",
        fit.evaluations,
        clock.elapsed().as_secs_f64()
    );
    doc["games"] = json!(args.games);
    doc["positions"] = json!(samples.len());
    doc["loss"] = json!({
        "before": {"train": fit.before.train, "test": fit.before.test},
        "after": {"train": fit.after.train, "test": fit.after.test},
    });
    Ok(fit.weights)
}

fn print_weights(start: &[f64], tuned: &[f64]) {
    println!("{:<16} {:>9} {:>9}", "weight", "start", "tuned");
    for ((name, s), t) in Weights::NAMES.iter().zip(start).zip(tuned) {
        println!("{name:<16} {s:>9.4} {t:>9.4}");
    }
}

fn print_fit(fit: &Fit) {
    println!(
        "loss (cross-entropy per position): training {:.4} -> {:.4}, held out {:.4} -> {:.4}",
        fit.before.train, fit.after.train, fit.before.test, fit.after.test
    );
    let passes: Vec<String> = fit.passes.iter().map(|l| format!("{l:.4}")).collect();
    println!("training loss by pass: {}", passes.join(", "));
}
