//! Tuning the evaluation's weights (`hexwar tune`, issue 29), so that they are learnt
//! from games rather than set by hand, and can be learnt again when the rules or the
//! evaluation's terms change. Two methods:
//!
//! - **By play** ([`spsa`], the default): simultaneous perturbation stochastic
//!   approximation, as chess engines tune theirs by playing. Each step draws a random
//!   sign for every weight, plays greedy bots with the weights moved up against bots
//!   with them moved down (seat-swapped games on the same seeds), and moves every
//!   weight towards the side that scored more. The result is the mean of the last
//!   third of the steps; [`match_score`] then plays it against the start.
//! - **By prediction** ([`self_play`], [`fit`]): positions from greedy self-play,
//!   labelled with how their games ended; coordinate descent ("Texel tuning") lowers
//!   the cross-entropy between the evaluation's win shares and the results. Every fifth
//!   game is held out to test the fit. Weights that predict results better need not
//!   play better (docs/ai.md has the figures).
//!
//! Everything is a function of the seed: the games, the signs, the split and the search.

use std::sync::Arc;
use std::sync::mpsc;

use engine::ToMove;

use engine::GameRng;

use crate::arena::{bot_rng, chance_rng, play_game};
use crate::{AiGame, Bot, Greedy};

/// Steps (chance included) per allowed seat decision before a game is given up.
const CHANCE_PER_DECISION: u64 = 50;

/// A position and how its game ended.
#[derive(Clone, Debug)]
pub struct Sample<G> {
    /// The position (the first decision of a player turn).
    pub state: G,
    /// Each seat's share of the win at the end of the game (winners share 1).
    pub result: Vec<f64>,
    /// The game it comes from (the held-out games are every fifth).
    pub game: usize,
}

impl<G> Sample<G> {
    /// Whether the sample belongs to the held-out games.
    pub fn held_out(&self) -> bool {
        self.game % 5 == 4
    }
}

/// How the positions are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Games to play.
    pub games: usize,
    /// Game `i` is seeded with `seed · 1000003 + i` (as `hexwar simulate` seeds them).
    pub seed: u64,
    /// Percent of the decisions taken at random.
    pub random_percent: u32,
    /// Seat decisions per game at most; a game stopped by it gives no positions.
    pub max_decisions: u64,
    /// Games played at once.
    pub threads: usize,
    /// The weights the greedy bots play with (`None`: the game's defaults).
    pub weights: Option<Arc<[f64]>>,
}

/// The positions of [`SelfPlay`]'s games that finished, game by game.
pub fn self_play<G: AiGame + Sync>(start: &G, plan: &SelfPlay) -> Vec<Sample<G>> {
    let threads = plan.threads.clamp(1, plan.games.max(1));
    let mut per_game: Vec<(usize, Vec<Sample<G>>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                scope.spawn(move || {
                    (k..plan.games)
                        .step_by(threads)
                        .map(|i| (i, play_one(start, plan, i)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    per_game.sort_by_key(|(i, _)| *i);
    per_game.into_iter().flat_map(|(_, s)| s).collect()
}

/// One game of [`self_play`]: its positions, or none when it did not finish.
fn play_one<G: AiGame>(start: &G, plan: &SelfPlay, index: usize) -> Vec<Sample<G>> {
    let seed = plan.seed.wrapping_mul(1_000_003).wrapping_add(index as u64);
    let mut bot = Greedy {
        weights: plan.weights.clone(),
        ..Greedy::default()
    };
    let mut state = start.clone();
    let mut positions: Vec<G> = Vec::new();
    let mut last_turn = None;
    let mut step = 0u64;
    let mut decisions = 0u64;
    loop {
        match state.to_move() {
            ToMove::Over(_) => break,
            ToMove::Chance => {
                if step >= plan.max_decisions.saturating_mul(CHANCE_PER_DECISION) {
                    return Vec::new();
                }
                let a = state.sample_chance(&mut chance_rng(seed, step));
                state.apply_unchecked(a);
            }
            ToMove::Seat(seat) => {
                if decisions >= plan.max_decisions {
                    return Vec::new();
                }
                let turn = state.turn_marker();
                if last_turn != Some(turn) {
                    last_turn = Some(turn);
                    positions.push(state.clone());
                }
                let legal = state.legal_actions();
                if legal.is_empty() {
                    return Vec::new();
                }
                let mut rng = bot_rng(seed, step);
                let i = if rng.below(100) < plan.random_percent {
                    rng.below(legal.len() as u32) as usize
                } else {
                    let view = state.view(Some(seat));
                    Bot::<G>::choose(&mut bot, &view, &legal, &mut rng).min(legal.len() - 1)
                };
                state.apply_unchecked(legal[i].clone());
                decisions += 1;
            }
        }
        step += 1;
    }
    let Some(result) = state.outcome_reward() else {
        return Vec::new();
    };
    positions
        .into_iter()
        .map(|state| Sample {
            state,
            result: result.clone(),
            game: index,
        })
        .collect()
}

/// The cross-entropy of predicted win shares against a result: `−Σ y·ln q` (a share
/// predicted as less than one in a million counts as one in a million).
pub fn cross_entropy(predicted: &[f64], result: &[f64]) -> f64 {
    result
        .iter()
        .zip(predicted)
        .filter(|(y, _)| **y > 0.0)
        .map(|(y, q)| -y * q.max(1e-6).ln())
        .sum()
}

/// The mean loss of `weights` on the training and on the held-out samples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// On the training positions.
    pub train: f64,
    /// On the held-out games' positions.
    pub test: f64,
}

/// What [`fit`] found.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The tuned weights.
    pub weights: Vec<f64>,
    /// The starting weights' losses.
    pub before: Losses,
    /// The tuned weights' losses.
    pub after: Losses,
    /// The training loss after each pass of the descent.
    pub passes: Vec<f64>,
    /// Times the loss was computed.
    pub evaluations: usize,
}

/// Tunes `start` on `samples` by [`descend`], the loss computed on `threads` threads
/// (each keeps its share of the positions, and its battle-odds memo stays warm).
/// `steps[i]` is weight `i`'s first step; 0 keeps it fixed.
pub fn fit<G: AiGame + Sync>(
    samples: &[Sample<G>],
    start: &[f64],
    steps: &[f64],
    passes: usize,
    threads: usize,
) -> Fit {
    let threads = threads.clamp(1, samples.len().max(1));
    let chunk = samples.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<(usize, Vec<f64>)>();
        let mut asks: Vec<mpsc::Sender<Arc<[f64]>>> = Vec::new();
        for (k, part) in samples.chunks(chunk).enumerate() {
            let (tx, rx) = mpsc::channel::<Arc<[f64]>>();
            asks.push(tx);
            let done = done_tx.clone();
            scope.spawn(move || {
                while let Ok(w) = rx.recv() {
                    let each = part
                        .iter()
                        .map(|s| cross_entropy(&s.state.reward_with(Some(&w)), &s.result))
                        .collect();
                    if done.send((k, each)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let mut evaluations = 0;
        let mut losses = |w: &[f64]| -> Losses {
            evaluations += 1;
            let w: Arc<[f64]> = w.into();
            for ask in &asks {
                // A worker only stops when the asks end.
                let _ = ask.send(Arc::clone(&w));
            }
            let mut parts: Vec<Option<Vec<f64>>> = vec![None; asks.len()];
            for _ in 0..asks.len() {
                let Ok((k, each)) = done_rx.recv() else { break };
                parts[k] = Some(each);
            }
            // Summed in the samples' order, so the thread count changes no bit of it.
            let mut total = [(0.0, 0usize); 2];
            for (part, each) in samples.chunks(chunk).zip(parts) {
                // A worker that stopped (the evaluation panicked) leaves no loss to
                // trust; the scope passes its panic on when it ends.
                let Some(each) = each else {
                    return Losses {
                        train: f64::INFINITY,
                        test: f64::INFINITY,
                    };
                };
                for (s, l) in part.iter().zip(each) {
                    let t = &mut total[usize::from(s.held_out())];
                    t.0 += l;
                    t.1 += 1;
                }
            }
            let mean = |(sum, n): (f64, usize)| if n == 0 { 0.0 } else { sum / n as f64 };
            Losses {
                train: mean(total[0]),
                test: mean(total[1]),
            }
        };
        let before = losses(start);
        let (weights, passes) = descend(&mut |w| losses(w).train, start, steps, passes);
        let after = losses(&weights);
        drop(asks);
        Fit {
            weights,
            before,
            after,
            passes,
            evaluations,
        }
    })
}

/// Coordinate descent on `loss` from `start`: each pass tries, for every weight with a
/// step, the weight plus and minus its step (never below zero); the better move is kept
/// if it lowers the loss, else the step is halved. Stops after `passes` passes or once
/// a pass changes nothing. Returns the weights and the loss after each pass.
pub fn descend(
    loss: &mut dyn FnMut(&[f64]) -> f64,
    start: &[f64],
    steps: &[f64],
    passes: usize,
) -> (Vec<f64>, Vec<f64>) {
    let mut w = start.to_vec();
    let mut step: Vec<f64> = steps.iter().map(|s| s.abs()).collect();
    step.resize(w.len(), 0.0);
    let mut best = loss(&w);
    let mut history = Vec::new();
    for _ in 0..passes {
        let mut moved = false;
        for i in 0..w.len() {
            if step[i] <= 0.0 {
                continue;
            }
            let mut choice: Option<(f64, f64)> = None;
            for candidate in [w[i] + step[i], w[i] - step[i]] {
                if candidate < 0.0 {
                    continue;
                }
                let mut trial = w.clone();
                trial[i] = candidate;
                let l = loss(&trial);
                if l < best - 1e-12 && choice.is_none_or(|(_, c)| l < c) {
                    choice = Some((candidate, l));
                }
            }
            match choice {
                Some((value, l)) => {
                    w[i] = value;
                    best = l;
                    moved = true;
                }
                None => step[i] /= 2.0,
            }
        }
        history.push(best);
        if !moved && step.iter().all(|&s| s < 1e-4) {
            break;
        }
    }
    (w, history)
}

/// The first step of each weight for a tuning run ([`crate::AiGame::tuning_scales`]): a
/// quarter of its value, at least `floor`, but 0 (kept as it is) for the weights named in
/// `fixed`. `names` are the weights' names, in `values`' order.
pub fn quarter_scales(names: &[&str], values: &[f64], fixed: &[&str], floor: f64) -> Vec<f64> {
    names
        .iter()
        .zip(values)
        .map(|(name, v)| {
            if fixed.contains(name) {
                0.0
            } else {
                (v.abs() * 0.25).max(floor)
            }
        })
        .collect()
}

/// How [`spsa`] plays and steps.
#[derive(Clone, Debug)]
pub struct Spsa {
    /// Steps.
    pub steps: usize,
    /// Games per step, rounded up to a multiple of the seats (each seed is played with
    /// the "up" bot in every seat).
    pub games: usize,
    /// Seed of the signs and of the games.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Seat decisions per game at most (a game stopped by it counts as shared).
    pub max_decisions: u64,
    /// The step's size: a weight moves by about `a / (k + 1 + steps/10)^0.602` of its
    /// scale per unit of score difference at step `k`.
    pub a: f64,
    /// The perturbation: weights are moved up and down by `c / (k + 1)^0.101` of their
    /// scale.
    pub c: f64,
}

impl Default for Spsa {
    fn default() -> Self {
        Spsa {
            steps: 500,
            games: 16,
            seed: 1,
            threads: 2,
            max_decisions: 20_000,
            a: 2.0,
            c: 1.0,
        }
    }
}

/// One step of [`spsa`]: the mean share the "up" weights scored, and the weights after.
#[derive(Clone, Debug)]
pub struct Step {
    /// The up bot's mean share of the win in the step's games.
    pub up_share: f64,
    /// The weights after the step.
    pub weights: Vec<f64>,
}

/// One game of a match: its seed, the seat of the bot with weights `a`, and the two sets
/// of weights.
struct Job {
    index: usize,
    seed: u64,
    seat: usize,
    a: Arc<[f64]>,
    b: Arc<[f64]>,
}

/// Threads that play the games of matches, kept for a whole tuning run so that each
/// keeps its battle-odds memo warm (a thread started afresh for every step solved its
/// battles again and played five times slower).
struct Players {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<(usize, f64)>,
    seats: usize,
}

impl Players {
    /// Starts `threads` players of `start` in `scope`.
    fn start<'scope, 'env, G: AiGame + Sync>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        start: &'env G,
        threads: usize,
        max_decisions: u64,
    ) -> Players {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (done_tx, done) = mpsc::channel::<(usize, f64)>();
        let job_rx = Arc::new(std::sync::Mutex::new(job_rx));
        let seats = usize::from(start.seats()).max(1);
        for _ in 0..threads.max(1) {
            let job_rx = Arc::clone(&job_rx);
            let done_tx = done_tx.clone();
            scope.spawn(move || {
                loop {
                    // The lock is held only to take the next job.
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok(job) = job else { return };
                    let share = play_match_game(start, &job, seats, max_decisions);
                    if done_tx.send((job.index, share)).is_err() {
                        return;
                    }
                }
            });
        }
        Players { jobs, done, seats }
    }

    /// The mean share of `a` against `b` over `games` games (see [`match_score`]).
    fn score(&self, a: &Arc<[f64]>, b: &Arc<[f64]>, games: usize, seed: u64) -> f64 {
        let seeds = games.div_ceil(self.seats).max(1);
        let mut sent = 0;
        for j in 0..seeds {
            for seat in 0..self.seats {
                let job = Job {
                    index: sent,
                    seed: seed.wrapping_mul(1_000_003).wrapping_add(j as u64),
                    seat,
                    a: Arc::clone(a),
                    b: Arc::clone(b),
                };
                if self.jobs.send(job).is_err() {
                    break;
                }
                sent += 1;
            }
        }
        let mut shares = vec![1.0 / self.seats as f64; sent];
        for _ in 0..sent {
            let Ok((i, share)) = self.done.recv() else {
                break;
            };
            shares[i] = share;
        }
        // Summed in the games' order, so the thread count changes no bit of it.
        shares.iter().sum::<f64>() / sent.max(1) as f64
    }
}

/// `job.a`'s share of the win in one game, greedy bots in every seat.
fn play_match_game<G: AiGame>(start: &G, job: &Job, seats: usize, max_decisions: u64) -> f64 {
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..seats)
        .map(|k| {
            let w = if k == job.seat { &job.a } else { &job.b };
            Box::new(Greedy {
                weights: Some(Arc::clone(w)),
                ..Greedy::default()
            }) as Box<dyn Bot<G>>
        })
        .collect();
    let played = play_game(
        start.clone(),
        &mut bots,
        job.seed,
        max_decisions,
        G::turn_marker,
    );
    played
        .state
        .outcome_reward()
        .and_then(|r| r.get(job.seat).copied())
        .unwrap_or(1.0 / seats as f64)
}

/// The mean share of the win of greedy bots with weights `a` against greedy bots with
/// weights `b`: `games` games (rounded up to a multiple of the seats), each seed played
/// with `a` in every seat in turn and `b` in the others. Game `j` of the seeds is
/// seeded `seed · 1000003 + j`; a game that does not end counts as shared.
pub fn match_score<G: AiGame + Sync>(
    start: &G,
    a: &Arc<[f64]>,
    b: &Arc<[f64]>,
    games: usize,
    seed: u64,
    threads: usize,
    max_decisions: u64,
) -> f64 {
    std::thread::scope(|scope| {
        let players = Players::start(scope, start, threads, max_decisions);
        players.score(a, b, games, seed)
        // Dropping the players ends their threads.
    })
}

/// SPSA from `from`, each weight moved in units of its `scale` (0: kept fixed), never
/// below zero. `each` hears of every step as it ends. Returns the mean of the weights
/// over the last third of the steps.
pub fn spsa<G: AiGame + Sync>(
    start: &G,
    from: &[f64],
    scale: &[f64],
    plan: &Spsa,
    each: &mut dyn FnMut(usize, &Step),
) -> Vec<f64> {
    std::thread::scope(|scope| {
        let players = Players::start(scope, start, plan.threads, plan.max_decisions);
        spsa_with(&players, from, scale, plan, each)
    })
}

fn spsa_with(
    players: &Players,
    from: &[f64],
    scale: &[f64],
    plan: &Spsa,
    each: &mut dyn FnMut(usize, &Step),
) -> Vec<f64> {
    let n = from.len();
    let seats = players.seats as f64;
    let mut w = from.to_vec();
    let mut tail = vec![0.0; n];
    let mut counted = 0usize;
    let big_a = plan.steps as f64 / 10.0;
    let mut signs = GameRng::from_u64(plan.seed ^ 0x5b5a_0000_0000_0000);
    for k in 0..plan.steps {
        let kf = k as f64;
        let a_k = plan.a / (kf + 1.0 + big_a).powf(0.602);
        let c_k = plan.c / (kf + 1.0).powf(0.101);
        let delta: Vec<f64> = (0..n)
            .map(|_| if signs.below(2) == 0 { -1.0 } else { 1.0 })
            .collect();
        let moved = |sign: f64| -> Arc<[f64]> {
            (0..n)
                .map(|i| (w[i] + sign * c_k * delta[i] * scale[i]).max(0.0))
                .collect::<Vec<f64>>()
                .into()
        };
        let (up, down) = (moved(1.0), moved(-1.0));
        let game_seed = plan.seed.wrapping_mul(7_919).wrapping_add(k as u64);
        let up_share = players.score(&up, &down, plan.games, game_seed);
        // How much better up did than an even share, doubled: in a two-player game, up's
        // share minus down's.
        let diff = 2.0 * (up_share - 1.0 / seats);
        for i in 0..n {
            if scale[i] > 0.0 {
                let g = diff / (2.0 * c_k * delta[i]);
                w[i] = (w[i] + a_k * g * scale[i]).max(0.0);
            }
        }
        if 3 * k >= 2 * plan.steps {
            for (t, x) in tail.iter_mut().zip(&w) {
                *t += x;
            }
            counted += 1;
        }
        each(
            k,
            &Step {
                up_share,
                weights: w.clone(),
            },
        );
    }
    if counted == 0 {
        return w;
    }
    tail.into_iter().map(|t| t / counted as f64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The descent finds the minimum of a bowl whose weights interact, and keeps a
    /// weight without a step where it was.
    #[test]
    fn descent_finds_a_bowls_bottom() {
        let mut calls = 0;
        let mut bowl = |w: &[f64]| {
            calls += 1;
            (w[0] - 3.0).powi(2)
                + 2.0 * (w[1] - 0.5).powi(2)
                + 0.5 * (w[0] - w[1] - 2.5).powi(2)
                + w[2]
        };
        let (w, history) = descend(&mut bowl, &[1.0, 2.0, 7.0], &[1.0, 1.0, 0.0], 60);
        assert!((w[0] - 3.0).abs() < 0.01, "{w:?}");
        assert!((w[1] - 0.5).abs() < 0.01, "{w:?}");
        assert!((w[2] - 7.0).abs() < 1e-12, "fixed weight moved: {w:?}");
        assert!(history.windows(2).all(|p| p[1] <= p[0]), "{history:?}");
        assert!(calls > 10);
    }

    /// Weights never go below zero, even when the loss would like them to.
    #[test]
    fn descent_keeps_weights_non_negative() {
        let (w, _) = descend(&mut |w: &[f64]| w[0], &[0.3], &[0.2], 30);
        assert!(w[0] >= 0.0 && w[0] < 0.01, "{w:?}");
    }

    #[test]
    fn cross_entropy_of_a_sure_right_guess_is_zero() {
        assert!(cross_entropy(&[1.0, 0.0], &[1.0, 0.0]).abs() < 1e-12);
        let even = cross_entropy(&[0.5, 0.5], &[1.0, 0.0]);
        assert!((even - std::f64::consts::LN_2).abs() < 1e-12);
        // A shared result counts both shares.
        let shared = cross_entropy(&[0.5, 0.5], &[0.5, 0.5]);
        assert!((shared - std::f64::consts::LN_2).abs() < 1e-12);
        // Certainty in the wrong seat is capped, not infinite.
        assert!(cross_entropy(&[0.0, 1.0], &[1.0, 0.0]).is_finite());
    }
}
