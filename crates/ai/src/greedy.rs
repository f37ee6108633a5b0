//! The greedy bot: score every candidate action, play the best (Wesnoth's RCA shape).

use engine::{GameRng, Seat};

use crate::{AiGame, Bot, settle};

/// Chance outcomes sampled after one action at most (a battle's dice, a reveal).
const SETTLE_LIMIT: usize = 400;

/// Tries every legal action on a state rebuilt from the view, samples the chance that
/// follows it `chance_samples` times, scores each result with [`AiGame::evaluate`] for
/// its own seat, and plays the best; ties go to passing.
///
/// Battles are scored by their odds inside the evaluation, so the bot attacks when the
/// odds are good, fights on while they stay good, and retreats when a battle turns bad.
#[derive(Clone, Copy, Debug)]
pub struct Greedy {
    /// Samples of the chance after an action that leads to chance.
    pub chance_samples: u32,
    /// Determinizations averaged over (more than one only matters with hidden units).
    pub determinizations: u32,
}

impl Default for Greedy {
    fn default() -> Self {
        Greedy {
            chance_samples: 3,
            determinizations: 1,
        }
    }
}

impl<G: AiGame> Bot<G> for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut GameRng) -> usize {
        if legal.len() <= 1 {
            return 0;
        }
        let Some(seat) = G::view_seat(view) else {
            return 0;
        };
        let mut total = vec![0.0; legal.len()];
        let mut used = 0;
        for _ in 0..self.determinizations.max(1) {
            let Some(state) = G::determinize(view, rng) else {
                continue;
            };
            let scores = scores(&state, legal, seat, self.chance_samples, rng);
            for (t, s) in total.iter_mut().zip(scores) {
                *t += s;
            }
            used += 1;
        }
        if used == 0 {
            return 0;
        }
        best::<G>(legal, &total)
    }
}

/// The index of the best score; ties (within 1e-9) prefer a pass, then the first.
/// Retractions ([`AiGame::is_retraction`]) only when nothing else is legal.
pub fn best<G: AiGame>(legal: &[G::Action], scores: &[f64]) -> usize {
    let allowed = |i: usize| !G::is_retraction(&legal[i]);
    let Some(mut best) = (0..legal.len()).find(|&i| allowed(i)) else {
        return 0;
    };
    for i in best + 1..legal.len() {
        if !allowed(i) {
            continue;
        }
        let (a, b) = (scores[i], scores[best]);
        if a > b + 1e-9
            || ((a - b).abs() <= 1e-9 && G::is_pass(&legal[i]) && !G::is_pass(&legal[best]))
        {
            best = i;
        }
    }
    best
}

/// Each action's worth for `seat`: the mean evaluation after it, over `samples` draws
/// of the chance that follows (one when none follows). With `samples == 0` the
/// position right after the action is scored, chance unresolved (cheap: priors and
/// rollouts).
pub fn scores<G: AiGame>(
    state: &G,
    legal: &[G::Action],
    seat: Seat,
    samples: u32,
    rng: &mut GameRng,
) -> Vec<f64> {
    legal
        .iter()
        .map(|a| {
            let mut after = state.clone();
            after.apply_unchecked(a.clone());
            if samples == 0 || after.to_move() != engine::ToMove::Chance {
                return value(&after, seat);
            }
            let mut sum = 0.0;
            for _ in 0..samples {
                let mut s = after.clone();
                settle(&mut s, rng, SETTLE_LIMIT);
                sum += value(&s, seat);
            }
            sum / f64::from(samples)
        })
        .collect()
}

fn value<G: AiGame>(state: &G, seat: Seat) -> f64 {
    state.reward().get(seat.index()).copied().unwrap_or(0.0)
}
