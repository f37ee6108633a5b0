//! `hexwar tune`: learns an evaluation's weights (VIKTORY II's, or A Victory Lost's
//! with `--game avl`) from self-play ([`ai::tune`]), and the weight files `hexwar
//! simulate` plays with (`--bots easy:FILE`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use ai::AiGame;
use ai::tune::{Fit, SelfPlay};
use serde_json::{Value, json};

/// `hexwar tune` flags.
#[derive(clap::Args, Debug)]
pub(crate) struct TuneArgs {
    /// `spsa`: tune by play (greedy bots with the weights moved up against them moved
    /// down); `regression`: fit the weights to predict self-play results.
    #[arg(long, default_value = "spsa")]
    method: String,
    /// The game: viktory or avl (A Victory Lost).
    #[arg(long, default_value = "viktory")]
    game: String,
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
    /// The preset (VIKTORY: default classic; A Victory Lost: campaign, or demo).
    #[arg(long)]
    preset: Option<String>,
    /// A Victory Lost only: play this scenario file instead of the preset's.
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// VIKTORY only: game turns before the empires are scored; default 30.
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

/// Largest weight file read, in bytes (a file of 25 weights is under 2 KiB).
const MAX_FILE: u64 = 1 << 20;

/// The weights a name stands for in a family whose evaluation has weights: `hand` (as
/// set by hand) and `default` (what the bots play with).
pub(crate) fn named_weights<G: AiGame>(name: &str) -> Option<Vec<f64>> {
    if G::weights().is_empty() {
        return None;
    }
    match name {
        "hand" => Some(G::hand_weights()),
        "default" => Some(G::weights().into_iter().map(|(_, v)| v).collect()),
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
    match args.game.as_str() {
        "viktory" => {
            if args.scenario.is_some() {
                return Err("--scenario is for A Victory Lost (--game avl)".into());
            }
            let preset = args.preset.clone().unwrap_or_else(|| "classic".into());
            let max_turns = args.max_turns.unwrap_or(30);
            let start = crate::simulate::viktory_start(
                &preset,
                max_turns,
                serde_json::Map::new(),
                args.players,
            )?;
            let game = json!({"preset": preset, "max_turns": max_turns});
            let label = format!("preset {preset}, max turns {max_turns}");
            tune_game(args, &start, game, &label)
        }
        "avl" => {
            if args.max_turns.is_some() {
                return Err(
                    "A Victory Lost ends by its scenario's last turn or sudden death \
                            (14.0.2); --max-turns is for VIKTORY"
                        .into(),
                );
            }
            let preset = args.preset.clone().unwrap_or_else(|| "campaign".into());
            let (start, setup) = crate::simulate::avl_start(
                &preset,
                args.scenario.as_deref(),
                serde_json::Map::new(),
                args.players,
            )?;
            let name = setup.scenario.name;
            let game = json!({
                "preset": preset,
                "scenario": name,
                "scenario_file": args.scenario.as_ref().map(|p| p.display().to_string()),
            });
            let label = format!("A Victory Lost, preset {preset}, scenario \"{name}\"");
            tune_game(args, &start, game, &label)
        }
        other => Err(format!("no game {other:?}; the games are viktory, avl")),
    }
}

/// Tunes `G`'s weights on games from `start`; `game` describes them in the output file.
fn tune_game<G: AiGame + Sync>(
    args: &TuneArgs,
    start_state: &G,
    game: Value,
    label: &str,
) -> Result<(), String> {
    let start = read_weights::<G>(&args.start)?;
    println!(
        "{} tuning, {label}, {} players, seed {}, from {}",
        args.method, args.players, args.seed, args.start
    );
    let mut doc = json!({
        "game": G::NAME,
        "command": std::env::args().collect::<Vec<_>>().join(" "),
        "method": args.method,
        "players": args.players,
        "seed": args.seed,
        "start": weights_json::<G>(&start),
    });
    if let (Value::Object(d), Value::Object(g)) = (&mut doc, game) {
        d.extend(g);
    }
    let tuned = match args.method.as_str() {
        "spsa" => by_play(args, start_state, &start, &mut doc)?,
        "regression" => by_prediction(args, start_state, &start, &mut doc)?,
        other => {
            return Err(format!(
                "no method {other:?}; the methods are spsa, regression"
            ));
        }
    };
    print_weights::<G>(&start, &tuned);
    doc["weights"] = weights_json::<G>(&tuned);
    if args.check_games > 0 {
        let clock = std::time::Instant::now();
        let tuned_arc: Arc<[f64]> = tuned.clone().into();
        let share = ai::tune::match_score(
            start_state,
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

fn by_play<G: AiGame + Sync>(
    args: &TuneArgs,
    start_state: &G,
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
    let tuned = ai::tune::spsa(
        start_state,
        start,
        &G::tuning_scales(start),
        &plan,
        &mut |k, step| {
            shares.push(step.up_share);
            if (k + 1) % 25 == 0 || k + 1 == args.steps {
                eprintln!(
                    "step {}/{}: {:.0} s",
                    k + 1,
                    args.steps,
                    clock.elapsed().as_secs_f64()
                );
            }
        },
    );
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

fn by_prediction<G: AiGame + Sync>(
    args: &TuneArgs,
    start_state: &G,
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
    let fit = ai::tune::fit(
        &samples,
        start,
        &G::tuning_scales(start),
        args.passes,
        threads,
    );
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

fn print_weights<G: AiGame>(start: &[f64], tuned: &[f64]) {
    println!("{:<16} {:>9} {:>9}", "weight", "start", "tuned");
    for (((name, _), s), t) in G::weights().iter().zip(start).zip(tuned) {
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
