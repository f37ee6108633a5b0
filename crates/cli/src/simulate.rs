//! `hexwar simulate`: bot tournaments on VIKTORY II (`--game viktory`, the default) and
//! A Victory Lost (`--game avl`).
//!
//! Every game is seeded from `--seed` and its index, chance and bot decisions from
//! separate streams ([`ai::arena`]), so a run with an iteration budget gives the same
//! table whatever `--threads` says; with `--budget-ms` thinking depends on the machine.
//! Seats rotate so each bot plays each seat equally often. VIKTORY games stopped by
//! `--max-turns` end by the 5.3 empire score (R-19), ties shared. A Victory Lost games
//! end by the scenario's own rules (14.0.2: sudden death or the last turn), and the
//! table adds each bot's results by side (Axis, Soviet).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ai::{AiGame, Bot, Budget, Greedy, Level, Mcts, MctsConfig, RandomBot};
use avl::Avl;
use engine::{Game, NewGame};
use serde_json::{Value, json};
use viktory::Viktory;

/// `hexwar simulate` flags.
#[derive(clap::Args, Debug)]
pub(crate) struct SimulateArgs {
    /// Bots, comma-separated: random, greedy, mcts, or a level (easy, normal, hard);
    /// `NAME:WEIGHTS` evaluates with other weights (VIKTORY: `hand`, `default`, or a
    /// file from `hexwar tune`); `fresh-NAME` (mcts, normal, hard) starts every
    /// decision's search from a new tree, not the turn's kept one, and (greedy, easy)
    /// plans every decision's whole moves from nothing, not from the turn's kept plan.
    /// Two bots with more than two players: the first against a field of the second.
    #[arg(long, default_value = "greedy,random", value_delimiter = ',')]
    bots: Vec<String>,
    /// Games per pairing.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The game: viktory or avl (A Victory Lost).
    #[arg(long, default_value = "viktory")]
    game: String,
    /// The preset (VIKTORY: default classic; A Victory Lost: campaign, or demo).
    #[arg(long)]
    preset: Option<String>,
    /// A Victory Lost only: play this scenario file instead of the preset's
    /// (e.g. data/avl/campaign.toml).
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    players: u8,
    /// Tournament seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// MCTS thinking time per decision, in milliseconds (not repeatable).
    #[arg(long, conflicts_with = "iterations")]
    budget_ms: Option<u64>,
    /// MCTS iterations per decision (repeatable; the default is 200).
    #[arg(long)]
    iterations: Option<u32>,
    /// MCTS independent trees per decision (root parallelism).
    #[arg(long, default_value_t = 1)]
    trees: u32,
    /// VIKTORY only: game turns before the empires are scored (R-19); 0: no limit
    /// (default 30).
    #[arg(long)]
    max_turns: Option<u16>,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// More preset options, as a JSON object (A Victory Lost: the 15.0 options).
    #[arg(long)]
    options: Option<String>,
    /// Write every game and the summary as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write a chart of the win rates as SVG here.
    #[arg(long)]
    svg: Option<PathBuf>,
}

/// One game of the tournament.
#[derive(Clone, Debug)]
struct GameResult {
    index: usize,
    seed: u64,
    /// Bot index per seat.
    lineup: Vec<usize>,
    /// Win share per seat (winners share 1).
    shares: Vec<f64>,
    scores: Vec<i64>,
    reason: String,
    turns: u16,
    decisions: u64,
    /// Per seat: decisions, seconds thinking, player turns.
    thinking: Vec<(u64, f64, u64)>,
    /// Per seat: the seconds spent choosing in each of its player turns.
    turn_secs: Vec<Vec<f64>>,
}

pub(crate) fn run(args: &SimulateArgs) -> ExitCode {
    match simulate(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexwar simulate: {e}");
            ExitCode::FAILURE
        }
    }
}

fn budget(args: &SimulateArgs) -> Budget {
    match (args.budget_ms, args.iterations) {
        (Some(ms), _) => Budget::Time(Duration::from_millis(ms)),
        (None, Some(n)) => Budget::Iterations(n),
        (None, None) => Budget::Iterations(200),
    }
}

/// The bot a `--bots` name stands for; `NAME:WEIGHTS` evaluates with other weights
/// (`hand`, `default` or a file written by `hexwar tune`).
fn make_bot<G: AiGame>(name: &str, args: &SimulateArgs) -> Result<Box<dyn Bot<G>>, String> {
    let (base, weights) = match name.split_once(':') {
        Some((base, spec)) => (base, Some(crate::tune::read_weights::<G>(spec)?)),
        None => (name, None),
    };
    if let Some(searcher) = base.strip_prefix("fresh-") {
        if matches!(searcher, "greedy" | "easy") {
            return Ok(Box::new(Greedy {
                weights,
                memory: None,
                ..Greedy::default()
            }));
        }
        let config = match searcher {
            "mcts" => mcts_config::<G>(args),
            other => match other.parse::<Level>() {
                Ok(level @ (Level::Normal | Level::Hard)) => {
                    level.search::<G>(Duration::from_hours(1), args.trees.max(1))
                }
                _ => {
                    return Err(format!(
                        "fresh-{other}: only greedy, easy, mcts, normal and hard keep a turn's plan"
                    ));
                }
            },
        };
        let mut mcts = Mcts::new(MctsConfig {
            reuse: false,
            ..config
        });
        mcts.weights = weights;
        return Ok(Box::new(mcts));
    }
    Ok(match base {
        "random" if weights.is_some() => {
            return Err("the random bot has no evaluation to weigh".into());
        }
        "random" => Box::new(RandomBot),
        "greedy" => Box::new(Greedy {
            weights,
            ..Greedy::default()
        }),
        "mcts" => {
            let mut mcts = Mcts::new(mcts_config::<G>(args));
            mcts.weights = weights;
            Box::new(mcts)
        }
        other => {
            let level: Level = other
                .parse()
                .map_err(|e| format!("{e} (or greedy, mcts)"))?;
            level.bot_weighted::<G>(Duration::from_hours(1), args.trees.max(1), weights)
        }
    })
}

/// The `mcts` bot's settings from the flags.
fn mcts_config<G: AiGame>(args: &SimulateArgs) -> MctsConfig {
    G::search_settings(MctsConfig {
        budget: budget(args),
        trees: args.trees.max(1),
        threads: args.trees.max(1),
        ..MctsConfig::default()
    })
}

fn preset_options(args: &SimulateArgs) -> Result<serde_json::Map<String, Value>, String> {
    match &args.options {
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => Ok(m),
            _ => Err("--options must be a JSON object".into()),
        },
        None => Ok(serde_json::Map::new()),
    }
}

/// A VIKTORY game of `preset` for `players`, scored at `max_turns` (0: no limit, R-19),
/// with more preset `options`: where `simulate` and `tune` start their games.
pub(crate) fn viktory_start(
    preset: &str,
    max_turns: u16,
    mut options: serde_json::Map<String, Value>,
    players: u8,
) -> Result<Viktory, String> {
    if max_turns > 0 {
        options.insert("max_turns".into(), max_turns.into());
    }
    let setup = Viktory::new_setup(&NewGame {
        preset: Some(preset.to_owned()),
        options,
        players: Some(players),
    })
    .map_err(|e| e.to_string())?;
    Viktory::from_setup(&setup).map_err(|e| e.to_string())
}

/// An A Victory Lost game of `preset` (or of the scenario file at `scenario`) with more
/// preset `options`: where `simulate` and `tune` start their games. Also returns the
/// setup it was built from.
pub(crate) fn avl_start(
    preset: &str,
    scenario: Option<&std::path::Path>,
    options: serde_json::Map<String, Value>,
    players: u8,
) -> Result<(Avl, avl::Setup), String> {
    let mut setup = Avl::new_setup(&NewGame {
        preset: Some(preset.to_owned()),
        options,
        players: Some(players),
    })
    .map_err(|e| e.to_string())?;
    if let Some(path) = scenario {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        setup.scenario = avl::Scenario::from_toml(&text).map_err(|problems| {
            let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
            format!("{}: {}", path.display(), lines.join("; "))
        })?;
    }
    let state = Avl::from_setup(&setup).map_err(|e| e.to_string())?;
    Ok((state, setup))
}

/// A tournament's starting position and how the table names it.
struct Start<G> {
    state: G,
    /// In the table's first line: "preset classic, max turns 30".
    header: String,
    /// In the chart's title.
    chart: String,
    /// Fields of the JSON document that describe the game.
    fields: serde_json::Map<String, Value>,
}

/// What `simulate` needs of a game family beyond the bots' interface.
trait Family: AiGame + Sync {
    /// The starting position the flags ask for.
    fn start(args: &SimulateArgs) -> Result<Start<Self>, String>;
    /// The line under the table's first: how the games ended.
    fn endings(results: &[GameResult]) -> String;
    /// Lines after the pairwise results (empty: none).
    fn after(args: &SimulateArgs, results: &[GameResult]) -> String;
}

impl Family for Viktory {
    fn start(args: &SimulateArgs) -> Result<Start<Viktory>, String> {
        if args.scenario.is_some() {
            return Err("--scenario is for A Victory Lost (--game avl)".into());
        }
        let preset = args.preset.clone().unwrap_or_else(|| "classic".into());
        let max_turns = args.max_turns.unwrap_or(30);
        let state = viktory_start(&preset, max_turns, preset_options(args)?, args.players)?;
        let mut fields = serde_json::Map::new();
        fields.insert("preset".into(), preset.clone().into());
        fields.insert("max_turns".into(), max_turns.into());
        Ok(Start {
            state,
            header: format!("preset {preset}, max turns {max_turns}"),
            chart: preset,
            fields,
        })
    }

    fn endings(results: &[GameResult]) -> String {
        let limit = results.iter().filter(|r| r.reason == "turn limit").count();
        format!(
            "{limit} of {} games reached the turn limit (scored by 5.3, ties shared)",
            results.len()
        )
    }

    fn after(_args: &SimulateArgs, _results: &[GameResult]) -> String {
        String::new()
    }
}

impl Family for Avl {
    fn start(args: &SimulateArgs) -> Result<Start<Avl>, String> {
        if args.max_turns.is_some() {
            return Err(
                "A Victory Lost ends by its scenario's last turn or sudden death (14.0.2); \
                 --max-turns is for VIKTORY"
                    .into(),
            );
        }
        let preset = args.preset.clone().unwrap_or_else(|| "campaign".into());
        let (state, setup) = avl_start(
            &preset,
            args.scenario.as_deref(),
            preset_options(args)?,
            args.players,
        )?;
        let name = setup.scenario.name.clone();
        let turns = setup.scenario.turns;
        let mut fields = serde_json::Map::new();
        fields.insert("game".into(), "avl".into());
        fields.insert("preset".into(), preset.clone().into());
        fields.insert("scenario".into(), name.clone().into());
        fields.insert(
            "scenario_file".into(),
            args.scenario
                .as_ref()
                .map_or(Value::Null, |p| p.display().to_string().into()),
        );
        fields.insert("turns".into(), turns.into());
        Ok(Start {
            state,
            header: format!("A Victory Lost, preset {preset}, scenario \"{name}\" ({turns} turns)"),
            chart: format!("A Victory Lost, {name}"),
            fields,
        })
    }

    fn endings(results: &[GameResult]) -> String {
        let sudden = results
            .iter()
            .filter(|r| r.reason == "sudden death")
            .count();
        let last = results
            .iter()
            .filter(|r| r.reason.starts_with("end of turn"))
            .count();
        let stuck = results
            .iter()
            .filter(|r| r.reason.starts_with("stuck"))
            .count();
        let drawn = results
            .iter()
            .filter(|r| r.reason.starts_with("end of turn"))
            .filter(|r| r.shares.first().is_some_and(|&x| (x - 0.5).abs() < 1e-9))
            .count();
        let axis = results
            .iter()
            .filter(|r| r.shares.first().is_some_and(|&x| x > 0.5))
            .count();
        format!(
            "{} games: {sudden} ended by sudden death, {last} after the last turn (14.0.2), {} \
             stopped at the decision limit, {stuck} stuck with no legal action (both shared); \
             the Axis won {axis}, the Soviet player {}, {drawn} drawn",
            results.len(),
            results.len() - sudden - last - stuck,
            sudden + last - axis - drawn,
        )
    }

    fn after(args: &SimulateArgs, results: &[GameResult]) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "\nby side (wins of games played on that side, ties shared):"
        );
        let _ = writeln!(
            t,
            "\n| bot | as Axis | Axis win rate | as Soviet | Soviet win rate |"
        );
        let _ = writeln!(t, "|---|---|---|---|---|");
        for (b, name) in args.bots.iter().enumerate() {
            let mut cells = Vec::new();
            for seat in 0..2 {
                let (n, wins) = results
                    .iter()
                    .filter(|r| r.lineup.get(seat) == Some(&b))
                    .fold((0usize, 0.0f64), |(n, w), r| {
                        (n + 1, w + r.shares.get(seat).copied().unwrap_or(0.0))
                    });
                let rate = if n > 0 { 100.0 * wins / n as f64 } else { 0.0 };
                cells.push(format!("{wins:.1} of {n} | {rate:.1} %"));
            }
            let _ = writeln!(t, "| {name} | {} | {} |", cells[0], cells[1]);
        }
        if let Some((n, [axis, soviet])) = mean_vps(results) {
            let _ = writeln!(
                t,
                "\nvictory points at the end (14.0.1), mean of {n} games: Axis {axis:.1}, \
                 Soviet {soviet:.1}"
            );
        }
        t
    }
}

/// A Victory Lost: the mean final victory points of the Axis and the Soviet player
/// (seat order) over the games that ended by the rules, with their number; `None` if
/// none did.
fn mean_vps(results: &[GameResult]) -> Option<(usize, [f64; 2])> {
    let ended: Vec<&Vec<i64>> = results
        .iter()
        .map(|r| &r.scores)
        .filter(|s| s.len() == 2)
        .collect();
    if ended.is_empty() {
        return None;
    }
    let n = ended.len() as f64;
    let mean = |seat: usize| ended.iter().map(|s| s[seat] as f64).sum::<f64>() / n;
    Some((ended.len(), [mean(0), mean(1)]))
}

/// The lineups (bot index per seat, before rotation) the tournament plays.
fn pairings(bots: usize, players: usize) -> Result<Vec<Vec<usize>>, String> {
    if bots == players {
        Ok(vec![(0..bots).collect()])
    } else if bots == 2 && players > 2 {
        let mut l = vec![1; players];
        l[0] = 0;
        Ok(vec![l])
    } else if players == 2 && bots > 2 {
        let mut v = Vec::new();
        for a in 0..bots {
            for b in a + 1..bots {
                v.push(vec![a, b]);
            }
        }
        Ok(v)
    } else {
        Err(format!(
            "{bots} bots for {players} players: give as many bots as players, two bots \
             (the first against a field of the second), or two players"
        ))
    }
}

fn simulate(args: &SimulateArgs) -> Result<(), String> {
    let run = tournament_of(&args.game).ok_or_else(|| {
        let catalog = server::catalog();
        let names: Vec<&str> = catalog.entries().map(protocol::GameEntry::name).collect();
        format!("no game {:?}; the games are {names:?}", args.game)
    })?;
    run(args)
}

/// A tournament of one game family.
type Tournament = fn(&SimulateArgs) -> Result<(), String>;

/// The tournament of the game named `name`: bots play typed games, so each game of
/// [`server::catalog`] is matched here by hand (a test checks that none is missing).
fn tournament_of(name: &str) -> Option<Tournament> {
    match name {
        "viktory" => Some(tournament::<Viktory>),
        "avl" => Some(tournament::<Avl>),
        _ => None,
    }
}

fn tournament<G: Family>(args: &SimulateArgs) -> Result<(), String> {
    let start = G::start(args)?;
    let start_state = &start.state;
    for b in &args.bots {
        make_bot::<G>(b, args)?;
    }
    let players = usize::from(args.players);
    let lineups = pairings(args.bots.len(), players)?;
    // Game i: lineup i / games, rotated by i so that each bot sits in each seat.
    let total = lineups.len() * args.games;
    let jobs: Vec<(u64, Vec<usize>)> = (0..total)
        .map(|i| {
            let base = &lineups[i / args.games.max(1)];
            let r = i % players;
            let lineup = (0..players).map(|s| base[(s + r) % players]).collect();
            (
                args.seed.wrapping_mul(1_000_003).wrapping_add(i as u64),
                lineup,
            )
        })
        .collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameResult>>> = Mutex::new(vec![None; total]);
    let started = Instant::now();
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.clamp(1, total.max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    let (seed, lineup) = &jobs[i];
                    match play_one(args, start_state, i, *seed, lineup) {
                        Ok(r) => {
                            if let Ok(mut v) = results.lock() {
                                v[i] = Some(r);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                *f = Some(e);
                            }
                        }
                    }
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(d, total, started.elapsed());
                }
            });
        }
    });
    eprintln!();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let results: Vec<GameResult> = results
        .into_inner()
        .map_err(|_| "a game thread failed".to_owned())?
        .into_iter()
        .flatten()
        .collect();
    let summary = summarize(args, &results);
    print!(
        "{}",
        table::<G>(args, &start.header, &summary, &results, started.elapsed())
    );
    if let Some(path) = &args.json {
        let mut doc = json!({
            "command": std::env::args().collect::<Vec<_>>().join(" "),
            "bots": args.bots,
            "players": args.players,
            "games_per_pairing": args.games,
            "seed": args.seed,
            "budget": budget(args).describe(),
            "trees": args.trees,
            "summary": summary.iter().map(BotSummary::to_json).collect::<Vec<_>>(),
            "games": results.iter().map(|r| json!({
                "index": r.index,
                "seed": r.seed,
                "seats": r.lineup.iter().map(|&b| args.bots[b].clone()).collect::<Vec<_>>(),
                "shares": r.shares,
                "scores": r.scores,
                "reason": r.reason,
                "turns": r.turns,
                "decisions": r.decisions,
            })).collect::<Vec<_>>(),
        });
        if let Value::Object(m) = &mut doc {
            m.extend(start.fields.clone());
        }
        let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        std::fs::write(path, svg(args, &start.chart, &summary))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

fn play_one<G: Family>(
    args: &SimulateArgs,
    start: &G,
    index: usize,
    seed: u64,
    lineup: &[usize],
) -> Result<GameResult, String> {
    let mut bots = lineup
        .iter()
        .map(|&b| make_bot::<G>(&args.bots[b], args))
        .collect::<Result<Vec<_>, _>>()?;
    let played = ai::arena::play_game(start.clone(), &mut bots, seed, 2_000_000, G::turn_marker);
    let n = lineup.len();
    let reward = played
        .state
        .outcome_reward()
        .unwrap_or_else(|| vec![1.0 / n as f64; n]);
    let outcome = played.outcome.clone();
    Ok(GameResult {
        index,
        seed,
        lineup: lineup.to_vec(),
        shares: reward,
        scores: outcome
            .as_ref()
            .map(|o| o.scores.clone())
            .unwrap_or_default(),
        reason: match outcome {
            Some(o) => o.reason,
            None if played.stuck => "stuck (no legal action)".into(),
            None => "decision limit".into(),
        },
        // Both families count their turns (engine::Game::game_turn), within u16.
        turns: engine::Game::game_turn(&played.state)
            .and_then(|t| u16::try_from(t).ok())
            .unwrap_or(0),
        decisions: played.decisions,
        thinking: played
            .thinking
            .iter()
            .zip(&played.turns)
            .map(|(&(d, t), &turns)| (d, t.as_secs_f64(), turns))
            .collect(),
        turn_secs: played
            .turn_thinking
            .iter()
            .map(|turns| turns.iter().map(Duration::as_secs_f64).collect())
            .collect(),
    })
}

fn progress(done: usize, total: usize, elapsed: Duration) {
    let width = 30;
    let filled = done * width / total.max(1);
    let eta = if done > 0 {
        elapsed.as_secs_f64() / done as f64 * (total - done) as f64
    } else {
        0.0
    };
    eprint!(
        "\r[{}{}] {done}/{total} games, {:.0}s elapsed, ~{:.0}s left   ",
        "=".repeat(filled),
        " ".repeat(width - filled),
        elapsed.as_secs_f64(),
        eta
    );
}

/// One bot's results.
struct BotSummary {
    name: String,
    games: usize,
    wins: f64,
    low: f64,
    high: f64,
    elo: f64,
    ms_per_decision: f64,
    s_per_turn: f64,
    /// The median and the longest of its player turns' thinking, in seconds.
    s_per_turn_median: f64,
    s_per_turn_max: f64,
    /// Against each other bot: (games together, share of wins among the two).
    versus: Vec<(usize, f64)>,
}

impl BotSummary {
    fn rate(&self) -> f64 {
        self.wins / self.games.max(1) as f64
    }

    fn to_json(&self) -> Value {
        json!({
            "bot": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.rate(),
            "ci95": [self.low, self.high],
            "elo": self.elo,
            "ms_per_decision": self.ms_per_decision,
            "s_per_turn": self.s_per_turn,
            "s_per_turn_median": self.s_per_turn_median,
            "s_per_turn_max": self.s_per_turn_max,
        })
    }
}

/// Wilson score interval at 95 % for `wins` of `n`.
pub(crate) fn wilson(wins: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z = 1.959_964;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn summarize(args: &SimulateArgs, results: &[GameResult]) -> Vec<BotSummary> {
    let k = args.bots.len();
    // Pairwise: score[a][b] = a's wins over b (shared wins halved), games[a][b].
    let mut score = vec![vec![0.0f64; k]; k];
    let mut together = vec![vec![0usize; k]; k];
    let mut out: Vec<BotSummary> = args
        .bots
        .iter()
        .map(|b| BotSummary {
            name: b.clone(),
            games: 0,
            wins: 0.0,
            low: 0.0,
            high: 1.0,
            elo: 0.0,
            ms_per_decision: 0.0,
            s_per_turn: 0.0,
            s_per_turn_median: 0.0,
            s_per_turn_max: 0.0,
            versus: vec![(0, 0.0); k],
        })
        .collect();
    let mut think = vec![(0u64, 0.0f64, 0u64); k];
    let mut turn_secs: Vec<Vec<f64>> = vec![Vec::new(); k];
    for r in results {
        let mut present: Vec<usize> = r.lineup.clone();
        present.sort_unstable();
        present.dedup();
        for &b in &present {
            out[b].games += 1;
            // A bot filling several seats wins when any of them does.
            out[b].wins += r
                .lineup
                .iter()
                .zip(&r.shares)
                .filter(|(x, _)| **x == b)
                .map(|(_, s)| *s)
                .sum::<f64>();
        }
        for (s, &b) in r.lineup.iter().enumerate() {
            let (d, t, turns) = r.thinking[s];
            think[b].0 += d;
            think[b].1 += t;
            think[b].2 += turns;
            turn_secs[b].extend(r.turn_secs.get(s).into_iter().flatten());
            for (s2, &b2) in r.lineup.iter().enumerate() {
                if b2 == b {
                    continue;
                }
                together[b][b2] += 1;
                // Pairwise result between two seats: the better share wins.
                score[b][b2] += match r.shares[s].total_cmp(&r.shares[s2]) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
            }
        }
    }
    let elo = bradley_terry(&score, &together);
    for (b, s) in out.iter_mut().enumerate() {
        let (lo, hi) = wilson(s.wins, s.games);
        s.low = lo;
        s.high = hi;
        s.elo = elo[b];
        let (d, t, turns) = think[b];
        s.ms_per_decision = if d > 0 { t * 1000.0 / d as f64 } else { 0.0 };
        s.s_per_turn = if turns > 0 { t / turns as f64 } else { 0.0 };
        let secs = &mut turn_secs[b];
        secs.sort_by(f64::total_cmp);
        s.s_per_turn_median = secs.get(secs.len() / 2).copied().unwrap_or(0.0);
        s.s_per_turn_max = secs.last().copied().unwrap_or(0.0);
        for b2 in 0..k {
            let n = together[b][b2];
            s.versus[b2] = (n, if n > 0 { score[b][b2] / n as f64 } else { 0.0 });
        }
    }
    out
}

/// Elo ratings from pairwise results (Bradley–Terry by minorization–maximization, a
/// half win of prior against each opponent so that a clean sweep stays finite),
/// centred on 1500.
fn bradley_terry(score: &[Vec<f64>], games: &[Vec<usize>]) -> Vec<f64> {
    let k = score.len();
    let mut gamma = vec![1.0f64; k];
    for _ in 0..500 {
        let mut next = gamma.clone();
        for i in 0..k {
            let mut wins = 0.0;
            let mut denom = 0.0;
            for j in 0..k {
                let n = games[i][j] as f64;
                if i == j || n == 0.0 {
                    continue;
                }
                wins += score[i][j] + 0.5;
                denom += (n + 1.0) / (gamma[i] + gamma[j]);
            }
            if denom > 0.0 {
                next[i] = wins / denom;
            }
        }
        let mean_log = next.iter().map(|g| g.ln()).sum::<f64>() / k as f64;
        gamma = next.iter().map(|g| (g.ln() - mean_log).exp()).collect();
    }
    gamma.iter().map(|g| 1500.0 + 400.0 * g.log10()).collect()
}

fn table<G: Family>(
    args: &SimulateArgs,
    header: &str,
    s: &[BotSummary],
    results: &[GameResult],
    elapsed: Duration,
) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} games, {} players, {header}, seed {}, MCTS budget {} ({} tree(s)), {:.0}s",
        results.len(),
        args.players,
        args.seed,
        budget(args).describe(),
        args.trees,
        elapsed.as_secs_f64()
    );
    let _ = writeln!(t, "{}", G::endings(results));
    let _ = writeln!(
        t,
        "\n| bot | games | wins | win rate | 95 % CI (Wilson) | Elo | ms/decision | s/turn | s/turn median | s/turn max |"
    );
    let _ = writeln!(t, "|---|---|---|---|---|---|---|---|---|---|");
    for b in s {
        let _ = writeln!(
            t,
            "| {} | {} | {:.1} | {:.1} % | {:.1}–{:.1} % | {:.0} | {:.1} | {:.2} | {:.2} | {:.2} |",
            b.name,
            b.games,
            b.wins,
            100.0 * b.rate(),
            100.0 * b.low,
            100.0 * b.high,
            b.elo,
            b.ms_per_decision,
            b.s_per_turn,
            b.s_per_turn_median,
            b.s_per_turn_max
        );
    }
    if s.len() > 1 {
        let _ = writeln!(
            t,
            "\npairwise (row's share of the games against column, seat by seat):"
        );
        for b in s {
            let cells: Vec<String> = b
                .versus
                .iter()
                .zip(s)
                .filter(|((n, _), o)| *n > 0 && o.name != b.name)
                .map(|((n, r), o)| format!("{} {:.1} % of {n}", o.name, 100.0 * r))
                .collect();
            let _ = writeln!(t, "  {}: {}", b.name, cells.join(", "));
        }
    }
    t.push_str(&G::after(args, results));
    t
}

fn svg(args: &SimulateArgs, label: &str, s: &[BotSummary]) -> String {
    let bar_h = 28;
    let left = 120.0_f64;
    let width = 640;
    let plot = 480.0_f64;
    let height = 70 + s.len() * (bar_h + 12) + 30;
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(
        o,
        r#"<text x="10" y="22" font-size="15">Win rates, {} players, {} (95 % Wilson intervals)</text>"#,
        args.players,
        escape(label)
    );
    for pct in [0, 25, 50, 75, 100] {
        let x = left + plot * f64::from(pct) / 100.0;
        let _ = writeln!(
            o,
            r##"<line x1="{x}" y1="40" x2="{x}" y2="{}" stroke="#ccc"/><text x="{x}" y="{}" text-anchor="middle">{pct} %</text>"##,
            height - 30,
            height - 12
        );
    }
    for (i, b) in s.iter().enumerate() {
        let y = 50 + i * (bar_h + 12);
        let w = (plot * b.rate()).round();
        let lo = left + plot * b.low;
        let hi = left + plot * b.high;
        let mid = y + bar_h / 2;
        let _ = writeln!(
            o,
            r##"<text x="{}" y="{}" text-anchor="end">{}</text><rect x="{left}" y="{y}" width="{w}" height="{bar_h}" fill="#4a7ab5"/><line x1="{lo:.1}" y1="{mid}" x2="{hi:.1}" y2="{mid}" stroke="#000" stroke-width="2"/><line x1="{lo:.1}" y1="{}" x2="{lo:.1}" y2="{}" stroke="#000"/><line x1="{hi:.1}" y1="{}" x2="{hi:.1}" y2="{}" stroke="#000"/>"##,
            left - 8.0,
            mid + 5,
            escape(&b.name),
            mid - 6,
            mid + 6,
            mid - 6,
            mid + 6
        );
    }
    o.push_str("</svg>\n");
    o
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        let (lo, hi) = wilson(95.0, 100);
        assert!(
            (lo - 0.8882).abs() < 1e-3 && (hi - 0.9785).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0.0, 0), (0.0, 1.0));
    }

    fn ended(scores: Vec<i64>) -> GameResult {
        GameResult {
            index: 0,
            seed: 0,
            lineup: vec![0, 1],
            shares: vec![0.5, 0.5],
            scores,
            reason: String::new(),
            turns: 9,
            decisions: 0,
            thinking: Vec::new(),
            turn_secs: Vec::new(),
        }
    }

    /// The s/turn median and max columns come from every player turn a bot played, in
    /// whichever seat (issue 29 measures a level's wait per turn by them).
    #[test]
    fn turn_times_are_summarised_over_every_turn_of_a_bot() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: SimulateArgs,
        }
        let cli = <Cli as clap::Parser>::parse_from(["simulate", "--bots", "normal,easy"]);
        let game = |lineup: Vec<usize>, turn_secs: Vec<Vec<f64>>| GameResult {
            lineup,
            thinking: turn_secs
                .iter()
                .map(|t| (t.len() as u64, t.iter().sum(), t.len() as u64))
                .collect(),
            turn_secs,
            ..ended(vec![])
        };
        let results = vec![
            game(vec![0, 1], vec![vec![0.5, 1.0, 3.0], vec![0.0]]),
            game(vec![1, 0], vec![vec![0.0, 0.1], vec![0.7, 0.9]]),
        ];
        let s = summarize(&cli.args, &results);
        assert_eq!((s[0].s_per_turn_median, s[0].s_per_turn_max), (0.9, 3.0));
        assert!(
            (s[0].s_per_turn - 6.1 / 5.0).abs() < 1e-9,
            "{}",
            s[0].s_per_turn
        );
        assert_eq!((s[1].s_per_turn_median, s[1].s_per_turn_max), (0.0, 0.1));
    }

    #[test]
    fn mean_victory_points_leave_out_games_that_did_not_end() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: SimulateArgs,
        }
        let results = vec![ended(vec![25, 40]), ended(vec![30, 21]), ended(Vec::new())];
        assert_eq!(mean_vps(&results), Some((2, [27.5, 30.5])));
        assert_eq!(mean_vps(&results[2..]), None);
        let cli = <Cli as clap::Parser>::parse_from(["simulate", "--game", "avl"]);
        let text = Avl::after(&cli.args, &results);
        assert!(
            text.contains("mean of 2 games: Axis 27.5, Soviet 30.5"),
            "{text}"
        );
    }

    /// `simulate` plays every game of the one catalog the server and the other
    /// commands use; the toy game is not one.
    #[test]
    fn simulate_knows_every_game_of_the_catalog() {
        for entry in server::catalog().entries() {
            assert!(tournament_of(entry.name()).is_some(), "{}", entry.name());
        }
        assert!(tournament_of("dice-race").is_none());
    }

    /// `fresh-NAME` is the search without the turn's kept tree, or greedy without its
    /// kept plan (issue 29 measures what keeping them gains); random keeps nothing.
    #[test]
    fn fresh_bots_start_every_search_anew() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: SimulateArgs,
        }
        let cli = <Cli as clap::Parser>::parse_from(["simulate", "--iterations", "50"]);
        let name = |bot: &str| make_bot::<Viktory>(bot, &cli.args).map(|b| b.name());
        assert_eq!(name("normal"), Ok("mcts(250 ms)".into()));
        assert_eq!(name("fresh-normal"), Ok("mcts(250 ms, fresh)".into()));
        assert_eq!(name("fresh-hard:hand"), Ok("mcts(1000 ms, fresh)".into()));
        assert_eq!(name("mcts"), Ok("mcts(50 it)".into()));
        assert_eq!(name("fresh-mcts"), Ok("mcts(50 it, fresh)".into()));
        assert_eq!(name("easy"), Ok("greedy".into()));
        assert_eq!(name("fresh-easy"), Ok("greedy(fresh)".into()));
        assert_eq!(name("fresh-greedy:hand"), Ok("greedy(fresh)".into()));
        assert!(name("fresh-random").is_err());
    }

    #[test]
    fn elo_of_a_75_percent_score_is_about_190_points() {
        let score = vec![vec![0.0, 750.0], vec![250.0, 0.0]];
        let games = vec![vec![0, 1000], vec![1000, 0]];
        let e = bradley_terry(&score, &games);
        assert!((e[0] - e[1] - 190.8).abs() < 3.0, "{e:?}");
    }
}
